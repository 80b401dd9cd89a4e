# SPDX-License-Identifier: MIT OR Apache-2.0
"""What the documents' placeholders stand for: real models and checkpoints, made small.

The ONNX models are written as protobuf bytes here (the wheel's venv has onnxruntime but
not the onnx package): x FLOAT[4] -> Cast(to=FLOAT4E2M1) -> Cast(to=FLOAT) -> y. onnxruntime
1.32 alone has no kernel for the first Cast (NOT_IMPLEMENTED when the session is made),
so a session that runs the model ran tensorcast-ort's kernel.
"""

import json

import ml_dtypes
import numpy as np
from safetensors.numpy import save_file

FLOAT = 1
FLOAT4E2M1 = 23
X = np.array([0.3, 1.25, 7.0, -2.6, 0.0, -0.2, 2.5, 100.0], np.float32)


def _varint(n):
    out = bytearray()
    while True:
        low, n = n & 0x7F, n >> 7
        out.append(low | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _int(field, value):
    return _varint(field << 3) + _varint(value)


def _len(field, value):
    if isinstance(value, str):
        value = value.encode()
    return _varint(field << 3 | 2) + _varint(len(value)) + value


def _value_info(name, elem_type, n):
    dim = _len(1, _int(1, n))  # TensorShapeProto.dim { dim_value }
    tensor = _int(1, elem_type) + _len(2, dim)  # TypeProto.Tensor
    return _len(1, name) + _len(2, _len(1, tensor))


def _cast(inp, out, to, domain):
    to_attr = _len(1, "to") + _int(3, to) + _int(20, 2)  # AttributeProto, type INT
    node = _len(1, inp) + _len(2, out) + _len(3, out) + _len(4, "Cast") + _len(5, to_attr)
    return node + (_len(7, domain) if domain else b"")


def float4_round_trip_model(domain=""):
    """The model's bytes; its Cast nodes in `domain` ("" is ONNX's)."""
    graph = (_len(1, _cast("x", "q", FLOAT4E2M1, domain)) + _len(1, _cast("q", "y", FLOAT, domain))
             + _len(2, "float4_round_trip") + _len(11, _value_info("x", FLOAT, len(X)))
             + _len(12, _value_info("y", FLOAT, len(X))))
    model = _int(1, 11) + _len(8, _int(2, 23))  # IR version 11, opset 23
    if domain:
        model += _len(8, _len(1, domain) + _int(2, 1))
    return model + _len(7, graph)


def check_float4_session(session, providers):
    """The session runs the model, with FLOAT4E2M1's rounding, on `providers`."""
    assert session.get_providers() == providers, session.get_providers()
    (y,) = session.run(None, {"x": X})
    expected = X.astype(ml_dtypes.float4_e2m1fn).astype(np.float32)
    assert y.tobytes() == expected.tobytes(), (y, expected)


def write_models(directory):
    (directory / "model.onnx").write_bytes(float4_round_trip_model())
    (directory / "model-ai-tensorcast.onnx").write_bytes(float4_round_trip_model("ai.tensorcast"))


def _weights(seed, names):
    rng = np.random.default_rng(seed)
    shapes = {"embed": (8, 64), "norm": (64,), "lm_head": (8, 64)}
    return {n: rng.standard_normal(next((s for k, s in shapes.items() if k in n), (4, 64)))
            .astype(np.float32) for n in names}


def write_sharded(directory):
    """A checkpoint as the hub ships one: two shards, their index and config.json."""
    directory.mkdir()
    shards = {
        "model-00001-of-00002.safetensors": _weights(1, ["model.embed_tokens.weight", "model.layers.0.mlp.weight"]),
        "model-00002-of-00002.safetensors": _weights(2, ["model.layers.0.norm.weight", "lm_head.weight"]),
    }
    weight_map = {}
    for name, tensors in shards.items():
        save_file(tensors, str(directory / name))
        weight_map.update(dict.fromkeys(tensors, name))
    total = sum(t.nbytes for tensors in shards.values() for t in tensors.values())
    index = {"metadata": {"total_size": total}, "weight_map": weight_map}
    (directory / "model.safetensors.index.json").write_text(json.dumps(index))
    (directory / "config.json").write_text(json.dumps({"torch_dtype": "float32"}))


def write_checkpoints(directory):
    save_file(_weights(3, ["layers.0.weight", "layers.0.norm.weight"]), str(directory / "model.safetensors"))
    np.savez(directory / "weights.npz", **_weights(4, ["encoder.0.weight", "decoder.0.weight"]))
    (directory / "model").mkdir()
    save_file(_weights(5, ["embed.weight", "layers.0.weight", "layers.0.norm.weight", "lm_head.weight"]),
              str(directory / "model" / "model.safetensors"))
    write_sharded(directory / "Llama-3-8B")
    write_sharded(directory / "big")


def safetensors_dtypes(path):
    """{tensor name: dtype} from a .safetensors file's header."""
    with open(path, "rb") as f:
        size = int.from_bytes(f.read(8), "little")
        header = json.loads(f.read(size))
    header.pop("__metadata__", None)
    return {name: entry["dtype"] for name, entry in header.items()}
