#!/usr/bin/env python3
"""Joins claims (from claims_extract.py) with their labels (one {"id", "label", "why"} per
line, written by a person reading the evidence) into the labelled claim set. Sentences that
make no factual statement ("no-claim") are left out.

usage: bench/claims_merge.py CLAIMS.jsonl:LABELS.jsonl [...] > bench/data/claims.jsonl
"""
import json
import sys


def main():
    out = []
    for spec in sys.argv[1:]:
        claims_path, labels_path = spec.split(":", 1)
        claims = {}
        for line in open(claims_path, encoding="utf-8"):
            c = json.loads(line)
            claims[c["id"]] = c
        for line in open(labels_path, encoding="utf-8"):
            l = json.loads(line)
            if l["label"] not in ("supported", "unsupported"):
                continue
            c = dict(claims[l["id"]])
            c["label"] = l["label"]
            c["why"] = l.get("why", "")
            out.append(c)
    for c in out:
        print(json.dumps(c, ensure_ascii=False))


if __name__ == "__main__":
    main()
