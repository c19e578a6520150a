#!/usr/bin/env bash
# The latency an OpenAI-compatible server adds: the same GGUF answers the sample questions
# in-process and through llama.cpp's llama-server on loopback (built by models/llama-server.sh),
# with the same evidence, prompt and checks. Prints correctness and the median time to first
# token and to the whole answer for each, and their ratio.
#
# usage: bench/endpoint.sh [MODEL.gguf]   (default: the default chat model)
#   LIMIT=N      only the first N questions (default 6; the 1.5B model is slow on 2 cores)
#   LLAMA_SERVER the server binary (default models/bin/llama-server)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

model="${1:-$PAGEWISE_MODELS_DIR/llm/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf}"
server="${LLAMA_SERVER:-$PAGEWISE_MODELS_DIR/bin/llama-server}"
[ -x "$server" ] || { echo "bench: no llama-server at $server (run models/llama-server.sh)" >&2; exit 1; }
limit="${LIMIT:-6}"
questions="$bench_root/bench/data/sample-questions.jsonl"

data="$BENCH_OUT/data-sample"
if [ ! -f "$data/pagewise.sqlite" ]; then
  "$PAGEWISE_BIN" --data-dir "$data" index "$bench_root/assets/sample" --json > "$BENCH_OUT/index-sample.json"
fi

port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$server" -m "$model" --alias bench --host 127.0.0.1 --port "$port" -c 4096 -t "$(nproc)" -np 1 >"$BENCH_OUT/llama-server.log" 2>&1 &
server_pid=$!
trap 'kill $server_pid 2>/dev/null || true' EXIT
for _ in $(seq 600); do
  curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
  sleep 0.2
done

run() { # TAG ARGS...
  local tag="$1"; shift
  "$PAGEWISE_DEV_BIN" --data-dir "$data" eval-answers "$questions" --limit "$limit" --out "$BENCH_OUT/endpoint-$tag.jsonl" "$@" \
    > "$BENCH_OUT/endpoint-$tag.summary.json" 2> "$BENCH_OUT/endpoint-$tag.log"
}
run in-process --model "$model"
run server --endpoint "http://127.0.0.1:$port/v1"

python3 - "$BENCH_OUT" <<'PY'
import json, statistics, sys
out = sys.argv[1]
rows = {}
for tag in ("in-process", "server"):
    s = json.load(open(f"{out}/endpoint-{tag}.summary.json"))
    answers = [json.loads(l) for l in open(f"{out}/endpoint-{tag}.jsonl")]
    totals = [a["answer"]["timings"]["total_ms"] for a in answers if "answer" in a and a["answer"].get("timings")]
    rows[tag] = (s["correct"], s["first_token_ms_median"], statistics.median(totals) if totals else float("nan"))
    print(f"{tag:<12} correct {rows[tag][0]:.3f}  first token median {rows[tag][1]:7.0f} ms  answer median {rows[tag][2]:7.0f} ms")
(a, b) = rows["in-process"], rows["server"]
print(f"server / in-process: first token {b[1] / a[1]:.2f}x ({b[1] - a[1]:+.0f} ms), whole answer {b[2] / a[2]:.2f}x ({b[2] - a[2]:+.0f} ms)")
PY
