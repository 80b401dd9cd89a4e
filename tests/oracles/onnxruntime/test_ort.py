# SPDX-License-Identifier: MIT OR Apache-2.0
"""tensorcast-ort in the real onnxruntime (pinned in build/venv-ort by scripts/test-ort.sh).

- every onnx 1.22 Cast/CastLike/Expand/QuantizeLinear/DequantizeLinear node test, and onnx 1.18's STRING Cast dirs, pass
  through an InferenceSession with the library registered;
- the execution provider runs the model's ONNX Casts (FLOAT -> INT32 of NaN is 0 with it;
  onnxruntime's own kernel gives INT_MIN); the custom-op library runs the same kernels in
  the ai.tensorcast domain, and in the ONNX domain only when asked to;
- 2 intra-op threads give the bits of 1 thread on 4M-element casts and an Expand;
- a tensorcast error (a bad string) is an onnxruntime error carrying tensorcast's message
  and the element's index, and the session keeps working.
"""

import os

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

import ortnode

INT32_MIN = -(2**31)


@pytest.mark.parametrize("test_dir", ortnode.onnx122_dirs(), ids=os.path.basename)
def test_onnx122_node(test_dir):
    if all(ortnode.runtime_loads(t) for t in ortnode.model_types(test_dir)):
        assert ortnode.run_dir(test_dir, with_library=True) is None
    else:
        # An onnxruntime that cannot load the model's types (1.24 and FLOAT8E8M0): the
        # library changes nothing, the same failure as onnxruntime's alone.
        alone = ortnode.run_dir(test_dir, with_library=False)
        assert alone is not None
        assert ortnode.run_dir(test_dir, with_library=True) == alone


@pytest.mark.parametrize("test_dir", ortnode.onnx118_string_dirs(), ids=os.path.basename)
def test_onnx118_string_node(test_dir):
    assert ortnode.run_dir(test_dir, with_library=True) is None


def test_the_node_tests_cover_every_operator():
    names = [os.path.basename(d) for d in ortnode.onnx122_dirs()]
    assert len(names) == 201
    for prefix in ortnode.PREFIXES:
        assert any(n.startswith(prefix) for n in names)


def cast_model(to, from_type=TensorProto.FLOAT, domain="", count=None):
    node = helper.make_node("Cast", ["x"], ["y"], to=to, domain=domain)
    graph = helper.make_graph([node], "cast", [helper.make_tensor_value_info("x", from_type, [count])],
                              [helper.make_tensor_value_info("y", to, [count])])
    opsets = [helper.make_opsetid("", 21)]
    if domain:
        opsets.append(helper.make_opsetid(domain, 1))
    return helper.make_model(graph, opset_imports=opsets).SerializeToString()


SPECIALS = np.array([np.nan, -np.nan, 1e10, -1e10, np.inf, -np.inf, 2.5, -7.9], np.float32)


def test_the_execution_provider_runs_the_onnx_casts():
    model = cast_model(TensorProto.INT32)
    ours = ortnode.session(model, with_library=True).run(None, {"x": SPECIALS})[0]
    theirs = ortnode.session(model, with_library=False).run(None, {"x": SPECIALS})[0]
    # tensorcast: NaN -> 0, out-of-range values saturate, finite values truncate.
    assert ours.tolist() == [0, 0, 2**31 - 1, INT32_MIN, 2**31 - 1, INT32_MIN, 2, -7]
    # onnxruntime's own kernel: x86's cvttss2si result for NaN.
    assert theirs[0] == INT32_MIN and theirs[1] == INT32_MIN


def custom_op_options(override=None):
    """Session options with the library registered as a custom-op library (and its
    `tensorcast_ort.override_onnx_domain` entry set first when `override` is given)."""
    so = ortnode.session_options(False)
    if override is not None:
        so.add_session_config_entry("tensorcast_ort.override_onnx_domain", override)
    so.register_custom_ops_library(ortnode.library())
    return so


TENSORCAST_INT32 = [0, 0, 2**31 - 1, INT32_MIN, 2**31 - 1, INT32_MIN, 2, -7]


