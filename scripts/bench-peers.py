# SPDX-License-Identifier: MIT OR Apache-2.0
"""tensorcast beside its peers, in one process on one thread.

Each operation runs on the same input through tensorcast (the release cdylib, through
ctypes and the C ABI), onnxruntime (a one-node Cast or Expand model), numpy/ml_dtypes
(astype or copyto, whichever is faster) and memcpy of the same bytes (a memmove of half
the bytes read plus written, so that it reads and writes the same total; for Expand a
memset of the output). onnxruntime runs with OrtValues in and out (no conversion to numpy
arrays), and the contenders take turns run by run, each run timed on the thread's CPU
clock. Every figure is the best of several runs; only ratios within one run mean
anything. Writes a Markdown table and a PNG chart (speedup of tensorcast over each peer,
log scale), by default docs/perf/peers.md and docs/perf/peers.png, and (a full run to the
default table) the table into docs/performance.md between its peers markers.

    scripts/bench-peers.sh [--n N] [--runs R] [--only TEXT] [--busy]   (creates build/venv-peers)
    build/venv-peers/bin/python scripts/bench-peers.py --lib target/release/libtensorcast.so

--busy measures every figure twice in the same runs: idle, and with a compute-bound
neighbour process on another CPU (docs/performance.md, "Busy machines"); each ratio then
reads "idle / busy". The data are those of `cargo bench --bench cast`: magnitudes spread
evenly over the exponents 2^-10..2^10, half negative; random codes for the 8-bit and
packed formats.

Not part of the test command's pass/fail: an operation a peer lacks is n/a, and one that
fails in a peer is reported, not fatal.
"""

import argparse
import ctypes
import os
import platform
import signal
import subprocess
import sys
import time
from importlib.metadata import version

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402

try:
    import onnxruntime as ort  # noqa: E402
    from onnx import TensorProto, helper  # noqa: E402
except ImportError:  # the table then says n/a for onnxruntime
    ort = None

# The C ABI's structs and constants, built from include/tensorcast.h.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "common"))
import tcast_ctypes as tc  # noqa: E402
from tcast_ctypes import tcast_error as Error  # noqa: E402
from tcast_ctypes import tcast_string_arena as Arena  # noqa: E402
from tcast_ctypes import tcast_tensor as Tensor  # noqa: E402

# tensorcast's dtype codes, which are also ONNX TensorProto.DataType codes.
CODES = {
    "f32": tc.TCAST_DTYPE_FLOAT, "u8": tc.TCAST_DTYPE_UINT8, "i32": tc.TCAST_DTYPE_INT32,
    "str": tc.TCAST_DTYPE_STRING, "f16": tc.TCAST_DTYPE_FLOAT16, "f64": tc.TCAST_DTYPE_DOUBLE,
    "bf16": tc.TCAST_DTYPE_BFLOAT16, "e4m3fn": tc.TCAST_DTYPE_FLOAT8E4M3FN,
    "e4m3fnuz": tc.TCAST_DTYPE_FLOAT8E4M3FNUZ, "e5m2": tc.TCAST_DTYPE_FLOAT8E5M2,
    "e5m2fnuz": tc.TCAST_DTYPE_FLOAT8E5M2FNUZ, "u4": tc.TCAST_DTYPE_UINT4,
    "i4": tc.TCAST_DTYPE_INT4, "e8m0": tc.TCAST_DTYPE_FLOAT8E8M0, "u2": tc.TCAST_DTYPE_UINT2,
    "i2": tc.TCAST_DTYPE_INT2,
}
NUMPY = {
    "f32": np.float32, "u8": np.uint8, "i32": np.int32, "f16": np.float16,
    "f64": np.float64, "bf16": ml_dtypes.bfloat16, "e4m3fn": ml_dtypes.float8_e4m3fn,
    "e4m3fnuz": ml_dtypes.float8_e4m3fnuz, "e5m2": ml_dtypes.float8_e5m2,
    "e5m2fnuz": ml_dtypes.float8_e5m2fnuz, "e8m0": ml_dtypes.float8_e8m0fnu,
    "u4": ml_dtypes.uint4, "i4": ml_dtypes.int4, "u2": ml_dtypes.uint2, "i2": ml_dtypes.int2,
}
# Bits per element as tensorcast stores it (4-bit codes pack two per byte, 2-bit four).
BITS = {"f32": 32, "u8": 8, "i32": 32, "f16": 16, "f64": 64, "bf16": 16, "e4m3fn": 8,
        "e4m3fnuz": 8, "e5m2": 8, "e5m2fnuz": 8, "e8m0": 8, "u4": 4, "i4": 4, "u2": 2,
        "i2": 2, "str": 8 * ctypes.sizeof(tc.tcast_string)}
