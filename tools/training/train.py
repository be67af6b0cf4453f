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
OPENBLAS_NUM_THREADS=1); tools/training/train-default-model.sh does that for you.
The model is gpt.py, its files hf.py and tensors.py.
"""

import argparse
import json
import math
import os
import shutil
import sys
import time
from collections import deque

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpt import GPT  # noqa: E402
from hf import export_model  # noqa: E402
from tensors import write_safetensors  # noqa: E402


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
    p.add_argument("--no-claims", action="store_true", help="skip tools/training/claims.py at the end")
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
        import claims

        claims.main([out])
    return 0


if __name__ == "__main__":
    sys.exit(main())
