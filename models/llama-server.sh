#!/usr/bin/env bash
# Builds llama.cpp's own OpenAI-compatible server, llama-server, into models/bin/, for the
# tests and benchmarks of Pagewise's endpoint support. The llama.cpp sources come from the
# llama-cpp-python source package on PyPI (pinned by sha256), which carries all of llama.cpp;
# only the llama-server target is built (about 6 minutes on 2 cores). Needs cmake and a C++
# compiler (scripts/setup.sh installs them). Idempotent.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$here/bin/llama-server"
if [[ -x "$out" ]] && "$out" --version >/dev/null 2>&1; then
  echo "llama-server: present at $out"
  exit 0
fi

version=0.3.16
sha256=34ed0f9bd9431af045bb63d9324ae620ad0536653740e9bb163a2e1fcb973be6
cache="$here/.cache/sdist"
archive="$cache/llama_cpp_python-$version.tar.gz"
mkdir -p "$cache"
if ! echo "$sha256  $archive" | sha256sum --quiet -c - >/dev/null 2>&1; then
  python3 -m pip download --quiet --no-deps --no-binary=:all: "llama-cpp-python==$version" -d "$cache"
  echo "$sha256  $archive" | sha256sum --quiet -c -
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tar xzf "$archive" -C "$work" "llama_cpp_python-$version/vendor/llama.cpp"
src="$work/llama_cpp_python-$version/vendor/llama.cpp"
log="$work/build.log"
echo "llama-server: building from llama.cpp in llama-cpp-python $version (a few minutes)"
if ! { cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF -DLLAMA_CURL=OFF \
         -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=ON &&
       cmake --build "$work/build" --target llama-server -j "$(nproc)"; } >"$log" 2>&1; then
  tail -40 "$log" >&2
  echo "llama-server: the build failed (needs cmake and a C++ compiler)" >&2
  exit 1
fi
mkdir -p "$here/bin"
cp "$work/build/bin/llama-server" "$out"
echo "llama-server: built $out"
