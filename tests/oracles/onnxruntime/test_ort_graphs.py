# SPDX-License-Identifier: MIT OR Apache-2.0
"""Graphs around Cast, CastLike and Expand with the execution provider attached: what
onnxruntime infers, refuses and optimizes stays what it is without the library.

- shapes and ranks flow through the three operators as ONNX's own inference gives them
  (unknown rank stays unknown, an unnamed dimension stays unnamed), in subgraphs too;
- the graph that aborted onnxruntime (Shape -> Cast -> Slice of an unnamed length) loads;
  it runs in a child process, so an abort fails the test instead of ending the run;
- every model onnxruntime refuses is refused with the library attached;
- Casts of initializers are folded and the optimized graph has the nodes it has without
  the library, at every optimization level;
- the execution provider did run the nodes it took (NaN -> INT32 is tensorcast's 0).
"""

import json
import os
import subprocess
import sys

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import ortnode

LEVELS = [ort.GraphOptimizationLevel.ORT_DISABLE_ALL, ort.GraphOptimizationLevel.ORT_ENABLE_BASIC,
          ort.GraphOptimizationLevel.ORT_ENABLE_ALL]
LEVEL_IDS = ["disable_all", "basic", "enable_all"]


def model(nodes, inputs, outputs, initializers=(), opset=21):
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def value(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def both(m, level=ort.GraphOptimizationLevel.ORT_ENABLE_ALL, threads=1, take_all=False):
    """The model's sessions without and with the library (either may raise)."""
    data = m.SerializeToString()
    return (ortnode.session(data, False, threads, level),
            ortnode.session(data, True, threads, level, take_all))


def unknown_rank_cast_matmul():
    # x has no shape at all: Cast must leave the rank unknown, not make it 0.
    w = numpy_helper.from_array(np.arange(12, dtype=np.float32).reshape(4, 3), "w")
    return model([helper.make_node("Cast", ["x"], ["xf"], to=TensorProto.FLOAT),
                  helper.make_node("MatMul", ["xf", "w"], ["y"])],
                 [value("x", TensorProto.DOUBLE, None)], [value("y", TensorProto.FLOAT, None)], [w])


def expand_cast_matmul():
    w = numpy_helper.from_array(np.ones((4, 2), np.float32), "w")
    return model([helper.make_node("Expand", ["x", "shape"], ["e"]),
                  helper.make_node("Cast", ["e"], ["ef"], to=TensorProto.FLOAT),
                  helper.make_node("MatMul", ["ef", "w"], ["y"])],
                 [value("x", TensorProto.INT32, [1, 4]), value("shape", TensorProto.INT64, [2])],
                 [value("y", TensorProto.FLOAT, None)], [w])


def castlike_matmul():
    w = numpy_helper.from_array(np.ones((4, 2), np.float32), "w")
    return model([helper.make_node("CastLike", ["x", "w"], ["xf"]),
                  helper.make_node("MatMul", ["xf", "w"], ["y"])],
                 [value("x", TensorProto.INT64, None)], [value("y", TensorProto.FLOAT, None)], [w])


@pytest.mark.parametrize("level", LEVELS, ids=LEVEL_IDS)
def test_unknown_rank_stays_unknown_through_cast(level):
    ours, theirs = both(unknown_rank_cast_matmul(), level)[::-1]
    x = np.arange(8, dtype=np.float64).reshape(2, 4)
    assert ours.run(None, {"x": x})[0].tobytes() == theirs.run(None, {"x": x})[0].tobytes()


@pytest.mark.parametrize("level", LEVELS, ids=LEVEL_IDS)
def test_expand_and_castlike_outputs_keep_their_rank(level):
    theirs, ours = both(expand_cast_matmul(), level, take_all=True)
    feeds = {"x": np.array([[1, -2, 3, 4]], np.int32), "shape": np.array([3, 4], np.int64)}
    assert ours.run(None, feeds)[0].tobytes() == theirs.run(None, feeds)[0].tobytes()
    theirs, ours = both(castlike_matmul(), level)
    feeds = {"x": np.arange(12, dtype=np.int64).reshape(3, 4)}
    assert ours.run(None, feeds)[0].tobytes() == theirs.run(None, feeds)[0].tobytes()


def test_output_shapes_are_onnx_inference():
    # The session's declared output shape is what ONNX's inference gives, with and without.
    m = model([helper.make_node("Cast", ["x"], ["y"], to=TensorProto.FLOAT16),
               helper.make_node("Expand", ["y", "shape"], ["z"])],
              [value("x", TensorProto.FLOAT, ["n", None, 3]), value("shape", TensorProto.INT64, [3])],
              [value("y", TensorProto.FLOAT16, None), value("z", TensorProto.FLOAT16, None)])
    theirs, ours = both(m, take_all=True)
    assert [o.shape for o in ours.get_outputs()] == [o.shape for o in theirs.get_outputs()]
    assert [o.type for o in ours.get_outputs()] == [o.type for o in theirs.get_outputs()]


def shape_cast_slice():
    # PP-OCR's pattern: the length of an unnamed dimension, cast to INT32, bounds a Slice.
    starts = numpy_helper.from_array(np.array([0], np.int32), "starts")
    return model([helper.make_node("Shape", ["x"], ["s"]),
                  helper.make_node("Cast", ["s"], ["s32"], to=TensorProto.INT32),
                  helper.make_node("Slice", ["x", "starts", "s32"], ["y"])],
                 [value("x", TensorProto.FLOAT, [None])], [value("y", TensorProto.FLOAT, None)], [starts])


CHILD = """
import sys, numpy as np, onnx, onnxruntime as ort
sys.path.insert(0, {here!r})
import ortnode
m = onnx.load({path!r})
for level in (ort.GraphOptimizationLevel.ORT_DISABLE_ALL, ort.GraphOptimizationLevel.ORT_ENABLE_ALL):
    sess = ortnode.session(m.SerializeToString(), True, 1, level)
    y = sess.run(None, {{"x": np.arange(5, dtype=np.float32)}})[0]
    assert y.tolist() == [0, 1, 2, 3, 4], y
print("loaded and ran")
"""


def test_shape_cast_slice_of_an_unnamed_length_loads(tmp_path):
    path = tmp_path / "slice.onnx"
    onnx.save(shape_cast_slice(), path)
    here = os.path.dirname(os.path.abspath(__file__))
    run = subprocess.run([sys.executable, "-c", CHILD.format(here=here, path=str(path))],
                         capture_output=True, text=True, timeout=120, env=dict(os.environ))
    assert run.returncode == 0, f"exit {run.returncode}: {run.stderr[-2000:]}"
    assert run.stdout.strip() == "loaded and ran"


def if_model():
    # Casts inside both branches of an If, their outputs feeding a MatMul after it.
    w = numpy_helper.from_array(np.ones((3, 2), np.float32), "w")
    branches = []
    for name, to in (("then", TensorProto.FLOAT16), ("else", TensorProto.BFLOAT16)):
        nodes = [helper.make_node("Cast", ["x"], ["t"], to=to),
                 helper.make_node("Cast", ["t"], [f"{name}_out"], to=TensorProto.FLOAT)]
        branches.append(helper.make_graph(nodes, name, [], [value(f"{name}_out", TensorProto.FLOAT, None)]))
    return model([helper.make_node("If", ["c"], ["r"], then_branch=branches[0], else_branch=branches[1]),
                  helper.make_node("MatMul", ["r", "w"], ["y"])],
                 [value("c", TensorProto.BOOL, []), value("x", TensorProto.DOUBLE, None)],
                 [value("y", TensorProto.FLOAT, None)], [w])


@pytest.mark.parametrize("level", LEVELS, ids=LEVEL_IDS)
def test_casts_in_subgraphs_keep_shapes(level):
    theirs, ours = both(if_model(), level)
    x = np.array([[1.00048828125, 3.1, -7.77], [1e5, 1e-8, 0.5]], np.float64)
    for c in (True, False):
        feeds = {"c": np.array(c), "x": x}
        assert ours.run(None, feeds)[0].tobytes() == theirs.run(None, feeds)[0].tobytes()


def loop_model():
    # A Loop whose body casts its carried value through FLOAT16 and Expands a row; the
    # loop's outputs feed a MatMul.
    body = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"]),
         helper.make_node("Cast", ["carried"], ["h"], to=TensorProto.FLOAT16),
         helper.make_node("Cast", ["h"], ["carried_out"], to=TensorProto.FLOAT),
         helper.make_node("Expand", ["carried_out", "shape"], ["scan_out"])],
        "body",
        [value("i", TensorProto.INT64, []), value("cond_in", TensorProto.BOOL, []),
         value("carried", TensorProto.FLOAT, None)],
        [value("cond_out", TensorProto.BOOL, []), value("carried_out", TensorProto.FLOAT, None),
         value("scan_out", TensorProto.FLOAT, None)])
    w = numpy_helper.from_array(np.ones((3, 2), np.float32), "w")
    shape = numpy_helper.from_array(np.array([2, 3], np.int64), "shape")
    return model([helper.make_node("Loop", ["n", "", "x"], ["final", "stacked"], body=body),
                  helper.make_node("MatMul", ["stacked", "w"], ["y"])],
                 [value("n", TensorProto.INT64, []), value("x", TensorProto.FLOAT, None)],
                 [value("final", TensorProto.FLOAT, None), value("y", TensorProto.FLOAT, None)],
                 [w, shape])


