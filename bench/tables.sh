#!/usr/bin/env bash
# Table extraction accuracy and speed: the figures `pagewise parse --tables` reads from the
# statement pages labelled in bench/data/table-cells.jsonl (176 cells on 33 pages of the
# FinanceBench dev filings: 102 on 20 pages of three companies used while building, 50 on 10
# pages of two other companies held out, 24 on 3 pages labelled later as a second held-out
# split), against pdfplumber's table finder on the same pages,
# with both of its strategies ("lines", its default, and "text", for tables without rules).
# Then the same on a generated library of another kind (bench/make_tables_library.py).
#
# A cell is right when the system gives the labelled figure under the labelled row and column
# (bench/table_score.py says how they are matched). Also printed: how often the figure is in the
# right row at all, and the caption's scale (pdfplumber has no notion of one). Then one hyperfine
# run times both over the same pages (ours parses each whole file; pdfplumber opens only the
# labelled pages, which favours it).
#
# Environment (all optional, see bench/common.sh for the shared ones):
#   LABELS    labelled cells (default bench/data/table-cells.jsonl)
#   PDF_DIR   folder of the labelled PDFs (default $DATA/financebench-dev/pdfs)
#   RUNS      hyperfine runs per command (default 3)
set -euo pipefail
BENCH_VENV="${BENCH_VENV:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/.venv-tables}"
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

LABELS="${LABELS:-$bench_root/bench/data/table-cells.jsonl}"
PDF_DIR="${PDF_DIR:-$DATA/financebench-dev/pdfs}"
RUNS="${RUNS:-3}"
apt_need hyperfine hyperfine
ensure_venv "$bench_root/bench/requirements-tables.txt"

# FILE:PAGE,PAGE… for each labelled file.
mapfile -t targets < <(python3 - "$LABELS" "$PDF_DIR" <<'PY'
import collections, json, sys
pages = collections.defaultdict(set)
for line in open(sys.argv[1]):
    if line.strip():
        r = json.loads(line)
        pages[r["file"]].add(r["page"])
for f, p in sorted(pages.items()):
    print(f"{sys.argv[2]}/{f}:" + ",".join(map(str, sorted(p))))
PY
)
for t in "${targets[@]}"; do
  [ -f "${t%:*}" ] || { echo "bench: missing ${t%:*} (set PDF_DIR or DATA)" >&2; exit 1; }
done

ours_all() {
  for t in "${targets[@]}"; do
    local args=()
    IFS=, read -ra pages <<< "${t##*:}"
    for p in "${pages[@]}"; do args+=(--page "$p"); done
    "$PAGEWISE_BIN" parse --tables "${args[@]}" "${t%:*}" 2>/dev/null
  done
}
ours="$BENCH_OUT/tables.ours.jsonl"
ours_all > "$ours"
"$PY" "$bench_root/bench/table_peer.py" lines "${targets[@]}" > "$BENCH_OUT/tables.pdfplumber-lines.jsonl"
"$PY" "$bench_root/bench/table_peer.py" text "${targets[@]}" > "$BENCH_OUT/tables.pdfplumber-text.jsonl"

echo "tables: machine: $(nproc) CPUs; ours = $PAGEWISE_BIN parse --tables; peer = pdfplumber $("$PY" -c 'import pdfplumber; print(pdfplumber.__version__)')"
python3 "$bench_root/bench/table_score.py" "$LABELS" ours="$ours" \
  pdfplumber-text="$BENCH_OUT/tables.pdfplumber-text.jsonl" pdfplumber-lines="$BENCH_OUT/tables.pdfplumber-lines.jsonl"

# A second library of another kind: price list, lab report, timetable, room rates, water
# tariff (bench/make_tables_library.py; every cell labelled by the generator).
gen="$BENCH_OUT/tables-library"
python3 "$bench_root/bench/make_tables_library.py" "$gen" >/dev/null
"$PAGEWISE_BIN" parse --tables "$gen"/library/*.pdf > "$BENCH_OUT/tables.library.ours.jsonl" 2>/dev/null
gen_targets=()
for f in "$gen"/library/*.pdf; do gen_targets+=("$f:2"); done
"$PY" "$bench_root/bench/table_peer.py" lines "${gen_targets[@]}" > "$BENCH_OUT/tables.library.pdfplumber-lines.jsonl"
"$PY" "$bench_root/bench/table_peer.py" text "${gen_targets[@]}" > "$BENCH_OUT/tables.library.pdfplumber-text.jsonl"
echo
echo "tables: the generated library ($gen)"
python3 "$bench_root/bench/table_score.py" "$gen/cells.jsonl" ours="$BENCH_OUT/tables.library.ours.jsonl" \
  pdfplumber-text="$BENCH_OUT/tables.library.pdfplumber-text.jsonl" pdfplumber-lines="$BENCH_OUT/tables.library.pdfplumber-lines.jsonl"

export -f ours_all
export PAGEWISE_BIN
targets_quoted="$(printf '%q ' "${targets[@]}")"
hyperfine --shell=bash --runs "$RUNS" --export-json "$BENCH_OUT/tables.hyperfine.json" \
  -n ours "targets=($targets_quoted); $(declare -f ours_all); ours_all >/dev/null" \
  -n pdfplumber-text "$PY $(printf '%q' "$bench_root/bench/table_peer.py") text $targets_quoted >/dev/null"
python3 - "$BENCH_OUT/tables.hyperfine.json" <<'PY'
import json, sys
r = {x["command"]: x["median"] for x in json.load(open(sys.argv[1]))["results"]}
print(f"tables: median ours {r['ours']:.2f} s, pdfplumber-text {r['pdfplumber-text']:.2f} s; "
      f"pdfplumber/ours time ratio {r['pdfplumber-text'] / r['ours']:.2f} (above 1: ours faster)")
PY
