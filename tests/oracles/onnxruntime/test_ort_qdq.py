# SPDX-License-Identifier: MIT OR Apache-2.0
"""QuantizeLinear and DequantizeLinear through tensorcast-ort's execution provider.

onnxruntime 1.32's CPU provider has no kernel for a FLOAT4E2M1 element or a FLOAT8E8M0
scale; the execution provider takes exactly those nodes (and leaves INT8, INT4, FLOAT8
and the rest with FLOAT/FLOAT16/BFLOAT16 scales to onnxruntime). The references are
computed here with numpy and ml_dtypes from the ONNX text: y = x / scale rounded once
(saturating for FLOAT8 by default), (x - zero_point) * scale.

- an MXFP4 weight (FLOAT4E2M1 initializer, FLOAT8E8M0 scales, block_size 32 along K)
  through DequantizeLinear -> MatMul: refused by onnxruntime alone, run with the library,
  the dequantized weight exact and the product within float32's summation error;
- MXFP8 QuantizeLinear -> DequantizeLinear (FLOAT8E4M3FN and FLOAT8E5M2 elements,
  FLOAT8E8M0 scales), exact, edge values included;
- which nodes the provider takes and which it leaves to onnxruntime;
- bad block_size, axis and scale shapes are onnxruntime errors naming the problem.
"""

import json

import ml_dtypes
import numpy as np
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

import ortnode

LEVELS = [ort.GraphOptimizationLevel.ORT_DISABLE_ALL, ort.GraphOptimizationLevel.ORT_ENABLE_ALL]
M, K, N, BLOCK = 4, 128, 16, 32


def packed4(codes):
    """4-bit codes packed two per byte, the first in the low nibble (ONNX's layout)."""
    flat = codes.ravel().astype(np.uint8)
    if flat.size % 2:
        flat = np.append(flat, 0)
    return (flat[0::2] | (flat[1::2] << 4)).tobytes()


def e8m0(codes):
    """The FLOAT32 values of FLOAT8E8M0 codes (255 is NaN), by ml_dtypes."""
    return codes.astype(np.uint8).view(ml_dtypes.float8_e8m0fnu).astype(np.float32)


def mxfp4_model(block_size=BLOCK, axis=0, scale_rows=K // BLOCK, opset=25, seed=40):
    """DequantizeLinear(FLOAT4E2M1 weight [K, N], FLOAT8E8M0 scales) -> MatMul; outputs
    the product and the dequantized weight. Returns the model and its codes."""
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, 16, (K, N), dtype=np.uint8)
    scales = rng.integers(117, 138, (scale_rows, N), dtype=np.uint8)
    weight = helper.make_tensor("w4", TensorProto.FLOAT4E2M1, [K, N], packed4(codes), raw=True)
    scale = helper.make_tensor("s", TensorProto.FLOAT8E8M0, [scale_rows, N], scales.tobytes(), raw=True)
    nodes = [helper.make_node("DequantizeLinear", ["w4", "s"], ["w"], axis=axis, block_size=block_size,
                              output_dtype=TensorProto.FLOAT),
             helper.make_node("MatMul", ["a", "w"], ["y"])]
    graph = helper.make_graph(nodes, "mxfp4", [helper.make_tensor_value_info("a", TensorProto.FLOAT, [M, K])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [M, N]),
                               helper.make_tensor_value_info("w", TensorProto.FLOAT, [K, N])],
                              [weight, scale])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    return model.SerializeToString(), codes, scales


def session(model, with_library, level=LEVELS[0]):
    return ort.InferenceSession(model, ortnode.session_options(with_library, level=level))


def test_mxfp4_dequantize_matmul_is_not_implemented_by_onnxruntime_alone():
    model, _, _ = mxfp4_model()
    with pytest.raises(ort.capi.onnxruntime_pybind11_state.NotImplemented,
                       match=r"NOT_IMPLEMENTED.*DequantizeLinear\(25\)"):
        session(model, with_library=False)


