# SPDX-License-Identifier: MIT OR Apache-2.0
"""TCAST_BITCAST_NUMPY_VIEW against numpy's ``ndarray.view(dtype)``
(docs/semantics-expand-bitcast.md, "Bitcast"; docs/c-api.md section 6).

For every ordered pair of the byte-sized numpy dtypes with a tensorcast code (bool,
int8 .. uint64, float16, float32, float64, complex64, complex128, and ml_dtypes' bfloat16)
and many arrays of random bytes (ranks 0-4, dims 0-6, plus a few fixed shapes), each array
also taken as ``x[..., ::2]``, ``x.T``, ``x[::2]`` and with its last axis broadcast
(stride 0):

* numpy raises ValueError -> tensorcast fails with TCAST_ERR_INCOMPATIBLE_SHAPES, its
  message starting with numpy's (0-d itemsize change, divisibility, non-contiguous last
  axis);
* numpy succeeds on a C-contiguous array -> the view's shape is numpy's, its bytes (read
  at view.data, view.data_bytes of them) are the numpy view's bytes, the data pointer and
  data_bytes are the input's, strides NULL, dtype the target, shape the caller's storage;
  ``tcast_bitcast_shape`` gives the same shape;
* numpy succeeds on an array that is not C-contiguous -> tensorcast refuses with
  TCAST_ERR_UNSUPPORTED: a view carries no strides (docs/c-api.md section 6).

The input is never written. Run with
``TCAST_LIB=target/release/libtensorcast.so python -m pytest tests/oracles/numpy -q``.
"""

import collections

import ml_dtypes
import numpy as np
import pytest

import tcast

SEED = 20250214
N_RANDOM_SHAPES = 60

DTYPES = [
    np.dtype(np.bool_),
    np.dtype(np.int8),
    np.dtype(np.uint8),
    np.dtype(np.int16),
    np.dtype(np.uint16),
    np.dtype(np.int32),
    np.dtype(np.uint32),
    np.dtype(np.int64),
    np.dtype(np.uint64),
    np.dtype(np.float16),
    np.dtype(np.float32),
    np.dtype(np.float64),
    np.dtype(np.complex64),
    np.dtype(np.complex128),
    np.dtype(ml_dtypes.bfloat16),
]

# Shapes that make every outcome happen for every pair: 0-d, empty, last axes of 1, 3
# and 16 (divisible by every itemsize), an outer axis to step over.
FIXED_SHAPES = [(), (0,), (1,), (3,), (16,), (3, 4), (4, 16), (2, 3, 16), (3, 2), (2, 0),
                (0, 3), (5, 1), (1, 1, 8), (4, 6, 2)]


def _code(dtype):
    return tcast.CODES[np.dtype(dtype)]


def _random_array(rng, dtype, shape):
    count = int(np.prod(shape, dtype=np.int64))
    raw = rng.integers(0, 256, size=count * dtype.itemsize, dtype=np.uint8)
    return raw.view(dtype).reshape(shape)


def _shapes(rng):
    shapes = list(FIXED_SHAPES)
    for _ in range(N_RANDOM_SHAPES):
        rank = int(rng.integers(0, 5))
        shapes.append(tuple(int(d) for d in rng.integers(0, 7, size=rank)))
    return shapes


def _variants(x):
    """The array, then strided views of it (positive strides only)."""
    yield "x", x
    if x.ndim >= 1:
        yield "x[..., ::2]", x[..., ::2]
    if x.ndim >= 2:
        yield "x.T", x.T
        yield "x[::2]", x[::2]
    if x.ndim >= 1 and x.shape[-1] > 1 and x.size:
        # stride 0 on the last axis
        yield "broadcast last", np.broadcast_to(x[..., :1], x.shape)


def _numpy_view(x, dtype):
    try:
        return x.view(dtype), None
    except ValueError as e:
        return None, e


def _check(x, dtype, what, outcomes):
    """One array, one target dtype: tensorcast's NUMPY_VIEW against numpy."""
    from_code, to_code = _code(x.dtype), _code(dtype)
    before = x.tobytes()
    y, numpy_error = _numpy_view(x, dtype)

    if numpy_error is not None:
        with pytest.raises(tcast.TcastError) as info:
            tcast.bitcast(x, to_code, tcast.BITCAST_NUMPY_VIEW)
        assert info.value.status == tcast.ERR_INCOMPATIBLE_SHAPES, (
            f"{what}: numpy says {numpy_error!r}; tensorcast: {info.value}")
        expected = str(numpy_error).rstrip(".")
        assert info.value.message.startswith(expected), (
            f"{what}: message {info.value.message!r} does not start with numpy's {expected!r}")
        if x.flags.c_contiguous:
            with pytest.raises(tcast.TcastError) as info:
                tcast.bitcast_shape(from_code, x.shape, to_code, tcast.BITCAST_NUMPY_VIEW)
            assert info.value.status == tcast.ERR_INCOMPATIBLE_SHAPES, what
        outcomes["numpy refuses" + ("" if x.flags.c_contiguous else ", strided")] += 1
    elif not x.flags.c_contiguous:
        # numpy returns a strided view; a tcast_tensor view cannot carry strides.
        with pytest.raises(tcast.TcastError) as info:
            tcast.bitcast(x, to_code, tcast.BITCAST_NUMPY_VIEW)
        assert info.value.status == tcast.ERR_UNSUPPORTED, (
            f"{what}: numpy gives shape {y.shape}; tensorcast: {info.value}")
        outcomes["strided, refused as unsupported"] += 1
    else:
        view = tcast.bitcast(x, to_code, tcast.BITCAST_NUMPY_VIEW)
        assert view.shape == y.shape, f"{what}: shape {view.shape}, numpy {y.shape}"
        assert view.ndim == y.ndim, what
        assert view.dtype == to_code, what
        assert view.strides_null, f"{what}: view.strides is not NULL"
        assert view.shape_is_storage, f"{what}: view.shape is not shape_storage"
        # the data pointer never changes, nor does the byte count
        expected_data = x.ctypes.data if x.size else None
        assert view.input_data == expected_data, what
        assert view.data == view.input_data, f"{what}: view.data moved"
        assert view.data_bytes == view.input_bytes == x.nbytes == y.nbytes, what
        assert view.raw() == y.tobytes(), f"{what}: the view's bytes differ from numpy's"
        if y.size:
            assert y.ctypes.data == view.data, what
        assert tcast.bitcast_shape(from_code, x.shape, to_code,
                                   tcast.BITCAST_NUMPY_VIEW) == y.shape, what
        outcomes["same view"] += 1
    assert x.tobytes() == before, f"{what}: the input changed"


