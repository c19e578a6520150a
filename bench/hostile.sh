#!/usr/bin/env bash
# Bad input never hurts the index: the shared PDF corpus plus generated hostile files —
# truncated PDFs, random bytes named .pdf, zip bombs named .docx (deflate bomb, too many
# entries, and a member whose declared size lies), a 2 GB sparse file, a CSV whose header is
# 100,000 columns wide over 200,000 short rows, binary and empty text, a file deleted while
# the indexer reads — indexed in one run, then a page render request that would be
# 4096 × 80,000 px. Prints peak RSS of each. Passes when the indexer exits normally, every
# file on disk ends up indexed or reported with a reason (pagewise status: nothing pending),
# and the stores agree.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
set_dir="$work/hostile"
mkdir -p "$set_dir"
[ -d "$DATA/pdf-corpus" ] && cp "$DATA"/pdf-corpus/*.pdf "$set_dir/" 2>/dev/null || true
sample="$bench_root/assets/sample/field-guide-solar-2024.pdf"
size=$(stat -c %s "$sample")
for pct in 10 50 90; do head -c $((size * pct / 100)) "$sample" > "$set_dir/truncated-$pct.pdf"; done
for i in 1 2 3; do head -c $((4096 * i)) /dev/urandom > "$set_dir/random-$i.pdf"; done
python3 - "$set_dir" <<'PY'
import sys, zipfile
d = sys.argv[1]
with zipfile.ZipFile(f"{d}/deflate-bomb.docx", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("word/document.xml", b"\0" * (300 << 20))
with zipfile.ZipFile(f"{d}/many-entries.docx", "w", zipfile.ZIP_STORED) as z:
    for i in range(30000):
        z.writestr(f"x/{i}", b"")
with zipfile.ZipFile(f"{d}/bomb.epub", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("META-INF/container.xml", b"\0" * (200 << 20))
# A member that says it holds 100 bytes and inflates to 300 MB: sizes in both the local
# header and the central directory are rewritten.
import struct
with zipfile.ZipFile(f"{d}/lying-sizes.docx", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("word/document.xml", b"<w:t>" + b"a" * (300 << 20))
raw = bytearray(open(f"{d}/lying-sizes.docx", "rb").read())
for sig, at in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
    i = raw.find(sig)
    while i >= 0:
        raw[i + at:i + at + 4] = struct.pack("<I", 100)
        i = raw.find(sig, i + 4)
open(f"{d}/lying-sizes.docx", "wb").write(raw)
# The wide CSV: a header of 100,000 empty columns, then 200,000 short rows.
with open(f"{d}/wide-header.csv", "w") as f:
    f.write("a" + "," * 100_000 + "\n")
    for i in range(200_000):
        f.write(f"{i},x\n")
PY
truncate -s 2G "$set_dir/sparse-2g.pdf"
truncate -s 2G "$set_dir/sparse-2g.txt"
head -c 65536 /dev/urandom > "$set_dir/binary.txt"
: > "$set_dir/empty.md"
head -c $((20 << 20)) /dev/zero | tr '\0' 'a' > "$set_dir/vanishing.txt"
files=$(find "$set_dir" -type f | wc -l)

set +e
( sleep 0.3; rm -f "$set_dir/vanishing.txt" ) &
# OCR is off unless HOSTILE_OCR=1 (the corpus holds hundreds of scanned PDFs: hours of OCR
# on 2 cores; OCR is measured by bench/ocr.sh), and so is embedding unless HOSTILE_EMBED=1
# (the corpus text takes most of an hour to embed; what is measured here is parsing).
flags=(--no-ocr --no-embed)
[ "${HOSTILE_OCR:-0}" = 1 ] && flags=("${flags[@]/--no-ocr}")
[ "${HOSTILE_EMBED:-0}" = 1 ] && flags=("${flags[@]/--no-embed}")
/usr/bin/time -f "%e %M" -o "$work/time" "$PAGEWISE_BIN" index --json ${flags[@]} --data-dir "$work/data" "$set_dir" > "$work/out.json" 2> "$work/err.log"
code=$?
set -e
wait
read -r secs rss_kb < "$work/time"
status=$("$PAGEWISE_BIN" status --json --data-dir "$work/data")
verify=$("$PAGEWISE_BIN" verify --json --data-dir "$work/data")
# A render request of 4096 × 80,000 px: a 512 × 10,000 pt page drawn 4096 px wide.
python3 - "$work/tall.pdf" <<'PY'
import sys
stream = "BT /F1 12 Tf 20 9900 Td (A very tall page) Tj ET"
objs = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 512 10000] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>",
        f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream"]
out, offsets = bytearray(b"%PDF-1.4\n"), []
for i, body in enumerate(objs, 1):
    offsets.append(len(out))
    out += f"{i} 0 obj\n{body}\nendobj\n".encode()
xref = len(out)
out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode() + b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
out += f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
open(sys.argv[1], "wb").write(out)
PY
/usr/bin/time -f "%e %M" -o "$work/render.time" "$PAGEWISE_DEV_BIN" render "$work/tall.pdf" --width 4096 --data-dir "$work/data" > "$work/render.out" 2>&1 || true
read -r rsecs rrss < "$work/render.time"
echo "render asked for 4096 × 80,000 px: $(head -1 "$work/render.out"); ${rsecs} s, peak RSS $((rrss / 1024)) MB"
python3 - "$work/out.json" "$status" "$verify" "$code" "$files" "$secs" "$rss_kb" <<'PY'
import json, sys
out = json.load(open(sys.argv[1]))
status, verify = json.loads(sys.argv[2]), json.loads(sys.argv[3])
code, files, secs, rss = int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6]), int(sys.argv[7])
folder = status["folders"][0]
print(f"{files} files ({folder['files']} still on disk): indexed {folder['indexed']}, reported {len(folder['failed'])}, pending {folder['pending']}")
print(f"indexer exit code {code} ({'no crash' if code in (0, 130) else 'CRASH'}), {secs:.1f} s, peak RSS {rss // 1024} MB")
for f in folder["failed"]:
    print(f"  {f['path'].rsplit('/', 1)[-1]}: {f['reason']}")
consistent = verify.get("sqlite_integrity_ok") and not any(verify[k] for k in ("lexical_missing", "lexical_extra", "lexical_duplicates", "vectors_missing", "vectors_extra"))
print(f"stores agree: {consistent} {verify}")
import os
# A file deleted during the run is reported, then is simply gone: count what is still on disk.
on_disk_failed = sum(1 for f in folder["failed"] if os.path.exists(f["path"]))
ok = code == 0 and folder["pending"] == 0 and folder["indexed"] + on_disk_failed == folder["files"] and consistent
print("PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
PY