@pytest.mark.parametrize("level", LEVELS, ids=["no-opt", "all-opt"])
def test_mxfp4_dequantize_matmul_runs_with_the_library(level):
    model, codes, scales = mxfp4_model()
    a = np.random.default_rng(41).standard_normal((M, K)).astype(np.float32)
    y, w = session(model, True, level).run(["y", "w"], {"a": a})
    reference = codes.view(ml_dtypes.float4_e2m1fn).astype(np.float32) * np.repeat(e8m0(scales), BLOCK, axis=0)
    assert w.dtype == np.float32 and w.tobytes() == reference.tobytes()
    # Any order of K float32 additions is within K units of the 2^-24 rounding of the
    # sum of magnitudes of the exact product.
    exact = a.astype(np.float64) @ reference.astype(np.float64)
    bound = K * 2.0**-24 * (np.abs(a).astype(np.float64) @ np.abs(reference).astype(np.float64))
    assert np.all(np.abs(y - exact) <= bound)


def test_mxfp4_dequantize_edge_scales_and_every_code():
    # Every FLOAT4E2M1 code against E8M0 scales 2^-127, 2^-1, 1, 2^127 and NaN.
    codes = np.tile(np.arange(16, dtype=np.uint8), 5 * BLOCK // 16).reshape(1, 5 * BLOCK)
    scales = np.array([[0, 126, 127, 254, 255]], np.uint8)
    node = helper.make_node("DequantizeLinear", ["x", "s"], ["y"], axis=1, block_size=BLOCK,
                            output_dtype=TensorProto.FLOAT)
    graph = helper.make_graph(
        [node], "edges", [], [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 5 * BLOCK])],
        [helper.make_tensor("x", TensorProto.FLOAT4E2M1, [1, 5 * BLOCK], packed4(codes), raw=True),
         helper.make_tensor("s", TensorProto.FLOAT8E8M0, [1, 5], scales.tobytes(), raw=True)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 24)]).SerializeToString()
    y = session(model, True).run(None, {})[0]
    with np.errstate(over="ignore"):
        reference = codes.view(ml_dtypes.float4_e2m1fn).astype(np.float32) * np.repeat(e8m0(scales), BLOCK, axis=1)
    assert np.array_equal(y, reference, equal_nan=True)
    # 2, 3, 4 and 6 times 2^127 overflow FLOAT (each code twice in the block, both signs).
    assert np.isnan(y[0, 4 * BLOCK:]).all() and np.isinf(y[0, 3 * BLOCK:4 * BLOCK]).sum() == 2 * 2 * 4


MXFP8 = [(TensorProto.FLOAT8E4M3FN, ml_dtypes.float8_e4m3fn, 448.0),
         (TensorProto.FLOAT8E5M2, ml_dtypes.float8_e5m2, 57344.0)]


def mxfp8_model(element, rows, cols, scale_codes, saturate=1):
    attrs = dict(axis=1, block_size=BLOCK)
    nodes = [helper.make_node("QuantizeLinear", ["x", "s"], ["q"], output_dtype=element, saturate=saturate, **attrs),
             helper.make_node("DequantizeLinear", ["q", "s"], ["y"], output_dtype=TensorProto.FLOAT, **attrs)]
    graph = helper.make_graph(
        nodes, "mxfp8", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [rows, cols])],
        [helper.make_tensor_value_info("q", element, [rows, cols]),
         helper.make_tensor_value_info("y", TensorProto.FLOAT, [rows, cols])],
        [helper.make_tensor("s", TensorProto.FLOAT8E8M0, list(scale_codes.shape), scale_codes.tobytes(), raw=True)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 25)]).SerializeToString()


def run_bound(sess, feeds, outputs):
    binding = sess.io_binding()
    for name, value in feeds.items():
        binding.bind_cpu_input(name, value)
    buffers = []
    for name, dtype, shape in outputs:
        buf, value = ortnode.bound_output(dtype, shape)
        binding.bind_ortvalue_output(name, value)
        buffers.append(buf)
    sess.run_with_iobinding(binding)
    return buffers


