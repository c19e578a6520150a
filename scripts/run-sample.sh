#!/usr/bin/env bash
# The main job on the bundled sample folder: set up, index assets/sample/, search it, then ask
# a question and get a checked answer with [Doc_p] citations from the default model.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
"$root/scripts/setup.sh"
export PAGEWISE_MODELS_DIR="$root/models"
data="${PAGEWISE_DATA_DIR:-$root/target/sample-data}"
cargo build --locked -p pagewise-cli
bin="${CARGO_TARGET_DIR:-$root/target}/debug/pagewise"
"$bin" index assets/sample --data-dir "$data"
query="${1:-Which town hosts the battery storage pilot?}"
echo
echo "search: $query"
"$bin" search "$query" --k 3 --data-dir "$data"
question="${2:-What was the total installed capacity of the Brightwater Solar Cooperative at the end of 2024?}"
echo
echo "ask: $question"
"$bin" ask "$question" --data-dir "$data"
