#!/usr/bin/env bash
# OCR of scanned pages: accuracy and speed. Each PDF that has a text layer is turned into an
# image-only copy (every page a picture at 150 and at 300 dpi, `pagewise-dev image-only-copy`),
# read back by `pagewise parse` (PDFium renders, Tesseract reads, in the worker process), and
# compared with the original's text layer: character error rate (edit distance over the
# original's characters, whitespace ignored). Speed is pages/s, side by side with the peer:
# poppler's `pdftoppm` rendering the same copy at the same dpi piped into the `tesseract`
# command (the same engine without Pagewise), in one hyperfine run.
#
# Environment (all optional, see bench/common.sh for the shared ones):
#   OCR_PDFS  PDFs to use, space separated (default: the sample folder's PDFs)
#   RUNS      hyperfine runs per command (default 3)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

RUNS="${RUNS:-3}"
apt_need hyperfine hyperfine
apt_need pdftoppm poppler-utils
apt_need tesseract tesseract-ocr
apt_need python3 python3

read -r -a pdfs <<<"${OCR_PDFS:-$(ls "$bench_root"/assets/sample/*.pdf | tr '\n' ' ')}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$PAGEWISE_BIN" parse --json "${pdfs[@]}" >"$work/original.jsonl" 2>/dev/null
for dpi in 150 300; do
  copies=()
  for pdf in "${pdfs[@]}"; do
    copy="$work/$dpi-$(basename "$pdf")"
    "$PAGEWISE_DEV_BIN" --data-dir "$work/data" image-only-copy "$pdf" "$copy" --dpi "$dpi" >/dev/null
    copies+=("$copy")
  done
  "$PAGEWISE_BIN" parse --json --jobs 1 "${copies[@]}" >"$work/ocr-$dpi.jsonl" 2>"$work/ocr-$dpi.log"
  echo "ocr $dpi dpi: $(tail -1 "$work/ocr-$dpi.log")"
  python3 "$bench_root/bench/cer.py" "$work/original.jsonl" "$work/ocr-$dpi.jsonl" --label "$dpi dpi" | tee -a "$BENCH_OUT/ocr.txt"

  quoted=""
  for c in "${copies[@]}"; do quoted+=" $(printf '%q' "$c")"; done
  ours="$(printf '%q' "$PAGEWISE_BIN") parse --jobs 1$quoted >/dev/null 2>&1"
  # The peer gets Tesseract's fastest setting here too (one OpenMP thread; see core/src/ocr.rs).
  peer="for f in$quoted; do pdftoppm -r $dpi -gray \"\$f\" $work/peer; for p in $work/peer*.pgm; do OMP_THREAD_LIMIT=1 tesseract \"\$p\" - -l eng+chi_sim >/dev/null 2>&1; done; rm -f $work/peer*.pgm; done"
  hyperfine --runs "$RUNS" --export-json "$work/hf-$dpi.json" -n "pagewise $dpi dpi" "$ours" -n "pdftoppm+tesseract $dpi dpi" "$peer" >/dev/null
  python3 - "$work/hf-$dpi.json" "$work/ocr-$dpi.jsonl" "$dpi" <<'PY' | tee -a "$BENCH_OUT/ocr.txt"
import json, sys
runs = json.load(open(sys.argv[1]))["results"]
pages = sum(1 for _ in open(sys.argv[2]))
ours, peer = runs[0]["median"], runs[1]["median"]
print(f"{sys.argv[3]} dpi speed: pagewise {pages / ours:.2f} pages/s, pdftoppm+tesseract {pages / peer:.2f} pages/s, ratio ours/peer {peer / ours:.2f} (higher is better; {pages} pages)")
PY
done