@pytest.mark.parametrize("saturate", [1, 0])
@pytest.mark.parametrize("element,np_type,largest", MXFP8, ids=["e4m3fn", "e5m2"])
def test_mxfp8_quantize_dequantize_is_exact(element, np_type, largest, saturate):
    rows, cols = 8, 3 * BLOCK
    rng = np.random.default_rng(42)
    x = (rng.standard_normal((rows, cols)) * rng.choice([1e-3, 1, 40, 1e4], (rows, cols))).astype(np.float32)
    x.ravel()[:12] = [0.0, -0.0, np.nan, np.inf, -np.inf, 1e30, -1e30, 1e-30, 17.0, 18.5, -0.0625, 3e-3]
    scale_codes = rng.integers(122, 133, (rows, 3), dtype=np.uint8)
    model = mxfp8_model(element, rows, cols, scale_codes, saturate)
    with pytest.raises(ort.capi.onnxruntime_pybind11_state.NotImplemented):
        session(model, with_library=False)
    q, y = run_bound(session(model, True), {"x": x},
                     [("q", element, [rows, cols]), ("y", TensorProto.FLOAT, [rows, cols])])
    # x / 2^k is exact in FLOAT32 here; then one rounding to nearest even (ml_dtypes), after
    # saturation to the largest finite value when `saturate` is 1.
    quotient = x / np.repeat(e8m0(scale_codes), BLOCK, axis=1)
    if saturate:
        quotient = np.clip(quotient, -largest, largest)
    with np.errstate(over="ignore", invalid="ignore"):
        expected_q = quotient.astype(np_type)
        if saturate == 0 and element == TensorProto.FLOAT8E4M3FN:
            # E4M3FN has no infinity: ONNX's saturate=0 gives NaN out of range (ml_dtypes too).
            assert np.isnan(expected_q.astype(np.float32)[np.abs(quotient) > 464]).all()
        expected_y = expected_q.astype(np.float32) * np.repeat(e8m0(scale_codes), BLOCK, axis=1)
    got_q = q.view(np.uint8).view(np_type).astype(np.float32)
    want_q = expected_q.astype(np.float32)
    assert np.array_equal(got_q, want_q, equal_nan=True)
    # NaN codes aside (E5M2 has several), the bytes are the reference's.
    finite = ~np.isnan(want_q)
    assert (q.view(np.uint8)[finite] == expected_q.view(np.uint8)[finite]).all()
    assert np.array_equal(y.view(np.float32), expected_y, equal_nan=True)


def qdq_node_model(op, x_type, scale_type, out_type, block_size=BLOCK, axis=1, shape=(2, 2 * BLOCK),
                   scale_shape=None):
    """One QuantizeLinear (FLOAT x fed) or DequantizeLinear (x an initializer of zeros)."""
    scale_shape = list(scale_shape or (shape[0], shape[1] // block_size if block_size else shape[1]))
    count = int(np.prod(scale_shape))
    if scale_type == TensorProto.FLOAT8E8M0:
        scale = helper.make_tensor("s", scale_type, scale_shape, bytes([127] * count), raw=True)
    else:
        scale = helper.make_tensor("s", scale_type, scale_shape, [1.0] * count)
    attrs = dict(axis=axis, block_size=block_size, output_dtype=out_type)
    if op == "QuantizeLinear":
        inputs, inits = [helper.make_tensor_value_info("x", x_type, list(shape))], [scale]
    else:
        inputs = []
        nbytes = (int(np.prod(shape)) * (4 if x_type in (TensorProto.FLOAT4E2M1, TensorProto.INT4) else 8) + 7) // 8
        inits = [helper.make_tensor("x", x_type, list(shape), bytes(nbytes), raw=True), scale]
    node = helper.make_node(op, ["x", "s"], ["y"], **attrs)
    graph = helper.make_graph([node], "one", inputs, [helper.make_tensor_value_info("y", out_type, None)], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 25)]).SerializeToString()