def scan_model():
    # A Scan whose body casts each row to BFLOAT16 and back and sums it into the state.
    body = helper.make_graph(
        [helper.make_node("Cast", ["row"], ["b"], to=TensorProto.BFLOAT16),
         helper.make_node("Cast", ["b"], ["r"], to=TensorProto.FLOAT),
         helper.make_node("Add", ["state", "r"], ["state_out"]),
         helper.make_node("Identity", ["r"], ["row_out"])],
        "body",
        [value("state", TensorProto.FLOAT, [3]), value("row", TensorProto.FLOAT, [3])],
        [value("state_out", TensorProto.FLOAT, [3]), value("row_out", TensorProto.FLOAT, [3])])
    return model([helper.make_node("Scan", ["s0", "x"], ["s", "rows"], body=body, num_scan_inputs=1)],
                 [value("s0", TensorProto.FLOAT, None), value("x", TensorProto.FLOAT, None)],
                 [value("s", TensorProto.FLOAT, None), value("rows", TensorProto.FLOAT, None)])


@pytest.mark.parametrize("level", LEVELS, ids=LEVEL_IDS)
def test_casts_in_loop_and_scan_bodies(level):
    x = np.array([1.00048828125, 3.1, -7.77], np.float32)
    theirs, ours = both(loop_model(), level, take_all=True)
    feeds = {"n": np.array(3, np.int64), "x": x}
    for a, b in zip(ours.run(None, feeds), theirs.run(None, feeds)):
        assert a.shape == b.shape and a.tobytes() == b.tobytes()
    theirs, ours = both(scan_model(), level)
    feeds = {"s0": np.zeros(3, np.float32), "x": np.stack([x, x * 3, -x])}
    for a, b in zip(ours.run(None, feeds), theirs.run(None, feeds)):
        assert a.shape == b.shape and a.tobytes() == b.tobytes()


