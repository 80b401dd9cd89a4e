# SPDX-License-Identifier: MIT OR Apache-2.0
"""Nothing lost, ever (issue 51, item 1): the input is never written, OUT appears only
complete and checked, every failure is one `error:` line, headers are checked as
strictly as safetensors' loader checks them (the safetensors package is the oracle)."""

import io
import json
import os
import resource
import signal
import stat
import struct
import subprocess
import sys
import zipfile

import ml_dtypes
import numpy as np
import pytest
import safetensors

from conftest import assert_one_error_line, no_temp_files, raw_safetensors, run_cli, run_main, write_safetensors

F32x4 = np.arange(4, dtype=np.float32).tobytes()


def small(tmp_path, name="m.safetensors"):
    src = tmp_path / name
    write_safetensors(src, {"w": np.linspace(-3, 3, 64, dtype=np.float32).reshape(8, 8), "ids": np.arange(3)})
    return src


# ---- IN is never written ------------------------------------------------------------------


@pytest.mark.parametrize("how", ["dir-symlink", "file-symlink", "hardlink"])
def test_out_reaching_in_through_a_link_is_refused(tmp_path, how):
    d = tmp_path / "d"
    d.mkdir()
    src = small(d, "model.safetensors")
    before = src.read_bytes()
    if how == "dir-symlink":
        (tmp_path / "link").symlink_to(d)
        out = tmp_path / "link" / "model.safetensors"
    elif how == "file-symlink":
        out = tmp_path / "o.safetensors"
        out.symlink_to(src)
    else:
        out = tmp_path / "o.safetensors"
        os.link(src, out)
    r = run_cli(src, out, "--dtype", "float8_e4m3fn")
    assert_one_error_line(r)
    assert "same file" in r.stderr
    assert src.read_bytes() == before and no_temp_files(d) and no_temp_files(tmp_path)


def test_npz_to_ml_dtypes_types(tmp_path):
    # docs/python.md's own example used to end in "cannot include dtype 'E' in a buffer"
    rng = np.random.default_rng(7)
    w = rng.standard_normal((50, 3)).astype(np.float32)
    f = np.asfortranarray(rng.standard_normal((4, 6)))
    np.savez(tmp_path / "weights.npz", **{"encoder.w": w, "decoder.w": w[:5], "f": f, "n": np.arange(3)})
    np.savez_compressed(tmp_path / "c.npz", w=w)
    for dtype in ("bfloat16", "float8_e4m3fn", "float8_e5m2"):
        out = tmp_path / f"weights-{dtype}.npz"
        r = run_cli(tmp_path / "weights.npz", out, "--dtype", dtype, "--only", "encoder.*", "--only", "f", "--check")
        assert r.returncode == 0, r.stderr
        z = np.load(out)
        d = np.dtype(getattr(ml_dtypes, dtype))
        assert z["encoder.w"].view(d).tobytes() == w.astype(d).tobytes()
        assert z["decoder.w"].dtype == np.float32 and (z["decoder.w"] == w[:5]).all()
        assert z["f"].flags.f_contiguous and (z["f"].view(d) == f.astype(d)).all()
        assert z["n"].tolist() == [0, 1, 2]
    r = run_cli(tmp_path / "c.npz", tmp_path / "c-bf16.npz", "--dtype", "bfloat16", "--check")
    assert r.returncode == 0, r.stderr
    with zipfile.ZipFile(tmp_path / "c-bf16.npz") as z:
        assert z.getinfo("w.npy").compress_type == zipfile.ZIP_DEFLATED
    assert np.load(tmp_path / "c-bf16.npz")["w"].view(ml_dtypes.bfloat16).tobytes() == w.astype(ml_dtypes.bfloat16).tobytes()


# ---- OUT appears only complete and checked ------------------------------------------------