def test_the_custom_op_library_leaves_the_onnx_domain_alone_by_default():
    so = custom_op_options()
    onnx_domain = ort.InferenceSession(cast_model(TensorProto.INT32), so).run(None, {"x": SPECIALS})[0]
    theirs = ortnode.session(cast_model(TensorProto.INT32), with_library=False).run(None, {"x": SPECIALS})[0]
    assert onnx_domain.tolist() == theirs.tolist()
    own = ort.InferenceSession(cast_model(TensorProto.INT32, domain="ai.tensorcast"), so).run(None, {"x": SPECIALS})[0]
    assert own.tolist() == TENSORCAST_INT32


def test_the_custom_op_override_of_the_onnx_domain_is_opt_in():
    for value, expected in (("0", None), ("1", TENSORCAST_INT32)):
        so = custom_op_options(value)
        got = ort.InferenceSession(cast_model(TensorProto.INT32), so).run(None, {"x": SPECIALS})[0]
        if expected is None:
            assert got[0] == INT32_MIN  # onnxruntime's own kernel
        else:
            assert got.tolist() == expected


def test_a_bad_override_setting_is_refused():
    with pytest.raises(Exception, match="override_onnx_domain must be 0 or 1"):
        custom_op_options("yes")


def test_the_own_domain_needs_the_library():
    with pytest.raises(Exception, match="ai.tensorcast"):
        ortnode.session(cast_model(TensorProto.INT32, domain="ai.tensorcast"), with_library=False)


def test_registering_the_custom_op_library_holds_memory_flat():
    # The op table is a static and the domains are made once per load of the library and
    # freed when onnxruntime unloads it: it used to leak ~280 KiB per register/drop.
    model = cast_model(TensorProto.INT32, domain="ai.tensorcast")

    def cycle():
        ort.InferenceSession(model, custom_op_options())

    grown = ortnode.rss_growth_kib(cycle, 30, 300)
    assert grown < 1024, f"RSS grew by {grown} KiB over 300 custom-op register/drop cycles"


N = 4 * 1024 * 1024
THREAD_TARGETS = [TensorProto.FLOAT16, TensorProto.BFLOAT16, TensorProto.FLOAT8E4M3FN,
                  TensorProto.FLOAT8E5M2, TensorProto.INT4, TensorProto.UINT2, TensorProto.INT32,
                  TensorProto.FLOAT4E2M1]


def threads_model():
    nodes = [helper.make_node("Cast", ["x"], [f"y{i}"], to=to) for i, to in enumerate(THREAD_TARGETS)]
    nodes.append(helper.make_node("Expand", ["row", "shape"], ["wide"]))
    outputs = [helper.make_tensor_value_info(f"y{i}", to, [N]) for i, to in enumerate(THREAD_TARGETS)]
    outputs.append(helper.make_tensor_value_info("wide", TensorProto.FLOAT, [2048, 2048]))
    graph = helper.make_graph(
        nodes, "threads",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [N]),
         helper.make_tensor_value_info("row", TensorProto.FLOAT, [1, 2048]),
         helper.make_tensor_value_info("shape", TensorProto.INT64, [None])],
        outputs)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 23)]).SerializeToString()


def run_bound(sess, feeds, outputs):
    """Runs `sess`, each output into a zeroed buffer; the outputs' bytes."""
    binding = sess.io_binding()
    for name, value in feeds.items():
        binding.bind_cpu_input(name, value)
    buffers = []
    for name, dtype, shape in outputs:
        buf, value = ortnode.bound_output(dtype, shape)
        binding.bind_ortvalue_output(name, value)
        buffers.append(buf)
    sess.run_with_iobinding(binding)
    return [b.tobytes() for b in buffers]