# The integer codes' ranges, and the dtypes onnxruntime takes as bits (ml_dtypes' own
# numpy dtypes are not ONNX types to it).
INT_RANGE = {"u4": (0, 16), "i4": (-8, 8), "u2": (0, 4), "i2": (-2, 2)}
AS_BITS = {"bf16", "e4m3fn", "e4m3fnuz", "e5m2", "e5m2fnuz", "e8m0"}


STRING_VIEW = np.dtype([("data", np.uint64), ("len", np.uint64)])


class Lib:
    """tensorcast's C ABI through ctypes."""

    def __init__(self, path):
        self.lib = tc.load_library(path, ["tcast_cast", "tcast_expand", "tcast_cast_to_strings",
                                          "tcast_string_max_bytes"])
        self.err = Error()
        self.keep = []

    def tensor(self, array, dtype, shape):
        dims = (ctypes.c_int64 * max(len(shape), 1))(*shape)
        self.keep.append(dims)
        return Tensor(array.ctypes.data, array.nbytes, dims, None, len(shape), CODES[dtype])

    def check(self, status, what):
        if status != 0:
            raise RuntimeError(f"{what}: status {status}: {self.err.message.decode()}")


# The neighbour's work: floating-point multiply-adds and integer multiply/shift/xor mixes
# over arrays small enough to stay in its core's L1 cache (24 KiB), in place, so that it
# computes without memory traffic; numpy's loops do the work in vector registers, a few
# thousand operations per call of the interpreter.
NEIGHBOUR = """
import numpy as np
f = np.linspace(1.0, 2.0, 2048)
k = np.arange(1, 1025, dtype=np.uint64)
t = np.empty_like(k)
mul = np.uint64(0x9E3779B97F4A7C15)
while True:
    np.multiply(f, 0.9999999, out=f)
    np.add(f, 1e-4, out=f)
    np.multiply(k, mul, out=k)
    np.right_shift(k, np.uint64(29), out=t)
    np.bitwise_xor(k, t, out=k)
"""


class Neighbour:
    """A compute-bound process on a CPU of its own (where os.sched_setaffinity lets this
    process pin itself to one CPU and the neighbour to another), stopped (SIGSTOP) between
    the busy turns and running (SIGCONT) during them."""

    def __init__(self):
        cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
        self.process = subprocess.Popen([sys.executable, "-c", NEIGHBOUR])
        if len(cpus) >= 2:
            os.sched_setaffinity(0, {cpus[0]})
            os.sched_setaffinity(self.process.pid, {cpus[1]})
            self.placement = f"measuring on CPU {cpus[0]}, the busy neighbour on CPU {cpus[1]}"
        else:
            self.placement = (f"note: {len(cpus) or 'unknown number of'} CPU(s) to run on: "
                              "the neighbour runs unpinned beside the measurements")
        time.sleep(1.0)  # its numpy import
        self.pause()
        self.wall = 0.0
        self.start_cpu = self.cpu_seconds()

    def cpu_seconds(self):
        """The neighbour's time on a CPU so far, in nanoseconds' precision (None where
        /proc does not say)."""
        try:
            with open(f"/proc/{self.process.pid}/schedstat") as f:
                return int(f.read().split()[0]) / 1e9
        except (OSError, ValueError, IndexError):
            return None

    def pause(self):
        os.kill(self.process.pid, signal.SIGSTOP)
        os.waitpid(self.process.pid, os.WUNTRACED)
        if hasattr(self, "resumed"):
            self.wall += time.perf_counter() - self.resumed

    def resume(self):
        os.kill(self.process.pid, signal.SIGCONT)
        os.waitpid(self.process.pid, os.WCONTINUED)
        self.resumed = time.perf_counter()

    def share(self):
        """A sentence saying how much of the busy turns the neighbour computed (other
        processes take their part of its CPU on a shared machine)."""
        cpu = self.cpu_seconds()
        if cpu is None or self.start_cpu is None or self.wall < 0.1:
            return None
        return (f"The neighbour computed {100 * (cpu - self.start_cpu) / self.wall:.0f}% of "
                f"the busy turns' time (the rest of its CPU's time went to other processes).")

    def close(self):
        self.process.kill()  # a stopped process dies of SIGKILL too
        self.process.wait()


