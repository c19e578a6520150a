#!/usr/bin/env bash
# Freshness with the watcher running: seconds from saving a file until `pagewise search`, run
# from another process, finds it. RUNS (default 20) saves each of a text file and a 50-page
# PDF; prints medians. The peer is the same save picked up without a watcher: `pagewise index`
# run on the folder right after the save, then one search (what a scheduled re-index costs at
# best). Searches poll every ~0.2 s (a search process takes about that long), which bounds the
# resolution.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
RUNS="${RUNS:-20}"
work="$(mktemp -d)"
watch_pid=""
cleanup() { [ -n "$watch_pid" ] && kill -INT "$watch_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
mkdir -p "$work/docs" "$work/peer"
cp "$bench_root"/assets/sample/* "$work/docs/"
cp "$bench_root"/assets/sample/* "$work/peer/"

found() { # data-dir token file-name
  "$PAGEWISE_BIN" search "$2" --mode lexical --json --k 3 --data-dir "$1" 2>/dev/null | grep -q "$3"
}
now() { date +%s.%N; }
median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.2f", m}'; }

"$PAGEWISE_BIN" index --data-dir "$work/data" "$work/docs" >/dev/null 2>&1
"$PAGEWISE_BIN" index --data-dir "$work/peer-data" "$work/peer" >/dev/null 2>&1
"$PAGEWISE_BIN" watch --data-dir "$work/data" "$work/docs" >"$work/watch.log" 2>&1 &
watch_pid=$!
sleep 3

for kind in text pdf; do
  : > "$work/$kind.ours"; : > "$work/$kind.peer"
  for i in $(seq 1 "$RUNS"); do
    token="fresh${kind}${i}x$RANDOM"
    for side in ours peer; do
      dir="$work/docs"; data="$work/data"
      [ "$side" = peer ] && { dir="$work/peer"; data="$work/peer-data"; }
      if [ "$kind" = text ]; then file="$dir/note-$i.md"; else file="$dir/report-$i.pdf"; fi
      start=$(now)
      if [ "$kind" = text ]; then
        printf '# Note %s\n\nThe %s reading was logged at the substation.\n' "$i" "$token" > "$file.tmp" && mv "$file.tmp" "$file"
      else
        python3 "$bench_root/bench/make_pdf.py" "$file.tmp" 50 "$token" && mv "$file.tmp" "$file"
      fi
      if [ "$side" = peer ]; then
        "$PAGEWISE_BIN" index --data-dir "$data" "$dir" >/dev/null 2>&1
      fi
      until found "$data" "$token" "$(basename "$file")"; do
        if [ "$(echo "$(now) - $start > 60" | bc)" = 1 ]; then echo "bench: $token not found after 60 s" >&2; exit 1; fi
      done
      echo "$(now) - $start" | bc >> "$work/$kind.$side"
    done
  done
  ours=$(median < "$work/$kind.ours"); peer=$(median < "$work/$kind.peer")
  printf '%-14s median of %2d: watcher %6.2f s   re-index after save %6.2f s   ratio (peer/ours) %.2f\n' \
    "$kind file" "$RUNS" "$ours" "$peer" "$(echo "$peer / $ours" | bc -l)"
done