def test_two_threads_give_the_bits_of_one():
    rng = np.random.default_rng(30)
    x = (rng.standard_normal(N) * rng.choice([1e-3, 1, 30, 1e5], N)).astype(np.float32)
    x[rng.integers(0, N, 4096)] = rng.choice(SPECIALS, 4096)
    feeds = {"x": x, "row": rng.standard_normal((1, 2048)).astype(np.float32),
             "shape": np.array([2048, 2048], np.int64)}
    outputs = [(f"y{i}", to, [N]) for i, to in enumerate(THREAD_TARGETS)]
    outputs.append(("wide", TensorProto.FLOAT, [2048, 2048]))
    model = threads_model()
    # Every node on tensorcast (FLOAT -> FLOAT16 is otherwise onnxruntime's at any size).
    one = run_bound(ortnode.session(model, True, threads=1, take_all=True), feeds, outputs)
    two = run_bound(ortnode.session(model, True, threads=2, take_all=True), feeds, outputs)
    for (name, dtype, _), a, b in zip(outputs, one, two):
        assert a == b, f"{name} ({onnx_node_name(dtype)}) differs between 1 and 2 threads"
    # The 1-thread result is tensorcast's: FLOAT16 agrees with numpy's rounding.
    with np.errstate(over="ignore"):
        assert one[0] == x.astype(np.float16).tobytes()


def onnx_node_name(dtype):
    return TensorProto.DataType.Name(dtype)


def string_model():
    node = helper.make_node("Cast", ["s"], ["y"], to=TensorProto.FLOAT)
    graph = helper.make_graph([node], "parse", [helper.make_tensor_value_info("s", TensorProto.STRING, [8])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [8])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)]).SerializeToString()


def test_a_tensorcast_error_is_an_onnxruntime_error():
    sess = ortnode.session(string_model(), with_library=True)
    bad = np.array(["1", "2.5", "-3", "inf", "NaN", "1x", "7", "8"], dtype=object)
    with pytest.raises(ort.capi.onnxruntime_pybind11_state.InvalidArgument) as caught:
        sess.run(None, {"s": bad})
    message = str(caught.value)
    assert "tensorcast: TCAST_ERR_PARSE" in message
    assert "element 5" in message
    assert "1x" in message
    # The process and the session survive: the next run works.
    good = bad.copy()
    good[5] = "6"
    got = sess.run(None, {"s": good})[0]
    assert got[:4].tolist() == [1.0, 2.5, -3.0, np.inf] and np.isnan(got[4])
    assert got[5:].tolist() == [6.0, 7.0, 8.0]


def test_an_unknown_round_mode_is_refused_when_the_session_is_made():
    node = helper.make_node("Cast", ["x"], ["y"], to=TensorProto.FLOAT8E8M0, round_mode="sideways")
    graph = helper.make_graph([node], "rm", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT8E8M0, [2])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 24)])
    if not ortnode.runtime_loads(TensorProto.FLOAT8E8M0):
        # onnxruntime 1.24 refuses the model before any kernel is made, with and without
        # the library.
        with pytest.raises(Exception, match="is not currently registered or supported"):
            ortnode.session(model.SerializeToString(), with_library=True)
        return
    with pytest.raises(Exception, match="round_mode must be up, down or nearest"):
        ortnode.session(model.SerializeToString(), with_library=True)


def test_onnx_version_is_the_pinned_one():
    assert onnx.__version__ == "1.22.0"
    # requirements.txt's onnxruntime, or requirements-oldest.txt's (scripts/test-ort.sh
    # runs these tests again on it).
    pins = []
    for name in ("requirements.txt", "requirements-oldest.txt"):
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), name)) as f:
            pins += [line.split("==")[1].strip() for line in f if line.startswith("onnxruntime==")]
    assert len(pins) == 2
    assert ort.__version__ in pins


def graph_model(nodes, inputs, outputs):
    graph = helper.make_graph(nodes, "edge", inputs, outputs)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)]).SerializeToString()


@pytest.mark.parametrize("shape", [[], [0], [3, 0], [2, 3]], ids=str)
@pytest.mark.parametrize("to", [TensorProto.FLOAT16, TensorProto.STRING, TensorProto.INT8], ids=onnx_node_name)
def test_scalars_and_empty_tensors_match_onnxruntime(shape, to):
    model = graph_model([helper.make_node("Cast", ["x"], ["y"], to=to)],
                        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                        [helper.make_tensor_value_info("y", to, shape)])
    x = np.full(shape, -2.5, np.float32)
    ours = ortnode.session(model, True).run(None, {"x": x})[0]
    theirs = ortnode.session(model, False).run(None, {"x": x})[0]
    assert ours.shape == theirs.shape == tuple(shape)
    assert ours.dtype == theirs.dtype and ours.tolist() == theirs.tolist()


