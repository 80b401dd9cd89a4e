# SPDX-License-Identifier: MIT OR Apache-2.0
"""The transformer graphs of transformers/ (made by scripts/export-transformers.py from
tiny configs with random weights: BERT, GPT-2, Llama, T5, Whisper and ViT, each exported
by torch's TorchScript and dynamo exporters, GPT-2 and Llama also in float16) and their
deterministic inputs."""

import json
import os

import numpy as np

DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "transformers")
with open(os.path.join(DIR, "MANIFEST.json")) as f:
    MANIFEST = json.load(f)
NAMES = sorted(MANIFEST["models"])
VOCAB = 99  # the configs' vocab_size (scripts/export-transformers.py)


def path(name):
    return os.path.join(DIR, MANIFEST["models"][name]["file"])


def feeds(name):
    """The model's inputs: token ids spread over the vocabulary, masks of ones (every
    token attended), zero token types, and seeded normal values for audio features and
    pixels."""
    rng = np.random.default_rng(20261207)
    out = {}
    for input_name, spec in sorted(MANIFEST["models"][name]["inputs"].items()):
        shape = tuple(spec["shape"])
        if spec["dtype"] == "int64":
            if input_name.endswith("mask"):
                out[input_name] = np.ones(shape, np.int64)
            elif input_name == "token_type_ids":
                out[input_name] = np.zeros(shape, np.int64)
            else:
                out[input_name] = rng.integers(1, VOCAB, shape, dtype=np.int64)
        else:
            out[input_name] = rng.standard_normal(shape).astype(spec["dtype"])
    return out