F = TensorProto


@pytest.mark.parametrize("op,x_type,scale_type,out_type,ours", [
    ("DequantizeLinear", F.FLOAT4E2M1, F.FLOAT, F.FLOAT, True),
    ("DequantizeLinear", F.FLOAT4E2M1, F.FLOAT16, F.FLOAT16, True),
    ("DequantizeLinear", F.INT8, F.FLOAT8E8M0, F.FLOAT, True),
    ("DequantizeLinear", F.FLOAT8E4M3FN, F.FLOAT8E8M0, F.BFLOAT16, True),
    ("DequantizeLinear", F.INT8, F.FLOAT, F.FLOAT, False),
    ("DequantizeLinear", F.INT4, F.FLOAT, F.FLOAT, False),
    ("DequantizeLinear", F.FLOAT8E4M3FN, F.FLOAT, F.FLOAT, False),
    ("QuantizeLinear", F.FLOAT, F.FLOAT, F.FLOAT4E2M1, True),
    ("QuantizeLinear", F.FLOAT, F.FLOAT8E8M0, F.UINT8, True),
    ("QuantizeLinear", F.FLOAT, F.FLOAT, F.INT8, False),
    ("QuantizeLinear", F.FLOAT, F.FLOAT, F.FLOAT8E4M3FN, False),
])
def test_the_provider_takes_only_what_onnxruntime_lacks(op, x_type, scale_type, out_type, ours, tmp_path):
    model = qdq_node_model(op, x_type, scale_type, out_type)
    feeds = {"x": np.ones((2, 2 * BLOCK), np.float32)} if op == "QuantizeLinear" else {}
    if ours:
        # No kernel; for FLOAT16 it first tries FLOAT between Casts of its own, and fails so.
        with pytest.raises(Exception, match=r"NOT_IMPLEMENTED|InsertedPrecisionFreeCast"):
            session(model, with_library=False)
    else:
        session(model, with_library=False)
    # Profiling names the provider of each node that ran.
    so = ortnode.session_options(True)
    so.enable_profiling = True
    so.profile_file_prefix = str(tmp_path / "qdq")
    sess = ort.InferenceSession(model, so)
    out = F.DataType.Name(out_type)
    _, value = ortnode.bound_output(out_type, [2, 2 * BLOCK])
    binding = sess.io_binding()
    for name, v in feeds.items():
        binding.bind_cpu_input(name, v)
    binding.bind_ortvalue_output("y", value)
    sess.run_with_iobinding(binding)
    path = sess.end_profiling()
    with open(path) as f:
        events = json.load(f)
    providers = {e["args"].get("provider") for e in events
                 if e.get("cat") == "Node" and e["args"].get("op_name") == op}
    want = ortnode.EP_NAME if ours else "CPUExecutionProvider"
    assert providers == {want}, f"{op} to {out}: ran on {providers}"


