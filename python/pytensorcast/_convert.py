# SPDX-License-Identifier: MIT OR Apache-2.0
"""Checkpoint conversion (`pytensorcast convert`, docs/python.md): .safetensors, .npy,
.npz files.

Nothing is lost: the input is only read (IN and OUT are compared as files, after every
link is resolved), headers are checked completely before anything is written, the output
is written to a temporary file beside OUT, checked when --check asks, and renamed over
OUT only then; any error or interrupt removes the temporary file and leaves a previous
OUT as it was.
"""

from __future__ import annotations

import fnmatch
import io
import mmap
import os
import stat
import threading
import zipfile
import zlib
from typing import Any, Callable, Optional

import ml_dtypes
import numpy as np

from . import cast, numpy_dtype
from ._convert_io import (
    ConvertError,
    Header,
    Progress,
    UsageError,
    create_temp,
    header_blob,
    parse_header,
    read_npy_header,
    remove_quietly,
)

__all__ = ["ConvertError", "UsageError", "convert", "Options"]

CHUNK_ELEMENTS = 1 << 22
COPY_BYTES = 1 << 25

# The floating dtypes a tensor is converted from and to: safetensors name <-> numpy dtype.
FLOAT_TYPES: dict[str, np.dtype] = {
    "F64": np.dtype(np.float64),
    "F32": np.dtype(np.float32),
    "F16": np.dtype(np.float16),
    "BF16": np.dtype(ml_dtypes.bfloat16),
    "F8_E4M3": np.dtype(ml_dtypes.float8_e4m3fn),
    "F8_E5M2": np.dtype(ml_dtypes.float8_e5m2),
}
ST_NAME = {d: n for n, d in FLOAT_TYPES.items()}
# torch's names of the targets (config.json's torch_dtype)
TORCH_NAME = {"F64": "float64", "F32": "float32", "F16": "float16", "BF16": "bfloat16",
              "F8_E4M3": "float8_e4m3fn", "F8_E5M2": "float8_e5m2"}
BLOCK_SCALED = ("mxfp4", "mxfp8_e4m3", "nvfp4")


class Options:
    """What to convert and how: target dtype (None: leave floating tensors as they are,
    for a block-scaled output without --rest), the block-scaled format (mx), --only /
    --exclude globs, --saturate, --check, threads; `stop` is set to make every worker
    give up at its next chunk."""

    def __init__(self, dtype: str, only=None, exclude=None, saturate: bool = True, check: bool = False,
                 threads: Optional[int] = None, progress: Optional[bool] = None, rest: Optional[str] = None,
                 mx_names: str = "hf"):
        self.mx = None
        if dtype in BLOCK_SCALED:
            from ._convert_mx import SPECS

            self.mx = SPECS[dtype]
            self.target = target_dtype(rest, "--rest") if rest is not None else None
        else:
            if rest is not None:
                raise UsageError("--rest goes with a block-scaled --dtype (mxfp4, mxfp8_e4m3, nvfp4)")
            self.target = target_dtype(dtype)
        if mx_names not in ("hf", "openai"):
            raise UsageError(f"--mx-names is hf or openai, not {mx_names!r}")
        self.mx_names = mx_names
        self.st_name = ST_NAME[self.target] if self.target is not None else None
        self.only, self.exclude = list(only or []), list(exclude or [])
        self.saturate, self.check = bool(saturate), bool(check)
        if threads is None:
            threads = os.cpu_count() or 1
        if type(threads) is not int or not 1 <= threads <= 1024:
            raise UsageError(f"--threads must be a whole number from 1 to 1024, not {threads!r}")
        self.threads = threads
        self.progress = progress
        self.stop = threading.Event()

    def selected(self, name: str) -> bool:
        if self.only and not any(fnmatch.fnmatchcase(name, g) for g in self.only):
            return False
        return not any(fnmatch.fnmatchcase(name, g) for g in self.exclude)

    def stopped(self) -> None:
        if self.stop.is_set():
            raise KeyboardInterrupt


