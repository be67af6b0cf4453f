"""The GPT-2 layout in plain PyTorch: pre-LayerNorm blocks, learned positions, a tied head.

The model the training tools train (train.py) and read back (hf.py's
gpt_from_hf, renumber.py's logits check).
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


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
