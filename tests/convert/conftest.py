# SPDX-License-Identifier: MIT OR Apache-2.0
"""Helpers shared by the converter's tests (tests/convert)."""

import json
import os
import struct
import subprocess
import sys

import numpy as np
import pytest

ST_CODES = {"float32": "F32", "int64": "I64", "float16": "F16", "float64": "F64", "int32": "I32", "uint8": "U8",
            "bool": "BOOL"}


def write_safetensors(path, tensors, metadata=None):
    header, offset = {}, 0
    if metadata is not None:
        header["__metadata__"] = metadata
    for name, a in tensors.items():
        header[name] = {"dtype": ST_CODES[a.dtype.name], "shape": list(a.shape),
                        "data_offsets": [offset, offset + a.nbytes]}
        offset += a.nbytes
    blob = json.dumps(header).encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(blob)) + blob)
        for a in tensors.values():
            f.write(np.ascontiguousarray(a).tobytes())


def raw_safetensors(header, data=b""):
    """A safetensors file's bytes from a header given as a dict or as JSON text."""
    blob = header.encode() if isinstance(header, str) else json.dumps(header).encode()
    return struct.pack("<Q", len(blob)) + blob + data


def run_cli(*args, **kw):
    return subprocess.run([sys.executable, "-m", "pytensorcast", "convert", *map(str, args)],
                          capture_output=True, text=True, **kw)


def run_main(*args):
    """The CLI in this process (quicker than a child when no limit or signal is involved)."""
    import contextlib
    import io

    from pytensorcast.__main__ import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(["convert", *map(str, args)], prog="pytensorcast")
        except SystemExit as e:
            code = e.code
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def assert_one_error_line(r, code=1):
    assert r.returncode == code, (r.returncode, r.stdout, r.stderr)
    assert r.stderr.startswith("error: ") and r.stderr.count("\n") == 1, r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""


def no_temp_files(directory):
    return [n for n in os.listdir(directory) if n.endswith(".tmp")] == []


@pytest.fixture
def st_load():
    """safetensors' own loader (the oracle): {name: (dtype, shape, bytes)}."""
    import safetensors

    def load(path):
        data = open(path, "rb").read()
        return {n: (v["dtype"], list(v["shape"]), bytes(v["data"])) for n, v in safetensors.deserialize(data)}

    return load
