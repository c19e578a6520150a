#!/usr/bin/env python3
"""Writes a library of tables of another kind than financial statements, for measuring how
figures are read and answered outside the filings (standard library only): a supplier's price
list, a laboratory report, a bus timetable, a hotel's room rates and a water tariff, each a PDF
whose table is drawn as positioned text (columns by x position, no rules), with prose around
it. Also writes
  questions.jsonl  short, loose questions as people type them, with the answer and its page;
  cells.jsonl      every table cell as labelled cells for bench/table_score.py (split
                   "generated": the labels come from the generator, not from reading the page).

Usage: bench/make_tables_library.py OUT_DIR   (writes OUT_DIR/library/, questions.jsonl, cells.jsonl)
"""
import json
import os
import sys
import textwrap

FONT_SIZE = 10
CHAR_W = 0.52 * FONT_SIZE  # Helvetica's mean advance, near enough to right-align figures


def esc(text):
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def page_stream(items):
    """items: (x, y, text, right_aligned)."""
    parts = ["BT /F1 10 Tf"]
    for x, y, text, right in items:
        if right:
            x -= CHAR_W * len(text)
        parts.append(f"1 0 0 1 {x:.1f} {y:.1f} Tm ({esc(text)}) Tj")
    parts.append("ET")
    return " ".join(parts)


def pdf_bytes(pages, title):
    objects = ["<< /Type /Catalog /Pages 2 0 R >>", None, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"]
    kids = []
    for items in pages:
        stream = page_stream(items)
        objects.append(f"<< /Length {len(stream.encode('latin-1'))} >>\nstream\n{stream}\nendstream")
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents {len(objects)} 0 R >>")
        kids.append(f"{len(objects)} 0 R")
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(pages)} >>"
    objects.append(f"<< /Title ({esc(title)}) >>")
    info = len(objects)
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info {info} 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def prose(paragraphs, top=740):
    items, y = [], top
    for p in paragraphs:
        for line in textwrap.wrap(p, 95) or [""]:
            items.append((50, y, line, False))
            y -= 13
        y -= 8
    return items, y


def table_page(heading, caption, header, rows, after, widths):
    """A page: heading, caption, a header row, data rows (first column left, the rest right
    aligned at the column's right edge), then prose."""
    items, y = prose([heading, caption])
    y -= 6
    edges, x = [], 50
    for w in widths:
        x += w
        edges.append(x)
    def row_items(cells, y):
        out = [(50, y, cells[0], False)]
        for cell, edge in zip(cells[1:], edges[1:]):
            out.append((edge, y, cell, True))
        return out
    items += row_items(header, y)
    y -= 18
    for r in rows:
        items += row_items(r, y)
        y -= 15
    more, _ = prose(after, top=y - 14)
    return items + more


