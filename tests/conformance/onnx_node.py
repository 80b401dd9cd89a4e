#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""ONNX backend-node conformance runner for tensorcast.

Loads the tensorcast shared library with ctypes, walks the ``test_*`` directories of
onnx's backend node test data and, for the operators tensorcast implements (Cast,
CastLike, Expand, BitCast), feeds every ``test_data_set_*`` through the C ABI and
compares the result with the expected ``output_0.pb`` byte for byte. The only
tolerance is that any NaN matches any NaN of the same dtype.

Usage::

    python tests/conformance/onnx_node.py --lib target/release/libtensorcast.so
    python tests/conformance/onnx_node.py --lib target/debug/libtensorcast.so \\
        --data /path/to/onnx/backend/test/data/node --min-passed 24 -v

Options:
    --lib PATH        the built libtensorcast.so (required)
    --data DIR        the node test directory (default: the installed onnx package's
                      backend/test/data/node)
    --min-passed N    exit 1 when fewer than N directories passed (default 0), so that
                      CI notices passes that turn into skips
    --filter REGEX    run only the directories whose name matches REGEX
    -v                also print a ``PASS <dir>`` line for every passing directory

Relevant directories are those named ``test_cast_*``, ``test_castlike_*``,
``test_expand_*`` and ``test_bitcast_*``; a ``test_cast_*``, ``test_expand_*`` or
``test_bitcast_*`` directory whose model has no node of that operator is ignored.
Every ``test_castlike_*`` directory (``_expanded`` ones included) is run as CastLike:
the target dtype is the element type of the second graph input and ``saturate`` /
``round_mode`` come from whichever Cast/CastLike node in the graph carries them.

Output: ``FAIL <dir>: <reason>`` for each failing directory, ``SKIP <dir>: <reason>``
for each directory that cannot run yet (the library answered TCAST_ERR_UNSUPPORTED, or
an entry point is missing from the library), and a last line
``N passed, N failed, N skipped``. The exit status is 0 iff nothing failed and at least
``--min-passed`` directories passed.