def target_dtype(dtype: str, option: str = "--dtype") -> np.dtype:
    if dtype in BLOCK_SCALED:
        raise UsageError(f"{option} {dtype}: a block-scaled format is a --dtype, not a {option}")
    try:
        d = numpy_dtype(dtype)
    except (TypeError, ValueError) as e:
        raise UsageError(f"{option} {dtype!r}: {e}") from None
    if d == np.dtype(ml_dtypes.float4_e2m1fn):
        raise UsageError(
            f"{option} {dtype}: a plain float4 tensor loses too much without block scales; "
            "use --dtype mxfp4 (float4_e2m1fn in blocks of 32 with e8m0 scales, gpt-oss' layout)"
        )
    if d not in ST_NAME:
        raise UsageError(
            f"{option} {dtype!r}: checkpoints convert to {', '.join(TORCH_NAME.values())} "
            f"or {', '.join(BLOCK_SCALED)}, not {d}"
        )
    return d


# ---- casting in chunks --------------------------------------------------------------------


def _native(a: np.ndarray) -> np.ndarray:
    return a if a.dtype.isnative else a.astype(a.dtype.newbyteorder("="))


def cast_chunks(flat: np.ndarray, opts: Options, threads: int) -> Any:
    """Yields (input chunk, its cast to the target) over the 1-D array flat."""
    for start in range(0, flat.size, CHUNK_ELEMENTS):
        opts.stopped()
        part = _native(flat[start : start + CHUNK_ELEMENTS])
        yield part, cast(part, opts.target, saturate=opts.saturate, threads=threads)


def check_chunk(name: str, a: np.ndarray, o: np.ndarray, opts: Options, threads: int) -> None:
    """o (the output's bytes) must be what one cast of a gives, and casting o back to
    a's dtype must give what the round trip cast(cast(a)) gives, compared bit for bit."""
    a = _native(a)
    ca = cast(a, opts.target, saturate=opts.saturate, threads=threads)
    if ca.view(np.uint8).tobytes() != o.view(np.uint8).tobytes():
        raise ConvertError(f"--check: tensor {name!r}: the output differs from a cast of the input")
    back = cast(o.view(opts.target), a.dtype, threads=threads)
    again = cast(ca, a.dtype, threads=threads)
    if back.view(np.uint8).tobytes() != again.view(np.uint8).tobytes():
        raise ConvertError(f"--check: tensor {name!r}: the round trip differs")


def _write_all(f, buf) -> None:
    f.write(memoryview(buf).cast("B") if not isinstance(buf, (bytes, memoryview)) else buf)


# ---- safetensors --------------------------------------------------------------------------


