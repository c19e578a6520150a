#!/usr/bin/env bash
# Page-level retrieval on the dev set for a grid of fusion settings (how the defaults in
# crates/core/src/retrieve.rs were chosen). Needs an index of the dev library:
#   DATA_DIR=/path/to/index bench/fusion_grid.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
data="${DATA_DIR:?set DATA_DIR to an index of the dev library}"
questions="$DATA/financebench-dev/questions.jsonl"
printf '%6s %6s %6s %6s  %8s %8s %8s %8s\n' rrf_k lex vec doc 'r@1' 'r@5' 'r@10' 'MRR@10'
for k in ${RRF_KS:-20 60}; do
  for lw in ${LEX_WEIGHTS:-0.5 1 1.5}; do
    for vw in ${VEC_WEIGHTS:-0.5 1 1.5}; do
      for dw in ${DOC_WEIGHTS:-0 0.5 1 2}; do
        "$PAGEWISE_DEV_BIN" eval "$questions" --data-dir "$data" --json \
          --rrf-k "$k" --lexical-weight "$lw" --vector-weight "$vw" --document-weight "$dw" 2>/dev/null |
          python3 -c "
import json, sys
m = [x for x in json.load(sys.stdin)['modes'] if x['mode'] == 'hybrid'][0]
print('%6s %6s %6s %6s  %8.3f %8.3f %8.3f %8.3f' % ('$k', '$lw', '$vw', '$dw', m['recall_at_1'], m['recall_at_5'], m['recall_at_10'], m['mrr_at_10']))"
      done
    done
  done
done
