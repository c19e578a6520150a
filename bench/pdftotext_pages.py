#!/usr/bin/env python3
"""pdftotext's text of each page of the given PDFs as {"file", "page", "text"} lines (its
default reading-order mode, which detects columns)."""
import json
import os
import subprocess
import sys

for path in sys.argv[1:]:
    out = subprocess.run(["pdftotext", "-enc", "UTF-8", path, "-"], capture_output=True, check=False).stdout.decode("utf-8", "replace")
    for i, text in enumerate(out.split("\f")[:-1] if out.endswith("\f") else out.split("\f"), start=1):
        print(json.dumps({"file": os.path.basename(path), "page": i, "text": text}, ensure_ascii=False))
