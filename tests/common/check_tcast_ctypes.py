#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Checks the ctypes declarations of tests/common/tcast_ctypes.py against C and the library.

A C program compiled against include/tensorcast.h (``$CC`` or ``cc``, ``-std=c11 -Wall
-Werror``) prints what the compiler knows; the check compares it with what the module
built from the same header:

* every struct: sizeof and alignment, and each field's offset, size and (integers)
  signedness, in the header's order;
* every ``#define`` constant's value;
* every prototype: the compiler accepts the function's address as a pointer of the type
  the parser read (so no parameter was lost or mistyped), and each parameter and return
  value has the size of its ctypes type (and the same signedness, for integers).

With ``--lib``, the library too: it exports every declared function, names each status
as STATUS_NAMES does, and fills each ``*_options`` struct at the ctypes size
(``tcast_*_options_init`` returns TCAST_OK and sets ``struct_size`` to it;
``tcast_cast_options_default`` returns it).

    python tests/common/check_tcast_ctypes.py [--lib target/release/libtensorcast.so]

Prints one line per disagreement and exits 1, or prints one ``tcast_ctypes: ... agree``
line. Run by step ``oracle`` of scripts/test.sh.
"""

import argparse
import ctypes
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tcast_ctypes as tc  # noqa: E402

# The ctypes integer types whose signedness can be asked of both sides.
INTEGERS = (ctypes.c_int8, ctypes.c_int16, ctypes.c_int32, ctypes.c_int64, ctypes.c_uint8,
            ctypes.c_uint16, ctypes.c_uint32, ctypes.c_uint64, ctypes.c_int, ctypes.c_size_t)


def signed(ctype):
    return ctype(-1).value < 0


def c_program():
    """The C source and the dict of what it should print (line key -> value)."""
    body, want = [], {}
    for name, cls in tc.STRUCTS.items():
        fields = getattr(cls, "_fields_", None)
        if fields is None:
            continue  # opaque: only ever behind a pointer
        body.append(f'printf("struct {name}|%zu %zu\\n", sizeof(struct {name}), '
                    f'_Alignof(struct {name}));')
        want[f"struct {name}"] = f"{ctypes.sizeof(cls)} {ctypes.alignment(cls)}"
        for field, ctype in fields:
            member = f"((struct {name} *)0)->{field}"
            body.append(f'printf("field {name}.{field}|%zu %zu\\n", '
                        f'offsetof(struct {name}, {field}), sizeof({member}));')
            descriptor = getattr(cls, field)
            want[f"field {name}.{field}"] = f"{descriptor.offset} {descriptor.size}"
            if ctype in INTEGERS:
                body.append(f"{{ struct {name} s; memset(&s, 0, sizeof s); s.{field} = -1; "
                            f'printf("sign {name}.{field}|%d\\n", s.{field} < 0); }}')
                want[f"sign {name}.{field}"] = str(int(signed(ctype)))
    for name, value in tc.CONSTANTS.items():
        body.append(f'printf("const {name}|%lld\\n", (long long)({name}));')
        want[f"const {name}"] = str(value)
    for name, proto in tc.FUNCTIONS.items():
        params = ", ".join(proto.c_argtypes) or "void"
        # An assignment the compiler type-checks but never evaluates (nothing to link).
        body.append(f"{{ {proto.c_restype} (*check)({params}); (void)sizeof(check = &{name}); }}")
        typed = [("return", proto.c_restype, proto.restype)] if proto.restype else []
        typed += [(str(k), c, t) for k, (c, t) in enumerate(zip(proto.c_argtypes,
                                                                   proto.argtypes))]
        for where, c_type, ctype in typed:
            body.append(f'printf("size {name} {where}|%zu\\n", sizeof({c_type}));')
            want[f"size {name} {where}"] = str(ctypes.sizeof(ctype))
            if ctype in INTEGERS:
                body.append(f'{{ {c_type} v = ({c_type})-1; '
                            f'printf("sign {name} {where}|%d\\n", v < 0); }}')
                want[f"sign {name} {where}"] = str(int(signed(ctype)))
    source = "\n".join(["#include <stddef.h>", "#include <stdio.h>", "#include <string.h>",
                        '#include "tensorcast.h"', "", "int main(void) {"]
                       + [f"  {line}" for line in body] + ["  return 0;", "}", ""])
    return source, want


def compiled(source, cc):
    """What the program prints, as line key -> value."""
    with tempfile.TemporaryDirectory() as tmp:
        c_file, exe = os.path.join(tmp, "layout.c"), os.path.join(tmp, "layout")
        Path(c_file).write_text(source)
        command = shlex.split(cc) + ["-std=c11", "-Wall", "-Werror", "-I",
                                     str(tc.HEADER_PATH.parent), c_file, "-o", exe]
        built = subprocess.run(command, capture_output=True, text=True)
        if built.returncode != 0:
            sys.exit(f"error: {' '.join(command)} failed:\n{built.stderr}")
        out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
    return dict(line.split("|", 1) for line in out.splitlines())


def library_problems(path):
    """Disagreements between the header's declarations and the library at `path`."""
    lib = tc.load_library(path)  # AttributeError when a declared function is missing
    problems, checked = [], 0
    for status, name in tc.STATUS_NAMES.items():
        got = lib.tcast_status_name(status).decode()
        if got != name:
            problems.append(f"tcast_status_name({status}) is {got}, the header says {name}")
    for name, cls in tc.STRUCTS.items():
        fields = [f for f, _ in getattr(cls, "_fields_", [])]
        if fields[:1] != ["struct_size"]:
            continue
        size = ctypes.sizeof(cls)
        init = f"{name}_init"
        if init not in tc.FUNCTIONS:
            problems.append(f"struct {name} has a struct_size but no {init}")
            continue
        value = cls()
        status = getattr(lib, init)(ctypes.byref(value), size)
        if status != tc.TCAST_OK or value.struct_size != size:
            problems.append(f"{init}(&opts, {size}) returned {status} and struct_size "
                            f"{value.struct_size}")
        checked += 1
        default = f"{name}_default"
        if default in tc.FUNCTIONS and getattr(lib, default)().struct_size != size:
            problems.append(f"{default}().struct_size is not {size}")
    return problems, checked


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lib", help="also check this libtensorcast.so")
    parser.add_argument("--cc", default=os.environ.get("CC", "cc"),
                        help="the C compiler (default: $CC or cc)")
    args = parser.parse_args()

    source, want = c_program()
    got = compiled(source, args.cc)
    problems = [f"{key}: ctypes {value}, C {got.get(key, 'nothing')}"
                for key, value in want.items() if got.get(key) != value]
    problems += [f"{key}: C printed it, ctypes has nothing" for key in got if key not in want]
    library = ""
    if args.lib:
        more, checked = library_problems(args.lib)
        problems += more
        library = (f"; {args.lib} exports all {len(tc.FUNCTIONS)} functions and fills "
                   f"{checked} options structs at their ctypes size")
    for problem in problems:
        print(f"FAIL {problem}")
    if problems:
        print(f"tcast_ctypes: {len(problems)} disagreements with {tc.HEADER_PATH}")
        return 1
    structs = [c for c in tc.STRUCTS.values() if hasattr(c, "_fields_")]
    fields = sum(len(c._fields_) for c in structs)
    print(f"tcast_ctypes: {len(structs)} structs ({fields} fields), {len(tc.CONSTANTS)} "
          f"constants and {len(tc.FUNCTIONS)} prototypes agree with include/tensorcast.h "
          f"as {args.cc} compiles it{library}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
