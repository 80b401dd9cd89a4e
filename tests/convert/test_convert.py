# SPDX-License-Identifier: MIT OR Apache-2.0
"""The checkpoint converter, `python -m pytensorcast convert` (docs/python.md), as
installed from the wheel. scripts/test-python.sh runs these against the wheel only: the
converter is the package's Python code, the same files in every install, and its tests
are the I/O-heavy ones (a 2 GiB sharded checkpoint in test_convert_shards.py);
tests/python, which exercises the compiled extension, runs against the wheel,
`pip install .` and the sdist's build alike.
"""

import json
import os
import struct
import subprocess
import sys

import ml_dtypes
import numpy as np
import pytest

MD = ml_dtypes


def same(a, b):
    """Bitwise equality, NaNs compared as NaNs."""
    assert a.dtype == b.dtype and a.shape == b.shape
    fa = a.astype(np.float64) if a.dtype.kind in "fV" else a
    fb = b.astype(np.float64) if b.dtype.kind in "fV" else b
    if a.dtype.kind in "fV":
        nan = np.isnan(fa)
        assert (nan == np.isnan(fb)).all()
        keep = ~nan.reshape(-1)
        ua = np.ascontiguousarray(a).reshape(-1).view(np.uint8).reshape(a.size, a.dtype.itemsize)[keep]
        ub = np.ascontiguousarray(b).reshape(-1).view(np.uint8).reshape(b.size, b.dtype.itemsize)[keep]
        assert (ua == ub).all()
    else:
        assert (fa == fb).all()


def write_safetensors(path, tensors, chunk=1 << 26):
    header, offset = {}, 0
    for name, a in tensors.items():
        header[name] = {"dtype": {"float32": "F32", "int64": "I64", "float16": "F16"}[a.dtype.name],
                        "shape": list(a.shape), "data_offsets": [offset, offset + a.nbytes]}
        offset += a.nbytes
    blob = json.dumps(header).encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(blob)) + blob)
        for a in tensors.values():
            f.write(a.tobytes())


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "pytensorcast", "convert", *args], capture_output=True, text=True)


def read_safetensors(path):
    data = open(path, "rb").read()
    (n,) = struct.unpack("<Q", data[:8])
    return json.loads(data[8:8 + n]), 8 + n, data


def test_convert_safetensors_small(tmp_path):
    w = np.random.default_rng(3).standard_normal((100, 7)).astype(np.float32)
    ids = np.arange(5, dtype=np.int64)
    src = tmp_path / "m.safetensors"
    write_safetensors(src, {"enc.w": w, "ids": ids, "dec.w": w[:3]})
    out = tmp_path / "o.safetensors"
    r = run_cli(str(src), str(out), "--dtype", "bfloat16", "--only", "enc.*", "--check")
    assert r.returncode == 0, r.stderr
    assert "1 tensors converted, 2 copied" in r.stdout and "round trip checked" in r.stdout
    assert r.stderr == ""  # no progress bar when stderr is not a terminal
    header, start, data = read_safetensors(out)
    assert header["enc.w"]["dtype"] == "BF16" and header["dec.w"]["dtype"] == "F32"
    b, e = header["enc.w"]["data_offsets"]
    same(np.frombuffer(data[start + b:start + e], MD.bfloat16).reshape(100, 7), w.astype(MD.bfloat16))
    b, e = header["ids"]["data_offsets"]
    assert np.frombuffer(data[start + b:start + e], np.int64).tolist() == ids.tolist()


def test_convert_npy_and_npz(tmp_path):
    w = np.random.default_rng(4).standard_normal((50, 3)).astype(np.float32)
    np.save(tmp_path / "a.npy", w)
    np.savez(tmp_path / "a.npz", w=w, n=np.arange(3))
    r = run_cli(str(tmp_path / "a.npy"), str(tmp_path / "o.npy"), "--dtype", "float8_e4m3fn", "--check")
    assert r.returncode == 0, r.stderr
    same(np.load(tmp_path / "o.npy").view(MD.float8_e4m3fn), w.astype(MD.float8_e4m3fn))
    r = run_cli(str(tmp_path / "a.npz"), str(tmp_path / "o.npz"), "--dtype", "float16", "--check")
    assert r.returncode == 0, r.stderr
    z = np.load(tmp_path / "o.npz")
    same(z["w"], w.astype(np.float16))
    assert z["n"].tolist() == [0, 1, 2]


@pytest.mark.parametrize("damage", ["truncated", "short", "json", "offsets", "dtype"])
def test_convert_refuses_malformed_headers_and_writes_nothing(tmp_path, damage):
    src = tmp_path / "m.safetensors"
    write_safetensors(src, {"w": np.ones(16, np.float32)})
    data = src.read_bytes()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    if damage == "truncated":
        data = data[:-5]
    elif damage == "short":
        data = data[:5]
    elif damage == "json":
        data = data[:8] + b"{" * n + data[8 + n:]
    else:
        if damage == "offsets":
            header["w"]["data_offsets"] = [0, 80]
        else:
            header["w"]["dtype"] = "F7"
        blob = json.dumps(header).encode()
        data = struct.pack("<Q", len(blob)) + blob + data[8 + n:]
    src.write_bytes(data)
    r = run_cli(str(src), str(tmp_path / "o.safetensors"), "--dtype", "bfloat16")
    assert r.returncode == 1 and r.stderr.startswith("error: ")
    assert sorted(os.listdir(tmp_path)) == ["m.safetensors"]


def test_convert_interrupted_leaves_nothing(tmp_path):
    src = tmp_path / "m.safetensors"
    write_safetensors(src, {f"w{i}": np.ones(1 << 22, np.float32) for i in range(8)})
    p = subprocess.Popen([sys.executable, "-c", (
        # Python's own SIGINT handler first: a process started with SIGINT ignored (as a
        # shell's `cmd &` starts it, and every process under it inherits) keeps it ignored,
        # and Ctrl-C would never reach the converter.
        "import signal, os, pytensorcast._convert as c\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "orig = c.cast_chunks\n"
        "def slow(*a):\n"
        "    yield from orig(*a); os.kill(os.getpid(), signal.SIGINT)\n"
        "c.cast_chunks = slow\n"
        "from pytensorcast.__main__ import main\n"
        f"raise SystemExit(main(['convert', {str(src)!r}, {str(tmp_path / 'o.safetensors')!r}, '--dtype', 'f2']))\n")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, err = p.communicate()
    assert p.returncode == 130 and "interrupted" in err
    assert sorted(os.listdir(tmp_path)) == ["m.safetensors"]


def test_convert_draws_a_progress_bar_on_a_terminal_only(tmp_path):
    import pty

    src = tmp_path / "m.safetensors"
    write_safetensors(src, {"w": np.ones(1 << 20, np.float32)})
    main_fd, sub_fd = pty.openpty()
    p = subprocess.Popen([sys.executable, "-m", "pytensorcast", "convert", str(src), str(tmp_path / "o.safetensors"),
                          "--dtype", "bfloat16"], stdout=subprocess.PIPE, stderr=sub_fd)
    os.close(sub_fd)
    out, _ = p.communicate()
    chunks = []
    while True:
        try:
            data = os.read(main_fd, 4096)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.close(main_fd)
    bar = b"".join(chunks).decode()
    assert p.returncode == 0
    assert "convert: 100%" in bar and "B/s" in bar  # tqdm's bar
    assert b"1 tensors converted" in out
