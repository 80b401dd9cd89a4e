#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Runs one model of the real-model set in a child process, so that a crash of
onnxruntime (SIGABRT, SIGSEGV) is a recorded failure, not a lost test run.

    run_one.py MODEL INPUTS.npz --library|--no-library LEVEL:THREADS:OUT [...] [--repeat N]
    run_one.py MODEL INPUTS.npz --reference OUT [--outputs NAME,...]

Each LEVEL:THREADS:OUT (LEVEL disable_all or enable_all, THREADS the intra-op thread
count) creates an InferenceSession through ortnode.session_options (the one place that
says how tensorcast-ort is attached), runs it on the inputs N times (default 3) and
writes OUT.json, a record: {"status": "ok", "create_s", "run_s" (the fastest run),
"outputs": [{"name", "dtype", "shape"}]}, with OUT.npz holding the first run's outputs
("0", "1", ... in the model's order; strings as numpy str arrays), or {"status":
"error", "stage": "create" | "run", "type", "message"} when onnxruntime raised. The
records are written one by one: run_isolated() (used by the tests and the benchmark)
starts the child, and when it dies records a crash for the run it was in and starts a
new child for the runs left. --reference runs onnx's ReferenceEvaluator instead, with
the same record and outputs; with --outputs, on the model cut down to the nodes that
those outputs need (a node the reference lacks elsewhere in the model does not matter).
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
LEVELS = ("disable_all", "enable_all")


def load_feeds(path):
    with np.load(path, allow_pickle=False) as data:
        return {k: (data[k].astype(object) if data[k].dtype.kind == "U" else data[k]) for k in data.files}


def save_outputs(out, names, values):
    arrays, described = {}, []
    for i, (name, value) in enumerate(zip(names, values)):
        if not isinstance(value, np.ndarray):
            raise TypeError(f"output {name} is a {type(value).__name__}, not a tensor")
        if value.dtype == object:
            value = np.array([str(v) for v in value.ravel()], dtype=np.str_).reshape(value.shape)
        arrays[str(i)] = value
        described.append({"name": name, "dtype": str(value.dtype), "shape": list(value.shape)})
    np.savez(out + ".npz", **arrays)
    return described


def write_record(out, record):
    tmp = out + ".json.tmp"
    with open(tmp, "w") as f:
        json.dump(record, f)
    os.replace(tmp, out + ".json")


def error_record(stage, e):
    return {"status": "error", "stage": stage, "type": type(e).__name__, "message": str(e).strip()}


def run_session(model, feeds, with_library, level, threads, out, repeat):
    import onnxruntime as ort

    sys.path.insert(0, os.path.dirname(HERE))
    import ortnode

    ort_level = {"disable_all": ort.GraphOptimizationLevel.ORT_DISABLE_ALL,
                 "enable_all": ort.GraphOptimizationLevel.ORT_ENABLE_ALL}[level]
    start = time.perf_counter()
    try:
        session = ort.InferenceSession(model, ortnode.session_options(with_library, threads, ort_level))
    except Exception as e:
        return error_record("create", e)
    create_s = time.perf_counter() - start
    names = [o.name for o in session.get_outputs()]
    times, first = [], None
    try:
        for _ in range(max(1, repeat)):
            start = time.perf_counter()
            values = session.run(None, feeds)
            times.append(time.perf_counter() - start)
            first = values if first is None else first
        outputs = save_outputs(out, names, first)
    except Exception as e:
        return error_record("run", e)
    return {"status": "ok", "create_s": create_s, "run_s": min(times), "outputs": outputs}


def pruned(model_path, outputs):
    """The model with only the nodes that the given outputs need (and those outputs)."""
    import onnx

    from build_models import free_names, subgraphs

    model = onnx.load(model_path)
    graph = model.graph
    needed, keep = set(outputs), []
    for node in reversed(graph.node):
        if needed & set(node.output):
            keep.append(node)
            needed.update(n for n in node.input if n)
            for g in subgraphs(node):
                needed |= free_names(g)
    by_name = {v.name: v for v in graph.output}
    chosen = [by_name[n] for n in outputs]
    del graph.output[:]
    graph.output.extend(chosen)
    del graph.node[:]
    graph.node.extend(reversed(keep))
    return model


