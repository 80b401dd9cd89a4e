# SPDX-License-Identifier: MIT OR Apache-2.0
"""Runs onnx backend node tests through onnxruntime, with or without tensorcast-ort.

Each test directory's inputs become initializers of its model (exact bytes for every
dtype, packed ones included, which onnxruntime's Python API cannot take from numpy), the
model runs with graph optimizations off (so that no Cast is folded or removed), and the
output is read through an I/O binding onto a numpy buffer, so its bytes are compared as
they are. The comparison is the conformance runner's (tests/conformance/onnx_node.py):
byte for byte, any NaN matching any NaN of the same dtype.
"""

import ctypes
import functools
import gc
import glob
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "tests", "conformance"))

import onnx_node  # noqa: E402  (the conformance runner's loading and comparison)

PREFIXES = ("test_cast_", "test_castlike_", "test_expand_", "test_quantizelinear", "test_dequantizelinear")
STORAGE = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


def library():
    """The built libtensorcast_ort.so (TCAST_ORT_LIB, or the crate's release build)."""
    path = os.environ.get("TCAST_ORT_LIB") or os.path.join(
        ROOT, "integrations", "onnxruntime", "target", "release", "libtensorcast_ort.so")
    if not os.path.exists(path):
        raise FileNotFoundError(f"{path} is not built: cargo build --release in integrations/onnxruntime")
    return path


def onnx122_dirs():
    """The Cast, CastLike, Expand, QuantizeLinear and DequantizeLinear node test dirs of the
    installed onnx (1.22)."""
    base = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "node")
    return sorted(d for d in glob.glob(os.path.join(base, "test_*")) if os.path.basename(d).startswith(PREFIXES))


def onnx118_string_dirs():
    """onnx 1.18's STRING Cast dirs, extracted by scripts/test-ort.sh (ONNX118_NODE_DATA)."""
    base = os.environ.get("ONNX118_NODE_DATA") or os.path.join(
        ROOT, "build", "onnx-1.18.0", "data", "onnx", "backend", "test", "data", "node")
    dirs = sorted(d for d in glob.glob(os.path.join(base, "test_*"))
                  if os.path.basename(d).startswith(PREFIXES) and "STRING" in os.path.basename(d))
    if not dirs:
        raise FileNotFoundError(f"no onnx 1.18 STRING node test dirs under {base}")
    return dirs


EP_NAME = "TensorcastExecutionProvider"
_registered = []


def ep_devices():
    """The TensorcastExecutionProvider's devices, after registering the library with this
    process's onnxruntime environment once (as a user does)."""
    if not _registered:
        ort.register_execution_provider_library("tensorcast", library())
        _registered.append(True)
    devices = [d for d in ort.get_ep_devices() if d.ep_name == EP_NAME]
    if not devices:
        raise RuntimeError(f"{library()} registered, but onnxruntime lists no {EP_NAME} device")
    return devices


def session_options(with_library, threads=1, level=ort.GraphOptimizationLevel.ORT_DISABLE_ALL,
                    take_all=False):
    """Session options with `threads` intra-op threads and optimization `level`, with
    tensorcast-ort's execution provider added when `with_library` (the one place that
    says how): onnxruntime then runs the Cast, CastLike and Expand nodes on tensorcast
    (but the small ones its own kernels run to the same bytes, unless `take_all`: the
    provider option leave_small_nodes = "0") and the rest on its CPU provider."""
    so = ort.SessionOptions()
    so.graph_optimization_level = level
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.log_severity_level = 3
    if with_library:
        so.add_provider_for_devices(ep_devices(), {"leave_small_nodes": "0"} if take_all else {})
    return so


def session(model_bytes, with_library, threads=1, level=ort.GraphOptimizationLevel.ORT_DISABLE_ALL,
            take_all=False):
    return ort.InferenceSession(model_bytes, session_options(with_library, threads, level, take_all))


def bound_output(dtype, shape):
    """A zeroed numpy buffer and an OrtValue of `dtype` over it (packed types use its head)."""
    bits = onnx_node.DTYPE_BITS[dtype]
    buf = np.zeros(shape, STORAGE.get(bits, np.uint8))
    return buf, ort.OrtValue.ortvalue_from_numpy_with_onnx_type(buf, dtype)


