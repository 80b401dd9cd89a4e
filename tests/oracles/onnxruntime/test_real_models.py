# SPDX-License-Identifier: MIT OR Apache-2.0
"""tensorcast-ort on real models: the set that realmodels/build_models.py builds into
build/real-models (models shipped in pinned PyPI wheels and skl2onnx conversions of
scikit-learn pipelines, each with its fp16, float8 and, where it fits, string variant).

For every model, deterministic inputs (realmodels/inputs.py) run in child processes
(realmodels/run_one.py, so that a crash is a failure on record) without and with the
library, at ORT_DISABLE_ALL and ORT_ENABLE_ALL, with 1 and 2 intra-op threads. For each
of the four settings:

- onnxruntime alone runs the model (else the set itself is broken);
- when onnxruntime alone runs it, so does it with the library; when onnxruntime alone
  refuses it, the library refuses it too, with the same exception type; a crash or a
  hang is always a failure;
- the outputs are bit-identical to onnxruntime's alone (any NaN matching any NaN), or,
  where they differ, the library's value is exactly the one onnx's ReferenceEvaluator
  gives on the same model and inputs (run only then, in a child, on the nodes that the
  differing outputs need); a reference that cannot run them cannot vouch for them.

A model of the set that is missing (build_models.py could not build it) fails. At the
end a table gives, per model, its node count, whether the outputs were identical, and
the library's session-creation and run times over onnxruntime's alone (ORT_ENABLE_ALL,
1 thread; one process each, so only a rough guide: scripts/bench-ort.py --real
measures). It is also written to build/real-models/report.txt (a Markdown table).
"""

import json
import os
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "realmodels"))

import build_models  # noqa: E402
import inputs  # noqa: E402
import run_one  # noqa: E402

SETTINGS = [(level, threads) for level in run_one.LEVELS for threads in (1, 2)]
TIMED = ("enable_all", 1)
RUNS = os.path.join(build_models.OUT, "runs")
ROWS = {}


def first_line(text):
    lines = (text or "").strip().splitlines()
    return lines[0][:300] if lines else ""


def equal_elements(a, b):
    """Elementwise equality of two arrays of one dtype and shape: bit for bit, any NaN
    matching any NaN; strings as strings."""
    a, b = a.ravel(), b.ravel()
    if a.dtype.kind == "U":
        return a == b
    if a.dtype.kind in "fc" or a.dtype.name.startswith(("float8", "bfloat", "float4")):
        bits = np.dtype(f"u{a.dtype.itemsize}")
        same = a.view(bits) == b.view(bits)
        with np.errstate(invalid="ignore"):
            return same | (np.isnan(a.astype(np.float64)) & np.isnan(b.astype(np.float64)))
    return a == b


def same_type(a, b):
    """One dtype and shape (strings of any width are one type)."""
    kinds = a.dtype.kind == "U" and b.dtype.kind == "U"
    return (kinds or a.dtype == b.dtype) and a.shape == b.shape


def load_outputs(out, record):
    with np.load(out + ".npz", allow_pickle=False) as data:
        return [data[str(i)] for i in range(len(record["outputs"]))]


def show(a, i):
    v = a.ravel()[i]
    return repr(v) if a.dtype.kind == "U" else f"{v!r} (0x{a.ravel()[i:i + 1].view(f'u{a.dtype.itemsize}')[0]:x})" \
        if a.dtype.kind == "f" else repr(v)


def differences(theirs, ours):
    """[(output index, mask of differing elements or None for a shape/dtype/count
    mismatch)] of the outputs that are not identical."""
    if len(theirs) != len(ours):
        return [(None, None)]
    diffs = []
    for k, (a, b) in enumerate(zip(theirs, ours)):
        if not same_type(a, b):
            diffs.append((k, None))
            continue
        mask = ~equal_elements(a, b)
        if mask.any():
            diffs.append((k, mask))
    return diffs


def judge(setting, diffs, theirs, ours, reference):
    """Problems with the differing elements: the library's must be the reference's."""
    problems = []
    where = f"{setting[0]}, {setting[1]} thread(s)"
    if reference["status"] != "ok":
        for k, mask in diffs:
            count = "shapes/dtypes/counts" if mask is None else f"{int(mask.sum())} of {mask.size} elements"
            problems.append(f"{where}: output {k} differs from onnxruntime alone ({count}) and the reference cannot "
                            f"judge: {reference.get('type', reference['status'])}: {first_line(reference['message'])}")
        return problems
    ref = reference["values"]
    for k, mask in diffs:
        if k is None or k >= len(ref):
            problems.append(f"{where}: the outputs differ in number from onnxruntime alone's")
            continue
        a, b, r = theirs[k], ours[k], ref[k]
        if r is None:
            problems.append(f"{where}: output {k} differs and the reference did not compute it")
            continue
        if not same_type(b, r):
            problems.append(f"{where}: output {k} is {b.dtype}{list(b.shape)} with the library, "
                            f"{a.dtype}{list(a.shape)} alone, {r.dtype}{list(r.shape)} by the reference")
            continue
        if mask is None:
            mask = np.ones(b.size, bool)
        wrong = mask & ~equal_elements(b, r)
        if wrong.any():
            i = int(np.flatnonzero(wrong)[0])
            problems.append(f"{where}: output {k}: {int(wrong.sum())} of {int(mask.sum())} differing elements are not "
                            f"the reference's; first at {i}: alone {show(a, i) if same_type(a, b) else '-'}, "
                            f"with the library {show(b, i)}, reference {show(r, i)}")
    return problems


