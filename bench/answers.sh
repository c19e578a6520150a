#!/usr/bin/env bash
# Answer quality per library: correctness (the gold figure or name in a supported sentence),
# gold-page citation, abstaining on answerable and on out-of-scope questions, and time to first
# evidence and first token. One line per library and model; details in bench/out/answers-*.
#
# usage: bench/answers.sh [MODEL.gguf | extractive] [LIBRARY...]
#   LIBRARY: sample, financebench, zh, injection (default: all four)
#   LIMIT=N  only the first N questions of each set (the 1.5B model is slow on 2 cores)
#   NEVER_ABSTAIN=1  dump retrieval signals without the abstain rule (for bench/abstain_fit.py)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

model="${1:-}"
shift || true
libraries=("$@")
[ ${#libraries[@]} -gt 0 ] || libraries=(sample financebench zh injection)

model_args=()
tag="default"
case "$model" in
  "") ;;
  extractive) model_args=(--extractive); tag="extractive" ;;
  *) model_args=(--model "$model"); tag="$(basename "$model" .gguf)" ;;
esac
[ -z "${LIMIT:-}" ] || model_args+=(--limit "$LIMIT")
[ -z "${NEVER_ABSTAIN:-}" ] || model_args+=(--never-abstain)
[ -z "${RECORD_JUDGE:-}" ] || model_args+=(--record-judge)

# index_once NAME FOLDER: a data dir per library, built once and reused.
index_once() {
  local dir="$BENCH_OUT/data-$1"
  if [ ! -f "$dir/pagewise.sqlite" ]; then
    echo "bench: indexing $2 into $dir" >&2
    "$PAGEWISE_BIN" --data-dir "$dir" index "$2" --json > "$BENCH_OUT/index-$1.json"
  fi
  echo "$dir"
}

injection_folder() {
  local dir="$BENCH_OUT/injection-docs"
  mkdir -p "$dir"
  # The README names the canaries; it is not part of the library.
  find "$bench_root/tests/fixtures/injection" -maxdepth 1 -type f ! -name README.md ! -name questions.jsonl -exec cp {} "$dir/" \;
  echo "$dir"
}

for lib in "${libraries[@]}"; do
  case "$lib" in
    sample)
      data="$(index_once sample "$bench_root/assets/sample")"
      questions="$bench_root/bench/data/sample-questions.jsonl"
      oos="$bench_root/bench/data/sample-out-of-scope.jsonl" ;;
    financebench)
      data="$(index_once financebench "$DATA/financebench-dev/pdfs")"
      questions="$DATA/financebench-dev/questions.jsonl"
      oos="$bench_root/bench/data/financebench-out-of-scope.jsonl" ;;
    zh)
      data="$(index_once zh "$DATA/zh-dev")"
      questions="$BENCH_OUT/zh-all-questions.jsonl"
      cat "$bench_root/bench/data/zh-dev-questions.jsonl" "$bench_root/bench/data/zh-questions.jsonl" > "$questions"
      oos="$bench_root/bench/data/zh-out-of-scope.jsonl" ;;
    injection)
      data="$(index_once injection "$(injection_folder)")"
      questions="$bench_root/tests/fixtures/injection/questions.jsonl"
      oos="" ;;
    *) echo "bench: unknown library $lib" >&2; exit 2 ;;
  esac
  out="$BENCH_OUT/answers-$lib-$tag"
  args=(eval-answers "$questions" --out "$out.jsonl" "${model_args[@]}")
  [ -z "$oos" ] || args+=(--out-of-scope "$oos")
  "$PAGEWISE_DEV_BIN" --data-dir "$data" "${args[@]}" > "$out.summary.json" 2> "$out.log"
  python3 - "$lib" "$tag" "$out.summary.json" <<'PY'
import json, sys
lib, tag, path = sys.argv[1:4]
s = json.load(open(path))
print(f"{lib:<13}{tag:<42}correct {s['correct']:.3f} (by the model {s.get('correct_by_model', float('nan')):.3f})  gold page {s['cites_gold_page']:.3f}  "
      f"abstain answerable {s['abstained_answerable']:.3f}  out-of-scope {s['abstained_out_of_scope']:.3f}  "
      f"injected shown as supported {s['injected_shown_as_supported']}/{s['injection_probes']}  "
      f"first evidence {s['first_evidence_ms_median']:.0f} ms  first token {s['first_token_ms_median']:.0f} ms")
PY
done
