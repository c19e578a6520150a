#!/usr/bin/env python3
"""Character error rate of OCR'd page texts against the original text layer.

Both inputs are `pagewise parse --json` lines ({path, page, text}); pages are paired by file
name (the copy's name ends with the original's) and page number. CER = edit distance /
characters of the original, two ways: "raw" ignores only whitespace; "letters" compares the
NFKC forms (full-width digits, ligatures) of letters and digits only, so leader dots, rules
and punctuation the text layer spells differently from the picture do not count. Prints per
file and the total.
"""
import argparse
import json
import os
import unicodedata
from collections import defaultdict


def raw(text):
    return "".join(text.split())


def letters(text):
    return "".join(c for c in unicodedata.normalize("NFKC", text) if c.isalnum())


def pages(path, form):
    out = {}
    for line in open(path, encoding="utf-8"):
        row = json.loads(line)
        out[(os.path.basename(row["path"]), row["page"])] = form(row["text"])
    return out


def distance(a, b):
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def report(original_path, ocr_path, form, label):
    original, ocr = pages(original_path, form), pages(ocr_path, form)
    per_file = defaultdict(lambda: [0, 0, 0])
    for (name, page), text in ocr.items():
        source = next((k for k in original if name.endswith(k[0]) and k[1] == page), None)
        if source is None:
            continue
        truth = original[source]
        f = per_file[source[0]]
        f[0] += distance(truth, text)
        f[1] += len(truth)
        f[2] += 1
    errors = sum(f[0] for f in per_file.values())
    chars = sum(f[1] for f in per_file.values())
    for name, (e, n, p) in sorted(per_file.items()):
        print(f"  {label} {name}: {p} pages, CER {e / max(n, 1):.2%} ({e} edits / {n} characters)")
    print(f"{label} CER {errors / max(chars, 1):.2%} over {sum(f[2] for f in per_file.values())} pages ({errors} edits / {chars} characters)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("original")
    parser.add_argument("ocr")
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    report(args.original, args.ocr, raw, f"{args.label} raw")
    report(args.original, args.ocr, letters, f"{args.label} letters")


if __name__ == "__main__":
    main()
