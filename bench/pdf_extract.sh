#!/usr/bin/env bash
# PDF text extraction speed: `pagewise parse` (PDFium in-process, running-header cleanup)
# against poppler's `pdftotext`, on the same PDFs, in one hyperfine run.
#
# Prints pages/s for each and the ratio ours/peer (higher is better), plus sanity lines:
# pages found by each and extracted characters per page.
#
# Environment (all optional, see bench/common.sh for the shared ones):
#   PDF_DIR   folder of PDFs (default $DATA/financebench-dev/pdfs)
#   RUNS      hyperfine runs per command (default 5); WARMUP (default 1)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

PDF_DIR="${PDF_DIR:-$DATA/financebench-dev/pdfs}"
RUNS="${RUNS:-5}"
WARMUP="${WARMUP:-1}"

apt_need hyperfine hyperfine
apt_need pdftotext poppler-utils
apt_need pdfinfo poppler-utils
apt_need python3 python3

mapfile -d '' pdfs < <(find "$PDF_DIR" -maxdepth 1 -type f -iname '*.pdf' -print0 | sort -z)
if ((${#pdfs[@]} == 0)); then
  echo "bench: no PDFs in $PDF_DIR (set PDF_DIR or DATA)" >&2
  exit 1
fi

pages=0
for f in "${pdfs[@]}"; do
  n="$(pdfinfo "$f" 2>/dev/null | awk '/^Pages:/ {print $2}')"
  pages=$((pages + ${n:-0}))
done

quoted=""
for f in "${pdfs[@]}"; do quoted+=" $(printf '%q' "$f")"; done
ours_cmd="$(printf '%q' "$PAGEWISE_BIN") parse$quoted >/dev/null 2>&1"
peer_cmd="for f in$quoted; do pdftotext \"\$f\" - ; done >/dev/null 2>&1"

echo "pdf_extract: ${#pdfs[@]} PDFs, $pages pages (pdfinfo) in $PDF_DIR"
echo "pdf_extract: ours = $PAGEWISE_BIN parse FILE...   peer = pdftotext FILE - (per file)"
echo "pdf_extract: machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
json="$BENCH_OUT/pdf_extract.hyperfine.json"
hyperfine --shell=bash --warmup "$WARMUP" --runs "$RUNS" --export-json "$json" \
  -n ours "$ours_cmd" -n pdftotext "$peer_cmd"

# Sanity: characters extracted by each, all characters and non-whitespace ones.
ours_jsonl="$BENCH_OUT/pdf_extract.ours.jsonl"
"$PAGEWISE_BIN" parse --json "${pdfs[@]}" > "$ours_jsonl" 2>"$BENCH_OUT/pdf_extract.ours.stderr"
peer_txt="$BENCH_OUT/pdf_extract.pdftotext.txt"
for f in "${pdfs[@]}"; do pdftotext "$f" - 2>/dev/null; done > "$peer_txt"

python3 - "$json" "$pages" "$ours_jsonl" "$peer_txt" <<'EOF'
import json, sys
hf, pages, ours_jsonl, peer_txt = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
res = {r["command"]: r for r in json.load(open(hf))["results"]}
def rate(name):
    r = res[name]
    return pages / r["median"], r["median"], r["stddev"] or 0.0
o, om, osd = rate("ours")
p, pm, psd = rate("pdftotext")
print()
print(f"ours       median {om:7.3f} s (sd {osd:.3f})  {o:8.1f} pages/s")
print(f"pdftotext  median {pm:7.3f} s (sd {psd:.3f})  {p:8.1f} pages/s")
print(f"RATIO pages/s ours/pdftotext = {o / p:.2f}x  (higher is better)")

ours_pages, ours_chars, ours_nonws = 0, 0, 0
for line in open(ours_jsonl, encoding="utf-8"):
    t = json.loads(line)["text"]
    ours_pages += 1
    ours_chars += len(t)
    ours_nonws += sum(1 for c in t if not c.isspace())
peer = open(peer_txt, encoding="utf-8", errors="replace").read()
peer_pages = peer.count("\f")  # pdftotext ends every page with a form feed
peer_chars = len(peer) - peer_pages
peer_nonws = sum(1 for c in peer if not c.isspace())
print(f"sanity pages: ours {ours_pages}, pdftotext {peer_pages}, pdfinfo {pages}")
print(f"sanity chars/page (all):            ours {ours_chars / max(ours_pages, 1):8.1f}  pdftotext {peer_chars / max(pages, 1):8.1f}  ratio {ours_chars / max(ours_pages, 1) / (peer_chars / max(pages, 1)):.3f}")
print(f"sanity chars/page (non-whitespace): ours {ours_nonws / max(ours_pages, 1):8.1f}  pdftotext {peer_nonws / max(pages, 1):8.1f}  ratio {ours_nonws / max(ours_pages, 1) / (peer_nonws / max(pages, 1)):.3f}")
print("(ours drops running headers/footers and page numbers, so a ratio a little under 1 is expected)")
EOF
echo "pdf_extract: raw results in $BENCH_OUT/pdf_extract.*"