Requires numpy and onnx (and ml_dtypes, which onnx depends on, to print values).
"""

import argparse
import ctypes
import math
import os
import re
import sys

import ml_dtypes
import numpy as np
import onnx
from onnx import TensorProto, external_data_helper

# The C ABI's structs, constants and prototypes, built from include/tensorcast.h.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from tcast_ctypes import (  # noqa: E402
    STATUS_NAMES,
    TCAST_BITCAST_ONNX,
    TCAST_DTYPE_FLOAT6E2M3,
    TCAST_DTYPE_FLOAT6E3M2,
    TCAST_ERR_UNSUPPORTED,
    TCAST_ROUND_DOWN,
    TCAST_ROUND_NEAREST,
    TCAST_ROUND_UP,
    load_library,
    tcast_error,
    tcast_string,
    tcast_string_arena,
    tcast_tensor,
)

# ---------------------------------------------------------------------------
# dtypes

DT = TensorProto  # the dtype codes are ONNX's TensorProto.DataType values
FLOAT6E2M3 = TCAST_DTYPE_FLOAT6E2M3  # not (yet) in onnx's enum
FLOAT6E3M2 = TCAST_DTYPE_FLOAT6E3M2

DTYPE_NAMES = {value: name for name, value in TensorProto.DataType.items()}
DTYPE_NAMES.update({FLOAT6E2M3: "FLOAT6E2M3", FLOAT6E3M2: "FLOAT6E3M2"})

# bits per element in tensorcast's memory layout (STRING is handled apart)
DTYPE_BITS = {
    DT.FLOAT: 32, DT.UINT8: 8, DT.INT8: 8, DT.UINT16: 16, DT.INT16: 16, DT.INT32: 32,
    DT.INT64: 64, DT.BOOL: 8, DT.FLOAT16: 16, DT.DOUBLE: 64, DT.UINT32: 32, DT.UINT64: 64,
    DT.COMPLEX64: 64, DT.COMPLEX128: 128, DT.BFLOAT16: 16, DT.FLOAT8E4M3FN: 8,
    DT.FLOAT8E4M3FNUZ: 8, DT.FLOAT8E5M2: 8, DT.FLOAT8E5M2FNUZ: 8, DT.UINT4: 4, DT.INT4: 4,
    DT.FLOAT4E2M1: 4, DT.FLOAT8E8M0: 8, DT.UINT2: 2, DT.INT2: 2, FLOAT6E2M3: 6, FLOAT6E3M2: 6,
}
SUB_BYTE = {dtype for dtype, bits in DTYPE_BITS.items() if bits < 8}
SIGNED_INTS = {DT.INT8, DT.INT16, DT.INT32, DT.INT64, DT.INT4, DT.INT2}

# how a value is shown in a failure message: numpy / ml_dtypes type of the element
# (complex types are compared and shown per component)
VALUE_TYPES = {
    DT.FLOAT: np.float32, DT.DOUBLE: np.float64, DT.FLOAT16: np.float16,
    DT.COMPLEX64: np.float32, DT.COMPLEX128: np.float64,
    DT.BFLOAT16: ml_dtypes.bfloat16, DT.FLOAT8E4M3FN: ml_dtypes.float8_e4m3fn,
    DT.FLOAT8E4M3FNUZ: ml_dtypes.float8_e4m3fnuz, DT.FLOAT8E5M2: ml_dtypes.float8_e5m2,
    DT.FLOAT8E5M2FNUZ: ml_dtypes.float8_e5m2fnuz, DT.FLOAT8E8M0: ml_dtypes.float8_e8m0fnu,
    DT.FLOAT4E2M1: ml_dtypes.float4_e2m1fn, FLOAT6E2M3: ml_dtypes.float6_e2m3fn,
    FLOAT6E3M2: ml_dtypes.float6_e3m2fn,
}

# which element codes are NaN, per float format (formats without NaN are absent)
NAN_CODES = {
    DT.FLOAT: lambda c: (c & 0x7FFFFFFF) > 0x7F800000,
    DT.COMPLEX64: lambda c: (c & 0x7FFFFFFF) > 0x7F800000,
    DT.DOUBLE: lambda c: (c & 0x7FFFFFFFFFFFFFFF) > 0x7FF0000000000000,
    DT.COMPLEX128: lambda c: (c & 0x7FFFFFFFFFFFFFFF) > 0x7FF0000000000000,
    DT.FLOAT16: lambda c: (c & 0x7FFF) > 0x7C00,
    DT.BFLOAT16: lambda c: (c & 0x7FFF) > 0x7F80,
    DT.FLOAT8E4M3FN: lambda c: (c & 0x7F) == 0x7F,
    DT.FLOAT8E4M3FNUZ: lambda c: c == 0x80,
    DT.FLOAT8E5M2: lambda c: (c & 0x7F) > 0x7C,
    DT.FLOAT8E5M2FNUZ: lambda c: c == 0x80,
    DT.FLOAT8E8M0: lambda c: c == 0xFF,
}

ROUND_MODES = {"up": TCAST_ROUND_UP, "down": TCAST_ROUND_DOWN, "nearest": TCAST_ROUND_NEAREST}
UNSUPPORTED = TCAST_ERR_UNSUPPORTED


def dtype_name(dtype):
    return DTYPE_NAMES.get(dtype, f"dtype {dtype}")


def element_count(shape):
    return math.prod(shape)


def packed_size(dtype, count):
    """Bytes a contiguous tensor of `count` elements takes in tensorcast's layout."""
    return (count * DTYPE_BITS[dtype] + 7) // 8


# ---------------------------------------------------------------------------
# TensorProto -> tensorcast bytes


class HostTensor:
    """A tensor in tensorcast's layout: `data` is bytes, or a list of bytes for STRING."""

    def __init__(self, dtype, shape, data):
        self.dtype = dtype
        self.shape = list(shape)
        self.data = data

    @property
    def count(self):
        return element_count(self.shape)


def _int_field_bytes(values, storage):
    """Typed-field integers (or bit patterns) reduced to the storage width, little-endian."""
    width = np.dtype(storage).itemsize * 8
    masked = np.array(values, dtype=np.int64).astype(np.uint64) & np.uint64((1 << width) - 1)
    return masked.astype(storage).tobytes()


