# SPDX-License-Identifier: MIT OR Apache-2.0
"""A smoke test of an installed pytensorcast wheel on another CPU (scripts/test-wheel-aarch64.sh
runs it under qemu) or with numpy 1 (scripts/test-python.sh): each check against ml_dtypes/numpy in the same process; prints
`N passed, N failed` and exits non-zero on a failure."""

import platform
import sys

import ml_dtypes
import numpy as np

import pytensorcast as tc

checks = []


def check(name):
    def run(fn):
        try:
            fn()
            checks.append((name, None))
        except Exception as e:  # noqa: BLE001 - every failure is reported
            checks.append((name, e))
    return run


rng = np.random.default_rng(0)
x = (rng.standard_normal(4099) * 100).astype(np.float32)


@check("the package and its library load, on this machine's arch")
def _():
    assert "site-packages" in tc.__file__ or "/site/" in tc.__file__, tc.__file__
    arch = platform.machine()
    assert tc.cpu_info().startswith(f"arch={arch}"), (tc.cpu_info(), arch)
    print(f"pytensorcast {tc.__version__} on {arch}: {tc.cpu_info()}")


@check("float32 -> float8_e4m3fn, saturate=False, as ml_dtypes")
def _():
    assert tc.cast(x, "float8_e4m3fn", saturate=False).tobytes() == x.astype(ml_dtypes.float8_e4m3fn).tobytes()


@check("float32 -> float4_e2m1fn as ml_dtypes, and packed")
def _():
    got = tc.cast(x, ml_dtypes.float4_e2m1fn)
    assert got.tobytes() == x.astype(ml_dtypes.float4_e2m1fn).tobytes()
    codes = got.view(np.uint8)
    packed = tc.cast(x, "FLOAT4E2M1", packed=True)
    assert packed[:-1].tolist() == (codes[0:-1:2] | (codes[1::2] << 4)).tolist()


@check("float32 -> bfloat16 with 2 threads and strides, as ml_dtypes")
def _():
    y = x[::3]
    got = tc.cast(y, "BFLOAT16", threads=2)
    assert got.tobytes() == y.astype(ml_dtypes.bfloat16).tobytes()


@check("strings in and out")
def _():
    assert tc.cast(np.array(["1.5", "-2", " 3e3 "]), np.float64).tolist() == [1.5, -2.0, 3000.0]
    out = tc.cast(np.array([0.1, 2.5], np.float32), str)
    assert out.tolist() == ["0.1", "2.5"]
    numpy2 = int(np.__version__.split(".")[0]) >= 2
    assert out.dtype == np.dtypes.StringDType() if numpy2 else out.dtype.kind == "U", out.dtype
    assert tc.cast(np.array(["7", "-8"], object), ml_dtypes.int4).tolist() == [7, -8]


@check("the extension (pytensorcast._native) loads and its fast path casts as the general path")
def _():
    assert tc._native.__file__.endswith(".abi3.so"), tc._native.__file__
    small = x[:16].copy()
    first = tc.cast(small, np.float16)  # the general path, which registers the pair
    got = tc.cast(small, np.float16)  # the fast path
    assert got.tobytes() == first.tobytes() == small.astype(np.float16).tobytes()
    assert tc._cast(small, np.float16).tobytes() == got.tobytes()


@check("an error carries tensorcast's message")
def _():
    try:
        tc.cast(np.array(["1", "zz"]), np.float32)
    except ValueError as e:
        assert 'element 1: cannot parse "zz" as FLOAT' in str(e), str(e)
    else:
        raise AssertionError("no error")


failed = [(n, e) for n, e in checks if e is not None]
for n, e in failed:
    print(f"FAILED: {n}: {e!r}")
print(f"{len(checks) - len(failed)} passed, {len(failed)} failed")
sys.exit(1 if failed else 0)