# The neighbour of a --busy run (None: idle only).
BUSY = None


def clock():
    """Seconds this thread has run on a CPU, where the system says (every contender runs
    on the calling thread: onnxruntime with one intra-op thread, numpy, ctypes), as the
    Rust benchmarks time: on a shared machine a run is often descheduled part-way, and
    wall time would count the wait. Wall time elsewhere."""
    return time.thread_time() if THREAD_CLOCK else time.perf_counter()


THREAD_CLOCK = hasattr(time, "thread_time") and time.get_clock_info("thread_time").resolution < 1e-6


def race(runs, contenders):
    """The best time of each callable; the contenders take turns, run by run, so that all
    of them see the same load on a shared machine, and the turn order rotates from run to
    run, so that none always follows the same one (a contender that writes with ordinary
    stores leaves the output's lines dirty in cache, which slows one that writes the same
    buffer with streaming stores right after it: on Zen 4 a streaming fill of 64 MiB ran
    at 0.96x memset after an ordinary fill and 1.00x after a streaming one). A contender
    that raises TypeError or ValueError (a cast the peer does not make) is left out. With a neighbour (--busy),
    every run times the contenders idle and then again with the neighbour computing; the
    busy times are under the key "busy" (a dict of the same names)."""
    times = {}
    for name, f in list(contenders.items()):
        try:
            f()
            times[name] = float("inf")
        except (TypeError, ValueError):
            del contenders[name]
    busy = dict(times)
    names = list(contenders)
    for run in range(runs):
        turn = run % len(names) if names else 0
        order = names[turn:] + names[:turn]
        for name in order:
            f = contenders[name]
            t = clock()
            f()
            times[name] = min(times[name], clock() - t)
        if BUSY is not None:
            BUSY.resume()
            try:
                for name in order:
                    f = contenders[name]
                    t = clock()
                    f()
                    busy[name] = min(busy[name], clock() - t)
            finally:
                BUSY.pause()
    if BUSY is not None:
        times["busy"] = busy
    return times


def source(dtype, n, rng):
    """n values of `dtype` as numpy stores them, the data of `cargo bench --bench cast`:
    half of them negative, magnitudes spread evenly over the exponents from 2^-10 to 2^10
    (as weights and activations are: every low-precision format meets values below its
    smallest normal, and the narrow ones values above their largest), no NaN storms; random
    codes for the 8-bit and packed formats, which covers every code. (Uniform values of
    magnitude up to 1000 skip the encoders' slow path below the smallest normal.)"""
    if dtype in ("u8",):
        return rng.integers(0, 256, n, dtype=np.uint8)
    if dtype == "i32":
        return rng.integers(-(2**31), 2**31, n, dtype=np.int64).astype(np.int32)
    if dtype in INT_RANGE:
        low, high = INT_RANGE[dtype]
        return rng.integers(low, high, n, dtype=np.int8).astype(NUMPY[dtype])
    if BITS[dtype] == 8 and dtype in AS_BITS:
        return rng.integers(0, 256, n, dtype=np.uint8).view(NUMPY[dtype])
    sign = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    x = np.exp2(rng.random(n, dtype=np.float64) * 20.0 - 10.0) * sign
    return x.astype(NUMPY[dtype])


