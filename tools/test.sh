#!/usr/bin/env bash
# Runs the test suites. Expects tools/setup.sh test and tools/build.sh to
# have run (the top-level ./make.sh test does all three).
#   tools/test.sh                 every suite
#   tools/test.sh native js ...   only those: format native wasm sanitize fuzz js types browser consumers training
set -euo pipefail
cd "$(dirname "$0")/.."
suites=("$@")
[ ${#suites[@]} -eq 0 ] && suites=(format native wasm sanitize fuzz js types browser consumers training)

# clang-format, no C++ function over 80 lines (the declarative Embind
# block aside) nor JavaScript function in web/ (the module, the page and
# the widgets) or tools/, no JavaScript module or C++ file over 500 lines
# (tests and tools included),
# and no JavaScript comment opening another.
run_format() {
  tools/check/format.sh
  node tools/check/function-length.mjs cpp/include cpp/src/common cpp/src/kernels cpp/src/formats cpp/src/text \
    cpp/src/layout cpp/src/session cpp/src/training cpp/src/file_io bindings web tools cpp/bench tests/fuzz \
    tests/cpp/common tests/cpp/kernels tests/cpp/formats tests/cpp/text tests/cpp/layout tests/cpp/session tests/cpp/training \
    tests/cpp/robustness_test.cc tests/cpp/fuzz_replay_test.cc
  node tools/check/module-length.mjs web cpp bindings tests tools
  node tools/check/comments.mjs web tools tests bindings
}

run_native() {
  ctest --test-dir build/native --output-on-failure -j2
}

# The kernel tests compiled to WebAssembly and run under Node: the backend
# the page ships (wasm-simd128) and the portable one against the reference.
run_wasm() {
  tools/build.sh wasm-tests
  node build/wasm-tests/embeddings_kernel_tests.cjs
}

# The native tests under ASan and UBSan, in the fuzz targets' build (clang,
# the baseline x86-64): tools/build.sh sanitize.
run_sanitize() {
  tools/build.sh sanitize
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build/fuzz --output-on-failure -j2
}

# A short run of each fuzz target in every test run (the whole command's
# budget); longer runs with tools/fuzz.sh --seconds N or FUZZ_SECONDS.
run_fuzz() {
  tools/fuzz.sh --seconds "${FUZZ_SECONDS:-20}"
}

run_js() {
  # Two files at a time: most wait on a worker thread or the disk part of the time.
  node --test --test-reporter=spec --test-concurrency=2 tests/js/
}

run_types() {
  node node_modules/typescript/bin/tsc -p tests/types/tsconfig.json
  echo "index.d.ts: tsc --noEmit passed"
}

run_browser() {
  node --test --test-reporter=spec --test-concurrency=1 tests/browser/
}

# The package as an author's site gets it: npm pack's tarball installed
# offline into fresh apps built by Vite, webpack, esbuild, Rollup and Parcel
# (this repository's pinned dev dependencies), a page with an import map,
# Node and TypeScript, the pages loaded in Chromium (build/consumers/); and
# in the frameworks' apps: Next.js (built, started, loaded in Chromium),
# React with TypeScript, Vue, Svelte, Vitest (build/frameworks/).
run_consumers() {
  node --test --test-reporter=spec tests/consumers/
}

run_training() {
  node --test --test-reporter=spec tests/training/
}

times=()
for suite in "${suites[@]}"; do
  echo "=== $suite ==="
  started=$SECONDS
  case "$suite" in
    format|native|wasm|sanitize|fuzz|js|types|browser|consumers|training) "run_$suite" ;;
    *) echo "unknown suite: $suite (format native wasm sanitize fuzz js types browser consumers training)" >&2; exit 2 ;;
  esac
  times+=("$suite $((SECONDS - started)) s")
done
summary=$(printf '%s, ' "${times[@]}")
echo "All requested suites passed: ${suites[*]} (${summary%, })"
