"""The peer for bench/tables.sh: pdfplumber's table finder on the same pages, its tables turned
into the records `pagewise parse --tables` prints ({path, page, row, column, value}).

pdfplumber returns grids of cells and says nothing of which rows are headers, so the same
generic reading is applied to every table: a lone currency sign or parenthesis joins the figure
it belongs to; a row with a figure (not a year) in a cell after the first is a data row, its
label the row's text left of that figure (read from the page, as the text strategy cuts cells
through words); the rows above it without such figures are its columns' headers, a column's
header their cells in that column.

usage: table_peer.py STRATEGY PDF:PAGES...   (STRATEGY: lines, pdfplumber's default, or text)
"""
import json
import re
import sys

import pdfplumber
from pdfplumber.utils import extract_text

FIGURE = re.compile(r"^\(?[$€£¥]?\s*\(?-?[\d,]*\d(\.\d+)?\)?%?\)?$")
YEAR = re.compile(r"^(FY)?(19|20)\d\d$")
DASHES = {"—", "–", "-", "— ", "n/a", "N/A", "nm", "NM"}


def is_figure(cell):
    c = cell.strip()
    return c in DASHES or bool(FIGURE.match(c.replace(" ", "")))


def is_year(cell):
    return bool(YEAR.match(cell.strip()))


def joined_cells(texts):
    """A row's cells with a lone currency sign or "(" joined to the cell after it and a lone
    ")" or "%" to the cell before it (pdfplumber's text strategy cuts "(11,969)" in two)."""
    out, carried = [], ""
    for c in texts:
        if c in ("$", "€", "£", "¥", "(", "$(", "($"):
            carried += c
            out.append("")
            continue
        if c in (")", "%") and out:
            k = max((i for i, o in enumerate(out) if o), default=None)
            if k is not None:
                out[k] += c
                out.append("")
                continue
        out.append(carried + c if carried and c else c)
        carried = ""
    return out


def chars_in(page, box):
    """The characters whose centres lie in `box`, as pdfplumber assigns them to cells."""
    x0, top, x1, bottom = box
    return [c for c in page.chars if x0 <= (c["x0"] + c["x1"]) / 2 < x1 and top <= (c["top"] + c["bottom"]) / 2 < bottom]


def text_of(chars):
    return " ".join((extract_text(chars) or "").split())


def joined_cells(cells):
    """A row's cells (text, x0, x1) with a lone currency sign or "(" joined to the cell after it
    and a lone ")" or "%" to the cell before it (the text strategy cuts "(11,969)" in two)."""
    out, carried = [], None
    for text, x0, x1 in cells:
        if not text:
            continue
        if text in ("$", "€", "£", "¥", "(", "$(", "($"):
            carried = (carried[0] + text, carried[1]) if carried else (text, x0)
            continue
        if text in (")", "%") and out:
            t, a, _ = out[-1]
            out[-1] = (t + text, a, x1)
            continue
        if carried:
            out.append((carried[0] + text, carried[1], x1))
            carried = None
        else:
            out.append((text, x0, x1))
    return out


def centre(cell):
    return (cell[1] + cell[2]) / 2


def overlap(a, b):
    return min(a[2], b[2]) - max(a[1], b[1])


def records(page, table):
    """(row label, column header, value) for each figure of a table found on `page`. The label
    is the row's text left of its first figure, read from the page (cells cut words apart); a
    figure's header is, in each of the two header rows nearest above (a spanning header and the
column titles), the cell whose text overlaps it or, failing that, the nearest one when it
is nearer than half the gap between the row's figures (figures align right, headers do not). Once figures began, a row starts new headers
only when it names a year; other rows without figures are section labels."""
    headers, seen_data = [], False
    for row in table.rows:
        cells = []
        for box in row.cells:
            if box is None:
                continue
            chars = chars_in(page, box)
            if chars:
                cells.append((text_of(chars), min(c["x0"] for c in chars), max(c["x1"] for c in chars)))
        cells = joined_cells(cells)
        first = next((j for j, c in enumerate(cells) if is_figure(c[0]) and not is_year(c[0])), None)
        if first is not None and first > 0:
            left = min(b[0] for b in row.cells if b is not None)
            label = text_of(chars_in(page, (left, row.bbox[1], cells[first][1], row.bbox[3])))
            if not label:
                continue
            seen_data = True
            values = cells[first:]
            centres = [centre(v) for v in values]
            gaps = [b - a for a, b in zip(centres, centres[1:]) if b > a]
            reach = min(gaps) / 2 if gaps else 40.0
            for value in values:
                parts = []
                for h in headers[-2:]:
                    best = min(h[1:] or h, key=lambda c: abs(centre(c) - centre(value)))
                    if overlap(best, value) > 0 or abs(centre(best) - centre(value)) < reach:
                        parts.append(best[0])
                yield label, " ".join(parts), value[0]
        elif cells and (not seen_data or any(is_year(c[0]) for c in cells)):
            if seen_data:
                headers, seen_data = [], False
            headers.append(cells)


def main():
    strategy = sys.argv[1]
    settings = {} if strategy == "lines" else {"vertical_strategy": "text", "horizontal_strategy": "text"}
    for arg in sys.argv[2:]:
        path, pages = arg.rsplit(":", 1)
        wanted = {int(p) for p in pages.split(",")}
        with pdfplumber.open(path) as pdf:
            for n in sorted(wanted):
                page = pdf.pages[n - 1]
                for table in page.find_tables(settings):
                    for row, column, value in records(page, table):
                        print(json.dumps({"path": path, "page": n, "row": row, "column": column, "value": value}))


if __name__ == "__main__":
    main()
