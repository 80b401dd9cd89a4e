# SPDX-License-Identifier: MIT OR Apache-2.0
"""Deterministic inputs of the real-model set (build/real-models/<name>.onnx + .json).

The model says which inputs there are, of which element type and shape; the model's JSON
(written by build_models.py) gives a size to each symbolic dimension ("dims") and, per
input, how its values are made ("inputs"):

    {"kind": "image", "mean": [..], "std": [..]}  synthetic page or photo: a light
        gradient, dark strokes and blobs, a little noise, in [0, 1], then (x - mean) / std
    {"kind": "audio", "amplitude": a}           speech-like bursts of harmonics and noise
    {"kind": "bytes", "padding": 256}           magika's rows: the first and last bytes of
        a text file and of a binary one, padded with the padding token
    {"kind": "rows", "values": [[..], ..]}      rows given as they are (tabular models;
        their shape is the input's)
    {"kind": "value", "value": v}               a constant (a scalar such as a sample rate)
    {"kind": "zeros"}                           zeros (a recurrent state)
    {"kind": "normal", "scale": s}              standard normal values times s

and optionally "shape" (a concrete shape, where the model's has unnamed dimensions) and
"text": true, the string variant's: the numbers made as above are given as STRING
elements, written as a CSV or JSON writer would (shortest repr, some in %.6e, integers
in plain decimal). The generator is seeded by the model's base name and the input's
name, so that a model and its variants get the same data.
"""

import json
import zlib

import numpy as np
import onnx
from onnx import TensorProto, helper


def spec(json_path):
    with open(json_path) as f:
        return json.load(f)


def model_inputs(model):
    """(name, elem_type, [dim_value or dim_param or None]) of the inputs that are not
    initializers."""
    initializers = {i.name for i in model.graph.initializer}
    out = []
    for v in model.graph.input:
        if v.name in initializers:
            continue
        t = v.type.tensor_type
        dims = [d.dim_value if d.HasField("dim_value") else (d.dim_param or None) for d in t.shape.dim]
        out.append((v.name, t.elem_type, dims))
    return out


def concrete_shape(name, dims, sizes, given):
    if given is not None:
        return [int(d) for d in given]
    shape = []
    for d in dims:
        if isinstance(d, int):
            shape.append(d)
        elif d in sizes:
            shape.append(int(sizes[d]))
        else:
            raise ValueError(f"input {name}: no size for dimension {d!r} (the model JSON's dims)")
    return shape


def rng_for(base, name):
    return np.random.default_rng(zlib.crc32(f"{base}/{name}".encode()))