def tensorcast_bytes(array, dtype):
    """The array as tensorcast's C ABI takes it (4- and 2-bit codes packed, first
    element in the lowest bits)."""
    bits = BITS[dtype]
    if bits not in (4, 2):
        return array
    per_byte = 8 // bits
    codes = array.view(np.uint8) & ((1 << bits) - 1)
    codes = np.append(codes, np.zeros(-len(codes) % per_byte, np.uint8))
    packed = np.zeros(len(codes) // per_byte, np.uint8)
    for k in range(per_byte):
        packed |= codes[k::per_byte] << (k * bits)
    return packed


def ort_session(model):
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    return ort.InferenceSession(model.SerializeToString(), options,
                                providers=["CPUExecutionProvider"])


def ort_value(array, dtype):
    """An onnxruntime input of `array` (ml_dtypes arrays by their bits and ONNX type)."""
    if BITS[dtype] in (4, 2):
        # The shape is taken from the array: n bytes, the packed codes first.
        bits = np.zeros(len(array), np.uint8)
        packed = tensorcast_bytes(array, dtype)
        bits[:len(packed)] = packed
        return ort.OrtValue.ortvalue_from_numpy_with_onnx_type(bits, CODES[dtype])
    if dtype in AS_BITS:
        bits = array.view(np.uint16 if dtype == "bf16" else np.uint8)
        return ort.OrtValue.ortvalue_from_numpy_with_onnx_type(bits, CODES[dtype])
    return ort.OrtValue.ortvalue_from_numpy(array)


def ort_model(node, inputs, outputs, initializers=(), opset=21):
    graph = helper.make_graph([node], "peer", inputs, outputs, list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                             ir_version=11 if opset > 21 else 10)


def cast_row(lib, args, rng, src, dst):
    n, runs = args.n, args.runs
    x = source(src, n, rng)
    row = {"op": f"{src} -> {dst}", "unit": "GB/s", "kind": "cast"}
    xin = tensorcast_bytes(x, src)
    out = np.zeros((n * BITS[dst] + 7) // 8, dtype=np.uint8)
    shape = [n]
    ti, to = lib.tensor(xin, src, shape), lib.tensor(out, dst, shape)
    moved = xin.nbytes + out.nbytes
    half = moved // 2
    a, b = np.ones(half, np.uint8), np.zeros(half, np.uint8)
    target = np.zeros(n, dtype=NUMPY[dst])
    contenders = {
        "tensorcast": lambda: lib.check(lib.lib.tcast_cast(ti, to, None, lib.err), row["op"]),
        "memcpy": lambda: ctypes.memmove(b.ctypes.data, a.ctypes.data, half),
        "numpy astype": lambda: x.astype(NUMPY[dst]),
        "numpy copyto": lambda: np.copyto(target, x, casting="unsafe"),
    }
    if ort is not None:
        try:
            model = ort_model(
                helper.make_node("Cast", ["x"], ["y"], to=CODES[dst]),
                [helper.make_tensor_value_info("x", CODES[src], shape)],
                [helper.make_tensor_value_info("y", CODES[dst], shape)],
                # FLOAT8E8M0 came with Cast-24, INT2 and UINT2 with Cast-25.
                opset=25 if {src, dst} & {"e8m0", "u2", "i2"} else 21)
            session, feed = ort_session(model), {"x": ort_value(x, src)}
            session.run_with_ort_values(None, feed)
            contenders["onnxruntime"] = lambda: session.run_with_ort_values(None, feed)
        except Exception as e:  # a pair onnxruntime lacks, or cannot feed
            row["ort_note"] = str(e).splitlines()[0][:80]
    times = race(runs, contenders)
    for key, got in [(None, times), ("busy", times.get("busy"))]:
        if got is None:
            continue
        into = row if key is None else row.setdefault(key, {})
        into["tensorcast"] = got["tensorcast"]
        into["rate"] = moved / got["tensorcast"] / 1e9
        into["memcpy"] = got["memcpy"]
        numpy = [got[k] for k in ("numpy astype", "numpy copyto") if k in got]
        into["numpy"] = min(numpy) if numpy else None
        into["onnxruntime"] = got.get("onnxruntime")
    return row


def expand_row(lib, args, rng, in_shape, out_shape, repeats=1):
    runs = args.runs
    x = rng.random(int(np.prod(in_shape)), dtype=np.float64).astype(np.float32)
    x = x.reshape(in_shape)
    count = int(np.prod(out_shape))
    outs = [np.zeros(out_shape, np.float32) for _ in range(repeats)]
    name = f"Expand {tuple(in_shape)} -> {tuple(out_shape)}"
    if repeats > 1:
        name += f" x{repeats}"
    row = {"op": name, "unit": "GB/s"}
    ti = lib.tensor(x, "f32", in_shape)
    tos = [lib.tensor(o, "f32", out_shape) for o in outs]

    def tc():
        for to in tos:
            lib.check(lib.lib.tcast_expand(ti, to, lib.err), name)

    def fill():
        for o in outs:
            ctypes.memset(o.ctypes.data, 7, o.nbytes)

    def np_copyto():
        for o in outs:
            np.copyto(o, np.broadcast_to(x, out_shape))

    def np_copy():
        for _ in outs:
            np.broadcast_to(x, out_shape).copy()

    contenders = {"tensorcast": tc, "memcpy": fill, "numpy copyto": np_copyto}
    # A fresh copy of a small output reuses the block just freed, already in cache:
    # with several outputs only copyto writes the same memory tensorcast writes.
    if repeats == 1:
        contenders["numpy copy"] = np_copy
    if ort is not None:
        try:
            shape_init = helper.make_tensor("shape", TensorProto.INT64, [len(out_shape)],
                                            list(out_shape))
            model = ort_model(
                helper.make_node("Expand", ["x", "shape"], ["y"]),
                [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(in_shape))],
                [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(out_shape))],
                [shape_init])
            session, feed = ort_session(model), {"x": ort_value(x, "f32")}
            session.run_with_ort_values(None, feed)
            contenders["onnxruntime"] = (
                lambda: [session.run_with_ort_values(None, feed) for _ in outs])
        except Exception as e:
            row["ort_note"] = str(e).splitlines()[0][:80]
    times = race(runs, contenders)
    for key, got in [(None, times), ("busy", times.get("busy"))]:
        if got is None:
            continue
        into = row if key is None else row.setdefault(key, {})
        into["tensorcast"] = got["tensorcast"]
        into["rate"] = count * 4 * repeats / got["tensorcast"] / 1e9
        into["memcpy"] = got["memcpy"]
        into["numpy"] = min(t for k, t in got.items() if k.startswith("numpy"))
        into["onnxruntime"] = got.get("onnxruntime")
    return row


