#!/usr/bin/env bash
# Generation speed: `pagewise-dev bench-generate` (llama-cpp-2) against llama-cpp-python
# (bench/generate_peer.py) on the same GGUF, the same ~1,500-token prompt, the same thread
# count and a fixed number of greedy tokens. Runs the two sides interleaved, RUNS times each,
# and prints median prompt-processing and generation tokens/s with the ratio ours/peer.
#
# Environment (all optional, see bench/common.sh for the shared ones):
#   GEN_MODEL      GGUF file (default $PAGEWISE_MODELS_DIR/llm/SmolLM2-135M-Instruct.Q4_1.gguf)
#   GEN_PROMPT     prompt file (default bench/data/generate-prompt.txt)
#   N_PREDICT      generated tokens per run (default 64)
#   RUNS           runs per side (default 3)
#   BENCH_THREADS  threads for both sides (default 2)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BENCH_VENV="${BENCH_VENV:-$here/.venv-llama}"
source "$here/common.sh"

GEN_MODEL="${GEN_MODEL:-$PAGEWISE_MODELS_DIR/llm/SmolLM2-135M-Instruct.Q4_1.gguf}"
GEN_PROMPT="${GEN_PROMPT:-$here/data/generate-prompt.txt}"
N_PREDICT="${N_PREDICT:-64}"
RUNS="${RUNS:-3}"
BENCH_THREADS="${BENCH_THREADS:-2}"

# llama-cpp-python ships as source only; build it with the CPU flags llama-cpp-sys-2 uses.
export CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON -DGGML_OPENMP=ON -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAVA_BUILD=OFF}"
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}"
ensure_venv "$here/requirements-llama.txt"

ours="$BENCH_OUT/generate-ours.jsonl"
peer="$BENCH_OUT/generate-peer.jsonl"
: > "$ours"
: > "$peer"
for _ in $(seq "$RUNS"); do
  "$PAGEWISE_DEV_BIN" bench-generate --model "$GEN_MODEL" --prompt-file "$GEN_PROMPT" \
    --threads "$BENCH_THREADS" --n-predict "$N_PREDICT" --runs 1 | grep -v median >> "$ours"
  "$PY" "$here/generate_peer.py" --model "$GEN_MODEL" --prompt-file "$GEN_PROMPT" \
    --threads "$BENCH_THREADS" --n-predict "$N_PREDICT" --runs 1 | grep -v median >> "$peer"
done

"$PY" - "$ours" "$peer" "$GEN_MODEL" "$BENCH_THREADS" <<'PY'
import json, statistics, sys
ours = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
peer = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
med = lambda rows, key: statistics.median(r[key] for r in rows)
print(f"model {sys.argv[3]}, {sys.argv[4]} threads, prompt {ours[0]['prompt_tokens']} tokens (peer {peer[0]['prompt_tokens']}), {ours[0]['gen_tokens']} generated")
for key, name in [("prompt_tok_s", "prompt processing"), ("gen_tok_s", "generation")]:
    o, p = med(ours, key), med(peer, key)
    print(f"{name:>18}: ours {o:8.1f} tok/s   llama-cpp-python {p:8.1f} tok/s   ratio {o / p:.2f}")
PY
