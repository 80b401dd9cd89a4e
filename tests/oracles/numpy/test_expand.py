# SPDX-License-Identifier: MIT OR Apache-2.0
"""tensorcast's Expand against numpy broadcasting (docs/semantics-expand-bitcast.md, "Expand").

ONNX Expand is bidirectional: the result is the numpy broadcast of the input shape with
``shape``, so ``shape`` may be shorter than the input or hold 1s. numpy's
``broadcast_to(x, s)`` is one-directional (``s`` must be the result). So, per case:

* shape: ``tcast_expand_shape(x.shape, s)`` and ``np.broadcast_shapes(x.shape, s)`` both
  succeed with the same result, or both fail (the library with INCOMPATIBLE_SHAPES);
* data: ``tcast_expand`` of ``x`` into that result equals
  ``np.broadcast_to(x, result).copy()`` byte for byte;
* the output shape as given: ``tcast_expand`` of ``x`` into an output of shape ``s``
  succeeds exactly when ``np.broadcast_to(x, s)`` does (then with the same bytes); when
  numpy refuses, the library fails with INCOMPATIBLE_SHAPES if the two shapes do not
  broadcast at all and INVALID_SHAPE if they do but the result is not ``s``.

Cases: a few thousand random ones, input ranks 0-6, extents drawn from {0,1,2,3,5,7},
target shapes shorter and longer than the input (mostly compatible by construction, some
drawn at random), element widths 1, 2, 4, 8 and 16 bytes, inputs contiguous, transposed,
stepped (``x[::2]`` along an axis), with a stride-0 axis (``as_strided``), or stepped and
transposed; the library gets numpy's real strides, in elements. Plus the page's examples,
the error statuses and messages, outputs past the streaming threshold and packed dtypes.

Run with ``TCAST_LIB=target/release/libtensorcast.so python -m pytest tests/oracles/numpy -q``.
"""

import ctypes

import ml_dtypes
import numpy as np
import pytest
from numpy.lib.stride_tricks import as_strided

import tcast

SEED = 20240614
CASES_PER_DTYPE = 600
EXTENTS = (0, 1, 2, 3, 5, 7)
MAX_ELEMENTS = 30_000  # per input and per output, to keep the run short
LAYOUTS = ("contiguous", "transposed", "stepped", "stride0", "stepped+transposed")

DTYPES = [
    np.dtype(np.bool_),
    np.dtype(np.uint8),
    np.dtype(np.int8),
    np.dtype(np.float16),
    np.dtype(ml_dtypes.bfloat16),
    np.dtype(np.float32),
    np.dtype(np.int32),
    np.dtype(np.float64),
    np.dtype(np.int64),
    np.dtype(np.complex64),
    np.dtype(np.complex128),
]


# ----------------------------------------------------------------------------- helpers


def _np_broadcast(a, b):
    """np.broadcast_shapes, or None when numpy refuses."""
    try:
        return tuple(np.broadcast_shapes(tuple(a), tuple(b)))
    except ValueError:
        return None


def _np_broadcast_to_ok(x, s):
    try:
        np.broadcast_to(x, s)
        return True
    except ValueError:
        return False


def _lib_shape(a, b):
    """(result, None) or (None, TcastError)."""
    try:
        return tcast.expand_shape(a, b), None
    except tcast.TcastError as e:
        return None, e


def _size(shape):
    return int(np.prod(shape, dtype=np.int64)) if shape else 1


def _random_values(rng, dtype, shape):
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    n = _size(shape) * dtype.itemsize
    raw = rng.integers(0, 256, size=n, dtype=np.uint8)
    return raw.view(dtype).reshape(shape)


