#!/usr/bin/env bash
# Indexing against its bound: `pagewise index` of the dev filings from scratch (parse, OCR,
# chunk, embed, commit; wall time and peak RSS) beside the embedding-only bound — the same
# passages, in the exact form the indexer embeds them, through `pagewise-dev bench-embed` — and
# the peer's bound, sentence-transformers embedding those passages with the same threads.
# Prints wall / bound (target <= 1.2) and our bound / the peer's.
#
# Environment: see bench/common.sh; BENCH_THREADS (default 2).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/common.sh"
BENCH_THREADS="${BENCH_THREADS:-2}"
EMBED_MODEL="${EMBED_MODEL:-$PAGEWISE_MODELS_DIR/all-MiniLM-L6-v2}"
ensure_venv "$here/requirements-embed.txt"
for v in OPENBLAS_CORETYPE OPENBLAS_L2_SIZE; do
  if [ -n "${!v:-}" ]; then echo "pipeline: note: $v=${!v} was set in this environment; unset for the measurement"; unset "$v"; fi
done

pdfs="$DATA/financebench-dev/pdfs"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "pipeline: $(ls "$pdfs" | wc -l) PDFs, $(nproc) CPUs, $BENCH_THREADS embedding threads"
RAYON_NUM_THREADS="$BENCH_THREADS" /usr/bin/time -f "%e %M" -o "$work/time" \
  "$PAGEWISE_BIN" index --json --data-dir "$work/data" "$pdfs" > "$work/index.json" 2> "$work/index.log"
read -r wall rss_kb < "$work/time"
"$PY" "$here/export_chunks.py" --db "$work/data/pagewise.sqlite" -n 10000000 -o "$work/texts.jsonl" 2>/dev/null
RAYON_NUM_THREADS="$BENCH_THREADS" "$PAGEWISE_DEV_BIN" bench-embed --embed-model "$EMBED_MODEL" "$work/texts.jsonl" > "$work/bound.json"
"$PY" "$here/embed_peer.py" --model "$EMBED_MODEL" --threads "$BENCH_THREADS" "$work/texts.jsonl" > "$work/peer.json" 2>/dev/null

"$PY" - "$work" "$wall" "$rss_kb" <<'EOF'
import json, sys
work, wall, rss_kb = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
report = json.load(open(f"{work}/index.json"))
bound = json.load(open(f"{work}/bound.json"))
peer = json.load(open(f"{work}/peer.json"))
print(f"index from scratch: {wall:.1f} s wall, peak RSS {rss_kb // 1024} MB — {report['indexed']} files, "
      f"{report['pages']} pages, {report['chunks']} chunks, {report['embedded_tokens']} tokens embedded in {report['embed_seconds']:.1f} s")
print(f"embedding-only bound (ours): {bound['seconds']:.1f} s for {bound['tokens']} tokens ({bound['tokens_per_s']:.0f} tokens/s)")
print(f"embedding-only bound (peer, {peer['peer']}): {peer['seconds']:.1f} s ({peer['tokens_per_s']:.0f} tokens/s)")
print(f"RATIO index wall / our bound = {wall / bound['seconds']:.2f}x  (target <= 1.2)")
print(f"RATIO index wall / peer bound = {wall / peer['seconds']:.2f}x  (below 1: indexing everything beats the peer only embedding)")
EOF
