#!/usr/bin/env bash
# Mutation fuzzing of the untrusted-input parsers (HTML, CSV, text/Markdown, DOCX and EPUB
# with their XML and ZIP, citation labels, claims and quotes, reading order), for a fixed
# time per target, in release mode. Targets and seeds: crates/core/tests/fuzz.rs. Inputs that
# panic are saved under crates/core/tests/fuzz-regressions/<target>/ and replayed by every
# `cargo test` from then on: commit them with the fix.
#
# Environment: FUZZ_SECONDS per target (default 600), FUZZ_SEED (default fixed; change it to
# explore other inputs).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export FUZZ_SECONDS="${FUZZ_SECONDS:-600}"
started=$(date +%s)
cargo test --release -p pagewise-core --test fuzz -- --test-threads=1 --nocapture 2>&1 | grep -oE "fuzz [a-z-]+: .*|test result.*|panicked at.*|FAILED.*"
echo "fuzzing took $(( $(date +%s) - started )) s ($(awk "BEGIN{printf \"%.2f\", ($(date +%s) - $started)/3600}") h) for 7 targets at ${FUZZ_SECONDS} s each"
