#!/usr/bin/env bash
# Sets up a fresh machine and runs every test (the command README.md names and CI runs): the
# web UI's unit tests, the workspace's Rust tests (real SQLite, Tantivy and usearch files, real
# PDFs through PDFium, the real embedding and chat models, the app's commands through Tauri's
# IPC), then the end-to-end suite in the real built app under Xvfb.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
"$root/scripts/setup.sh"
# llama.cpp's own OpenAI-compatible server, for the endpoint tests (built once, ~6 minutes).
"$root/models/llama-server.sh"
export PAGEWISE_MODELS_DIR="$root/models"

# Every suite runs even when an earlier one fails, so one failure never hides the others;
# the script still exits non-zero if any of them failed.
failed=()
npm --prefix ui test --silent || failed+=("ui unit tests")
# The app embeds the built UI at compile time.
npm --prefix ui run build --silent
cargo test --workspace --locked --no-fail-fast "$@" || failed+=("cargo test")
# Once more with a real Secret Service: the API key must go to the keyring, not a file.
PAGEWISE_EXPECT_KEYRING=1 dbus-run-session -- e2e/with-keyring.sh \
  cargo test --workspace --locked --test endpoint_switch || failed+=("API key in the keyring")

# `cargo test` built the app binary too; drive it end to end.
target="${CARGO_TARGET_DIR:-$root/target}"
if [ -x "$target/debug/pagewise-app" ]; then
  e2e/run.sh "$target/debug/pagewise-app" || failed+=("end-to-end suite")
else
  failed+=("end-to-end suite (the app binary was not built)")
fi
# The .deb as a user installs it: built (debug profile, reusing the build above), unpacked
# into a fresh root and run from there with an empty HOME and no network.
e2e/package.sh --debug --bundles deb || failed+=("package test")

if ((${#failed[@]})); then
  printf 'test.sh: FAILED: %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "test.sh: all suites passed"