@pytest.fixture(scope="module", autouse=True)
def report(request):
    yield
    if not ROWS:
        return
    lines = ["| model | nodes | identical | create with/without | run with/without |",
             "|---|---:|---|---:|---:|"]
    for name in build_models.NAMES:
        if name in ROWS:
            row = ROWS[name]
            lines.append(f"| {name} | {row['nodes']} | {row['identical']} | {row['create']} | {row['run']} |")
    text = "\n".join(lines)
    os.makedirs(build_models.OUT, exist_ok=True)
    with open(os.path.join(build_models.OUT, "report.txt"), "w") as f:
        f.write(text + "\n")
    capture = request.config.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled():
        print(f"\nreal models (create/run times at {TIMED[0]}, {TIMED[1]} thread):\n{text}")


def test_the_set_has_its_models_and_variants():
    bases = build_models.base_names()
    assert len(bases) >= 8
    for base in bases:
        for variant in ("", ".fp16", ".float8"):
            assert base + variant in build_models.NAMES
    assert sum(n.endswith(".string") for n in build_models.NAMES) >= 4


def test_a_child_that_dies_is_a_recorded_crash_and_the_runs_left_go_on(tmp_path):
    # A stand-in for python that writes the first run's record, then dies of SIGSEGV as
    # onnxruntime would: the run it was in is a crash, the next child does the rest.
    fake = tmp_path / "python"
    fake.write_text('#!/bin/sh\nout=${4#*:}; out=${out#*:}\nprintf \'{"status": "ok"}\' > "$out.json"\nkill -SEGV $$\n')
    fake.chmod(0o755)
    runs = [("disable_all", 1, str(tmp_path / "a")), ("disable_all", 2, str(tmp_path / "b")),
            ("enable_all", 1, str(tmp_path / "c"))]
    records = run_one.run_isolated("model.onnx", "inputs.npz", True, runs, python=str(fake))
    assert [records[out]["status"] for _, _, out in runs] == ["ok", "crash", "ok"]
    assert records[runs[1][2]]["message"].startswith("killed by SIGSEGV")


def ratio(ours, theirs, key):
    if ours.get("status") != "ok" or theirs.get("status") != "ok" or not theirs.get(key):
        return "-"
    return f"{ours[key] / theirs[key]:.2f}"


@pytest.mark.parametrize("name", build_models.NAMES)
def test_real_model(name):
    model, spec = build_models.paths(name)
    assert os.path.exists(model) and os.path.exists(spec), \
        f"{name} is not built: build/venv-ort/bin/python tests/oracles/onnxruntime/realmodels/build_models.py"
    with open(spec) as f:
        nodes = json.load(f).get("nodes", "?")
    work = os.path.join(RUNS, name)
    os.makedirs(work, exist_ok=True)
    feeds = os.path.join(work, "inputs.npz")
    np.savez(feeds, **inputs.feeds(model, spec))

    def runs(tag):
        return [(level, threads, os.path.join(work, f"{tag}-{level}-{threads}")) for level, threads in SETTINGS]

    theirs = run_one.run_isolated(model, feeds, False, runs("alone"))
    ours = run_one.run_isolated(model, feeds, True, runs("library"))

    problems, compared = [], []
    for (level, threads, out_a), (_, _, out_b) in zip(runs("alone"), runs("library")):
        where = f"{level}, {threads} thread(s)"
        a, b = theirs[out_a], ours[out_b]
        if a["status"] != "ok":
            problems.append(f"{where}: onnxruntime alone does not run the model (the set's model is broken): "
                            f"{a['status']} {a.get('type', '')}: {first_line(a['message'])}")
            if a["status"] == "error" and (b["status"] != "error" or b["type"] != a["type"]):
                problems.append(f"{where}: onnxruntime alone refuses it with {a['type']}, with the library: "
                                f"{b['status']} {b.get('type', '')}: {first_line(b.get('message'))}")
            continue
        if b["status"] != "ok":
            problems.append(f"{where}: onnxruntime alone runs it; with the library {b['status']} "
                            f"{b.get('type', '')}: {first_line(b['message'])}")
            continue
        va, vb = load_outputs(out_a, a), load_outputs(out_b, b)
        diffs = differences(va, vb)
        if diffs:
            compared.append(((level, threads), diffs, va, vb, [o["name"] for o in a["outputs"]]))

    judged = 0
    if compared:
        # One reference run, for every output that differs anywhere.
        indices = sorted({k for _, diffs, _, _, _ in compared for k, _ in diffs if k is not None})
        names = [compared[0][4][k] for k in indices]
        out = os.path.join(work, "reference")
        reference = run_one.reference_isolated(model, feeds, out, names)
        if reference["status"] == "ok":
            values = dict(zip(names, load_outputs(out, reference)))
        for setting, diffs, va, vb, output_names in compared:
            judged += sum(int(m.sum()) if m is not None else 1 for _, m in diffs)
            if reference["status"] == "ok":
                reference["values"] = [values.get(n) for n in output_names]
            problems += judge(setting, diffs, va, vb, reference)

    key = os.path.join(work, "{}-" + f"{TIMED[0]}-{TIMED[1]}")
    a, b = theirs[key.format("alone")], ours[key.format("library")]
    ROWS[name] = {
        "nodes": nodes,
        "identical": "FAIL" if problems else ("yes" if not judged else f"no: {judged} judged by the reference"),
        "create": ratio(b, a, "create_s"),
        "run": ratio(b, a, "run_s"),
    }
    assert not problems, f"{name}:\n" + "\n".join(problems)
