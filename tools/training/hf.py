"""The GPT-2 model (gpt.py) as Hugging Face's files have it: GPT2LMHeadModel's
tensor names, its config.json, and the export of a trained model's folder.
"""

import json
import os
import shutil

import numpy as np
import torch

from gpt import GPT
from tensors import read_safetensors, write_safetensors


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