def run_set(model, set_dir, with_library):
    """None when the model gives test_data_set `set_dir`'s expected output, else why not."""
    model = onnx.ModelProto.FromString(model.SerializeToString())
    for i, path in enumerate(sorted(glob.glob(os.path.join(set_dir, "input_*.pb")))):
        proto = onnx.TensorProto()
        with open(path, "rb") as f:
            proto.ParseFromString(f.read())
        proto.name = model.graph.input[i].name
        model.graph.initializer.append(proto)
    # The inputs stay graph inputs, whose initializers are only defaults: the nodes are not
    # of constants, which the execution provider leaves to onnxruntime's constant folding
    # (and, unoptimized, to its CPU provider).
    expected = onnx_node.load_tensor(os.path.join(set_dir, "output_0.pb"))
    out_name = model.graph.output[0].name
    # With the library, tensorcast runs every node it has a kernel for, the small ones
    # onnxruntime would run to the same bytes included.
    sess = session(model.SerializeToString(), with_library, take_all=True)
    if expected.dtype == onnx.TensorProto.STRING:
        got = sess.run([out_name], {})[0]
        data = [s.encode("utf-8") if isinstance(s, str) else bytes(s) for s in got.ravel()]
        return onnx_node.compare(expected, onnx.TensorProto.STRING, list(got.shape), data)
    buf, value = bound_output(expected.dtype, expected.shape)
    binding = sess.io_binding()
    binding.bind_ortvalue_output(out_name, value)
    sess.run_with_iobinding(binding)
    shape = binding.get_outputs()[0].shape()
    data = buf.tobytes()[: len(expected.data)]
    return onnx_node.compare(expected, expected.dtype, shape, data)


def run_dir(test_dir, with_library):
    """None when every test_data_set of `test_dir` passes, else the first failure."""
    model = onnx.load(os.path.join(test_dir, "model.onnx"))
    for set_dir in sorted(glob.glob(os.path.join(test_dir, "test_data_set_*"))):
        try:
            reason = run_set(model, set_dir, with_library)
        except Exception as e:  # onnxruntime's refusals are failures with its message
            reason = f"{type(e).__name__}: {str(e).strip()[:300]}"
        if reason is not None:
            return f"{os.path.basename(set_dir)}: {reason}"
    return None


@functools.lru_cache(maxsize=None)
def runtime_loads(elem_type):
    """Whether onnxruntime alone can make a session of a model holding a tensor of ONNX type
    `elem_type`. onnxruntime 1.24, the oldest the library supports, cannot for FLOAT8E8M0
    ("MLDataType for: tensor(float8e8m0) is not currently registered or supported"); a
    model it cannot load fails with and without the library alike."""
    node = helper.make_node("Cast", ["x"], ["y"], to=elem_type)
    graph = helper.make_graph([node], "probe", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
                              [helper.make_tensor_value_info("y", elem_type, [1])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 24)])
    try:
        session(model.SerializeToString(), with_library=False)
    except Exception as e:
        return "is not currently registered or supported" not in str(e)
    return True


def model_types(test_dir):
    """The ONNX element types of a node test's model's inputs and outputs."""
    model = onnx.load(os.path.join(test_dir, "model.onnx"))
    values = list(model.graph.input) + list(model.graph.output)
    return {v.type.tensor_type.elem_type for v in values if v.type.HasField("tensor_type")}


def rss_growth_kib(cycle, warm_up, count):
    """How much this process's resident memory grew, in KiB, over `count` calls of `cycle`
    after `warm_up` calls (which take onnxruntime's and the allocator's one-time growth).
    Each reading is taken after Python's collector has run and glibc has given its free
    heap pages back (malloc_trim), so that what counts is memory still allocated, not
    what the allocator keeps cached: how much it caches moves with the threads and the
    load of the machine, while a leak stays resident either way."""
    libc = ctypes.CDLL(None)

    def rss_kib():
        gc.collect()
        libc.malloc_trim(0)
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmRSS"))

    for _ in range(warm_up):
        cycle()
    before = rss_kib()
    for _ in range(count):
        cycle()
    return rss_kib() - before
