# SPDX-License-Identifier: MIT OR Apache-2.0
"""QuantizeLinear / DequantizeLinear against onnx 1.23.0's ReferenceEvaluator.

Each case builds a one-node model (onnx.helper) at an opset whose schema takes the types
(QuantizeLinear-10/13/19/21/23/24/25, DequantizeLinear the same), runs it with
``ReferenceEvaluator`` and compares tensorcast's ``tcast_quantize_linear`` /
``tcast_dequantize_linear`` output byte for byte (packed types through
``tcast.pack_codes``, written from docs/c-api.md section 4). Scales: per-tensor, per-axis
on every axis, blocked on every axis with several block sizes (uneven last blocks
included); values: random over and beyond each type's range, both zeros, exact ties,
the type's boundaries, and for the float element types NaN and infinities with saturate
on and off.

Where tensorcast and the reference compute differently (docs/semantics-quantize.md 5),
the test says how it compares:

* QuantizeLinear: the reference divides in numpy's promoted type of (x, scale) (FLOAT for
  FLOAT / FLOAT16 / BFLOAT16 / FLOAT8E8M0 mixes, FLOAT16 for FLOAT16 / FLOAT16, ...,
  DOUBLE for INT32 x), so the quotient is rounded before the element rounding; tensorcast
  is called with ``precision`` set to that type, which reproduces it, and separately,
  with no precision, against an exact division in Python integers.
* Integer targets: NaN and quotients beyond INT32 are left out (the reference's
  ``astype(int32)`` of them is the platform's, INT_MIN on x86-64).
* DequantizeLinear: the reference multiplies in FLOAT and then rounds to the output type;
  tensorcast rounds the exact product once. Elements whose FLOAT product is exact are
  compared with the reference; every element is compared with the exact product rounded
  once (in Python integers, with a rounding to FLOAT, FLOAT16 and BFLOAT16 written here).
* Float zero points: tensorcast takes only zeros (the reference's DequantizeLinear refuses
  others for FLOAT8 too); FLOAT4E2M1 cases run without one, as the reference adds it to
  the quotient (turning -0 into +0) where it ignores it for FLOAT8.
"""

import ctypes
import math

import ml_dtypes
import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

import tcast
from onnxside import record
from tcast_ctypes import bind, tcast_qdq_options

SEED = 20261128
lib = tcast.lib

# ------------------------------------------------------------------ the C binding


# The struct and prototypes as tests/common/tcast_ctypes.py builds them from the header
# (tcast puts it on the import path).
bind(lib, ["tcast_quantize_linear", "tcast_dequantize_linear", "tcast_qdq_options_init"])

BITS = {TensorProto.INT2: 2, TensorProto.UINT2: 2, TensorProto.INT4: 4, TensorProto.UINT4: 4,
        TensorProto.FLOAT4E2M1: 4, TensorProto.INT16: 16, TensorProto.UINT16: 16,
        TensorProto.INT32: 32, TensorProto.FLOAT: 32, TensorProto.FLOAT16: 16,
        TensorProto.BFLOAT16: 16}


def raw_bytes(array, code):
    """The bytes tensorcast reads for a numpy (ml_dtypes) array of ONNX type `code`."""
    bits = BITS.get(code, 8)
    flat = np.ascontiguousarray(array).reshape(-1)
    if bits < 8:
        return tcast.pack_codes(flat.view(np.uint8) & ((1 << bits) - 1), bits)
    return flat.view(np.uint8).tobytes()


