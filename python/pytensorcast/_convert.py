# SPDX-License-Identifier: MIT OR Apache-2.0
"""Checkpoint conversion (python -m pytensorcast convert): .safetensors, .npy, .npz.

Headers are read and checked completely before anything is written; the output goes to a
temporary file beside OUT (removed on any error or interrupt) and is renamed over OUT
only when complete.
"""

from __future__ import annotations

import fnmatch
import json
import mmap
import os
import struct
import sys
import tempfile
import zipfile
from typing import Any, Callable, Optional

import ml_dtypes
import numpy as np

from . import cast, numpy_dtype

CHUNK_ELEMENTS = 1 << 23

# safetensors dtype names <-> numpy dtypes (one table; floating ones are converted).
SAFETENSORS_DTYPES: dict[str, np.dtype] = {
    "F64": np.dtype(np.float64),
    "F32": np.dtype(np.float32),
    "F16": np.dtype(np.float16),
    "BF16": np.dtype(ml_dtypes.bfloat16),
    "F8_E4M3": np.dtype(ml_dtypes.float8_e4m3fn),
    "F8_E5M2": np.dtype(ml_dtypes.float8_e5m2),
    "F8_E8M0": np.dtype(ml_dtypes.float8_e8m0fnu),
    "I64": np.dtype(np.int64),
    "I32": np.dtype(np.int32),
    "I16": np.dtype(np.int16),
    "I8": np.dtype(np.int8),
    "U64": np.dtype(np.uint64),
    "U32": np.dtype(np.uint32),
    "U16": np.dtype(np.uint16),
    "U8": np.dtype(np.uint8),
    "BOOL": np.dtype(np.bool_),
}
FLOATING = {"F64", "F32", "F16", "BF16", "F8_E4M3", "F8_E5M2", "F8_E8M0"}
SAFETENSORS_NAME = {d: n for n, d in SAFETENSORS_DTYPES.items()}
NUMPY_FLOATING = {np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)} | {
    SAFETENSORS_DTYPES[n] for n in FLOATING
}


class ConvertError(Exception):
    """A checkpoint that cannot be converted (malformed header, unknown dtype ...)."""


class Progress:
    """A progress bar on stderr, drawn only when stderr is a terminal."""

    def __init__(self, total: int) -> None:
        self.total = max(total, 1)
        self.done = 0
        self.tty = sys.stderr.isatty()

    def add(self, n: int) -> None:
        self.done += n
        if self.tty:
            frac = self.done / self.total
            bar = "#" * int(frac * 40)
            sys.stderr.write(f"\r[{bar:<40}] {frac * 100:5.1f}% {self.done >> 20} MiB")
            sys.stderr.flush()

    def close(self) -> None:
        if self.tty:
            sys.stderr.write("\n")


def _selected(name: str, only: Optional[list[str]]) -> bool:
    return not only or any(fnmatch.fnmatchcase(name, g) for g in only)


def _target(dtype: str) -> np.dtype:
    try:
        d = numpy_dtype(dtype)
    except TypeError as e:
        raise ConvertError(f"--dtype {dtype!r}: {e}") from None
    if d not in NUMPY_FLOATING:
        raise ConvertError(f"--dtype {dtype!r}: a checkpoint's tensors convert to a floating dtype, not {d}")
    return d


def _cast_stream(src: np.ndarray, dst_dtype: np.dtype, write: Callable[[Any], None], threads: int, progress: Progress):
    flat = src.reshape(-1)
    for start in range(0, flat.size, CHUNK_ELEMENTS):
        part = flat[start : start + CHUNK_ELEMENTS]
        write(cast(part, dst_dtype, threads=threads))
        progress.add(part.nbytes)


