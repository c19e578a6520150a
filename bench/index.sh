#!/usr/bin/env bash
# Indexing the dev library: from scratch (wall time, peak RSS), a second run with nothing
# changed, and a run after touching one file's content (only that file is re-embedded).
# The peer for the from-scratch pass is pdftotext over the same files (parse only): the
# ratio says how much of our time is parsing versus chunking, embedding and committing.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
pdfs="$DATA/financebench-dev/pdfs"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
cp -r "$pdfs" "$work/pdfs"
data="$work/data"

measure() { # label, command...
  local label="$1"; shift
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" > "$work/out.json" 2> "$work/err.log"
  read -r secs rss_kb < "$work/time"
  printf '%-26s %8.2f s   peak RSS %6.0f MB   %s\n' "$label" "$secs" "$((rss_kb / 1024))" "$(head -c 200 "$work/out.json")"
}

echo "indexing $(ls "$pdfs" | wc -l) PDFs ($pdfs) with $PAGEWISE_BIN"
measure "from scratch" "$PAGEWISE_BIN" index --json --data-dir "$data" "$work/pdfs"
measure "nothing changed" "$PAGEWISE_BIN" index --json --data-dir "$data" "$work/pdfs"
one="$(ls "$work/pdfs"/*.pdf | head -1)"
printf '\n%% pagewise bench: an edit\n' >> "$one"
measure "one file edited" "$PAGEWISE_BIN" index --json --data-dir "$data" "$work/pdfs"
start=$(date +%s.%N)
for f in "$work/pdfs"/*.pdf; do pdftotext "$f" - > /dev/null; done
peer=$(echo "$(date +%s.%N) - $start" | bc)
printf '%-26s %8.2f s   (parse only, for scale)\n' "peer: pdftotext all" "$peer"
