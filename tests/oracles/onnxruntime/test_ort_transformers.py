# SPDX-License-Identifier: MIT OR Apache-2.0
"""Transformer exports in onnxruntime with and without tensorcast-ort (issue 52, item 1).

The set (transformer_set.py): BERT, GPT-2, Llama, T5, Whisper and ViT built from tiny
configs with random weights and exported by torch's TorchScript and dynamo exporters (the
latter as it translates and with its default optimization; GPT-2 and Llama also in
float16), committed under transformers/. For every model and
every optimization level, the optimized graph onnxruntime writes
(`SessionOptions.optimized_model_filepath`) with the execution provider attached has the
nodes, in order, domain and op type, that onnxruntime alone writes: the provider takes no
node that onnxruntime would have folded or fused. The outputs are bit-identical (any NaN
matching any NaN). At the end a table gives each model's node counts. The provider before
issue 52's fix (which took CastLikes of constants) fails every level of every "-dynamo"
export: onnxruntime turns such a CastLike into a Cast and folds it; the provider kept it.
"""

import numpy as np
import onnx
import onnxruntime as ort
import pytest

import ortnode
import transformer_set

LEVELS = {"disable_all": ort.GraphOptimizationLevel.ORT_DISABLE_ALL,
          "basic": ort.GraphOptimizationLevel.ORT_ENABLE_BASIC,
          "extended": ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED,
          "enable_all": ort.GraphOptimizationLevel.ORT_ENABLE_ALL}
ROWS = {}


def optimized(name, with_library, level, tmp_path):
    """The optimized graph's [(domain, op type)] in order, and the session."""
    so = ortnode.session_options(with_library, 1, LEVELS[level])
    out = tmp_path / f"opt_{int(with_library)}.onnx"
    so.optimized_model_filepath = str(out)
    session = ort.InferenceSession(transformer_set.path(name), so)
    return [(n.domain, n.op_type) for n in onnx.load(str(out)).graph.node], session


def same_bits(a, b):
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind != "f":
        return bool(np.array_equal(a, b))
    bits = np.dtype(f"u{a.dtype.itemsize}")
    return bool(np.all((a.view(bits) == b.view(bits)) | (np.isnan(a) & np.isnan(b))))


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", transformer_set.NAMES)
def test_the_optimized_graph_and_outputs_are_onnxruntimes(name, level, tmp_path):
    alone, theirs = optimized(name, False, level, tmp_path)
    attached, ours = optimized(name, True, level, tmp_path)
    if attached != alone:
        extra = sorted(set(attached) - set(alone))
        lost = sorted(set(alone) - set(attached))
        pytest.fail(f"{name} at {level}: {len(attached)} nodes with the library, {len(alone)} alone; "
                    f"only with it: {extra}; only without: {lost}")
    feeds = transformer_set.feeds(name)
    expected = theirs.run(None, feeds)
    got = ours.run(None, feeds)
    for i, (a, b) in enumerate(zip(got, expected)):
        assert same_bits(a, b), f"{name} at {level}: output {i} differs"
    row = ROWS.setdefault(name, {"exported": len(onnx.load(transformer_set.path(name)).graph.node)})
    ours_ops = sum(op in ("Cast", "CastLike", "Expand") for domain, op in attached if domain == "")
    row[level] = f"{len(alone)} ({ours_ops})"


def test_the_set_has_every_architecture_from_both_exporters():
    for arch in ("bert", "gpt2", "llama", "t5", "whisper", "vit"):
        for exporter in ("torchscript", "dynamo", "dynamo-opt"):
            assert f"{arch}-{exporter}" in transformer_set.NAMES
    for name in ("gpt2-dynamo", "llama-torchscript", "llama-dynamo"):
        assert f"{name}-fp16" in transformer_set.NAMES


@pytest.fixture(scope="module", autouse=True)
def report(request):
    """Node counts: as exported, and optimized at each level (the same with and without
    the library, or the test failed), and in brackets how many of them are Cast, CastLike
    or Expand nodes (the provider runs those of them it takes)."""
    yield
    if not ROWS:
        return
    lines = ["| model | exported | " + " | ".join(LEVELS) + " |", "|---|---:|" + "---:|" * len(LEVELS)]
    for name in sorted(ROWS):
        row = ROWS[name]
        lines.append(f"| {name} | {row['exported']} | "
                     + " | ".join(str(row.get(level, "-")) for level in LEVELS) + " |")
    capture = request.config.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled():
        print("\ntransformer exports, nodes after optimization (with = without the library):\n"
              + "\n".join(lines))
