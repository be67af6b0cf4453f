#!/usr/bin/env bash
# Installs what the project needs on Debian 12: Debian packages through
# apt-get (as root), npm packages through npm. Says exactly what is missing
# where it cannot install it.
#   tools/setup.sh serve   build and serve the page
#   tools/setup.sh test    everything the test suite needs
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-test}

packages_serve=(cmake g++ make emscripten nodejs npm)
packages_test=("${packages_serve[@]}" libgtest-dev googletest libbenchmark-dev clang clang-format-14 libclang-rt-14-dev chromium
  python3 python3-torch libopenblas0-pthread libtcmalloc-minimal4 fonts-dejavu-core poppler-utils)
case "$mode" in
  serve) wanted=("${packages_serve[@]}") ;;
  test) wanted=("${packages_test[@]}") ;;
  *) echo "usage: tools/setup.sh [serve|test]" >&2; exit 2 ;;
esac

missing=()
for package in "${wanted[@]}"; do
  case "$package" in
    # A newer Node.js from elsewhere is as good as Debian's.
    nodejs) command -v node >/dev/null 2>&1 && continue ;;
    npm) command -v npm >/dev/null 2>&1 && continue ;;
  esac
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    apt-get install -y -q "${missing[@]}"
  else
    echo "Missing Debian packages: ${missing[*]}" >&2
    echo "Install them as root with: apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then
  echo "Node.js $(node --version) is too old: the tests and the tools need Node.js 20 or newer" >&2
  echo "(for String.prototype.isWellFormed, node --test --test-concurrency and Symbol.dispose)." >&2
  echo "Debian 12's own nodejs package is 18; install Node.js 20 and run this again." >&2
  exit 1
fi

# npm packages: the test tools (playwright-core drives Debian's chromium,
# the tokenizer oracles, TypeScript for the typings). Skipped when
# node_modules is newer than the lock file.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "Installing npm packages (npm ci)"
  npm ci --no-audit --no-fund
fi
