#!/usr/bin/env python3
"""Writes a small library of another kind than SEC filings, for routing and retrieval
measurements (standard library only): four organisations, each with documents that look alike
across years (the same report sections with other figures), plus a lease, an employee
handbook, council minutes and two research papers, as PDF, Markdown and text. File names are
not always telling ("report-final.pdf", "AR-2.pdf"). Also writes questions.jsonl: short,
loose questions as people type them, each with the document and page that answers it.

Usage: bench/make_library.py OUT_DIR   (writes OUT_DIR/library/ and OUT_DIR/questions.jsonl)
"""
import json
import os
import sys
import textwrap


def pdf_bytes(pages, title=None):
    """A text-only PDF: each page is a list of paragraphs, wrapped at 92 characters."""
    objects = ["<< /Type /Catalog /Pages 2 0 R >>", None, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    kids = []
    for paragraphs in pages:
        lines = []
        for p in paragraphs:
            lines.extend(textwrap.wrap(p, 92) or [""])
            lines.append("")
        esc = [ln.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") for ln in lines]
        stream = "BT /F1 10 Tf 50 780 Td 13 TL " + " ".join(f"({ln}) '" for ln in esc) + " ET"
        objects.append(f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream")
        content_id = len(objects)
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents {content_id} 0 R >>"
        )
        kids.append(f"{len(objects)} 0 R")
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(pages)} >>"
    info = None
    if title:
        objects.append(f"<< /Title ({title}) >>")
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
    info_ref = f" /Info {info} 0 R" if info else ""
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R{info_ref} >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def coop_report(year, members, founded, revenue, surplus, equipment, mwh, sites, chair):
    return [
        [
            f"Riverside Energy Cooperative Annual Report {year}",
            f"This annual report covers the financial year 1 January to 31 December {year}.",
            f"Riverside Energy Cooperative was founded in {founded} by residents of the river valley. At the end of {year} the cooperative had {members:,} members.",
            f"Message from the chair, {chair}: thank you to every member who voted at the general meeting.",
        ],
        [
            "Finances",
            f"Revenue from electricity sales was {revenue:,} euros in {year}. The surplus after depreciation was {surplus:,} euros, of which half is paid out as member interest.",
            f"Purchases of property, plant and equipment came to {equipment:,} euros, mostly inverters and new roof arrays.",
            "The cooperative has no bank debt; all installations are financed by member shares.",
        ],
        [
            "Operations",
            f"The cooperative's {sites} solar sites generated {mwh:,} MWh during {year}.",
            "Availability was above 98 percent at every site. Panels are cleaned twice a year by volunteers.",
            "Outlook: two school roofs are planned for the coming year, subject to a vote of the members.",
        ],
    ]


def robotics_report(year, staff, revenue, rnd, customers, ceo, office):
    return [
        [
            f"Halden Robotics Ltd. Annual Report {year}",
            f"Halden Robotics Ltd. designs warehouse picking robots. This report covers the fiscal year {year}.",
            f"Chief executive: {ceo}. Registered office: {office}.",
        ],
        [
            "People and results",
            f"Halden Robotics Ltd. employed {staff} people at the end of fiscal {year}, including engineers in two countries.",
            f"Revenue for fiscal {year} was {revenue} million pounds, and research and development spending was {rnd} million pounds.",
            f"The company served {customers} warehouse customers.",
        ],
        [
            "Outlook",
            "The board expects demand from grocery distribution to keep growing. No dividend is proposed.",
        ],
    ]


def main(out_dir):
    lib = os.path.join(out_dir, "library")
    os.makedirs(lib, exist_ok=True)
    files = {}

    files["riverside/AR-1.pdf"] = pdf_bytes(
        coop_report(2022, 2214, "April 2009", 1_480_000, 212_000, 640_000, 6_930, 14, "Ines Marlow"),
        "Riverside Energy Cooperative Annual Report 2022",
    )
    files["riverside/AR-2.pdf"] = pdf_bytes(
        coop_report(2023, 2587, "April 2009", 1_735_000, 268_000, 910_000, 8_120, 17, "Ines Marlow"),
        "Riverside Energy Cooperative Annual Report 2023",
    )
    files["halden/report-final.pdf"] = pdf_bytes(robotics_report(2022, 143, 21.4, 5.2, 38, "Tomas Berg", "Leeds"))
    files["halden/Halden_2023_annual.pdf"] = pdf_bytes(robotics_report(2023, 188, 29.9, 7.6, 51, "Tomas Berg", "Leeds"))
    files["halden/lease.pdf"] = pdf_bytes(
        [
            [
                "LEASE AGREEMENT",
                "This Agreement is made on 3 March 2021 between Northgate Properties Ltd (the Landlord) and Halden Robotics Ltd. (the Tenant).",
                "The parties agree as follows. The Landlord lets Unit 4, Calder Business Park, Leeds, to the Tenant for a term of five years.",
                "The rent is 96,000 pounds per year, payable quarterly in advance. The rent is reviewed on the third anniversary of this Agreement.",
            ],
            [
                "Termination",
                "Either party may end this Agreement after the second year by giving six months' written notice.",
                "The Tenant must return the premises in the condition they were let, fair wear and tear excepted.",
                "In witness whereof the parties have signed this Agreement on the date above.",
            ],
        ]
    )
    files["halden/people/handbook.md"] = (
        "# Halden Robotics employee handbook\n\n"
        "## Holidays\n\nEvery employee has 27 days of paid holiday a year plus public holidays. Up to five unused days carry over to the next year.\n\n"
        "## Working from home\n\nStaff may work from home up to three days a week, agreed with their team lead. Lab and workshop roles are on site.\n\n"
        "## Expenses\n\nTravel is booked through the office. Claims are paid within 14 days when the receipt is attached.\n"
    ).encode()
    files["ashby/minutes_march.txt"] = (
        "Town of Ashby Council - minutes of the meeting held on 14 March 2023\n\n"
        "Present: the mayor, eight councillors and the clerk. Apologies: Cllr Hart.\n\n"
        "1. Bike lanes on Mill Road. The council voted 7 to 2 to build protected bike lanes on Mill Road, with work to start in June.\n\n"
        "2. Library opening hours. The library will open on Sundays from 10 to 14, paid from the culture budget.\n\n"
        "3. Any other business. The clerk reported 41 potholes repaired since January.\n"
    ).encode()
    files["ashby/minutes_september.txt"] = (
        "Town of Ashby Council - minutes of the meeting held on 12 September 2023\n\n"
        "Present: the mayor, nine councillors and the clerk.\n\n"
        "1. Bike lanes on Mill Road. Work is delayed to next spring because the contractor withdrew; the budget of 380,000 euros is kept.\n\n"
        "2. Parking charges. The council agreed to raise town-centre parking to 1.50 euros per hour from January.\n\n"
        "3. Any other business. The clerk reported 17 potholes repaired since the last meeting.\n"
    ).encode()
    files["papers/glacier-2021.pdf"] = pdf_bytes(
        [
            [
                "Retreat of the Sorvik glacier measured by drone photogrammetry, 2016 to 2021",
                "Abstract. We surveyed the Sorvik glacier each summer with a camera drone. Keywords: glaciology, photogrammetry.",
                "Proceedings of the Nordic Earth Sciences Meeting, 2021.",
            ],
            [
                "Results",
                "The glacier front retreated by 212 metres between 2016 and 2021, an average of 42 metres a year.",
                "Surface lowering near the front reached 9.8 metres over the same period.",
            ],
        ],
        "Retreat of the Sorvik glacier 2016-2021",
    )
    files["papers/glacier-2023.pdf"] = pdf_bytes(
        [
            [
                "Sorvik glacier revisited: two more years of drone surveys, 2021 to 2023",
                "Abstract. We extend our drone photogrammetry series of the Sorvik glacier by two summers. Keywords: glaciology.",
                "Proceedings of the Nordic Earth Sciences Meeting, 2023.",
            ],
            [
                "Results",
                "Between 2021 and 2023 the front retreated a further 118 metres, or 59 metres a year, faster than before.",
                "A proglacial lake of 0.4 square kilometres formed at the front in 2022.",
            ],
        ],
        "Sorvik glacier revisited 2021-2023",
    )
    for rel, data in files.items():
        path = os.path.join(lib, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)

    def q(qid, text, doc, page, answer):
        return {"id": qid, "question": text, "answer": answer, "evidence": [{"doc": doc, "page": page}]}

    questions = [
        q("m-01", "how many members did riverside have at the end of 2022", "AR-1", 1, "2,214"),
        q("m-02", "Riverside coop member count 2023?", "AR-2", 1, "2,587"),
        q("m-03", "what did riverside spend on equipment in 2023", "AR-2", 2, "910,000"),
        q("m-04", "riverside surplus 2022", "AR-1", 2, "212,000"),
        q("m-05", "how much electricity did the riverside sites make in 2023", "AR-2", 3, "8,120"),
        q("m-06", "riverside revenue in 2022 from selling power", "AR-1", 2, "1,480,000"),
        q("m-07", "how many people did Halden employ in 2022", "report-final", 2, "143"),
        q("m-08", "Halden headcount 2023", "Halden_2023_annual", 2, "188"),
        q("m-09", "what was halden's R&D spend in fiscal 2023", "Halden_2023_annual", 2, "7.6"),
        q("m-10", "Halden Robotics revenue 2022", "report-final", 2, "21.4"),
        q("m-11", "how many customers did halden have in 2023", "Halden_2023_annual", 2, "51"),
        q("m-12", "what's the notice period in the lease", "lease", 2, "six months"),
        q("m-13", "how much rent does halden pay for the unit", "lease", 1, "96,000"),
        q("m-14", "when is the rent reviewed under the lease agreement", "lease", 1, "third anniversary"),
        q("m-15", "how many holiday days do halden employees get", "handbook", 1, "27"),
        q("m-16", "can I work from home at halden", "handbook", 1, "three days"),
        q("m-17", "what did the council decide about the Mill Road bike lanes in March 2023", "minutes_march", 1, "7 to 2"),
        q("m-18", "why were the bike lanes delayed (September meeting)", "minutes_september", 1, "contractor withdrew"),
        q("m-19", "Ashby parking charge from January", "minutes_september", 1, "1.50"),
        q("m-20", "how many potholes were fixed according to the March minutes", "minutes_march", 1, "41"),
        q("m-21", "how far did the Sorvik glacier retreat between 2016 and 2021", "glacier-2021", 2, "212 metres"),
        q("m-22", "sorvik glacier retreat per year 2021-2023", "glacier-2023", 2, "59 metres"),
        q("m-23", "how big is the lake at the glacier front", "glacier-2023", 2, "0.4 square kilometres"),
        q("m-24", "Sunday opening hours of the Ashby library", "minutes_march", 1, "10 to 14"),
    ]
    with open(os.path.join(out_dir, "questions.jsonl"), "w") as f:
        for item in questions:
            f.write(json.dumps(item) + "\n")
    print(f"{len(files)} files in {lib}, {len(questions)} questions in {os.path.join(out_dir, 'questions.jsonl')}")


if __name__ == "__main__":
    main(sys.argv[1])
