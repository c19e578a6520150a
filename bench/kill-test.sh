#!/usr/bin/env bash
# The crash-consistency test with many kills: SIGKILL the indexer at KILLS random moments
# (default 50) while it indexes a mixed folder, check after each that SQLite, Tantivy and
# usearch agree, then check that a final run completes and matches a clean index.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PAGEWISE_MODELS_DIR="${PAGEWISE_MODELS_DIR:-$PWD/models}"
PAGEWISE_KILLS="${KILLS:-50}" cargo test --locked -p pagewise-cli --test kill sigkill -- --nocapture
