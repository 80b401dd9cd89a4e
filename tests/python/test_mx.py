# SPDX-License-Identifier: MIT OR Apache-2.0
"""pytensorcast.mx_quantize / mx_dequantize / mx_repack (installed from the wheel, as
test_pytensorcast.py). References computed here from the rules of docs/semantics-mx.md
with numpy in float64 and ml_dtypes' round-to-nearest-even conversions."""

import ml_dtypes as md
import numpy as np
import pytest

import pytensorcast as tc

RNG = np.random.default_rng(41)

# element dtype, emax (the largest exponent), largest finite value
MX = [
    (md.float4_e2m1fn, 2, 6.0),
    (md.float6_e2m3fn, 2, 7.5),
    (md.float6_e3m2fn, 4, 28.0),
    (md.float8_e4m3fn, 8, 448.0),
    (md.float8_e5m2, 15, 57344.0),
]


def floor_reference(x, dtype, emax, top):
    """OCP MX FLOOR along the last axis, blocks of 32: scale codes and element values."""
    rows, cols = x.shape
    blocks = x.astype(np.float64).reshape(rows, cols // 32, 32)
    amax = np.abs(blocks).max(axis=2)
    with np.errstate(divide="ignore"):
        e = np.where(amax > 0, np.floor(np.log2(amax)) - emax, -127)
    e = np.clip(e, -127, 127)
    q = blocks / np.exp2(e)[:, :, None]
    # Saturating, then one rounding (a clipped value rounds to the largest finite one).
    values = np.clip(q, -top, top).astype(dtype).astype(np.float64).reshape(rows, cols)
    return (e + 127).astype(np.uint8), values


@pytest.mark.parametrize("dtype,emax,top", MX)
def test_mx_quantize_floor_and_back(dtype, emax, top):
    mag = RNG.uniform(-12, 12, size=(6, 1))
    x = (RNG.standard_normal((6, 128)) * np.exp2(mag)).astype(np.float32)
    x[0, :32] = 0.0  # a block of zeros
    y, s = tc.mx_quantize(x, dtype)
    assert y.dtype == np.dtype(dtype) and y.shape == x.shape
    assert s.dtype == np.dtype(md.float8_e8m0fnu) and s.shape == (6, 4)
    want_s, want_v = floor_reference(x, dtype, emax, top)
    np.testing.assert_array_equal(s.view(np.uint8), want_s)
    np.testing.assert_array_equal(y.astype(np.float64), want_v)
    back = tc.mx_dequantize(y, s)
    exact = y.astype(np.float64) * np.repeat(s.astype(np.float64), 32, axis=1)
    np.testing.assert_array_equal(back, exact.astype(np.float32))


def test_mx_quantize_other_axis_rules_and_nan_blocks():
    x = (RNG.standard_normal((64, 3)) * 5).astype(np.float32)
    x[40, 1] = np.nan
    y, s = tc.mx_quantize(x, md.float8_e4m3fn, axis=0, scale_rule="ceil")
    assert s.shape == (2, 3)
    assert s.view(np.uint8)[1, 1] == 0xFF  # NaN in the block: NaN scale, zero elements
    assert (y[32:, 1].astype(np.float32) == 0).all()
    amax = np.abs(x[:32, 0].astype(np.float64)).max()
    assert s.view(np.uint8)[0, 0] == int(np.ceil(np.log2(amax))) - 8 + 127
    with pytest.raises(ValueError, match="scale_rule"):
        tc.mx_quantize(x, md.float8_e4m3fn, scale_rule="nearest")


def test_nvfp4_global_and_block_scales():
    x = (RNG.standard_normal((4, 64)) * 3).astype(np.float32)
    y, s, g = tc.mx_quantize(x, md.float4_e2m1fn, scale_dtype=md.float8_e4m3fn)
    assert s.shape == (4, 4) and s.dtype == np.dtype(md.float8_e4m3fn) and g.dtype == np.float32
    assert g == np.float32(np.abs(x.astype(np.float64)).max() / (6 * 448))
    amax = np.abs(x.astype(np.float64)).reshape(4, 4, 16).max(axis=2)
    np.testing.assert_array_equal(s.astype(np.float64), (amax / 6 / np.float64(g)).astype(md.float8_e4m3fn).astype(np.float64))
    back = tc.mx_dequantize(y, s, g)
    exact = y.astype(np.float64) * np.repeat(s.astype(np.float64), 16, axis=1) * np.float64(g)
    np.testing.assert_array_equal(back, exact.astype(np.float32))


def test_repack_between_onnx_gpt_oss_and_ggml():
    codes = RNG.integers(0, 16, size=(2, 3, 64), dtype=np.uint8)
    y = codes.view(md.float4_e2m1fn)
    s = RNG.integers(100, 150, size=(2, 3, 2), dtype=np.uint8).view(md.float8_e8m0fnu)
    blocks, scales = tc.mx_repack(y, s, "onnx", "gpt-oss")
    assert blocks.shape == (2, 3, 2, 16) and blocks.dtype == np.uint8
    pairs = codes.reshape(2, 3, 2, 16, 2)
    np.testing.assert_array_equal(blocks, pairs[..., 0] | (pairs[..., 1] << 4))
    np.testing.assert_array_equal(scales, s.view(np.uint8))
    ggml, none = tc.mx_repack(blocks, scales, "gpt-oss", "ggml")
    assert none is None and ggml.shape == (2, 3, 2, 17)
    # block_mxfp4: the E8M0 byte, then byte j holds element j (low) and j + 16 (high).
    per_block = codes.reshape(2, 3, 2, 32)
    np.testing.assert_array_equal(ggml[..., 0], s.view(np.uint8))
    np.testing.assert_array_equal(ggml[..., 1:], per_block[..., :16] | (per_block[..., 16:] << 4))
    back, back_s = tc.mx_repack(ggml, None, "ggml", "onnx")
    np.testing.assert_array_equal(back.view(np.uint8), codes)
    np.testing.assert_array_equal(back_s.view(np.uint8), s.view(np.uint8))
    with pytest.raises(ValueError, match="layouts"):
        tc.mx_repack(y, s, "onnx", "safetensors")