def _clear_padding(dtype, count, data):
    """Zero the unused high bits of the last byte of a packed sub-byte tensor."""
    used_bits = count * DTYPE_BITS[dtype] % 8
    if dtype not in SUB_BYTE or not used_bits or not data:
        return data
    return data[:-1] + bytes([data[-1] & ((1 << used_bits) - 1)])


def tensor_to_bytes(proto, base_dir=""):
    """Convert a TensorProto to (dtype, shape, data) in tensorcast's memory layout.

    data is bytes (packed for the sub-byte dtypes), or a list of byte strings for STRING.
    raw_data is already little-endian and packed exactly as tensorcast packs: INT4, UINT4
    and FLOAT4E2M1 two per byte, INT2 and UINT2 four per byte, element 0 in the lowest
    bits. In int32_data, 8/16-bit floats hold their bit patterns, and each entry of a
    4-bit or 2-bit type holds one packed byte (FLOAT6, which onnx does not define yet, is
    read the same way: raw_data as tensorcast's bit stream, int32_data as packed bytes).
    """
    dtype = proto.data_type
    shape = list(proto.dims)
    count = element_count(shape)
    if dtype == DT.STRING:
        strings = list(proto.string_data)
        if len(strings) != count:
            raise ValueError(f"STRING tensor has {len(strings)} strings for shape {shape}")
        return dtype, shape, strings
    if dtype not in DTYPE_BITS:
        raise ValueError(f"unknown tensor dtype {dtype}")
    if external_data_helper.uses_external_data(proto):
        external_data_helper.load_external_data_for_tensor(proto, base_dir)

    if proto.HasField("raw_data"):
        data = proto.raw_data
    elif dtype == DT.FLOAT or dtype == DT.COMPLEX64:
        data = np.array(proto.float_data, dtype="<f4").tobytes()
    elif dtype == DT.DOUBLE or dtype == DT.COMPLEX128:
        data = np.array(proto.double_data, dtype="<f8").tobytes()
    elif dtype == DT.INT64:
        data = np.array(proto.int64_data, dtype="<i8").tobytes()
    elif dtype in (DT.UINT32, DT.UINT64):
        storage = "<u4" if dtype == DT.UINT32 else "<u8"
        data = np.array(proto.uint64_data, dtype=np.uint64).astype(storage).tobytes()
    elif dtype in (DT.INT32, DT.UINT16, DT.INT16, DT.FLOAT16, DT.BFLOAT16):
        data = _int_field_bytes(proto.int32_data, "<u4" if dtype == DT.INT32 else "<u2")
    else:  # 8-bit types and BOOL: one element per entry; sub-byte types: one packed byte
        data = _int_field_bytes(proto.int32_data, "u1")

    expected = packed_size(dtype, count)
    if len(data) != expected:
        raise ValueError(
            f"{dtype_name(dtype)} tensor of shape {shape} has {len(data)} bytes, "
            f"expected {expected}")
    return dtype, shape, _clear_padding(dtype, count, bytes(data))


def load_tensor(path):
    proto = TensorProto()
    with open(path, "rb") as f:
        proto.ParseFromString(f.read())
    return HostTensor(*tensor_to_bytes(proto, os.path.dirname(path)))


# ---------------------------------------------------------------------------
# comparison


def element_codes(dtype, data, count):
    """The bit pattern of every element (per component for complex) as uint64."""
    bits = DTYPE_BITS[dtype]
    if dtype in SUB_BYTE:
        stream = np.unpackbits(np.frombuffer(data, dtype=np.uint8), bitorder="little")
        fields = stream[: count * bits].reshape(count, bits).astype(np.uint64)
        return (fields << np.arange(bits, dtype=np.uint64)).sum(axis=1, dtype=np.uint64)
    if dtype in (DT.COMPLEX64, DT.COMPLEX128):
        bits //= 2
    return np.frombuffer(data, dtype=f"<u{bits // 8}").astype(np.uint64)