def cast_node_model(**attrs):
    return model([helper.make_node("Cast", ["x"], ["y"], **attrs)], [value("x", TensorProto.FLOAT, [2])],
                 [value("y", TensorProto.FLOAT8E8M0, [2])], opset=24)


def attr(name, kind, v):
    a = onnx.AttributeProto(name=name, type=kind)
    if kind == onnx.AttributeProto.FLOAT:
        a.f = v
    elif kind == onnx.AttributeProto.STRING:
        a.s = v
    else:
        a.i = v
    return a


def with_attrs(*attrs):
    m = cast_node_model(to=TensorProto.FLOAT8E8M0)
    node = m.graph.node[0]
    del node.attribute[:]
    node.attribute.extend(attrs)
    return m


INVALID = {
    "cast_without_to": with_attrs(),
    "cast_to_as_float": with_attrs(attr("to", onnx.AttributeProto.FLOAT, 24.0)),
    "cast_to_as_string": with_attrs(attr("to", onnx.AttributeProto.STRING, b"FLOAT8E8M0")),
    "cast_saturate_as_float": with_attrs(attr("to", onnx.AttributeProto.INT, 24),
                                         attr("saturate", onnx.AttributeProto.FLOAT, 0.5)),
    "cast_round_mode_as_int": with_attrs(attr("to", onnx.AttributeProto.INT, 24),
                                         attr("round_mode", onnx.AttributeProto.INT, 3)),
}


