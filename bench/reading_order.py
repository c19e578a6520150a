#!/usr/bin/env python3
"""Scores reading order: the share of a reference's adjacent word pairs that are adjacent in
a candidate too (word-bigram recall; interleaved columns score low, the right order 1.0).

Usage: reading_order.py REFERENCE.jsonl NAME=CANDIDATE.jsonl ...
Each file holds {"file", "page", "text"} lines (`pagewise parse --json` output is accepted:
its "path" is reduced to the file name). Prints, per file of the reference, each candidate's
mean score over its pages, then the mean over all pages and over the pages where the
candidates disagree."""
import collections
import json
import os
import re
import sys


def load(path):
    pages = {}
    for line in open(path, encoding="utf-8"):
        r = json.loads(line)
        name = os.path.basename(r.get("file") or r["path"])
        pages[(name, int(r["page"]))] = r["text"]
    return pages


def words(text):
    return re.findall(r"[\w%,.']+", text.lower())


def score(reference, candidate):
    ref = words(reference)
    pairs = collections.Counter(zip(ref, ref[1:]))
    if not pairs:
        return None
    cand = words(candidate)
    have = collections.Counter(zip(cand, cand[1:]))
    return sum(min(n, have[p]) for p, n in pairs.items()) / sum(pairs.values())


def main():
    reference = load(sys.argv[1])
    candidates = [(a.split("=", 1)[0], load(a.split("=", 1)[1])) for a in sys.argv[2:]]
    by_file = collections.defaultdict(lambda: collections.defaultdict(list))
    every = collections.defaultdict(list)
    differing = collections.defaultdict(list)
    for key, text in sorted(reference.items()):
        scores = {name: score(text, pages.get(key, "")) for name, pages in candidates}
        if any(s is None for s in scores.values()):
            continue
        for name, s in scores.items():
            by_file[key[0]][name].append(s)
            every[name].append(s)
        if len({round(s, 6) for s in scores.values()}) > 1:
            for name, s in scores.items():
                differing[name].append(s)
    names = [n for n, _ in candidates]
    print(f"{'file':42}" + "".join(f"{n:>14}" for n in names))
    for f, per in by_file.items():
        print(f"{f[:42]:42}" + "".join(f"{sum(per[n]) / len(per[n]):14.3f}" for n in names))
    print(f"{'all pages (' + str(len(every[names[0]])) + ')':42}" + "".join(f"{sum(every[n]) / len(every[n]):14.3f}" for n in names))
    if differing[names[0]]:
        print(f"{'pages where they differ (' + str(len(differing[names[0]])) + ')':42}" + "".join(f"{sum(differing[n]) / len(differing[n]):14.3f}" for n in names))


if __name__ == "__main__":
    main()