def run_reference(model, feeds, out, outputs=None):
    from onnx.reference import ReferenceEvaluator

    start = time.perf_counter()
    try:
        ref = ReferenceEvaluator(pruned(model, outputs) if outputs else model)
        values = ref.run(None, feeds)
        outputs = save_outputs(out, ref.output_names, [np.asarray(v) for v in values])
    except Exception as e:
        return error_record("reference", e)
    return {"status": "ok", "run_s": time.perf_counter() - start, "outputs": outputs}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model")
    parser.add_argument("inputs", help=".npz of the model's inputs")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--library", dest="library", action="store_true", help="with tensorcast-ort")
    mode.add_argument("--no-library", dest="library", action="store_false", help="onnxruntime alone")
    mode.add_argument("--reference", metavar="OUT", help="onnx's ReferenceEvaluator, to OUT.json/.npz")
    parser.add_argument("--outputs", help="with --reference: only these outputs (comma-separated), from the "
                                          "nodes they need")
    parser.add_argument("runs", nargs="*", metavar="LEVEL:THREADS:OUT")
    parser.add_argument("--repeat", type=int, default=3, help="runs per session; the fastest is timed")
    args = parser.parse_intermixed_args()
    feeds = load_feeds(args.inputs)
    if args.reference:
        outputs = args.outputs.split(",") if args.outputs else None
        write_record(args.reference, run_reference(args.model, feeds, args.reference, outputs))
        return
    for spec in args.runs:
        level, threads, out = spec.split(":", 2)
        if level not in LEVELS:
            sys.exit(f"unknown level {level!r}: {' or '.join(LEVELS)}")
        write_record(out, run_session(args.model, feeds, args.library, level, int(threads), out, args.repeat))


def read_record(out):
    try:
        with open(out + ".json") as f:
            return json.load(f)
    except FileNotFoundError:
        return None


def describe_exit(code, stderr):
    if code < 0:
        try:
            what = f"killed by {signal.Signals(-code).name}"
        except ValueError:
            what = f"killed by signal {-code}"
    else:
        what = f"exited with status {code}"
    tail = stderr.strip().splitlines()[-3:]
    return what + (": " + " | ".join(tail) if tail else "")


def run_isolated(model, inputs, with_library, runs, timeout=600, repeat=3, python=sys.executable):
    """Runs (level, threads, out) triples in child processes; returns {out: record}. A
    child that dies or hangs gets a "crash" record for the run it was in."""
    records = {}
    for out in {r[2] for r in runs}:
        for ext in (".json", ".npz"):
            if os.path.exists(out + ext):
                os.remove(out + ext)
    left = list(runs)
    while left:
        cmd = [python, os.path.join(HERE, "run_one.py"), model, inputs]
        cmd += [f"{level}:{threads}:{out}" for level, threads, out in left]
        cmd += ["--library" if with_library else "--no-library", "--repeat", str(repeat)]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
            code, stderr = proc.returncode, proc.stderr
        except subprocess.TimeoutExpired as e:
            code, stderr = None, f"timed out after {timeout} s " + (e.stderr or b"").decode(errors="replace")
        done = [r for r in left if read_record(r[2]) is not None]
        for r in done:
            records[r[2]] = read_record(r[2])
        left = [r for r in left if r not in done]
        if left:
            what = stderr if code is None else describe_exit(code, stderr)
            records[left[0][2]] = {"status": "crash", "message": what}
            left = left[1:]
    return records


def reference_isolated(model, inputs, out, outputs=None, timeout=600, python=sys.executable):
    cmd = [python, os.path.join(HERE, "run_one.py"), model, inputs, "--reference", out]
    if outputs:
        cmd += ["--outputs", ",".join(outputs)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"status": "crash", "message": f"the reference timed out after {timeout} s"}
    return read_record(out) or {"status": "crash", "message": describe_exit(proc.returncode, proc.stderr)}


if __name__ == "__main__":
    main()
