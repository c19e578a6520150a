#!/usr/bin/env bash
# Reading order of multi-column pages: `pagewise parse` against pdftotext's reading order.
#
# 1. Generated pages with a known reading order (bench/make_columns.py): two and three
#    columns drawn row by row (content order interleaves them), columns drawn in order, a
#    paper page with title, abstract, running header and page number, columns split by a
#    full-width caption, a single column and a table. Scored against the truth.
# 2. The dev library (FinanceBench filings and the sample folder): scored against pdftotext.
#    BEFORE_BIN=PATH adds an older pagewise binary as a third column.
#
# The score is word-bigram recall: the share of the reference's adjacent word pairs that are
# adjacent in the candidate (bench/reading_order.py). Also prints pages/s of each parse.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
apt_need pdftotext poppler-utils
out="$BENCH_OUT/reading-order"
mkdir -p "$out/generated"
python3 "$bench_root/bench/make_columns.py" "$out/generated"

parse() { # binary output files...
  local bin="$1" dest="$2"
  shift 2
  "$bin" parse --json --data-dir "$out/data" "$@" >"$dest" 2>"$dest.log"
  tail -1 "$dest.log"
}

score() { # title reference files...
  local title="$1" ref="$2"
  shift 2
  echo "== $title"
  local cands=("now=$out/$title.now.jsonl")
  echo -n "pagewise: "
  parse "$PAGEWISE_BIN" "$out/$title.now.jsonl" "$@"
  if [ -n "${BEFORE_BIN:-}" ]; then
    echo -n "before:   "
    parse "$BEFORE_BIN" "$out/$title.before.jsonl" "$@"
    cands=("before=$out/$title.before.jsonl" "${cands[@]}")
  fi
  if [ -z "$ref" ]; then
    python3 "$bench_root/bench/pdftotext_pages.py" "$@" >"$out/$title.pdftotext.jsonl"
    python3 "$bench_root/bench/reading_order.py" "$out/$title.pdftotext.jsonl" "${cands[@]}"
  else
    python3 "$bench_root/bench/pdftotext_pages.py" "$@" >"$out/$title.pdftotext.jsonl"
    python3 "$bench_root/bench/reading_order.py" "$ref" "${cands[@]}" "pdftotext=$out/$title.pdftotext.jsonl"
  fi
  echo
}

score generated "$out/generated/truth.jsonl" "$out"/generated/*.pdf
mapfile -d '' dev < <(find "$DATA/financebench-dev/pdfs" "$bench_root/assets/sample" -maxdepth 1 -type f -iname '*.pdf' -print0 | sort -z)
score dev "" "${dev[@]}"
