#!/usr/bin/env bash
# The two commands of the quick start:
#   ./make.sh serve   installs what is missing, builds, serves the chapter page
#   ./make.sh test    installs what is missing, builds, runs every test
set -euo pipefail
cd "$(dirname "$0")"
case "${1:-}" in
  serve)
    tools/setup.sh serve
    tools/build.sh wasm
    exec node tools/serve.mjs "${@:2}"
    ;;
  test)
    tools/setup.sh test
    tools/build.sh all
    exec tools/test.sh "${@:2}"
    ;;
  *)
    echo "usage: ./make.sh serve [--port N] | ./make.sh test [suite ...]" >&2
    exit 2
    ;;
esac
