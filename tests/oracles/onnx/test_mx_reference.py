# SPDX-License-Identifier: MIT OR Apache-2.0
"""MX block quantization (docs/semantics-mx.md) against onnx 1.23.0's ReferenceEvaluator.

* ``tcast_mx_dequantize`` of MXFP4 (FLOAT4E2M1) and MXFP8 (FLOAT8E4M3FN, FLOAT8E5M2)
  against DequantizeLinear-24 with a FLOAT8E8M0 scale and block_size 32 along axis 1:
  every element code with every scale code (0 and 0xFF included). The product of an
  element and a power of two is rounded once to FLOAT by both, so the bytes must agree
  (NaN compared as NaN).
* ``tcast_mx_quantize`` with the OCP rule (FLOOR): the scale codes against
  floor(log2(amax)) - emax_elem written here with numpy (clamped to [-127, 127], 0xFF for
  a block with NaN or an infinity), and the elements against QuantizeLinear-24 given
  those scales (saturate=1): x / 2^k is exact in FLOAT, so the reference's one rounding
  is the element's. Blocks with a NaN scale hold zeros in tensorcast and are left out
  of the element comparison.
"""

import ctypes

import ml_dtypes
import numpy as np
from onnx import TensorProto

import tcast
from onnxside import record
from tcast_ctypes import bind, tcast_mx_options
from test_qdq_reference import raw_bytes, reference

lib = tcast.lib
SEED = 20261129


# The struct and prototypes as tests/common/tcast_ctypes.py builds them from the header.
bind(lib, ["tcast_mx_quantize", "tcast_mx_dequantize"])

ELEMENTS = {  # ONNX code: (ml_dtypes type, bits, emax_elem)
    TensorProto.FLOAT4E2M1: (ml_dtypes.float4_e2m1fn, 4, 2),
    TensorProto.FLOAT8E4M3FN: (ml_dtypes.float8_e4m3fn, 8, 8),
    TensorProto.FLOAT8E5M2: (ml_dtypes.float8_e5m2, 8, 15),
}


class Buffers:
    """Descriptors over numpy buffers, kept alive for a call."""

    def __init__(self):
        self.keep = []

    def tensor(self, data, shape, code):
        dims = (ctypes.c_int64 * max(len(shape), 1))(*shape)
        self.keep.append((data, dims))
        return tcast.tcast_tensor(ctypes.c_void_p(data.ctypes.data), data.size,
                                  ctypes.cast(dims, ctypes.POINTER(ctypes.c_int64)), None,
                                  len(shape), code)


def call(fn, *args):
    err = tcast.tcast_error()
    status = fn(*args, None, ctypes.byref(err))
    if status != 0:
        raise tcast.TcastError(fn.__name__, err)


def test_dequantize_every_code_against_dequantize_linear():
    compared = 0
    for code, (np_type, bits, _) in ELEMENTS.items():
        n = 1 << bits
        # Row r: every element code (tiled to whole blocks of 32), every block scale code r.
        cols = max(n, 32)
        codes = np.tile((np.arange(cols) % n).astype(np.uint8), (256, 1))
        scales = np.repeat(np.arange(256, dtype=np.uint8)[:, None], cols // 32, axis=1)
        x = codes.view(np_type)
        s = scales.view(ml_dtypes.float8_e8m0fnu)
        b = Buffers()
        xd = np.frombuffer(raw_bytes(x, code), dtype=np.uint8).copy()
        sd = scales.copy()
        y = np.zeros(x.shape, dtype=np.float32)
        call(lib.tcast_mx_dequantize, b.tensor(xd, x.shape, code),
             b.tensor(sd, s.shape, TensorProto.FLOAT8E8M0), None,
             b.tensor(y.view(np.uint8).reshape(-1), y.shape, TensorProto.FLOAT),
             ctypes.byref(opts(axis=1)))
        want = reference("DQ", 24, x, code, s, TensorProto.FLOAT8E8M0, None,
                         TensorProto.FLOAT, 1, 32, 1)
        np.testing.assert_array_equal(y, want.astype(np.float32), strict=True)
        same_bits = (y.view(np.uint32) == want.view(np.uint32)) | (np.isnan(y) & np.isnan(want))
        assert same_bits.all()
        compared += y.size
    record("MX dequantize elements (every element code x every scale code)", compared)


def opts(axis=-1, rule=0):
    o = tcast_mx_options()
    o.struct_size = ctypes.sizeof(o)
    o.scale_rule, o.axis, o.block_size = rule, axis, 0
    return o


def test_quantize_floor_against_quantize_linear():
    rng = np.random.default_rng(SEED)
    compared = 0
    for code, (np_type, bits, emax) in ELEMENTS.items():
        rows, cols = 24, 96
        mag = rng.uniform(-30, 30, size=(rows, cols))
        x = (rng.standard_normal((rows, cols)) * np.exp2(mag)).astype(np.float32)
        x[0, :32] = 0.0                       # a block of zeros
        x[1, 5] = np.nan                      # NaN in a block
        x[2, 40] = -np.inf                    # an infinity
        x[3, :32] = np.float32(0.75)
        x[3, 7] = 4.0                         # amax an exact power of two
        x[4, :32] *= np.float32(2.0 ** -140)  # subnormal amax
        x[5, 64:] = np.float32(3.0e38)        # the top of FLOAT
        b = Buffers()
        xd = x.view(np.uint8).reshape(-1).copy()
        yd = np.zeros((x.size * bits + 7) // 8, dtype=np.uint8)
        sd = np.zeros((rows, cols // 32), dtype=np.uint8)
        call(lib.tcast_mx_quantize, b.tensor(xd, x.shape, TensorProto.FLOAT),
             b.tensor(yd, x.shape, code), b.tensor(sd, sd.shape, TensorProto.FLOAT8E8M0),
             None, ctypes.byref(opts()))
        blocks = x.astype(np.float64).reshape(rows, cols // 32, 32)
        bad = ~np.isfinite(blocks).all(axis=2)
        amax = np.abs(np.where(np.isfinite(blocks), blocks, 0)).max(axis=2)
        with np.errstate(divide="ignore"):
            e = np.floor(np.log2(amax)) - emax
        e = np.clip(np.where(amax == 0, -127, e), -127, 127)
        want_s = np.where(bad, 255, e + 127).astype(np.uint8)
        np.testing.assert_array_equal(sd, want_s)
        s = sd.view(ml_dtypes.float8_e8m0fnu)
        want = reference("Q", 24, x, TensorProto.FLOAT, s, TensorProto.FLOAT8E8M0, None, code,
                         1, 32, 1)
        want_codes = np.frombuffer(raw_bytes(want, code), dtype=np.uint8)
        if bits < 8:
            got = tcast.unpack_codes(yd, bits, x.size)
            want_codes = tcast.unpack_codes(want_codes, bits, x.size)
        else:
            got, want_codes = yd, want_codes
        keep = ~np.repeat(bad.reshape(-1), 32)
        np.testing.assert_array_equal(np.asarray(got)[keep], np.asarray(want_codes)[keep])
        compared += int(keep.sum()) + sd.size
    record("MX quantize (FLOOR) scales and elements", compared)
