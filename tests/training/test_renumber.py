"""Unit tests of tools/training/renumber.py on a small exported model folder.

    /usr/bin/python3 -m unittest discover -s tests/training -p 'test_*.py'

Needs Debian's python3-torch; skips everything without it.
"""

import io
import json
import os
import shutil
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "training"))

try:
    import torch

    import claims
    import gpt
    import hf
    import renumber
    from tensors import read_safetensors, write_safetensors
except ImportError as e:  # pragma: no cover
    raise unittest.SkipTest(f"python3-torch is not installed ({e})")

WORDS = [" girl", " boy", " three", " 3", " Lily", "Lily"]
VOCAB = 40


def write_model(folder):
    """A 40-token GPT-2 folder as tools/training/train.py writes one: weights, config, tokenizer, a snapshot."""
    torch.manual_seed(3)
    cfg = dict(vocab_size=VOCAB, n_embd=8, n_positions=64, n_layer=1, n_head=2, n_inner=16, dropout=0.0,
               layer_norm_epsilon=1e-5, init_std=0.02, activation="gelu")
    model = gpt.GPT(cfg)
    model.init_weights(0.3, 0.3)
    tensors = hf.hf_state_dict(model)
    write_safetensors(os.path.join(folder, "model.safetensors"), tensors)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(hf.hf_config(cfg, VOCAB - 1), f, indent=2, sort_keys=True)
        f.write("\n")
    keys = [claims.to_key(w) for w in WORDS] + [f"t{i}" for i in range(len(WORDS), VOCAB - 1)] + ["<|endoftext|>"]
    lines = ",\n".join(f"      {json.dumps(k, ensure_ascii=False)}: {i}" for i, k in enumerate(keys))
    eot = '{"id": %d, "content": "<|endoftext|>", "special": true}' % (VOCAB - 1)
    text = ('{\n  "added_tokens": [\n    ' + eot + '\n  ],\n  "model": {\n    "type": "BPE",\n    "vocab": {\n'
            + lines + '\n    },\n    "merges": [\n      "t 1"\n    ]\n  }\n}\n')
    with open(os.path.join(folder, "tokenizer.json"), "w", encoding="utf-8") as f:
        f.write(text)
    os.makedirs(os.path.join(folder, "snapshots"))
    tables = {k: tensors[k] for k in ("transformer.wte.weight", "transformer.wpe.weight")}
    write_safetensors(os.path.join(folder, "snapshots", "step-000000.safetensors"), tables, dtype="F16",
                         metadata={"step": 0})
    return tensors, keys


def run(*argv):
    with redirect_stdout(io.StringIO()) as out:
        renumber.main(list(argv))
    return out.getvalue()


class RenumberTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.tensors, self.keys = write_model(self.dir)
        self.path = lambda name: os.path.join(self.dir, name)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def read(self, name):
        with open(self.path(name), "rb") as f:
            return f.read()

    def test_pins_move_rows_ids_and_snapshots_and_nothing_else(self):
        before = {name: self.read(name) for name in ("model.safetensors", "config.json")}
        snapshot_before, _ = read_safetensors(self.path("snapshots/step-000000.safetensors"))
        out = run(self.dir, "--pin", "Lily=20", "--pin", "·girl=1", "--check-logits")
        self.assertIn("bit for bit the same", out)
        after, _ = read_safetensors(self.path("model.safetensors"))
        wte, old = after["transformer.wte.weight"], self.tensors["transformer.wte.weight"]
        # Lily (5) and t20 swap; then ·girl (0) and ·boy (1) swap.
        np.testing.assert_array_equal(wte[20], old[5])
        np.testing.assert_array_equal(wte[5], old[20])
        np.testing.assert_array_equal(wte[1], old[0])
        np.testing.assert_array_equal(wte[0], old[1])
        np.testing.assert_array_equal(np.delete(wte, [0, 1, 5, 20], 0), np.delete(old, [0, 1, 5, 20], 0))
        for name in self.tensors:
            if name != "transformer.wte.weight":
                np.testing.assert_array_equal(after[name], self.tensors[name], name)
        self.assertEqual(len(self.read("model.safetensors")), len(before["model.safetensors"]))
        self.assertEqual(self.read("config.json"), before["config.json"])  # <|endoftext|> did not move
        snapshot, _ = read_safetensors(self.path("snapshots/step-000000.safetensors"))
        np.testing.assert_array_equal(snapshot["transformer.wte.weight"][20], snapshot_before["transformer.wte.weight"][5])
        tokenizer = json.loads(self.read("tokenizer.json"))
        vocab = tokenizer["model"]["vocab"]
        self.assertEqual((vocab["Lily"], vocab["t20"], vocab["\u0120girl"], vocab["\u0120boy"]), (20, 5, 1, 0))
        self.assertEqual(list(vocab.values()), list(range(VOCAB)))  # listed in id order
        self.assertEqual(tokenizer["model"]["merges"], ["t 1"])
        self.assertEqual(tokenizer["added_tokens"][0]["id"], VOCAB - 1)

    def test_the_claims_keep_their_values(self):
        def measured():
            tensors, vocab = claims.load(self.dir)
            c = claims.measure(tensors, vocab)
            for key in ("girl_boy", "three_3", "Lily_space_Lily"):
                c[key].pop("a_id"), c[key].pop("b_id")
            c.pop("Lily_id"), c.pop("space_Lily_id")
            return c

        before = measured()
        run(self.dir, "--pin", "Lily=20", "--pin", "·boy=7")
        self.assertEqual(measured(), before)

    def test_twice_changes_nothing_the_second_time(self):
        run(self.dir, "--pin", "Lily=20")
        files = {name: self.read(name) for name in ("model.safetensors", "tokenizer.json", "config.json")}
        self.assertIn("nothing changed", run(self.dir, "--pin", "Lily=20"))
        for name, data in files.items():
            self.assertEqual(self.read(name), data, name)

    def test_a_special_token_moved_moves_in_config_json(self):
        run(self.dir, "--pin", "<|endoftext|>=3")
        config = json.loads(self.read("config.json"))
        self.assertEqual((config["bos_token_id"], config["eos_token_id"]), (3, 3))
        self.assertEqual(json.loads(self.read("tokenizer.json"))["added_tokens"][0]["id"], 3)

    def test_bad_pins_are_named_and_change_nothing(self):
        files = {name: self.read(name) for name in ("model.safetensors", "tokenizer.json")}
        for pins, message in (
            (["·nothing=3"], "is not one token"),
            (["Lily=40"], "outside the tokenizer's 40 ids"),
            (["Lily=3", "·boy=3"], "both ask for id 3"),
            (["Lily"], "a pin is TEXT=ID"),
        ):
            with self.subTest(pins):
                with self.assertRaises(SystemExit) as caught:
                    run(self.dir, *[arg for pin in pins for arg in ("--pin", pin)])
                self.assertIn(message, str(caught.exception))
        for name, data in files.items():
            self.assertEqual(self.read(name), data, name)


if __name__ == "__main__":
    unittest.main()