@pytest.mark.parametrize("block_size,axis,scale_shape,message", [
    (16, 0, (K // BLOCK, N), r"scale shape \[4,16\] for blocked quantization of x shape \[128,16\] along "
                             r"axis 0 with block_size 16 must be \[8,16\]"),
    (BLOCK, 1, (K // BLOCK, N), r"scale shape \[4,16\] for blocked quantization of x shape \[128,16\] along "
                                r"axis 1 with block_size 32 must be \[128,1\]"),
    (BLOCK, 2, (K // BLOCK, N), r"axis 2 is outside \[-2, 1\] for x of shape \[128,16\]"),
    (0, 0, (K // BLOCK, N), r"scale shape \[4,16\] is neither per-tensor .* nor per-axis"),
])
def test_bad_block_size_axis_or_scale_shape_is_an_onnxruntime_error(block_size, axis, scale_shape, message):
    model, _, _ = mxfp4_model(block_size=block_size, axis=axis, scale_rows=scale_shape[0])
    sess = session(model, True)
    with pytest.raises(ort.capi.onnxruntime_pybind11_state.InvalidArgument,
                       match="DequantizeLinear.*tensorcast: TCAST_ERR_INVALID_(SHAPE|ARGUMENT): " + message):
        sess.run(["y"], {"a": np.ones((M, K), np.float32)})


def test_a_negative_block_size_is_refused_when_the_session_is_made():
    model, _, _ = mxfp4_model(block_size=-32)
    with pytest.raises(Exception, match="DequantizeLinear: block_size is -32; it must be 0 .* or positive"):
        session(model, True)


@pytest.mark.parametrize("shape,scale_shape,block_size", [
    ([0, 32], [0, 1], 32), ([], [], 0), ([3, 0], [3, 0], 32), ([2, 5], [2, 2], 3), ([5, 2], [5], 0)], ids=str)
def test_fp4_round_trip_of_scalars_empty_tensors_and_short_blocks(shape, scale_shape, block_size):
    # FLOAT inputs (x and the FLOAT8E8M0 scale both fed) -> FLOAT4E2M1 -> FLOAT.
    attrs = dict(axis=0 if len(scale_shape) == 1 else 1, block_size=block_size)
    nodes = [helper.make_node("QuantizeLinear", ["x", "s"], ["q"], output_dtype=TensorProto.FLOAT4E2M1, **attrs),
             helper.make_node("DequantizeLinear", ["q", "s"], ["y"], output_dtype=TensorProto.FLOAT, **attrs)]
    graph = helper.make_graph(nodes, "fp4", [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape),
                                             helper.make_tensor_value_info("s", TensorProto.FLOAT8E8M0, scale_shape)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 25)]).SerializeToString()
    rng = np.random.default_rng(43)
    x = np.asarray(rng.standard_normal(shape) * 5, np.float32)
    codes = np.asarray(rng.integers(125, 130, scale_shape, dtype=np.uint8))
    sess = session(model, True)
    binding = sess.io_binding()
    binding.bind_cpu_input("x", x)
    binding.bind_ortvalue_input("s", ort.OrtValue.ortvalue_from_numpy_with_onnx_type(codes, TensorProto.FLOAT8E8M0))
    binding.bind_output("y")
    sess.run_with_iobinding(binding)
    y = binding.copy_outputs_to_cpu()[0]
    axis = attrs["axis"]
    if not scale_shape:
        full = e8m0(codes)
    elif len(scale_shape) == 1:
        full = e8m0(codes).reshape([-1] + [1] * (len(shape) - 1))
    else:
        full = np.repeat(e8m0(codes), block_size, axis=axis).take(range(shape[axis]), axis=axis)
    # FLOAT4E2M1 saturates to +-6; ml_dtypes rounds to nearest even.
    want = np.clip(x / full, -6, 6).astype(ml_dtypes.float4_e2m1fn).astype(np.float32) * full
    assert y.shape == tuple(shape) and y.tobytes() == want.astype(np.float32).tobytes()


def test_an_empty_zero_point_name_is_no_zero_point():
    codes = np.array([1, 2, 3, 9], np.uint8)
    node = helper.make_node("DequantizeLinear", ["x", "s", ""], ["y"], axis=0, block_size=2,
                            output_dtype=TensorProto.FLOAT)
    graph = helper.make_graph(
        [node], "no-zp", [], [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [helper.make_tensor("x", TensorProto.FLOAT4E2M1, [4], packed4(codes), raw=True),
         helper.make_tensor("s", TensorProto.FLOAT8E8M0, [2], bytes([127, 128]), raw=True)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 25)]).SerializeToString()
    y = session(model, True).run(None, {})[0]
    want = codes.view(ml_dtypes.float4_e2m1fn).astype(np.float32) * np.repeat(e8m0(np.array([127, 128])), 2)
    assert y.tobytes() == want.tobytes()
