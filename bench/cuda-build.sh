#!/usr/bin/env bash
# Builds the `pagewise` CLI with `--features cuda` (candle's CUDA kernels for embedding,
# llama.cpp's for generation) on a machine without a system CUDA: NVIDIA's CUDA toolkit comes
# from its PyPI wheels (nvcc, the runtime, cuBLAS, the C runtime headers, NVVM and CCCL),
# unpacked into one CUDA_HOME-shaped folder. No GPU is needed to build. The result runs on a
# machine with an NVIDIA driver for this CUDA version or newer; without a GPU it falls back to
# the CPU and says so.
#
# Environment (all optional):
#   CUDA_VERSION       major.minor of the toolkit (default 13.0; match the GPU machine's driver)
#   CUDA_COMPUTE_CAP   GPU architecture to compile for (default 90: H100/H200; 89 Ada, 86 Ampere)
#   CUDA_TOOLKIT_DIR   where the toolkit is unpacked (default target/cuda-toolkit-VERSION)
#   CUDA_TARGET_DIR    cargo's target dir for this build (default target/cuda), kept apart from
#                      the CPU builds so neither rebuilds the other
# Prints the launcher's path (pagewise-gpu, beside the binary) as its last line.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cuda_version="${CUDA_VERSION:-13.0}"
major="${cuda_version%%.*}"
arch="${CUDA_COMPUTE_CAP:-90}"
toolkit="${CUDA_TOOLKIT_DIR:-$root/target/cuda-toolkit-$cuda_version}"
home="$toolkit/nvidia/cu$major"

wheels="$toolkit/wheels"
mkdir -p "$wheels"
minor="${cuda_version#*.}"
# cuRAND has its own numbering: CUDA 13.N ships cuRAND 10.4.N. candle links it and NVRTC.
for spec in nvidia-cuda-nvcc=="$cuda_version.*" nvidia-cuda-runtime=="$cuda_version.*" nvidia-cublas=="$cuda_version.*" \
            nvidia-cuda-crt=="$cuda_version.*" nvidia-nvvm=="$cuda_version.*" nvidia-cuda-cccl=="$cuda_version.*" \
            nvidia-cuda-nvrtc=="$cuda_version.*" nvidia-curand=="${CURAND_VERSION:-10.4.$minor}.*"; do
  name="${spec%%==*}"
  if ! ls "$wheels/${name//-/_}"-*.whl >/dev/null 2>&1; then
    echo "cuda-build: fetching $spec from PyPI into $wheels" >&2
    python3 -m pip download --quiet --no-deps --only-binary=:all: \
      --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux2014_x86_64 \
      --platform manylinux2010_x86_64 --python-version 3.11 "$spec" -d "$wheels"
    for w in "$wheels/${name//-/_}"-*.whl; do unzip -q -o "$w" 'nvidia/*' -d "$toolkit"; done
  fi
done
[ -x "$home/bin/nvcc" ] || { echo "cuda-build: no nvcc in $home/bin after unpacking" >&2; exit 1; }
chmod +x "$home"/bin/* "$home"/nvvm/bin/* 2>/dev/null || true

# The wheels carry versioned libraries only (libcudart.so.13); linkers look for libcudart.so.
for lib in "$home"/lib/lib*.so.*; do
  base="${lib%%.so.*}.so"
  [ -e "$base" ] || ln -s "$(basename "$lib")" "$base"
done
[ -e "$home/lib64" ] || ln -s lib "$home/lib64"

# The driver (libcuda) comes with the GPU's driver, not with the toolkit, and the wheels carry
# no link stub for it. One is made from the toolkit's cuda.h: every driver function as an
# empty symbol, named libcuda.so.1 so that the program loads the real driver at run time.
# It sits in lib/stubs, where CMake and cudarc look at build time and nothing looks at run time.
stubs="$home/lib/stubs"
if [ ! -e "$stubs/libcuda.so" ]; then
  mkdir -p "$stubs"
  gcc -E -P -I"$home/include" "$home/include/cuda.h" | tr '\n' ' ' \
    | grep -oP '\bCUresult\s+\Kcu\w+(?=\s*\()' | sort -u | sed 's/.*/void &(void) {}/' > "$stubs/libcuda-stub.c"
  gcc -shared -fPIC -o "$stubs/libcuda.so" "$stubs/libcuda-stub.c" -Wl,-soname,libcuda.so.1
