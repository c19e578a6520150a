#!/usr/bin/env bash
# A burst of FILES (default 10,000) new files written into a watched folder at once: time until
# the index equals the disk (pagewise status: every file indexed, nothing pending), the
# watcher's peak RSS, and zero missed or duplicated documents (pagewise verify, document and
# chunk counts). The peer is one batch `pagewise index` of the same files into an empty index:
# the ratio says what absorbing the burst through the watcher costs over a batch run.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
FILES="${FILES:-10000}"
work="$(mktemp -d)"
watch_pid=""
cleanup() { [ -n "$watch_pid" ] && kill -INT "$watch_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
mkdir -p "$work/watched" "$work/staged"
for i in $(seq 1 "$FILES"); do
  d="$work/staged/batch-$((i % 50))"
  mkdir -p "$d"
  printf '# Field note %d\n\nSite %d logged an inverter check on day %d: %d panels cleaned, %d kWh.\n' \
    "$i" "$i" "$((i % 28 + 1))" "$((i * 3))" "$((i * 17))" > "$d/note-$i.md"
done

# Ours: the watcher is running on an empty folder; the files arrive in one burst.
"$PAGEWISE_BIN" watch --data-dir "$work/data" "$work/watched" >"$work/watch.log" 2>&1 &
watch_pid=$!
until "$PAGEWISE_BIN" status --json --data-dir "$work/data" >/dev/null 2>&1; do sleep 0.2; done
start=$(date +%s.%N)
cp -r "$work/staged/." "$work/watched/"
copied=$(date +%s.%N)
while :; do
  s=$("$PAGEWISE_BIN" status --json --data-dir "$work/data" 2>/dev/null || echo '{}')
  if python3 -c 'import json,sys; s=json.loads(sys.argv[1]); f=s.get("folders",[{}])[0]; n=int(sys.argv[2]); sys.exit(0 if f.get("files")==n and f.get("indexed")==n and f.get("pending")==0 and s.get("pending_vectors")==0 else 1)' "$s" "$FILES"; then
    break
  fi
  sleep 0.5
done
ours=$(echo "$(date +%s.%N) - $start" | bc)
peak_kb=$(awk '/VmHWM/ {print $2}' "/proc/$watch_pid/status")
kill -INT "$watch_pid"; wait "$watch_pid" 2>/dev/null || true; watch_pid=""
verify=$("$PAGEWISE_BIN" verify --json --data-dir "$work/data" 2>/dev/null)
docs=$("$PAGEWISE_BIN" status --json --data-dir "$work/data" | python3 -c 'import json,sys; print(json.load(sys.stdin)["documents"])')

# Peer: one batch index of the same files.
/usr/bin/time -f "%e %M" -o "$work/peer.time" "$PAGEWISE_BIN" index --data-dir "$work/peer-data" "$work/staged" >/dev/null 2>&1
read -r peer peer_kb < "$work/peer.time"

printf 'burst of %d files (copied in %.1f s)\n' "$FILES" "$(echo "$copied - $start" | bc)"
printf '  watcher: index equals disk after %7.1f s, peak RSS %5d MB, documents %d, verify %s\n' "$ours" "$((peak_kb / 1024))" "$docs" "$verify"
printf "  batch index (peer): %7.1f s, peak RSS %5d MB\n" "$peer" "$((peer_kb / 1024))"
printf '  ratio (watcher time / batch time) %.2f\n' "$(echo "$ours / $peer" | bc -l)"
[ "$docs" = "$FILES" ] || { echo "bench: $docs documents for $FILES files" >&2; exit 1; }
