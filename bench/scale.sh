#!/usr/bin/env bash
# A library of SCALE_CHUNKS passages (default 1,000,000): real passage text re-used, random
# but fixed vectors clustered like real embeddings, built straight into Pagewise's stores by
# `pagewise-dev bench-scale build`. Then, ours beside a peer (bench/scale_peer.py: SQLite FTS5 +
# an exact NumPy cosine scan + RRF, the query embedded by sentence-transformers with the same
# MiniLM) on the same passages and vectors: index open time, hybrid latency (P50/P95 over the
# dev questions), memory, disk, and adding 1,000 passages. Prints ratios ours/peer (lower is
# better for each).
#
# Environment (see bench/common.sh for the shared ones):
#   SCALE_CHUNKS  passages (default 1000000)
#   SCALE_DIR     where the library lives (default $BENCH_OUT/scale; kept between runs:
#                 building a million passages takes a while)
#   EMBED_TEXTS   JSON lines with "text" (default: exported from the dev filings' index)
#   RUNS          times each question is asked (default 3)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/common.sh"

SCALE_CHUNKS="${SCALE_CHUNKS:-1000000}"
SCALE_DIR="${SCALE_DIR:-$BENCH_OUT/scale}"
RUNS="${RUNS:-3}"
export RUNS BENCH_THREADS="${BENCH_THREADS:-2}"
export EMBED_MODEL="${EMBED_MODEL:-$PAGEWISE_MODELS_DIR/all-MiniLM-L6-v2}"
ensure_venv "$here/requirements-embed.txt"

texts="${EMBED_TEXTS:-}"
if [ -z "$texts" ]; then
  idx="$BENCH_OUT/index"
  if [ ! -f "$idx/pagewise.sqlite" ]; then
    "$PAGEWISE_BIN" index --data-dir "$idx" --no-embed "$DATA/financebench-dev/pdfs" >&2
  fi
  texts="$BENCH_OUT/scale.texts.jsonl"
  "$PY" "$here/export_chunks.py" --db "$idx/pagewise.sqlite" -n 20000 -o "$texts"
fi
questions="$BENCH_OUT/scale.questions.jsonl"
cp "$DATA/financebench-dev/questions.jsonl" "$questions"

ours="$SCALE_DIR/pagewise"
peer="$SCALE_DIR/peer"
mkdir -p "$ours" "$peer"
echo "scale: $SCALE_CHUNKS passages in $SCALE_DIR; $(nproc) CPUs, $BENCH_THREADS threads"
/usr/bin/time -v "$PAGEWISE_DEV_BIN" --data-dir "$ours" bench-scale build --chunks "$SCALE_CHUNKS" --texts "$texts" \
  > "$BENCH_OUT/scale.build.json" 2> "$BENCH_OUT/scale.build.log" || { tail -5 "$BENCH_OUT/scale.build.log" >&2; exit 1; }
echo "  ours build: $(cat "$BENCH_OUT/scale.build.json") peak RSS $(awk '/Maximum resident/ {print int($6/1024)}' "$BENCH_OUT/scale.build.log") MB"
if [ ! -f "$peer/vectors.npy" ] || [ "$ours/pagewise.sqlite" -nt "$peer/vectors.npy" ]; then
  "$PY" "$here/scale_peer.py" build "$ours/pagewise.sqlite" "$peer" > "$BENCH_OUT/scale.peer-build.json"
  echo "  peer build: $(cat "$BENCH_OUT/scale.peer-build.json")"
fi

# Query from a cold page cache where we may drop it, else as the machine has it.
sync; (echo 3 > /proc/sys/vm/drop_caches) 2>/dev/null || true
"$PAGEWISE_DEV_BIN" --data-dir "$ours" bench-scale query "$questions" --runs "$RUNS" > "$BENCH_OUT/scale.ours.json"
echo "  ours query: $(cat "$BENCH_OUT/scale.ours.json")"
sync; (echo 3 > /proc/sys/vm/drop_caches) 2>/dev/null || true
"$PY" "$here/scale_peer.py" query "$peer" "$questions" > "$BENCH_OUT/scale.peer.json" 2> "$BENCH_OUT/scale.peer.log"
echo "  peer query: $(cat "$BENCH_OUT/scale.peer.json")"

# Adding 1,000 passages to a copy, so the measured library stays as built.
work="$(mktemp -d "$SCALE_DIR/add.XXXX")"
trap 'rm -rf "$work"' EXIT
cp -r "$ours" "$work/pagewise"
cp -r "$peer" "$work/peer"
"$PAGEWISE_DEV_BIN" --data-dir "$work/pagewise" bench-scale add --chunks 1000 --texts "$texts" > "$BENCH_OUT/scale.ours-add.json"
"$PY" "$here/scale_peer.py" add "$work/peer" 1000 > "$BENCH_OUT/scale.peer-add.json"
echo "  ours add: $(cat "$BENCH_OUT/scale.ours-add.json")"
echo "  peer add: $(cat "$BENCH_OUT/scale.peer-add.json")"

"$PY" - "$BENCH_OUT" <<'EOF'
import json, sys
out = sys.argv[1]
o, p = (json.load(open(f"{out}/scale.{n}.json")) for n in ("ours", "peer"))
oa, pa = (json.load(open(f"{out}/scale.{n}-add.json")) for n in ("ours", "peer"))
print()
print(f"{o['chunks']:,} passages (peer {p['chunks']:,}); {o['queries']} searches each")
rows = [("index open (ms)", o["open_ms"], p["open_ms"]), ("first search (ms)", o["first_query_ms"], p["first_query_ms"]),
        ("hybrid P50 (ms)", o["p50_ms"], p["p50_ms"]), ("hybrid P95 (ms)", o["p95_ms"], p["p95_ms"]),
        ("RSS after searching (MB)", o["rss_mb"], p["rss_mb"]), ("peak RSS (MB)", o["peak_rss_mb"], p["peak_rss_mb"]),
        ("disk (MB)", o["disk_mb"], p["disk_mb"]), ("add 1,000 passages (ms)", oa["add_ms"], pa["add_ms"])]
print(f"{'':28s} {'ours':>10s} {'peer':>10s}  ratio ours/peer (lower is better)")
for name, a, b in rows:
    print(f"{name:28s} {a:10.1f} {b:10.1f}  RATIO {a / b:.2f}x")
print(f"target: hybrid P95 <= 100 ms at a million passages: ours {o['p95_ms']:.1f} ms ({'met' if o['p95_ms'] <= 100 else 'NOT met'})")
EOF
