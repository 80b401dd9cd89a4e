# SPDX-License-Identifier: MIT OR Apache-2.0
"""MXFP4 in ggml's ``block_mxfp4`` layout (docs/semantics-mx.md "Layouts") against ggml's
own Python implementation, the ``gguf`` package from PyPI (llama.cpp's gguf-py; its
``quants.MXFP4`` is the numpy port of ggml's reference quantizer and dequantizer).

* Dequantize: random ``block_mxfp4`` bytes (17 per 32 values: the E8M0 byte, then 16
  bytes whose low nibbles are elements 0-15 and high nibbles 16-31) through
  ``tcast_mx_repack`` (ggml -> ONNX) and ``tcast_mx_dequantize`` give the values of
  ``gguf.dequantize``. Both products are exact (a 2-bit significand times a power of
  two), so the values must be equal. Scale byte 255 is left out: ggml reads it as 2^128,
  tensorcast as NaN (the OCP rule). ggml's table has +0 for code 8, so zeros are compared
  by value.
* Quantize: ``tcast_mx_quantize`` (FLOOR, ggml's rule: floor(log2(amax)) - 2) then
  ``tcast_mx_repack`` (ONNX -> ggml) gives ``gguf.quantize``'s scale bytes exactly and its
  element values wherever x / scale is not a tie between two FP4 values: ggml takes the
  first nearest entry of its table (the smaller magnitude, and +0 for small negatives)
  where OCP rounds ties to even.
"""

import ctypes

import gguf
import ml_dtypes
import numpy as np
from onnx import TensorProto

import tcast
from onnxside import record
from tcast_ctypes import TCAST_MX_LAYOUT_GGML, TCAST_MX_LAYOUT_ONNX, bind
from test_mx_reference import Buffers, call, lib, opts

SEED = 20261128
MXFP4 = gguf.GGMLQuantizationType.MXFP4
ONNX_LAYOUT, GGML_LAYOUT = TCAST_MX_LAYOUT_ONNX, TCAST_MX_LAYOUT_GGML
E2M1 = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6, -0.0, -0.5, -1, -1.5, -2, -3, -4, -6])

bind(lib, ["tcast_mx_repack"])  # the header's prototype (tests/common/tcast_ctypes.py)


def ggml_to_onnx(b, blocks, rows, nb):
    """ggml bytes [rows, nb * 17] -> ONNX packed FLOAT4E2M1 [rows, 32 nb] and E8M0 scales."""
    data = np.zeros(rows * nb * 16, dtype=np.uint8)
    scales = np.zeros((rows, nb), dtype=np.uint8)
    err = tcast.tcast_error()
    status = lib.tcast_mx_repack(
        GGML_LAYOUT, b.tensor(blocks.reshape(-1), (rows, nb, 17), TensorProto.UINT8), None,
        ONNX_LAYOUT, b.tensor(data, (rows, 32 * nb), TensorProto.FLOAT4E2M1),
        b.tensor(scales.reshape(-1), (rows, nb), TensorProto.FLOAT8E8M0), None,
        ctypes.byref(err))
    if status != 0:
        raise tcast.TcastError("tcast_mx_repack", err)
    return data, scales


def onnx_to_ggml(b, data, scales, rows, nb):
    blocks = np.zeros(rows * nb * 17, dtype=np.uint8)
    err = tcast.tcast_error()
    status = lib.tcast_mx_repack(
        ONNX_LAYOUT, b.tensor(data, (rows, 32 * nb), TensorProto.FLOAT4E2M1),
        b.tensor(scales.reshape(-1), (rows, nb), TensorProto.FLOAT8E8M0),
        GGML_LAYOUT, b.tensor(blocks, (rows, nb, 17), TensorProto.UINT8), None, None,
        ctypes.byref(err))
    if status != 0:
        raise tcast.TcastError("tcast_mx_repack", err)
    return blocks.reshape(rows, nb * 17)


