#!/usr/bin/env bash
# Recall@10 of usearch settings (f32/f16/i8, HNSW connectivity and expansion) against exact
# search, on the real chunk vectors of an index. The peer is exact (brute-force) search.
#   DATA_DIR: an index built by `pagewise index` (default: builds one of the dev library).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
data="${DATA_DIR:-}"
if [ -z "$data" ]; then
  data="$BENCH_OUT/dev-index"
  "$PAGEWISE_BIN" index --data-dir "$data" "$DATA/financebench-dev/pdfs"
fi
cd "$bench_root"
# The dev profile optimises all dependencies (usearch included), so no second build is needed.
cargo run --locked -p pagewise-core --example vector_recall -- "$data"