PAIRS = [(a, b) for a in DTYPES for b in DTYPES]


@pytest.mark.parametrize("source,target", PAIRS, ids=[f"{a.name}-{b.name}" for a, b in PAIRS])
def test_numpy_view_matches_numpy(source, target):
    rng = np.random.default_rng([SEED, DTYPES.index(source), DTYPES.index(target)])
    outcomes = collections.Counter()
    for shape in _shapes(rng):
        base = _random_array(rng, source, shape)
        for name, x in _variants(base):
            _check(x, target, f"{source.name}{list(shape)} {name} -> {target.name}", outcomes)

    # Every kind of outcome the pair allows did happen.
    assert outcomes["same view"] > 0, outcomes
    assert outcomes["strided, refused as unsupported"] > 0, outcomes
    if source.itemsize != target.itemsize:
        assert outcomes["numpy refuses"] > 0, outcomes  # the 0-d input at least
        assert outcomes["numpy refuses, strided"] > 0, outcomes  # a strided last axis
    else:
        assert outcomes["numpy refuses"] == 0 and outcomes["numpy refuses, strided"] == 0


def test_numpy_messages_for_each_refusal():
    """The three numpy refusals, each with numpy's own text leading tensorcast's."""
    cases = [
        (np.zeros((), np.int8), np.int32),                  # 0-d
        (np.zeros((3,), np.int8), np.int32),                # divisibility
        (np.zeros((3, 8), np.int8)[:, ::2], np.int16),      # last axis not contiguous
        (np.zeros((4, 3), np.int32).T, np.int8),            # transposed
    ]
    for x, dtype in cases:
        _, numpy_error = _numpy_view(x, np.dtype(dtype))
        assert numpy_error is not None
        with pytest.raises(tcast.TcastError) as info:
            tcast.bitcast(x, _code(dtype), tcast.BITCAST_NUMPY_VIEW)
        assert info.value.status == tcast.ERR_INCOMPATIBLE_SHAPES
        assert info.value.message.startswith(str(numpy_error).rstrip("."))


def test_page_examples():
    """The page's numpy examples, through both entry points."""
    cases = [
        (np.int32, (3,), np.uint8, (12,)),
        (np.int8, (2, 8), np.int32, (2, 2)),
        (np.int8, (0, 4), np.int32, (0, 1)),
        (np.int8, (4, 0), np.int32, (4, 0)),
    ]
    rng = np.random.default_rng(SEED)
    for source, shape, target, expected in cases:
        x = _random_array(rng, np.dtype(source), shape)
        assert x.view(target).shape == expected  # numpy agrees with the page
        view = tcast.bitcast(x, _code(target), tcast.BITCAST_NUMPY_VIEW)
        assert view.shape == expected
        assert view.raw() == x.view(target).tobytes()
        assert tcast.bitcast_shape(_code(source), shape, _code(target),
                                   tcast.BITCAST_NUMPY_VIEW) == expected


def test_strided_inputs_numpy_views_are_refused_as_unsupported():
    """numpy views these (strided result); a tensorcast view cannot carry strides."""
    grid = np.arange(48, dtype=np.int8).reshape(6, 8)
    cases = [
        (grid[:, :4], np.int32),       # last axis contiguous, rows strided: numpy gives [6,1]
        (grid[::2], np.int16),         # every other row
        (grid[:, ::2], np.uint8),      # same itemsize: numpy views any strides
        (grid.T, np.bool_),
        (grid[:, :1][::2], np.int8),   # last axis of extent 1 passes numpy's check
    ]
    for x, dtype in cases:
        assert not x.flags.c_contiguous
        x.view(dtype)  # numpy succeeds
        with pytest.raises(tcast.TcastError) as info:
            tcast.bitcast(x, _code(dtype), tcast.BITCAST_NUMPY_VIEW)
        assert info.value.status == tcast.ERR_UNSUPPORTED, str(info.value)
    # strides of an empty array are no strides: numpy and tensorcast both view it
    empty = np.zeros((0, 8), np.int8)[:, ::2]
    view = tcast.bitcast(empty, _code(np.int32), tcast.BITCAST_NUMPY_VIEW)
    assert view.shape == empty.view(np.int32).shape == (0, 1)
