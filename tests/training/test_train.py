"""Unit tests of tools/training/train.py (its export: hf.py, tensors.py) and tools/training/claims.py.

    /usr/bin/python3 -m unittest discover -s tests/training -p 'test_*.py'

Needs Debian's python3-torch; skips everything without it.
"""

import json
import math
import os
import struct
import sys
import tempfile
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "training"))

try:
    import torch

    import claims
    import gpt
    import hf
    from tensors import read_safetensors, write_safetensors
    import train
except ImportError as e:  # pragma: no cover
    raise unittest.SkipTest(f"python3-torch is not installed ({e})")


def small_config(**over):
    cfg = dict(
        vocab_size=50,
        n_embd=16,
        n_positions=8,
        n_layer=2,
        n_head=2,
        n_inner=40,
        dropout=0.0,
        layer_norm_epsilon=1e-5,
        init_std=0.02,
        activation="gelu",
    )
    cfg.update(over)
    return cfg


def reference_logits(t, cfg, ids):
    """GPT-2 forward in float64 numpy from Hugging Face names (Conv1D weights are [in, out])."""
    from math import erf

    def ln(x, p):
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + cfg["layer_norm_epsilon"]) * t[p + ".weight"] + t[p + ".bias"]

    def gelu(x):
        if cfg["activation"] == "gelu":
            return 0.5 * x * (1 + np.vectorize(erf)(x / math.sqrt(2)))
        return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))

    t = {k: v.astype(np.float64) for k, v in t.items()}
    T, C, H = len(ids), cfg["n_embd"], cfg["n_head"]
    x = t["transformer.wte.weight"][ids] + t["transformer.wpe.weight"][:T]
    for i in range(cfg["n_layer"]):
        p = f"transformer.h.{i}."
        qkv = ln(x, p + "ln_1") @ t[p + "attn.c_attn.weight"] + t[p + "attn.c_attn.bias"]
        q, k, v = np.split(qkv, 3, axis=1)
        heads = []
        for h in range(H):
            s = slice(h * C // H, (h + 1) * C // H)
            a = q[:, s] @ k[:, s].T / math.sqrt(C // H)
            a = np.where(np.triu(np.ones((T, T), bool), 1), -np.inf, a)
            a = np.exp(a - a.max(1, keepdims=True))
            heads.append((a / a.sum(1, keepdims=True)) @ v[:, s])
        x = x + np.concatenate(heads, 1) @ t[p + "attn.c_proj.weight"] + t[p + "attn.c_proj.bias"]
        m = gelu(ln(x, p + "ln_2") @ t[p + "mlp.c_fc.weight"] + t[p + "mlp.c_fc.bias"])
        x = x + m @ t[p + "mlp.c_proj.weight"] + t[p + "mlp.c_proj.bias"]
    return ln(x, "transformer.ln_f") @ t["transformer.wte.weight"].T


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


class SafetensorsTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.dir.name, "t.safetensors")

    def tearDown(self):
        self.dir.cleanup()

    def test_round_trip_and_layout(self):
        rng = np.random.default_rng(0)
        tensors = {"b": rng.standard_normal((3, 5)).astype(np.float32), "a": rng.standard_normal(7).astype(np.float32)}
        write_safetensors(self.path, tensors, metadata={"step": 3})
        back, meta = read_safetensors(self.path)
        self.assertEqual(meta, {"format": "pt", "step": "3"})
        for k in tensors:
            np.testing.assert_array_equal(back[k], tensors[k])
        raw = read_bytes(self.path)
        (n,) = struct.unpack("<Q", raw[:8])
        self.assertEqual((8 + n) % 8, 0, "data must start 8-byte aligned")
        header = json.loads(raw[8 : 8 + n])
        self.assertEqual(header["a"]["data_offsets"], [0, 28], "tensors are sorted by name and contiguous")
        self.assertEqual(header["b"]["data_offsets"], [28, 88])
        self.assertEqual(len(raw), 8 + n + 88)

    def test_f16(self):
        x = np.array([[0.5, -2.0], [1e-3, 3.0]], np.float32)
        write_safetensors(self.path, {"x": x}, dtype="F16")
        back, _ = read_safetensors(self.path)
        np.testing.assert_allclose(back["x"], x, rtol=1e-3)
        self.assertEqual(os.path.getsize(self.path) % 8, 0)

    def test_reader_rejects_malformed_files(self):
        write_safetensors(self.path, {"x": np.zeros(4, np.float32)})
        good = read_bytes(self.path)
        (n,) = struct.unpack("<Q", good[:8])
        bad = {
            "too small": good[:5],
            "header past end": struct.pack("<Q", len(good)) + good[8:],
            "truncated data": good[:-4],
            "trailing bytes": good + b"\0" * 4,
            "offsets": good[:8] + good[8 : 8 + n].replace(b"[0,16]", b"[0,12]") + good[8 + n :],
        }
        for name, data in bad.items():
            with self.subTest(name):
                with open(self.path, "wb") as f:
                    f.write(data)
                with self.assertRaises(ValueError):
                    read_safetensors(self.path)


class ExportTest(unittest.TestCase):
    def test_default_shape_parameter_count(self):
        cfg = small_config(vocab_size=4096, n_embd=128, n_positions=128, n_layer=4, n_head=4, n_inner=512)
        model = gpt.GPT(cfg)
        self.assertEqual(sum(p.numel() for p in model.parameters()), 1_334_016)
        t = hf.hf_state_dict(model)
        self.assertEqual(sum(v.size for v in t.values()), 1_334_016)
        self.assertEqual(len(t), 4 + 12 * 4)
        self.assertEqual(t["transformer.h.0.attn.c_attn.weight"].shape, (128, 384))
        self.assertEqual(t["transformer.h.3.mlp.c_fc.weight"].shape, (128, 512))
        self.assertEqual(t["transformer.h.3.mlp.c_proj.weight"].shape, (512, 128))
        self.assertNotIn("lm_head.weight", t)

    def test_exported_weights_compute_the_same_logits(self):
        for activation in ("gelu", "gelu_new"):
            with self.subTest(activation):
                torch.manual_seed(1)
                cfg = small_config(activation=activation)
                model = gpt.GPT(cfg)
                model.init_weights(0.3, 0.3)  # large weights so a transposition would show
                with torch.no_grad():  # non-trivial LayerNorms and biases
                    for name, p in model.named_parameters():
                        if p.dim() == 1:
                            p.add_(torch.randn_like(p) * 0.2)
                model.eval()
                ids = np.array([3, 1, 4, 1, 5, 9, 2])
                with torch.no_grad():
                    got = model(torch.from_numpy(ids)[None]).double().numpy()[0]
                want = reference_logits(hf.hf_state_dict(model), cfg, ids)
                np.testing.assert_allclose(got, want, atol=2e-4 * np.abs(want).max())

    def test_config(self):
        c = hf.hf_config(small_config(vocab_size=4096), 4095)
        self.assertEqual(c["model_type"], "gpt2")
        self.assertEqual(c["architectures"], ["GPT2LMHeadModel"])
        self.assertEqual((c["bos_token_id"], c["eos_token_id"]), (4095, 4095))
        self.assertTrue(c["tie_word_embeddings"])
        self.assertEqual(c["activation_function"], "gelu")


class ScheduleTest(unittest.TestCase):
    def test_snapshot_steps(self):
        self.assertEqual(train.snapshot_steps(10000, 5), [0, 10, 100, 1000, 10000])
        self.assertEqual(train.snapshot_steps(20, 3), [0, 4, 20])
        self.assertEqual(train.snapshot_steps(1, 5), [0, 1])

    def test_lr_warmup_and_cosine(self):
        class A:
            lr, warmup, steps, min_lr_ratio = 1.0, 10, 110, 0.1

        self.assertAlmostEqual(train.lr_at(0, A), 0.1)
        self.assertAlmostEqual(train.lr_at(9, A), 1.0)
        self.assertAlmostEqual(train.lr_at(60, A), 0.55)
        self.assertAlmostEqual(train.lr_at(110, A), 0.1)


class ClaimsTest(unittest.TestCase):
    def test_gpt2_byte_alphabet(self):
        self.assertEqual(claims.to_key(" girl"), "\u0120girl")
        self.assertEqual(claims.to_key("a\n"), "a\u010a")
        self.assertEqual(claims.show("\u0120girl"), "\u00b7girl")

    def test_measure_on_a_planted_table(self):
        words = [" girl", " boy", " three", " 3", " Lily", "Lily"]
        vocab = {claims.to_key(w): i for i, w in enumerate(words)}
        for i in range(len(words), 40):
            vocab[f"t{i}"] = i
        rng = np.random.default_rng(0)
        wte = rng.standard_normal((40, 8)).astype(np.float32)
        wte[1] = wte[0] + 0.1 * rng.standard_normal(8)  # ·boy close to ·girl
        wpe = np.cumsum(rng.standard_normal((64, 8)), 0).astype(np.float32)  # a random walk: smooth
        c = claims.measure({"transformer.wte.weight": wte, "transformer.wpe.weight": wpe}, vocab)
        self.assertGreater(c["girl_boy"]["cosine"], 0.9)
        self.assertEqual(c["girl_boy"]["rank_of_other_in_a_neighbours"], 1)
        self.assertTrue(c["girl_boy"]["mutual_top10"])
        u = wpe / np.linalg.norm(wpe, axis=1, keepdims=True)
        self.assertAlmostEqual(c["positions"]["cos_place2_place3"], float(u[1] @ u[2]), places=4)
        self.assertAlmostEqual(c["positions"]["cos_place2_place51"], float(u[1] @ u[50]), places=4)
        self.assertEqual(c["token_table_share"], round(wte.size / (wte.size + wpe.size), 4))


if __name__ == "__main__":
    unittest.main()