@pytest.mark.parametrize("name", sorted(INVALID))
def test_models_onnxruntime_refuses_are_refused(name):
    data = INVALID[name].SerializeToString()
    with pytest.raises(Exception) as alone:
        ortnode.session(data, False)
    with pytest.raises(Exception) as attached:
        ortnode.session(data, True)
    assert type(attached.value) is type(alone.value)
    assert str(attached.value) == str(alone.value)


def expand_model(shape_shape):
    return model([helper.make_node("Expand", ["x", "shape"], ["y"])],
                 [value("x", TensorProto.FLOAT, [2, 1]), value("shape", TensorProto.INT64, shape_shape)],
                 [value("y", TensorProto.FLOAT, None)])


@pytest.mark.parametrize("shape", [np.array([[2, 2], [1, 2]], np.int64), np.array(2, np.int64)],
                         ids=["2d_shape", "0d_shape"])
def test_expand_of_a_shape_that_is_not_1d_does_what_onnxruntime_does(shape):
    # Declared in the model, onnxruntime's inference refuses it ("shape input must be 1D
    # tensor"); undeclared, onnxruntime's kernel reads the tensor's elements as the shape,
    # and so does tensorcast's.
    x = np.ones((2, 1), np.float32)
    feeds = {"x": x, "shape": shape}
    declared = expand_model(list(shape.shape)).SerializeToString()
    with pytest.raises(Exception) as alone:
        ortnode.session(declared, False).run(None, feeds)
    with pytest.raises(Exception) as attached:
        ortnode.session(declared, True).run(None, feeds)
    assert type(attached.value) is type(alone.value) and str(attached.value) == str(alone.value)
    assert "shape input must be 1D" in str(attached.value)
    undeclared = expand_model(None).SerializeToString()
    theirs = ortnode.session(undeclared, False).run(None, feeds)[0]
    ours = ortnode.session(undeclared, True).run(None, feeds)[0]
    assert ours.shape == theirs.shape and ours.tobytes() == theirs.tobytes()


def optimized_nodes(m, with_library, level, tmp_path):
    so = ortnode.session_options(with_library, 1, level)
    path = tmp_path / f"opt_{int(with_library)}_{int(level)}.onnx"
    so.optimized_model_filepath = str(path)
    ort.InferenceSession(m.SerializeToString(), so)
    return sorted((n.domain, n.op_type) for n in onnx.load(path).graph.node)


def folding_model():
    # Casts of initializers (folded by onnxruntime's constant folding), a Cast of an
    # input (kept), and a Cast pair of the kind Cast elimination removes.
    w16 = numpy_helper.from_array(np.arange(6, dtype=np.float16).reshape(3, 2), "w16")
    b = numpy_helper.from_array(np.array([1, 2], np.int64), "b")
    return model([helper.make_node("Cast", ["w16"], ["w"], to=TensorProto.FLOAT),
                  helper.make_node("Cast", ["b"], ["bf"], to=TensorProto.FLOAT),
                  helper.make_node("Cast", ["x"], ["xf"], to=TensorProto.FLOAT),
                  helper.make_node("Cast", ["xf"], ["xff"], to=TensorProto.FLOAT),
                  helper.make_node("MatMul", ["xff", "w"], ["m"]),
                  helper.make_node("Add", ["m", "bf"], ["y"])],
                 [value("x", TensorProto.DOUBLE, ["n", 3])], [value("y", TensorProto.FLOAT, ["n", 2])],
                 [w16, b])


