# SPDX-License-Identifier: MIT OR Apache-2.0
"""The converter's file handling (docs/python.md "Converting a checkpoint"): strict
safetensors and .npy headers, staged outputs that appear only when complete and checked,
and the progress bar.

Every failure is a ConvertError (UsageError for bad arguments) whose text is the one
`error:` line the CLI prints.
"""

from __future__ import annotations

import json
import os
import secrets
import struct
import sys
from typing import Any, Optional

import numpy as np


class ConvertError(Exception):
    """A checkpoint that cannot be converted (malformed header, unknown dtype ...)."""


class UsageError(ConvertError):
    """Arguments that cannot work (exit code 2)."""


# ---- safetensors headers ------------------------------------------------------------------

# Every dtype safetensors' loader knows, with its width in bits (a tensor of any of them
# is copied byte for byte when it is not converted).
ST_BITS: dict[str, int] = {
    "BOOL": 8, "F4": 4, "F6_E2M3": 6, "F6_E3M2": 6, "U8": 8, "I8": 8, "F8_E5M2": 8, "F8_E4M3": 8,
    "F8_E8M0": 8, "F8_E4M3FNUZ": 8, "F8_E5M2FNUZ": 8, "I16": 16, "U16": 16, "F16": 16, "BF16": 16,
    "I32": 32, "U32": 32, "F32": 32, "C64": 64, "F64": 64, "I64": 64, "U64": 64,
}
MAX_HEADER = 100_000_000  # safetensors' MAX_HEADER_SIZE
U64 = 1 << 64


class Tensor:
    """One tensor of a safetensors header: dtype name, shape, data offsets."""

    __slots__ = ("name", "dtype", "shape", "begin", "end")

    def __init__(self, name: str, dtype: str, shape: list, begin: int, end: int):
        self.name, self.dtype, self.shape, self.begin, self.end = name, dtype, shape, begin, end

    @property
    def count(self) -> int:
        n = 1
        for s in self.shape:
            n *= s
        return n


class Header:
    """A checked safetensors header: tensors in data order, __metadata__ (None when absent),
    and where the data starts."""

    def __init__(self, tensors: list, metadata: Optional[dict], data_start: int):
        self.tensors, self.metadata, self.data_start = tensors, metadata, data_start


def _no_duplicates(pairs: list) -> dict:
    d = {}
    for k, v in pairs:
        if k in d:
            raise ConvertError(f"the header names {k!r} twice")
        d[k] = v
    return d


def _utf8(s: str, what: str) -> str:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        raise ConvertError(f"{what} {s!r} is not valid UTF-8 (a lone surrogate)") from None
    return s


def _u64(v: Any) -> bool:
    return type(v) is int and 0 <= v < U64


def parse_header(read, size: int, path: str) -> Header:
    """Reads and checks a safetensors header as strictly as safetensors' loader does:
    a JSON object of at most 100 MB, tensors with a known dtype, a shape and data
    offsets of unsigned 64-bit integers, element and bit counts without overflow, data
    offsets contiguous from 0 in order to exactly the file's end, __metadata__ a map of
    strings to strings. `read(offset, n)` returns bytes of the file."""
    if size < 8:
        raise ConvertError(f"{path}: not a safetensors file ({size} bytes, shorter than the 8-byte header length)")
    (n,) = struct.unpack("<Q", read(0, 8))
    if n > MAX_HEADER:
        raise ConvertError(f"{path}: header length {n} is over safetensors' limit of {MAX_HEADER} bytes")
    if 8 + n > size:
        raise ConvertError(f"{path}: header length {n} does not fit in the file's {size} bytes (truncated?)")
    raw = read(8, n)
    try:
        header = json.loads(raw.decode("utf-8"), object_pairs_hook=_no_duplicates)
    except ConvertError as e:
        raise ConvertError(f"{path}: {e}") from None
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise ConvertError(f"{path}: the header is not JSON: {str(e)[:200]}") from None
    if not isinstance(header, dict):
        raise ConvertError(f"{path}: the header is not a JSON object")
    metadata = header.pop("__metadata__", None)
    try:
        if metadata is not None:
            if not isinstance(metadata, dict) or not all(isinstance(v, str) for v in metadata.values()):
                raise ConvertError("__metadata__ must be a map of strings to strings")
            for k, v in metadata.items():
                _utf8(k, "__metadata__ key")
                _utf8(v, "__metadata__ value")
        tensors = []
        for name, info in header.items():
            _utf8(name, "tensor name")
            if not isinstance(info, dict) or set(info) != {"dtype", "shape", "data_offsets"}:
                raise ConvertError(f"tensor {name!r}: needs exactly dtype, shape and data_offsets")
            dtype, shape, offs = info["dtype"], info["shape"], info["data_offsets"]
            if not isinstance(dtype, str) or dtype not in ST_BITS:
                raise ConvertError(f"tensor {name!r}: unknown dtype {dtype!r}")
            if not isinstance(shape, list) or not all(_u64(s) for s in shape):
                raise ConvertError(f"tensor {name!r}: the shape {shape!r} is not a list of unsigned integers")
            if not isinstance(offs, list) or len(offs) != 2 or not all(_u64(o) for o in offs):
                raise ConvertError(f"tensor {name!r}: data_offsets {offs!r} is not two unsigned integers")
            tensors.append(Tensor(name, dtype, shape, offs[0], offs[1]))
        tensors.sort(key=lambda t: (t.begin, t.end))
        end = 0
        for t in tensors:
            if t.begin != end or t.end < t.begin:
                raise ConvertError(
                    f"tensor {t.name!r}: data_offsets [{t.begin}, {t.end}] do not follow the previous tensor's end "
                    f"{end} (the data must be contiguous, in order, without holes or overlaps)"
                )
            end = t.end
            count = 1
            for s in t.shape:
                count *= s
                if count >= U64:
                    raise ConvertError(f"tensor {t.name!r}: the shape {t.shape} overflows the element count")
            bits = count * ST_BITS[t.dtype]
            if bits >= U64:
                raise ConvertError(f"tensor {t.name!r}: the shape {t.shape} overflows the byte count")
            if bits % 8:
                raise ConvertError(f"tensor {t.name!r}: {count} {t.dtype} elements are not a whole number of bytes")
            if t.end - t.begin != bits // 8:
                raise ConvertError(
                    f"tensor {t.name!r}: data_offsets [{t.begin}, {t.end}] do not hold {count} {t.dtype} elements"
                )
        if 8 + n + end != size:
            raise ConvertError(
                f"the tensors' data ends at byte {8 + n + end} but the file has {size} bytes"
                + (" (truncated?)" if 8 + n + end > size else "")
            )
    except ConvertError as e:
        raise ConvertError(f"{path}: {e}") from None
    return Header(tensors, metadata, 8 + n)


