#!/usr/bin/env python3
"""Give chosen tokens chosen ids in an exported model folder.

    renumber.py MODEL_DIR --pin TEXT=ID [--pin TEXT=ID ...] [--check-logits]

An id is only a label: which row of the token table a token reads. Giving
"Lily" id 665 instead of 635 is a permutation of the ids, applied to
everything that stores one, and changes no number the model computes:

  model.safetensors     the token table's rows (and an untied lm_head's rows)
  snapshots/*.safetensors  the token table's rows at each training step
  tokenizer.json        model.vocab's and added_tokens' ids, the vocab listed
                        in id order again; merges name tokens by their text,
                        and their rank is their place in the list, so they stay
  config.json           bos/eos/pad/unk token ids, where a pin moves one

Each pin swaps two tokens: TEXT takes ID, and the token that had ID takes
TEXT's old id; later pins never move an earlier pin's token (the ids must
differ). TEXT is written as the chapter writes tokens, "·" for a space
("·girl" is " girl"). A pin that already holds is a no-op, so running the
tool twice changes nothing the second time, and a retrain followed by this
tool (tools/training/train-default-model.sh does so) reproduces the shipped files.
claims.json is not touched: tools/training/claims.py measures it afterwards.

The safetensors files keep their header and every other byte; only the
rows move. With --check-logits (needs python3-torch) the model's logits on
a few windows of ids, among them every moved id, are computed before and
after: after, with the ids mapped, they must be the same numbers in the
mapped columns. Like the rest of the training pipeline it runs under
Debian's python3 with python3-torch and python3-numpy.
"""

import argparse
import glob
import json
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import claims  # noqa: E402  (GPT-2's byte alphabet)
from tensors import read_header  # noqa: E402

# Tensors whose rows are token ids, under the families' names.
VOCAB_ROW_TENSORS = ("transformer.wte.weight", "wte.weight", "lm_head.weight")
CONFIG_ID_KEYS = ("bos_token_id", "eos_token_id", "pad_token_id", "unk_token_id", "decoder_start_token_id")
BYTES_PER_NUMBER = {"F32": 4, "F16": 2, "BF16": 2, "F64": 8}


def vocab_key(text):
    """A pin's text ("·girl") as a byte-level vocab key ("Ġgirl")."""
    return claims.to_key(text.replace("·", " "))


def parse_pin(spec):
    text, sep, number = spec.rpartition("=")
    if not sep or not text or not re.fullmatch(r"\d+", number):
        raise SystemExit(f"renumber: a pin is TEXT=ID (for example ·girl=477), got {spec!r}")
    return text, int(number)


# ---- The permutation ----------------------------------------------------------------


def token_ids(tokenizer):
    """Every id the tokenizer names (vocab and added tokens) -> its token's text (key)."""
    by_id = {}
    for key, i in tokenizer["model"]["vocab"].items():
        by_id[i] = key
    for token in tokenizer.get("added_tokens", []):
        if by_id.setdefault(token["id"], token["content"]) != token["content"]:
            raise SystemExit(f"renumber: id {token['id']} is both {by_id[token['id']]!r} and the added token "
                             f"{token['content']!r}")
    count = len(by_id)
    if sorted(by_id) != list(range(count)):
        raise SystemExit("renumber: the tokenizer's ids are not 0 to n-1 without gaps")
    return [by_id[i] for i in range(count)]


def permutation(keys, pins):
    """new_of_old[old id] = new id, after the pins' swaps, in order."""
    id_of = {key: i for i, key in enumerate(keys)}
    at = list(keys)  # at[id] = the key that has it
    targets = {}
    for text, target in pins:
        key = vocab_key(text) if vocab_key(text) in id_of else text  # an added token is its own text
        if key not in id_of:
            raise SystemExit(f"renumber: {text!r} is not one token of this tokenizer")
        if target >= len(keys):
            raise SystemExit(f"renumber: id {target} is outside the tokenizer's {len(keys)} ids")
        if target in targets:
            raise SystemExit(f"renumber: {text!r} and {targets[target]!r} both ask for id {target}")
        targets[target] = text
        current = id_of[key]
        other = at[target]
        at[target], at[current] = key, other
        id_of[key], id_of[other] = target, current
    return np.array([id_of[key] for key in keys], dtype=np.int64)