def run_interrupted(src, out, patch, *extra):
    """Runs the CLI in a child that patches pytensorcast._convert.<patch> to do its work
    and then receive SIGINT (or, for "fail", to fail)."""
    code = (
        # Python's own SIGINT handler first: a process started with SIGINT ignored (as a
        # shell's `cmd &` starts it) keeps it ignored.
        "import signal, os, pytensorcast._convert as c\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        f"name = {patch!r}\n"
        "orig = getattr(c, name.rstrip('!'))\n"
        "def patched(*a):\n"
        "    if name.endswith('!'):\n"
        "        raise c.ConvertError('--check: a forced failure')\n"
        "    r = orig(*a); os.kill(os.getpid(), signal.SIGINT); return r\n"
        "setattr(c, name.rstrip('!'), patched)\n"
        "from pytensorcast.__main__ import main\n"
        f"raise SystemExit(main(['convert', {str(src)!r}, {str(out)!r}, '--dtype', 'bfloat16', *{list(extra)!r}]))\n"
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)


@pytest.mark.parametrize("when", ["convert", "check", "failed-check"])
@pytest.mark.parametrize("fmt", [".safetensors", ".npz"])
def test_interrupt_or_failed_check_leaves_the_previous_out(tmp_path, when, fmt):
    if fmt == ".safetensors":
        src = tmp_path / "m.safetensors"
        write_safetensors(src, {f"w{i}": np.ones(1 << 16, np.float32) for i in range(4)})
    else:
        src = tmp_path / "m.npz"
        np.savez(src, **{f"w{i}": np.ones(1 << 16, np.float32) for i in range(4)})
    out = tmp_path / ("o" + fmt)
    out.write_bytes(b"the previous OUT")
    patch = {"convert": "cast_chunks", "check": "check_chunk", "failed-check": "check_chunk!"}[when]
    if fmt == ".npz" and when == "convert":
        patch = "read_npy_header"
    r = run_interrupted(src, out, patch, "--check")
    if when == "failed-check":
        assert_one_error_line(r)
    else:
        assert r.returncode == 130 and "interrupted: nothing written" in r.stderr, r.stderr
        assert "Traceback" not in r.stderr
    assert out.read_bytes() == b"the previous OUT"
    assert sorted(os.listdir(tmp_path)) == sorted([src.name, out.name])


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_outputs_get_the_mode_of_a_normal_write(tmp_path, umask):
    src = small(tmp_path)
    np.save(tmp_path / "a.npy", np.ones(4, np.float32))
    for i, o in ((src, tmp_path / "o.safetensors"), (tmp_path / "a.npy", tmp_path / "o.npy")):
        r = run_cli(i, o, "--dtype", "bfloat16", preexec_fn=lambda: os.umask(umask))
        assert r.returncode == 0, r.stderr
        assert stat.S_IMODE(o.stat().st_mode) == 0o666 & ~umask


# ---- headers as strict as safetensors' loader ----------------------------------------------