@pytest.mark.parametrize("level", LEVELS[1:], ids=LEVEL_IDS[1:])
def test_the_optimized_graph_is_onnxruntimes(level, tmp_path):
    m = folding_model()
    alone = optimized_nodes(m, False, level, tmp_path)
    attached = optimized_nodes(m, True, level, tmp_path)
    assert attached == alone
    # The two initializer Casts were folded: one Cast (of the input) is left.
    assert [n for n in alone if n[1] == "Cast"] == [("", "Cast")]


def test_the_execution_provider_runs_the_nodes_it_takes():
    m = model([helper.make_node("Cast", ["x"], ["y"], to=TensorProto.INT32)],
              [value("x", TensorProto.FLOAT, [None])], [value("y", TensorProto.INT32, [None])])
    x = np.array([np.nan, 3e9, -2.5], np.float32)
    for level in LEVELS:
        theirs, ours = both(m, level)
        assert ours.run(None, {"x": x})[0].tolist() == [0, 2**31 - 1, -2]
        assert theirs.run(None, {"x": x})[0][0] == -(2**31)
        assert ours.get_providers()[0] == ortnode.EP_NAME


def test_registering_and_sessions_hold_memory_flat():
    # Every allocation made when the library is registered is released when it is
    # unregistered, and a session adds nothing that outlives it. A leak of even a few
    # hundred bytes per cycle would show over these cycles.
    m = folding_model().SerializeToString()
    level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL

    def cycle():
        ortnode.session(m, True, 1, level)
        ort.register_execution_provider_library("tensorcast-cycle", ortnode.library())
        ort.unregister_execution_provider_library("tensorcast-cycle")

    grown = ortnode.rss_growth_kib(cycle, 200, 2000)
    assert grown < 512, f"RSS grew by {grown} KiB over 2000 session and register/unregister cycles"


def float16_conv_model():
    # A float16 Conv, which onnxruntime's CPU provider runs in FLOAT between Casts of its
    # own, and the model's Casts around it: a Relu's output cast to FLOAT16 on the way in,
    # the Conv's output cast back to FLOAT on the way out. onnxruntime drops each pair of
    # its Cast and the model's (the values are never rounded to FLOAT16), so the execution
    # provider must leave these two Casts to it; the Cast of the graph input to FLOAT16
    # for the Add stays the provider's.
    w = numpy_helper.from_array(np.random.default_rng(3).standard_normal((2, 1, 3, 3)).astype(np.float16), "w")
    return model([helper.make_node("Relu", ["x"], ["r"]),
                  helper.make_node("Cast", ["r"], ["r16"], to=TensorProto.FLOAT16),
                  helper.make_node("Conv", ["r16", "w"], ["c"]),
                  helper.make_node("Cast", ["c"], ["y"], to=TensorProto.FLOAT),
                  helper.make_node("Cast", ["x"], ["x16"], to=TensorProto.FLOAT16),
                  helper.make_node("Cast", ["x16"], ["z"], to=TensorProto.DOUBLE)],
                 [value("x", TensorProto.FLOAT, [1, 1, 6, 6])],
                 [value("y", TensorProto.FLOAT, None), value("z", TensorProto.DOUBLE, None)], [w], opset=17)


