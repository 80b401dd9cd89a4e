#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""The checkpoint converter against the plain way, ratios in one run (docs/python.md
"Converting a checkpoint", issue 51 item 5):

- a sharded float32 checkpoint (default 2 GiB in 4 shards, made in --dir if missing)
  to bfloat16 and to float8_e4m3fn: `pytensorcast convert` (a child process, start-up
  and fsync included) against safetensors' `load_file`, ml_dtypes' `astype` and
  `save_file`, shard by shard, in this process (target: >= 2x for bfloat16);
- the same checkpoint to MXFP4 (`--dtype mxfp4`) on one thread and on all cores: GB of
  input per second per core (target: >= 1 GB/s per core).

The inputs are read once first (page cache warm for both), each case runs --repeat
times and the best is kept (the machine may be shared). Needs safetensors installed
(tests/python/requirements.txt). Run:
python scripts/bench-convert.py [--dir DIR] [--gib 2] [--shards 4] [--repeat 2]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

import ml_dtypes
import numpy as np
from safetensors.numpy import load_file, save_file

import pytensorcast as tc


def make_checkpoint(d: str, gib: float, shards: int) -> None:
    os.makedirs(d, exist_ok=True)
    per_shard = int(gib * 2**30) // shards
    k = 4096
    rows = per_shard // 2 // (k * 4)  # two tensors a shard
    piece = np.random.default_rng(1).standard_normal((rows // 8 or 1, k)).astype(np.float32)
    wm = {}
    for s in range(shards):
        name = f"model-{s + 1:05d}-of-{shards:05d}.safetensors"
        names = [f"model.layers.{2 * s + i}.mlp.weight" for i in range(2)]
        nbytes = rows * k * 4
        header = {n: {"dtype": "F32", "shape": [rows, k], "data_offsets": [i * nbytes, (i + 1) * nbytes]}
                  for i, n in enumerate(names)}
        header["__metadata__"] = {"format": "pt"}
        blob = json.dumps(header).encode()
        blob += b" " * (-(8 + len(blob)) % 8)
        with open(os.path.join(d, name), "wb") as f:
            f.write(struct.pack("<Q", len(blob)) + blob)
            for i in range(2):
                done = 0
                while done < rows:
                    n = min(piece.shape[0], rows - done)
                    f.write((piece[:n] * (s + i + 1) + done).tobytes())
                    done += n
        wm.update({n: name for n in names})
    with open(os.path.join(d, "model.safetensors.index.json"), "w") as f:
        json.dump({"metadata": {"total_size": 0}, "weight_map": wm}, f)
    with open(os.path.join(d, "config.json"), "w") as f:
        json.dump({"torch_dtype": "float32"}, f)


def shards_of(d: str) -> list:
    with open(os.path.join(d, "model.safetensors.index.json")) as f:
        return sorted(set(json.load(f)["weight_map"].values()))


def warm(d: str) -> int:
    total = 0
    for n in os.listdir(d):
        with open(os.path.join(d, n), "rb") as f:
            while True:
                b = f.read(1 << 24)
                if not b:
                    break
                total += len(b)
    return total


def plain(d: str, out: str, dtype) -> float:
    """safetensors + ml_dtypes, shard by shard, as a script without the converter does it."""
    os.makedirs(out, exist_ok=True)
    t0 = time.perf_counter()
    for name in shards_of(d):
        tensors = load_file(os.path.join(d, name))
        converted = {k: (v.astype(dtype) if v.dtype.kind == "f" else v) for k, v in tensors.items()}
        save_file(converted, os.path.join(out, name), metadata={"format": "pt"})
        del tensors, converted
    shutil.copyfile(os.path.join(d, "model.safetensors.index.json"), os.path.join(out, "model.safetensors.index.json"))
    return time.perf_counter() - t0


def cli(d: str, out: str, *args: str) -> float:
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "pytensorcast", "convert", d, out, *args], capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit(f"pytensorcast convert failed: {r.stderr}")
    return elapsed


def best(fn, repeat: int, out: str) -> float:
    times = []
    for _ in range(repeat):
        shutil.rmtree(out, ignore_errors=True)
        times.append(fn())
    shutil.rmtree(out, ignore_errors=True)
    return min(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", help="the float32 checkpoint (made there if missing; default: a temporary one)")
    ap.add_argument("--gib", type=float, default=2.0)
    ap.add_argument("--shards", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="bench-convert-")
    try:
        d = args.dir or os.path.join(tmp, "in")
        if not os.path.exists(os.path.join(d, "model.safetensors.index.json")):
            make_checkpoint(d, args.gib, args.shards)
        size = warm(d)
        out = os.path.join(tmp, "out")
        cores = os.cpu_count() or 1
        print(f"pytensorcast {tc.__version__}, numpy {np.__version__}, ml_dtypes {ml_dtypes.__version__}, "
              f"{len(shards_of(d))} shards, {size / 2**30:.2f} GiB of float32, {cores} cores")
        print("| float32 -> | safetensors + ml_dtypes astype + save_file | pytensorcast convert | speedup | target |")
        print("|---|---:|---:|---:|---|")
        ok = True
        for name, dtype, target in (("bfloat16", ml_dtypes.bfloat16, 2.0), ("float8_e4m3fn", ml_dtypes.float8_e4m3fn, None)):
            theirs = best(lambda: plain(d, out, dtype), args.repeat, out)
            ours = best(lambda: cli(d, out, "--dtype", name), args.repeat, out)
            ratio = theirs / ours
            ok &= target is None or ratio >= target
            print(f"| {name} | {theirs:.2f} s | {ours:.2f} s | {ratio:.1f}x | {f'>= {target}x' if target else '-'} |")
        print()
        print("| float32 -> mxfp4 | threads | wall | GB/s of input | per core | target |")
        print("|---|---:|---:|---:|---:|---|")
        for threads in sorted({1, cores}):
            t = best(lambda: cli(d, out, "--dtype", "mxfp4", "--threads", str(threads)), args.repeat, out)
            used = min(threads, cores)
            per_core = size / t / 1e9 / used
            ok &= per_core >= 1.0 or threads != 1
            print(f"| pytensorcast convert --dtype mxfp4 | {threads} | {t:.2f} s | {size / t / 1e9:.2f} | "
                  f"{per_core:.2f} | >= 1 GB/s per core |")
        if not ok:
            print("below target")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