def _make_input(rng, dtype, shape, layout):
    """An array of `shape` whose memory layout is `layout` (non-negative strides)."""
    rank = len(shape)
    if rank == 0 or layout == "contiguous":
        return _random_values(rng, dtype, shape)
    if layout == "stepped":
        axis = int(rng.integers(rank))
        step = int(rng.integers(2, 4))
        grown = list(shape)
        grown[axis] = max(0, shape[axis] * step - int(rng.integers(0, step)))
        base = _random_values(rng, dtype, tuple(grown))
        index = [slice(None)] * rank
        index[axis] = slice(None, None, step)
        x = base[tuple(index)]
        assert x.shape == tuple(shape), (x.shape, shape, grown, step)
        return x
    if layout in ("transposed", "stepped+transposed"):
        # Lay the array out in a permuted axis order, then view it in the wanted one.
        perm = rng.permutation(rank)
        inner = "contiguous" if layout == "transposed" else "stepped"
        base = _make_input(rng, dtype, tuple(shape[p] for p in perm), inner)
        x = base.transpose(np.argsort(perm))
        assert x.shape == tuple(shape)
        return x
    if layout == "stride0":
        axis = int(rng.integers(rank))
        small = list(shape)
        small[axis] = 1
        base = _random_values(rng, dtype, tuple(small))
        strides = list(base.strides)
        strides[axis] = 0
        return as_strided(base, shape=tuple(shape), strides=tuple(strides), writeable=False)
    raise AssertionError(layout)


def _random_target(rng, in_shape):
    """A target shape: mostly compatible by construction, sometimes random."""
    rank = int(rng.integers(0, 7))
    if rng.random() < 0.25:
        return tuple(int(rng.choice(EXTENTS)) for _ in range(rank))
    target = []
    for j in range(rank):  # j counts from the right
        if j < len(in_shape):
            d = in_shape[-1 - j]
            r = rng.random()
            if d == 1:
                target.append(int(rng.choice(EXTENTS)))
            elif r < 0.6:
                target.append(d)
            elif r < 0.95:
                target.append(1)
            else:
                target.append(int(rng.choice(EXTENTS)))
        else:
            target.append(int(rng.choice(EXTENTS)))
    return tuple(reversed(target))


def _same_bytes(got, want):
    want = np.array(want, order="C", copy=True)  # (ascontiguousarray makes 0-d 1-d)
    return got.shape == want.shape and got.tobytes() == want.tobytes()


def _check_case(x, s, failures):
    """Runs the three comparisons of the module docstring on one case."""
    label = (f"{x.dtype} shape {x.shape} strides {x.strides} "
             f"contiguous={x.flags.c_contiguous} with {s}")
    want = _np_broadcast(x.shape, s)
    got, err = _lib_shape(x.shape, s)
    if want is None:
        if err is None:
            failures.append(f"{label}: numpy refuses, tcast_expand_shape gave {got}")
        elif err.status != tcast.ERR_INCOMPATIBLE_SHAPES:
            failures.append(f"{label}: status {tcast.status_name(err.status)}: {err}")
        else:
            text = err.message
            if (f"[{','.join(map(str, x.shape))}]" not in text
                    or f"[{','.join(map(str, s))}]" not in text or "dimension" not in text):
                failures.append(f"{label}: message lacks the shapes or dimension: {text}")
    elif err is not None:
        failures.append(f"{label}: numpy gives {want}, tcast_expand_shape failed: {err}")
    elif got != want:
        failures.append(f"{label}: tcast_expand_shape {got}, numpy {want}")
    else:
        try:
            out = tcast.expand_into(x, want)
        except tcast.TcastError as e:
            failures.append(f"{label}: tcast_expand into {want} failed: {e}")
        else:
            if not _same_bytes(out, np.broadcast_to(x, want).copy()):
                failures.append(f"{label}: tcast_expand into {want} differs from numpy")

    # The output shape exactly as s: one-directional, as numpy's broadcast_to.
    if _size(s) > MAX_ELEMENTS:
        return
    ok = _np_broadcast_to_ok(x, s)
    try:
        out = tcast.expand_into(x, s)
    except tcast.TcastError as e:
        if ok:
            failures.append(f"{label}: broadcast_to works, tcast_expand into {s} failed: {e}")
        else:
            expected = (tcast.ERR_INCOMPATIBLE_SHAPES if want is None
                        else tcast.ERR_INVALID_SHAPE)
            if e.status != expected:
                failures.append(f"{label}: tcast_expand into {s}: "
                                f"{tcast.status_name(e.status)}, expected "
                                f"{tcast.status_name(expected)}: {e}")
    else:
        if not ok:
            failures.append(f"{label}: broadcast_to refuses, tcast_expand into {s} succeeded")
        elif not _same_bytes(out, np.broadcast_to(x, s).copy()):
            failures.append(f"{label}: tcast_expand into {s} differs from numpy")