@pytest.mark.parametrize("level", LEVELS, ids=LEVEL_IDS)
def test_float16_operators_between_casts_run_as_onnxruntime_runs_them(level, tmp_path):
    m = float16_conv_model()
    x = (np.random.default_rng(4).standard_normal((1, 1, 6, 6)) * 3).astype(np.float32)
    theirs, ours = both(m, level)
    for a, b in zip(ours.run(None, {"x": x}), theirs.run(None, {"x": x})):
        assert a.shape == b.shape and a.tobytes() == b.tobytes()
    assert optimized_nodes(m, True, level, tmp_path) == optimized_nodes(m, False, level, tmp_path)


def node_providers(m, feeds, tmp_path):
    """Each node's provider by name, from onnxruntime's profiler, with the library."""
    so = ortnode.session_options(True)
    so.enable_profiling = True
    so.profile_file_prefix = str(tmp_path / "providers")
    sess = ort.InferenceSession(m.SerializeToString(), so)
    sess.run(None, feeds)
    with open(sess.end_profiling()) as f:
        events = json.load(f)
    return {e["name"][: -len("_kernel_time")]: e["args"]["provider"] for e in events
            if e.get("cat") == "Node" and e["name"].endswith("_kernel_time")}


# The provider's crossovers (ep.rs: SMALL_CAST_ELEMENTS, SMALL_EXPAND_ELEMENTS).
SMALL_CAST, SMALL_EXPAND = 1 << 14, 1 << 20


def test_small_nodes_onnxruntime_runs_to_the_same_bytes_are_left_to_it(tmp_path):
    # Left: a Cast or CastLike of fewer than SMALL_CAST output elements known when the
    # session is made, of a pair onnxruntime casts to tensorcast's bytes; an Expand of
    # fewer than SMALL_EXPAND, or of a count known only at run time. Kept: a Cast of
    # SMALL_CAST, an Expand of SMALL_EXPAND, a Cast of a count known only at run time,
    # FLOAT -> INT32 (NaN and out-of-range differ), DOUBLE -> FLOAT16 (onnxruntime rounds
    # twice).
    i32, f32, i64 = TensorProto.INT32, TensorProto.FLOAT, TensorProto.INT64
    shape = numpy_helper.from_array(np.array([4, 8], np.int64), "shape")
    big = numpy_helper.from_array(np.array([SMALL_EXPAND], np.int64), "big")
    m = model([helper.make_node("Cast", ["a"], ["a_f"], name="small_i32_f32", to=f32),
               helper.make_node("CastLike", ["a", "like"], ["a_i64"], name="small_castlike_i32_i64"),
               helper.make_node("Expand", ["r", "shape"], ["r_e"], name="small_expand"),
               helper.make_node("Cast", ["r"], ["r_i"], name="small_f32_i32", to=i32),
               helper.make_node("Cast", ["rd"], ["r_h"], name="small_f64_f16", to=TensorProto.FLOAT16),
               helper.make_node("Cast", ["b"], ["b_f"], name="large_i32_f32", to=f32),
               helper.make_node("Expand", ["one", "big"], ["one_e"], name="large_expand"),
               helper.make_node("Cast", ["d"], ["d_f"], name="dynamic_i32_f32", to=f32),
               helper.make_node("Expand", ["one", "d_shape"], ["d_e"], name="dynamic_expand")],
              [value("a", i32, [2, 3]), value("like", i64, [1]), value("r", f32, [1, 8]),
               value("rd", TensorProto.DOUBLE, [8]), value("b", i32, [SMALL_CAST]), value("one", f32, [1]),
               value("d", i32, ["n"]),
               value("d_shape", i64, [1])],
              [value("a_f", f32, None), value("a_i64", i64, None), value("r_e", f32, None),
               value("r_i", i32, None), value("r_h", TensorProto.FLOAT16, None), value("b_f", f32, None),
               value("one_e", f32, None), value("d_f", f32, None), value("d_e", f32, None)], [shape, big])
    feeds = {"a": np.arange(6, dtype=np.int32).reshape(2, 3), "like": np.zeros(1, np.int64),
             "r": np.arange(8, dtype=np.float32).reshape(1, 8), "rd": np.arange(8.0),
             "b": np.arange(SMALL_CAST, dtype=np.int32),
             "one": np.ones(1, np.float32), "d": np.arange(5, dtype=np.int32),
             "d_shape": np.array([3], np.int64)}
    providers = node_providers(m, feeds, tmp_path)
    left = {"small_i32_f32", "small_expand", "dynamic_expand"}
    ours = {"small_f32_i32", "small_f64_f16", "large_i32_f32", "large_expand", "dynamic_i32_f32"}
    assert {n for n in left | ours if providers[n] == "CPUExecutionProvider"} == left, providers
    assert {n for n in left | ours if providers[n] == ortnode.EP_NAME} == ours, providers
    # onnxruntime inlines the CastLike it was left into a Cast of its own.
    assert "small_castlike_i32_i64" not in providers
    assert all(p == "CPUExecutionProvider" for n, p in providers.items() if n not in left | ours)


