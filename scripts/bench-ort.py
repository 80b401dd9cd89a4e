#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Side by side: one model of Cast, CastLike and Expand nodes in onnxruntime, without and
with tensorcast-ort, timed per node by onnxruntime's own profiler.

    bash scripts/test-ort.sh -k pinned          # once: builds the library and build/venv-ort
    build/venv-ort/bin/python scripts/bench-ort.py [--n 1048576] [--runs 7] [--threads 1]

Each node's time is the median of its kernel times over the runs (after one warm-up run);
the speedup is onnxruntime's time over tensorcast-ort's. Both sessions run in this process,
one after the other, on the same inputs, with graph optimizations off (so no node is
folded away) and the same intra-op thread count. Only ratios within one run mean anything.

    build/venv-ort/bin/python scripts/bench-ort.py --real [--runs 7] [--models REGEX]

--real times the real-model set instead (tests/oracles/onnxruntime/realmodels, built into
build/real-models by scripts/test-ort.sh; --transformers: the transformer exports of
tests/oracles/onnxruntime/transformers, the same way): for each model, the session-creation time
(median of --runs creations, each from fresh session options, alternating without and
with the library) and the run latency (median of --runs runs on its deterministic
inputs, alternating between the two sessions, after one warm-up run each), at
ORT_ENABLE_ALL with 1 intra-op thread, through ortnode.session_options, the tests' way
of attaching tensorcast-ort. The ratios are the time with the library over the time
without.

    build/venv-ort/bin/python scripts/bench-ort.py --chain [--nodes 200] [--runs 2000]
        [--counts 1,64] [--kind float-int32|int32-uint32|expand] [--dynamic] [--take-all]

--chain times the fixed cost of a node: chains of --nodes Cast nodes (FLOAT -> INT32 ->
FLOAT ..., or INT32 -> UINT32 -> INT32 ..., or Expand nodes that copy) of each of --counts
elements (a static extent, or with --dynamic a named one), and the same chains of one
node, with graph optimizations off (nothing folded) and 1 intra-op thread. Each
session.run is timed on its own, alternating the session without and with the library,
over --runs repetitions; a node's time is the median run of the long chain less the
median run of the one-node chain, over the nodes between. The ratio is the time with the
library over the time without. The provider leaves small nodes that onnxruntime runs to
the same bytes to onnxruntime (integrations/onnxruntime/README.md); --take-all turns that
off (the provider option leave_small_nodes = "0"), to time its kernels on every node.
"""

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time

import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIB = os.environ.get("TCAST_ORT_LIB") or os.path.join(
    ROOT, "target", "release", "libtensorcast_ort.so")

# (node name, what it does), in the order printed.
NODES = [
    ("cast_f32_to_f16", "Cast FLOAT -> FLOAT16"),
    ("castlike_f32_to_f16", "CastLike FLOAT -> FLOAT16"),
    ("cast_f32_to_e4m3fn", "Cast FLOAT -> FLOAT8E4M3FN"),
    ("cast_f32_to_i32", "Cast FLOAT -> INT32"),
    ("cast_f64_to_string", "Cast DOUBLE -> STRING"),
    ("cast_string_to_f32", "Cast STRING -> FLOAT"),
    ("expand_f32", "Expand FLOAT [1,1024] -> [n/1024,1024]"),
    ("expand_f32_column", "Expand FLOAT [n/1024,1] -> [n/1024,1024]"),
]


def model(n):
    rows = n // 1024
    f = TensorProto.FLOAT
    nodes = [
        helper.make_node("Cast", ["x32"], ["y_f16"], name="cast_f32_to_f16", to=TensorProto.FLOAT16),
        helper.make_node("CastLike", ["x32", "like_f16"], ["y_like"], name="castlike_f32_to_f16"),
        helper.make_node("Cast", ["x32"], ["y_e4m3"], name="cast_f32_to_e4m3fn", to=TensorProto.FLOAT8E4M3FN),
        helper.make_node("Cast", ["x32"], ["y_i32"], name="cast_f32_to_i32", to=TensorProto.INT32),
        helper.make_node("Cast", ["x64"], ["y_str"], name="cast_f64_to_string", to=TensorProto.STRING),
        helper.make_node("Cast", ["s"], ["y_parsed"], name="cast_string_to_f32", to=f),
        helper.make_node("Expand", ["row", "shape"], ["y_wide"], name="expand_f32"),
        helper.make_node("Expand", ["column", "shape"], ["y_tall"], name="expand_f32_column"),
    ]
    inputs = [
        helper.make_tensor_value_info("x32", f, [n]),
        helper.make_tensor_value_info("like_f16", TensorProto.FLOAT16, [1]),
        helper.make_tensor_value_info("x64", TensorProto.DOUBLE, [n]),
        helper.make_tensor_value_info("s", TensorProto.STRING, [n]),
        helper.make_tensor_value_info("row", f, [1, 1024]),
        helper.make_tensor_value_info("column", f, [rows, 1]),
        helper.make_tensor_value_info("shape", TensorProto.INT64, [2]),
    ]
    outputs = [
        helper.make_tensor_value_info("y_f16", TensorProto.FLOAT16, [n]),
        helper.make_tensor_value_info("y_like", TensorProto.FLOAT16, [n]),
        helper.make_tensor_value_info("y_e4m3", TensorProto.FLOAT8E4M3FN, [n]),
        helper.make_tensor_value_info("y_i32", TensorProto.INT32, [n]),
        helper.make_tensor_value_info("y_str", TensorProto.STRING, [n]),
        helper.make_tensor_value_info("y_parsed", f, [n]),
        helper.make_tensor_value_info("y_wide", f, [rows, 1024]),
        helper.make_tensor_value_info("y_tall", f, [rows, 1024]),
    ]
    graph = helper.make_graph(nodes, "bench", inputs, outputs)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)]).SerializeToString()


def feeds(n):
    rng = np.random.default_rng(7)
    x64 = rng.standard_normal(n) * rng.choice([1e-3, 1.0, 1e3], n)
    return {
        "x32": x64.astype(np.float32),
        "like_f16": np.zeros(1, np.float16),
        "x64": x64,
        "s": np.array([repr(float(v)) for v in x64.astype(np.float32)], dtype=object),
        "row": rng.standard_normal((1, 1024)).astype(np.float32),
        "column": rng.standard_normal((n // 1024, 1)).astype(np.float32),
        "shape": np.array([n // 1024, 1024], np.int64),
    }


def tensorcast_devices():
    """The TensorcastExecutionProvider's devices (the library registered once)."""
    if not any(d.ep_name == "TensorcastExecutionProvider" for d in ort.get_ep_devices()):
        ort.register_execution_provider_library("tensorcast", LIB)
    return [d for d in ort.get_ep_devices() if d.ep_name == "TensorcastExecutionProvider"]


