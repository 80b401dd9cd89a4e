# SPDX-License-Identifier: MIT OR Apache-2.0
"""pytensorcast convert IN OUT --dtype D [--only GLOB] [--exclude GLOB] [--check] ...
(also `python -m pytensorcast convert ...`)

Converts the floating tensors of a .safetensors, .npy or .npz checkpoint to another
dtype (docs/python.md). Every failure is one `error:` line on stderr, exit code 1 (2 for
arguments that cannot work); the input is never written and OUT appears only complete.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Optional


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2, as for every other usage error
        self.exit(2, f"error: {message} (see {self.prog} --help)\n")


def _threads(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 1 <= n <= 1024:
        raise argparse.ArgumentTypeError(f"must be from 1 to 1024, not {n}")
    return n


def _parser(prog: str) -> argparse.ArgumentParser:
    from . import __version__

    ap = _Parser(prog=prog, description="tensorcast's checkpoint converter (docs/python.md)")
    ap.add_argument("--version", action="version", version=f"pytensorcast {__version__}")
    sub = ap.add_subparsers(dest="command", required=True, parser_class=_Parser)
    c = sub.add_parser("convert", help="convert a checkpoint's floating tensors to another dtype")
    c.add_argument("input", help=".safetensors, .npy or .npz file, or a directory of safetensors shards "
                                 "(or its model.safetensors.index.json)")
    c.add_argument("output", help="the file to write (same format), replaced only when complete; "
                                  "a directory for shards")
    c.add_argument("--dtype", required=True,
                   help="target: bfloat16, float16, float32, float64, float8_e4m3fn, float8_e5m2, or the "
                        "block-scaled mxfp4, mxfp8_e4m3, nvfp4 (safetensors)")
    c.add_argument("--rest", metavar="DTYPE",
                   help="block-scaled --dtype: cast the floating tensors not quantized to DTYPE "
                        "(default: leave them as they are)")
    c.add_argument("--mx-names", choices=("hf", "openai"), default="hf",
                   help="block-scaled --dtype: W_blocks/W_scales (hf, gpt-oss on the Hugging Face hub, "
                        "the default) or W.blocks/W.scales (openai, gpt-oss' original checkpoints)")
    c.add_argument("--only", action="append", metavar="GLOB", help="convert only tensors whose names match")
    c.add_argument("--exclude", action="append", metavar="GLOB", help="copy tensors whose names match as they are")
    c.add_argument("--saturate", action=argparse.BooleanOptionalAction, default=True,
                   help="float8: values out of range clamp to the largest finite value (default) "
                        "or, with --no-saturate, become inf/NaN")
    c.add_argument("--check", action="store_true",
                   help="read the output back and verify it before it replaces OUT")
    c.add_argument("--part", metavar="K/N", help="shards: convert every N-th shard from the K-th (1 <= K <= N), "
                                                 "one part per machine or task; then run once with --finish")
    c.add_argument("--finish", action="store_true",
                   help="shards: after the parts, verify them and write the index and the other files")
    c.add_argument("--threads", type=_threads, default=None, help="threads (default: all cores)")
    return ap


def main(argv: Optional[list] = None, prog: Optional[str] = None) -> int:
    if prog is None:
        base = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
        prog = "python -m pytensorcast" if base in ("__main__.py", "-c", "") else base
    args = _parser(prog).parse_args(argv)
    from ._convert import ConvertError, UsageError, convert

    try:
        stats = convert(args.input, args.output, args.dtype, only=args.only, exclude=args.exclude,
                        check=args.check, threads=args.threads, saturate=args.saturate, part=args.part,
                        finish=args.finish, rest=args.rest, mx_names=args.mx_names)
    except UsageError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except ConvertError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"interrupted: nothing written, {args.output} as it was", file=sys.stderr)
        return 130
    except OSError as e:
        where = f"{e.filename}: " if e.filename else ""
        print(f"error: {where}{e.strerror or e}", file=sys.stderr)
        return 1
    except MemoryError:
        print("error: out of memory", file=sys.stderr)
        return 1
    except Exception as e:  # a bug: still one line, and still nothing written
        print(f"error: internal error: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    checked = ", round trip checked" if args.check else ""
    q = f" ({stats['quantized']} to {args.dtype})" if stats.get("quantized") else ""
    if "shards" not in stats:
        print(f"{args.output}: {stats['converted']} tensors converted{q}, {stats['copied']} copied, "
              f"{stats['bytes_in']} -> {stats['bytes_out']} bytes{checked}")
        return 0
    if stats["finish"]:
        what = f"parts verified{' (data checked)' if args.check else ''}"
    else:
        what = (f"{stats['shards']} shards, {stats['converted']} tensors converted{q}, {stats['copied']} copied, "
                f"{stats['bytes_in']} -> {stats['bytes_out']} bytes{checked}")
    if stats["part"]:
        k, n = stats["part"]
        print(f"{args.output}: part {k}/{n}: {what}; the index is written by a run with --finish after every part")
        return 0
    extra = f", {stats['files']} other files copied"
    if stats["skipped"]:
        extra += f" (directories not copied: {', '.join(stats['skipped'])})"
    print(f"{args.output}: {what}{extra}" + (f", {stats['index']} written" if stats["index"] else ""))
    return 0


def _run() -> int:
    try:
        return main()
    except BrokenPipeError:  # the summary's reader went away (| head): not an error
        devnull = os.open(os.devnull, os.O_WRONLY)  # no second error when Python flushes stdout
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def console() -> None:
    """The `pytensorcast` console script."""
    sys.exit(_run())


if __name__ == "__main__":
    sys.exit(_run())