INTEGERS = [TensorProto.INT8, TensorProto.UINT8, TensorProto.INT16, TensorProto.UINT16, TensorProto.INT32,
            TensorProto.INT64, TensorProto.UINT32, TensorProto.UINT64, TensorProto.BOOL]
SHORT = {TensorProto.INT8, TensorProto.UINT8, TensorProto.INT16, TensorProto.UINT16, TensorProto.BOOL}
# The pairs the provider leaves to onnxruntime when small (ep.rs: same_bytes_as_onnxruntime).
FLOATS = [TensorProto.FLOAT, TensorProto.DOUBLE, TensorProto.FLOAT16, TensorProto.BFLOAT16]
WIDE = FLOATS[:3]  # FLOAT, DOUBLE, FLOAT16
SAME_BYTES = ([(a, b) for a in INTEGERS for b in INTEGERS + WIDE + ([TensorProto.BFLOAT16] if a in SHORT else [])]
              + [(f, f) for f in FLOATS]
              + [(f, g) for f in WIDE for g in WIDE if f != g and (f, g) != (TensorProto.DOUBLE, TensorProto.FLOAT16)])


def integer_values(elem):
    """Every edge of an integer type (its extremes, 0, +-1, the extents near FLOAT16's
    largest and FLOAT's and DOUBLE's last exact integers) and random values over its range;
    for a float type (copied to itself), random bit patterns, NaN payloads among them."""
    np_type = helper.tensor_dtype_to_np_dtype(elem)
    if elem == TensorProto.BOOL:
        return np.array([False, True, True, False], bool)
    if elem in FLOATS:
        bits = {TensorProto.FLOAT: np.uint32, TensorProto.DOUBLE: np.uint64}.get(elem, np.uint16)
        return np.random.default_rng(elem).integers(0, 256, 8 * 4096, dtype=np.uint8).view(bits)
    info = np.iinfo(np_type)
    edges = [info.min, info.max, 0, 1, -1, 65504, 65519, 65520, 65535, 2**24 + 1, 2**24 + 3, 2**53 + 1,
             2**31 + 1, 2**63 - 2**39 - 1, -(2**24) - 1, -(2**53) - 1]
    edges = [v for v in edges if info.min <= v <= info.max]
    rng = np.random.default_rng(elem)
    spread = rng.integers(0, 256, 8 * 4096, dtype=np.uint8).view(np_type)
    return np.concatenate([np.array(edges, np_type), spread])


@pytest.mark.parametrize("pair", SAME_BYTES,
                         ids=lambda p: f"{TensorProto.DataType.Name(p[0])}-{TensorProto.DataType.Name(p[1])}")
