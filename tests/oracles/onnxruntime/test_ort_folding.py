# SPDX-License-Identifier: MIT OR Apache-2.0
"""onnxruntime's optimized graph is the same with the execution provider attached, on
graphs whose Cast, CastLike and Expand nodes onnxruntime constant-folds (issue 52, item 1).

onnxruntime folds nothing an execution provider took, and folds a CastLike only after it
inlined it into a Cast, which happens after the providers chose their nodes: the provider
must leave such nodes (and the Casts computed from them) to onnxruntime. Each graph's
optimized form (`SessionOptions.optimized_model_filepath`) must have the nodes, op type by
op type, that onnxruntime alone gives, at every optimization level, and the same outputs.
A constant Cast to a type onnxruntime's CPU provider has no kernel for (FLOAT4E2M1) stays
the provider's: the model loads and runs with the library and not without.
"""

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import ortnode

LEVELS = [ort.GraphOptimizationLevel.ORT_DISABLE_ALL, ort.GraphOptimizationLevel.ORT_ENABLE_BASIC,
          ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED, ort.GraphOptimizationLevel.ORT_ENABLE_ALL]
LEVEL_IDS = ["disable_all", "basic", "extended", "enable_all"]


def model(nodes, inputs, outputs, initializers=(), opset=18):
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def value(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def scalar(name, array):
    return numpy_helper.from_array(np.array(array), name)


def rotary():
    # The dynamo exporter's rotary embedding: Range over CastLikes of initializers, its
    # Cast to FLOAT, the outer product with the inverse frequencies, Sin and Cos, applied
    # to the input. onnxruntime alone folds everything but the last Mul/Add.
    inits = [scalar("start", np.int64(0)), scalar("limit", np.int64(8)), scalar("delta", np.int64(1)),
             scalar("like", np.int32(0)),
             numpy_helper.from_array(1.0 / (10000 ** (np.arange(0, 4, dtype=np.float32) / 4)), "inv")]
    nodes = [helper.make_node("CastLike", ["start", "like"], ["s"]),
             helper.make_node("CastLike", ["limit", "like"], ["l"]),
             helper.make_node("CastLike", ["delta", "like"], ["d"]),
             helper.make_node("Range", ["s", "l", "d"], ["pos"]),
             helper.make_node("Cast", ["pos"], ["posf"], to=TensorProto.FLOAT),
             helper.make_node("Unsqueeze", ["posf", "axis"], ["col"]),
             helper.make_node("Mul", ["col", "inv"], ["freqs"]),
             helper.make_node("Sin", ["freqs"], ["sin"]),
             helper.make_node("Cos", ["freqs"], ["cos"]),
             helper.make_node("Mul", ["x", "cos"], ["xc"]),
             helper.make_node("Mul", ["x", "sin"], ["xs"]),
             helper.make_node("Add", ["xc", "xs"], ["y"])]
    inits.append(numpy_helper.from_array(np.array([1], np.int64), "axis"))
    return (model(nodes, [value("x", TensorProto.FLOAT, [8, 4])], [value("y", TensorProto.FLOAT, [8, 4])],
                  inits),
            {"x": np.linspace(-2, 2, 32, dtype=np.float32).reshape(8, 4)})


def castlike_of_initializer():
    # A weight cast like the input (the second CastLike input gives only the type), then a
    # MatMul; and an Expand of initializers.
    w = numpy_helper.from_array(np.arange(12, dtype=np.float64).reshape(4, 3) / 7, "w")
    b = numpy_helper.from_array(np.array([0.5], np.float32), "b")
    shape = numpy_helper.from_array(np.array([2, 3], np.int64), "shape")
    nodes = [helper.make_node("CastLike", ["w", "x"], ["wf"]),
             helper.make_node("MatMul", ["x", "wf"], ["m"]),
             helper.make_node("Expand", ["b", "shape"], ["be"]),
             helper.make_node("Add", ["m", "be"], ["y"])]
    return (model(nodes, [value("x", TensorProto.FLOAT, [2, 4])], [value("y", TensorProto.FLOAT, [2, 3])],
                  [w, b, shape]),
            {"x": np.arange(8, dtype=np.float32).reshape(2, 4)})


def shape_arithmetic():
    # Shape arithmetic of the exporters: a head count and size as CastLikes of
    # initializers, multiplied, cast back to INT64 and concatenated into Reshape's shape.
    inits = [scalar("heads", np.int64(2)), scalar("size", np.int64(3)),
             scalar("likef", np.float32(0)), numpy_helper.from_array(np.array([-1], np.int64), "minus")]
    nodes = [helper.make_node("CastLike", ["heads", "likef"], ["hf"]),
             helper.make_node("CastLike", ["size", "likef"], ["sf"]),
             helper.make_node("Mul", ["hf", "sf"], ["pf"]),
             helper.make_node("Cast", ["pf"], ["p"], to=TensorProto.INT64),
             helper.make_node("Unsqueeze", ["p", "zero"], ["p1"]),
             helper.make_node("Concat", ["minus", "p1"], ["target"], axis=0),
             helper.make_node("Reshape", ["x", "target"], ["r"]),
             helper.make_node("Cast", ["r"], ["y"], to=TensorProto.DOUBLE)]
    inits.append(numpy_helper.from_array(np.array([0], np.int64), "zero"))
    return (model(nodes, [value("x", TensorProto.FLOAT, [4, 6])], [value("y", TensorProto.DOUBLE, None)],
                  inits),
            {"x": np.arange(24, dtype=np.float32).reshape(4, 6)})


def in_functions(make):
    """The graph of `make` with each CastLike inside a model-local function, as torch's
    dynamo exporter writes them (onnxruntime inlines those functions before it optimizes,
    after asking the providers which nodes they take)."""
    def made():
        m, feeds = make()
        for i, node in enumerate(list(m.graph.node)):
            if node.op_type != "CastLike":
                continue
            name = f"castlike_{i}"
            m.functions.append(helper.make_function(
                "pkg.local", name, ["x", "like"], ["y"], [helper.make_node("CastLike", ["x", "like"], ["y"])],
                [helper.make_opsetid("", 18)]))
            m.graph.node.remove(node)
            m.graph.node.insert(i, helper.make_node(name, list(node.input), list(node.output),
                                                    domain="pkg.local"))
        m.opset_import.append(helper.make_opsetid("pkg.local", 1))
        return m, feeds
    return made


GRAPHS = {"rotary": rotary, "castlike_of_initializer": castlike_of_initializer,
          "shape_arithmetic": shape_arithmetic, "rotary_in_functions": in_functions(rotary),
          "castlike_of_initializer_in_functions": in_functions(castlike_of_initializer),
          "shape_arithmetic_in_functions": in_functions(shape_arithmetic)}


def optimized(m, with_library, level, tmp_path):
    """The optimized graph's (domain, op type) list, in order, and the session."""
    so = ortnode.session_options(with_library, 1, level)
    path = tmp_path / f"opt_{int(with_library)}_{int(level)}.onnx"
    so.optimized_model_filepath = str(path)
    session = ort.InferenceSession(m.SerializeToString(), so)
    return [(n.domain, n.op_type) for n in onnx.load(path).graph.node], session


@pytest.mark.parametrize("level", LEVELS, ids=LEVEL_IDS)
@pytest.mark.parametrize("name", GRAPHS)
def test_the_optimized_graph_is_onnxruntimes(name, level, tmp_path):
    m, feeds = GRAPHS[name]()
    alone, theirs = optimized(m, False, level, tmp_path)
    attached, ours = optimized(m, True, level, tmp_path)
    assert sorted(attached) == sorted(alone)
    assert len(attached) == len(alone)
    got = ours.run(None, feeds)[0]
    assert got.tobytes() == theirs.run(None, feeds)[0].tobytes()
    if name.endswith("_in_functions") and level != ort.GraphOptimizationLevel.ORT_DISABLE_ALL:
        # onnxruntime folded the constant subgraph: no CastLike, Range or Sin is left.
        assert not {"CastLike", "Range", "Sin"} & {op for _, op in alone}


def fp4_constant():
    # Constant Casts to FLOAT4E2M1 and back, of values FLOAT4E2M1 holds exactly.
    w = numpy_helper.from_array(np.array([0.5, -1.5, 3.0, 6.0], np.float32), "w")
    nodes = [helper.make_node("Cast", ["w"], ["w4"], to=TensorProto.FLOAT4E2M1),
             helper.make_node("Cast", ["w4"], ["wf"], to=TensorProto.FLOAT),
             helper.make_node("Add", ["x", "wf"], ["y"])]
    return model(nodes, [value("x", TensorProto.FLOAT, [4])], [value("y", TensorProto.FLOAT, [4])], [w],
                 opset=23)


@pytest.mark.parametrize("level", LEVELS, ids=LEVEL_IDS)
def test_a_constant_cast_onnxruntime_cannot_run_stays_the_providers(level, tmp_path):
    m = fp4_constant()
    with pytest.raises(Exception):
        optimized(m, False, level, tmp_path)
    nodes, ours = optimized(m, True, level, tmp_path)
    assert [op for _, op in nodes] == ["Cast", "Cast", "Add"]
    x = np.array([1, 2, 3, 4], np.float32)
    assert ours.run(None, {"x": x})[0].tolist() == (x + np.array([0.5, -1.5, 3.0, 6.0], np.float32)).tolist()
