# SPDX-License-Identifier: MIT OR Apache-2.0
"""Block-scaled outputs of the converter (`--dtype mxfp4`, `mxfp8_e4m3`, `nvfp4`;
docs/python.md "Block-scaled outputs", docs/semantics-mx.md for the rules).

A floating tensor W of rank >= 2 whose last extent is a multiple of the block is
quantized along its last axis (OCP MX, FLOOR scales; NVFP4 as ModelOpt) and stored as

- mxfp4: `W_blocks` U8 `[..., K/32, 16]` (element 2i in the low nibble) and `W_scales`
  U8 `[..., K/32]` (the E8M0 codes): gpt-oss' / Hugging Face's layout;
- mxfp8_e4m3: `W_blocks` F8_E4M3 `[..., K/32, 32]` and `W_scales` U8 `[..., K/32]`;
- nvfp4: `W_blocks` U8 `[..., K/16, 8]`, `W_scales` F8_E4M3 `[..., K/16]` and
  `W_global_scale` F32 `[]` (amax / (6 * 448), ModelOpt's weight_scale_2).

With `--mx-names openai` the suffixes are `.blocks`, `.scales` and `.global_scale`.
"""

from __future__ import annotations

from typing import Any, Iterator, Optional

import ml_dtypes
import numpy as np

from . import cast, mx_quantize, mx_repack

F4 = np.dtype(ml_dtypes.float4_e2m1fn)
E8M0 = np.dtype(ml_dtypes.float8_e8m0fnu)
E4M3 = np.dtype(ml_dtypes.float8_e4m3fn)
QUANTIZABLE_INPUTS = (np.dtype(np.float32), np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16))


class Spec:
    def __init__(self, name: str, elem: np.dtype, scale: np.dtype, block: int, per_byte: int, blocks_dtype: str,
                 scales_dtype: str):
        self.name, self.elem, self.scale, self.block = name, elem, scale, block
        self.per_byte = per_byte  # elements per stored byte
        self.blocks_dtype, self.scales_dtype = blocks_dtype, scales_dtype

    @property
    def nvfp4(self) -> bool:
        return self.name == "nvfp4"

    def shapes(self, shape: list) -> list:
        """[(suffix, dtype, shape, nbytes)] of the stored tensors of a tensor of `shape`."""
        lead, nb = list(shape[:-1]), shape[-1] // self.block
        rows = 1
        for s in lead:
            rows *= s
        width = self.block // self.per_byte
        out = [("blocks", self.blocks_dtype, lead + [nb, width], rows * nb * width),
               ("scales", self.scales_dtype, lead + [nb], rows * nb)]
        if self.nvfp4:
            out.append(("global_scale", "F32", [], 4))
        return out


SPECS = {
    "mxfp4": Spec("mxfp4", F4, E8M0, 32, 2, "U8", "U8"),
    "mxfp8_e4m3": Spec("mxfp8_e4m3", E4M3, E8M0, 32, 1, "F8_E4M3", "U8"),
    "nvfp4": Spec("nvfp4", F4, E4M3, 16, 2, "U8", "F8_E4M3"),
}


def out_name(name: str, suffix: str, style: str) -> str:
    return f"{name}.{suffix}" if style == "openai" else f"{name}_{suffix}"


def eligible(spec: Spec, shape: list) -> bool:
    return len(shape) >= 2 and shape[-1] > 0 and shape[-1] % spec.block == 0 and all(s > 0 for s in shape)


def _as_quantizable(a: np.ndarray, threads: int) -> np.ndarray:
    return a if a.dtype in QUANTIZABLE_INPUTS else cast(a, np.float32, threads=threads)


def finite_amax(x2d: np.ndarray, rows_per: int, threads: int, stopped) -> float:
    """The largest finite magnitude of x (NVFP4's per-tensor amax), chunk by chunk."""
    amax = 0.0
    for r in range(0, x2d.shape[0], rows_per):
        stopped()
        a = np.abs(cast(x2d[r : r + rows_per], np.float32, threads=threads))
        a = a[np.isfinite(a)]
        if a.size:
            amax = max(amax, float(a.max()))
    return amax


def pack_nibbles(codes: np.ndarray) -> np.ndarray:
    """[..., n] float4 codes one a byte -> [..., n/2] bytes, element 2i in the low nibble."""
    c = codes.view(np.uint8) & 0x0F
    return (c[..., 0::2] | (c[..., 1::2] << 4)).astype(np.uint8)


