"""safetensors files for the training tools: a small writer and a strict reader.

The one reader and writer of the Python tools (train.py, claims.py,
renumber.py and their tests). Only what they need: F32 and F16 numbers read
as float32 arrays; read_header() alone for tools that move bytes without
reading numbers (renumber.py).
"""

import json
import os
import struct

import numpy as np

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


def read_header(data, path):
    """The header of the safetensors bytes `data` (a dict, without __metadata__), its metadata and
    where the data section starts; raises ValueError on a header too small or one that runs past the end."""
    if len(data) < 8:
        raise ValueError(f"{path}: too small for a safetensors file")
    (n,) = struct.unpack("<Q", data[:8])
    if n > len(data) - 8:
        raise ValueError(f"{path}: header length {n} runs past the end of the file")
    header = json.loads(bytes(data[8 : 8 + n]).decode("utf-8"))
    metadata = header.pop("__metadata__", {})
    return header, metadata, 8 + n


def read_safetensors(path):
    """Return (tensors as float32 numpy arrays, metadata); raise ValueError on a malformed file."""
    with open(path, "rb") as f:
        data = f.read()
    header, metadata, start = read_header(data, path)
    body = memoryview(data)[start:]
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
