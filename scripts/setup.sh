#!/usr/bin/env bash
# Installs what building and running Pagewise needs on a Debian/Ubuntu machine, then fetches
# the models and the PDFium library. Safe to run again: it skips what is already there.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# A C/C++ toolchain (usearch, SQLite and llama.cpp are compiled from source), cmake for
# llama.cpp, libclang for its bindings, unzip for the wheels, and pip to download them.
missing=()
command -v g++ >/dev/null 2>&1 && command -v make >/dev/null 2>&1 || missing+=(build-essential)
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
command -v clang >/dev/null 2>&1 || missing+=(clang)
ls /usr/lib/llvm-*/lib/libclang.so* /usr/lib/x86_64-linux-gnu/libclang*.so* >/dev/null 2>&1 || missing+=(libclang-dev)
command -v unzip >/dev/null 2>&1 || missing+=(unzip)
python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)
if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: cargo not found. Install Rust (1.88 or newer) with rustup: https://rustup.rs" >&2
  exit 1
fi

"$root/models/fetch.sh"
