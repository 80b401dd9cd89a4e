#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""QuantizeLinear / DequantizeLinear beside peers (issue 40 item 7), one process, one thread.

tensorcast (the C ABI through ctypes) beside onnxruntime (a one-node DequantizeLinear or
QuantizeLinear model, graph optimisations off so that the node runs on every call) and
a numpy/ml_dtypes implementation, on the same data: x of shape [N / 4096, 4096] with
scales blocked along the last axis, block_size 32 (MXFP4, MXFP8 and ONNX's blocked
INT4 with FLOAT scales). GB/s counts bytes read (x, scales, zero points) plus bytes
written, and memcpy copies half that many bytes in the same run (numpy.copyto), so the
ratio column reads as benches/quant.rs's. Each figure is the best of --runs.

The peers come from the venv scripts/bench-peers.sh makes (build/venv-peers, pinned by
scripts/bench-peers-requirements.txt: onnxruntime 1.32.0, numpy, ml_dtypes):

    build/venv-peers/bin/python scripts/bench-quant-peers.py \\
        --lib target/release/libtensorcast.so [--n N] [--runs R]

The numpy/ml_dtypes quantizer divides in f32 and then casts (two roundings): a speed
peer, not an exact one.
"""

import argparse
import ctypes
import importlib.util
import os
import time
from pathlib import Path

import ml_dtypes
import numpy as np

try:
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper
except ImportError:
    ort = None

# The peer benchmark's dtype codes and its ctypes structs (tests/common/tcast_ctypes.py).
_spec = importlib.util.spec_from_file_location(
    "bench_peers", Path(__file__).with_name("bench-peers.py"))
peers = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(peers)
Tensor, Error, CODES, tc = peers.Tensor, peers.Error, peers.CODES, peers.tc
QdqOptions = tc.tcast_qdq_options

ROW, BLOCK = 4096, 32


class Lib:
    """tcast_quantize_linear / tcast_dequantize_linear through ctypes."""

    def __init__(self, path):
        self.lib = tc.load_library(path, ["tcast_quantize_linear", "tcast_dequantize_linear"])
        self.options = QdqOptions(ctypes.sizeof(QdqOptions), 1, 1, BLOCK, 0, 0)
        self.err = Error()
        self.keep = []

    def tensor(self, array, dtype, shape):
        dims = (ctypes.c_int64 * len(shape))(*shape)
        self.keep.append(dims)
        return Tensor(array.ctypes.data, array.nbytes, dims, None, len(shape), CODES[dtype])

    def call(self, name, x, s, z, y):
        zp = ctypes.byref(z) if z is not None else None
        status = getattr(self.lib, name)(ctypes.byref(x), ctypes.byref(s), zp,
                                         ctypes.byref(y), ctypes.byref(self.options),
                                         ctypes.byref(self.err))
        if status != 0:
            raise RuntimeError(f"{name}: status {status}: {self.err.message.decode()}")


def best(f, runs):
    f()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def unpack4(packed):
    """Two 4-bit codes per byte, the first in the low bits, as one code per byte."""
    out = np.empty(packed.size * 2, np.uint8)
    out[0::2] = packed & 15
    out[1::2] = packed >> 4
    return out


def pack4(codes):
    return (codes[0::2] & 15) | (codes[1::2] << 4)


def ort_session(op, x_type, x_init, scale, y_type, zero=None):
    """A one-node model: x and the scale (and zero point) as initializers, y out."""
    inits = [x_init, numpy_helper.from_array(scale, "s")]
    ins = ["x", "s"]
    if zero is not None:
        inits.append(zero)
        ins.append("z")
    node = helper.make_node(op, ins, ["y"], axis=1, block_size=BLOCK)
    graph = helper.make_graph([node], "q", [], [helper.make_tensor_value_info(
        "y", y_type, None)], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    return ort.InferenceSession(model.SerializeToString(), opts,
                                providers=["CPUExecutionProvider"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lib", default="target/release/libtensorcast.so")
    parser.add_argument("--n", type=int, default=16 << 20)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    lib = Lib(args.lib)
    n = args.n // ROW * ROW
    rows, blocks = n // ROW, n // BLOCK
    rng = np.random.default_rng(7)
    dims, sdims = [rows, ROW], [rows, ROW // BLOCK]
    xf = (rng.standard_normal(n) * np.exp2(rng.integers(-10, 10, n))).astype(np.float32)
    codes4 = rng.integers(0, 256, n // 2, dtype=np.uint8)
    codes8 = rng.integers(0, 256, n, dtype=np.uint8)
    e8m0 = rng.integers(112, 144, blocks, dtype=np.uint8)
    fscale = (rng.random(blocks, dtype=np.float32) * 0.01 + 1e-3).astype(np.float32)
    y32 = np.empty(n, np.float32)
    rows_out = []

    def measure(name, traffic, impls):
        src = np.ones(traffic // 2, np.uint8)
        dst = np.empty_like(src)
        copy = best(lambda: np.copyto(dst, src), args.runs)
        for peer, f in impls:
            if f is None:
                rows_out.append((name, peer, None, None, None))
                continue
            t = best(f, args.runs)
            rows_out.append((name, peer, n / t / 1e6, traffic / t / 1e9,
                             copy / t))

    # DequantizeLinear, MXFP4 and MXFP8 (E8M0 scales) to FLOAT.
    for label, xt, x in [("MXFP4", "f4", codes4), ("MXFP8 E4M3", "e4m3fn", codes8)]:
        code = {"f4": tc.TCAST_DTYPE_FLOAT4E2M1}.get(xt) or CODES[xt]
        tx = Tensor(x.ctypes.data, x.nbytes, (ctypes.c_int64 * 2)(*dims), None, 2, code)
        lib.keep.append(tx)
        ts, ty = lib.tensor(e8m0, "e8m0", sdims), lib.tensor(y32, "f32", dims)
        scale = e8m0.view(ml_dtypes.float8_e8m0fnu).astype(np.float32)
        if xt == "f4":
            def np_dq():
                v = unpack4(codes4).view(ml_dtypes.float4_e2m1fn).astype(np.float32)
                np.multiply(v.reshape(-1, BLOCK), scale[:, None], out=y32.reshape(-1, BLOCK))
        else:
            def np_dq():
                v = codes8.view(ml_dtypes.float8_e4m3fn).astype(np.float32)
                np.multiply(v.reshape(-1, BLOCK), scale[:, None], out=y32.reshape(-1, BLOCK))
        ort_f = None
        if ort is not None:
            try:
                etype = TensorProto.FLOAT4E2M1 if xt == "f4" else TensorProto.FLOAT8E4M3FN
                xi = helper.make_tensor("x", etype, dims, x.tobytes(), raw=True)
                si = helper.make_tensor("s", TensorProto.FLOAT8E8M0, sdims, e8m0.tobytes(),
                                        raw=True)
                node = helper.make_node("DequantizeLinear", ["x", "s"], ["y"], axis=1,
                                        block_size=BLOCK, output_dtype=TensorProto.FLOAT)
                graph = helper.make_graph([node], "q", [], [helper.make_tensor_value_info(
                    "y", TensorProto.FLOAT, None)], initializer=[xi, si])
                model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 24)])
                opts = ort.SessionOptions()
                opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
                opts.intra_op_num_threads = 1
                sess = ort.InferenceSession(model.SerializeToString(), opts,
                                            providers=["CPUExecutionProvider"])
                sess.run(None, {})
                ort_f = lambda: sess.run(None, {})  # noqa: E731
            except Exception as e:  # onnxruntime 1.32 has no MX kernels
                print(f"onnxruntime, DQ {label}: {str(e).splitlines()[0][:300]}")
        traffic = x.nbytes + e8m0.nbytes + y32.nbytes
        measure(f"DQ {label} -> FLOAT", traffic, [
            ("tensorcast", lambda: lib.call("tcast_dequantize_linear", tx, ts, None, ty)),
            ("numpy/ml_dtypes", np_dq),
            ("onnxruntime 1.32", ort_f),
        ])

    # QuantizeLinear FLOAT -> MXFP4 / MXFP8 with given E8M0 scales.
    for label, yt, ml, emax in [("MXFP4", "f4", ml_dtypes.float4_e2m1fn, 2),
                                ("MXFP8 E4M3", "e4m3fn", ml_dtypes.float8_e4m3fn, 8)]:
        amax = np.abs(xf.reshape(-1, BLOCK)).max(axis=1)
        exp = (amax.view(np.uint32) >> 23).astype(np.int32) - 127
        scales = np.clip(exp - emax + 127, 0, 254).astype(np.uint8)
        sf = scales.view(ml_dtypes.float8_e8m0fnu).astype(np.float32)
        out = np.empty(n // 2 if yt == "f4" else n, np.uint8)
        code = tc.TCAST_DTYPE_FLOAT4E2M1 if yt == "f4" else CODES[yt]
        ty = Tensor(out.ctypes.data, out.nbytes, (ctypes.c_int64 * 2)(*dims), None, 2, code)
        lib.keep.append(ty)
        tx, ts = lib.tensor(xf, "f32", dims), lib.tensor(scales, "e8m0", sdims)

        def np_q(ml=ml, yt=yt, sf=sf, out=out):
            q = (xf.reshape(-1, BLOCK) / sf[:, None]).astype(ml).reshape(-1).view(np.uint8)
            if yt == "f4":
                out[:] = pack4(q)
            else:
                out[:] = q
        traffic = xf.nbytes + scales.nbytes + out.nbytes
        measure(f"Q FLOAT -> {label}", traffic, [
            ("tensorcast", lambda: lib.call("tcast_quantize_linear", tx, ts, None, ty)),
            ("numpy/ml_dtypes", np_q),
        ])

    # Blocked INT4 DequantizeLinear with FLOAT scales (onnxruntime's supported case).
    tx = lib.tensor(codes4, "i4", dims)
    ts, ty = lib.tensor(fscale, "f32", sdims), lib.tensor(y32, "f32", dims)
    ort_f = None
    if ort is not None:
        xi = helper.make_tensor("x", TensorProto.INT4, dims, codes4.tobytes(), raw=True)
        sess = ort_session("DequantizeLinear", TensorProto.INT4, xi, fscale.reshape(sdims),
                           TensorProto.FLOAT)
        ort_f = lambda: sess.run(None, {})  # noqa: E731
        got = sess.run(None, {})[0].reshape(-1)
        lib.call("tcast_dequantize_linear", tx, ts, None, ty)
        if not np.array_equal(got, y32):
            print("note: onnxruntime's INT4 DQ differs from tensorcast's")

    def np_int4():
        v = unpack4(codes4).view(ml_dtypes.int4).astype(np.float32)
        np.multiply(v.reshape(-1, BLOCK), fscale[:, None], out=y32.reshape(-1, BLOCK))
    traffic = codes4.nbytes + fscale.nbytes + y32.nbytes
    measure("DQ INT4 blocked -> FLOAT", traffic, [
        ("tensorcast", lambda: lib.call("tcast_dequantize_linear", tx, ts, None, ty)),
        ("numpy/ml_dtypes", np_int4),
        ("onnxruntime 1.32", ort_f),
    ])

    print(f"\n{n} elements, shape {dims}, block_size {BLOCK}, one thread; "
          "ratio = GB/s over memcpy of the same bytes in the same run\n")
    print(f"| {'case':<26} | {'peer':<17} | {'M elem/s':>9} | {'GB/s':>6} | {'x memcpy':>8} |")
    print(f"|{'-' * 28}|{'-' * 19}|{'-' * 11}|{'-' * 8}|{'-' * 10}|")
    for name, peer, meps, gbps, ratio in rows_out:
        if meps is None:
            print(f"| {name:<26} | {peer:<17} | {'n/a':>9} | {'n/a':>6} | {'n/a':>8} |")
        else:
            print(f"| {name:<26} | {peer:<17} | {meps:>9.0f} | {gbps:>6.1f} | {ratio:>8.2f} |")


if __name__ == "__main__":
    main()
