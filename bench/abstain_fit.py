#!/usr/bin/env python3
"""Calibrates the abstain rule from retrieval signals, cross-validated across libraries.

Input: answer dumps from `bench/answers.sh` with NEVER_ABSTAIN=1 (answerable and out-of-scope
questions per library; each answer carries its question's retrieval signals, see
crates/core/src/answer/abstain.rs).

The rule abstains when the question names something the library rarely or never mentions
and the evidence does not either, or when the evidence covers too little of the question
(coverage), or when no passage is near it (cosine):

    abstain = missing_names or coverage < C or top_cosine < S   [or model_yes < Y]

C and S (and Y where a model judged) are chosen on all libraries but one, to keep every
training library's answerable abstain rate at or under 10% while abstaining on as many
out-of-scope questions as possible; the held-out library's rates are then reported. Nothing
is keyed to a library: the same grid and the same choice for all.

usage: bench/abstain_fit.py NAME=dump.jsonl [NAME=dump.jsonl ...]
No dependencies beyond Python 3.
"""
import json
import sys

COVERAGE = [0.0, 0.15, 0.2, 0.25, 0.3, 0.34, 0.4]
COSINE = [0.0, 0.1, 0.15, 0.2, 0.25, 0.3]
MODEL_YES = [None, 0.05, 0.1, 0.15, 0.2, 0.3]
MAX_ANSWERABLE_ABSTAIN = float(__import__("os").environ.get("MAX_ANSWERABLE_ABSTAIN", "0.10"))


def load(path):
    rows = []
    for line in open(path, encoding="utf-8"):
        if line.strip():
            r = json.loads(line)
            rows.append((r["set"] == "answerable", r["answer"].get("signals") or {}, r.get("answer", {}).get("question", ""), r))
    return rows


def abstains(s, c, cos, y):
    if s.get("missing_names"):
        return True
    if s.get("coverage", 0.0) < c or s.get("top_cosine", 0.0) < cos:
        return True
    return y is not None and s.get("model_yes") is not None and s["model_yes"] < y


def rates(rows, rule):
    ans = [abstains(s, *rule) for a, s, _, _ in rows if a]
    oos = [abstains(s, *rule) for a, s, _, _ in rows if not a]
    return sum(ans) / max(1, len(ans)), sum(oos) / max(1, len(oos))


def choose(libraries):
    best = None
    with_model = all(any(s.get("model_yes") is not None for _, s, _, _ in rows) for rows in libraries.values())
    for c in COVERAGE:
        for cos in COSINE:
            for y in MODEL_YES if with_model else [None]:
                r = [rates(rows, (c, cos, y)) for rows in libraries.values()]
                if max(a for a, _ in r) > MAX_ANSWERABLE_ABSTAIN:
                    continue
                score = sum(o for _, o in r) / len(r)
                if best is None or score > best[0]:
                    best = (score, (c, cos, y))
    return best[1] if best else (0.0, 0.0, None)


def main():
    libs = {}
    for arg in sys.argv[1:]:
        name, path = arg.split("=", 1)
        libs[name] = load(path)
    if len(libs) < 2:
        sys.exit(__doc__)
    print(f"{'held out':<14}{'rule (coverage, cosine, model)':<34}{'answerable abstain':>20}{'out-of-scope abstain':>22}")
    for held in libs:
        rule = choose({k: v for k, v in libs.items() if k != held})
        a, o = rates(libs[held], rule)
        print(f"{held:<14}{str(rule):<34}{a:>20.3f}{o:>22.3f}")
    rule = choose(libs)
    print(f"\nchosen on all libraries: coverage < {rule[0]}, cosine < {rule[1]}, model yes < {rule[2]}")
    for name, rows in libs.items():
        a, o = rates(rows, rule)
        unrelated = [abstains(s, *rule) for ans, s, _, r in rows if not ans and r.get("kind") == "unrelated"]
        print(f"  {name:<14} answerable abstain {a:.3f}  out-of-scope abstain {o:.3f}", end="")
        if unrelated:
            print(f"  (unrelated {sum(unrelated)}/{len(unrelated)})", end="")
        print()


if __name__ == "__main__":
    main()
