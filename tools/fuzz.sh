#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/*_fuzz.cc, clang, build/fuzz) and
# runs each one for a while, failing if any input crashes it.
#   tools/fuzz.sh                          every target, 60 s each
#   tools/fuzz.sh --seconds 600 safetensors tokenizer_json
#   tools/fuzz.sh --build-only
# Each run starts from a temporary copy of tests/fuzz/corpus/<target>/ (the
# repository is never written to), with tests/fuzz/dict/<target>.dict, and
# first replays tests/fuzz/regressions/<target>/. Inputs that crash are kept
# under build/fuzz/findings/<target>/ (FUZZ_BUILD_DIR); copy them into
# tests/fuzz/regressions/<target>/ once fixed, so the tests replay them.
# Environment: FUZZ_BUILD_DIR (default build/fuzz), FUZZ_JOBS (build jobs), FUZZ_PARALLEL (targets
# run at once, default the cores'), FUZZ_RSS_MB (default 2048),
# FUZZ_TIMEOUT (seconds per input, default 10), FUZZ_KEEP_CORPUS=DIR (copy
# each grown corpus there, e.g. to study coverage).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
build_only=0
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --seconds=*) seconds="${1#*=}"; shift ;;
    --build-only) build_only=1; shift ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("${1%_fuzz}"); shift ;;
  esac
done
if [ ${#targets[@]} -eq 0 ]; then
  for source in tests/fuzz/*_fuzz.cc; do
    name=$(basename "$source" .cc)
    targets+=("${name%_fuzz}")
  done
fi
for target in "${targets[@]}"; do
  if [ ! -f "tests/fuzz/${target}_fuzz.cc" ]; then
    echo "fuzz.sh: no target '$target' (tests/fuzz/${target}_fuzz.cc)" >&2
    exit 2
  fi
done

# ---- What the build needs, said precisely -----------------------------------
missing=()
command -v cmake >/dev/null || missing+=("cmake: apt-get install -y cmake")
if ! command -v clang++ >/dev/null; then
  missing+=("clang++: apt-get install -y clang")
else
  probe=$(mktemp -d)
  printf '%s\n' '#include <cstddef>' '#include <cstdint>' \
    'extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }' >"$probe/probe.cc"
  if ! clang++ -fsanitize=fuzzer,address,undefined "$probe/probe.cc" -o "$probe/probe" 2>"$probe/log"; then
    version=$(clang++ -dumpversion | cut -d. -f1)
    missing+=("libFuzzer / sanitizer runtimes for clang $version: apt-get install -y libclang-rt-$version-dev ($(head -c 300 "$probe/log" | tr '\n' ' '))")
  fi
  rm -rf "$probe"
fi
[ -f /usr/include/gtest/gtest.h ] || [ -f /usr/local/include/gtest/gtest.h ] ||
  missing+=("GoogleTest (the fuzz build also builds the replay test): apt-get install -y libgtest-dev")
if [ ${#missing[@]} -gt 0 ]; then
  echo "fuzz.sh: cannot build the fuzz targets; missing:" >&2
  printf '  - %s\n' "${missing[@]}" >&2
  exit 1
fi

build=${FUZZ_BUILD_DIR:-build/fuzz}
# The sanitizers' build, which the native tests under ASan and UBSan share.
FUZZ_BUILD_DIR="$build" JOBS="${FUZZ_JOBS:-${JOBS:-}}" tools/build.sh fuzz "${targets[@]/%/_fuzz}"
[ "$build_only" = 1 ] && exit 0

# ---- Runs -----------------------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/embeddings-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# One target: its regressions replayed, then fuzzed. Prints what it found;
# its summary line goes to $work/<target>.line, and it fails on a finding.
fuzz_target() {
  local target=$1
  local binary="$build/${target}_fuzz" corpus="$work/$target" findings="$build/findings/$target"
  mkdir -p "$corpus" "$findings"
  [ -d "tests/fuzz/corpus/$target" ] && cp -R "tests/fuzz/corpus/$target/." "$corpus/"
  local flags=(-timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb="${FUZZ_RSS_MB:-2048}" -artifact_prefix="$findings/")
  [ -f "tests/fuzz/dict/$target.dict" ] && flags+=(-dict="tests/fuzz/dict/$target.dict")
  [ "$target" = tokenizer_json ] && flags+=(-max_len=16384)

  local regressions=()
  if [ -d "tests/fuzz/regressions/$target" ]; then
    while IFS= read -r -d '' file; do regressions+=("$file"); done \
      < <(find "tests/fuzz/regressions/$target" -type f -print0 | sort -z)
  fi
  if [ ${#regressions[@]} -gt 0 ]; then
    echo "=== $target: replaying ${#regressions[@]} regression inputs"
    if ! "$binary" "${flags[@]}" "${regressions[@]}" >"$work/$target.replay.log" 2>&1; then
      tail -40 "$work/$target.replay.log"
      echo "$target: a regression input fails again" >"$work/$target.line"
      return 1
    fi
  fi

  echo "=== $target: fuzzing for ${seconds}s"
  local log="$work/$target.log" status=0
  "$binary" "${flags[@]}" -max_total_time="$seconds" -print_final_stats=1 "$corpus" >"$log" 2>&1 || status=$?
  local execs last cov features entries line
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  features=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  entries=$(find "$corpus" -type f | wc -l)
  line="$target: ${execs:-?} executions in ${seconds}s, coverage ${cov:-?} edges, ${features:-?} features, corpus ${entries} inputs"
  if [ "$status" -ne 0 ]; then
    tail -60 "$log"
    line="$line, FAILED (exit $status; inputs kept in $findings/)"
  fi
  echo "$line" >"$work/$target.line"
  if [ -n "${FUZZ_KEEP_CORPUS:-}" ]; then
    mkdir -p "$FUZZ_KEEP_CORPUS/$target"
    cp -R "$corpus/." "$FUZZ_KEEP_CORPUS/$target/"
  fi
  return "$status"
}

# The targets run side by side, one per core (FUZZ_PARALLEL, default the
# cores'), each for its own $seconds on a core of its own: on 2 cores the
# test command's 5 × 20 s take 60 s, not 100. Each one's output is printed
# whole, in the targets' order, once all are done.
parallel=${FUZZ_PARALLEL:-$(nproc 2>/dev/null || echo 1)}
[ "$parallel" -ge 1 ] 2>/dev/null || parallel=1
declare -A pid_of=()
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
  fuzz_target "$target" >"$work/$target.out" 2>&1 &
  pid_of[$target]=$!
done
failed=()
summary=()
for target in "${targets[@]}"; do
  status=0
  wait "${pid_of[$target]}" || status=$?
  cat "$work/$target.out"
  line=$(cat "$work/$target.line" 2>/dev/null || echo "$target: stopped before it said anything (exit $status)")
  echo "$line"
  summary+=("$line")
  [ "$status" -ne 0 ] && failed+=("$target")
done

echo "=== fuzz summary"
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz.sh: findings in: ${failed[*]}" >&2
  exit 1
fi