def header_blob(entries: list, metadata: Optional[dict]) -> bytes:
    """The bytes of a safetensors header (length, JSON, spaces to 8 bytes) for entries
    (name, dtype, shape, nbytes) laid out in order."""
    h: dict[str, Any] = {}
    if metadata is not None:
        h["__metadata__"] = metadata
    offset = 0
    for name, dtype, shape, nbytes in entries:
        h[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [offset, offset + nbytes]}
        offset += nbytes
    blob = json.dumps(h, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    blob += b" " * (-(8 + len(blob)) % 8)
    return struct.pack("<Q", len(blob)) + blob


def read_file_header(path: str) -> Header:
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size

        def read(off: int, n: int) -> bytes:
            f.seek(off)
            return f.read(n)

        return parse_header(read, size, path)


# ---- staged outputs -----------------------------------------------------------------------


def create_temp(directory: str, base: str) -> tuple:
    """A new file beside its destination, created with the mode a normal write gets
    (0666 less the umask): (fd, path)."""
    for _ in range(100):
        path = os.path.join(directory, f".{base}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666), path
        except FileExistsError:
            continue
        except OSError as e:
            raise ConvertError(f"cannot write a file in {directory}: {e.strerror or e}") from None
    raise ConvertError(f"{directory}: cannot create a temporary file")


def remove_quietly(path: Optional[str]) -> None:
    if path:
        try:
            os.unlink(path)
        except OSError:
            pass


# ---- npy headers --------------------------------------------------------------------------


def read_npy_header(fp, what: str) -> tuple:
    """(dtype, shape, fortran_order, byte count) of the .npy stream fp, positioned at its
    data; refuses object arrays and sizes that overflow."""
    fmt = np.lib.format
    try:
        version = fmt.read_magic(fp)
        if version == (1, 0):
            shape, fortran, dtype = fmt.read_array_header_1_0(fp)
        elif version == (2, 0):
            shape, fortran, dtype = fmt.read_array_header_2_0(fp)
        else:
            shape, fortran, dtype = fmt._read_array_header(fp, version)
    except (ValueError, EOFError, SyntaxError, OverflowError, TypeError, RecursionError, MemoryError) as e:
        raise ConvertError(f"{what}: not a .npy array: {str(e)[:200]}") from None
    if dtype.hasobject:
        raise ConvertError(f"{what}: an object array ({dtype}) cannot be converted")
    count = 1
    for s in shape:
        count *= s
    if count * dtype.itemsize >= 1 << 63:
        raise ConvertError(f"{what}: the shape {shape} overflows the byte count")
    return dtype, tuple(shape), bool(fortran), count * dtype.itemsize


# ---- progress ---------------------------------------------------------------------------


class Progress:
    """tqdm's bar on stderr (rate, ETA, redrawn at most twice a second), none when stderr
    is not a terminal. Thread-safe."""

    def __init__(self, total: int, desc: str, enabled: Optional[bool] = None, position: Optional[int] = None):
        self.bar = None
        if enabled is None:
            enabled = sys.stderr.isatty()
        if enabled:
            from tqdm import tqdm

            try:
                width, height = os.get_terminal_size(sys.stderr.fileno())
            except (OSError, ValueError):
                width, height = 0, 0
            # a terminal that reports no size (a bare pty) gets 100 columns, 24 lines
            self.bar = tqdm(total=total, desc=desc, unit="B", unit_scale=True, unit_divisor=1024,
                            mininterval=0.5, file=sys.stderr, dynamic_ncols=width > 0,
                            ncols=None if width > 0 else 100, nrows=height or 24, leave=True,
                            position=position)

    def add(self, n: int) -> None:
        if self.bar is not None:
            self.bar.update(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
