#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Extracts the Cast/CastLike/Expand/BitCast backend-node test dirs from an onnx wheel.

The string Cast tests exist only in older onnx releases (1.18.0), which cannot be
installed beside the pinned onnx 1.22.0; their data is taken from the wheel instead:

    pip download --no-deps --only-binary=:all: -d DIR onnx==1.18.0
    python tests/conformance/extract_node_data.py DIR/onnx-1.18.0-*.whl OUT_DIR

OUT_DIR then serves as the conformance runner's --data.
"""

import sys
import zipfile

PREFIXES = ("test_cast_", "test_castlike_", "test_expand_", "test_bitcast_")
MARKER = "onnx/backend/test/data/node/"


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: extract_node_data.py WHEEL OUT_DIR")
    wheel, out_dir = sys.argv[1], sys.argv[2]
    count = 0
    with zipfile.ZipFile(wheel) as z:
        for name in z.namelist():
            if not name.startswith(MARKER):
                continue
            test_dir = name[len(MARKER):].split("/")[0]
            if test_dir.startswith(PREFIXES) and not name.endswith("/"):
                z.extract(name, out_dir)
                count += 1
    if count == 0:
        sys.exit(f"no node test files found in {wheel}")
    print(f"extracted {count} files into {out_dir}/{MARKER}")


if __name__ == "__main__":
    main()