def _atomic(out_path: str, body: Callable[[Any], None]) -> None:
    """Runs body(file) on a temporary file beside out_path, renamed over it on success and
    removed on any exception (KeyboardInterrupt included)."""
    directory = os.path.dirname(os.path.abspath(out_path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix="." + os.path.basename(out_path) + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            body(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, out_path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


# ---- safetensors ------------------------------------------------------------------------


def read_safetensors_header(mm: Any, size: int) -> tuple[dict, dict, int]:
    """(tensors, metadata, data start) of a safetensors file, every field checked."""
    if size < 8:
        raise ConvertError(f"not a safetensors file: {size} bytes, shorter than the 8-byte header length")
    (n,) = struct.unpack("<Q", mm[:8])
    if n < 2 or 8 + n > size:
        raise ConvertError(f"safetensors header length {n} does not fit in the file's {size} bytes (truncated?)")
    try:
        header = json.loads(bytes(mm[8 : 8 + n]).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ConvertError(f"safetensors header is not JSON: {e}") from None
    if not isinstance(header, dict):
        raise ConvertError("safetensors header is not a JSON object")
    metadata = header.pop("__metadata__", None) or {}
    data_size = size - 8 - n
    tensors = {}
    for name, info in header.items():
        if not isinstance(info, dict) or set(info) != {"dtype", "shape", "data_offsets"}:
            raise ConvertError(f"tensor {name!r}: needs exactly dtype, shape, data_offsets")
        dt = SAFETENSORS_DTYPES.get(info["dtype"])
        if dt is None:
            raise ConvertError(f"tensor {name!r}: unsupported dtype {info['dtype']!r}")
        shape = info["shape"]
        offs = info["data_offsets"]
        if not (isinstance(shape, list) and all(isinstance(s, int) and s >= 0 for s in shape)):
            raise ConvertError(f"tensor {name!r}: bad shape {shape!r}")
        if not (isinstance(offs, list) and len(offs) == 2 and all(isinstance(o, int) for o in offs)):
            raise ConvertError(f"tensor {name!r}: bad data_offsets {offs!r}")
        begin, end = offs
        count = int(np.prod(shape, dtype=np.int64)) if shape else 1
        if not 0 <= begin <= end <= data_size or end - begin != count * dt.itemsize:
            raise ConvertError(
                f"tensor {name!r}: data_offsets {offs} do not hold {count} {info['dtype']} elements "
                f"in the {data_size} data bytes (truncated?)"
            )
        tensors[name] = (info["dtype"], shape, begin, end)
    return tensors, metadata, 8 + n


def _convert_safetensors(inp: str, out: str, target: np.dtype, only, threads) -> dict:
    with open(inp, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if size else b""
    tensors, metadata, start = read_safetensors_header(mm, size)
    plan = []
    header: dict[str, Any] = {}
    if metadata:
        header["__metadata__"] = metadata
    offset = 0
    stats = {"converted": 0, "copied": 0, "bytes_in": size, "bytes_out": 0}
    for name, (dtn, shape, begin, end) in sorted(tensors.items(), key=lambda kv: kv[1][2]):
        conv = dtn in FLOATING and _selected(name, only)
        dt = target if conv else SAFETENSORS_DTYPES[dtn]
        count = (end - begin) // SAFETENSORS_DTYPES[dtn].itemsize
        nbytes = count * dt.itemsize
        header[name] = {"dtype": SAFETENSORS_NAME[dt], "shape": shape, "data_offsets": [offset, offset + nbytes]}
        plan.append((name, dtn, begin, end, conv, count))
        offset += nbytes
        stats["converted" if conv else "copied"] += 1
    blob = json.dumps(header, separators=(",", ":")).encode()
    blob += b" " * ((-len(blob)) % 8)
    progress = Progress(size - start)

    def body(f):
        f.write(struct.pack("<Q", len(blob)))
        f.write(blob)
        for name, dtn, begin, end, conv, count in plan:
            src = np.frombuffer(mm, SAFETENSORS_DTYPES[dtn], count, start + begin) if count else None
            if src is None:
                continue
            if conv:
                _cast_stream(src, target, f.write, threads, progress)
            else:
                f.write(mm[start + begin : start + end])
                progress.add(end - begin)

    _atomic(out, body)
    progress.close()
    stats["bytes_out"] = os.path.getsize(out)
    return stats


def _check_safetensors(inp: str, out: str, target: np.dtype, only, threads) -> None:
    with open(inp, "rb") as fi, open(out, "rb") as fo:
        mi = mmap.mmap(fi.fileno(), 0, access=mmap.ACCESS_READ)
        mo = mmap.mmap(fo.fileno(), 0, access=mmap.ACCESS_READ)
        ti, _, si = read_safetensors_header(mi, len(mi))
        to, _, so = read_safetensors_header(mo, len(mo))
        if set(ti) != set(to):
            raise ConvertError(f"--check: {out} holds other tensors than {inp}")
        for name, (dtn, shape, b, e) in ti.items():
            dto, shapeo, bo, eo = to[name]
            src_dt = SAFETENSORS_DTYPES[dtn]
            a = np.frombuffer(mi, src_dt, (e - b) // src_dt.itemsize, si + b)
            o = np.frombuffer(mo, SAFETENSORS_DTYPES[dto], (eo - bo) // SAFETENSORS_DTYPES[dto].itemsize, so + bo)
            _check_pair(name, a, o, threads)


def _check_pair(name: str, a: np.ndarray, o: np.ndarray, threads) -> None:
    """o must be what one cast of a gives, and casting o back to a's dtype must give
    what the round trip cast(cast(a)) gives, compared bit for bit."""
    if a.shape != o.shape and a.size != o.size:
        raise ConvertError(f"--check: tensor {name!r}: {a.size} elements in, {o.size} out")
    af = a.reshape(-1)
    of = o.reshape(-1)
    for s in range(0, af.size, CHUNK_ELEMENTS):
        ca = cast(af[s : s + CHUNK_ELEMENTS], o.dtype, threads=threads)
        co = of[s : s + CHUNK_ELEMENTS]
        if ca.tobytes() != co.tobytes():
            raise ConvertError(f"--check: tensor {name!r}: the output differs from a cast of the input")
        back = cast(co, a.dtype, threads=threads)
        again = cast(ca, a.dtype, threads=threads)
        if back.tobytes() != again.tobytes():
            raise ConvertError(f"--check: tensor {name!r}: the round trip differs")


# ---- npy / npz --------------------------------------------------------------------------


def _load_npy(path: str) -> np.ndarray:
    try:
        return np.load(path, mmap_mode="r", allow_pickle=False)
    except (ValueError, OSError, EOFError) as e:
        raise ConvertError(f"{path}: not a readable .npy file: {e}") from None


def _write_npy(f, a_dtype: np.dtype, shape, fill: Callable[[Callable[[Any], None]], None]) -> None:
    header = {"descr": np.lib.format.dtype_to_descr(a_dtype), "fortran_order": False, "shape": tuple(shape)}
    np.lib.format.write_array_header_2_0(f, header)
    fill(f.write)


def _convert_array(a: np.ndarray, name: str, target, only, threads, progress):
    conv = a.dtype in NUMPY_FLOATING and _selected(name, only)
    dt = target if conv else a.dtype
    if a.dtype.hasobject:
        raise ConvertError(f"{name}: object arrays cannot be converted")

    def fill(write):
        src = np.ascontiguousarray(a) if not (a.flags.c_contiguous or a.flags.f_contiguous) else a
        if src.flags.f_contiguous and not src.flags.c_contiguous:
            src = np.ascontiguousarray(src)
        if conv:
            _cast_stream(src, target, write, threads, progress)
        else:
            write(src.tobytes())
            progress.add(src.nbytes)

    return conv, dt, fill


def _convert_npy(inp: str, out: str, target, only, threads) -> dict:
    a = _load_npy(inp)
    progress = Progress(a.nbytes)
    conv, dt, fill = _convert_array(a, "", target, only, threads, progress)
    _atomic(out, lambda f: _write_npy(f, dt, a.shape, fill))
    progress.close()
    return {"converted": int(conv), "copied": int(not conv), "bytes_in": os.path.getsize(inp),
            "bytes_out": os.path.getsize(out)}


def _convert_npz(inp: str, out: str, target, only, threads) -> dict:
    try:
        zin = np.load(inp, allow_pickle=False)
        names = list(zin.files)
    except (ValueError, OSError, EOFError, zipfile.BadZipFile) as e:
        raise ConvertError(f"{inp}: not a readable .npz file: {e}") from None
    stats = {"converted": 0, "copied": 0, "bytes_in": os.path.getsize(inp), "bytes_out": 0}
    progress = Progress(stats["bytes_in"])

    def body(f):
        with zipfile.ZipFile(f, "w", zipfile.ZIP_STORED, allowZip64=True) as z:
            for name in names:
                try:
                    a = zin[name]
                except (ValueError, OSError, EOFError, zipfile.BadZipFile) as e:
                    raise ConvertError(f"{inp}: member {name!r}: {e}") from None
                conv, dt, fill = _convert_array(a, name, target, only, threads, progress)
                stats["converted" if conv else "copied"] += 1
                with z.open(name + ".npy", "w", force_zip64=True) as m:
                    _write_npy(m, dt, a.shape, fill)

    _atomic(out, body)
    progress.close()
    stats["bytes_out"] = os.path.getsize(out)
    return stats


def _check_npy(inp: str, out: str, target, only, threads) -> None:
    if inp.endswith(".npz"):
        zi, zo = np.load(inp), np.load(out)
        pairs = [(n, zi[n], zo[n]) for n in zi.files]
    else:
        pairs = [("", np.load(inp, mmap_mode="r"), np.load(out, mmap_mode="r"))]
    for name, a, o in pairs:
        if a.dtype in NUMPY_FLOATING and _selected(name, only):
            _check_pair(name, np.ascontiguousarray(a), o.view(target), threads)
        elif a.tobytes() != o.tobytes():
            raise ConvertError(f"--check: {name!r} was to be copied but differs")


def convert(inp: str, out: str, dtype: str, *, only=None, check=False, threads=None) -> dict:
    """Converts the floating tensors of the checkpoint `inp` (.safetensors, .npy, .npz) to
    `dtype` into `out` (same format); returns counts. Raises ConvertError."""
    target = _target(dtype)
    threads = threads or os.cpu_count() or 1
    if not os.path.isfile(inp):
        raise ConvertError(f"{inp}: no such file")
    if os.path.abspath(inp) == os.path.abspath(out):
        raise ConvertError("IN and OUT are the same file")
    ext = os.path.splitext(inp)[1].lower()
    if os.path.splitext(out)[1].lower() != ext:
        raise ConvertError(f"OUT must have IN's extension, {ext}")
    if ext == ".safetensors":
        stats = _convert_safetensors(inp, out, target, only, threads)
        if check:
            _check_safetensors(inp, out, target, only, threads)
    elif ext in (".npy", ".npz"):
        stats = (_convert_npy if ext == ".npy" else _convert_npz)(inp, out, target, only, threads)
        if check:
            _check_npy(inp, out, target, only, threads)
    else:
        raise ConvertError(f"{inp}: unknown format {ext!r} (.safetensors, .npy, .npz)")
    return stats
