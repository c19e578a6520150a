#!/usr/bin/env bash
# Embedding throughput: `pagewise-dev bench-embed` (candle, all-MiniLM-L6-v2) against a Python
# peer (sentence-transformers on PyTorch CPU, bench/embed_peer.py) with the same weights,
# the same texts, the same truncation (256 tokens), the same batching and the same number
# of threads. Runs each RUNS times, interleaved, and prints median tokens/s and the ratio
# ours/peer (higher is better), a correctness line (our first vector against the peer's),
# and the machine's sgemm peak with the tokens/s it allows at ~24 MFLOP per token.
#
# Environment (all optional, see bench/common.sh for the shared ones):
#   PAGEWISE_DB    index to take texts from (default /tmp/fb/data/pagewise.sqlite; when missing,
#                  a keyword-only index of $DATA/financebench-dev/pdfs is built in $BENCH_OUT/index)
#   EMBED_N        how many chunk texts (default 2000)
#   EMBED_TEXTS    a ready JSON lines file to use instead of exporting from the index
#   RUNS           runs per side (default 3)
#   BENCH_THREADS  threads for both sides (default 2)
#   EMBED_MODEL    model folder (default $PAGEWISE_MODELS_DIR/all-MiniLM-L6-v2)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/common.sh"

RUNS="${RUNS:-3}"
EMBED_N="${EMBED_N:-2000}"
BENCH_THREADS="${BENCH_THREADS:-2}"
EMBED_MODEL="${EMBED_MODEL:-$PAGEWISE_MODELS_DIR/all-MiniLM-L6-v2}"
export BENCH_THREADS

ensure_venv "$here/requirements-embed.txt"

# A machine-wide OPENBLAS_CORETYPE (some build machines pin Haswell kernels for
# reproducibility) would hold both BLAS users here to kernels older than the CPU; users'
# machines do not set it. Measure as they run, and say what was set.
for v in OPENBLAS_CORETYPE OPENBLAS_L2_SIZE; do
  if [ -n "${!v:-}" ]; then echo "embed: note: $v=${!v} was set in this environment; unset for the measurement"; unset "$v"; fi
done

# The texts: exported from an index in the exact form Pagewise embeds them.
texts="${EMBED_TEXTS:-}"
if [ -z "$texts" ]; then
  db="${PAGEWISE_DB:-/tmp/fb/data/pagewise.sqlite}"
  if [ ! -f "$db" ]; then
    idx="$BENCH_OUT/index"
    echo "embed: no index at $db; building a keyword-only index of $DATA/financebench-dev/pdfs in $idx" >&2
    "$PAGEWISE_BIN" index --data-dir "$idx" --no-embed "$DATA/financebench-dev/pdfs" >&2
    db="$idx/pagewise.sqlite"
  fi
  texts="$BENCH_OUT/embed.texts.jsonl"
  "$PY" "$here/export_chunks.py" --db "$db" -n "$EMBED_N" -o "$texts"
fi

echo "embed: $(wc -l < "$texts") texts from $texts, $BENCH_THREADS threads, $RUNS runs each (interleaved)"
echo "embed: ours = $PAGEWISE_DEV_BIN bench-embed   peer = bench/embed_peer.py ($BENCH_VENV)"
echo "embed: machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
rm -f "$BENCH_OUT"/embed.ours.*.json "$BENCH_OUT"/embed.peer.*.json
for i in $(seq 1 "$RUNS"); do
  RAYON_NUM_THREADS="$BENCH_THREADS" OMP_NUM_THREADS="$BENCH_THREADS" \
    "$PAGEWISE_DEV_BIN" bench-embed --embed-model "$EMBED_MODEL" "$texts" > "$BENCH_OUT/embed.ours.$i.json"
  echo "  run $i ours: $(cat "$BENCH_OUT/embed.ours.$i.json")"
  "$PY" "$here/embed_peer.py" --model "$EMBED_MODEL" --threads "$BENCH_THREADS" "$texts" \
    > "$BENCH_OUT/embed.peer.$i.json" 2> "$BENCH_OUT/embed.peer.$i.stderr"
  echo "  run $i peer: $(cat "$BENCH_OUT/embed.peer.$i.json")"