def run(op, x, xcode, scale, scode, zp, ycode, axis=1, block_size=0, saturate=1,
        precision=0):
    """One tcast call; returns y's bytes (packed for the sub-byte types)."""
    keep = []

    def describe(array, code):
        data = np.frombuffer(raw_bytes(array, code), dtype=np.uint8).copy()
        dims = (ctypes.c_int64 * max(array.ndim, 1))(*array.shape)
        keep.append((data, dims))
        return tcast.tcast_tensor(ctypes.c_void_p(data.ctypes.data if data.size else None),
                                  data.size, ctypes.cast(dims, ctypes.POINTER(ctypes.c_int64)),
                                  None, array.ndim, code)

    tx, ts = describe(x, xcode), describe(scale, scode)
    tz = describe(zp, ycode if op == "Q" else xcode) if zp is not None else None
    n_out = int(np.prod(x.shape))
    out_bytes = (n_out * BITS.get(ycode, 8) + 7) // 8
    out = np.full(max(out_bytes, 1), 0xCD, dtype=np.uint8)
    dims = (ctypes.c_int64 * max(x.ndim, 1))(*x.shape)
    ty = tcast.tcast_tensor(ctypes.c_void_p(out.ctypes.data), out_bytes,
                            ctypes.cast(dims, ctypes.POINTER(ctypes.c_int64)), None, x.ndim,
                            ycode)
    opts = tcast_qdq_options()
    assert lib.tcast_qdq_options_init(ctypes.byref(opts), ctypes.sizeof(opts)) == 0
    opts.axis, opts.block_size, opts.saturate, opts.precision = axis, block_size, saturate, \
        precision
    err = tcast.tcast_error()
    fn = lib.tcast_quantize_linear if op == "Q" else lib.tcast_dequantize_linear
    status = fn(ctypes.byref(tx), ctypes.byref(ts), None if tz is None else ctypes.byref(tz),
                ctypes.byref(ty), ctypes.byref(opts), ctypes.byref(err))
    if status != 0:
        raise tcast.TcastError(fn.__name__, err)
    assert out[out_bytes:].tolist() == [0xCD] * (out.size - out_bytes) or out_bytes == 0
    return out[:out_bytes].tobytes()


# ------------------------------------------------------------------ the reference