def test_string_expand_keeps_embedded_nuls_and_empty_shapes():
    model = graph_model([helper.make_node("Expand", ["x", "shape"], ["y"])],
                        [helper.make_tensor_value_info("x", TensorProto.STRING, [2, 1]),
                         helper.make_tensor_value_info("shape", TensorProto.INT64, [None])],
                        [helper.make_tensor_value_info("y", TensorProto.STRING, None)])
    x = np.array([["a\0b"], [""]], dtype=object)
    for shape in ([2, 3], [2, 0], [1, 1, 4]):
        feeds = {"x": x, "shape": np.array(shape, np.int64)}
        ours = ortnode.session(model, True, take_all=True).run(None, feeds)[0]
        theirs = ortnode.session(model, False).run(None, feeds)[0]
        assert ours.shape == theirs.shape and ours.tolist() == theirs.tolist()
    assert ours[0, 0, 0] == "a\0b"


# Elements per block of the kernel's numeric <-> STRING casts (kernel.rs: STRING_BLOCK).
STRING_BLOCK = 1 << 16


def test_strings_cast_in_blocks_as_in_one():
    # Three blocks and a part: each output equals the same cast of the elements run as
    # tensors smaller than a block, and a parse error in the third block names the
    # element by its index in the whole tensor.
    n = 2 * STRING_BLOCK + 4099
    rng = np.random.default_rng(11)
    x = (rng.standard_normal(n) * 1e3).astype(np.float32)
    x[::7] = np.round(x[::7])
    to_text = graph_model([helper.make_node("Cast", ["x"], ["y"], to=TensorProto.STRING)],
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n"])],
                          [helper.make_tensor_value_info("y", TensorProto.STRING, ["n"])])
    parse = graph_model([helper.make_node("Cast", ["s"], ["y"], to=TensorProto.FLOAT)],
                        [helper.make_tensor_value_info("s", TensorProto.STRING, ["n"])],
                        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n"])])
    # Through INT4 (packed: a block starts mid-tensor on a byte) to text.
    int4_text = graph_model([helper.make_node("Cast", ["q"], ["q4"], to=TensorProto.INT4),
                             helper.make_node("Cast", ["q4"], ["y"], to=TensorProto.STRING)],
                            [helper.make_tensor_value_info("q", TensorProto.INT8, ["n"])],
                            [helper.make_tensor_value_info("y", TensorProto.STRING, ["n"])])
    q = rng.integers(-8, 8, n).astype(np.int8)
    cases = [(to_text, "x", x), (int4_text, "q", q)]
    texts = None
    for model, name, values in cases:
        sess = ortnode.session(model, True, take_all=True)
        whole = sess.run(None, {name: values})[0]
        parts = np.concatenate([sess.run(None, {name: values[i:i + 5000]})[0] for i in range(0, n, 5000)])
        assert whole.shape == (n,) and whole.tolist() == parts.tolist()
        if texts is None:
            texts = whole
    assert [int(t) for t in ortnode.session(int4_text, True, take_all=True).run(None, {"q": q})[0][:64]] == \
        q[:64].tolist()
    sess = ortnode.session(parse, True, take_all=True)
    got = sess.run(None, {"s": texts})[0]
    # The shortest text of each FLOAT reads back as it.
    assert got.tobytes() == x.tobytes()
    bad = texts.copy()
    bad[2 * STRING_BLOCK + 17] = "12abc"
    with pytest.raises(ort.capi.onnxruntime_pybind11_state.InvalidArgument) as caught:
        sess.run(None, {"s": bad})
    assert f"element {2 * STRING_BLOCK + 17}" in str(caught.value) and "12abc" in str(caught.value)
