#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Writes the seed inputs of the fuzz targets (fuzz/fuzz_targets/) into DIR/<target>/:
numbers from docs/semantics-cast.md section 8, tests/c/test_fpenv.c and the peers' test
cases (onnxruntime's and numpy's string casts); the numpy dtype specs of
tests/c/test_np_can_cast.c (its STR, LEVEL and PROMOTE cases); a few shapes of
docs/semantics-expand-bitcast.md and descriptors for the C ABI target. scripts/fuzz.sh
merges them, minimized, into fuzz/corpus/.

    python3 scripts/fuzz-seeds.py DIR
"""
import os
import re
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

NUMBERS = [
    "0", "-0", "1", "-1", "1.5", "3.14", "1e-5", "1E8", ".5", "5.", "+INF", "INF", "-INF",
    "inf", "infinity", "-Infinity", "NaN", "-nan", "nan", " 1.5 ", "\v1.5", "\t-2\n",
    "3.14abc", "1,5", "0x10", "", " ", "e5", ".", "1e", "1e+", "--1", "+-1",
    "4.9e-324", "1e-310", "2.4703282292062328e-324", "2.4703282292062327e-324",
    "1.00000000000000011102230246251565404236316680908203125",
    "0.1", "1e23", "3.4028235e38", "3.4028236e38", "1.17549435e-38", "1e-45", "7e-46",
    "6e-8", "65504", "65520", "65519.99", "2.2250738585072011e-308", "1.7976931348623157e308",
    "1.7976931348623159e308", "1e400", "-1e400", "1e-400", "300", "-129", "255", "256",
    "-1", "2147483647", "2147483648", "-2147483649", "9223372036854775807",
    "9223372036854775808", "18446744073709551615", "18446744073709551616",
    "18446744073709551617", "000000000000000000000000000000000001", "100.5", "2.718",
    "2.5", "3.5", "-2.5", "1e3", "true", "false", "TRUE", "False", "448", "-448", "464",
    "57344", "123456789012345678901234567890",
]

def write(directory, name, data):
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data)

def specs():
    text = open(os.path.join(ROOT, "tests", "c", "test_np_can_cast.c"), encoding="utf-8").read()
    found = []
    for macro in ("STR", "LEVEL", "PROMOTE"):
        for m in re.finditer(macro + r'\("((?:[^"\\]|\\.)*)", "((?:[^"\\]|\\.)*)"', text):
            a, b = (bytes(x, "utf-8").decode("unicode_escape").encode("latin-1") for x in m.groups())
            found.append((a, b if macro != "STR" else b"i4"))
    return found

def main():
    out = sys.argv[1]
    # parse_text: a target selector, then elements split at 0xFF.
    for k, number in enumerate(NUMBERS):
        write(f"{out}/parse_text", f"n{k:03d}", bytes([k % 11]) + number.encode())
    write(f"{out}/parse_text", "many", b"\x00" + b"\xff".join(n.encode() for n in NUMBERS[:8]))
    # format_roundtrip: a dtype selector, then raw elements.
    for k in range(18):
        write(f"{out}/format_roundtrip", f"d{k:02d}",
              bytes([k]) + struct.pack("<8d", 0.1, -0.0, 1e-310, 5e-324, 65504.0, 1e16,
                                       float("inf"), float("nan")))
    # np_dtype: two specs split at a NUL.
    for k, (a, b) in enumerate(specs()):
        write(f"{out}/np_dtype", f"s{k:03d}", a + b"\x00" + b)
    # shapes: expand (even first byte) and bitcast (odd) cases.
    write(f"{out}/shapes", "expand", bytes([0, 2, 3, 1, 3, 0, 1, 1]))
    write(f"{out}/shapes", "tf", bytes([1, 0, 1, 0, 1, 3, 4]))
    write(f"{out}/shapes", "view", bytes([1, 2, 5, 2, 2, 0, 6]))
    # capi_cast: descriptor bytes, then the input elements.
    for k in range(8):
        write(f"{out}/capi_cast", f"c{k}", bytes(range(k, k + 40)) + bytes(256))
    return 0

if __name__ == "__main__":
    sys.exit(main())
