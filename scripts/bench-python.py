#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""pytensorcast against ml_dtypes and numpy, ratios in one run (docs/python.md):

- 4M float32 -> float8_e4m3fn, float4_e2m1fn, bfloat16: pytensorcast.cast (one thread,
  and all cores) vs ml_dtypes' astype (targets: >= 5x, >= 5x, >= 1.5x);
- 16 float32 -> float16: cast vs numpy's astype(np.float16) (target: at most 2x the cost),
  through the compiled fast path (pytensorcast._fast) and through the ctypes path alone.

Best of several repeats each (the machine is shared). Run in a venv with the wheel
installed: python scripts/bench-python.py [--quick]
"""

import os
import sys
import timeit

import ml_dtypes
import numpy as np

import pytensorcast as tc


def best(fn, number, repeat):
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def main():
    quick = "--quick" in sys.argv
    repeat = 5 if quick else 15
    x = np.random.default_rng(0).standard_normal(1 << 22).astype(np.float32)
    cores = os.cpu_count() or 1
    rows = []
    for name, target in (("float8_e4m3fn", 5.0), ("float4_e2m1fn", 5.0), ("bfloat16", 1.5)):
        d = np.dtype(getattr(ml_dtypes, name))
        theirs = best(lambda: x.astype(d), 3, repeat)
        one = best(lambda: tc.cast(x, d), 3, repeat)
        many = best(lambda: tc.cast(x, d, threads=cores), 3, repeat)
        rows.append((f"4M float32 -> {name}", "ml_dtypes astype", theirs, one, many, target))
    small = x[:16].copy()
    theirs = best(lambda: small.astype(np.float16), 20000, repeat)
    ours = best(lambda: tc.cast(small, np.float16), 20000, repeat)
    fast_cast, tc._fast_cast = tc._fast_cast, None
    ctypes_only = best(lambda: tc.cast(small, np.float16), 20000, repeat)
    tc._fast_cast = fast_cast
    ext = "compiled fast path" if fast_cast is not None else "NO compiled fast path"
    print(f"pytensorcast {tc.__version__}, numpy {np.__version__}, ml_dtypes {ml_dtypes.__version__}, "
          f"{cores} cores; {tc.cpu_info()}")
    print(f"| case | peer | peer | pytensorcast (1 thread) | speedup | all {cores} cores | speedup | target |")
    print("|---|---|---:|---:|---:|---:|---:|---|")
    for case, peer, t, one, many, target in rows:
        print(f"| {case} | {peer} | {t * 1e3:.2f} ms | {one * 1e3:.2f} ms | {t / one:.1f}x | "
              f"{many * 1e3:.2f} ms | {t / many:.1f}x | >= {target}x |")
    print(f"| 16 float32 -> float16 ({ext}) | numpy astype | {theirs * 1e9:.0f} ns | {ours * 1e9:.0f} ns | "
          f"cost {ours / theirs:.2f}x | | | <= 2x cost |")
    print(f"| 16 float32 -> float16 (ctypes path only) | numpy astype | {theirs * 1e9:.0f} ns | "
          f"{ctypes_only * 1e9:.0f} ns | cost {ctypes_only / theirs:.2f}x | | | |")


if __name__ == "__main__":
    main()
