#!/usr/bin/env python3
"""Writes test pages for reading order (standard library only) and their true reading order.

Usage: make_columns.py OUT_DIR   → OUT_DIR/<layout>.pdf and OUT_DIR/truth.jsonl
({"file", "page", "text"} per page, the words in the order a person reads them).

Layouts: two and three columns drawn row by row across the columns (content order
interleaves them), two columns drawn column by column, two columns under a full-width title
and abstract with a running header and a page number, two columns split by a full-width
figure caption, a single column, and a table."""
import json
import random
import sys

WORDS = ("the of and to in a is that for it as was with be by on not he this are or his from at "
         "which but have an they you were her she there been one all we their has would when if so "
         "what no out up said more them some could time into only do new like then other than "
         "now people my made over did down way find use may water long little very after words "
         "called just where most know get through back much before go good well any same right "
         "pump valve boiler survey ledger harbour meadow lantern quarry orchard signal timber").split()


def sentences(rng, n_lines, width):
    lines, line = [], []
    while len(lines) < n_lines:
        w = rng.choice(WORDS)
        if len(" ".join(line + [w])) > width:
            lines.append(" ".join(line))
            line = []
        line.append(w)
    return lines


def esc(s):
    return s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


class Page:
    def __init__(self):
        self.ops, self.truth = [], []

    def text(self, x, y, s, size=10):
        self.ops.append(f"BT /F1 {size} Tf {x} {y} Td ({esc(s)}) Tj ET")


def columns(rng, n_cols, rows, row_by_row, top=740, title=None, header=None, footer=None, caption_at=None):
    p = Page()
    width = {2: 44, 3: 27}[n_cols]
    xs = {2: [56, 316], 3: [50, 226, 402]}[n_cols]
    if header:
        p.text(56, 770, header, 8)
    y0 = top
    if title:
        p.text(56, y0, title, 16)
        p.truth.append(title)
        abstract = sentences(rng, 3, 95)
        for i, l in enumerate(abstract):
            p.text(56, y0 - 24 - 12 * i, l)
        p.truth += abstract
        y0 -= 24 + 12 * len(abstract) + 18
    blocks = [(y0, rows)] if caption_at is None else [(y0, caption_at), (y0 - 12 * caption_at - 60, rows - caption_at)]
    for b, (yb, nrows) in enumerate(blocks):
        cols = [sentences(rng, nrows, width) for _ in xs]
        if row_by_row:
            for r in range(nrows):
                for c, x in enumerate(xs):
                    p.text(x, yb - 12 * r, cols[c][r])
        else:
            for c, x in enumerate(xs):
                for r in range(nrows):
                    p.text(x, yb - 12 * r, cols[c][r])
        for c in cols:
            p.truth += c
        if caption_at is not None and b == 0:
            cap = "Figure 1: " + " ".join(sentences(rng, 1, 80))
            p.text(56, yb - 12 * nrows - 24, cap)
            p.truth.append(cap)
    if footer:
        p.text(300, 40, footer)
        p.truth.append(footer)
    return p


def single(rng):
    p = Page()
    for i, l in enumerate(sentences(rng, 50, 95)):
        p.text(56, 740 - 13 * i, l)
        p.truth.append(l)
    return p


def table(rng):
    p = Page()
    heading = "Quarterly figures by site"
    p.text(56, 740, heading, 12)
    p.truth.append(heading)
    for r in range(30):
        cells = [f"{rng.choice(WORDS).title()} site {r}", f"{rng.randint(100, 9999):,}", f"{rng.randint(100, 9999):,}", f"{rng.randint(1, 99)}%"]
        for x, c in zip([56, 250, 350, 450], cells):
            p.text(x, 710 - 14 * r, c)
        p.truth.append(" ".join(cells))
    return p


def write_pdf(path, pages):
    objects = ["<< /Type /Catalog /Pages 2 0 R >>", None, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    kids = []
    for p in pages:
        stream = "\n".join(p.ops)
        objects.append(f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream")
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents {len(objects)} 0 R >>")
        kids.append(f"{len(objects)} 0 R")
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(pages)} >>"
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    open(path, "wb").write(out)


def main():
    out = sys.argv[1]
    rng = random.Random(7)
    layouts = {
        "two-columns-row-by-row": lambda: columns(rng, 2, 55, True),
        "three-columns-row-by-row": lambda: columns(rng, 3, 55, True),
        "two-columns-in-order": lambda: columns(rng, 2, 55, False),
        "paper-title-header-footer": lambda: columns(rng, 2, 45, True, title="Signals in harbour timber surveys", header="Journal of Field Notes 12 (2026)", footer="7"),
        "two-columns-figure-caption": lambda: columns(rng, 2, 50, True, caption_at=20),
        "single-column": lambda: single(rng),
        "table": lambda: table(rng),
    }
    with open(f"{out}/truth.jsonl", "w") as truth:
        for name, make in layouts.items():
            pages = [make() for _ in range(3)]
            write_pdf(f"{out}/{name}.pdf", pages)
            for i, p in enumerate(pages, start=1):
                truth.write(json.dumps({"file": f"{name}.pdf", "page": i, "text": "\n".join(p.truth)}) + "\n")


if __name__ == "__main__":
    main()
