#!/usr/bin/env bash
# The main job on the bundled sample folder: set up, build the desktop app and launch it with
# assets/sample/ indexed. Without a display (a server, CI), it runs the same job from the CLI —
# index, search, ask — and then starts the app under a virtual display for 40 seconds and saves
# a screenshot of it to target/sample-app.png.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
"$root/scripts/setup.sh"
export PAGEWISE_MODELS_DIR="$root/models"
export PAGEWISE_DATA_DIR="${PAGEWISE_DATA_DIR:-$root/target/sample-data}"
target="${CARGO_TARGET_DIR:-$root/target}"

npm --prefix ui run build --silent
cargo build --locked -p pagewise-app -p pagewise-cli
app="$target/debug/pagewise-app"

if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec "$app" "$root/assets/sample"
fi

bin="$target/debug/pagewise"
"$bin" index assets/sample
query="${1:-Which town hosts the battery storage pilot?}"
echo
echo "search: $query"
"$bin" search "$query" --k 3
question="${2:-What was the total installed capacity of the Brightwater Solar Cooperative at the end of 2024?}"
echo
echo "ask: $question"
"$bin" ask "$question"

echo
echo "No display: starting the app under Xvfb for 40 s; screenshot in target/sample-app.png"
export PAGEWISE_CONFIG_DIR="${PAGEWISE_CONFIG_DIR:-$root/target/sample-config}"
xvfb-run -a -s "-screen 0 1280x860x24" bash -c '
  "$0" "$1" & pid=$!
  sleep 40
  import -window root "$2" || true
  kill $pid
' "$app" "$root/assets/sample" "$target/sample-app.png"
echo "saved $target/sample-app.png"