def image(rng, shape, mean, std):
    n, c, h, w = shape
    yy, xx = np.mgrid[0:h, 0:w] / max(h, w)
    out = np.empty(shape, np.float64)
    for b in range(n):
        tint = rng.uniform(0.75, 1.0, c)
        img = tint[:, None, None] * (0.9 + 0.1 * np.sin(3 * xx + 2 * yy + rng.uniform(0, 6)))[None]
        for _ in range(max(4, h * w // 600)):  # strokes: short dark bars, like glyphs
            y0, x0 = rng.integers(0, h), rng.integers(0, w)
            sh, sw = rng.integers(1, max(2, h // 8)), rng.integers(1, max(2, w // 8))
            img[:, y0:y0 + sh, x0:x0 + sw] *= rng.uniform(0.05, 0.5, (c, 1, 1))
        for _ in range(3):  # soft blobs, like objects
            cy, cx, r = rng.uniform(0, 1), rng.uniform(0, 1), rng.uniform(0.05, 0.3)
            blob = np.exp(-((yy * max(h, w) / h - cy) ** 2 + (xx * max(h, w) / w - cx) ** 2) / r**2)
            img = img * (1 - 0.6 * blob[None]) + 0.6 * blob[None] * rng.uniform(0, 1, (c, 1, 1))
        out[b] = np.clip(img + rng.normal(0, 0.02, img.shape), 0, 1)
    mean = np.asarray(mean, np.float64).reshape(1, -1, 1, 1)
    std = np.asarray(std, np.float64).reshape(1, -1, 1, 1)
    return (out - mean) / std


def audio(rng, shape, amplitude):
    count = int(np.prod(shape))
    t = np.arange(count) / 16000.0
    signal = np.zeros(count)
    start = 0
    while start < count:  # bursts of voiced sound and pauses
        length = int(rng.integers(1600, 6400))
        if rng.random() < 0.6:
            f0 = rng.uniform(90, 250)
            seg = t[start:start + length]
            env = np.sin(np.linspace(0, np.pi, len(seg))) ** 2
            voiced = sum(np.sin(2 * np.pi * f0 * k * seg) / k for k in range(1, 8))
            signal[start:start + length] = env * voiced
        start += length
    signal = signal / max(1e-9, np.abs(signal).max()) + rng.normal(0, 0.02, count)
    return (amplitude * signal).reshape(shape)


def magika_bytes(rng, shape, padding):
    rows, width = shape
    half = width // 2
    text = "".join(f"def f{i}(x):\n    return x * {i} + {i * i}  # line {i}\n" for i in range(200)).encode()
    out = np.full(shape, padding, np.int64)
    for r in range(rows):
        data = text[r * 37:] if r % 2 == 0 else rng.integers(0, 256, 3000).astype(np.uint8).tobytes()
        data = data[: int(rng.integers(300, len(data)))]
        beg, end = data[:half], data[-half:]
        out[r, :len(beg)] = list(beg)
        out[r, width - len(end):] = list(end)
    return out


def numbers(kind, rng, shape, entry):
    if kind == "image":
        return image(rng, shape, entry.get("mean", [0.0]), entry.get("std", [1.0]))
    if kind == "audio":
        return audio(rng, shape, entry.get("amplitude", 0.3))
    if kind == "bytes":
        return magika_bytes(rng, shape, entry.get("padding", 256))
    if kind == "rows":
        return np.array(entry["values"], dtype=object if _has_text(entry["values"]) else np.float64)
    if kind == "value":
        return np.full(shape, entry["value"])
    if kind == "zeros":
        return np.zeros(shape)
    if kind == "normal":
        return rng.standard_normal(shape) * entry.get("scale", 1.0)
    raise ValueError(f"unknown input kind {kind!r}")


def _has_text(values):
    return any(isinstance(v, str) for row in values for v in (row if isinstance(row, list) else [row]))


def as_text(values, source_type):
    """Numbers as a writer of text files would put them: integers in decimal, floats by
    the shortest repr of the source type, every fifth in %.6e; NaN as "nan"."""
    flat = values.ravel()
    out = []
    for i, v in enumerate(flat):
        if isinstance(v, str):
            out.append(v)
        elif source_type in (TensorProto.FLOAT, TensorProto.DOUBLE, TensorProto.FLOAT16):
            v = float(v)
            if v != v:
                out.append("nan")
            elif i % 5 == 4:
                out.append("%.6e" % v)
            else:
                scalar = np.float32(v) if source_type == TensorProto.FLOAT else np.float64(v)
                out.append(str(scalar))
        else:
            out.append(str(int(v)))
    return np.array(out, dtype=np.str_).reshape(values.shape)


def feeds(model_path, json_path=None):
    """{input name: numpy array} for the model at model_path, from its JSON."""
    json_path = json_path or model_path[: -len(".onnx")] + ".json"
    desc = spec(json_path)
    model = onnx.load(model_path, load_external_data=False)
    sizes = desc.get("dims", {})
    out = {}
    for name, elem_type, dims in model_inputs(model):
        entry = desc["inputs"].get(name)
        if entry is None:
            raise ValueError(f"{json_path}: no entry for input {name!r}")
        given = entry.get("shape")
        if entry["kind"] == "rows":
            given = list(np.shape(entry["values"]))
        shape = concrete_shape(name, dims, sizes, given)
        rng = rng_for(desc["base"], name)
        values = numbers(entry["kind"], rng, shape, entry)
        if elem_type == TensorProto.STRING:
            source = entry.get("text_of", TensorProto.FLOAT)
            values = as_text(values, source) if entry.get("text") else np.array(values, dtype=np.str_)
        else:
            values = values.astype(helper.tensor_dtype_to_np_dtype(elem_type))
        if list(values.shape) != shape:
            raise ValueError(f"input {name}: made {list(values.shape)}, the model wants {shape}")
        out[name] = values
    return out
