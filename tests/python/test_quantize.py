# SPDX-License-Identifier: MIT OR Apache-2.0
"""pytensorcast.quantize_linear / dequantize_linear (installed from the wheel, as
test_pytensorcast.py). References computed here from ONNX's formulas
(docs/semantics-quantize.md) with numpy in float64 (the quotient x / scale of float32
values, and the products below, are exact enough there: the semantics doc, section 3)
and ml_dtypes' round-to-nearest-even conversions."""

import ml_dtypes as md
import numpy as np
import pytest

import pytensorcast as tc

pytestmark = pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")

RNG = np.random.default_rng(40)


def test_mxfp4_dequantize_block_32():
    codes = RNG.integers(0, 16, size=(3, 96), dtype=np.uint8)
    x = codes.view(md.float4_e2m1fn)
    # Exponents 2^-10 .. 2^10 (biased 117..137), one per block of 32 along the last axis.
    scale = RNG.integers(117, 138, size=(3, 3), dtype=np.uint8).view(md.float8_e8m0fnu)
    y = tc.dequantize_linear(x, scale, axis=-1, block_size=32, output_dtype=np.float32)
    # fp4 value times a power of two: exact in float64, then one rounding to float32.
    want = (x.astype(np.float64) * np.repeat(scale.astype(np.float64), 32, axis=1)).astype(np.float32)
    assert y.dtype == np.float32 and y.shape == (3, 96)
    np.testing.assert_array_equal(y, want)
    # bfloat16 output: the same exact product rounded to bfloat16.
    yb = tc.dequantize_linear(x, scale, axis=1, block_size=32, output_dtype=md.bfloat16)
    np.testing.assert_array_equal(yb.astype(np.float64), want.astype(np.float64).astype(md.bfloat16).astype(np.float64))


def test_mxfp4_quantize_block_32():
    x = (RNG.standard_normal((2, 64)) * 4).astype(np.float32)
    scale = np.array([[126, 127], [128, 125]], np.uint8).view(md.float8_e8m0fnu)  # 0.5, 1, 2, 0.25
    y = tc.quantize_linear(x, scale, axis=1, block_size=32, output_dtype=md.float4_e2m1fn)
    assert y.dtype == md.float4_e2m1fn and y.shape == (2, 64) and y.itemsize == 1
    q = x.astype(np.float64) / np.repeat(scale.astype(np.float64), 32, axis=1)
    # FLOAT4E2M1 always saturates (largest finite 6).
    want = np.clip(q, -6.0, 6.0).astype(md.float4_e2m1fn)
    np.testing.assert_array_equal(y.view(np.uint8), want.view(np.uint8))


def test_int4_per_axis_with_zero_point():
    x = (RNG.standard_normal((4, 5)) * 10).astype(np.float32)
    x[0, 0] = np.nan
    x[1, 1] = np.inf
    x[2, 2] = 2.5  # a tie: even
    scale = np.array([1.0, 0.5, 1.0, 2.0, 0.25], np.float32)
    zp = np.array([0, -1, 3, 7, -8], md.int4)
    y = tc.quantize_linear(x, scale, zp, axis=1)
    assert y.dtype == md.int4 and y.shape == x.shape
    zpf = zp.astype(np.float64)
    q = np.rint(x.astype(np.float64) / scale.astype(np.float64)) + zpf
    want = np.where(np.isnan(q), np.broadcast_to(zpf, q.shape), np.clip(q, -8, 7))
    np.testing.assert_array_equal(y.astype(np.float64), want)
    # And back: (y - zp) * scale, exact in float64, rounded once to float32.
    back = tc.dequantize_linear(y, scale, zp, axis=1)
    assert back.dtype == np.float32
    np.testing.assert_array_equal(back, ((want - zpf) * scale.astype(np.float64)).astype(np.float32))


def test_default_output_is_uint8_and_axis_0():
    x = np.array([[-3.0, 0.4, 300.0], [1.5, 2.5, 127.5]], np.float32)
    scale = np.array([1.0, 0.5], np.float32)
    y = tc.quantize_linear(x, scale, axis=0)
    assert y.dtype == np.uint8
    want = np.clip(np.rint(x.astype(np.float64) / scale[:, None].astype(np.float64)), 0, 255)
    np.testing.assert_array_equal(y, want.astype(np.uint8))


@pytest.mark.parametrize("dtype", [md.float8_e4m3fn, md.float8_e5m2, md.float8_e4m3fnuz, md.float8_e5m2fnuz])
@pytest.mark.parametrize("saturate", [True, False])
def test_float8_per_tensor_with_zero_point(dtype, saturate):
    x = np.concatenate([(RNG.standard_normal(200) * 50).astype(np.float32),
                        np.array([1e6, -1e6, np.inf, -np.inf, 0.0, -0.0], np.float32)])
    scale = np.float32(0.125)
    zp = np.zeros((), dtype)
    y = tc.quantize_linear(x, scale, zp, saturate=saturate)
    assert y.dtype == dtype
    q = x.astype(np.float64) / np.float64(scale)
    big = float(md.finfo(dtype).max)
    if saturate:
        want = np.clip(q, -big, big).astype(dtype)
    else:
        # Out of range: inf for E5M2 (which has it), NaN for the others (ml_dtypes agrees).
        want = q.astype(dtype)
    got = y.astype(np.float64)
    ref = want.astype(np.float64)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(ref))
    ok = ~np.isnan(ref)
    np.testing.assert_array_equal(got[ok], ref[ok])
    np.testing.assert_array_equal(np.signbit(got[ok]), np.signbit(ref[ok]))
    back = tc.dequantize_linear(y, np.array([scale]), zp.reshape(1))
    rb = (ref * np.float64(scale)).astype(np.float32)
    np.testing.assert_array_equal(back[ok], rb[ok])


def test_precision_float16():
    # docs/semantics-quantize.md: 3001 by default, 3000 with precision FLOAT16.
    x = np.array([3001.0], np.float32)
    one = np.float32(1.0)
    assert tc.quantize_linear(x, one, output_dtype=np.int16)[0] == 3001
    assert tc.quantize_linear(x, one, output_dtype=np.int16, precision=np.float16)[0] == 3000


def test_strided_input():
    x = (RNG.standard_normal((6, 8)) * 20).astype(np.float32)[::2, ::3]
    y = tc.quantize_linear(x, np.float32(0.5), output_dtype=np.int8)
    want = np.clip(np.rint(x.astype(np.float64) / 0.5), -128, 127).astype(np.int8)
    np.testing.assert_array_equal(y, want)


def test_errors():
    x = np.ones((2, 4), np.float32)
    with pytest.raises(ValueError, match="INVALID_SHAPE"):
        tc.quantize_linear(x, np.ones(3, np.float32), axis=1)
    with pytest.raises(ValueError, match="INVALID_ARGUMENT"):
        tc.quantize_linear(x, np.ones(4, np.float32), axis=5)
    with pytest.raises(TypeError):
        tc.quantize_linear(x.astype(np.float64), np.float32(1.0))
    with pytest.raises(ValueError, match="INVALID_ARGUMENT") as e:
        tc.quantize_linear(x, np.ones(2, np.float32), np.array([0.0, 1.0], md.float8_e4m3fn), axis=0)
    assert e.value.index == 1
    with pytest.raises(TypeError):  # e8m0 scale without output_dtype: ONNX 24 asks for one
        tc.dequantize_linear(np.zeros(32, md.float4_e2m1fn), np.ones(1, md.float8_e8m0fnu))
    with pytest.raises(TypeError, match="precision"):
        tc.quantize_linear(x, np.float32(1.0), precision=np.int8)