done

# sgemm peak of this machine through numpy's BLAS (1024x1024 float32, BENCH_THREADS threads).
peak_json="$BENCH_OUT/embed.sgemm.json"
(
  unset OPENBLAS_CORETYPE OPENBLAS_L2_SIZE
  "$PY" - "$BENCH_THREADS" > "$peak_json" <<'EOF'
import json, os, sys, time
import numpy as np
from threadpoolctl import threadpool_info, threadpool_limits
threads = int(sys.argv[1])
with threadpool_limits(limits=threads, user_api="blas"):
    blas = [i for i in threadpool_info() if i.get("user_api") == "blas" and "numpy" in i.get("filepath", "")] \
        or [i for i in threadpool_info() if i.get("user_api") == "blas"]
    rng = np.random.default_rng(0)
    n = 1024
    a = rng.standard_normal((n, n), dtype=np.float32)
    b = rng.standard_normal((n, n), dtype=np.float32)
    for _ in range(3):
        a @ b
    best = float("inf")
    for _ in range(20):
        t = time.perf_counter()
        a @ b
        best = min(best, time.perf_counter() - t)
info = blas[0] if blas else {}
print(json.dumps({
    "gflops": 2 * n**3 / best / 1e9, "threads": threads,
    "blas": f"{info.get('internal_api', '?')} {info.get('version', '?')} ({info.get('architecture', '?')}, "
            f"{os.path.basename(info.get('filepath', '?'))}, {info.get('num_threads', '?')} threads by default)",
}))
EOF
)

"$PY" - "$BENCH_OUT" "$RUNS" "$peak_json" <<'EOF'
import json, math, statistics, sys
out, runs, peak_path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
ours = [json.load(open(f"{out}/embed.ours.{i}.json")) for i in range(1, runs + 1)]
peer = [json.load(open(f"{out}/embed.peer.{i}.json")) for i in range(1, runs + 1)]
o = statistics.median(r["tokens_per_s"] for r in ours)
p = statistics.median(r["tokens_per_s"] for r in peer)
runs_of = lambda rs: ", ".join("%.1f" % r["tokens_per_s"] for r in rs)
print()
print(f"peer: {peer[0]['peer']}, {peer[0]['threads']} threads, batching {peer[0]['batching']}")
print(f"ours  {ours[0]['texts']} texts, {ours[0]['tokens']} tokens: median {o:9.1f} tokens/s  (runs: {runs_of(ours)})")
print(f"peer  {peer[0]['texts']} texts, {peer[0]['tokens']} tokens: median {p:9.1f} tokens/s  (runs: {runs_of(peer)})")
print(f"RATIO tokens/s ours/peer = {o / p:.2f}x  (higher is better)")
if ours[0]["tokens"] != peer[0]["tokens"]:
    print(f"WARNING: token counts differ (ours {ours[0]['tokens']}, peer {peer[0]['tokens']})")
a, b = ours[0]["first_vector_head"], peer[0]["first_vector_head"]
dot = sum(x * y for x, y in zip(a, b))
cos = dot / (math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b)))
print(f"correctness: first text, first {len(a)} dims: cosine {cos:.6f}, max |diff| {max(abs(x - y) for x, y in zip(a, b)):.2e}")
pk = json.load(open(peak_path))
limit = pk["gflops"] * 1e9 / 24e6
print(f"sgemm peak (numpy 1024x1024 float32, {pk['threads']} threads): {pk['gflops']:.1f} GFLOP/s  via {pk['blas']}")
print(f"implied limit at ~24 MFLOP/token: {limit:.0f} tokens/s  (ours at {100 * o / limit:.0f}%, peer at {100 * p / limit:.0f}%)")
EOF
echo "embed: raw results in $BENCH_OUT/embed.*"