def text_rows(lib, args, rng, src):
    """src -> shortest text and text -> src, in millions of values per second."""
    n, runs = args.text_n, args.runs
    x = ((rng.random(n) - 0.5) * 10.0 ** rng.integers(-8, 9, n)).astype(NUMPY[src])
    views = np.zeros(n, dtype=STRING_VIEW)
    cap = n * lib.lib.tcast_string_max_bytes(CODES[src])
    arena_bytes = np.zeros(cap, np.uint8)
    arena = Arena(arena_bytes.ctypes.data, cap, 0)
    ti, tv = lib.tensor(x, src, [n]), lib.tensor(views, "str", [n])

    def fmt():
        arena.used = 0
        lib.check(lib.lib.tcast_cast_to_strings(ti, tv, ctypes.byref(arena), None, lib.err),
                  "to text")

    fmt()
    texts = np.array([str(v) for v in x], dtype=object)
    unicode = texts.astype(np.str_)
    back = np.zeros(n, dtype=NUMPY[src])
    tb = lib.tensor(back, src, [n])
    lib.check(lib.lib.tcast_cast(tv, tb, None, lib.err), "from text")
    if not np.array_equal(back, x):
        raise RuntimeError(f"text -> {src} did not give the values back")
    sides = {
        "to": ({"op": f"{src} -> text", "unit": "M/s", "memcpy": None},
               {"tensorcast": fmt, "numpy": lambda: x.astype(np.str_)},
               (CODES[src], CODES["str"], x)),
        "from": ({"op": f"text -> {src}", "unit": "M/s", "memcpy": None},
                 {"tensorcast": lambda: lib.check(lib.lib.tcast_cast(tv, tb, None, lib.err),
                                                  "from text"),
                  "numpy": lambda: unicode.astype(NUMPY[src])},
                 (CODES["str"], CODES[src], texts)),
    }
    rows = []
    for row, contenders, (a, b, feed) in sides.values():
        if ort is not None:
            try:
                model = ort_model(
                    helper.make_node("Cast", ["x"], ["y"], to=b),
                    [helper.make_tensor_value_info("x", a, [n])],
                    [helper.make_tensor_value_info("y", b, [n])])
                session = ort_session(model)
                session.run(None, {"x": feed})
                contenders["onnxruntime"] = (
                    lambda s=session, f=feed: s.run(None, {"x": f}))
            except Exception as e:
                row["ort_note"] = str(e).splitlines()[0][:80]
        times = race(runs, contenders)
        for key, got in [(None, times), ("busy", times.get("busy"))]:
            if got is None:
                continue
            into = row if key is None else row.setdefault(key, {"memcpy": None})
            into["tensorcast"] = got["tensorcast"]
            into["numpy"] = got.get("numpy")
            into["onnxruntime"] = got.get("onnxruntime")
            into["rate"] = n / got["tensorcast"] / 1e6
        rows.append(row)
    return rows