def test_dequantize_ggml_blocks_as_gguf_does():
    rng = np.random.default_rng(SEED)
    rows, nb = 254, 8
    blocks = rng.integers(0, 256, size=(rows, nb, 17), dtype=np.uint8)
    # Every finite scale byte (0..254), one per row; 255 is the OCP NaN, 2^128 in ggml.
    blocks[:, :, 0] = np.arange(rows, dtype=np.uint8)[:, None]
    want = gguf.dequantize(blocks.reshape(rows, nb * 17), MXFP4)
    assert want.shape == (rows, nb * 32) and want.dtype == np.float32
    b = Buffers()
    data, scales = ggml_to_onnx(b, blocks, rows, nb)
    np.testing.assert_array_equal(scales, blocks[:, :, 0])
    y = np.zeros((rows, nb * 32), dtype=np.float32)
    call(lib.tcast_mx_dequantize, b.tensor(data, y.shape, TensorProto.FLOAT4E2M1),
         b.tensor(scales.reshape(-1), scales.shape, TensorProto.FLOAT8E8M0), None,
         b.tensor(y.view(np.uint8).reshape(-1), y.shape, TensorProto.FLOAT),
         ctypes.byref(opts()))
    np.testing.assert_array_equal(y, want)
    record("ggml block_mxfp4 dequantize against gguf 0.19.0", y.size)


def test_quantize_to_ggml_blocks_as_gguf_does():
    rng = np.random.default_rng(SEED + 1)
    rows, nb = 64, 16
    mag = rng.uniform(-24, 24, size=(rows, 1))
    x = (rng.standard_normal((rows, nb * 32)) * np.exp2(mag)).astype(np.float32)
    x[0, :32] = 0.0                                    # a block of zeros
    x[1, :32] = np.float32(0.75)
    x[1, 7] = -4.0                                     # amax a power of two
    x[2, 32:64] = rng.uniform(-1, 1, 32).astype(np.float32) * np.float32(2.0 ** -100)
    want = gguf.quantize(x, MXFP4)
    assert want.shape == (rows, nb * 17)
    b = Buffers()
    data = np.zeros(rows * nb * 16, dtype=np.uint8)
    scales = np.zeros((rows, nb), dtype=np.uint8)
    call(lib.tcast_mx_quantize, b.tensor(x.view(np.uint8).reshape(-1), x.shape, TensorProto.FLOAT),
         b.tensor(data, x.shape, TensorProto.FLOAT4E2M1),
         b.tensor(scales.reshape(-1), scales.shape, TensorProto.FLOAT8E8M0), None,
         ctypes.byref(opts(rule=0)))
    got = onnx_to_ggml(b, data, scales, rows, nb).reshape(rows, nb, 17)
    want = want.reshape(rows, nb, 17)
    np.testing.assert_array_equal(got[:, :, 0], want[:, :, 0])
    nibbles = lambda q: np.concatenate([q[:, :, 1:] & 0xF, q[:, :, 1:] >> 4], axis=2)
    got_v, want_v = E2M1[nibbles(got)], E2M1[nibbles(want)]
    # x / scale at a tie between two neighbouring FP4 magnitudes: left to each rule.
    scale = np.exp2(want[:, :, 0].astype(np.float64) - 127)[:, :, None]
    q = np.abs(x.astype(np.float64).reshape(rows, nb, 32)) / scale
    tie = np.isin(q, [0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0])
    assert tie.sum() >= 31  # block 1's 0.75s at scale 1 (x / scale = 0.75)
    np.testing.assert_array_equal(got_v[~tie], want_v[~tie])
    # At the ties tensorcast rounds to even (OCP); ggml keeps the smaller magnitude.
    assert (np.abs(got_v[1, 0, [i for i in range(32) if i != 7]]) == 1.0).all()
    record("ggml block_mxfp4 quantize against gguf 0.19.0", int((~tie).sum()) + rows * nb)