def _report(failures, cases):
    assert not failures, f"{len(failures)} of {cases} cases failed:\n" + "\n".join(
        failures[:20])


# ----------------------------------------------------------------------------- tests


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_random_cases_match_numpy(dtype):
    rng = np.random.default_rng([SEED, dtype.num, dtype.itemsize])
    failures = []
    done = 0
    layouts_seen = set()
    while done < CASES_PER_DTYPE:
        in_rank = int(rng.integers(0, 7))
        in_shape = tuple(int(rng.choice(EXTENTS)) for _ in range(in_rank))
        if _size(in_shape) > MAX_ELEMENTS:
            continue
        s = _random_target(rng, in_shape)
        result = _np_broadcast(in_shape, s)
        if result is not None and _size(result) > MAX_ELEMENTS:
            continue
        layout = LAYOUTS[int(rng.integers(len(LAYOUTS)))]
        x = _make_input(rng, dtype, in_shape, layout)
        if x.size and not x.flags.c_contiguous:
            layouts_seen.add(layout)
        _check_case(x, s, failures)
        done += 1
    _report(failures, done)
    # The strided layouts were really exercised.
    assert {"transposed", "stepped", "stride0"} <= layouts_seen


def test_page_examples():
    cases = [
        ((3, 1), (1, 1), (3, 1)),
        ((3, 1), (4,), (3, 4)),
        ((3, 1), (), (3, 1)),
        ((3, 1), (2, 1, 6), (2, 3, 6)),
        ((3, 1), (3, 4), (3, 4)),
        ((), (2, 3), (2, 3)),
        ((), (), ()),
        ((1,), (0,), (0,)),
    ]
    for a, b, want in cases:
        assert np.broadcast_shapes(a, b) == want
        assert tcast.expand_shape(a, b) == want, (a, b)
    with pytest.raises(tcast.TcastError) as e:
        tcast.expand_shape((0, 1), (3, 4))
    assert e.value.status == tcast.ERR_INCOMPATIBLE_SHAPES
    assert "[0,1]" in e.value.message and "[3,4]" in e.value.message

    # The ONNX test: data [[1],[2],[3]].
    data = np.array([[1], [2], [3]], dtype=np.float32)
    for shape, result in (((2, 1, 6), (2, 3, 6)), ((3, 4), (3, 4))):
        assert tcast.expand_shape(data.shape, shape) == result
        out = tcast.expand_into(data, result)
        np.testing.assert_array_equal(out, data * np.ones(shape, dtype=np.float32))


@pytest.mark.parametrize("a,b", [((3, 2), (4, 3)), ((2,), (3,)), ((5, 3), (2, 1, 4)),
                                 ((0, 1), (3, 4)), ((2, 1), (7, 0, 3))])
def test_incompatible_pairs(a, b):
    assert _np_broadcast(a, b) is None
    for x, y in ((a, b), (b, a)):
        with pytest.raises(tcast.TcastError) as e:
            tcast.expand_shape(x, y)
        assert e.value.status == tcast.ERR_INCOMPATIBLE_SHAPES
        text = e.value.message
        assert f"[{','.join(map(str, x))}]" in text, text
        assert f"[{','.join(map(str, y))}]" in text, text
        assert "dimension" in text, text


def test_negative_extents_are_invalid_shapes():
    for a, b in (((3, 1), (-1,)), ((-2, 1), (3, 4)), ((), (2, -3))):
        with pytest.raises(tcast.TcastError) as e:
            tcast.expand_shape(a, b)
        assert e.value.status == tcast.ERR_INVALID_SHAPE
        with pytest.raises(ValueError):
            np.broadcast_shapes(a, b)


