#!/usr/bin/env python3
"""Measure the "Embeddings and position" chapter's claims on an exported model.

    claims.py MODEL_DIR [--json claims.json] [--strict]

MODEL_DIR holds model.safetensors and tokenizer.json (as tools/training/train.py
writes them). Prints every figure the chapter quotes, measured on this model,
and the thresholds the shipped default model must meet:

  cos(·girl, ·boy) >= 0.5, and each among the other's 10 nearest tokens
  cos(place 2, place 3) >= 0.8, and at least 0.5 above cos(place 2, place 51)
  mean cos of places 1 apart > mean cos of places >= 32 apart + 0.3

Places count from 1 and table rows from 0, so place i is wpe row i-1.
"·" stands for a leading space, as in the chapter. With --strict the exit
status is 1 when a threshold fails.
"""

import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tensors import read_safetensors  # noqa: E402


def bytes_to_unicode():
    """GPT-2's byte -> printable character table (vocab keys are written in it)."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))


BYTE_TO_CHAR = bytes_to_unicode()
CHAR_TO_BYTE = {c: b for b, c in BYTE_TO_CHAR.items()}


def to_key(text):
    return "".join(BYTE_TO_CHAR[b] for b in text.encode("utf-8"))


def show(key):
    """A vocab key as the chapter writes it: a leading space as '·'."""
    try:
        text = bytes(CHAR_TO_BYTE[c] for c in key).decode("utf-8", errors="replace")
    except KeyError:
        return key  # a special token
    return text.replace(" ", "·").replace("\n", "\\n")


def load(model_dir):
    tensors, _ = read_safetensors(os.path.join(model_dir, "model.safetensors"))
    with open(os.path.join(model_dir, "tokenizer.json"), encoding="utf-8") as f:
        tok = json.load(f)
    vocab = dict(tok["model"]["vocab"])
    for t in tok.get("added_tokens", []):
        vocab[t["content"]] = t["id"]
    return tensors, vocab


def unit_rows(m):
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    return m / np.where(norms == 0, 1, norms)


def measure(tensors, vocab):
    wte = tensors["transformer.wte.weight"].astype(np.float64)
    wpe = tensors["transformer.wpe.weight"].astype(np.float64)
    id_to_key = {i: k for k, i in vocab.items()}
    U = unit_rows(wte)

    def token(text):
        return vocab.get(to_key(text))

    def cos_ids(a, b):
        return float(U[a] @ U[b])

    def nearest(i, k=10):
        sims = U @ U[i]
        sims[i] = -np.inf
        order = np.argsort(-sims, kind="stable")
        return order, sims

    def pair(a_text, b_text, with_neighbours=False):
        a, b = token(a_text), token(b_text)
        entry = {"a": show(to_key(a_text)), "b": show(to_key(b_text)), "a_id": a, "b_id": b}
        missing = [show(to_key(t)) for t, i in ((a_text, a), (b_text, b)) if i is None]
        if missing:
            entry["note"] = "not a single token: " + ", ".join(missing)
            entry["cosine"] = None
            return entry
        entry["cosine"] = round(cos_ids(a, b), 4)
        if with_neighbours:
            for x, y, name in ((a, b, "a"), (b, a, "b")):
                order, sims = nearest(x)
                rank = int(np.nonzero(order == y)[0][0]) + 1
                entry[f"rank_of_other_in_{name}_neighbours"] = rank
                entry[f"{name}_top10"] = [[show(id_to_key[int(j)]), round(float(sims[j]), 3)] for j in order[:10]]
            entry["mutual_top10"] = (
                entry["rank_of_other_in_a_neighbours"] <= 10 and entry["rank_of_other_in_b_neighbours"] <= 10
            )
        return entry

    P = unit_rows(wpe)
    pos_cos = P @ P.T
    n = len(wpe)
    by_distance = {d: float(np.mean(np.diagonal(pos_cos, d))) for d in range(1, n)}
    far = [np.diagonal(pos_cos, d) for d in range(32, n)]
    n_params = sum(v.size for v in tensors.values())

    claims = {
        "girl_boy": pair(" girl", " boy", with_neighbours=True),
        "three_3": pair(" three", " 3"),
        "Lily_space_Lily": pair(" Lily", "Lily"),
        "Lily_id": token("Lily"),
        "space_Lily_id": token(" Lily"),
        "positions": {
            "cos_place2_place3": round(float(pos_cos[1, 2]), 4),
            "cos_place2_place51": round(float(pos_cos[1, 50]), 4),
            "mean_cos_distance_1": round(by_distance[1], 4),
            "mean_cos_distance_2": round(by_distance[2], 4),
            "mean_cos_distance_8": round(by_distance[8], 4),
            "mean_cos_distance_at_least_32": round(float(np.mean(np.concatenate(far))), 4),
            "mean_cos_by_distance": [round(by_distance[d], 4) for d in range(1, n)],
        },
        "parameters": int(n_params),
        "token_table_parameters": int(wte.size),
        "token_table_share": round(wte.size / n_params, 4),
    }
    lily = token("Lily")
    if lily is not None:
        claims["Lily_first_five"] = [round(float(v), 3) for v in wte[lily, :5]]
    pos = claims["positions"]
    gb = claims["girl_boy"]
    claims["thresholds"] = {
        "girl_boy_cosine_at_least_0.5": gb["cosine"] is not None and gb["cosine"] >= 0.5,
        "girl_boy_mutual_top10": bool(gb.get("mutual_top10")),
        "place2_place3_at_least_0.8": pos["cos_place2_place3"] >= 0.8,
        "place2_place3_minus_place2_place51_at_least_0.5": pos["cos_place2_place3"] - pos["cos_place2_place51"]
        >= 0.5,
        "mean_cos_distance_1_above_distance_32_plus_by_0.3": pos["mean_cos_distance_1"]
        > pos["mean_cos_distance_at_least_32"] + 0.3,
    }
    claims["all_thresholds_hold"] = all(claims["thresholds"].values())
    return claims


def report(c):
    gb = c["girl_boy"]
    lines = []
    if gb["cosine"] is None:
        lines.append(f"·girl/·boy: {gb['note']}")
    else:
        lines.append(
            f"cos(·girl, ·boy) = {gb['cosine']:.3f}; ·boy is #{gb['rank_of_other_in_a_neighbours']} "
            f"nearest to ·girl, ·girl is #{gb['rank_of_other_in_b_neighbours']} nearest to ·boy"
        )
        lines.append("  ·girl's nearest: " + ", ".join(f"{t} {s:.2f}" for t, s in gb["a_top10"]))
        lines.append("  ·boy's nearest:  " + ", ".join(f"{t} {s:.2f}" for t, s in gb["b_top10"]))
    for key in ("three_3", "Lily_space_Lily"):
        e = c[key]
        if e["cosine"] is None:
            lines.append(f"cos({e['a']}, {e['b']}): {e['note']}")
        else:
            lines.append(f"cos({e['a']}, {e['b']}) = {e['cosine']:.3f} (ids {e['a_id']}, {e['b_id']})")
    p = c["positions"]
    lines.append(
        f"cos(place 2, place 3) = {p['cos_place2_place3']:.3f}; cos(place 2, place 51) = {p['cos_place2_place51']:.3f}"
    )
    lines.append(
        f"mean cos at distance 1 = {p['mean_cos_distance_1']:.3f}, 2 = {p['mean_cos_distance_2']:.3f}, "
        f"8 = {p['mean_cos_distance_8']:.3f}, >= 32 = {p['mean_cos_distance_at_least_32']:.3f}"
    )
    lines.append(
        f"token table: {c['token_table_parameters']:,} of {c['parameters']:,} parameters "
        f"({c['token_table_share']:.1%})"
    )
    if "Lily_first_five" in c:
        lines.append(f"\"Lily\" is id {c['Lily_id']}; its first five numbers: {c['Lily_first_five']}")
    for name, ok in c["thresholds"].items():
        lines.append(f"  [{'ok' if ok else 'FAIL'}] {name}")
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model_dir")
    p.add_argument("--json", help="also write the figures to this JSON file")
    p.add_argument("--strict", action="store_true", help="exit 1 if a threshold fails")
    args = p.parse_args(argv)
    tensors, vocab = load(args.model_dir)
    claims = measure(tensors, vocab)
    print(report(claims), flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(claims, f, indent=1, ensure_ascii=False)
            f.write("\n")
    if args.strict and not claims["all_thresholds_hold"]:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
