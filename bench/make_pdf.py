#!/usr/bin/env python3
"""Writes a text-only PDF with N pages (standard library only): page k says
"The <token> reading was logged on sheet k" amid filler, so a benchmark can look for a token that exists nowhere else."""
import sys


def make_pdf(path: str, pages: int, token: str) -> None:
    objects = ["<< /Type /Catalog /Pages 2 0 R >>", None, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    kids = []
    for k in range(1, pages + 1):
        # The token sits mid-page: lines repeated at the top or bottom of pages are removed
        # as running headers and footers.
        lines = [f"Line {i}: panels cleaned, output {k * 10 + i} kWh, no faults found." for i in range(1, 30)]
        lines.insert(12, f"The {token} reading was logged on sheet {k}.")
        stream = "BT /F1 10 Tf 50 780 Td 14 TL " + " ".join(f"({line}) '" for line in lines) + " ET"
        objects.append(f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream")
        content_id = len(objects)
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents {content_id} 0 R >>")
        kids.append(f"{len(objects)} 0 R")
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {pages} >>"
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
    with open(path, "wb") as f:
        f.write(out)


if __name__ == "__main__":
    make_pdf(sys.argv[1], int(sys.argv[2]), sys.argv[3])