# ---- Files ---------------------------------------------------------------------------------


def write_atomically(path, data):
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def renumber_safetensors(path, new_of_old):
    """Moves the rows of the token-row tensors; every other byte stays. Returns the tensors moved."""
    with open(path, "rb") as f:
        data = bytearray(f.read())
    try:
        header, _, body = read_header(data, path)
    except ValueError as error:
        raise SystemExit(f"renumber: {error}") from None
    old_of_new = np.argsort(new_of_old)
    moved = []
    for name in VOCAB_ROW_TENSORS:
        info = header.get(name)
        if info is None:
            continue
        size = BYTES_PER_NUMBER.get(info["dtype"])
        rows, cols = info["shape"]
        begin, end = info["data_offsets"]
        if size is None or end - begin != rows * cols * size or body + end > len(data):
            raise SystemExit(f"renumber: {path}: {name} has dtype {info['dtype']} or offsets "
                             f"{info['data_offsets']} that do not fit its shape")
        if rows < len(new_of_old):
            raise SystemExit(f"renumber: {path}: {name} has {rows} rows for {len(new_of_old)} token ids")
        table = np.frombuffer(bytes(data[body + begin : body + end]), dtype=np.uint8).reshape(rows, cols * size).copy()
        table[: len(new_of_old)] = table[old_of_new]  # row new takes the row of the token that now has it
        data[body + begin : body + end] = table.tobytes()
        moved.append(name)
    if not moved:
        raise SystemExit(f"renumber: {path}: no token table ({', '.join(VOCAB_ROW_TENSORS)})")
    write_atomically(path, bytes(data))
    return moved


_VOCAB_LINE = re.compile(r'^(\s*)("(?:[^"\\]|\\.)*"): (\d+),?$')


def renumber_tokenizer_text(text, tokenizer, keys, new_of_old):
    """tokenizer.json's text with the new ids, in its own layout (one vocab entry a line, as
    train-tokenizer writes it), else re-serialised; checked against the permuted JSON."""
    new_id = {key: int(new_of_old[i]) for i, key in enumerate(keys)}
    expected = json.loads(text)
    expected["model"]["vocab"] = {key: new_id[key] for key in sorted(expected["model"]["vocab"], key=new_id.get)}
    for token in expected.get("added_tokens", []):
        token["id"] = new_id[token["content"]]

    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if line.strip() == '"vocab": {'), None)
    out = None
    if start is not None:
        end = start + 1
        entries = []
        while end < len(lines) and _VOCAB_LINE.match(lines[end]):
            indent, key, _ = _VOCAB_LINE.match(lines[end]).groups()
            entries.append((new_id[json.loads(key)], indent, key))
            end += 1
        if len(entries) == len(tokenizer["model"]["vocab"]):
            entries.sort()
            vocab_lines = [f"{indent}{key}: {i}{',' if k < len(entries) - 1 else ''}"
                           for k, (i, indent, key) in enumerate(entries)]
            out = "\n".join(lines[: start + 1] + vocab_lines + lines[end:])
            out = re.sub(r'\{"id": (\d+), "content": ("(?:[^"\\]|\\.)*")',
                         lambda m: '{"id": %d, "content": %s' % (new_id[json.loads(m.group(2))], m.group(2)), out)
    if out is None or json.loads(out) != expected:
        out = json.dumps(expected, indent=2, ensure_ascii=False) + "\n"
    assert json.loads(out) == expected
    return out


def renumber_config(path, new_of_old):
    with open(path, encoding="utf-8") as f:
        config = json.load(f)
    changed = False
    for key in CONFIG_ID_KEYS:
        value = config.get(key)
        if isinstance(value, int) and 0 <= value < len(new_of_old) and new_of_old[value] != value:
            config[key] = int(new_of_old[value])
            changed = True
    if changed:  # as tools/training/train.py writes it
        write_atomically(path, (json.dumps(config, indent=2, sort_keys=True) + "\n").encode("utf-8"))
    return changed


# ---- The logits, before and after ------------------------------------------------------------