def ratio(row, peer):
    t = row.get(peer)
    return None if t is None else t / row["tensorcast"]


def fmt_ratio(value, suffix="x"):
    return "n/a" if value is None else f"{value:.2f}{suffix}"


def cell(row, peer, suffix="x"):
    """The ratio of tensorcast over `peer`, "idle / busy" when the row has a busy run."""
    text = fmt_ratio(ratio(row, peer), suffix)
    if "busy" in row:
        text += " / " + fmt_ratio(ratio(row["busy"], peer), suffix)
    return text


def write_table(rows, path, header, failures):
    lines = [header, "",
             "| operation | tensorcast | / memcpy | vs onnxruntime | vs numpy / ml_dtypes |",
             "|---|---|---|---|---|"]
    for row in rows:
        rate = f"{row['rate']:.1f}"
        if "busy" in row:
            rate += f" / {row['busy']['rate']:.1f}"
        lines.append(
            f"| {row['op']} | {rate} {row['unit']} | {cell(row, 'memcpy', '')} | "
            f"{cell(row, 'onnxruntime')} | {cell(row, 'numpy')} |")
    casts = [r for r in rows if r.get("kind") == "cast" and "busy" in r]
    if casts:
        low = {cond: min((ratio(r if cond == "idle" else r["busy"], "memcpy"), r["op"])
                         for r in casts)
               for cond in ("idle", "busy")}
        lines += ["", "Lowest cast ratio to memcpy: "
                  f"idle {low['idle'][0]:.2f} ({low['idle'][1]}; target >= 1.0), "
                  f"busy {low['busy'][0]:.2f} ({low['busy'][1]}; target >= 0.8)."]
        if BUSY is not None and BUSY.share():
            lines.append(BUSY.share())
    notes = [f"- {row['op']}: onnxruntime n/a ({row['ort_note']})"
             for row in rows if row.get("ort_note")]
    notes += [f"- FAILED: {failure}" for failure in failures]
    if notes:
        lines += ["", *notes]
    text = "\n".join(lines) + "\n"
    with open(path, "w") as f:
        f.write(text)
    return text


def update_doc(path, table):
    """Puts `table` between the peers markers of docs/performance.md."""
    with open(path) as f:
        text = f.read()
    begin = text.index("<!-- peers:begin")
    begin = text.index("\n", begin) + 1
    end = text.index("<!-- peers:end -->")
    with open(path, "w") as f:
        f.write(text[:begin] + table + text[end:])


def write_chart(rows, path, title):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    peers = [("memcpy", "memcpy / memset (same bytes)", "#999999"),
             ("onnxruntime", f"onnxruntime {version('onnxruntime')}", "#1f77b4"),
             ("numpy", f"numpy {version('numpy')} / ml_dtypes {version('ml_dtypes')}",
              "#ff7f0e")]
    fig, ax = plt.subplots(figsize=(11, 0.42 * len(rows) + 1.8))
    height = 0.26
    for k, (peer, label, color) in enumerate(peers):
        ys, xs = [], []
        for i, row in enumerate(rows):
            r = ratio(row, peer)
            if r is not None:
                ys.append(i + (k - 1) * height)
                xs.append(r)
        ax.barh(ys, xs, height=height, color=color, label=label)
    ax.set_xscale("log")
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(rows)), [row["op"] for row in rows])
    ax.invert_yaxis()
    ax.set_xlabel("speedup of tensorcast (peer time / tensorcast time; > 1: tensorcast faster)")
    ax.set_title(title, fontsize=10)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.07), ncol=3, fontsize=8)
    ax.grid(axis="x", which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110, bbox_inches="tight")


# Every low-precision format onnxruntime's CPU Cast has, both ways (it has no FLOAT4E2M1
# or FLOAT6 kernel).
PAIRS = [("f32", "f16"), ("f16", "f32"), ("f64", "f32"), ("f32", "i32"), ("i32", "f32"),
         ("f32", "bf16"), ("bf16", "f32"), ("u8", "f32")] + [
    pair for low in ("e4m3fn", "e4m3fnuz", "e5m2", "e5m2fnuz", "e8m0", "i4", "u4", "i2", "u2")
    for pair in (("f32", low), (low, "f32"))]
