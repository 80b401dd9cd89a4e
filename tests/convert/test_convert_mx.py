# SPDX-License-Identifier: MIT OR Apache-2.0
"""Block-scaled outputs (issue 51, item 3): --dtype mxfp4 / mxfp8_e4m3 / nvfp4 into
gpt-oss' / Hugging Face's _blocks/_scales layout. The codes are compared with a numpy
reference of the OCP MX rule written here from the spec (FLOOR scale: e8m0 exponent =
floor(log2(amax)) - emax_elem; elements rounded to nearest even, saturating), and the
dequantized output with the library's own mx_dequantize."""

import json
import os

import ml_dtypes
import numpy as np
import pytest

import pytensorcast as tc
from conftest import assert_one_error_line, run_main, write_safetensors

E2M1 = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0])


def ocp_scales(x, emax_elem, block=32):
    """E8M0 exponents (unbiased) of the FLOOR rule for the blocks along the last axis."""
    a = np.abs(x.astype(np.float64)).reshape(x.shape[:-1] + (-1, block)).max(-1)
    _, ex = np.frexp(a)  # a = m * 2^ex, m in [0.5, 1): floor(log2(a)) = ex - 1
    e = np.where(a == 0, -127, ex - 1 - emax_elem)
    return np.clip(e, -127, 127)


def e2m1_codes(v):
    """Nearest E2M1 code of each value, ties to the even code, saturating at 6."""
    mag = np.abs(v)
    d = np.abs(mag[..., None] - E2M1)
    lo = d.argmin(-1)
    nxt = np.minimum(lo + 1, 7)
    tie = (np.take_along_axis(d, nxt[..., None], -1)[..., 0] == d.min(-1)) & (nxt != lo)
    idx = np.where(tie & (lo % 2 == 1), nxt, lo)
    return (idx | (np.signbit(v) << 3)).astype(np.uint8)


def mxfp4_reference(x):
    """(blocks [..., K/32, 16] uint8, scales [..., K/32] uint8) by the OCP rule."""
    e = ocp_scales(x, 2)
    scaled = x.astype(np.float64).reshape(x.shape[:-1] + (-1, 32)) / np.exp2(e)[..., None]
    codes = e2m1_codes(scaled)
    return (codes[..., 0::2] | (codes[..., 1::2] << 4)).astype(np.uint8), (e + 127).astype(np.uint8)


def mxfp8_reference(x):
    e = ocp_scales(x, 8)
    scaled = x.astype(np.float64).reshape(x.shape[:-1] + (-1, 32)) / np.exp2(e)[..., None]
    codes = np.clip(scaled, -448, 448).astype(ml_dtypes.float8_e4m3fn)  # ml_dtypes rounds to nearest even
    return codes.view(np.uint8), (e + 127).astype(np.uint8)


def weights(rows, k, seed, dtype=np.float32):
    rng = np.random.default_rng(seed)
    span = 6 if dtype == np.float16 else 20  # float16 holds no more than 65504
    x = rng.standard_normal((rows, k)) * np.exp2(rng.integers(-span, span, (rows, 1)))
    if rows < 5:
        return x.astype(dtype)
    x[0, :32] = 0.0  # a block of zeros
    x[1, :32] = 2.0 ** -140  # subnormal amax: the scale clamps to 2^-127
    x[2, 5] = 6.0 * 2**4  # amax exactly a power-of-two multiple
    x[3, :32] = np.linspace(-7, 7, 32)  # saturating elements (amax/2^e in [4, 8))
    x[4, :32] = [0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0, -0.25] * 4  # ties
    x[4, 31] = 4.0
    return x.astype(dtype)


def st_tensor(st_load, path, name, dtype):
    dt, shape, raw = st_load(path)[name]
    return dt, np.frombuffer(raw, dtype).reshape(shape)