def outputs_of(model_dir, windows):
    """(the final LayerNorm's output, the logits) of the model in model_dir on windows of ids."""
    import torch

    from hf import gpt_from_hf
    from tensors import read_safetensors

    with open(os.path.join(model_dir, "config.json"), encoding="utf-8") as f:
        config = json.load(f)
    tensors, _ = read_safetensors(os.path.join(model_dir, "model.safetensors"))
    model = gpt_from_hf(tensors, config)
    hidden = []
    model.ln_f.register_forward_hook(lambda module, inputs, output: hidden.append(output.numpy().copy()))
    with torch.no_grad():
        logits = model(torch.from_numpy(windows)).double().numpy()
    return hidden[0], logits


def compare_outputs(before, after, moved_ids, new_of_old, context):
    """Runs both models on windows of ids (every moved id among them), the ids mapped for the
    renumbered one. Returns (whether the last hidden states are the same bits, the largest
    difference of a logit in its mapped column, the largest logit)."""
    rng = np.random.default_rng(0)
    length = min(context, 64)
    windows = rng.integers(0, len(new_of_old), size=(4, length))
    windows[0, : min(length, len(moved_ids))] = moved_ids[:length]
    hidden_before, logits_before = before(windows)
    hidden_after, logits_after = after(new_of_old[windows])
    difference = np.abs(logits_after[..., new_of_old] - logits_before).max()
    return bool(np.array_equal(hidden_before, hidden_after)), float(difference), float(np.abs(logits_before).max())


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model_dir")
    p.add_argument("--pin", action="append", default=[], metavar="TEXT=ID", help="give token TEXT the id ID")
    p.add_argument("--check-logits", action="store_true",
                   help="compare the model's logits before and after (python3-torch)")
    args = p.parse_args(argv)
    pins = [parse_pin(spec) for spec in args.pin]
    if not pins:
        raise SystemExit("renumber: no --pin given: nothing to renumber")

    tokenizer_path = os.path.join(args.model_dir, "tokenizer.json")
    with open(tokenizer_path, encoding="utf-8") as f:
        text = f.read()
    tokenizer = json.loads(text)
    keys = token_ids(tokenizer)
    new_of_old = permutation(keys, pins)
    moved = np.nonzero(new_of_old != np.arange(len(keys)))[0]
    if not len(moved):
        print(f"renumber: {args.model_dir}: every pin already holds; nothing changed")
        return 0

    with open(os.path.join(args.model_dir, "config.json"), encoding="utf-8") as f:
        config = json.load(f)
    before = None
    if args.check_logits:
        import shutil
        import tempfile

        before_dir = tempfile.mkdtemp()
        for name in ("config.json", "model.safetensors"):
            shutil.copyfile(os.path.join(args.model_dir, name), os.path.join(before_dir, name))
        before = before_dir

    weights = [os.path.join(args.model_dir, "model.safetensors")]
    weights += sorted(glob.glob(os.path.join(args.model_dir, "snapshots", "*.safetensors")))
    for path in weights:
        renumber_safetensors(path, new_of_old)
    write_atomically(tokenizer_path, renumber_tokenizer_text(text, tokenizer, keys, new_of_old).encode("utf-8"))
    config_changed = renumber_config(os.path.join(args.model_dir, "config.json"), new_of_old)

    print(f"renumber: {args.model_dir}: moved {len(moved)} ids "
          f"({', '.join(f'{keys[i]!r} {i}->{new_of_old[i]}' for i in moved)}) in {len(weights)} weights files "
          f"and tokenizer.json{' and config.json' if config_changed else ''}")
    if before is not None:
        import shutil

        try:
            same_hidden, difference, largest = compare_outputs(
                lambda w: outputs_of(before, w), lambda w: outputs_of(args.model_dir, w), moved, new_of_old,
                config.get("n_positions", 128))
        finally:
            shutil.rmtree(before)
        # The hidden states are the same bits; a logit is a dot product with a token's row, which
        # the output product may sum in another order in another column: float32 rounding.
        print(f"renumber: before and after, ids mapped: last hidden states "
              f"{'bit for bit the same' if same_hidden else 'DIFFER'}; logits differ by at most {difference:.2g} "
              f"(largest logit {largest:.3g})")
        if not same_hidden or difference > 1e-5 * max(1.0, largest):
            raise SystemExit("renumber: the renumbered model computes other numbers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
