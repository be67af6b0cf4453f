#!/usr/bin/env python3
"""Train the package's default model: a tiny GPT-2 on token ids from encode_corpus.

Plain PyTorch (no transformers library). Reads little-endian uint16 token ids
(train.bin, val.bin) and the tokenizer.json the ids came from, trains on random
windows of `n_positions + 1` tokens, and exports into an output folder:

  model.safetensors     every weight, float32, Hugging Face GPT2LMHeadModel names
  config.json           a Hugging Face GPT2Config
  tokenizer.json        a copy of the tokenizer
  training-curve.json   train and validation loss against step and tokens seen
  snapshots/            token and position tables (F16) at a few steps, plus index.json

Run it with the environment of docs/training-cpu.md (tcmalloc preloaded,
OPENBLAS_NUM_THREADS=1); tools/train-default-model.sh does that for you.
"""

import argparse
import json
import math
import os
import shutil
import struct
import sys
import time
from collections import deque

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


# --------------------------------------------------------------------------
# Model: the GPT-2 layout (pre-LayerNorm blocks, learned positions, tied head)
# --------------------------------------------------------------------------


class Block(nn.Module):
    def __init__(self, n_embd, n_head, n_inner, dropout, eps, activation):
        super().__init__()
        self.n_head = n_head
        self.activation = activation
        self.ln_1 = nn.LayerNorm(n_embd, eps=eps)
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.attn_c_proj = nn.Linear(n_embd, n_embd)
        self.ln_2 = nn.LayerNorm(n_embd, eps=eps)
        self.c_fc = nn.Linear(n_embd, n_inner)
        self.mlp_c_proj = nn.Linear(n_inner, n_embd)
        self.dropout = dropout

    def forward(self, x, causal_mask):
        B, T, C = x.shape
        h = self.ln_1(x)
        q, k, v = self.c_attn(h).split(C, dim=2)
        hd = C // self.n_head
        # (B, n_head, T, hd)
        q = q.view(B, T, self.n_head, hd).transpose(1, 2)
        k = k.view(B, T, self.n_head, hd).transpose(1, 2)
        v = v.view(B, T, self.n_head, hd).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hd))
        att = att.masked_fill(causal_mask[:T, :T], float("-inf"))
        att = F.softmax(att, dim=-1)
        att = F.dropout(att, self.dropout, self.training)
        y = (att @ v).transpose(1, 2).reshape(B, T, C)
        x = x + F.dropout(self.attn_c_proj(y), self.dropout, self.training)
        h = self.ln_2(x)
        # GELU in float32: this torch's bf16 GELU kernels are 5-8x slower than
        # float32 here. "gelu" (Hugging Face's name) is the exact erf form, 4x
        # faster again than "gelu_new" (the tanh approximation GPT-2 used).
        h = self.c_fc(h).float()
        h = F.gelu(h) if self.activation == "gelu" else F.gelu(h, approximate="tanh")
        h = self.mlp_c_proj(h)
        return x + F.dropout(h, self.dropout, self.training)


