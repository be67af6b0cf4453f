#!/usr/bin/env bash
# Builds the package's default model from the TinyStories text, start to end:
# the C++ tools (CMake), the tokenizer, the encoded corpus, the PyTorch
# training run and the export (model.safetensors, config.json, tokenizer.json,
# snapshots/, training-curve.json, claims.json), with the chapter's tokens given
# the chapter's ids (tools/training/renumber.py).
#
#   tools/training/train-default-model.sh [--out DIR] [--work DIR] [--smoke] CORPUS.txt [MORE.txt ...]
#
#   CORPUS.txt   TinyStories text, stories separated by <|endoftext|> lines
#                (the shipped model: tinystories.txt tinystories-recased.txt)
#   --out DIR    where the model goes (default: model/ at the repository root;
#                with --smoke a fresh temporary folder)
#   --work DIR   where tokenizer.json, train.bin and val.bin go
#                (default: build/default-model, or a temporary folder with --smoke)
#   --smoke      a check that the tools still work, in seconds: the first
#                ~200 KB of the first corpus file, a 512-token vocabulary, 20
#                small steps. Its model is meaningless.
#   --build DIR  the CMake build folder (default: build/native, as tools/build.sh)
#   --threads N  PyTorch threads (default 1: on a shared 2-core machine two
#                threads collapse to a fifth of the speed whenever another job
#                holds a core; use 2 on an otherwise idle machine)
#   --steps N    training steps (default 6000, the shipped model)
#
# Training uses the fast environment of docs/training-cpu.md (tcmalloc, one
# OpenBLAS thread, OPENBLAS_CORETYPE/OPENBLAS_L2_SIZE unset for the training
# command only). The full run takes about 30-40 minutes on 2 cores.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
out=
work=
build=build/native
smoke=0
threads=1
steps=6000
corpus=()

usage() { sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "train-default-model: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
  case "$1" in
    --out) [ $# -ge 2 ] || die "--out needs a folder"; out=$2; shift 2 ;;
    --work) [ $# -ge 2 ] || die "--work needs a folder"; work=$2; shift 2 ;;
    --build) [ $# -ge 2 ] || die "--build needs a folder"; build=$2; shift 2 ;;
    --smoke) smoke=1; shift ;;
    --threads) [ $# -ge 2 ] || die "--threads needs a number"; threads=$2; shift 2 ;;
    --steps) [ $# -ge 2 ] || die "--steps needs a number"; steps=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    --) shift; corpus+=("$@"); break ;;
    -*) usage >&2; die "unknown option $1" ;;
    *) corpus+=("$1"); shift ;;
  esac
done

