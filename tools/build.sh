#!/usr/bin/env bash
# Builds the native library, tests, benchmarks and tools (build/native) and
# the WebAssembly modules (build/wasm -> web/dist/embeddings.{js,wasm} and
# embeddings-full.{js,wasm}, the same with the Split pre-tokenizer and the
# NFC/NFD normalizers) and the chapter page's one-module bundle
# (web/dist/page.js).
#   tools/build.sh            both
#   tools/build.sh native     native only
#   tools/build.sh wasm       WebAssembly only, then the page's bundle
#   tools/build.sh page       the page's bundle only (after editing web/ sources)
#   tools/build.sh sanitize   native tests with ASan + UBSan (build/fuzz)
#   tools/build.sh fuzz T...  targets T of that build: the fuzz targets (tools/fuzz.sh)
#   tools/build.sh wasm-tests the kernel tests compiled to WebAssembly, for Node (build/wasm-tests)
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

build_native() {
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/native -j"$jobs"
}

# For the baseline x86-64 rather than -march=native: the native build tests
# the backends compiled for this CPU, this one those compiled by their
# target attributes alone, as a binary built elsewhere has them.
# The sanitizers' build (clang; ASan, UBSan, and libFuzzer's coverage in the
# library), for the baseline x86-64: the native tests and the fuzz targets
# (tools/fuzz.sh) share it, so the library is compiled once for both.
build_sanitizer_targets() {
  local dir=${FUZZ_BUILD_DIR:-build/fuzz}
  if ! command -v clang++ >/dev/null; then
    echo "tools/build.sh: the sanitizers' build needs clang++: apt-get install -y clang libclang-rt-14-dev" >&2
    exit 1
  fi
  cmake -S . -B "$dir" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEMBEDDINGS_FUZZ=ON \
    -DEMBEDDINGS_NATIVE_ARCH=OFF -DEMBEDDINGS_BENCHMARKS=OFF -DEMBEDDINGS_TOOLS=OFF >/dev/null
  cmake --build "$dir" -j"$jobs" --target "$@"
}

emscripten_env() {
  # Debian's emcc runs its JS optimizer with acorn from Debian's node
  # modules, which a newer node does not search by default.
  export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
  # The first link fills Emscripten's cache; use a private one where the
  # system cache is not writable.
  if [ -z "${EM_CACHE:-}" ] && [ ! -w /usr/share/emscripten/cache ] && [ ! -w /usr/share/emscripten ]; then
    export EM_CACHE="$PWD/.cache/emscripten"
  fi
}

build_wasm() {
  emscripten_env
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/wasm -j"$jobs"
  ls -l web/dist/embeddings.wasm | awk '{print "web/dist/embeddings.wasm: " $5 " bytes (the module the chapter loads first: at most 150 KB)"}'
  ls -l web/dist/embeddings-full.wasm | awk '{print "web/dist/embeddings-full.wasm: " $5 " bytes (fetched for a tokenizer with a Sequence or Split pre-tokenizer or an NFC or NFD normalizer)"}'
  ls -l web/dist/layout.wasm | awk '{print "web/dist/layout.wasm: " $5 " bytes (the vocabulary map, loaded by model.map only)"}'
  build_page
}

# The page, its widgets, the package and Emscripten's glue in one minified
# module (esbuild, a dev dependency), so the browser fetches one script
# rather than a waterfall of imports. It includes web/dist/embeddings.js.
build_page() {
  node tools/page/bundle.mjs
}

build_wasm_tests() {
  emscripten_env
  emcmake cmake -S . -B build/wasm-tests -DCMAKE_BUILD_TYPE=Release -DEMBEDDINGS_WASM_KERNEL_TESTS=ON >/dev/null
  cmake --build build/wasm-tests -j"$jobs" --target embeddings_kernel_tests
}

case "$what" in
  all) build_native; build_wasm ;;
  native) build_native ;;
  wasm) build_wasm ;;
  page) build_page ;;
  sanitize) build_sanitizer_targets embeddings_tests ;;
  fuzz) build_sanitizer_targets "${@:2}" ;;
  wasm-tests) build_wasm_tests ;;
  *) echo "usage: tools/build.sh [all|native|wasm|page|sanitize|wasm-tests] | tools/build.sh fuzz TARGET..." >&2; exit 2 ;;
esac
