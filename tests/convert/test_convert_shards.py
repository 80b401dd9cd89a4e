# SPDX-License-Identifier: MIT OR Apache-2.0
"""Sharded checkpoints (issue 51, item 2): a directory of safetensors shards with
model.safetensors.index.json, converted in parallel with bounded memory; --part K/N and
--finish; the 2 GiB checkpoint with its peak anonymous memory measured."""

import json
import os
import struct
import subprocess
import sys
import threading
import time

import ml_dtypes
import numpy as np
import pytest

from conftest import assert_one_error_line, run_cli, run_main, write_safetensors

SHARDS = [f"model-{i:05d}-of-00003.safetensors" for i in (1, 2, 3)]


def make_checkpoint(d, torch_dtype="float32"):
    d.mkdir()
    rng = np.random.default_rng(11)
    wm, tensors = {}, {}
    for i, name in enumerate(SHARDS):
        t = {f"layers.{i}.w": rng.standard_normal((16, 64)).astype(np.float32),
             f"layers.{i}.b": rng.standard_normal(64).astype(np.float16),
             f"layers.{i}.pos": np.arange(7)}
        write_safetensors(d / name, t, metadata={"format": "pt"})
        wm.update({k: name for k in t})
        tensors.update(t)
    (d / "model.safetensors.index.json").write_text(json.dumps({"metadata": {"total_size": 1}, "weight_map": wm}))
    (d / "config.json").write_text(json.dumps({"model_type": "x", "torch_dtype": torch_dtype,
                                               "text_config": {"torch_dtype": torch_dtype}}))
    (d / "tokenizer.json").write_text('{"v": 1}')
    (d / "original").mkdir()
    (d / "original" / "big.bin").write_bytes(b"not copied")
    return tensors


@pytest.mark.parametrize("dtype,code", [("bfloat16", "BF16"), ("float8_e4m3fn", "F8_E4M3")])
@pytest.mark.parametrize("given", ["directory", "index"])
def test_sharded_checkpoint(tmp_path, dtype, code, given, st_load):
    tensors = make_checkpoint(tmp_path / "in")
    src = tmp_path / "in" if given == "directory" else tmp_path / "in" / "model.safetensors.index.json"
    out = tmp_path / "out"
    r = run_main(src, out, "--dtype", dtype, "--check", "--threads", "2")
    assert r.returncode == 0, r.stderr
    assert "3 shards" in r.stdout and "directories not copied: original/" in r.stdout
    assert sorted(os.listdir(out)) == sorted(SHARDS + ["model.safetensors.index.json", "config.json", "tokenizer.json"])
    target = np.dtype(getattr(ml_dtypes, dtype))
    index = json.loads((out / "model.safetensors.index.json").read_text())
    total, wm = 0, {}
    for name in SHARDS:
        loaded = st_load(out / name)  # safetensors loads every shard
        for t, (dt, shape, raw) in loaded.items():
            wm[t] = name
            total += len(raw)
            a = tensors[t]
            assert shape == list(a.shape)
            if a.dtype.kind == "f":
                assert dt == code and raw == a.astype(target).tobytes()
            else:
                assert raw == a.tobytes()
    assert index["weight_map"] == wm and index["metadata"]["total_size"] == total
    config = json.loads((out / "config.json").read_text())
    assert config["torch_dtype"] == dtype and config["text_config"]["torch_dtype"] == dtype
    assert config["model_type"] == "x" and (out / "tokenizer.json").read_text() == '{"v": 1}'


def test_parts_then_finish_give_what_one_run_gives(tmp_path):
    make_checkpoint(tmp_path / "in")
    r = run_main(tmp_path / "in", tmp_path / "whole", "--dtype", "bfloat16")
    assert r.returncode == 0, r.stderr
    out = tmp_path / "parts"
    r = run_main(tmp_path / "in", out, "--dtype", "bfloat16", "--part", "1/2")
    assert r.returncode == 0 and "part 1/2" in r.stdout, r.stderr
    assert sorted(os.listdir(out)) == [SHARDS[0], SHARDS[2]]
    r = run_main(tmp_path / "in", out, "--dtype", "bfloat16", "--finish")  # too early
    assert_one_error_line(r)
    assert "missing" in r.stderr and "model.safetensors.index.json" not in os.listdir(out)
    r = run_main(tmp_path / "in", out, "--dtype", "bfloat16", "--part", "2/2", "--check")
    assert r.returncode == 0, r.stderr
    r = run_main(tmp_path / "in", out, "--dtype", "float16", "--finish")  # other options than the parts'
    assert_one_error_line(r)
    r = run_main(tmp_path / "in", out, "--dtype", "bfloat16", "--finish", "--check")
    assert r.returncode == 0, r.stderr
    assert sorted(os.listdir(out)) == sorted(os.listdir(tmp_path / "whole"))
    for name in os.listdir(out):
        assert (out / name).read_bytes() == (tmp_path / "whole" / name).read_bytes(), name
    for bad in ("0/2", "3/2", "x", "1/0"):
        assert_one_error_line(run_main(tmp_path / "in", out, "--dtype", "bfloat16", "--part", bad), 2)


