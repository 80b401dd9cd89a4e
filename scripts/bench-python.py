#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""pytensorcast against ml_dtypes and numpy, ratios in one run (docs/python.md):

- 4M float32 -> float8_e4m3fn, bfloat16 and every sub-byte type (float4_e2m1fn,
  float6_e2m3fn, float6_e3m2fn, int4, uint4, int2, uint2) and float8_e8m0fnu:
  pytensorcast.cast (one thread, and all cores) vs ml_dtypes' astype (targets: >= 5x;
  bfloat16 >= 1.5x); the same through pytensorcast.astype (astype's bytes);
- 16 float32 -> float16: cast vs numpy's astype(np.float16) (target: at most 1.2x the
  cost), through the extension's fast path and through the general path alone.

Best of several repeats each (the machine is shared). Run in a venv with the package
installed: python scripts/bench-python.py [--quick]
"""

import os
import sys
import timeit

import ml_dtypes
import numpy as np

import pytensorcast as tc

TARGETS = [("float8_e4m3fn", 5.0), ("bfloat16", 1.5), ("float4_e2m1fn", 5.0), ("float6_e2m3fn", 5.0),
           ("float6_e3m2fn", 5.0), ("int4", 5.0), ("uint4", 5.0), ("int2", 5.0), ("uint2", 5.0),
           ("float8_e8m0fnu", 5.0)]


def best(fn, number, repeat):
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def main():
    quick = "--quick" in sys.argv
    repeat = 5 if quick else 15
    x = np.random.default_rng(0).standard_normal(1 << 22).astype(np.float32)
    cores = os.cpu_count() or 1
    rows = []
    for name, target in TARGETS:
        d = np.dtype(getattr(ml_dtypes, name))
        theirs = best(lambda: x.astype(d), 3, repeat)
        one = best(lambda: tc.cast(x, d), 3, repeat)
        many = best(lambda: tc.cast(x, d, threads=cores), 3, repeat)
        drop_in = best(lambda: tc.astype(x, d), 3, repeat)
        rows.append((f"4M float32 -> {name}", theirs, one, many, drop_in, target))
    small = x[:16].copy()
    tc.cast(small, np.float16)  # registers the pair with the fast path
    theirs = best(lambda: small.astype(np.float16), 20000, repeat)
    ours = best(lambda: tc.cast(small, np.float16), 20000, repeat)
    general = best(lambda: tc._cast(small, np.float16), 20000, repeat)
    print(f"pytensorcast {tc.__version__}, numpy {np.__version__}, ml_dtypes {ml_dtypes.__version__}, "
          f"{cores} cores; {tc.cpu_info()}")
    print(f"| case | ml_dtypes astype | cast, 1 thread | speedup | cast, {cores} threads | speedup | "
          "tc.astype | speedup | target |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for case, t, one, many, drop_in, target in rows:
        print(f"| {case} | {t * 1e3:.2f} ms | {one * 1e3:.2f} ms | {t / one:.1f}x | {many * 1e3:.2f} ms | "
              f"{t / many:.1f}x | {drop_in * 1e3:.2f} ms | {t / drop_in:.1f}x | >= {target}x |")
    print(f"| 16 float32 -> float16, fast path | numpy astype {theirs * 1e9:.0f} ns | {ours * 1e9:.0f} ns | "
          f"cost {ours / theirs:.2f}x | | | | | <= 1.2x cost |")
    print(f"| 16 float32 -> float16, general path | numpy astype {theirs * 1e9:.0f} ns | {general * 1e9:.0f} ns | "
          f"cost {general / theirs:.2f}x | | | | | |")


if __name__ == "__main__":
    main()
