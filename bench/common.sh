# Shared setup for the benchmarks in bench/: paths, the pagewise binary, Debian packages and
# the Python venv. Sourced by the bench/*.sh scripts; not meant to be run on its own.
#
# Environment (all optional):
#   PAGEWISE_BIN         the binary to measure (default target/release/pagewise, else target/debug/pagewise)
#   PAGEWISE_DEV_BIN     its evaluations and benchmarks (default pagewise-dev beside PAGEWISE_BIN)
#   DATA                 the shared data folder (default ../shared/data relative to the repo root)
#   PAGEWISE_MODELS_DIR  models folder (default models/ in the repo)
#   BENCH_OUT            where results go (default bench/out)
#   BENCH_VENV           the Python venv for Python peers (default bench/.venv)

bench_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

DATA="${DATA:-$bench_root/../shared/data}"
DATA="$(cd "$DATA" 2>/dev/null && pwd || echo "$DATA")"
export PAGEWISE_MODELS_DIR="${PAGEWISE_MODELS_DIR:-$bench_root/models}"
BENCH_OUT="${BENCH_OUT:-$bench_root/bench/out}"
BENCH_VENV="${BENCH_VENV:-$bench_root/bench/.venv}"
mkdir -p "$BENCH_OUT"

if [ -z "${PAGEWISE_BIN:-}" ]; then
  if [ -x "$bench_root/target/release/pagewise" ]; then
    PAGEWISE_BIN="$bench_root/target/release/pagewise"
  else
    PAGEWISE_BIN="$bench_root/target/debug/pagewise"
  fi
fi
if [ ! -x "$PAGEWISE_BIN" ]; then
  echo "bench: no pagewise binary at $PAGEWISE_BIN (build it with 'cargo build --release -p pagewise-cli' or set PAGEWISE_BIN)" >&2
  exit 1
fi
PAGEWISE_DEV_BIN="${PAGEWISE_DEV_BIN:-$(dirname "$PAGEWISE_BIN")/pagewise-dev}"
if [ ! -x "$PAGEWISE_DEV_BIN" ]; then
  echo "bench: no pagewise-dev binary at $PAGEWISE_DEV_BIN (it is built with pagewise: 'cargo build --release -p pagewise-cli', or set PAGEWISE_DEV_BIN)" >&2
  exit 1
fi
case "$PAGEWISE_BIN" in
  */debug/*) echo "bench: note: measuring a debug build ($PAGEWISE_BIN); release numbers may differ" >&2 ;;
esac

# apt_need CMD PACKAGE...: installs the Debian packages when CMD is not on PATH.
apt_need() {
  local cmd="$1"; shift
  command -v "$cmd" >/dev/null 2>&1 && return 0
  echo "bench: installing Debian packages: $*" >&2
  local sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "$@" >/dev/null
}

# ensure_venv REQUIREMENTS_FILE: creates $BENCH_VENV and installs the requirements once
# (again only when the requirements file changes). Sets PY to the venv's python.
ensure_venv() {
  local req="$1"
  apt_need python3 python3
  if [ ! -x "$BENCH_VENV/bin/python" ]; then
    if ! python3 -m venv "$BENCH_VENV" 2>/dev/null; then
      rm -rf "$BENCH_VENV"
      local pyver
      pyver="$(python3 -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
      local sudo_cmd=""
      [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
      $sudo_cmd apt-get update -qq
      DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "python$pyver-venv" python3-venv >/dev/null
      python3 -m venv "$BENCH_VENV"
    fi
  fi
  PY="$BENCH_VENV/bin/python"
  local stamp="$BENCH_VENV/.bench-requirements.sha256"
  local want
  want="$(sha256sum "$req" | cut -d' ' -f1)"
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "bench: installing Python packages from $req into $BENCH_VENV (first run only; torch is large)" >&2
    "$PY" -m pip install -q --upgrade pip >/dev/null
    "$PY" -m pip install -q -r "$req"
    echo "$want" > "$stamp"
  fi
}
