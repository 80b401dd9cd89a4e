#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Counts the Cast/CastLike/Expand/QuantizeLinear/DequantizeLinear node tests onnxruntime passes with and without
tensorcast-ort (onnx 1.22's dirs and onnx 1.18's STRING dirs), naming those it fails.
Information for scripts/test-ort.sh's log; test_ort.py is what asserts."""

import os

import ortnode


def main():
    groups = [("onnx 1.22.0", ortnode.onnx122_dirs()), ("onnx 1.18.0 STRING", ortnode.onnx118_string_dirs())]
    for label, dirs in groups:
        for with_library in (False, True):
            failures = [(os.path.basename(d), why) for d in dirs
                        if (why := ortnode.run_dir(d, with_library)) is not None]
            who = "onnxruntime + tensorcast-ort" if with_library else "onnxruntime alone"
            print(f"node tests, {label}, {who}: {len(dirs) - len(failures)} of {len(dirs)} pass")
            for name, why in failures:
                print(f"  {name}: {why.splitlines()[0][:160]}")


if __name__ == "__main__":
    main()
