#!/usr/bin/env bash
# Sets up a fresh machine and runs every test (the command README.md names and CI runs): the
# web UI's unit tests, the workspace's Rust tests (real SQLite, Tantivy and usearch files, real
# PDFs through PDFium, the real embedding and chat models, the app's commands through Tauri's
# IPC), then the end-to-end suite in the real built app under Xvfb.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
"$root/scripts/setup.sh"
export PAGEWISE_MODELS_DIR="$root/models"

npm --prefix ui test --silent
# The app embeds the built UI at compile time.
npm --prefix ui run build --silent
cargo test --workspace --locked "$@"

# `cargo test` built the app binary too; drive it end to end.
target="${CARGO_TARGET_DIR:-$root/target}"
e2e/run.sh "$target/debug/pagewise-app"