DOCUMENTS = [
    {
        "file": "greenleaf-price-list-2025.pdf",
        "title": "Greenleaf Garden Supplies price list 2025",
        "intro": [
            "Greenleaf Garden Supplies - Trade price list 2025",
            "This list replaces the price list of March 2024. Prices hold from 1 February 2025 until further notice. Orders above 400 euros are delivered free within 30 km of our depot in Alderford.",
            "Questions about an order go to trade@greenleaf.example or to the depot on weekdays.",
        ],
        "heading": "Table 1. Trade prices by item",
        "caption": "Prices in euros per pack, excluding VAT.",
        "header": ["Item", "Pack", "Price 2024 (EUR)", "Price 2025 (EUR)"],
        "rows": [
            ["Peat-free potting compost", "50 l", "11.40", "12.20"],
            ["Seed compost", "20 l", "6.90", "7.35"],
            ["Horticultural grit", "25 kg", "8.10", "8.10"],
            ["Slow-release fertiliser", "10 kg", "17.50", "18.90"],
            ["Bark mulch", "70 l", "9.80", "10.45"],
            ["Tomato feed", "5 l", "13.25", "14.60"],
            ["Garden twine", "250 m", "4.20", "4.40"],
        ],
        "widths": [200, 60, 110, 110],
        "after": ["Prices of grit are unchanged from 2024. Compost prices rose with the cost of peat-free bark."],
    },
    {
        "file": "northgate-lab-report.pdf",
        "title": "Northgate Clinic laboratory report",
        "intro": [
            "Northgate Clinic - Laboratory report",
            "Patient: J. Doe, born 1971. Sample taken on 14 October 2025 at 08:10, fasting. Report issued on 15 October 2025.",
            "Results outside the reference range are discussed with your doctor at the follow-up visit.",
        ],
        "heading": "Blood tests",
        "caption": "Reference ranges are those of the Northgate laboratory for adults.",
        "header": ["Test", "Result", "Unit", "Reference range"],
        "rows": [
            ["Haemoglobin", "13.8", "g/dL", "13.0-17.0"],
            ["White cell count", "6.4", "10^9/L", "4.0-11.0"],
            ["Platelets", "212", "10^9/L", "150-400"],
            ["Fasting glucose", "6.3", "mmol/L", "3.9-5.6"],
            ["Total cholesterol", "5.9", "mmol/L", "below 5.0"],
            ["Creatinine", "88", "umol/L", "60-110"],
            ["TSH", "2.1", "mU/L", "0.4-4.0"],
        ],
        "widths": [170, 70, 80, 120],
        "after": ["Fasting glucose and total cholesterol are above the reference range; all other results are within it."],
    },
    {
        "file": "lakeside-route-12-timetable.pdf",
        "title": "Lakeside Buses route 12 timetable",
        "intro": [
            "Lakeside Buses - Route 12, Harbour to Hillcrest",
            "Valid from 6 January 2025. Buses run every 20 minutes between the first and the last departure. On Sundays and public holidays route 12 does not run; use route 12S.",
        ],
        "heading": "Departures by stop",
        "caption": "Times are the first and last departures of the day.",
        "header": ["Stop", "Weekdays first", "Weekdays last", "Saturday first", "Saturday last"],
        "rows": [
            ["Harbour", "05:40", "23:10", "06:20", "22:40"],
            ["Market Square", "05:48", "23:18", "06:28", "22:48"],
            ["Station Road", "05:55", "23:25", "06:35", "22:55"],
            ["Hospital", "06:03", "23:33", "06:43", "23:03"],
            ["Hillcrest", "06:15", "23:45", "06:55", "23:15"],
        ],
        "widths": [140, 100, 100, 100, 100],
        "after": ["Tickets are sold on board; a day ticket costs 5.50 euros."],
    },
    {
        "file": "harbour-hotel-rates.pdf",
        "title": "Harbour Hotel room rates",
        "intro": [
            "Harbour Hotel - Room rates 2026",
            "Rates are per room and night, breakfast included. Low season runs from November to March, high season from June to August; other months are charged at the mid-season rate.",
        ],
        "heading": "Rates by room type",
        "caption": "All rates in euros, including VAT and city tax.",
        "header": ["Room type", "Low season", "Mid season", "High season", "Guests"],
        "rows": [
            ["Single room", "79", "95", "118", "1"],
            ["Double room", "109", "129", "165", "2"],
            ["Family room", "149", "175", "219", "4"],
            ["Harbour suite", "210", "245", "310", "2"],
        ],
        "widths": [140, 90, 90, 90, 80],
        "after": ["Children under six stay free in their parents' room. Pets are welcome for 15 euros a night."],
    },
    {
        "file": "city-water-tariffs.pdf",
        "title": "City Water tariffs",
        "intro": [
            "City Water - Household tariffs",
            "The council approved the new tariffs on 2 December 2024. The standing charge is 96 euros a year for every household, in both years.",
        ],
        "heading": "Price per cubic metre by band",
        "caption": "Prices in euros per m3; bands by a household's yearly use.",
        "header": ["Band", "Yearly use", "Price 2024", "Price 2025"],
        "rows": [
            ["Band 1", "up to 60 m3", "1.85", "1.96"],
            ["Band 2", "61 to 150 m3", "2.35", "2.49"],
            ["Band 3", "above 150 m3", "3.10", "3.41"],
        ],
        "widths": [110, 130, 100, 100],
        "after": ["The increase in 2025 pays for the new treatment works at Eastmere."],
    },
]

# (question as people type it, answer, document index) — the answer on the table's page.
QUESTIONS = [
    ("how much is peat free compost this year", "12.20", 0),
    ("price of seed compost in 2024?", "6.90", 0),
    ("did the grit get more expensive", "8.10", 0),
    ("what does a 10 kg bag of slow release fertiliser cost now", "18.90", 0),
    ("tomato feed price 2025", "14.60", 0),
    ("what was my haemoglobin", "13.8", 1),
    ("fasting glucose result", "6.3", 1),
    ("normal range for platelets", "150-400", 1),
    ("creatinine level?", "88", 1),
    ("when is the first bus from market square on a weekday", "05:48", 2),
    ("last saturday bus from the hospital stop", "23:03", 2),
    ("first bus at hillcrest on saturdays", "06:55", 2),
    ("how much is a double room in summer", "165", 3),
    ("family room low season rate", "149", 3),
    ("how many people fit in the harbour suite", "2", 3),
    ("single room mid season price", "95", 3),
    ("water price per m3 in band 2 for 2025", "2.49", 4),
    ("what did band 3 water cost in 2024", "3.10", 4),
    ("how much more does band 1 water cost in 2025 than 2024", "0.11", 4),
    ("how much did bark mulch go up by", "0.65", 0),
]


def main():
    out = sys.argv[1]
    lib = os.path.join(out, "library")
    os.makedirs(lib, exist_ok=True)
    cells, questions = [], []
    for d in DOCUMENTS:
        intro, _ = prose(d["intro"])
        table = table_page(d["heading"], d["caption"], d["header"], d["rows"], d["after"], d["widths"])
        with open(os.path.join(lib, d["file"]), "wb") as f:
            f.write(pdf_bytes([intro, table], d["title"]))
        for r in d["rows"]:
            for column, value in zip(d["header"][1:], r[1:]):
                cells.append({"file": d["file"], "page": 2, "row": r[0], "column": column, "value": value, "scale": None, "split": "generated"})
    for i, (q, a, doc) in enumerate(QUESTIONS, start=1):
        d = DOCUMENTS[doc]
        questions.append({"id": f"t-{i:02d}", "question": q, "answer": a, "evidence": [{"doc": d["file"][:-4], "page": 2, "text": ""}]})
    with open(os.path.join(out, "cells.jsonl"), "w") as f:
        f.writelines(json.dumps(c) + "\n" for c in cells)
    with open(os.path.join(out, "questions.jsonl"), "w") as f:
        f.writelines(json.dumps(q) + "\n" for q in questions)
    print(f"{len(DOCUMENTS)} documents, {len(cells)} cells, {len(questions)} questions in {out}")


if __name__ == "__main__":
    main()