def node_times(model_bytes, inputs, with_library, runs, threads):
    """Median kernel time per node name, in microseconds, from onnxruntime's profiler."""
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.log_severity_level = 3
    so.enable_profiling = True
    with tempfile.TemporaryDirectory() as tmp:
        so.profile_file_prefix = os.path.join(tmp, "profile")
        if with_library:
            so.add_provider_for_devices(tensorcast_devices(), {})
        sess = ort.InferenceSession(model_bytes, so)
        for _ in range(runs + 1):
            sess.run(None, inputs)
        with open(sess.end_profiling()) as f:
            events = json.load(f)
    times = {}
    for event in events:
        if event.get("cat") == "Node" and event["name"].endswith("_kernel_time"):
            times.setdefault(event["name"][: -len("_kernel_time")], []).append(event["dur"])
    # The first run is the warm-up.
    return {name: statistics.median(d[1:]) for name, d in times.items()}


# --chain's node kinds: the two element types a chain of Casts alternates between, or
# Expand (FLOAT [count] to the same shape, a copy per node).
CHAINS = {
    "float-int32": (TensorProto.FLOAT, TensorProto.INT32),
    "int32-uint32": (TensorProto.INT32, TensorProto.UINT32),
    "expand": (TensorProto.FLOAT, TensorProto.FLOAT),
}


def cast_chain(nodes, count, kind="float-int32", dynamic=False):
    """A chain of `nodes` Cast nodes alternating between the two types of CHAINS[kind]
    (FLOAT -> INT32 -> FLOAT ...; onnxruntime removes FLOAT -> FLOAT16 -> FLOAT pairs even
    with optimizations off), or of Expand nodes, over `count` elements; with `dynamic`
    the input's extent is a name, so no node's element count is known before a run."""
    types = CHAINS[kind]
    extent = ["n"] if dynamic else [count]
    if kind == "expand":
        chain = [helper.make_node("Expand", [f"t{i}", "shape"], [f"t{i + 1}"], name=f"expand{i}")
                 for i in range(nodes)]
        shape = [helper.make_tensor("shape", TensorProto.INT64, [1], [count])]
    else:
        chain = [helper.make_node("Cast", [f"t{i}"], [f"t{i + 1}"], name=f"cast{i}", to=types[(i + 1) % 2])
                 for i in range(nodes)]
        shape = []
    graph = helper.make_graph(
        chain, "chain", [helper.make_tensor_value_info("t0", types[0], extent)],
        [helper.make_tensor_value_info(f"t{nodes}", types[nodes % 2], extent)], initializer=shape)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)]).SerializeToString()


