#!/usr/bin/env python3
"""Questions about the library (bench/data/library-questions.jsonl), asked through the CLI:
is each recognised as one (or left an ordinary question), and are exactly the expected
documents listed? Usage: bench/library-questions.py [--held-out] PAGEWISE LIBRARY=DATA_DIR...
The held-out set (bench/data/library-questions-heldout.jsonl) was written after the code and
is never tuned on."""
import json, os, subprocess, sys

def main():
    args = sys.argv[1:]
    held_out = args[:1] == ["--held-out"]
    args = args[1:] if held_out else args
    binary, libraries = args[0], dict(a.split("=", 1) for a in args[1:])
    name = "data/library-questions-heldout.jsonl" if held_out else "data/library-questions.jsonl"
    rows = [json.loads(l) for l in open(os.path.join(os.path.dirname(__file__), name))]
    per = {}
    for r in rows:
        if r["library"] not in libraries:
            continue
        out = subprocess.run([binary, "--data-dir", libraries[r["library"]], "ask", r["question"], "--json", "--extractive"], capture_output=True, text=True)
        answer = json.loads(out.stdout) if out.returncode == 0 else {}
        library = answer.get("mode") == "library"
        listed = sorted({c["doc_path"].rsplit("/", 1)[-1] for c in answer.get("citations", [])}) if library else []
        right = (not library) if r["expect"] is None else (library and listed == r["expect"])
        s = per.setdefault(r["library"], [0, 0])
        s[0] += right
        s[1] += 1
        mark = "ok " if right else "BAD"
        print(f"{mark} {r['library']:8} {r['question'][:60]:60} listed {len(listed)}" + ("" if right or r["expect"] is None else f" (expected {len(r['expect'])}: missing {sorted(set(r['expect']) - set(listed))[:3]}, extra {sorted(set(listed) - set(r['expect']))[:3]})"))
    for lib, (ok, n) in per.items():
        print(f"{lib}: {ok}/{n} right")

main()
