#!/usr/bin/env bash
# Builds the Linux packages of the desktop app (.deb and .rpm) that work offline from the
# first start: they carry the PDFium library, the embedding model and one chat model under
# /usr/lib/Pagewise/models (where the app and the `pagewise` CLI look beside themselves),
# the sample folder under /usr/lib/Pagewise/sample, and the CLI as /usr/bin/pagewise.
# Prints the .deb's path as its last line.
#
# Usage: scripts/package.sh [--debug] [--bundles deb,rpm] [--chat-model FILE.gguf]
#   --debug        package the debug build (reuses what `cargo test` built; larger binaries)
#   --bundles      which packages (default deb,rpm)
#   --chat-model   the chat model to carry (default: the default model that models/fetch.sh
#                  installs, Qwen2.5-Coder-1.5B-Instruct Q4_K_M, 1.1 GB)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

profile=release
bundles=deb,rpm
chat_model="$root/models/llm/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
while (($#)); do
  case "$1" in
    --debug) profile=debug ;;
    --bundles) bundles="${2:?--bundles needs a list}"; shift ;;
    --chat-model) chat_model="$(realpath "${2:?--chat-model needs a file}")"; shift ;;
    *) echo "package: unknown argument $1 (see the top of $0)" >&2; exit 2 ;;
  esac
  shift
done

"$root/scripts/setup.sh" >&2
models="$root/models"
for need in "$models/pdfium/libpdfium.so" "$models/all-MiniLM-L6-v2/model.safetensors" "$chat_model"; do
  [ -f "$need" ] || { echo "package: $need is missing (models/fetch.sh fetches it)" >&2; exit 1; }
done
case "$chat_model" in
  *.gguf) ;;
  *) echo "package: $chat_model is not a .gguf file" >&2; exit 1 ;;
esac

target="${CARGO_TARGET_DIR:-$root/target}"
cargo_profile=()
tauri_profile=()
if [ "$profile" = release ]; then cargo_profile=(--release); else tauri_profile=(--debug); fi

# The CLI goes into the package beside the app.
# --workspace: the same features as the test build, so nothing is compiled twice.
cargo build --locked --workspace --bin pagewise "${cargo_profile[@]}" >&2

# Packaging-only settings, merged over tauri.conf.json by `tauri build --config`: the large
# files go in as the packages' own files, so ordinary builds never copy them.
lib=/usr/lib/Pagewise/models
embedder="$models/all-MiniLM-L6-v2"
conf="$target/pagewise-package.tauri.json"
mkdir -p "$target"
python3 - "$conf" "$lib" "$embedder" "$models/pdfium/libpdfium.so" "$chat_model" "$target/$profile/pagewise" <<'EOF'
import json, os, sys
conf, lib, embedder, pdfium, chat, cli = sys.argv[1:]
files = {f"{lib}/pdfium/libpdfium.so": pdfium, f"{lib}/llm/{os.path.basename(chat)}": chat, "/usr/bin/pagewise": cli}
# The embedding model's files one by one (hidden files and caches left out).
for dirpath, dirnames, filenames in os.walk(embedder):
    dirnames[:] = [d for d in dirnames if not d.startswith(".")]
    for name in filenames:
        if not name.startswith("."):
            path = os.path.join(dirpath, name)
            files[f"{lib}/all-MiniLM-L6-v2/{os.path.relpath(path, embedder)}"] = path
linux = {"deb": {"files": files}, "rpm": {"files": files}}
json.dump({"bundle": {"linux": linux}}, open(conf, "w"), indent=2)
EOF

echo "package: building the $profile packages ($bundles) with $(basename "$chat_model")" >&2
npx --prefix "$root/ui" tauri build "${tauri_profile[@]}" --ci --bundles "$bundles" --config "$conf" >&2

deb=$(ls -t "$target/$profile/bundle/deb/"*.deb 2>/dev/null | head -1 || true)
rpm=$(ls -t "$target/$profile/bundle/rpm/"*.rpm 2>/dev/null | head -1 || true)
for p in "$deb" "$rpm"; do
  [ -n "$p" ] && echo "package: $(basename "$p"): $(du -m "$p" | cut -f1) MB" >&2
done
if [[ ",$bundles," == *",deb,"* ]]; then
  [ -n "$deb" ] || { echo "package: no .deb was built" >&2; exit 1; }
  echo "$deb"
else
  echo "$rpm"
fi