def chain_session(model_bytes, with_library, take_all=False):
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    so.log_severity_level = 3
    if with_library:
        so.add_provider_for_devices(tensorcast_devices(), {"leave_small_nodes": "0"} if take_all else {})
    return ort.InferenceSession(model_bytes, so)


def chains(nodes, runs, counts, kind, dynamic, take_all):
    """--chain: the per-node time of chains of `kind` of each of `counts` elements, without
    and with."""
    if nodes < 2:
        sys.exit("--nodes must be at least 2")
    print(f"onnxruntime {ort.__version__}, ORT_DISABLE_ALL, 1 intra-op thread, median of {runs} runs; "
          f"{kind} chain{' (dynamic extent)' if dynamic else ''}"
          f"{', the provider taking every node' if take_all else ''}; "
          f"per node: (chain of {nodes} - chain of 1) / {nodes - 1}")
    print(f"| {'elements':>8} | {'alone':>10} | {'with':>10} | {'with - alone':>12} | {'ratio':>5} |")
    print(f"|{'-' * 9}:|{'-' * 11}:|{'-' * 11}:|{'-' * 13}:|{'-' * 6}:|")
    for count in counts:
        x = {"t0": np.linspace(-3, 3, count).astype(helper.tensor_dtype_to_np_dtype(CHAINS[kind][0]))}
        sessions = {(n, lib): chain_session(cast_chain(n, count, kind, dynamic), lib, take_all)
                    for n in (1, nodes) for lib in (False, True)}
        times = {key: [] for key in sessions}
        for session in sessions.values():
            for _ in range(20):
                session.run(None, x)
        clock = time.perf_counter
        for i in range(runs):
            order = list(sessions) if i % 2 == 0 else list(reversed(sessions))
            for key in order:
                session = sessions[key]
                start = clock()
                session.run(None, x)
                times[key].append(clock() - start)
        med = {key: statistics.median(v) for key, v in times.items()}
        per = {lib: (med[(nodes, lib)] - med[(1, lib)]) / (nodes - 1) for lib in (False, True)}
        print(f"| {count:>8} | {per[False] * 1e6:>7.3f} us | {per[True] * 1e6:>7.3f} us "
              f"| {(per[True] - per[False]) * 1e6:>+9.3f} us | {per[True] / per[False]:>5.2f} |")


def real_model_times(path, feeds, runs, ort_level, session_options):
    """Median creation and run times (s) of the model, {False: alone, True: with}."""
    for with_library in (False, True):  # warm-up: the library's registration, file caches
        ort.InferenceSession(path, session_options(with_library, 1, ort_level))
    create = {False: [], True: []}
    for i in range(runs):
        for with_library in ((False, True) if i % 2 == 0 else (True, False)):
            options = session_options(with_library, 1, ort_level)
            start = time.perf_counter()
            ort.InferenceSession(path, options)
            create[with_library].append(time.perf_counter() - start)
    sessions = {lib: ort.InferenceSession(path, session_options(lib, 1, ort_level)) for lib in (False, True)}
    for session in sessions.values():
        session.run(None, feeds)
    run = {False: [], True: []}
    for i in range(runs):
        for with_library in ((False, True) if i % 2 == 0 else (True, False)):
            start = time.perf_counter()
            sessions[with_library].run(None, feeds)
            run[with_library].append(time.perf_counter() - start)
    return ({k: statistics.median(v) for k, v in create.items()},
            {k: statistics.median(v) for k, v in run.items()})


