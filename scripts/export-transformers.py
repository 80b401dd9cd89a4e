#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Exports the small transformer graphs of tests/oracles/onnxruntime/transformers/.

Each architecture is built by transformers from a tiny config with seeded random weights
(no download), and exported to ONNX by torch's two exporters: the TorchScript one
(`dynamo=False`) and the dynamo one (`dynamo=True`) twice: as it translates (`optimize=False`,
"-dynamo": CastLike nodes of constants left for onnxruntime to fold, as older exports
and those of model-local functions have them) and with its default onnxscript
optimization ("-dynamo-opt"). Llama and GPT-2 are exported once more in float16 (`HALF`),
the form in which such models carry most of their Casts (RMSNorm and softmax upcasts). The files are
committed; CI has no torch. Run it by hand, in a venv of its own, when the set changes:

    python3 -m venv /tmp/torchenv
    /tmp/torchenv/bin/pip install torch transformers onnxscript onnx
    /tmp/torchenv/bin/python scripts/export-transformers.py

It rewrites tests/oracles/onnxruntime/transformers/ (the models and MANIFEST.json with
the versions that made them, each model's inputs and their shapes).
"""

import json
import os
import sys
import warnings

import onnx
import torch
import transformers

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "oracles",
                   "onnxruntime", "transformers")
OPSET = 18
VOCAB = 99
SEQ = 8


class Plain(torch.nn.Module):
    """The model with positional inputs and its first output only (exporters want plain
    tensors, not transformers' output classes)."""

    def __init__(self, model, names):
        super().__init__()
        self.model = model
        self.names = names

    def forward(self, *args):
        out = self.model(**dict(zip(self.names, args)), return_dict=False)
        return out[0]


def ids(shape, high=VOCAB):
    return torch.randint(1, high, shape, generator=torch.Generator().manual_seed(7))


def ones(shape):
    return torch.ones(shape, dtype=torch.int64)


def bert():
    config = transformers.BertConfig(vocab_size=VOCAB, hidden_size=32, num_hidden_layers=2,
                                     num_attention_heads=4, intermediate_size=37,
                                     max_position_embeddings=64)
    return transformers.BertModel(config), {
        "input_ids": ids((1, SEQ)), "attention_mask": ones((1, SEQ)),
        "token_type_ids": torch.zeros((1, SEQ), dtype=torch.int64)}


def gpt2():
    config = transformers.GPT2Config(vocab_size=VOCAB, n_embd=32, n_layer=2, n_head=4,
                                     n_positions=64, use_cache=False)
    return transformers.GPT2LMHeadModel(config), {
        "input_ids": ids((1, SEQ)), "attention_mask": ones((1, SEQ))}


def llama():
    config = transformers.LlamaConfig(vocab_size=VOCAB, hidden_size=32, intermediate_size=64,
                                      num_hidden_layers=2, num_attention_heads=4,
                                      num_key_value_heads=2, max_position_embeddings=64,
                                      use_cache=False)
    return transformers.LlamaForCausalLM(config), {
        "input_ids": ids((1, SEQ)), "attention_mask": ones((1, SEQ))}


def t5():
    config = transformers.T5Config(vocab_size=VOCAB, d_model=32, d_kv=8, d_ff=37, num_layers=2,
                                   num_decoder_layers=2, num_heads=4, use_cache=False,
                                   decoder_start_token_id=0)
    return transformers.T5ForConditionalGeneration(config), {
        "input_ids": ids((1, SEQ)), "attention_mask": ones((1, SEQ)),
        "decoder_input_ids": ids((1, 4))}


def whisper():
    config = transformers.WhisperConfig(vocab_size=VOCAB, d_model=32, encoder_layers=2,
                                        decoder_layers=2, encoder_attention_heads=4,
                                        decoder_attention_heads=4, encoder_ffn_dim=37,
                                        decoder_ffn_dim=37, num_mel_bins=16,
                                        max_source_positions=30, max_target_positions=32,
                                        pad_token_id=1, bos_token_id=2, eos_token_id=3,
                                        decoder_start_token_id=2, suppress_tokens=None,
                                        begin_suppress_tokens=None, use_cache=False)
    features = torch.randn((1, 16, 60), generator=torch.Generator().manual_seed(7))
    return transformers.WhisperForConditionalGeneration(config), {
        "input_features": features, "decoder_input_ids": ids((1, 4)),
        "decoder_attention_mask": ones((1, 4))}


def vit():
    config = transformers.ViTConfig(image_size=32, patch_size=8, num_channels=3, hidden_size=32,
                                    num_hidden_layers=2, num_attention_heads=4,
                                    intermediate_size=37)
    pixels = torch.randn((1, 3, 32, 32), generator=torch.Generator().manual_seed(7))
    return transformers.ViTModel(config), {"pixel_values": pixels}


ARCHS = {"bert": bert, "gpt2": gpt2, "llama": llama, "t5": t5, "whisper": whisper, "vit": vit}
# The float16 exports: both exporters' for Llama, the dynamo one's for GPT-2 (the
# TorchScript exporter writes GPT-2's float16 LayerNormalization with a FLOAT scale,
# which onnxruntime refuses to load).
HALF = {"gpt2": ("dynamo",), "llama": ("torchscript", "dynamo")}


def export(name, make, exporter, half, attention=None):
    torch.manual_seed(1234)
    model, feeds = make()
    if attention:
        model.set_attn_implementation(attention)
    model.eval()
    if half:
        model = model.half()
        feeds = {k: v.half() if v.is_floating_point() else v for k, v in feeds.items()}
    names = list(feeds)
    wrapped = Plain(model, names).eval()
    path = os.path.join(OUT, name + ".onnx")
    args = tuple(feeds[n] for n in names)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if exporter != "torchscript":
            torch.onnx.export(wrapped, args, path, input_names=names, output_names=["out"],
                              opset_version=OPSET, dynamo=True, external_data=False,
                              optimize=exporter == "dynamo-opt")
        else:
            torch.onnx.export(wrapped, args, path, input_names=names, output_names=["out"],
                              opset_version=OPSET, dynamo=False, do_constant_folding=False)
    m = onnx.load(path)
    # The exporters' per-node metadata (source locations, stack traces) is most of a
    # file's bytes and nothing onnxruntime reads: dropped.
    for node in list(m.graph.node) + [n for f in m.functions for n in f.node]:
        del node.metadata_props[:]
        node.doc_string = ""
    del m.metadata_props[:]
    onnx.checker.check_model(m)
    onnx.save(m, path)
    ops = {}
    for node in m.graph.node:
        ops[node.op_type] = ops.get(node.op_type, 0) + 1
    for f in m.functions:
        for node in f.node:
            ops[node.op_type] = ops.get(node.op_type, 0) + 1
    return {
        "file": name + ".onnx",
        "inputs": {n: {"dtype": str(feeds[n].dtype).replace("torch.", ""),
                       "shape": list(feeds[n].shape)} for n in names},
        "nodes": len(m.graph.node), "functions": len(m.functions),
        "casts": ops.get("Cast", 0) + ops.get("CastLike", 0),
        "bytes": os.path.getsize(path),
        "attention": attention or model.config._attn_implementation,
    }


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        if f.endswith(".onnx"):
            os.remove(os.path.join(OUT, f))
    manifest = {"made_by": {"torch": torch.__version__, "transformers": transformers.__version__,
                            "onnx": onnx.__version__, "opset": OPSET}, "models": {}}
    wanted = sys.argv[1:]
    for arch, make in ARCHS.items():
        for exporter in ("torchscript", "dynamo", "dynamo-opt"):
            for half in (False, True) if exporter in HALF.get(arch, ()) else (False,):
                name = f"{arch}-{exporter}" + ("-fp16" if half else "")
                if wanted and name not in wanted:
                    continue
                # transformers' default attention (sdpa) first; where an exporter cannot
                # take it (T5 under dynamo, Whisper's masks under TorchScript), eager.
                for attention in (None, "eager"):
                    try:
                        manifest["models"][name] = export(name, make, exporter, half, attention)
                        print(f"{name}: {manifest['models'][name]}", flush=True)
                        break
                    except Exception as e:  # noqa: BLE001 - reported; the set says what is missing
                        print(f"{name} ({attention or 'default'} attention): FAILED "
                              f"{type(e).__name__}: {str(e)[:300]}", flush=True)
    with open(os.path.join(OUT, "MANIFEST.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