def _quantize_packed(chunk: np.ndarray, spec: Spec) -> Optional[tuple]:
    """(stored blocks bytes [rows, nb, width], scales bytes [rows, nb], global scale) of
    a [rows, K] chunk straight from the core's packed output: the ONNX packing of a
    FLOAT4E2M1 row (element 2j in the low nibble of byte j) is gpt-oss' blocks byte for
    byte, so nothing is unpacked and packed again. None if the package's internals are
    not those this was written against (the public path is taken then)."""
    import pytensorcast as pkg

    try:
        inp, shape = pkg._contiguous_input(chunk)
        y = pkg._Output(tuple(shape), pkg._code(spec.elem))
        s = pkg._Output(pkg._scale_shape(tuple(shape), -1, spec.block), pkg._code(spec.scale))
        g = pkg._Output((), pkg._FLOAT) if spec.nvfp4 else None
        pkg._native.mx_quantize(inp, y.arg, s.arg, g.arg if g is not None else None, pkg._scale_rule("floor"), -1,
                                spec.block)
    except (AttributeError, TypeError):
        return None
    rows, nb = shape[0], shape[1] // spec.block
    blocks = y.buf.view(np.uint8).reshape(rows, nb, spec.block // spec.per_byte)
    return blocks, s.buf.view(np.uint8), (g.result() if g is not None else None)


def quantize_rows(spec: Spec, x2d: np.ndarray, threads: int, stopped, amax: Optional[float] = None) -> Iterator[tuple]:
    """Yields (input bytes, blocks bytes, scales bytes, global scale or None) for the rows
    of x2d ([rows, K]) in chunks of about 4M elements."""
    rows, k = x2d.shape
    rows_per = max(1, (1 << 22) // k)
    if spec.nvfp4 and amax is None:
        amax = finite_amax(x2d, rows_per, threads, stopped)
    for r in range(0, rows, rows_per):
        stopped()
        chunk = _as_quantizable(x2d[r : r + rows_per], threads)
        if spec.nvfp4:
            # the per-tensor scale comes from the whole tensor's amax: one extra row
            # holding it makes each chunk's amax the tensor's (the row is dropped)
            extra = np.zeros((1, k), np.float32)
            extra[0, 0] = amax
            chunk = np.concatenate([chunk.astype(np.float32), extra])
            fast = _quantize_packed(chunk, spec)
            if fast is not None:
                blocks, scales, g = fast
                yield chunk[:-1].nbytes, blocks[:-1], scales[:-1], np.asarray(g, np.float32)
                continue
            y, s, g = mx_quantize(chunk, spec.elem, scale_dtype=spec.scale)
            y, s = y[:-1], s[:-1]
            blocks = pack_nibbles(y).reshape(y.shape[0], -1, spec.block // 2)
            yield chunk[:-1].nbytes, blocks, s.view(np.uint8), np.asarray(g, np.float32)
            continue
        fast = _quantize_packed(chunk, spec)
        if fast is not None:
            yield chunk.nbytes, fast[0], fast[1], None
            continue
        y, s = mx_quantize(chunk, spec.elem, scale_dtype=spec.scale)
        if spec.elem == F4:
            blocks, scales = mx_repack(y, s, "onnx", "gpt-oss")
        else:
            blocks, scales = y.view(np.uint8).reshape(y.shape[0], -1, spec.block), s.view(np.uint8)
        yield chunk.nbytes, blocks, scales, None


def dequantize(spec: Spec, blocks: np.ndarray, scales: np.ndarray, global_scale: Any = None) -> np.ndarray:
    """float32 values of stored blocks and scales (the library's own MX dequantize)."""
    from . import mx_dequantize

    lead = blocks.shape[:-2]
    if spec.name == "mxfp4":
        data, sc = mx_repack(blocks, scales, "gpt-oss", "onnx")
        return mx_dequantize(data, sc)
    if spec.name == "mxfp8_e4m3":
        data = blocks.view(E4M3).reshape(lead + (-1,))
        return mx_dequantize(data, scales.view(E8M0))
    b = blocks.reshape(lead + (-1,))
    codes = np.empty(b.shape[:-1] + (b.shape[-1] * 2,), np.uint8)
    codes[..., 0::2], codes[..., 1::2] = b & 0x0F, b >> 4
    return mx_dequantize(codes.view(F4), scales.view(E4M3), np.float32(global_scale))