def test_one_directional_refusals():
    """Output shapes numpy's broadcast_to refuses but that broadcast with the input."""
    x = np.arange(3, dtype=np.float32).reshape(3, 1)
    for s in ((4,), (1, 1), (), (1, 3), (3,), (2, 1, 6)):
        assert _np_broadcast(x.shape, s) is not None
        assert not _np_broadcast_to_ok(x, s)
        with pytest.raises(tcast.TcastError) as e:
            tcast.expand_into(x, s)
        assert e.value.status == tcast.ERR_INVALID_SHAPE, (s, str(e.value))


def test_large_outputs_match_numpy():
    """Outputs past 16 MiB (the streaming path) and long broadcast levels."""
    rng = np.random.default_rng(SEED)
    cases = [
        (rng.random(1, dtype=np.float32), (4_300_000,)),
        (rng.random((3, 1, 5), dtype=np.float32), (3, 300_000, 5)),
        (rng.random((1, 4096)), (520, 4096)),
        (rng.random((2100, 1)), (2100, 1000)),
        (rng.random((7, 3)).T, (4, 3, 7)),
    ]
    for x, s in cases:
        assert tcast.expand_shape(x.shape, s) == s
        out = tcast.expand_into(x, s)
        assert _same_bytes(out, np.broadcast_to(x, s)), (x.shape, s)


def _expand_packed(code, bits, codes, in_shape, out_shape):
    """tcast_expand on packed codes; returns the output bytes."""
    raw = np.frombuffer(tcast.pack_codes(codes, bits), dtype=np.uint8).copy()
    in_bytes = tcast.tensor_bytes(code, in_shape)
    out_bytes = tcast.tensor_bytes(code, out_shape)
    assert raw.size == in_bytes
    out = np.full(out_bytes + 16, 0xFF, dtype=np.uint8)
    _, in_dims = tcast._shape_array(in_shape)
    _, out_dims = tcast._shape_array(out_shape)
    p64 = ctypes.POINTER(ctypes.c_int64)
    tin = tcast.tcast_tensor(ctypes.c_void_p(raw.ctypes.data if in_bytes else None), in_bytes,
                             ctypes.cast(in_dims, p64), None, len(in_shape), code)
    tout = tcast.tcast_tensor(ctypes.c_void_p(out.ctypes.data), out_bytes,
                              ctypes.cast(out_dims, p64), None, len(out_shape), code)
    err = tcast.tcast_error()
    status = tcast.lib.tcast_expand(ctypes.byref(tin), ctypes.byref(tout), ctypes.byref(err))
    if status != tcast.OK:
        raise tcast.TcastError("tcast_expand", err)
    assert (out[out_bytes:] == 0xFF).all(), "written past the output"
    return out[:out_bytes].tobytes()


@pytest.mark.parametrize("code,bits", [(tcast.INT4, 4), (tcast.UINT4, 4),
                                       (tcast.FLOAT4E2M1, 4), (tcast.INT2, 2),
                                       (tcast.FLOAT6E2M3, 6), (tcast.FLOAT6E3M2, 6)])
def test_packed_dtypes_match_numpy_on_codes(code, bits):
    """Packed expands equal numpy's broadcast of the codes, packed (high bits 0)."""
    rng = np.random.default_rng([SEED, code])
    failures = []
    for _ in range(150):
        in_shape = tuple(int(rng.choice(EXTENTS)) for _ in range(int(rng.integers(0, 4))))
        s = _random_target(rng, in_shape)
        result = _np_broadcast(in_shape, s)
        if result is None or _size(result) > MAX_ELEMENTS:
            continue
        codes = rng.integers(0, 1 << bits, size=in_shape, dtype=np.uint8)
        want = tcast.pack_codes(np.broadcast_to(codes, result), bits)
        got = _expand_packed(code, bits, codes, in_shape, result)
        if got != want:
            failures.append(f"{in_shape} -> {result}: {got.hex()} != {want.hex()}")
    _report(failures, 150)