class GPT(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        C = cfg["n_embd"]
        self.wte = nn.Embedding(cfg["vocab_size"], C)
        self.wpe = nn.Embedding(cfg["n_positions"], C)
        self.h = nn.ModuleList(
            Block(C, cfg["n_head"], cfg["n_inner"], cfg["dropout"], cfg["layer_norm_epsilon"], cfg["activation"])
            for _ in range(cfg["n_layer"])
        )
        self.ln_f = nn.LayerNorm(C, eps=cfg["layer_norm_epsilon"])
        n = cfg["n_positions"]
        self.register_buffer("causal_mask", torch.ones(n, n, dtype=torch.bool).triu(1), persistent=False)

    def init_weights(self, init_std, wpe_init_std):
        # Hugging Face GPT-2 initialisation: N(0, 0.02) for matrices and token
        # table, zero biases, unit LayerNorm, residual projections scaled by
        # 1/sqrt(2 * n_layer). The position table's scale is a tuning knob.
        for name, p in self.named_parameters():
            if name.endswith("bias"):
                nn.init.zeros_(p)
            elif ".ln_" in name or name.startswith("ln_"):
                nn.init.ones_(p)
            elif name == "wpe.weight":
                nn.init.normal_(p, 0.0, wpe_init_std)
            elif name.endswith("c_proj.weight"):
                nn.init.normal_(p, 0.0, init_std / math.sqrt(2 * self.cfg["n_layer"]))
            else:
                nn.init.normal_(p, 0.0, init_std)

    def forward(self, idx):
        B, T = idx.shape
        pos = torch.arange(T, device=idx.device)
        x = self.wte(idx) + self.wpe(pos)[None]
        x = F.dropout(x, self.cfg["dropout"], self.training)
        for block in self.h:
            x = block(x, self.causal_mask)
        x = self.ln_f(x)
        return F.linear(x, self.wte.weight)  # tied output head


def hf_state_dict(model):
    """Float32 numpy arrays under GPT2LMHeadModel names (Conv1D weights are [in, out])."""
    out = {}
    sd = {k: v.detach().float().cpu() for k, v in model.state_dict().items()}
    out["transformer.wte.weight"] = sd["wte.weight"]
    out["transformer.wpe.weight"] = sd["wpe.weight"]
    out["transformer.ln_f.weight"] = sd["ln_f.weight"]
    out["transformer.ln_f.bias"] = sd["ln_f.bias"]
    for i in range(model.cfg["n_layer"]):
        p, q = f"h.{i}.", f"transformer.h.{i}."
        out[q + "ln_1.weight"] = sd[p + "ln_1.weight"]
        out[q + "ln_1.bias"] = sd[p + "ln_1.bias"]
        out[q + "attn.c_attn.weight"] = sd[p + "c_attn.weight"].t()
        out[q + "attn.c_attn.bias"] = sd[p + "c_attn.bias"]
        out[q + "attn.c_proj.weight"] = sd[p + "attn_c_proj.weight"].t()
        out[q + "attn.c_proj.bias"] = sd[p + "attn_c_proj.bias"]
        out[q + "ln_2.weight"] = sd[p + "ln_2.weight"]
        out[q + "ln_2.bias"] = sd[p + "ln_2.bias"]
        out[q + "mlp.c_fc.weight"] = sd[p + "c_fc.weight"].t()
        out[q + "mlp.c_fc.bias"] = sd[p + "c_fc.bias"]
        out[q + "mlp.c_proj.weight"] = sd[p + "mlp_c_proj.weight"].t()
        out[q + "mlp.c_proj.bias"] = sd[p + "mlp_c_proj.bias"]
    return {k: np.ascontiguousarray(v.numpy(), dtype=np.float32) for k, v in out.items()}


def gpt_from_hf(tensors, config):
    """The inverse of hf_state_dict: a GPT in eval mode from GPT2LMHeadModel tensors and config.json."""
    cfg = {
        "vocab_size": config["vocab_size"],
        "n_embd": config["n_embd"],
        "n_positions": config["n_positions"],
        "n_layer": config["n_layer"],
        "n_head": config["n_head"],
        "n_inner": config.get("n_inner") or 4 * config["n_embd"],
        "dropout": 0.0,
        "layer_norm_epsilon": config["layer_norm_epsilon"],
        "init_std": config.get("initializer_range", 0.02),
        "activation": config["activation_function"],
    }
    model = GPT(cfg)
    names = {"wte.weight": "transformer.wte.weight", "wpe.weight": "transformer.wpe.weight",
             "ln_f.weight": "transformer.ln_f.weight", "ln_f.bias": "transformer.ln_f.bias"}
    conv1d = {"c_attn": "attn.c_attn", "attn_c_proj": "attn.c_proj", "c_fc": "mlp.c_fc", "mlp_c_proj": "mlp.c_proj"}
    for i in range(cfg["n_layer"]):
        p, q = f"h.{i}.", f"transformer.h.{i}."
        for part in ("ln_1", "ln_2"):
            names[p + part + ".weight"] = q + part + ".weight"
            names[p + part + ".bias"] = q + part + ".bias"
        for ours, theirs in conv1d.items():
            names[p + ours + ".weight"] = q + theirs + ".weight"
            names[p + ours + ".bias"] = q + theirs + ".bias"
    state = {}
    for ours, theirs in names.items():
        value = torch.from_numpy(np.array(tensors[theirs], dtype=np.float32))
        state[ours] = value.t() if ours.endswith(".weight") and ours.split(".")[-2] in conv1d else value
    model.load_state_dict(state)
    return model.eval()


# --------------------------------------------------------------------------
# safetensors: a small writer and a strict reader
# --------------------------------------------------------------------------

_DTYPES = {"F32": np.dtype("<f4"), "F16": np.dtype("<f2")}


def write_safetensors(path, tensors, dtype="F32", metadata=None):
    """Write `tensors` (name -> numpy array) sorted by name, contiguous, little-endian."""
    np_dtype = _DTYPES[dtype]
    header = {"__metadata__": {"format": "pt", **{k: str(v) for k, v in (metadata or {}).items()}}}
    blobs, offset = [], 0
    for name in sorted(tensors):
        blob = np.ascontiguousarray(tensors[name], dtype=np_dtype).tobytes()
        header[name] = {
            "dtype": dtype,
            "shape": list(tensors[name].shape),
            "data_offsets": [offset, offset + len(blob)],
        }
        blobs.append(blob)
        offset += len(blob)
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * ((-len(text)) % 8)  # so the data starts 8-byte aligned
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for blob in blobs:
            f.write(blob)
    os.replace(tmp, path)


def read_safetensors(path):
    """Return (tensors as float32 numpy arrays, metadata); raise ValueError on a malformed file."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 8:
        raise ValueError(f"{path}: header too small")
    (n,) = struct.unpack("<Q", data[:8])
    if n > len(data) - 8:
        raise ValueError(f"{path}: header length {n} runs past the end of the file")
    header = json.loads(data[8 : 8 + n].decode("utf-8"))
    metadata = header.pop("__metadata__", {})
    body = memoryview(data)[8 + n :]
    tensors, end = {}, 0
    for name in sorted(header, key=lambda k: header[k]["data_offsets"][0]):
        info = header[name]
        dt = _DTYPES.get(info["dtype"])
        if dt is None:
            raise ValueError(f"{path}: {name}: unsupported dtype {info['dtype']}")
        begin, stop = info["data_offsets"]
        count = int(np.prod(info["shape"])) if info["shape"] else 1
        if begin != end or stop - begin != count * dt.itemsize or stop > len(body):
            raise ValueError(f"{path}: {name}: invalid offsets {info['data_offsets']}")
        tensors[name] = np.frombuffer(body[begin:stop], dtype=dt).reshape(info["shape"]).astype(np.float32)
        end = stop
    if end != len(body):
        raise ValueError(f"{path}: {len(body) - end} bytes after the last tensor")
    return tensors, metadata


# --------------------------------------------------------------------------
# Data
# --------------------------------------------------------------------------


def tokenizer_vocab_size(tokenizer_path):
    with open(tokenizer_path, encoding="utf-8") as f:
        tok = json.load(f)
    ids = list(tok["model"]["vocab"].values()) + [t["id"] for t in tok.get("added_tokens", [])]
    return max(ids) + 1


def tokenizer_eot_id(tokenizer_path):
    with open(tokenizer_path, encoding="utf-8") as f:
        tok = json.load(f)
    for t in tok.get("added_tokens", []):
        if t["content"] == "<|endoftext|>":
            return t["id"]
    return tok["model"]["vocab"].get("<|endoftext|>")


def load_ids(path, vocab_size, window):
    ids = np.memmap(path, dtype="<u2", mode="r")
    if len(ids) < window + 1:
        raise SystemExit(f"{path}: only {len(ids)} tokens, need at least {window + 1}")
    # The largest id, checked in chunks so a big file is never copied whole.
    top = max(int(ids[i : i + (1 << 22)].max()) for i in range(0, len(ids), 1 << 22))
    if top >= vocab_size:
        raise SystemExit(f"{path}: token id {top} is outside the tokenizer's {vocab_size} ids")
    return ids


def gather(ids, starts, T):
    x = np.stack([ids[s : s + T + 1] for s in starts]).astype(np.int64)
    x = torch.from_numpy(x)
    return x[:, :-1], x[:, 1:]


# --------------------------------------------------------------------------
# Training
# --------------------------------------------------------------------------


def lr_at(step, args):
    if step < args.warmup:
        return args.lr * (step + 1) / args.warmup
    progress = (step - args.warmup) / max(1, args.steps - args.warmup)
    ratio = args.min_lr_ratio + (1 - args.min_lr_ratio) * 0.5 * (1 + math.cos(math.pi * min(1.0, progress)))
    return args.lr * ratio


def snapshot_steps(total, count):
    """Step 0, then roughly log-spaced steps ending at `total`."""
    if count <= 1 or total <= 0:
        return [0, total] if total > 0 else [0]
    steps = [0] + [int(round(total ** (k / (count - 1)))) for k in range(1, count)]
    steps[-1] = total
    return sorted(set(steps))


def autocast(enabled):
    return torch.autocast("cpu", dtype=torch.bfloat16, enabled=enabled)


def loss_of(model, x, y, bf16):
    with autocast(bf16):
        logits = model(x)
    return F.cross_entropy(logits.float().view(-1, logits.size(-1)), y.reshape(-1))


@torch.no_grad()
def evaluate(model, val, starts, T, bf16, batch):
    model.eval()
    total, n = 0.0, 0
    for i in range(0, len(starts), batch):
        x, y = gather(val, starts[i : i + batch], T)
        total += loss_of(model, x, y, bf16).item() * len(x)
        n += len(x)
    model.train()
    return total / n


def save_snapshot(model, out_dir, step, tokens, train_loss, val_loss, index):
    snap_dir = os.path.join(out_dir, "snapshots")
    os.makedirs(snap_dir, exist_ok=True)
    name = f"step-{step:06d}.safetensors"
    tables = {
        "transformer.wte.weight": model.wte.weight.detach().float().numpy(),
        "transformer.wpe.weight": model.wpe.weight.detach().float().numpy(),
    }
    meta = {
        "step": step,
        "tokens_seen": tokens,
        "train_loss": "" if train_loss is None else f"{train_loss:.4f}",
        "val_loss": f"{val_loss:.4f}",
    }
    write_safetensors(os.path.join(snap_dir, name), tables, dtype="F16", metadata=meta)
    index.append(
        {
            "file": name,
            "step": step,
            "tokens_seen": tokens,
            "train_loss": None if train_loss is None else round(train_loss, 4),
            "val_loss": round(val_loss, 4),
        }
    )
    with open(os.path.join(snap_dir, "index.json"), "w") as f:
        json.dump({"tensors": list(tables), "dtype": "F16", "snapshots": index}, f, indent=1)
        f.write("\n")


def hf_config(cfg, eot_id):
    return {
        "activation_function": cfg["activation"],
        "architectures": ["GPT2LMHeadModel"],
        "attn_pdrop": cfg["dropout"],
        "bos_token_id": eot_id,
        "embd_pdrop": cfg["dropout"],
        "eos_token_id": eot_id,
        "initializer_range": cfg["init_std"],
        "layer_norm_epsilon": cfg["layer_norm_epsilon"],
        "model_type": "gpt2",
        "n_ctx": cfg["n_positions"],
        "n_embd": cfg["n_embd"],
        "n_head": cfg["n_head"],
        "n_inner": cfg["n_inner"],
        "n_layer": cfg["n_layer"],
        "n_positions": cfg["n_positions"],
        "reorder_and_upcast_attn": False,
        "resid_pdrop": cfg["dropout"],
        "scale_attn_by_inverse_layer_idx": False,
        "scale_attn_weights": True,
        "tie_word_embeddings": True,
        "torch_dtype": "float32",
        "use_cache": True,
        "vocab_size": cfg["vocab_size"],
    }


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--train", required=True, help="train.bin (uint16 token ids)")
    p.add_argument("--val", required=True, help="val.bin (uint16 token ids)")
    p.add_argument("--tokenizer", required=True, help="tokenizer.json the ids came from")
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument("--steps", type=int, default=10000)
    p.add_argument("--batch", type=int, default=32, help="windows per step")
    p.add_argument("--lr", type=float, default=2e-3, help="peak learning rate")
    p.add_argument("--min-lr-ratio", type=float, default=0.1, help="final lr as a fraction of the peak")
    p.add_argument("--warmup", type=int, default=200, help="linear warmup steps")
    p.add_argument("--weight-decay", type=float, default=0.1, help="AdamW decay for matrices")
    p.add_argument("--embedding-decay", type=float, default=0.0, help="AdamW decay for wte and wpe")
    p.add_argument("--beta2", type=float, default=0.99)
    p.add_argument("--grad-clip", type=float, default=1.0)
    p.add_argument("--dropout", type=float, default=0.0)
    p.add_argument("--init-std", type=float, default=0.02)
    p.add_argument("--wpe-init-std", type=float, default=0.01, help="std of the random position table")
    p.add_argument("--n-embd", type=int, default=128)
    p.add_argument("--n-positions", type=int, default=128)
    p.add_argument("--n-layer", type=int, default=4)
    p.add_argument("--n-head", type=int, default=4)
    p.add_argument("--n-inner", type=int, default=512)
    p.add_argument(
        "--activation",
        choices=["gelu", "gelu_new"],
        default="gelu",
        help="MLP activation, by its Hugging Face name: gelu (exact, erf) or gelu_new (tanh approximation)",
    )
    p.add_argument("--seed", type=int, default=1234)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--no-bf16", action="store_true", help="train in float32 instead of bf16 autocast")
    p.add_argument("--log-every", type=int, default=50, help="steps per averaged train-loss point")
    p.add_argument("--eval-every", type=int, default=500, help="steps between validation losses")
    p.add_argument("--eval-windows", type=int, default=256, help="fixed validation windows")
    p.add_argument("--snapshots", type=int, default=5, help="snapshots of wte/wpe, from step 0 to the end")
    p.add_argument("--no-claims", action="store_true", help="skip tools/check_claims.py at the end")
    return p.parse_args(argv)


def make_optimizer(model, args):
    """AdamW with three groups: matrices decay, the two tables decay by their own rate, the rest not at all."""
    embeddings = [model.wte.weight, model.wpe.weight]
    matrices = [p for n, p in model.named_parameters() if p.dim() == 2 and n not in ("wte.weight", "wpe.weight")]
    others = [p for p in model.parameters() if p.dim() < 2]
    return torch.optim.AdamW(
        [
            {"params": matrices, "weight_decay": args.weight_decay},
            {"params": embeddings, "weight_decay": args.embedding_decay},
            {"params": others, "weight_decay": 0.0},
        ],
        lr=args.lr,
        betas=(0.9, args.beta2),
        eps=1e-8,
    )


def train_steps(model, opt, train, rng, args, tokens_per_step, validate, curve, snap_at):
    """The training loop. Returns the wall time and the recent train losses (for the summary)."""
    T = args.n_positions
    bf16 = not args.no_bf16
    model.train()
    t0 = time.time()
    window_sum, window_n = 0.0, 0
    recent = deque(maxlen=args.log_every)  # the train loss a snapshot or the summary quotes
    last_log_time, last_log_step = t0, 0
    for step in range(1, args.steps + 1):
        lr = lr_at(step - 1, args)
        for g in opt.param_groups:
            g["lr"] = lr
        starts = rng.integers(0, len(train) - T - 1, size=args.batch)
        x, y = gather(train, starts, T)
        loss = loss_of(model, x, y, bf16)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        if args.grad_clip > 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), args.grad_clip)
        opt.step()
        lv = loss.item()
        if not math.isfinite(lv):
            raise SystemExit(f"step {step}: loss is {lv}; lower --lr")
        window_sum += lv
        window_n += 1
        recent.append(lv)
        if step % args.log_every == 0 or step == args.steps:
            mean = window_sum / window_n
            curve["train"].append([step, step * tokens_per_step, round(mean, 4)])
            window_sum, window_n = 0.0, 0
            now = time.time()
            rate = (step - last_log_step) * tokens_per_step / (now - last_log_time)
            last_log_time, last_log_step = now, step
            print(f"step {step}/{args.steps}: train {mean:.4f} lr {lr:.2e} {rate:,.0f} tokens/s", flush=True)
        if step % args.eval_every == 0 or step in snap_at or step == args.steps:
            v = validate(step, sum(recent) / len(recent))
            print(f"step {step}: val {v:.4f}", flush=True)
    return time.time() - t0, recent


def export_model(model, cfg, args, eot_id, n_params):
    """Writes model.safetensors (read back and compared), config.json and tokenizer.json into args.out."""
    out = args.out
    tensors = hf_state_dict(model)
    model_path = os.path.join(out, "model.safetensors")
    write_safetensors(model_path, tensors, dtype="F32")
    back, _ = read_safetensors(model_path)
    assert sorted(back) == sorted(tensors), "read-back names differ"
    for k in tensors:
        assert back[k].shape == tensors[k].shape and np.array_equal(back[k], tensors[k]), f"read-back {k} differs"
    assert sum(v.size for v in back.values()) == n_params, "read-back parameter count differs"

    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(hf_config(cfg, eot_id), f, indent=2, sort_keys=True)
        f.write("\n")
    if os.path.abspath(args.tokenizer) != os.path.abspath(os.path.join(out, "tokenizer.json")):
        shutil.copyfile(args.tokenizer, os.path.join(out, "tokenizer.json"))


def run_summary(args, curve, train, val, n_val, n_params, wall, recent):
    """The summary training-curve.json ends with: every setting and what the run measured."""
    T = args.n_positions
    tokens_per_step = args.batch * T
    return {
        "steps": args.steps,
        "batch": args.batch,
        "context": T,
        "tokens_seen": args.steps * tokens_per_step,
        "train_tokens": int(len(train)),
        "val_tokens": int(len(val)),
        "epochs": round(args.steps * tokens_per_step / len(train), 2),
        "wall_seconds": round(wall, 1),
        "tokens_per_second": round(args.steps * tokens_per_step / wall),
        "final_train_loss": round(sum(recent) / len(recent), 4) if recent else None,
        "final_train_loss_steps": len(recent),
        "final_val_loss": curve["val"][-1][2],
        "val_windows": int(n_val),
        "parameters": n_params,
        "precision": "float32" if args.no_bf16 else "bf16 autocast (CPU), float32 weights",
        "settings": {k: v for k, v in vars(args).items() if k not in ("train", "val", "tokenizer", "out")},
    }


def main(argv=None):
    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    bf16 = not args.no_bf16

    # Data and model.
    vocab_size = tokenizer_vocab_size(args.tokenizer)
    eot_id = tokenizer_eot_id(args.tokenizer)
    T = args.n_positions
    train = load_ids(args.train, vocab_size, T)
    val = load_ids(args.val, vocab_size, T)
    cfg = {
        "vocab_size": vocab_size,
        "n_embd": args.n_embd,
        "n_positions": T,
        "n_layer": args.n_layer,
        "n_head": args.n_head,
        "n_inner": args.n_inner,
        "dropout": args.dropout,
        "layer_norm_epsilon": 1e-5,
        "init_std": args.init_std,
        "activation": args.activation,
    }
    model = GPT(cfg)
    model.init_weights(args.init_std, args.wpe_init_std)
    n_params = sum(p.numel() for p in model.parameters())
    print(
        f"model: {n_params:,} parameters (token table {model.wte.weight.numel() / n_params:.1%}); "
        f"train {len(train):,} tokens, validation {len(val):,} tokens; vocab {vocab_size}",
        flush=True,
    )
    opt = make_optimizer(model, args)

    # Fixed validation windows, evenly spread over the held-out stories.
    n_val = min(args.eval_windows, (len(val) - 1) // T)
    val_starts = np.linspace(0, len(val) - T - 1, n_val).astype(np.int64)

    # Snapshots and the loss curve.
    out = args.out
    os.makedirs(out, exist_ok=True)
    snap_dir = os.path.join(out, "snapshots")
    if os.path.isdir(snap_dir):
        shutil.rmtree(snap_dir)
    snap_at = set(snapshot_steps(args.steps, args.snapshots))
    snap_index = []
    curve = {
        "columns": {"train": ["step", "tokens_seen", "loss"], "val": ["step", "tokens_seen", "loss"]},
        "train": [],
        "val": [],
    }
    tokens_per_step = args.batch * T

    def validate(step, recent_train):
        v = evaluate(model, val, val_starts, T, bf16, 64)
        curve["val"].append([step, step * tokens_per_step, round(v, 4)])
        if step in snap_at:
            save_snapshot(model, out, step, step * tokens_per_step, recent_train, v, snap_index)
        return v

    v0 = validate(0, None)
    print(f"step 0: val {v0:.4f} (ln vocab = {math.log(vocab_size):.4f})", flush=True)
    wall, recent = train_steps(model, opt, train, rng, args, tokens_per_step, validate, curve, snap_at)

    export_model(model, cfg, args, eot_id, n_params)
    curve["summary"] = run_summary(args, curve, train, val, n_val, n_params, wall, recent)
    with open(os.path.join(out, "training-curve.json"), "w") as f:
        json.dump(curve, f, separators=(",", ":"))
        f.write("\n")
    print(json.dumps(curve["summary"], indent=1), flush=True)

    if not args.no_claims:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import check_claims

        check_claims.main([out])
    return 0


if __name__ == "__main__":
    sys.exit(main())
