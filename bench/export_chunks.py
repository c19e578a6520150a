#!/usr/bin/env python3
"""Export chunk texts from a Pagewise index, in the exact form Pagewise embeds them.

Writes JSON lines {"text": ...}, the first N chunks ORDER BY document_id, ordinal. The text
is what `pagewise_core::chunk::embedding_text` builds: the document's label (its title and
file-name words, as `pagewise_core::index::document_label` makes it) and the heading path
joined by " > ", a newline, then the chunk text (just the text when both are empty).

Standard library only, so it runs with any python3.
"""

import argparse
import json
import os
import sqlite3
import sys


def document_label(title: str, path: str) -> str:
    # Mirrors crates/core/src/index/mod.rs: document_label().
    stem = os.path.splitext(os.path.basename(path))[0]
    words = " ".join("".join(c if c.isalnum() else " " for c in stem).split())
    lower = title.lower()
    if not words or all(w.lower() in lower for w in words.split(" ")):
        return title
    if not title:
        return words
    return f"{title} ({words})"


def embedding_text(title: str, heading_path: list, text: str) -> str:
    # Mirrors crates/core/src/chunk.rs: embedding_text().
    header = title
    for h in heading_path:
        if header:
            header += " > "
        header += h
    return f"{header}\n{text}" if header else text


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", default="/tmp/fb/data/pagewise.sqlite", help="Pagewise index SQLite file")
    ap.add_argument("-n", "--count", type=int, default=2000, help="how many chunks (default 2000)")
    ap.add_argument("-o", "--out", default="-", help="output JSON lines file (default stdout)")
    args = ap.parse_args()

    # Read-only, so an index another process is writing is left alone.
    con = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    rows = con.execute(
        "SELECT d.title, d.path, c.heading_path, c.text FROM chunks c JOIN documents d ON d.id = c.document_id "
        "ORDER BY c.document_id, c.ordinal LIMIT ?",
        (args.count,),
    ).fetchall()
    if len(rows) < args.count:
        print(f"export_chunks: only {len(rows)} chunks in {args.db} (asked for {args.count})", file=sys.stderr)
    out = sys.stdout if args.out == "-" else open(args.out, "w", encoding="utf-8")
    for title, path, heading_json, text in rows:
        try:
            heading = json.loads(heading_json) if heading_json else []
        except ValueError:
            heading = []
        label = document_label(title or "", path or "")
        out.write(json.dumps({"text": embedding_text(label, heading, text)}, ensure_ascii=False) + "\n")
    if out is not sys.stdout:
        out.close()
    print(f"export_chunks: wrote {len(rows)} texts from {args.db}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