def describe(dtype, code):
    """An element shown as its bytes (or bits) in hex and its value."""
    code = int(code)
    bits = DTYPE_BITS[dtype]
    if dtype in (DT.COMPLEX64, DT.COMPLEX128):
        bits //= 2
    if dtype in SUB_BYTE:
        shown = f"[bits 0x{code:0{(bits + 3) // 4}x}]"
    else:
        shown = "[" + " ".join(f"{b:02x}" for b in code.to_bytes(bits // 8, "little")) + "]"
    if dtype in VALUE_TYPES:
        storage = np.uint8 if bits <= 8 else np.dtype(f"<u{bits // 8}")
        value = np.array([code], dtype=storage).view(VALUE_TYPES[dtype])[0]
        value = repr(float(value))
    elif dtype == DT.BOOL:
        value = str(bool(code))
    elif dtype in SIGNED_INTS and code >= 1 << (bits - 1):
        value = str(code - (1 << bits))
    else:
        value = str(code)
    return f"{shown} {value}"


def position(shape, flat_index):
    if len(shape) <= 1:
        return f"element {flat_index}"
    return f"element {flat_index} {tuple(int(i) for i in np.unravel_index(flat_index, shape))}"


def compare(expected, dtype, shape, data):
    """None when (dtype, shape, data) matches the expected HostTensor, else the reason."""
    if dtype != expected.dtype:
        return f"output dtype {dtype_name(dtype)}, expected {dtype_name(expected.dtype)}"
    if list(shape) != expected.shape:
        return f"output shape {list(shape)}, expected {expected.shape}"
    if dtype == DT.STRING:
        for i, (want, got) in enumerate(zip(expected.data, data)):
            if want != got:
                return f"{position(shape, i)}: expected {want!r}, got {got!r}"
        return None
    if len(data) != len(expected.data):
        return f"output has {len(data)} bytes, expected {len(expected.data)}"
    want = element_codes(dtype, expected.data, expected.count)
    got = element_codes(dtype, data, expected.count)
    differ = want != got
    if dtype in NAN_CODES:
        is_nan = NAN_CODES[dtype]
        differ &= ~(is_nan(want) & is_nan(got))
    if differ.any():
        i = int(np.argmax(differ))
        element = i // 2 if dtype in (DT.COMPLEX64, DT.COMPLEX128) else i
        part = ("", " real", " imag")[0 if element == i else 1 + i % 2]
        return (f"{position(shape, element)}{part}: expected {describe(dtype, want[i])}, "
                f"got {describe(dtype, got[i])}")
    if dtype in SUB_BYTE and data[-1:] != expected.data[-1:]:
        return f"unused high bits of the last byte are not 0: got 0x{data[-1]:02x}"
    return None


# ---------------------------------------------------------------------------
# the C ABI


# The entry points the runner calls, bound with the header's prototypes when the library
# has them.
ENTRY_POINTS = [
    "tcast_status_name", "tcast_tensor_bytes", "tcast_cast_options_default", "tcast_cast",
    "tcast_string_max_bytes", "tcast_cast_to_strings", "tcast_expand_shape", "tcast_expand",
    "tcast_bitcast",
]


class Skip(Exception):
    """The directory cannot run yet."""


class Fail(Exception):
    """The directory ran and tensorcast got it wrong."""


def int64_array(values):
    """A C int64 array (never a NULL pointer, even for rank 0)."""
    return (ctypes.c_int64 * max(len(values), 1))(*values)


class CTensor:
    """A tcast_tensor and the ctypes buffers it points into (kept alive with it)."""

    def __init__(self, dtype, shape, data=None, nbytes=None):
        self.shape_array = int64_array(shape)
        count = element_count(shape)
        if dtype == DT.STRING:
            self.views = (tcast_string * max(count, 1))()
            self.keep = []
            for i, text in enumerate(data or []):
                buffer = ctypes.create_string_buffer(text, max(len(text), 1))
                self.keep.append(buffer)
                self.views[i] = tcast_string(ctypes.addressof(buffer), len(text))
            self.buffer, nbytes = self.views, count * ctypes.sizeof(tcast_string)
        elif data is not None:
            nbytes = len(data)
            self.buffer = ctypes.create_string_buffer(bytes(data), max(nbytes, 1))
        else:  # an output: prefilled so that bytes the library leaves alone show up
            self.buffer = ctypes.create_string_buffer(b"\xa5" * nbytes, max(nbytes, 1))
        self.struct = tcast_tensor(ctypes.addressof(self.buffer), nbytes, self.shape_array,
                                  None, len(shape), dtype)

    @property
    def ref(self):
        return ctypes.byref(self.struct)

    def contents(self):
        return ctypes.string_at(self.struct.data, self.struct.data_bytes)

    def strings(self):
        count = element_count(list(self.shape_array[: self.struct.ndim]))
        return [ctypes.string_at(v.data, v.len) if v.len else b""
                for v in self.views[:count]]


class Library:
    """The tensorcast shared library; entry points missing from it make the tests SKIP."""

    def __init__(self, path):
        self.cdll = load_library(path, ENTRY_POINTS, skip_missing=True)

    def fn(self, name):
        if not hasattr(self.cdll, name):
            raise Skip(f"{name} not in library")
        return getattr(self.cdll, name)

    def status_name(self, status):
        if hasattr(self.cdll, "tcast_status_name"):
            name = self.cdll.tcast_status_name(status)
            if name:
                return name.decode("utf-8", "replace")
        return STATUS_NAMES.get(status, f"status {status}")

    def call(self, name, *args):
        """Call a fallible entry point; SKIP on TCAST_ERR_UNSUPPORTED, FAIL on other errors."""
        err = tcast_error()
        status = self.fn(name)(*args, ctypes.byref(err))
        if status == 0:
            return
        message = err.message.decode("utf-8", "replace")
        where = f" (element {err.index})" if err.index >= 0 else ""
        text = f"{name}: {self.status_name(status)}: {message}{where}"
        if err.status != status:
            text += f" [err.status is {err.status}, returned {status}]"
        raise Skip(text) if status == UNSUPPORTED else Fail(text)

    def output(self, dtype, shape):
        """A prefilled output tensor sized by tcast_tensor_bytes (checked against ours)."""
        nbytes = ctypes.c_uint64()
        self.call("tcast_tensor_bytes", dtype, int64_array(shape), len(shape),
                  ctypes.byref(nbytes))
        want = packed_size(dtype, element_count(shape))
        if nbytes.value != want:
            raise Fail(f"tcast_tensor_bytes({dtype_name(dtype)}, {shape}) = {nbytes.value}, "
                       f"expected {want}")
        return CTensor(dtype, shape, nbytes=nbytes.value)


# ---------------------------------------------------------------------------
# the operators


def attribute(node, name):
    for attr in node.attribute:
        if attr.name == name:
            return onnx.helper.get_attribute_value(attr)
    return None


def single_node(model, op_type):
    """The model's node of op_type; None when there is none (the dir is ignored)."""
    nodes = [node for node in model.graph.node if node.op_type == op_type]
    if not nodes:
        return None
    if len(model.graph.node) != 1:
        raise Skip(f"graph has {len(model.graph.node)} nodes, expected a single {op_type}")
    return nodes[0]


def cast_plan(name, model):
    """(target dtype, saturate, round_mode code) for a Cast or CastLike dir, or None."""
    if name.startswith("test_castlike_"):
        inputs = model.graph.input
        if len(inputs) < 2:
            raise Skip("CastLike model has fewer than two graph inputs")
        to = inputs[1].type.tensor_type.elem_type
        nodes = [n for n in model.graph.node if n.op_type in ("Cast", "CastLike")]
    else:
        node = single_node(model, "Cast")
        if node is None:
            return None
        to, nodes = attribute(node, "to"), [node]
    saturate, round_mode = 1, "up"
    for node in nodes:
        if attribute(node, "saturate") is not None:
            saturate = attribute(node, "saturate")
        if attribute(node, "round_mode") is not None:
            round_mode = attribute(node, "round_mode")
    if isinstance(round_mode, bytes):
        round_mode = round_mode.decode()
    if round_mode not in ROUND_MODES:
        raise Skip(f"round_mode {round_mode!r} unknown to the runner")
    return to, saturate, ROUND_MODES[round_mode]


def run_cast(lib, plan, inputs, expected):
    to, saturate, round_mode = plan
    src = inputs[0]
    options = lib.fn("tcast_cast_options_default")()
    options.saturate, options.round_mode = saturate, round_mode
    source = CTensor(src.dtype, src.shape, src.data)
    if to == DT.STRING and src.dtype != DT.STRING:  # numeric -> STRING formats into an arena
        max_bytes = lib.fn("tcast_string_max_bytes")(src.dtype)
        arena_buffer = ctypes.create_string_buffer(max(src.count * max_bytes, 1))
        arena = tcast_string_arena(ctypes.addressof(arena_buffer), src.count * max_bytes, 0)
        out = CTensor(DT.STRING, src.shape)
        lib.call("tcast_cast_to_strings", source.ref, out.ref, ctypes.byref(arena),
                 ctypes.byref(options))
        return compare(expected, DT.STRING, src.shape, out.strings())
    if to == DT.STRING:  # STRING -> STRING copies the views
        out = CTensor(DT.STRING, src.shape)
        lib.call("tcast_cast", source.ref, out.ref, ctypes.byref(options))
        return compare(expected, to, src.shape, out.strings())
    out = lib.output(to, src.shape)
    lib.call("tcast_cast", source.ref, out.ref, ctypes.byref(options))
    return compare(expected, to, src.shape, out.contents())


def run_expand(lib, plan, inputs, expected):
    data, shape = inputs[0], inputs[1]
    if shape.dtype != DT.INT64:
        raise Fail(f"shape input is {dtype_name(shape.dtype)}, expected INT64")
    for name in ("tcast_expand_shape", "tcast_expand"):
        lib.fn(name)  # SKIP unless both are in the library
    target = [int(v) for v in np.frombuffer(shape.data, dtype="<i8")]
    capacity = max(len(data.shape), len(target), 1)
    out_shape = (ctypes.c_int64 * capacity)()
    out_ndim = ctypes.c_int32()
    lib.call("tcast_expand_shape", int64_array(data.shape), len(data.shape),
             int64_array(target), len(target), out_shape, capacity, ctypes.byref(out_ndim))
    result_shape = list(out_shape[: out_ndim.value])
    if result_shape != expected.shape:
        raise Fail(f"tcast_expand_shape({data.shape}, {target}) = {result_shape}, "
                   f"expected {expected.shape}")
    source = CTensor(data.dtype, data.shape, data.data)
    if data.dtype == DT.STRING:
        out = CTensor(DT.STRING, result_shape)
        lib.call("tcast_expand", source.ref, out.ref)
        return compare(expected, DT.STRING, result_shape, out.strings())
    out = lib.output(data.dtype, result_shape)
    lib.call("tcast_expand", source.ref, out.ref)
    return compare(expected, data.dtype, result_shape, out.contents())


def run_bitcast(lib, to, inputs, expected):
    src = inputs[0]
    source = CTensor(src.dtype, src.shape, src.data)
    view = tcast_tensor()
    capacity = len(src.shape) + 1
    storage = (ctypes.c_int64 * capacity)()
    lib.call("tcast_bitcast", source.ref, to, TCAST_BITCAST_ONNX, ctypes.byref(view),
             storage, capacity)
    if view.data != source.struct.data:
        raise Fail("the view's data does not point at the input's data")
    if view.strides:
        raise Fail("the view has strides; a bitcast view must be contiguous")
    if not 0 <= view.ndim <= capacity:
        raise Fail(f"the view's ndim is {view.ndim}")
    return compare(expected, view.dtype, list(storage[: view.ndim]),
                   ctypes.string_at(view.data, view.data_bytes))


def plan_for(name, model):
    """(runner, plan) for a relevant directory, or None if it is to be ignored."""
    if name.startswith(("test_cast_", "test_castlike_")):
        plan = cast_plan(name, model)
        return None if plan is None else (run_cast, plan)
    if name.startswith("test_expand_"):
        return None if single_node(model, "Expand") is None else (run_expand, None)
    if name.startswith("test_bitcast_"):
        node = single_node(model, "BitCast")
        return None if node is None else (run_bitcast, attribute(node, "to"))
    return None


def numbered(directory, prefix):
    """Paths of prefix_0.pb, prefix_1.pb, ... in order."""
    files = [f for f in os.listdir(directory) if f.startswith(prefix) and f.endswith(".pb")]
    files.sort(key=lambda f: int(f[len(prefix):-3]))
    return [os.path.join(directory, f) for f in files]


def declare(tensors, values):
    """Gives each tensor the element type the model declares for it.

    Older onnx releases (1.18.0) store BFLOAT16 test data as UINT16 tensors holding the
    bit patterns; the model's graph inputs and outputs say what they really are. Only a
    same-width storage type is reinterpreted; anything else is a real mismatch.
    """
    for tensor, value in zip(tensors, values):
        declared = value.type.tensor_type.elem_type
        if not declared or declared == tensor.dtype:
            continue
        if tensor.dtype == DT.UINT16 and declared == DT.BFLOAT16:
            tensor.dtype = declared
        else:
            raise Fail(f"{value.name} is declared {dtype_name(declared)} but its data is "
                       f"{dtype_name(tensor.dtype)}")


def run_dir(lib, path, name):
    """('PASS' | 'FAIL' | 'SKIP', reason) for one directory, or None if it is ignored."""
    try:
        model = onnx.load(os.path.join(path, "model.onnx"))
        chosen = plan_for(name, model)
        if chosen is None:
            return None
        runner, plan = chosen
        data_sets = sorted(d for d in os.listdir(path) if d.startswith("test_data_set_"))
        if not data_sets:
            raise Fail("no test_data_set_* directory")
        skipped = None
        for data_set in data_sets:
            directory = os.path.join(path, data_set)
            inputs = [load_tensor(p) for p in numbered(directory, "input_")]
            outputs = [load_tensor(p) for p in numbered(directory, "output_")]
            declare(inputs, model.graph.input)
            declare(outputs, model.graph.output)
            if not inputs or len(outputs) != 1:
                raise Fail(f"{data_set}: expected inputs and one output, found "
                           f"{len(inputs)} inputs and {len(outputs)} outputs")
            try:
                reason = runner(lib, plan, inputs, outputs[0])
            except Skip as skip:
                skipped = skipped or skip
                continue
            if reason is not None:
                prefix = f"{data_set}: " if len(data_sets) > 1 else ""
                return "FAIL", prefix + reason
        if skipped is not None:
            return "SKIP", str(skipped)
        return "PASS", None
    except Skip as skip:
        return "SKIP", str(skip)
    except Fail as fail:
        return "FAIL", str(fail)
    except Exception as error:  # a bad file or a runner bug: never silently a pass
        return "FAIL", f"runner error: {type(error).__name__}: {error}"


RELEVANT = ("test_cast_", "test_castlike_", "test_expand_", "test_bitcast_")


def default_data_dir():
    return os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "node")


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Run onnx's backend node tests for Cast, CastLike, Expand and BitCast "
                    "against libtensorcast.")
    parser.add_argument("--lib", required=True, help="path to libtensorcast.so")
    parser.add_argument("--data", default=default_data_dir(),
                        help="onnx backend node test dir (default: %(default)s)")
    parser.add_argument("--min-passed", type=int, default=0,
                        help="exit 1 if fewer than N dirs passed")
    parser.add_argument("--filter", default=None, metavar="REGEX",
                        help="run only the dirs whose name matches REGEX (re.search)")
    parser.add_argument("-v", dest="verbose", action="store_true",
                        help="print a line per passing dir too")
    args = parser.parse_args(argv)

    try:
        lib = Library(args.lib)
    except OSError as error:
        print(f"error: cannot load {args.lib}: {error}", file=sys.stderr)
        return 2
    if not os.path.isdir(args.data):
        print(f"error: {args.data} is not a directory", file=sys.stderr)
        return 2

    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    for name in sorted(os.listdir(args.data)):
        path = os.path.join(args.data, name)
        if not name.startswith(RELEVANT) or not os.path.isdir(path):
            continue
        if args.filter and not re.search(args.filter, name):
            continue
        result = run_dir(lib, path, name)
        if result is None:
            continue
        outcome, reason = result
        counts[outcome] += 1
        if outcome != "PASS":
            print(f"{outcome} {name}: {reason}", flush=True)
        elif args.verbose:
            print(f"PASS {name}", flush=True)

    passed, failed, skipped = counts["PASS"], counts["FAIL"], counts["SKIP"]
    if passed < args.min_passed:
        print(f"error: {passed} dirs passed, --min-passed requires {args.min_passed}",
              file=sys.stderr, flush=True)
    print(f"{passed} passed, {failed} failed, {skipped} skipped", flush=True)
    return 0 if failed == 0 and passed >= args.min_passed else 1


if __name__ == "__main__":
    sys.exit(main())
