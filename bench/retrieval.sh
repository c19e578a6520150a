#!/usr/bin/env bash
# Page-level retrieval, stage by stage (routing by document facets, page reranking), on
# four libraries of different kinds: the FinanceBench dev filings, the sample folder, the
# Chinese dev articles and a generated library of reports, minutes, a lease, a
# handbook and papers (bench/make_library.py). Prints `pagewise-dev eval --stages` for each:
# recall@1/5/10, MRR@10, routing accuracy (is an evidence document ranked first by routing,
# and is the first hit in one) and latency.
#
# Indexes each library into $BENCH_OUT/retrieval/ unless it is already there (the dev filings
# take about 30 minutes to embed on 2 cores). FB_DATA_DIR=DIR reuses an existing index of them.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
out="$BENCH_OUT/retrieval"
mkdir -p "$out"
python3 "$bench_root/bench/make_library.py" "$out/mixed" >/dev/null

index() { # folder data-dir
  "$PAGEWISE_BIN" index "$1" --data-dir "$2" >/dev/null
}

fb_data="${FB_DATA_DIR:-$out/financebench-dev}"
[ -n "${FB_DATA_DIR:-}" ] || index "$DATA/financebench-dev/pdfs" "$fb_data"
index "$bench_root/assets/sample" "$out/sample"
index "$DATA/zh-dev" "$out/zh"
index "$out/mixed/library" "$out/mixed/data"

run() { # title questions data-dir
  echo "== $1"
  "$PAGEWISE_DEV_BIN" eval "$2" --data-dir "$3" --stages 2>/dev/null
  echo
}
run "FinanceBench dev filings (18 PDFs, 2,172 pages)" "$DATA/financebench-dev/questions.jsonl" "$fb_data"
run "sample folder (3 files)" "$bench_root/bench/data/sample-questions.jsonl" "$out/sample"
run "Chinese dev articles (written questions)" "$bench_root/bench/data/zh-questions.jsonl" "$out/zh"
run "generated library of other kinds (10 files, 24 questions)" "$out/mixed/questions.jsonl" "$out/mixed/data"

# The page reranker's weights, refitted from each library's candidate pages and checked by
# leave-one-library-out and pooled 5-fold cross-validation (bench/fit_reranker.py).
dump() { # name questions data-dir
  "$PAGEWISE_DEV_BIN" eval "$2" --data-dir "$3" --dump-candidates "$out/$1.candidates.jsonl" 2>/dev/null
}
dump fb "$DATA/financebench-dev/questions.jsonl" "$fb_data"
dump sample "$bench_root/bench/data/sample-questions.jsonl" "$out/sample"
dump zh "$bench_root/bench/data/zh-questions.jsonl" "$out/zh"
dump mixed "$out/mixed/questions.jsonl" "$out/mixed/data"
echo "== page reranker: refit and cross-validation"
python3 "$bench_root/bench/fit_reranker.py" fb="$out/fb.candidates.jsonl" sample="$out/sample.candidates.jsonl" \
  zh="$out/zh.candidates.jsonl" mixed="$out/mixed.candidates.jsonl"
