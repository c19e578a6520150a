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
# OpenBLAS: the embedding model's matrix products on the CPU.
if [ "$(uname)" = Linux ]; then
  dpkg -s libopenblas-dev >/dev/null 2>&1 || missing+=(libopenblas-dev)
fi
# The desktop app (Tauri v2 on WebKitGTK), its web UI (Node.js) and its end-to-end tests
# (WebKitWebDriver under Xvfb, xdotool and a GTK drag source for a real drag and drop).
if [ "$(uname)" = Linux ]; then
  for pkg in pkg-config file libwebkit2gtk-4.1-dev libxdo-dev libssl-dev libayatana-appindicator3-dev \
             librsvg2-dev libsoup-3.0-dev webkit2gtk-driver xvfb xauth xdotool imagemagick python3-gi gir1.2-gtk-3.0; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
fi
command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
# OCR of scanned pages (English and simplified Chinese); strace for the test that proves
# indexing, search and answers open no internet socket.
# gnome-keyring and D-Bus: the test that stores the server's API key in a real keyring.
for pkg in tesseract-ocr tesseract-ocr-eng tesseract-ocr-chi-sim strace gnome-keyring dbus; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: cargo not found. Install Rust (1.89 or newer) with rustup: https://rustup.rs" >&2
  exit 1
fi

# tauri-driver bridges WebDriver clients to WebKitWebDriver for the end-to-end tests.
if [ "$(uname)" = Linux ] && ! command -v tauri-driver >/dev/null 2>&1 && [ ! -x "$HOME/.cargo/bin/tauri-driver" ]; then
  echo "setup: installing tauri-driver (cargo install, about 2 minutes)"
  cargo install tauri-driver@2.1.0 --locked --quiet
fi

# The web UI's dependencies, exactly as locked.
if [ ! -d "$root/ui/node_modules" ] || [ "$root/ui/package-lock.json" -nt "$root/ui/node_modules/.package-lock.json" ]; then
  echo "setup: installing the web UI's npm packages"
  npm --prefix "$root/ui" ci --no-audit --no-fund --loglevel=error
fi

"$root/models/fetch.sh"