@pytest.mark.parametrize("src_dtype", [np.float32, ml_dtypes.bfloat16, np.float16])
def test_mxfp4_codes_follow_the_ocp_rule_and_dequantize_as_the_library(tmp_path, src_dtype, st_load):
    w = weights(64, 256, 1, src_dtype)
    experts = weights(3 * 16, 64, 2, src_dtype).reshape(3, 16, 64)
    norm = np.ones(256, src_dtype)
    odd = weights(4, 40, 3, src_dtype)
    names = {np.float32: "F32", ml_dtypes.bfloat16: "BF16", np.float16: "F16"}
    src = tmp_path / "m.safetensors"
    tensors = {"layer.weight": w, "experts.gate_up_proj": experts, "norm.weight": norm, "odd.weight": odd,
               "pos": np.arange(5)}
    from conftest import ST_CODES

    ST_CODES.setdefault("bfloat16", "BF16")
    write_safetensors(src, tensors)
    out = tmp_path / "o.safetensors"
    r = run_main(src, out, "--dtype", "mxfp4", "--check")
    assert r.returncode == 0, r.stderr
    assert "5 tensors converted" not in r.stdout and "(2 to mxfp4)" in r.stdout
    loaded = st_load(out)  # safetensors loads it
    assert sorted(loaded) == sorted(["layer.weight_blocks", "layer.weight_scales", "experts.gate_up_proj_blocks",
                                     "experts.gate_up_proj_scales", "norm.weight", "odd.weight", "pos"])
    assert loaded["norm.weight"][0] == names[src_dtype] and loaded["odd.weight"][0] == names[src_dtype]
    for name, x in (("layer.weight", w), ("experts.gate_up_proj", experts)):
        dt, blocks = st_tensor(st_load, out, name + "_blocks", np.uint8)
        sdt, scales = st_tensor(st_load, out, name + "_scales", np.uint8)
        assert (dt, sdt) == ("U8", "U8")
        assert blocks.shape == x.shape[:-1] + (x.shape[-1] // 32, 16) and scales.shape == x.shape[:-1] + (x.shape[-1] // 32,)
        rb, rs = mxfp4_reference(x)
        assert (scales == rs).all()
        assert (blocks == rb).all()
        # dequantized: the library's own MX dequantize of its own quantization ...
        data, sc = tc.mx_repack(blocks, scales, "gpt-oss", "onnx")
        got = tc.mx_dequantize(data, sc)
        want = tc.mx_dequantize(*tc.mx_quantize(x, "float4_e2m1fn"))
        assert got.tobytes() == want.tobytes()
        # ... and gpt-oss' decoding (transformers' lut[nibble] * 2^(scale - 127))
        lut = np.concatenate([E2M1, -E2M1])
        vals = np.stack([lut[blocks & 0x0F], lut[blocks >> 4]], -1).reshape(blocks.shape[:-1] + (32,))
        vals = vals * np.exp2(scales.astype(np.float64) - 127)[..., None]
        assert (vals.reshape(x.shape).astype(np.float32) == got).all()


def test_mxfp8_and_nvfp4(tmp_path, st_load):
    # 1,100 x 4,096: more than one 4M-element chunk, so NVFP4's per-tensor scale must
    # still be the whole tensor's
    w = weights(1100, 4096, 4)
    src = tmp_path / "m.safetensors"
    write_safetensors(src, {"w": w, "b": np.ones(16, np.float32)})
    out = tmp_path / "o8.safetensors"
    r = run_main(src, out, "--dtype", "mxfp8_e4m3", "--check", "--rest", "bfloat16")
    assert r.returncode == 0, r.stderr
    dt, blocks = st_tensor(st_load, out, "w_blocks", np.uint8)
    _, scales = st_tensor(st_load, out, "w_scales", np.uint8)
    assert dt == "F8_E4M3" and blocks.shape == (1100, 128, 32) and st_load(out)["b"][0] == "BF16"
    rb, rs = mxfp8_reference(w)
    assert (scales == rs).all() and (blocks == rb).all()
    got = tc.mx_dequantize(blocks.view(ml_dtypes.float8_e4m3fn).reshape(1100, 4096), scales.view(ml_dtypes.float8_e8m0fnu))
    assert got.tobytes() == tc.mx_dequantize(*tc.mx_quantize(w, "float8_e4m3fn")).tobytes()

    out = tmp_path / "o4.safetensors"
    r = run_main(src, out, "--dtype", "nvfp4", "--check", "--mx-names", "openai")
    assert r.returncode == 0, r.stderr
    loaded = st_load(out)
    assert sorted(loaded) == ["b", "w.blocks", "w.global_scale", "w.scales"]
    blocks = np.frombuffer(loaded["w.blocks"][2], np.uint8).reshape(loaded["w.blocks"][1])
    scales = np.frombuffer(loaded["w.scales"][2], ml_dtypes.float8_e4m3fn).reshape(loaded["w.scales"][1])
    g = np.frombuffer(loaded["w.global_scale"][2], np.float32)
    assert blocks.shape == (1100, 256, 8) and loaded["w.scales"][0] == "F8_E4M3" and loaded["w.global_scale"][1] == []
    y, s, gg = tc.mx_quantize(w, "float4_e2m1fn", scale_dtype="float8_e4m3fn")
    assert g.tobytes() == np.float32(gg).tobytes()
    assert g[0] == np.float32(np.abs(w).max() / np.float32(6 * 448))
    assert scales.tobytes() == s.tobytes()
    codes = y.view(np.uint8)
    assert (blocks.reshape(1100, -1) == (codes[:, 0::2] | (codes[:, 1::2] << 4))).all()


def test_sharded_mxfp4_with_rest(tmp_path, st_load):
    d = tmp_path / "in"
    d.mkdir()
    wm = {}
    for i in range(2):
        name = f"model-{i + 1:05d}-of-00002.safetensors"
        t = {f"layers.{i}.mlp.weight": weights(32, 128, i), f"layers.{i}.norm.weight": np.ones(128, np.float32),
             f"layers.{i}.ids": np.arange(4)}
        write_safetensors(d / name, t)
        wm.update({k: name for k in t})
    (d / "model.safetensors.index.json").write_text(json.dumps({"metadata": {"total_size": 0}, "weight_map": wm}))
    (d / "config.json").write_text(json.dumps({"torch_dtype": "float32"}))
    for names, sep in (("hf", "_"), ("openai", ".")):
        out = tmp_path / f"out-{names}"
        r = run_main(d, out, "--dtype", "mxfp4", "--rest", "bfloat16", "--mx-names", names, "--check")
        assert r.returncode == 0, r.stderr
        index = json.loads((out / "model.safetensors.index.json").read_text())
        total, seen = 0, {}
        for shard in sorted(set(wm.values())):
            for n, (dt, shape, raw) in st_load(out / shard).items():
                seen[n] = shard
                total += len(raw)
        assert index["weight_map"] == seen and index["metadata"]["total_size"] == total
        assert f"layers.0.mlp.weight{sep}blocks" in seen and f"layers.1.mlp.weight{sep}scales" in seen
        assert "layers.0.mlp.weight" not in seen
        assert st_load(out / seen["layers.0.norm.weight"])["layers.0.norm.weight"][0] == "BF16"
        config = json.loads((out / "config.json").read_text())
        assert config["torch_dtype"] == "bfloat16"
        q = config["quantization_config"]
        assert q["quant_method"] == "mxfp4" and q["modules_to_not_convert"] == ["layers.0.norm", "layers.1.norm"]
        assert q["layout"] == ("gpt-oss" if names == "hf" else "openai")


def test_block_scaled_refusals(tmp_path):
    write_safetensors(tmp_path / "m.safetensors", {"w": np.ones((2, 32), np.float32)})
    np.savez(tmp_path / "m.npz", w=np.ones((2, 32), np.float32))
    assert_one_error_line(run_main(tmp_path / "m.npz", tmp_path / "o.npz", "--dtype", "mxfp4"), 2)
    assert_one_error_line(run_main(tmp_path / "m.safetensors", tmp_path / "o.safetensors", "--dtype", "bfloat16",
                                   "--rest", "float16"), 2)
    assert_one_error_line(run_main(tmp_path / "m.safetensors", tmp_path / "o.safetensors", "--dtype", "mxfp4",
                                   "--rest", "mxfp4"), 2)
    # W_blocks already there: the quantized names would collide
    write_safetensors(tmp_path / "c.safetensors", {"w": np.ones((2, 32), np.float32),
                                                   "w_blocks": np.ones((2, 1, 16), np.uint8)})
    assert_one_error_line(run_main(tmp_path / "c.safetensors", tmp_path / "o.safetensors", "--dtype", "mxfp4"))
    assert sorted(os.listdir(tmp_path)) == ["c.safetensors", "m.npz", "m.safetensors"]


def test_the_packed_fast_path_is_taken():
    # the converter reads the core's packed FLOAT4 bytes as gpt-oss' blocks directly; if
    # the package's internals change it falls back to the public (slower) path: say so
    from pytensorcast._convert_mx import SPECS, _quantize_packed

    x = weights(8, 64, 5)
    for name in SPECS:
        assert _quantize_packed(x, SPECS[name]) is not None, name
