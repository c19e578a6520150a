#!/usr/bin/env bash
# Sets up a fresh machine and runs every test of the workspace (the command README.md names
# and CI runs). Tests use real SQLite, Tantivy and usearch files, real PDFs through PDFium
# and the real embedding model.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
"$root/scripts/setup.sh"
export PAGEWISE_MODELS_DIR="$root/models"
cargo test --workspace --locked "$@"
