#!/usr/bin/env bash
# Checks (or with --fix, applies) the repository's .clang-format on every C++
# source: cpp/, bindings/, tests/ and tools/. clang-format 14 is the version
# the style was set with; other versions format some constructs differently.
#   tools/check/format.sh          lists the files that deviate, fails if any
#   tools/check/format.sh --fix    reformats them in place
set -euo pipefail
cd "$(dirname "$0")/../.."
format=$(command -v clang-format-14 || command -v clang-format || true)
if [ -z "$format" ]; then
  echo "clang-format is missing: apt-get install -y clang-format (tools/setup.sh test installs it)" >&2
  exit 1
fi
if ! "$format" --version | grep -q 'version 14\.'; then
  echo "warning: $("$format" --version) is not clang-format 14; results may differ" >&2
fi
mapfile -t files < <(git ls-files -co --exclude-standard -- 'cpp/*' 'bindings/*' 'tests/*' 'tools/*' |
  grep -E '\.(cpp|cc|h|hpp)$' || true)
if [ "${1:-}" = "--fix" ]; then
  "$format" -i "${files[@]}"
  echo "formatted ${#files[@]} files"
  exit 0
fi
deviating=()
for file in "${files[@]}"; do
  [ -f "$file" ] || continue
  if ! "$format" --dry-run --Werror "$file" >/dev/null 2>&1; then deviating+=("$file"); fi
done
if [ ${#deviating[@]} -gt 0 ]; then
  echo "not formatted with .clang-format (run tools/check/format.sh --fix):" >&2
  printf '  %s\n' "${deviating[@]}" >&2
  exit 1
fi
echo "clang-format: ${#files[@]} C++ files formatted as .clang-format says"