EXPANDS = [((1, 4096), (4096, 4096), 1), ((4096, 1), (4096, 4096), 1),
           ((1,), (16 << 20,), 1), ((64, 1, 64), (64, 64, 64), 64),
           ((1, 64), (64, 64), 1024), ((32, 1), (32, 32), 2048),
           ((8, 1, 8, 1), (8, 8, 8, 8), 1024)]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lib", default=os.path.join(root, "target/release/libtensorcast.so"))
    parser.add_argument("--n", type=int, default=16 << 20, help="elements per numeric cast")
    parser.add_argument("--text-n", type=int, default=1 << 20, help="elements per text cast")
    parser.add_argument("--runs", type=int, default=5, help="timed runs (best is kept)")
    parser.add_argument("--table", default=os.path.join(root, "docs/perf/peers.md"),
                        help="the Markdown table to write")
    parser.add_argument("--chart", default=os.path.join(root, "docs/perf/peers.png"),
                        help="the PNG chart to write")
    parser.add_argument("--only", help="run only operations whose name contains this")
    parser.add_argument("--busy", action="store_true",
                        help="also time everything with a compute-bound neighbour process "
                             "on another CPU (each ratio then reads idle / busy)")
    args = parser.parse_args()
    global BUSY
    if args.busy:
        BUSY = Neighbour()
        print(f"busy column: a compute-bound neighbour process runs during the busy turns; "
              f"{BUSY.placement}", file=sys.stderr)
    try:
        return run_all(args, parser, root)
    finally:
        if BUSY is not None:
            BUSY.close()


def run_all(args, parser, root):
    lib = Lib(args.lib)
    rng = np.random.default_rng(20261126)
    rows = []

    def wanted(name):
        return args.only is None or args.only in name

    failures = []

    def run(name, make):
        if not wanted(name):
            return
        try:
            made = make()
        except Exception as e:  # reported, and the other operations still run
            failures.append(f"{name}: {e}")
            print(f"{name:<40} FAILED: {e}", file=sys.stderr)
            return
        rows.extend(made)
        print(f"{name:<40} done", file=sys.stderr)

    for src, dst in PAIRS:
        run(f"{src} -> {dst}", lambda: [cast_row(lib, args, rng, src, dst)])
    for in_shape, out_shape, repeats in EXPANDS:
        run(f"Expand {tuple(in_shape)} -> {tuple(out_shape)}",
            lambda: [expand_row(lib, args, rng, in_shape, out_shape, repeats)])
    for src in ("f32", "f64"):
        run(f"{src} <-> text", lambda: text_rows(lib, args, rng, src))
    peers = (f"onnxruntime {version('onnxruntime') if ort else 'absent'}, "
             f"numpy {version('numpy')}, ml_dtypes {version('ml_dtypes')}")
    cpu = platform.processor() or platform.machine()
    for line in open("/proc/cpuinfo") if os.path.exists("/proc/cpuinfo") else []:
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    header = (f"One process, one thread; {args.n:,} elements per numeric cast and Expand "
              f"output of 16M elements, {args.text_n:,} per text cast; best of {args.runs} "
              f"runs; {peers}; {cpu}. tensorcast: GB/s of bytes read + written (numeric), "
              f"output bytes (Expand), M values/s (text). / memcpy: tensorcast's speed over "
              f"memcpy of the same total bytes (Expand: a memset of the output). vs a peer: "
              f"the peer's time over tensorcast's (> 1: tensorcast is faster).")
    if args.busy:
        header += (" Each figure reads idle / busy: busy is timed in the same runs with a "
                   "compute-bound neighbour process on the other CPU.")
    for path in (args.table, args.chart):
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    table = write_table(rows, args.table, header, failures)
    print(table)
    if parser.get_default("table") == args.table and not args.only:
        update_doc(os.path.join(root, "docs/performance.md"), table)
    write_chart(rows, args.chart, f"tensorcast vs peers, 1 thread ({peers})")
    print(f"wrote {args.table} and {args.chart}", file=sys.stderr)
    for failure in failures:
        print(f"FAILED: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
