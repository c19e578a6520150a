#!/usr/bin/env python3
"""Collects the sentences chat models wrote, with the evidence they were given, from
`pagewise-dev eval-answers --never-abstain --out F.jsonl` dumps, as material for the labelled
claim set (bench/data/claims.jsonl). Each claim still needs a person's label: supported or
unsupported by its evidence, read from the source.

usage: bench/claims_extract.py LIBRARY:MODEL:dump.jsonl [...] > claims-unlabelled.jsonl
"""
import json
import sys

MODEL_STATUSES = {"kept", "attached", "replaced", "unsupported"}


def main():
    seen = set()
    for spec in sys.argv[1:]:
        library, model, path = spec.split(":", 2)
        for line in open(path, encoding="utf-8"):
            r = json.loads(line)
            a = r["answer"]
            evidence = [
                {
                    "title": p["doc_title"],
                    "page": p["page"],
                    "heading_path": next((x["heading_path"] for x in p["passages"] if x["heading_path"]), []),
                    "text": "\n…\n".join(x["text"] for x in p["passages"]),
                }
                for p in a.get("sources", [])
            ]
            for i, s in enumerate(a.get("sentences", [])):
                if s["status"] not in MODEL_STATUSES:
                    continue
                text = s["text"].strip()
                key = (library, text)
                if len(text) < 12 or key in seen:
                    continue
                seen.add(key)
                print(json.dumps({
                    "id": f"{library}-{model}-{r['id']}-{i}",
                    "library": library,
                    "model": model,
                    "question": a["question"],
                    "claim": text,
                    "evidence": evidence,
                }, ensure_ascii=False))


if __name__ == "__main__":
    main()