if [ ${#corpus[@]} -eq 0 ]; then
  usage >&2
  die "no corpus given: pass the TinyStories text file(s), e.g. .../tinystories/tinystories.txt"
fi
for f in "${corpus[@]}"; do
  [ -f "$f" ] || die "corpus file not found: $f"
done

# --- Prerequisites, each named by the Debian package that provides it ---------
apt_hint="apt-get install -y python3-torch libopenblas0-pthread libtcmalloc-minimal4"
need_package() {  # need_package PACKAGE WHAT
  die "$2 is missing: install the Debian package $1 (apt-get install -y $1)"
}
command -v cmake >/dev/null 2>&1 || need_package cmake "cmake"
command -v c++ >/dev/null 2>&1 || command -v g++ >/dev/null 2>&1 || need_package g++ "a C++ compiler"
python=/usr/bin/python3
[ -x "$python" ] || die "/usr/bin/python3 is missing: install Debian's python3 and python3-torch ($apt_hint python3)"
if ! "$python" -c 'import torch' >/dev/null 2>&1; then
  die "python3-torch is not installed: $apt_hint"
fi
"$python" -c 'import numpy' >/dev/null 2>&1 || die "python3-numpy is not installed: apt-get install -y python3-numpy"

libdir=/usr/lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
tcmalloc=$libdir/libtcmalloc_minimal.so.4
if ! ls "$libdir"/openblas-pthread/libblas.so.3 >/dev/null 2>&1; then
  echo "train-default-model: warning: libopenblas0-pthread is not installed; torch falls back to the" \
    "reference BLAS, about 5x slower ($apt_hint)" >&2
fi
preload=()
if [ -f "$tcmalloc" ]; then
  preload=(LD_PRELOAD="$tcmalloc${LD_PRELOAD:+:$LD_PRELOAD}")
else
  echo "train-default-model: warning: libtcmalloc-minimal4 is not installed; training runs about 5x" \
    "slower ($apt_hint)" >&2
fi

# --- Folders -----------------------------------------------------------------
cleanup=()
trap 'for d in "${cleanup[@]}"; do rm -rf "$d"; done' EXIT
if [ "$smoke" = 1 ]; then
  [ -n "$out" ] || { out=$(mktemp -d); echo "smoke: output in $out"; }
  [ -n "$work" ] || { work=$(mktemp -d); cleanup+=("$work"); }
else
  [ -n "$out" ] || out=$repo/model
  [ -n "$work" ] || work=$repo/build/default-model
fi
mkdir -p "$out" "$work"
cd "$repo"

# --- C++ tools -----------------------------------------------------------------
echo "== building train-tokenizer and encode-corpus in $build"
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" >"$work/cmake.log" 2>&1 || {
    cat "$work/cmake.log" >&2
    die "cmake could not configure the project; tools/setup.sh test installs what it needs"
  }
fi
cmake --build "$build" --target train-tokenizer encode-corpus -j2 >"$work/build.log" 2>&1 || {
  tail -30 "$work/build.log" >&2
  die "building the C++ tools failed"
}

# --- Data ------------------------------------------------------------------------
if [ "$smoke" = 1 ]; then
  # Whole stories from the start of the first file, up to ~200 KB.
  awk '{ print } /^<\|endoftext\|>$/ { if (n > 200000) exit } { n += length($0) + 1 }' \
    "${corpus[0]}" >"$work/corpus.txt"
  corpus=("$work/corpus.txt")
  vocab=512
  train_args=(--threads "$threads" --steps 20 --batch 8 --warmup 5 --log-every 5 --eval-every 10 --eval-windows 16 --snapshots 3)
  # Two byte tokens swap ids (a is 98, b 97): the pipeline's renumbering step runs, and a
  # tokenizer whose bytes are not in byte order is checked by the smoke test.
  pins=(--pin a=98)
else
  vocab=4096
  train_args=(--threads "$threads" --steps "$steps" --batch 32 --lr 2e-3 --warmup 200 --min-lr-ratio 0.1
    --weight-decay 0.1 --embedding-decay 0.0 --dropout 0.0 --seed 1234 --eval-every 250 --snapshots 13)
  # The chapter's ids: its Code parts read rows 665 ("Lily"), 477 and 497 (" girl", " boy").
  pins=(--pin Lily=665 --pin '·girl=477' --pin '·boy=497')
fi

echo "== training the tokenizer (vocabulary $vocab)"
"$build/train-tokenizer" --vocab-size "$vocab" --out "$work/tokenizer.json" "${corpus[@]}" 2>&1 | tail -1
echo "== encoding the corpus (every 20th story held out for validation)"
"$build/encode-corpus" --tokenizer "$work/tokenizer.json" --validation-every 20 \
  --train-out "$work/train.bin" --validation-out "$work/val.bin" "${corpus[@]}"

# --- Model ---------------------------------------------------------------------
echo "== training the model into $out"
env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE "${preload[@]}" OPENBLAS_NUM_THREADS=1 \
  "$python" tools/training/train.py --train "$work/train.bin" --val "$work/val.bin" \
  --tokenizer "$work/tokenizer.json" --out "$out" --no-claims "${train_args[@]}"

echo "== renumbering tokens (ids are labels: a permutation of the token table's rows and the tokenizer's ids)"
"$python" tools/training/renumber.py "$out" "${pins[@]}" --check-logits

echo "== the chapter's claims, measured"
strict=(--strict)
[ "$smoke" = 1 ] && strict=()
"$python" tools/training/claims.py "$out" --json "$out/claims.json" "${strict[@]}"
echo "== done: $out"