def test_the_pairs_left_when_small_cast_to_tensorcasts_bytes(pair):
    # A count known only at run time keeps the node on tensorcast: its bytes against
    # onnxruntime's own kernel's.
    src, dst = pair
    x = integer_values(src)

    m = model([helper.make_node("Cast", ["x"], ["y"], to=dst)], [value("x", src, ["n"])], [value("y", dst, ["n"])])
    outputs = []
    for sess in both(m, ort.GraphOptimizationLevel.ORT_DISABLE_ALL):
        buf, out = ortnode.bound_output(dst, x.shape)
        binding = sess.io_binding()
        if src in FLOATS:
            # The bit patterns, as a tensor of the float type.
            binding.bind_ortvalue_input("x", ort.OrtValue.ortvalue_from_numpy_with_onnx_type(x, src))
        else:
            binding.bind_cpu_input("x", x)
        binding.bind_ortvalue_output("y", out)
        sess.run_with_iobinding(binding)
        outputs.append(buf.tobytes())
    assert outputs[0] == outputs[1]


def test_pairs_onnxruntime_runs_as_fast_are_left_to_it_at_any_size(tmp_path):
    # ep.rs: faster_on_onnxruntime. onnxruntime writes an integer's decimal digits, as
    # tensorcast does, straight into its strings, and converts FLOAT <-> FLOAT16 with the
    # same instruction, over its threads: left whatever the count, a count known only at
    # run time and one of SMALL_CAST or more included. BOOL ("0"/"1" there, "False"/"True"
    # here) and FLOAT to STRING, and FLOAT -> DOUBLE of a dynamic count, stay tensorcast's.
    s, f, h = TensorProto.STRING, TensorProto.FLOAT, TensorProto.FLOAT16
    m = model([helper.make_node("Cast", ["i"], ["i_s"], name="dynamic_i64_string", to=s),
               helper.make_node("Cast", ["u"], ["u_s"], name="large_u8_string", to=s),
               helper.make_node("Cast", ["f"], ["f_h"], name="dynamic_f32_f16", to=h),
               helper.make_node("Cast", ["g"], ["g_f"], name="large_f16_f32", to=f),
               helper.make_node("Cast", ["b"], ["b_s"], name="bool_string", to=s),
               helper.make_node("Cast", ["f"], ["f_s"], name="float_string", to=s),
               helper.make_node("Cast", ["f"], ["f_d"], name="dynamic_f32_f64", to=TensorProto.DOUBLE)],
              [value("i", TensorProto.INT64, ["n"]), value("u", TensorProto.UINT8, [SMALL_CAST]),
               value("f", f, ["m"]), value("g", h, [SMALL_CAST]), value("b", TensorProto.BOOL, [2])],
              [value("i_s", s, None), value("u_s", s, None), value("f_h", h, None), value("g_f", f, None),
               value("b_s", s, None), value("f_s", s, None), value("f_d", TensorProto.DOUBLE, None)])
    feeds = {"i": np.arange(-3, 3, dtype=np.int64), "u": np.arange(SMALL_CAST).astype(np.uint8),
             "f": np.array([0.1, -2.5], np.float32), "g": np.ones(SMALL_CAST, np.float16),
             "b": np.array([True, False])}
    providers = node_providers(m, feeds, tmp_path)
    left = {"dynamic_i64_string", "large_u8_string", "dynamic_f32_f16", "large_f16_f32"}
    assert {n for n in left if providers[n] == "CPUExecutionProvider"} == left, providers
    assert {providers[n] for n in ("bool_string", "float_string", "dynamic_f32_f64")} == {ortnode.EP_NAME}, \
        providers


@pytest.mark.parametrize("src", INTEGERS[:-1], ids=TensorProto.DataType.Name)
def test_integers_to_string_give_onnxruntimes_text(src):
    # The claim faster_on_onnxruntime makes for integers: tensorcast's kernel (every node taken) writes the text
    # onnxruntime's own does, for every edge value and random ones.
    x = integer_values(src)
    m = model([helper.make_node("Cast", ["x"], ["y"], to=TensorProto.STRING)], [value("x", src, ["n"])],
              [value("y", TensorProto.STRING, ["n"])])
    theirs, ours = both(m, ort.GraphOptimizationLevel.ORT_DISABLE_ALL, take_all=True)
    assert theirs.run(None, {"x": x})[0].tolist() == ours.run(None, {"x": x})[0].tolist()