def test_sharded_refusals(tmp_path):
    make_checkpoint(tmp_path / "in")
    (tmp_path / "link").symlink_to(tmp_path / "in")
    before = {n: (tmp_path / "in" / n).read_bytes() for n in SHARDS}
    r = run_main(tmp_path / "in", tmp_path / "link", "--dtype", "bfloat16")
    assert_one_error_line(r)
    assert "the input's directory" in r.stderr
    r = run_main(tmp_path / "in", tmp_path / "in", "--dtype", "bfloat16")
    assert_one_error_line(r)
    assert {n: (tmp_path / "in" / n).read_bytes() for n in SHARDS} == before
    # a broken shard: refused before anything is written (OUT not even created)
    data = (tmp_path / "in" / SHARDS[2]).read_bytes()
    (tmp_path / "in" / SHARDS[2]).write_bytes(data[:-1])
    assert_one_error_line(run_main(tmp_path / "in", tmp_path / "out", "--dtype", "bfloat16"))
    assert not (tmp_path / "out").exists()
    (tmp_path / "in" / SHARDS[2]).write_bytes(data)
    index = json.loads((tmp_path / "in" / "model.safetensors.index.json").read_text())
    for wm in ({**index["weight_map"], "extra": SHARDS[0]}, {**index["weight_map"], "x": "../in/" + SHARDS[0]}):
        (tmp_path / "in" / "model.safetensors.index.json").write_text(json.dumps({"weight_map": wm}))
        assert_one_error_line(run_main(tmp_path / "in", tmp_path / "out", "--dtype", "bfloat16"))
        assert not (tmp_path / "out").exists()


def test_sharded_interrupt_leaves_the_previous_out(tmp_path):
    make_checkpoint(tmp_path / "in")
    out = tmp_path / "out"
    out.mkdir()
    (out / SHARDS[0]).write_bytes(b"previous")
    code = (
        "import signal, os, pytensorcast._convert as c\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "orig = c.check_chunk\n"
        "def patched(*a):\n"
        "    orig(*a); os.kill(os.getpid(), signal.SIGINT)\n"
        "c.check_chunk = patched\n"
        "from pytensorcast.__main__ import main\n"
        f"raise SystemExit(main(['convert', {str(tmp_path / 'in')!r}, {str(out)!r}, '--dtype', 'bfloat16', '--check']))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 130 and "interrupted" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert os.listdir(out) == [SHARDS[0]] and (out / SHARDS[0]).read_bytes() == b"previous"


def test_directory_without_index(tmp_path, st_load):
    (tmp_path / "in").mkdir()
    write_safetensors(tmp_path / "in" / "model.safetensors", {"w": np.ones((2, 2), np.float32)})
    (tmp_path / "in" / "config.json").write_text('{"dtype": "float32"}')
    r = run_main(tmp_path / "in", tmp_path / "out", "--dtype", "float16")
    assert r.returncode == 0, r.stderr
    assert sorted(os.listdir(tmp_path / "out")) == ["config.json", "model.safetensors"]
    assert st_load(tmp_path / "out" / "model.safetensors")["w"][0] == "F16"
    assert json.loads((tmp_path / "out" / "config.json").read_text()) == {"dtype": "float16"}


def peak_rss_anon(p):
    """Samples /proc/PID/status's RssAnon of p every 5 ms until it ends: the peak, in bytes."""
    peak = 0
    while p.poll() is None:
        try:
            with open(f"/proc/{p.pid}/status") as f:
                for line in f:
                    if line.startswith("RssAnon:"):
                        peak = max(peak, int(line.split()[1]) * 1024)
        except (FileNotFoundError, ProcessLookupError):
            break
        time.sleep(0.005)
    return peak


def test_a_sharded_checkpoint_of_2_gib_in_bounded_memory(tmp_path):
    # 2 GiB of float32 in 4 shards of 2 tensors (made in chunks: the test never holds it
    # all), to bfloat16 with --check on 2 cores: the process's anonymous memory (sampled)
    # stays under 512 MiB, and the outputs are what the cast of each tensor gives.
    d = tmp_path / "in"
    d.mkdir()
    count = 1 << 26  # 256 MiB of float32 per tensor
    piece = np.random.default_rng(5).standard_normal(1 << 22).astype(np.float32)
    wm = {}
    for s in range(4):
        name = f"model-{s + 1:05d}-of-00004.safetensors"
        names = [f"layers.{2 * s + i}.weight" for i in range(2)]
        header = {n: {"dtype": "F32", "shape": [count // 1024, 1024], "data_offsets": [i * count * 4, (i + 1) * count * 4]}
                  for i, n in enumerate(names)}
        blob = json.dumps(header).encode()
        with open(d / name, "wb") as f:
            f.write(struct.pack("<Q", len(blob)) + blob)
            for i in range(2):
                for j in range(count // piece.size):
                    f.write((piece * (2 * s + i + 1) + j).tobytes())
        wm.update({n: name for n in names})
    (d / "model.safetensors.index.json").write_text(json.dumps({"metadata": {"total_size": 8 * count * 4},
                                                                "weight_map": wm}))
    assert sum(f.stat().st_size for f in d.iterdir()) > 2 * 1024**3
    out = tmp_path / "out"
    p = subprocess.Popen([sys.executable, "-m", "pytensorcast", "convert", str(d), str(out), "--dtype", "bfloat16",
                          "--check"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = peak_rss_anon(p)
    stdout, stderr = p.communicate()
    assert p.returncode == 0, stderr
    print(f"peak RssAnon {peak / 2**20:.0f} MiB")
    assert 0 < peak < 512 * 2**20, peak
    index = json.loads((out / "model.safetensors.index.json").read_text())
    assert index["metadata"]["total_size"] == 8 * count * 2 and index["weight_map"] == wm
    name = "model-00004-of-00004.safetensors"
    with open(out / name, "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(n))
        assert header["layers.7.weight"]["dtype"] == "BF16" and (8 + n) % 8 == 0
        f.seek(8 + n + header["layers.7.weight"]["data_offsets"][0] + 2 * (count - piece.size))
        tail = np.frombuffer(f.read(piece.size * 2), ml_dtypes.bfloat16)
    assert tail.tobytes() == (piece * 8 + (count // piece.size - 1)).astype(ml_dtypes.bfloat16).tobytes()