def real_models(runs, pattern, transformers=False):
    """--real (--transformers): the table of creation and run times of the real-model set
    (of the transformer exports)."""
    tests = os.path.join(ROOT, "tests", "oracles", "onnxruntime")
    sys.path[:0] = [tests, os.path.join(tests, "realmodels")]
    import ortnode

    if transformers:
        import transformer_set

        models = [(name, lambda name=name: (transformer_set.path(name), transformer_set.feeds(name)))
                  for name in transformer_set.NAMES]
    else:
        import build_models
        import inputs

        def real(name):
            path, spec = build_models.paths(name)
            if not os.path.exists(path):
                return None, None
            return path, inputs.feeds(path, spec)

        models = [(name, lambda name=name: real(name)) for name in build_models.NAMES]

    level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    print(f"onnxruntime {ort.__version__}, ORT_ENABLE_ALL, 1 intra-op thread, median of {runs}; "
          f"ratios are with tensorcast-ort over without")
    print(f"| {'model':<24} | {'create alone':>12} | {'create with':>11} | {'ratio':>5} "
          f"| {'run alone':>10} | {'run with':>10} | {'ratio':>5} |")
    print(f"|{'-' * 26}|{'-' * 13}:|{'-' * 12}:|{'-' * 6}:|{'-' * 11}:|{'-' * 11}:|{'-' * 6}:|")
    missing = 0
    for name, load in models:
        if not re.search(pattern, name):
            continue
        path, model_feeds = load()
        if path is None:
            print(f"| {name:<24} | not built: tests/oracles/onnxruntime/realmodels/build_models.py |")
            missing += 1
            continue
        try:
            create, run = real_model_times(path, model_feeds, runs, level, ortnode.session_options)
        except Exception as e:  # a model onnxruntime refuses, with or without the library
            print(f"| {name:<24} | {type(e).__name__}: {str(e).strip().splitlines()[0][:120]} |")
            continue
        print(f"| {name:<24} | {create[False] * 1e3:>9.2f} ms | {create[True] * 1e3:>8.2f} ms "
              f"| {create[True] / create[False]:>5.2f} | {run[False] * 1e3:>7.3f} ms | {run[True] * 1e3:>7.3f} ms "
              f"| {run[True] / run[False]:>5.2f} |")
    if missing:
        sys.exit(f"{missing} model(s) not built")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1 << 20, help="elements per tensor (a multiple of 1024)")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--threads", type=int, default=1, help="intra-op threads of both sessions")
    parser.add_argument("--real", action="store_true", help="time the real-model set instead")
    parser.add_argument("--transformers", action="store_true",
                        help="time the transformer exports (tests/oracles/onnxruntime/transformers) instead")
    parser.add_argument("--models", default="",
                        help="with --real or --transformers: only the models whose name matches")
    parser.add_argument("--chain", action="store_true", help="time chains of small Casts instead")
    parser.add_argument("--nodes", type=int, default=200, help="with --chain: Cast nodes per chain")
    parser.add_argument("--counts", default="1,64",
                        help="with --chain: the element counts timed, comma-separated")
    parser.add_argument("--kind", default="float-int32", choices=sorted(CHAINS),
                        help="with --chain: the nodes of the chain")
    parser.add_argument("--dynamic", action="store_true",
                        help="with --chain: the input's extent is a name, not a number")
    parser.add_argument("--take-all", action="store_true",
                        help="with --chain: the provider option leave_small_nodes=0 (it takes every node)")
    args = parser.parse_args()
    if args.chain:
        chains(args.nodes, args.runs, [int(c) for c in args.counts.split(",")], args.kind, args.dynamic,
               args.take_all)
        return
    if args.real or args.transformers:
        real_models(args.runs, args.models, args.transformers)
        return
    if args.n % 1024:
        sys.exit("--n must be a multiple of 1024")
    model_bytes, inputs = model(args.n), feeds(args.n)
    theirs = node_times(model_bytes, inputs, False, args.runs, args.threads)
    ours = node_times(model_bytes, inputs, True, args.runs, args.threads)
    print(f"onnxruntime {ort.__version__}, n = {args.n}, {args.threads} intra-op thread(s), "
          f"median of {args.runs} runs")
    print(f"| {'node':<40} | {'onnxruntime':>12} | {'tensorcast-ort':>14} | {'speedup':>7} |")
    print(f"|{'-' * 42}|{'-' * 13}:|{'-' * 15}:|{'-' * 8}:|")
    known = {name for name, _ in NODES}
    # onnxruntime inlines CastLike (a function op) into its body, a Cast of another name.
    body = sum(t for name, t in theirs.items() if name not in known)
    for name, what in NODES:
        a, b = theirs.get(name, body), ours[name]
        print(f"| {what:<40} | {a / 1000:>9.2f} ms | {b / 1000:>11.2f} ms | {a / b:>6.2f}x |")


if __name__ == "__main__":
    main()