class Mapped:
    """A file opened and memory-mapped for reading (the header read first, so an empty
    or short file gets the header's error, not mmap's)."""

    def __init__(self, path: str):
        self.path = path
        self.f = open(path, "rb")
        try:
            st = os.fstat(self.f.fileno())
            if not stat.S_ISREG(st.st_mode):
                raise ConvertError(f"{path}: not a regular file")
            self.size = st.st_size
            self.header = parse_header(self._read, self.size, path)
            self.mm = mmap.mmap(self.f.fileno(), 0, access=mmap.ACCESS_READ)
        except BaseException:
            self.f.close()
            raise

    def _read(self, off: int, n: int) -> bytes:
        self.f.seek(off)
        return self.f.read(n)

    def array(self, t, dtype: np.dtype) -> np.ndarray:
        return np.frombuffer(self.mm, dtype, (t.end - t.begin) // dtype.itemsize, self.header.data_start + t.begin)

    def close(self) -> None:
        try:
            self.mm.close()
        except BufferError:
            pass  # an array still views it; the map goes with the last reference
        self.f.close()


class Item:
    """One input tensor in the plan: kind "copy", "cast" or "mx", and the output tensors
    it gives [(name, safetensors dtype, shape, nbytes)]."""

    __slots__ = ("t", "kind", "outs")

    def __init__(self, t, kind: str, outs: list):
        self.t, self.kind, self.outs = t, kind, outs


def plan_safetensors(header: Header, opts: Options) -> list:
    """[Item] in data order; output names must not collide."""
    plan = []
    for t in header.tensors:
        floating = t.dtype in FLOAT_TYPES and opts.selected(t.name)
        if floating and opts.mx is not None:
            from ._convert_mx import eligible, out_name

            if eligible(opts.mx, t.shape):
                outs = [(out_name(t.name, sfx, opts.mx_names), dt, shape, nb) for sfx, dt, shape, nb in opts.mx.shapes(t.shape)]
                plan.append(Item(t, "mx", outs))
                continue
        if floating and opts.target is not None and t.dtype != opts.st_name:
            plan.append(Item(t, "cast", [(t.name, opts.st_name, t.shape, t.count * opts.target.itemsize)]))
        else:
            plan.append(Item(t, "copy", [(t.name, t.dtype, t.shape, t.end - t.begin)]))
    seen: set = set()
    for it in plan:
        for o in it.outs:
            if o[0] in seen:
                raise ConvertError(f"the output would hold two tensors named {o[0]!r} (see --mx-names)")
            seen.add(o[0])
    return plan


def _offsets(plan: list, start: int) -> list:
    """Each output tensor's absolute file offset, in plan order (nested like outs)."""
    res, off = [], start
    for it in plan:
        row = []
        for o in it.outs:
            row.append(off)
            off += o[3]
        res.append(row)
    return res


def write_safetensors(src: Mapped, plan: list, f, opts: Options, threads: int, progress: Progress) -> None:
    blob = header_blob([o for it in plan for o in it.outs], src.header.metadata)
    f.write(blob)
    start = src.header.data_start
    offsets = _offsets(plan, len(blob))
    with memoryview(src.mm) as mv:
        for it, offs in zip(plan, offsets):
            t = it.t
            f.seek(offs[0])
            if it.kind == "cast":
                flat = src.array(t, FLOAT_TYPES[t.dtype])
                for part, out in cast_chunks(flat, opts, threads):
                    _write_all(f, out.view(np.uint8))
                    progress.add(part.nbytes)
                    del part, out
                del flat
            elif it.kind == "mx":
                from ._convert_mx import quantize_rows

                x = src.array(t, FLOAT_TYPES[t.dtype]).reshape(-1, t.shape[-1])
                pos = [0, 0]
                for nin, blocks, scales, g in quantize_rows(opts.mx, x, threads, opts.stopped):
                    f.seek(offs[0] + pos[0])
                    _write_all(f, blocks.view(np.uint8))
                    f.seek(offs[1] + pos[1])
                    _write_all(f, scales.view(np.uint8))
                    pos[0] += blocks.nbytes
                    pos[1] += scales.nbytes
                    progress.add(nin)
                    if g is not None:
                        f.seek(offs[2])
                        _write_all(f, np.asarray(g, np.float32).reshape(1).view(np.uint8))
                del x
            else:
                for b in range(t.begin, t.end, COPY_BYTES):
                    opts.stopped()
                    e = min(b + COPY_BYTES, t.end)
                    f.write(mv[start + b : start + e])
                    progress.add(e - b)


def check_safetensors(src: Mapped, plan: list, out_path: str, opts: Options, threads: int, progress: Progress,
                      data: bool = True, label: str = "--check"):
    """Reads the written file back: its header must pass the same strict checks and hold
    the planned tensors; each converted tensor must be one cast (or quantization) of the
    input's (when data)."""
    out = Mapped(out_path)
    try:
        got = [(t.name, t.dtype, t.shape) for t in out.header.tensors]
        want = [(o[0], o[1], list(o[2])) for it in plan for o in it.outs]
        if got != want or out.header.metadata != src.header.metadata:
            raise ConvertError(f"{label}: {out_path} does not hold the tensors planned from {src.path}")
        if not data:
            return
        outs = iter(out.header.tensors)
        for it in plan:
            opts.stopped()
            t = it.t
            tos = [next(outs) for _ in it.outs]
            if it.kind == "cast":
                a = src.array(t, FLOAT_TYPES[t.dtype])
                o = out.array(tos[0], opts.target)
                for s in range(0, a.size, CHUNK_ELEMENTS):
                    opts.stopped()
                    check_chunk(t.name, a[s : s + CHUNK_ELEMENTS], o[s : s + CHUNK_ELEMENTS], opts, threads)
                    progress.add(min(CHUNK_ELEMENTS, a.size - s) * a.dtype.itemsize)
                del a, o
            elif it.kind == "mx":
                from ._convert_mx import quantize_rows

                x = src.array(t, FLOAT_TYPES[t.dtype]).reshape(-1, t.shape[-1])
                ob = out.array(tos[0], np.dtype(np.uint8))
                os_ = out.array(tos[1], np.dtype(np.uint8))
                pos = [0, 0]
                for nin, blocks, scales, g in quantize_rows(opts.mx, x, threads, opts.stopped):
                    b, sc = blocks.view(np.uint8).reshape(-1), scales.view(np.uint8).reshape(-1)
                    if (ob[pos[0] : pos[0] + b.size].tobytes() != b.tobytes()
                            or os_[pos[1] : pos[1] + sc.size].tobytes() != sc.tobytes()):
                        raise ConvertError(f"--check: tensor {t.name!r}: the output differs from its quantization")
                    if g is not None and out.array(tos[2], np.dtype(np.float32)).tobytes() != np.float32(g).tobytes():
                        raise ConvertError(f"--check: tensor {t.name!r}: the global scale differs")
                    pos[0] += b.size
                    pos[1] += sc.size
                    progress.add(nin)
                del x, ob, os_
            else:
                to = tos[0]
                b, e = src.header.data_start + t.begin, src.header.data_start + t.end
                ob = out.header.data_start + to.begin
                for s in range(b, e, COPY_BYTES):
                    opts.stopped()
                    n = min(COPY_BYTES, e - s)
                    if src.mm[s : s + n] != out.mm[ob + s - b : ob + s - b + n]:
                        raise ConvertError(f"--check: tensor {t.name!r} was to be copied but differs")
                    progress.add(n)
    finally:
        out.close()


def plan_stats(plan: list) -> dict:
    return {
        "converted": sum(1 for it in plan if it.kind != "copy"),
        "copied": sum(1 for it in plan if it.kind == "copy"),
        "quantized": [it.t.name for it in plan if it.kind == "mx"],
        "kept": [it.t.name for it in plan if it.kind != "mx" and it.t.dtype in FLOAT_TYPES],
        "tensors": [(o[0], o[3]) for it in plan for o in it.outs],
    }


def convert_safetensors_to(src: Mapped, tmp_fd: int, tmp_path: str, opts: Options, threads: int,
                           progress: Progress, check_progress: Callable[[], Progress]) -> dict:
    """Writes the conversion of src to the open temporary file (closing it), and checks it
    when opts.check. Returns counts and the output's tensors [(name, nbytes)]."""
    plan = plan_safetensors(src.header, opts)
    with open(tmp_fd, "wb", closefd=True) as f:
        write_safetensors(src, plan, f, opts, threads, progress)
        f.flush()
        os.fsync(f.fileno())
    if opts.check:
        bar = check_progress()
        try:
            check_safetensors(src, plan, tmp_path, opts, threads, bar)
        finally:
            bar.close()
    return plan_stats(plan)


# ---- npy / npz ----------------------------------------------------------------------------


def _npy_header_bytes(dtype: np.dtype, shape: tuple, fortran: bool) -> bytes:
    # ml_dtypes' types as raw bytes of their width (numpy reads no descr of theirs back)
    descr = np.lib.format.dtype_to_descr(dtype) if dtype.type.__module__ == "numpy" else f"|V{dtype.itemsize}"
    d = {"descr": descr, "fortran_order": fortran, "shape": shape}
    b = io.BytesIO()
    try:
        np.lib.format.write_array_header_1_0(b, d)
    except ValueError:
        b = io.BytesIO()
        np.lib.format.write_array_header_2_0(b, d)
    return b.getvalue()


def _npy_floating(dtype: np.dtype) -> Optional[np.dtype]:
    n = dtype.newbyteorder("=") if dtype.byteorder not in "|=" else dtype
    return n if n in ST_NAME else None


def _read_exactly(fp, n: int, what: str) -> bytes:
    data = fp.read(n)
    if len(data) != n:
        raise ConvertError(f"{what}: the data is truncated")
    return data


def _stream_npy(fp, what: str, name: str, opts: Options, write, progress: Progress, threads: int,
                mapped: Optional[tuple] = None) -> bool:
    """Converts one .npy stream (fp at its start) into write(); returns converted?"""
    dtype, shape, fortran, nbytes = read_npy_header(fp, what)
    progress.add(fp.tell())
    fl = _npy_floating(dtype)
    conv = fl is not None and fl != opts.target and opts.selected(name)
    write(_npy_header_bytes(opts.target if conv else dtype, shape, fortran))
    count = nbytes // dtype.itemsize if dtype.itemsize else 0
    if mapped is not None:  # .npy: the file is mapped
        mm, size = mapped
        off = fp.tell()
        if off + nbytes > size:
            raise ConvertError(f"{what}: the data is truncated ({size} bytes, {off + nbytes} needed)")
        if conv:
            for part, out in cast_chunks(np.frombuffer(mm, dtype, count, off), opts, threads):
                write(out.view(np.uint8))
                progress.add(part.nbytes)
        else:
            with memoryview(mm) as mv:
                for b in range(off, off + nbytes, COPY_BYTES):
                    opts.stopped()
                    e = min(b + COPY_BYTES, off + nbytes)
                    write(mv[b:e])
                    progress.add(e - b)
        return conv
    step = CHUNK_ELEMENTS * max(dtype.itemsize, 1)
    for b in range(0, nbytes, step):
        opts.stopped()
        data = _read_exactly(fp, min(step, nbytes - b), what)
        if conv:
            part = _native(np.frombuffer(data, dtype))
            write(cast(part, opts.target, saturate=opts.saturate, threads=threads).view(np.uint8))
        else:
            write(data)
        progress.add(len(data))
    return conv


ZIP_ERRORS = (zipfile.BadZipFile, zlib.error, NotImplementedError, EOFError, RuntimeError, ValueError)


def _zip_members(z: zipfile.ZipFile, path: str) -> list:
    infos = z.infolist()
    for i in infos:
        if not i.filename.endswith(".npy") or i.is_dir():
            raise ConvertError(f"{path}: member {i.filename!r} is not a .npy array")
    return infos


def _convert_npz(inp: str, fd: int, opts: Options, threads: int, progress: Progress) -> dict:
    stats = {"converted": 0, "copied": 0}
    try:
        with zipfile.ZipFile(inp) as zin, open(fd, "wb", closefd=True) as f:
            with zipfile.ZipFile(f, "w", allowZip64=True) as zout:
                for info in _zip_members(zin, inp):
                    name = info.filename[:-4]
                    what = f"{inp}: member {name!r}"
                    zi = zipfile.ZipInfo(info.filename, date_time=info.date_time)
                    zi.compress_type = info.compress_type
                    with zin.open(info) as m, zout.open(zi, "w", force_zip64=True) as w:
                        conv = _stream_npy(m, what, name, opts, lambda b: _write_all(w, b), progress, threads)
                    stats["converted" if conv else "copied"] += 1
            f.flush()
            os.fsync(f.fileno())
    except ZIP_ERRORS as e:
        raise ConvertError(f"{inp}: not a readable .npz file: {str(e)[:200]}") from None
    return stats


def _chunks_of(fp, what: str) -> tuple:
    dtype, shape, fortran, nbytes = read_npy_header(fp, what)
    step = CHUNK_ELEMENTS * max(dtype.itemsize, 1)

    def gen():
        for b in range(0, nbytes, step):
            yield np.frombuffer(_read_exactly(fp, min(step, nbytes - b), what), dtype)

    return dtype, shape, fortran, gen()


def _check_npy_streams(name: str, fi, fo, what_in: str, what_out: str, opts: Options, threads: int,
                       progress: Progress) -> None:
    di, si, fi_order, ci = _chunks_of(fi, what_in)
    do, so, fo_order, co = _chunks_of(fo, what_out)
    progress.add(fi.tell())
    if si != so or fi_order != fo_order:
        raise ConvertError(f"--check: {name!r}: the output's shape differs")
    fl = _npy_floating(di)
    conv = fl is not None and fl != opts.target and opts.selected(name)
    if not conv and do != di:
        raise ConvertError(f"--check: {name!r}: was to be copied but its dtype differs")
    # the output's chunks are shorter in bytes when converted: re-chunk by elements
    pending = np.empty(0, np.uint8)
    osize = opts.target.itemsize if conv else di.itemsize
    for a in ci:
        opts.stopped()
        need = a.size * osize
        while pending.size < need:
            try:
                pending = np.concatenate([pending, next(co).view(np.uint8)])
            except StopIteration:
                raise ConvertError(f"--check: {name!r}: the output is truncated") from None
        o, pending = pending[:need], pending[need:]
        if conv:
            check_chunk(name, a, o, opts, threads)
        elif a.view(np.uint8).tobytes() != o.tobytes():
            raise ConvertError(f"--check: {name!r} was to be copied but differs")
        progress.add(a.nbytes)


def _check_npz(inp: str, out: str, opts: Options, threads: int, progress: Progress) -> None:
    try:
        with zipfile.ZipFile(inp) as zi, zipfile.ZipFile(out) as zo:
            mi, mo = _zip_members(zi, inp), _zip_members(zo, out)
            if [m.filename for m in mi] != [m.filename for m in mo]:
                raise ConvertError(f"--check: {out} holds other members than {inp}")
            for a, b in zip(mi, mo):
                with zi.open(a) as fa, zo.open(b) as fb:
                    _check_npy_streams(a.filename[:-4], fa, fb, f"{inp}: {a.filename}", f"{out}: {b.filename}",
                                       opts, threads, progress)
    except ZIP_ERRORS as e:
        raise ConvertError(f"--check: {out}: {str(e)[:200]}") from None


def _convert_npy(inp: str, fd: int, opts: Options, threads: int, progress: Progress) -> dict:
    with open(inp, "rb") as fi:
        size = os.fstat(fi.fileno()).st_size
        mm = mmap.mmap(fi.fileno(), 0, access=mmap.ACCESS_READ) if size else b""
        try:
            with open(fd, "wb", closefd=True) as f:
                conv = _stream_npy(fi, inp, "", opts, lambda b: _write_all(f, b), progress, threads, (mm, size))
                f.flush()
                os.fsync(f.fileno())
        finally:
            if size:
                try:
                    mm.close()
                except BufferError:
                    pass
    return {"converted": int(conv), "copied": int(not conv)}


def _check_npy(inp: str, out: str, opts: Options, threads: int, progress: Progress) -> None:
    with open(inp, "rb") as fi, open(out, "rb") as fo:
        _check_npy_streams("", fi, fo, inp, out, opts, threads, progress)


# ---- one file -----------------------------------------------------------------------------


def _is_same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def check_file_paths(inp: str, out: str, ext_required: bool = True) -> str:
    """IN must be a regular file, OUT not IN (after every link) nor a directory; returns
    IN's extension."""
    st = os.stat(inp)
    if stat.S_ISDIR(st.st_mode):
        raise ConvertError(f"{inp}: a directory without a model.safetensors.index.json")
    if not stat.S_ISREG(st.st_mode):
        raise ConvertError(f"{inp}: not a regular file")
    if os.path.isdir(out):
        raise ConvertError(f"{out}: is a directory; OUT is the file to write")
    if _is_same_file(inp, out):
        raise ConvertError(f"OUT {out} is the input file {inp} (the same file, maybe through a link): "
                           "the input is never written")
    ext = os.path.splitext(inp)[1].lower()
    if ext not in (".safetensors", ".npy", ".npz"):
        raise ConvertError(f"{inp}: unknown format {ext!r} (.safetensors, .npy, .npz)")
    if ext_required and os.path.splitext(out)[1].lower() != ext:
        raise UsageError(f"OUT must have IN's extension, {ext}")
    return ext


def convert_file(inp: str, out: str, opts: Options) -> dict:
    ext = check_file_paths(inp, out)
    if opts.mx is not None and ext != ".safetensors":
        raise UsageError(f"--dtype {opts.mx.name}: block-scaled outputs are safetensors checkpoints only")
    size = total = os.path.getsize(inp)
    src = Mapped(inp) if ext == ".safetensors" else None  # header checked before any write
    if src is not None:
        total = size - src.header.data_start
    elif ext == ".npz":
        try:
            with zipfile.ZipFile(inp) as z:
                total = sum(i.file_size for i in z.infolist())
        except ZIP_ERRORS:
            pass  # said when it is read
    tmp = None
    progress = Progress(total, "convert", opts.progress)
    try:
        directory = os.path.dirname(os.path.abspath(out))
        fd, tmp = create_temp(directory, os.path.basename(out))
        if src is not None:
            stats = convert_safetensors_to(src, fd, tmp, opts, opts.threads, progress,
                                           lambda: (progress.close(), Progress(total, "check", opts.progress))[1])
        else:
            run = _convert_npy if ext == ".npy" else _convert_npz
            stats = run(inp, fd, opts, opts.threads, progress)
            progress.close()
            if opts.check:
                bar = Progress(total, "check", opts.progress)
                try:
                    (_check_npy if ext == ".npy" else _check_npz)(inp, tmp, opts, opts.threads, bar)
                finally:
                    bar.close()
        progress.close()
        os.replace(tmp, out)
        tmp = None
    except OSError as e:
        if e.filename is None:  # a write: say where
            raise OSError(e.errno, e.strerror, out) from None
        raise
    finally:
        progress.close()
        remove_quietly(tmp)
        if src is not None:
            src.close()
    stats["quantized"] = len(stats.get("quantized", ()))
    for k in ("tensors", "kept"):
        stats.pop(k, None)
    stats.update(bytes_in=size, bytes_out=os.path.getsize(out))
    return stats


def is_sharded(inp: str) -> bool:
    return os.path.isdir(inp) or inp.endswith(".index.json")


def convert(inp: str, out: str, dtype: str, *, only=None, exclude=None, check: bool = False,
            threads: Optional[int] = None, saturate: bool = True, progress: Optional[bool] = None,
            part: Optional[str] = None, finish: bool = False, rest: Optional[str] = None,
            mx_names: str = "hf") -> dict:
    """Converts the floating tensors of the checkpoint `inp` (.safetensors, .npy, .npz, or
    a directory of safetensors shards or its index json) to `dtype` into `out` (same
    format; a directory for shards); returns counts. `part` ("K/N") converts every N-th
    shard from the K-th, `finish` writes the index after the parts. Raises ConvertError
    (UsageError for arguments that cannot work) or OSError."""
    opts = Options(dtype, only, exclude, saturate, check, threads, progress, rest, mx_names)
    inp, out = os.fspath(inp), os.fspath(out)
    if is_sharded(inp):
        from ._convert_shards import convert_shards

        return convert_shards(inp, out, opts, part=part, finish=finish)
    if part is not None or finish:
        raise UsageError("--part and --finish are for sharded checkpoints (a directory or its index json)")
    return convert_file(inp, out, opts)
