# SPDX-License-Identifier: MIT OR Apache-2.0
"""python -m pytensorcast convert IN OUT --dtype D [--only GLOB] [--check] [--threads N]

Converts the floating tensors of a .safetensors, .npy or .npz checkpoint to another
dtype (docs/python.md), streaming, atomically.
"""

from __future__ import annotations

import argparse
import sys

from ._convert import ConvertError, convert


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pytensorcast")
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("convert", help="convert a checkpoint's floating tensors to another dtype")
    c.add_argument("input", help=".safetensors, .npy or .npz file")
    c.add_argument("output", help="the file to write (same format), replaced atomically")
    c.add_argument("--dtype", required=True, help='target dtype: "bfloat16", "float8_e4m3fn", "float16", ...')
    c.add_argument("--only", action="append", metavar="GLOB", help="convert only tensors whose names match")
    c.add_argument("--check", action="store_true", help="verify the round trip after writing")
    c.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    args = ap.parse_args(argv)
    try:
        stats = convert(args.input, args.output, args.dtype, only=args.only, check=args.check, threads=args.threads)
    except ConvertError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted: nothing written", file=sys.stderr)
        return 130
    print(
        f"{args.output}: {stats['converted']} tensors converted, {stats['copied']} copied, "
        f"{stats['bytes_in']} -> {stats['bytes_out']} bytes" + (", round trip checked" if args.check else "")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
