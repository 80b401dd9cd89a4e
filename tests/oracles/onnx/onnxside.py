# SPDX-License-Identifier: MIT OR Apache-2.0
"""The onnx 1.23 side of the FLOAT6 oracle: Cast-28 models run by onnx's
ReferenceEvaluator, the page's rule written out independently, and the case counts the
run prints (see conftest.py)."""

import bisect
from fractions import Fraction
from functools import lru_cache

import ml_dtypes
import numpy as np
import onnx
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

OPSET = 28

COUNTS = {}


def record(name, count):
    COUNTS[name] = COUNTS.get(name, 0) + count


@lru_cache(maxsize=None)
def evaluator(source, target, saturate):
    """A ReferenceEvaluator of one Cast-28 node: input X of ONNX type `source`, output Y
    of `target`, attribute saturate (which FLOAT6 targets ignore)."""
    x = helper.make_tensor_value_info("X", source, [None])
    y = helper.make_tensor_value_info("Y", target, [None])
    node = helper.make_node("Cast", ["X"], ["Y"], to=target, saturate=saturate)
    graph = helper.make_graph([node], f"cast_{source}_to_{target}", [x], [y])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    onnx.checker.check_model(model, full_check=True)
    return ReferenceEvaluator(model)


def reference_codes(source, target, x, saturate=1):
    """The reference's FLOAT6 codes for the array `x` (one uint8 per element).

    onnx 1.23 hands back an ml_dtypes float6 array: one element per byte, the code in the
    low six bits (checked: the top two bits are 0), not packed."""
    with np.errstate(over="ignore", invalid="ignore"):  # astype of inf, NaN, 1e300
        (y,) = evaluator(source, target, saturate).run(None, {"X": x})
    want = onnx.helper.tensor_dtype_to_np_dtype(target)
    assert y.dtype == want, (y.dtype, want)
    assert y.shape == x.shape and y.dtype.itemsize == 1
    codes = y.view(np.uint8).reshape(-1)
    assert int(codes.max(initial=0)) < 64, "bits above the six of a FLOAT6 code"
    return codes


class Float6:
    """A FLOAT6 format from docs/semantics-cast.md 6: sign, `exp_bits`, `man_bits`, `bias`; no
    infinity or NaN."""

    def __init__(self, name, onnx_type, exp_bits, man_bits, bias, ml):
        self.name, self.onnx_type = name, onnx_type
        self.exp_bits, self.man_bits, self.bias, self.ml = exp_bits, man_bits, bias, ml
        self.magnitudes = [self._value(c) for c in range(32)]  # exact, increasing

    def _value(self, code):
        e, m = code >> self.man_bits, code & ((1 << self.man_bits) - 1)
        scale = Fraction(2) ** (max(e, 1) - self.bias - self.man_bits)
        return (m + (1 << self.man_bits if e else 0)) * scale

    @property
    def max(self):
        return self.magnitudes[-1]

    def page_code(self, x):
        """The page's code for a Python float or Fraction x (NaN as float('nan')): round to
        nearest, ties to the even code, saturate to +-max (infinities too), keep the sign
        of zero results, +NaN -> 0x20, -NaN -> 0x00."""
        if isinstance(x, float) and x != x:
            return 0x00 if np.signbit(x) else 0x20
        sign = 0x20 if (x < 0 or (isinstance(x, float) and np.signbit(x))) else 0
        if isinstance(x, float) and abs(x) == float("inf"):
            return sign | 31
        a = abs(Fraction(x))
        hi = bisect.bisect_left(self.magnitudes, a)  # magnitudes[hi - 1] < a <= [hi]
        if hi == 0:
            return sign
        if hi == len(self.magnitudes):
            return sign | 31  # beyond the maximum: saturated
        lo = hi - 1
        below, above = a - self.magnitudes[lo], self.magnitudes[hi] - a
        if below < above or (below == above and lo % 2 == 0):
            return sign | lo
        return sign | hi


FORMATS = [
    Float6("FLOAT6E2M3", TensorProto.FLOAT6E2M3, 2, 3, 1, ml_dtypes.float6_e2m3fn),
    Float6("FLOAT6E3M2", TensorProto.FLOAT6E3M2, 3, 2, 3, ml_dtypes.float6_e3m2fn),
]