BAD_HEADERS = {
    "count-overflows": ({"w": {"dtype": "F32", "shape": [2**62 + 1, 4], "data_offsets": [0, 16]}}, F32x4),
    "extent-2^70": ({"w": {"dtype": "F32", "shape": [2**70], "data_offsets": [0, 16]}}, F32x4),
    "bool-extent": ('{"w": {"dtype": "F32", "shape": [true, 4], "data_offsets": [0, 16]}}', F32x4),
    "float-extent": ('{"w": {"dtype": "F32", "shape": [4.0], "data_offsets": [0, 16]}}', F32x4),
    "negative-extent": ({"w": {"dtype": "F32", "shape": [-4], "data_offsets": [0, 16]}}, F32x4),
    "metadata-int": ({"__metadata__": {"a": 1}, "w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}, F32x4),
    "metadata-list": ({"__metadata__": ["a"], "w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}, F32x4),
    "metadata-string": ({"__metadata__": "a", "w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}, F32x4),
    "overlap": ({"a": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]},
                 "b": {"dtype": "F32", "shape": [2], "data_offsets": [8, 16]}}, F32x4),
    "hole": ({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
              "b": {"dtype": "F32", "shape": [1], "data_offsets": [12, 16]}}, F32x4),
    "starts-late": ({"a": {"dtype": "F32", "shape": [3], "data_offsets": [4, 16]}}, F32x4),
    "trailing-bytes": ({"w": {"dtype": "F32", "shape": [3], "data_offsets": [0, 12]}}, F32x4),
    "truncated": ({"w": {"dtype": "F32", "shape": [8], "data_offsets": [0, 32]}}, F32x4),
    "end-before-begin": ({"w": {"dtype": "F32", "shape": [0], "data_offsets": [16, 0]}}, F32x4),
    "dtype-list": ({"w": {"dtype": ["F32"], "shape": [4], "data_offsets": [0, 16]}}, F32x4),
    "dtype-unknown": ({"w": {"dtype": "F7", "shape": [4], "data_offsets": [0, 16]}}, F32x4),
    "offsets-three": ({"w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16, 16]}}, F32x4),
    "offsets-2^64": ({"w": {"dtype": "F32", "shape": [4], "data_offsets": [2**64, 2**64 + 16]}}, F32x4),
    "half-byte": ({"w": {"dtype": "F4", "shape": [3], "data_offsets": [0, 2]}}, b"\0\0"),
    "not-an-object": ("[1, 2]", b""),
    "not-json": ("{'w': 1}", b""),
    "lone-surrogate": ('{"\\ud800": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}', F32x4),
    "bad-utf8": (b'{"\xff": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}'.decode("latin-1"), F32x4),
    "nan": ('{"w": {"dtype": "F32", "shape": [NaN], "data_offsets": [0, 16]}}', F32x4),
}


@pytest.mark.parametrize("case", sorted(BAD_HEADERS))
def test_headers_safetensors_refuses_are_refused(tmp_path, case):
    header, data = BAD_HEADERS[case]
    blob = raw_safetensors(header, data)
    if case == "bad-utf8":
        blob = raw_safetensors("", b"")[:0] + struct.pack("<Q", len(header)) + header.encode("latin-1") + data
    with pytest.raises(Exception):  # the oracle refuses it ...
        safetensors.deserialize(blob)
    src = tmp_path / "m.safetensors"
    src.write_bytes(blob)
    r = run_main(src, tmp_path / "o.safetensors", "--dtype", "bfloat16")
    assert_one_error_line(r)  # ... and so does the converter, before writing anything
    assert sorted(os.listdir(tmp_path)) == ["m.safetensors"]


GOOD_HEADERS = {
    "any-order": ({"b": {"dtype": "F32", "shape": [2], "data_offsets": [8, 16]},
                   "a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}, F32x4),
    "empty-tensors": ({"e": {"dtype": "F32", "shape": [0, 5], "data_offsets": [0, 0]},
                       "s": {"dtype": "F32", "shape": [], "data_offsets": [0, 4]},
                       "z": {"dtype": "F16", "shape": [0], "data_offsets": [4, 4]}}, F32x4[:4]),
    "metadata": ({"__metadata__": {"format": "pt", "é": "ü"}, "w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}},
                 F32x4),
    "metadata-null": ('{"__metadata__": null, "w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}', F32x4),
    "no-tensors": ({}, b""),
    "other-dtypes": ({"c": {"dtype": "C64", "shape": [1], "data_offsets": [0, 8]},
                      "f4": {"dtype": "F4", "shape": [4], "data_offsets": [8, 10]},
                      "e": {"dtype": "F8_E8M0", "shape": [2], "data_offsets": [10, 12]},
                      "b": {"dtype": "BOOL", "shape": [2], "data_offsets": [12, 14]},
                      "h": {"dtype": "BF16", "shape": [1], "data_offsets": [14, 16]}}, F32x4),
    "unicode-names": ({"😀.w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}, F32x4),
    "padded": ('{"w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}       ', F32x4),
}


@pytest.mark.parametrize("case", sorted(GOOD_HEADERS))
@pytest.mark.parametrize("dtype", ["bfloat16", "float8_e4m3fn", "float32"])
def test_headers_safetensors_accepts_convert_to_files_it_loads(tmp_path, case, dtype, st_load):
    header, data = GOOD_HEADERS[case]
    src = tmp_path / "m.safetensors"
    src.write_bytes(raw_safetensors(header, data))
    before = st_load(src)
    out = tmp_path / "o.safetensors"
    r = run_main(src, out, "--dtype", dtype, "--check")
    assert r.returncode == 0, r.stderr
    after = st_load(out)
    assert list(after) == list(before) or sorted(after) == sorted(before)
    target = np.dtype(getattr(ml_dtypes, dtype, None) or dtype)
    code = {"bfloat16": "BF16", "float8_e4m3fn": "F8_E4M3", "float32": "F32"}[dtype]
    for name, (dt, shape, raw) in before.items():
        odt, oshape, oraw = after[name]
        assert oshape == shape
        if dt in ("F32", "F16", "BF16"):
            src_dt = {"F32": np.float32, "F16": np.float16, "BF16": ml_dtypes.bfloat16}[dt]
            assert odt == code and oraw == np.frombuffer(raw, src_dt).astype(target).tobytes()
        else:
            assert (odt, oraw) == (dt, raw)
    with safetensors.safe_open(str(out), "numpy") as f:
        meta = json.loads(out.read_bytes()[8:8 + struct.unpack("<Q", out.read_bytes()[:8])[0]]).get("__metadata__")
        assert f.metadata() == meta


# ---- every failure is one `error:` line ----------------------------------------------------


def test_usage_errors_exit_2(tmp_path):
    src = small(tmp_path)
    for args in (["--threads", "-1"], ["--threads", "x"], ["--dtype", "int8"], ["--dtype", "nonsense"]):
        a = ["--dtype", "bfloat16"] + args if args[0] != "--dtype" else args
        r = run_cli(src, tmp_path / "o.safetensors", *a)
        assert_one_error_line(r, 2)
    r = run_cli(src, tmp_path / "o.npy", "--dtype", "bfloat16")
    assert_one_error_line(r, 2)
    r = subprocess.run([sys.executable, "-m", "pytensorcast"], capture_output=True, text=True)
    assert_one_error_line(r, 2)
    assert sorted(os.listdir(tmp_path)) == ["m.safetensors"]


def test_out_an_existing_directory(tmp_path):
    src = small(tmp_path)
    (tmp_path / "o.safetensors").mkdir()
    r = run_cli(src, tmp_path / "o.safetensors", "--dtype", "bfloat16")
    assert_one_error_line(r)
    assert os.listdir(tmp_path / "o.safetensors") == [] and no_temp_files(tmp_path)


def test_missing_input_and_missing_out_directory(tmp_path):
    r = run_cli(tmp_path / "none.safetensors", tmp_path / "o.safetensors", "--dtype", "bfloat16")
    assert_one_error_line(r)
    src = small(tmp_path)
    r = run_cli(src, tmp_path / "no" / "o.safetensors", "--dtype", "bfloat16")
    assert_one_error_line(r)
    assert sorted(os.listdir(tmp_path)) == ["m.safetensors"]


def test_a_full_filesystem(tmp_path):
    # RLIMIT_FSIZE with SIGXFSZ ignored: writes past 1 MiB fail with EFBIG, as a full
    # filesystem's fail with ENOSPC
    src = tmp_path / "m.safetensors"
    write_safetensors(src, {"w": np.ones(1 << 20, np.float32)})

    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))

    for out in ("o.safetensors",):
        r = run_cli(src, tmp_path / out, "--dtype", "float32", "--exclude", "*", preexec_fn=limit)
        assert_one_error_line(r)
        assert r.stderr == f"error: {tmp_path / out}: File too large\n"
        assert sorted(os.listdir(tmp_path)) == ["m.safetensors"]
    np.save(tmp_path / "a.npy", np.ones(1 << 20, np.float32))
    np.savez(tmp_path / "a.npz", w=np.ones(1 << 20, np.float32))
    for src, out in (("a.npy", "o.npy"), ("a.npz", "o.npz")):
        r = run_cli(tmp_path / src, tmp_path / out, "--dtype", "float64", preexec_fn=limit)
        assert_one_error_line(r)
        assert not (tmp_path / out).exists() and no_temp_files(tmp_path)


def test_a_read_only_place(tmp_path):
    src = small(tmp_path)
    r = run_cli(src, "/sys/o.safetensors", "--dtype", "bfloat16")  # sysfs: no new files, even for root
    assert_one_error_line(r)
    assert r.stderr.startswith("error: cannot write a file in /sys: ")


def test_npz_member_that_is_not_an_array(tmp_path):
    src = tmp_path / "m.npz"
    with zipfile.ZipFile(src, "w") as z:
        b = io.BytesIO()
        np.save(b, np.ones(2))
        z.writestr("w.npy", b.getvalue())
        z.writestr("notes.txt", b"hello")
    np.savez(tmp_path / "ok.npz", w=np.ones(2))
    with zipfile.ZipFile(tmp_path / "ok.npz", "a") as z:
        z.writestr("notes.txt", b"hello")
    for bad in (src, tmp_path / "ok.npz"):
        r = run_cli(bad, tmp_path / "o.npz", "--dtype", "bfloat16")
        assert_one_error_line(r)
        assert not (tmp_path / "o.npz").exists() and no_temp_files(tmp_path)


def test_npy_headers_refused(tmp_path):
    cases = {
        "huge": "{'descr': '<f4', 'fortran_order': False, 'shape': (1180591620717411303424,), }",
        "object": "{'descr': '|O', 'fortran_order': False, 'shape': (2,), }",
        "garbage": "{'descr': 'nonsense', 'fortran_order': False, 'shape': (2,), }",
        "truncated": "{'descr': '<f4', 'fortran_order': False, 'shape': (100,), }",
    }
    for name, h in cases.items():
        h = h.encode()
        h += b" " * (-(10 + len(h) + 1) % 64) + b"\n"
        (tmp_path / f"{name}.npy").write_bytes(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h + b"\0" * 16)
        r = run_cli(tmp_path / f"{name}.npy", tmp_path / "o.npy", "--dtype", "bfloat16")
        assert_one_error_line(r)
        assert not (tmp_path / "o.npy").exists() and no_temp_files(tmp_path)
        # the same as an .npz member
        with zipfile.ZipFile(tmp_path / f"{name}.npz", "w") as z:
            z.writestr("w.npy", (tmp_path / f"{name}.npy").read_bytes())
        r = run_cli(tmp_path / f"{name}.npz", tmp_path / "o.npz", "--dtype", "bfloat16")
        assert_one_error_line(r)
        assert not (tmp_path / "o.npz").exists() and no_temp_files(tmp_path)


def test_zip_bomb_under_a_memory_limit(tmp_path):
    # A 17 KB .npz whose member says it holds 64 GiB of float32 (16 MiB of zeros follow,
    # deflated): members are streamed, so the converter never asks for 64 GiB; it finds
    # the member short and says so, under a 2 GiB address-space limit.
    h = b"{'descr': '<f4', 'fortran_order': False, 'shape': (17179869184,), }"
    h += b" " * (-(10 + len(h) + 1) % 64) + b"\n"
    src = tmp_path / "bomb.npz"
    with zipfile.ZipFile(src, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("w.npy", b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h + bytes(1 << 24))
    assert src.stat().st_size < 100_000
    lim = 2 << 30
    r = run_cli(src, tmp_path / "o.npz", "--dtype", "bfloat16",
                preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (lim, lim)))
    assert_one_error_line(r)
    assert "truncated" in r.stderr
    assert sorted(os.listdir(tmp_path)) == ["bomb.npz"]