def reference(op, opset, x, xcode, scale, scode, zp, ycode, axis, block_size, saturate,
              precision=0):
    """The ReferenceEvaluator's output of one Q or DQ node at `opset`."""
    name = "QuantizeLinear" if op == "Q" else "DequantizeLinear"
    attrs = {}
    if opset >= 13 and axis != 1:
        attrs["axis"] = axis
    if block_size:
        attrs["block_size"] = block_size
    if op == "Q" and opset >= 19 and saturate != 1:
        attrs["saturate"] = saturate
    if op == "Q" and zp is None and ycode != TensorProto.UINT8:
        attrs["output_dtype"] = ycode
    if op == "DQ" and opset >= 23 and ycode != scode:
        attrs["output_dtype"] = ycode
    if precision:
        attrs["precision"] = precision
    inputs = ["x", "s"] + (["z"] if zp is not None else [])
    node = helper.make_node(name, inputs, ["y"], **attrs)
    inits = [numpy_helper.from_array(scale, "s")]
    if zp is not None:
        inits.append(numpy_helper.from_array(zp, "z"))
    graph = helper.make_graph(
        [node], "qdq", [helper.make_tensor_value_info("x", xcode, list(x.shape))],
        [helper.make_tensor_value_info("y", ycode, list(x.shape))], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 11
    onnx.checker.check_model(model)
    with np.errstate(all="ignore"):
        (y,) = ReferenceEvaluator(model).run(None, {"x": x})
    return y


# ------------------------------------------------------------------ data

NP = {TensorProto.FLOAT: np.float32, TensorProto.FLOAT16: np.float16,
      TensorProto.BFLOAT16: ml_dtypes.bfloat16, TensorProto.INT32: np.int32,
      TensorProto.FLOAT8E8M0: ml_dtypes.float8_e8m0fnu}
QINFO = {  # ONNX type: (numpy type, first opset, (min, max) for the integers)
    TensorProto.UINT8: (np.uint8, 10, (0, 255)),
    TensorProto.INT8: (np.int8, 10, (-128, 127)),
    TensorProto.UINT16: (np.uint16, 21, (0, 65535)),
    TensorProto.INT16: (np.int16, 21, (-32768, 32767)),
    TensorProto.UINT4: (ml_dtypes.uint4, 21, (0, 15)),
    TensorProto.INT4: (ml_dtypes.int4, 21, (-8, 7)),
    TensorProto.UINT2: (ml_dtypes.uint2, 25, (0, 3)),
    TensorProto.INT2: (ml_dtypes.int2, 25, (-2, 1)),
    TensorProto.FLOAT8E4M3FN: (ml_dtypes.float8_e4m3fn, 19, None),
    TensorProto.FLOAT8E4M3FNUZ: (ml_dtypes.float8_e4m3fnuz, 19, None),
    TensorProto.FLOAT8E5M2: (ml_dtypes.float8_e5m2, 19, None),
    TensorProto.FLOAT8E5M2FNUZ: (ml_dtypes.float8_e5m2fnuz, 19, None),
    TensorProto.FLOAT4E2M1: (ml_dtypes.float4_e2m1fn, 23, None),
}

SHAPES = [(40,), (3, 37), (2, 5, 33)]
DQ_SHAPES = [(40,), (2, 3, 17)]  # the exact products are checked with fractions: fewer
BLOCKS = [1, 2, 16, 32]


def granularities(shape, opset, rng):
    """(axis, block_size, scale shape) for every granularity the opset has: per-tensor,
    per-axis on every axis (both signs), blocked on every axis with BLOCKS (opset 21+)."""
    out = [(1, 0, ())]
    if opset >= 13:
        for ax in range(len(shape)):
            if len(shape) > 1 or opset >= 21:
                out.append((ax - len(shape) if rng.random() < 0.5 else ax, 0, (shape[ax],)))
    if opset >= 21:
        for ax in range(len(shape)):
            for b in BLOCKS:
                s = list(shape)
                s[ax] = -(-shape[ax] // b)
                out.append((ax, b, tuple(s)))
    return out


def scales_for(scode, sshape, ycode, rng):
    """Random scales of type `scode`: powers of two and arbitrary values, both signs for
    the float element types (positive for the integers, as quantization uses them)."""
    n = int(np.prod(sshape)) if sshape else 1
    if scode == TensorProto.FLOAT8E8M0:
        codes = rng.integers(110, 140, n).astype(np.uint8)
        return codes.view(ml_dtypes.float8_e8m0fnu).reshape(sshape)
    mag = np.exp2(rng.uniform(-6, 4, n)) * np.where(rng.random(n) < 0.3, 1.0,
                                                   rng.uniform(0.5, 1.0, n))
    return mag.astype(NP[scode]).reshape(sshape)


def x_values(xcode, shape, ycode, scale_full, rng):
    """x: random quotients over and beyond y's range, ties, zeros; specials for floats."""
    n = int(np.prod(shape))
    info = QINFO[ycode]
    lo, hi = info[2] if info[2] else (-600.0, 600.0)
    q = rng.uniform(lo * 1.3 - 2, hi * 1.3 + 2, n)
    kind = rng.random(n)
    q = np.where(kind < 0.15, np.round(q) + 0.5, q)  # ties
    q = np.where((kind >= 0.15) & (kind < 0.3), np.round(q), q)
    q = np.where((kind >= 0.3) & (kind < 0.4), q * np.exp2(-rng.integers(2, 30, n)), q)
    x = q * scale_full.reshape(-1).astype(np.float64)
    if xcode == TensorProto.INT32:
        x = np.clip(np.round(x), -2**31, 2**31 - 1)
    with np.errstate(over="ignore"):  # beyond FLOAT16's range: inf, as intended
        x = x.astype(NP[xcode])
    x[rng.random(n) < 0.03] = 0
    if xcode != TensorProto.INT32:
        x[rng.random(n) < 0.03] = -0.0
        if info[2] is None:  # float elements: the specials
            sp = np.array([np.nan, -np.nan, np.inf, -np.inf], dtype=np.float32)
            at = rng.random(n) < 0.04
            x[at] = sp[rng.integers(0, 4, int(at.sum()))].astype(NP[xcode])
    return x.reshape(shape)


def full_scale(scale, shape, axis, block_size):
    """The scale broadcast to x's shape (for building x from quotients)."""
    s = np.asarray(scale).astype(np.float64)
    if s.size == 1:
        return np.broadcast_to(s.reshape(()), shape)
    axis = axis % len(shape)
    if not block_size:
        dims = [1] * len(shape)
        dims[axis] = s.size
        return np.broadcast_to(s.reshape(dims), shape)
    return np.repeat(s, block_size, axis=axis).take(range(shape[axis]), axis=axis)


def promoted(xcode, scode):
    """The type the reference divides in (numpy's promotion of x and scale)."""
    with np.errstate(all="ignore"):
        t = (np.zeros(1, NP[xcode]) / np.ones(1, NP[scode])).dtype
    return {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.float16): TensorProto.FLOAT16,
            np.dtype(ml_dtypes.bfloat16): TensorProto.BFLOAT16,
            np.dtype(np.float64): TensorProto.DOUBLE}[t]


def codes_of(y, ycode):
    """The reference's output as one code per element (integers in two's complement)."""
    bits = BITS.get(ycode, 8)
    raw = np.ascontiguousarray(y).reshape(-1).view(np.uint8 if y.dtype.itemsize == 1 else
                                                   np.uint16)
    return (raw.astype(np.uint32) & ((1 << bits) - 1)).astype(np.uint32)


def ours_codes(data, ycode, n):
    bits = BITS.get(ycode, 8)
    if bits == 16:
        return np.frombuffer(data, dtype=np.uint16).astype(np.uint32)
    return tcast.unpack_codes(data, bits, n).astype(np.uint32)


# ------------------------------------------------------------------ QuantizeLinear

Q_CASES = []
for _y, (_t, _since, _r) in QINFO.items():
    for _x, _s in [(TensorProto.FLOAT, TensorProto.FLOAT), (TensorProto.INT32, TensorProto.FLOAT),
                   (TensorProto.FLOAT16, TensorProto.FLOAT16),
                   (TensorProto.BFLOAT16, TensorProto.BFLOAT16),
                   (TensorProto.FLOAT, TensorProto.FLOAT16),
                   (TensorProto.FLOAT, TensorProto.FLOAT8E8M0)]:
        if _x == TensorProto.INT32 and _r is None:
            continue
        for _opset in (10, 13, 19, 21, 23, 24, 25):
            if _opset < _since or (_opset < 19 and _x != TensorProto.FLOAT
                                   and _x != TensorProto.INT32):
                continue
            if _x != _s and _s != TensorProto.FLOAT or (_x == TensorProto.INT32 and _opset < 23 and _opset >= 19):
                if _opset < 23 or (_s == TensorProto.FLOAT8E8M0 and _opset < 24):
                    continue
            Q_CASES.append((_opset, _x, _s, _y))


@pytest.mark.parametrize("opset,xcode,scode,ycode", Q_CASES,
                         ids=[f"Q{o}-{TensorProto.DataType.Name(x)}-{TensorProto.DataType.Name(s)}-"
                              f"{TensorProto.DataType.Name(y)}" for o, x, s, y in Q_CASES])
def test_quantize_linear(opset, xcode, scode, ycode):
    rng = np.random.default_rng([SEED, opset, xcode, scode, ycode])
    info = QINFO[ycode]
    compared = 0
    for shape in SHAPES:
        for axis, block, sshape in granularities(shape, opset, rng):
            scale = scales_for(scode, sshape, ycode, rng)
            x = x_values(xcode, shape, ycode, full_scale(scale, shape, axis, block), rng)
            with_zp = [None]
            if info[2] is not None:
                lo, hi = info[2]
                zp = rng.integers(lo, hi + 1, scale.size).astype(info[0]).reshape(sshape)
                with_zp.append(zp)
            elif ycode != TensorProto.FLOAT4E2M1:
                with_zp.append(np.zeros(sshape, dtype=info[0]))
            sats = [1, 0] if opset >= 19 and info[2] is None else [1]
            for zp in with_zp:
                if zp is None and opset < 21 and ycode != TensorProto.UINT8:
                    continue  # no output_dtype before opset 21: the zero point says the type
                for sat in sats:
                    if info[2] is not None:
                        # NaN, and quotients (in the reference's type) that are infinite
                        # or beyond INT32, meet the reference's astype(int32): left out.
                        pt = {TensorProto.FLOAT: np.float32, TensorProto.FLOAT16: np.float16,
                              TensorProto.BFLOAT16: ml_dtypes.bfloat16,
                              TensorProto.DOUBLE: np.float64}[promoted(xcode, scode)]
                        with np.errstate(all="ignore"):
                            qp = (x.astype(pt) / full_scale(scale, shape, axis, block)
                                  .astype(pt)).astype(np.float64)
                        keep = np.isfinite(qp) & (np.abs(qp) < 2**31)
                    else:
                        keep = np.ones(x.shape, bool)
                    want = codes_of(reference("Q", opset, x, xcode, scale, scode, zp, ycode,
                                              axis, block, sat), ycode)
                    prec = promoted(xcode, scode)
                    got = ours_codes(run("Q", x, xcode, scale, scode, zp, ycode, axis, block,
                                         sat, prec), ycode, x.size)
                    k = keep.reshape(-1)
                    bad = np.nonzero((got != want) & k)[0]
                    assert bad.size == 0, (
                        f"axis {axis} block {block} zp {zp is not None} sat {sat}: element "
                        f"{bad[0]} x={x.reshape(-1)[bad[0]]} got {got[bad[0]]:#x} want "
                        f"{want[bad[0]]:#x}")
                    compared += int(k.sum())
                    if info[2] is not None:
                        # No precision: the exact quotient, rounded once (fractions).
                        exact = ours_codes(run("Q", x, xcode, scale, scode, zp, ycode, axis,
                                               block, sat, 0), ycode, x.size)
                        fs = full_scale(scale, shape, axis, block).reshape(-1)
                        fz = (full_scale(zp.astype(np.float64), shape, axis, block).reshape(-1)
                              if zp is not None else np.zeros(x.size))
                        lo, hi = info[2]
                        bits = BITS.get(ycode, 8)
                        for i, xi in enumerate(x.reshape(-1).astype(np.float64).tolist()):
                            if math.isinf(xi):  # saturates (docs/semantics-quantize.md)
                                v = hi if xi > 0 else lo
                            else:
                                xn, xd = xi.as_integer_ratio()
                                sn, sd = float(fs[i]).as_integer_ratio()
                                # xi / fs[i] = (xn * sd) / (xd * sn), rounded half to even.
                                r = round_half_even(xn * sd, xd * sn)
                                v = min(max(r + int(fz[i]), lo), hi)
                            assert exact[i] == (v & ((1 << bits) - 1)), (xi, fs[i], v)
                        compared += x.size
    record("QuantizeLinear elements", compared)


# ------------------------------------------------------------------ DequantizeLinear


def round_half_even(num, den):
    """The integer nearest num / den (den != 0), ties to even: exact, in Python integers."""
    if den < 0:
        num, den = -num, -den
    q, r = divmod(num, den)
    if 2 * r > den or (2 * r == den and q & 1):
        q += 1
    return q


def round_bits(num, den, man_bits, min_exp, max_exp):
    """num / den (integers, den > 0) rounded to nearest even in a binary float with
    `man_bits` fraction bits and normal exponents [min_exp, max_exp] (subnormals below):
    returned as a float (exact: at most man_bits + 1 significant bits), or +-inf beyond
    the largest finite value. Exact, in Python integers."""
    if num == 0:
        return 0.0
    sign = -1.0 if num < 0 else 1.0
    a = abs(num)
    # e = floor(log2(a / den)): the bit lengths give it or one more.
    e = a.bit_length() - den.bit_length()
    if (den << e > a) if e >= 0 else (den > a << -e):
        e -= 1
    e = max(e, min_exp)
    k = e - man_bits  # the value of the last place: 2^k
    n = round_half_even(a, den << k) if k >= 0 else round_half_even(a << -k, den)
    if k >= max_exp + 1 or n >= 1 << (max_exp + 1 - k):
        return sign * math.inf
    return sign * math.ldexp(n, k)


def ratio(v):
    """A finite float or integer as (numerator, denominator), the denominator > 0."""
    return v.as_integer_ratio() if isinstance(v, float) else (int(v), 1)


OUT = {TensorProto.FLOAT: (23, -126, 127), TensorProto.FLOAT16: (10, -14, 15),
       TensorProto.BFLOAT16: (7, -126, 127)}

DQ_CASES = []
for _xq, (_t, _since, _r) in list(QINFO.items()) + [(TensorProto.INT32, (np.int32, 10, None))]:
    for _s in (TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.BFLOAT16,
               TensorProto.FLOAT8E8M0):
        for _o in (TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.BFLOAT16):
            # onnx 1.23's evaluator implements DequantizeLinear from 19 on (10 and 13 have
            # the same formula with fewer types): those are the opsets compared.
            for _opset in (19, 21, 23, 24, 25):
                if _opset < _since:
                    continue
                if _s != TensorProto.FLOAT and _opset < 19:
                    continue
                if _s == TensorProto.FLOAT8E8M0 and _opset < 24:
                    continue
                if _o != _s and _opset < 23:
                    continue
                if _s == TensorProto.FLOAT8E8M0 and _o == _s:
                    continue
                DQ_CASES.append((_opset, _xq, _s, _o))


@pytest.mark.parametrize("opset,xcode,scode,ycode", DQ_CASES,
                         ids=[f"DQ{o}-{TensorProto.DataType.Name(x)}-{TensorProto.DataType.Name(s)}-"
                              f"{TensorProto.DataType.Name(y)}" for o, x, s, y in DQ_CASES])
def test_dequantize_linear(opset, xcode, scode, ycode):
    rng = np.random.default_rng([SEED, 7, opset, xcode, scode, ycode])
    xtype = QINFO[xcode][0] if xcode in QINFO else np.int32
    rangev = QINFO[xcode][2] if xcode in QINFO else (-2**31, 2**31 - 1)
    compared = same_as_reference = 0
    for shape in DQ_SHAPES:
        for axis, block, sshape in granularities(shape, opset, rng):
            scale = scales_for(scode, sshape, xcode, rng)
            n = int(np.prod(shape))
            if rangev is None:
                x = rng.integers(0, 256, n, dtype=np.uint8).view(xtype).reshape(shape)
                if BITS.get(xcode, 8) == 4:
                    x = (rng.integers(0, 16, n).astype(np.uint8)).view(xtype).reshape(shape)
            else:
                x = rng.integers(rangev[0], rangev[1] + 1, n, dtype=np.int64).astype(xtype) \
                    .reshape(shape)
            zps = [None]
            if rangev is not None:
                zps.append(rng.integers(rangev[0], rangev[1] + 1, scale.size, dtype=np.int64)
                           .astype(xtype).reshape(sshape))
            elif xcode != TensorProto.FLOAT4E2M1:
                zps.append(np.zeros(sshape, dtype=xtype))
            for zp in zps:
                ref = reference("DQ", opset, x, xcode, scale, scode, zp, ycode, axis, block, 1)
                got = run("DQ", x, xcode, scale, scode, zp, ycode, axis, block)
                got = np.frombuffer(got, dtype={TensorProto.FLOAT: np.float32,
                                                TensorProto.FLOAT16: np.float16,
                                                TensorProto.BFLOAT16: ml_dtypes.bfloat16}[ycode])
                ref = np.asarray(ref).reshape(-1)
                assert ref.dtype == got.dtype
                fs = full_scale(scale, shape, axis, block).reshape(-1)
                fz = (full_scale(zp.astype(np.float64), shape, axis, block).reshape(-1)
                      if zp is not None else np.zeros(n))
                xv = x.reshape(-1).astype(np.float64)
                # x exactly: integers as Python ints, the float element types as floats.
                xe = (x.reshape(-1).astype(np.int64) if rangev is not None else xv).tolist()
                man, emin, emax = OUT[ycode]
                for i in range(n):
                    g = float(got[i])
                    if np.isnan(xv[i]) or np.isnan(fs[i]):
                        assert np.isnan(g), (i, xv[i], fs[i], g)
                        compared += 1
                        continue
                    if np.isinf(xv[i]):
                        w = xv[i] * fs[i]
                    else:
                        # (x - zp) * scale = (xn - zp * xd) * sn / (xd * sd), rounded once.
                        xn, xd = ratio(xe[i])
                        sn, sd = float(fs[i]).as_integer_ratio()
                        w = round_bits((xn - int(fz[i]) * xd) * sn, xd * sd, man, emin, emax)
                        if w == 0:  # the sign of a zero product, as IEEE multiplies
                            w = math.copysign(0.0, (xv[i] - fz[i]) * fs[i])
                    assert g == w and np.signbit(g) == np.signbit(w), (
                        f"axis {axis} block {block} element {i}: x={xv[i]} zp={fz[i]} "
                        f"scale={fs[i]} got {g!r} want {w!r}")
                    compared += 1
                    # Where the reference's FLOAT arithmetic is exact, it must agree.
                    if np.isfinite(xv[i]):
                        xn, xd = ratio(xe[i])
                        dn, dd = xn - int(fz[i]) * xd, xd  # x - zp, exactly
                    else:
                        dn = None
                    # (The reference converts x to FLOAT before subtracting: exact below 2^24.)
                    # The exact product (dn * sn) / (dd * sd) is a FLOAT when rounding it to
                    # FLOAT gives it back: p == round(p) as fractions, cross-multiplied.
                    exact_f32 = dn is None
                    if not exact_f32 and abs(dn) < 2**24 * dd and abs(xv[i]) < 2**24 \
                            and abs(fz[i]) < 2**24:
                        sn, sd = float(fs[i]).as_integer_ratio()
                        pn, pd = dn * sn, dd * sd
                        f = round_bits(pn, pd, 23, -126, 127)
                        if math.isfinite(f):
                            fn, fd = f.as_integer_ratio()
                            exact_f32 = fn * pd == pn * fd
                    if exact_f32:
                        r = float(ref[i])
                        assert (np.isnan(r) and np.isnan(g)) or (r == g and np.signbit(r) ==
                                                                 np.signbit(g)), (i, r, g)
                        same_as_reference += 1
    record("DequantizeLinear elements (exact product)", compared)
    record("DequantizeLinear elements also equal to the reference", same_as_reference)
