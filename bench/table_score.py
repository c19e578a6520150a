"""Scores table extraction against bench/data/table-cells.jsonl: for each labelled cell (a row
label, a column header, the figure as the page writes it, the caption's scale), whether a
system's cells for that page give the same figure under the same row and column.

A system's cell answers a label when its row label is the label's (case, spacing, footnote
marks such as "(a)" or "(1)" and a final colon aside) and its column header holds each word of
the label's header (spaces aside: "Six Mo nt hs E nded" is "Six Months Ended"). The first such cell is its
answer; it is right when its figure is the label's ("(2,980)" = -2980, "—" = 0, "$" aside).

usage: table_score.py LABELS NAME=CELLS.jsonl...   (prints one table, a row per system)
"""
import json
import re
import sys
from collections import defaultdict


def norm_label(text):
    t = text.lower().replace("’", "'").replace("–", "-").replace("—", "-")
    t = re.sub(r"\s+", " ", t).strip().rstrip(":").strip()
    while True:
        stripped = re.sub(r"\s*\((?:[a-z]|\d{1,2})\)$", "", t)
        if stripped == t:
            break
        t = stripped
    return t


def squeeze(text):
    return re.sub(r"\s+", "", text.lower())


def heads(label_column, column):
    """Whether `column` (a system's header) names the label's column: each of its words is in
    the header, spaces aside."""
    header = squeeze(column)
    return all(squeeze(w).strip(",") in header for w in label_column.split())


def number(text):
    t = text.strip().replace("$", "").replace(",", "").replace(" ", "")
    if t in ("—", "–", "-", ""):
        return 0.0
    negative = t.startswith("(") or t.endswith(")") or t.startswith("-")
    t = t.strip("()-%")
    try:
        value = float(t)
    except ValueError:
        return None
    return -value if negative else value


def same(written, label):
    """Whether a system's cell says the label's figure: as numbers when both are numbers, else
    as text (spaces and case aside: "50 l", "13.0-17.0", "05:48")."""
    a, b = number(written), number(label)
    if a is not None and b is not None:
        return a == b
    return squeeze(written) == squeeze(label)


def main():
    labels = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
    systems = []
    for arg in sys.argv[2:]:
        name, path = arg.split("=", 1)
        by_page = defaultdict(list)
        for line in open(path):
            if line.strip():
                c = json.loads(line)
                by_page[(c["path"].rsplit("/", 1)[-1], int(c["page"]))].append(c)
        systems.append((name, by_page))
    splits = [s for s in ("calibrate", "held-out", "held-out-2", "generated") if any(l["split"] == s for l in labels)] + ["all"]
    print(f"{len(labels)} labelled cells on {len({(l['file'], l['page']) for l in labels})} pages")
    header = f"{'system':<22} {'split':<10} {'cells':>5} {'right':>7} {'row+col found':>14} {'figure in row':>14} {'scale right':>12}"
    print(header)
    for name, by_page in systems:
        for split in splits:
            chosen = [l for l in labels if split == "all" or l["split"] == split]
            right = found = in_row = scaled = 0
            for l in chosen:
                cells = by_page.get((l["file"], l["page"]), [])
                rows = [c for c in cells if norm_label(c["row"]) == norm_label(l["row"])]
                if any(same(c["value"], l["value"]) for c in rows):
                    in_row += 1
                match = next((c for c in rows if heads(l["column"], c.get("column", ""))), None)
                if match is not None:
                    found += 1
                    if same(match["value"], l["value"]):
                        right += 1
                        if match.get("scale") == l["scale"]:
                            scaled += 1
            n = max(len(chosen), 1)
            has_scale = any("scale" in c for cs in by_page.values() for c in cs)
            scale = f"{scaled / n:12.3f}" if has_scale else f"{'—':>12}"
            print(f"{name:<22} {split:<10} {len(chosen):>5} {right / n:7.3f} {found / n:14.3f} {in_row / n:14.3f} {scale}")
        print()


if __name__ == "__main__":
    main()
