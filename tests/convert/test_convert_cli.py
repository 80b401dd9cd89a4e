# SPDX-License-Identifier: MIT OR Apache-2.0
"""What users expect of a CLI (issue 51, item 4): the `pytensorcast` console script,
--version, --exclude, --saturate/--no-saturate, tqdm's progress bar (rate, ETA,
throttled, a --check phase, none off a terminal), float4 refused with what to use."""

import os
import pty
import shutil
import subprocess
import sys

import ml_dtypes
import numpy as np
import pytest

import pytensorcast
from conftest import assert_one_error_line, run_main, write_safetensors


def console_script():
    path = os.path.join(os.path.dirname(sys.executable), "pytensorcast")
    return path if os.path.exists(path) else shutil.which("pytensorcast")


def test_console_script_and_version(tmp_path):
    script = console_script()
    assert script, "the pytensorcast console script is installed beside python"
    r = subprocess.run([script, "--version"], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() == f"pytensorcast {pytensorcast.__version__}"
    src = tmp_path / "m.safetensors"
    write_safetensors(src, {"w": np.ones((4, 4), np.float32)})
    r = subprocess.run([script, "convert", str(src), str(tmp_path / "o.safetensors"), "--dtype", "bfloat16"],
                       capture_output=True, text=True)
    assert r.returncode == 0 and "1 tensors converted" in r.stdout, r.stderr
    r = subprocess.run([script, "--help"], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.startswith("usage: pytensorcast")


def test_exclude_and_only(tmp_path, st_load):
    src = tmp_path / "m.safetensors"
    w = np.linspace(-1, 1, 32, dtype=np.float32)
    write_safetensors(src, {"enc.w": w, "enc.norm": w, "dec.w": w, "dec.norm": w})
    out = tmp_path / "o.safetensors"
    r = run_main(src, out, "--dtype", "bfloat16", "--exclude", "*.norm", "--check")
    assert r.returncode == 0, r.stderr
    assert {n: v[0] for n, v in st_load(out).items()} == {"enc.w": "BF16", "enc.norm": "F32", "dec.w": "BF16",
                                                          "dec.norm": "F32"}
    r = run_main(src, out, "--dtype", "bfloat16", "--only", "enc.*", "--exclude", "*.norm")
    assert r.returncode == 0, r.stderr
    assert {n: v[0] for n, v in st_load(out).items()} == {"enc.w": "BF16", "enc.norm": "F32", "dec.w": "F32",
                                                          "dec.norm": "F32"}


@pytest.mark.parametrize("fmt", ["safetensors", "npy"])
def test_saturate_and_no_saturate(tmp_path, fmt, st_load):
    x = np.array([1e6, -1e6, 1.0, 500.0, np.inf], np.float32)
    if fmt == "npy":
        np.save(tmp_path / "m.npy", x)
    else:
        write_safetensors(tmp_path / "m.safetensors", {"x": x})
    got = {}
    for flag in ("--saturate", "--no-saturate"):
        out = tmp_path / f"o{flag}.{fmt}"
        r = run_main(tmp_path / f"m.{fmt}", out, "--dtype", "float8_e5m2", flag, "--check")
        assert r.returncode == 0, r.stderr
        raw = st_load(out)["x"][2] if fmt == "safetensors" else np.load(out).tobytes()
        got[flag] = np.frombuffer(raw, ml_dtypes.float8_e5m2).astype(np.float32)
    for flag, sat in (("--saturate", True), ("--no-saturate", False)):
        want = pytensorcast.cast(x, "float8_e5m2", saturate=sat).astype(np.float32)
        assert got[flag].tolist() == want.tolist()
    assert got["--saturate"][:2].tolist() == [57344.0, -57344.0]  # clamped
    assert got["--no-saturate"][:2].tolist() == [np.inf, -np.inf]


@pytest.mark.parametrize("dtype", ["float4_e2m1fn", "float4", "FLOAT4E2M1"])
def test_float4_is_refused_with_what_to_use(tmp_path, dtype):
    src = tmp_path / "m.safetensors"
    write_safetensors(src, {"w": np.ones((4, 32), np.float32)})
    r = run_main(src, tmp_path / "o.safetensors", "--dtype", dtype)
    if dtype == "float4":  # not a dtype name at all: still a usage error
        assert_one_error_line(r, 2)
        return
    assert_one_error_line(r, 2)
    assert "--dtype mxfp4" in r.stderr
    assert sorted(os.listdir(tmp_path)) == ["m.safetensors"]


def run_on_terminal(args):
    main_fd, sub_fd = pty.openpty()
    p = subprocess.Popen([sys.executable, "-m", "pytensorcast", "convert", *map(str, args)],
                         stdout=subprocess.PIPE, stderr=sub_fd)
    os.close(sub_fd)
    chunks = []
    while True:
        try:
            data = os.read(main_fd, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    out, _ = p.communicate()
    os.close(main_fd)
    return p.returncode, out, b"".join(chunks).decode()


def test_progress_bar_is_tqdm_throttled_with_a_check_phase(tmp_path):
    # 3,000 small tensors: 6,000 updates; the bar is redrawn a few times a second only
    src = tmp_path / "m.safetensors"
    write_safetensors(src, {f"t{i}": np.full(4096, i, np.float32) for i in range(3000)})
    code, out, bar = run_on_terminal([src, tmp_path / "o.safetensors", "--dtype", "bfloat16", "--check"])
    assert code == 0 and b"3000 tensors converted" in out
    assert "convert: 100%" in bar and "check: 100%" in bar
    assert "B/s" in bar and "<" in bar  # rate and ETA/elapsed, as tqdm draws them
    assert bar.count("\r") < 60 and len(bar) < 8000, (bar.count("\r"), len(bar))


def test_no_progress_bar_off_a_terminal(tmp_path):
    src = tmp_path / "m.safetensors"
    write_safetensors(src, {"w": np.ones(1 << 16, np.float32)})
    r = subprocess.run([sys.executable, "-m", "pytensorcast", "convert", str(src), str(tmp_path / "o.safetensors"),
                        "--dtype", "bfloat16", "--check"], capture_output=True, text=True)
    assert r.returncode == 0 and r.stderr == ""