fi

export CUDA_HOME="$home" CUDA_PATH="$home" CUDA_ROOT="$home" CUDAToolkit_ROOT="$home" CUDACXX="$home/bin/nvcc"
export PATH="$home/bin:$PATH"
# CCCL (libcu++, Thrust, CUB) sits in include/cccl in the wheels, not in include/.
export CPATH="$home/include/cccl:$home/include${CPATH:+:$CPATH}"
export NVCC_APPEND_FLAGS="-I$home/include/cccl${NVCC_APPEND_FLAGS:+ $NVCC_APPEND_FLAGS}"
export LIBRARY_PATH="$home/lib${LIBRARY_PATH:+:$LIBRARY_PATH}"
export LD_LIBRARY_PATH="$home/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# candle's kernels (bindgen_cuda) and llama.cpp's (CMake) for this one architecture only.
export CUDA_COMPUTE_CAP="$arch" CMAKE_CUDA_ARCHITECTURES="$arch"
export CARGO_TARGET_DIR="${CUDA_TARGET_DIR:-$root/target/cuda}"
# llama.cpp as shared libraries: linked statically it asks for cuBLAS's static archives, which
# NVIDIA's wheels do not carry. They land beside the binary (libllama.so, libggml*.so).
export LLAMA_BUILD_SHARED_LIBS=1

echo "cuda-build: $("$home/bin/nvcc" --version | tail -1), sm_$arch, target $CARGO_TARGET_DIR" >&2
cargo build --release --locked -p pagewise-cli --features cuda >&2
bin="$CARGO_TARGET_DIR/release/pagewise"
bin_dir="$(dirname "$bin")"
# The binary asks for llama.cpp's libraries by soname (libllama.so.0, libggml-base.so.0);
# cargo copies only the unversioned names beside it. The versioned files and their links come
# from the newest llama.cpp build folder.
llama_lib="$(ls -dt "$CARGO_TARGET_DIR"/release/build/llama-cpp-sys-2-*/out/lib 2>/dev/null | head -1)"
[ -n "$llama_lib" ] || { echo "cuda-build: no llama.cpp build folder under $CARGO_TARGET_DIR/release/build" >&2; exit 1; }
cp -P "$llama_lib"/lib*.so* "$bin_dir"/
# The binary links the driver (libcuda.so.1), so without an NVIDIA driver it cannot start at
# all. The launcher runs it where a driver is installed, and otherwise runs the CPU build
# (PAGEWISE_CPU_BIN, or `pagewise` on PATH) after saying why.
launcher="$bin_dir/pagewise-gpu"
cat > "$launcher" <<LAUNCHER
#!/usr/bin/env bash
# Runs the CUDA build of pagewise where an NVIDIA driver is installed, else the CPU build.
set -euo pipefail
here="\$(cd "\$(dirname "\${BASH_SOURCE[0]}")" && pwd)"
toolkit_lib="\${PAGEWISE_CUDA_LIB:-$home/lib}"
export LD_LIBRARY_PATH="\$here:\$toolkit_lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
driver_found() {
  /sbin/ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 ' && return 0
  local dir
  for dir in \${LD_LIBRARY_PATH//:/ }; do [ -e "\$dir/libcuda.so.1" ] && return 0; done
  return 1
}
if driver_found; then
  exec "\$here/pagewise" "\$@"
fi
cpu="\${PAGEWISE_CPU_BIN:-\$(command -v pagewise || true)}"
if [ -z "\$cpu" ] || [ ! -x "\$cpu" ]; then
  echo "pagewise-gpu: no NVIDIA driver here (libcuda.so.1 not found), and no CPU build to run instead: set PAGEWISE_CPU_BIN or put pagewise on PATH" >&2
  exit 127
fi
echo "pagewise-gpu: no NVIDIA driver here (libcuda.so.1 not found); running the CPU build \$cpu" >&2
exec "\$cpu" "\$@"
LAUNCHER
chmod +x "$launcher"
echo "cuda-build: built $(du -m "$bin" | cut -f1) MB, llama.cpp's libraries beside it. Run it through $launcher (it finds llama.cpp's libraries, the CUDA runtime, cuBLAS, cuRAND and NVRTC; the driver's libcuda.so.1 comes from the machine, and without one it runs the CPU build)" >&2
echo "$launcher"
