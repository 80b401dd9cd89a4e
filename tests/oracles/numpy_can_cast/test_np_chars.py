# SPDX-License-Identifier: MIT OR Apache-2.0
"""Characters in specs, against numpy and Python (docs/semantics-can-cast.md section 6,
corrections): one-character specs, and how messages quote a spec.

numpy reads a one-character spec as a type code, an alias code (numpy 2's ``'n'`` and
``'N'`` for intp / uintp) or, below 24, a type number (``'\\x05'`` is int32, ``'\\t'``
int64 as ``q``; numpy 1 also reads 26, its removed ``NPY_CHAR``, as ``S1``).

* test_every_one_character_spec: ``np.dtype(chr(c))`` for the first 1,000 code points
  (every one-byte UTF-8 character, and so every byte value that is one, among them) and
  a few far ones, compared with tcast_np_dtype_parse and tcast_np_dtype_str as the parse
  test compares any spec (test_np_parse.parse_case: str() of what numpy accepts,
  TCAST_ERR_PARSE and numpy's exact message for what it refuses, the refusal under this
  version's rules of what only the other version accepts), and each accepted spec's
  casting level to and from a few partners under this version's rules.
  U+0000 cannot reach the C API: a C string ends at its NUL, so the library sees ``""``.
  numpy reads ``'\\x00'`` as type number 0 (bool); the library refuses ``""`` with
  numpy's message for ``''`` (``data type '' not understood``), and that is what is
  checked for it.
* test_bytes_that_are_not_utf8: the one-byte specs 0x80..0xff are not UTF-8 (no Python
  str holds them, so numpy has no answer): TCAST_ERR_PARSE (docs/c-api.md section 1).

numpy quotes a spec in its messages with Python's ``repr()``, which escapes what
``str.isprintable()`` calls not printable (``'\\x85x'``, ``'\\u2028'``):

* test_messages_quote_like_repr: random strings over quotes, backslashes, control,
  format, separator, private-use, unassigned and astral characters, compared with
  ``np.dtype`` as the parse test compares any spec (exact messages);
* test_repr_of_every_code_point: every code point but NUL, the surrogates and the
  comma, in a spec numpy does not understand (``'x'`` and eight code points): the
  library's message is ``data type {repr(spec)} not understood``. The library's table
  of printable characters is Python 3.11's (Unicode 14.0.0, src/np/printable.rs); under
  a Python with other Unicode tables this test shows the characters whose category
  changed.
"""

import random
import re
import unicodedata
import warnings
from pathlib import Path

import numpy as np

import npcast as nc
import npside as ns
from test_np_parse import parse_case

# beyond the first 1,000: separators, format characters, private use, noncharacters,
# astral characters (printable or not)
FAR_CODE_POINTS = (0x1680, 0x2028, 0x2029, 0x200B, 0x3000, 0xE000, 0xFEFF, 0xFFFD, 0xFFFF,
                   0x10000, 0x1F600, 0xE0001, 0xF0000, 0x10FFFF)

LEVEL_PARTNERS = ("i8", "q", "f8", "S", "U5", "V8", "O")


def _np_str(spec):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return str(np.dtype(spec))


def test_every_one_character_spec():
    bad, total, accepted, compared = [], 0, 0, 0
    partners = {p: (nc.dtype_parse(p), ns.quiet_dtype(p)) for p in LEVEL_PARTNERS}
    for cp in list(range(1000)) + list(FAR_CODE_POINTS):
        spec = chr(cp)
        np_out = ns.numpy_outcome(_np_str, spec)
        total += 1
        if cp == 0:
            # the C string of '\x00' is ""
            lib = nc.outcome(nc.dtype_parse, "")
            want = ("err", nc.ERR_PARSE, "data type '' not understood")
            if np_out != ("ok", "bool") or lib != want:
                bad.append(f"U+0000: numpy {np_out}, library {nc.describe(lib)}, "
                           f"expected {want}")
            continue
        problem, msg_checked = parse_case(spec, np_out)
        compared += msg_checked
        if problem:
            bad.append(f"U+{cp:04X} {problem}")
            continue
        if np_out[0] != "ok":
            continue
        accepted += 1
        handle, dt = nc.dtype_parse(spec), ns.quiet_dtype(spec)
        for name, (ph, pdt) in partners.items():
            for a, b, ha, hb, label in ((dt, pdt, handle, ph, f"{spec!r} -> {name!r}"),
                                        (pdt, dt, ph, handle, f"{name!r} -> {spec!r}")):
                total += 1
                want = ns.expected_level(a, b)
                got = nc.outcome(nc.casting_level, ha, hb, ns.RULES)
                if got != ("ok", want):
                    bad.append(f"{label}: expected {ns.LEVEL_NAMES[want]}, "
                               f"library {nc.describe(got)}")
    ns.check_all("chars: one-character specs vs np.dtype", bad, total,
                 f"{1000 + len(FAR_CODE_POINTS)} code points, numpy accepts {accepted}, "
                 f"{compared} messages compared, levels to {len(LEVEL_PARTNERS)} partners")


def test_bytes_that_are_not_utf8():
    bad = []
    for byte in range(0x80, 0x100):
        spec = bytes([byte])
        for label, got in (
                ("parse", nc.outcome(nc.dtype_parse, spec)),
                ("can_cast_str to", nc.outcome(nc.can_cast_str, "i4", spec, "unsafe", ns.RULES)),
                ("promote_types", nc.outcome(nc.promote_types, spec, "i4"))):
            if got[0] != "err" or got[1] != nc.ERR_PARSE:
                bad.append(f"{label} {spec!r}: {nc.describe(got)}, not PARSE")
    ns.check_all("chars: one-byte specs that are not UTF-8", bad, 3 * 0x80)


# characters repr() treats apart, and printable neighbours
_REPR_POOL = ("'", '"', "\\", "\t", "\n", "\r", "\x01", "\x1b", "\x7f", "\x85", "\xa0", "\xad",
              "é", "ÿ", "μ", "\u0378", "\u2028", "\u2029", "\u200b", "\ufeff", "\ue000",
              "\uffff", "\U00010000", "\U0001F600", "\U000E0001", "\U0010FFFF", "a", "x",
              " ", "S", "i", "4", "[", "]", "<", ">")


def test_messages_quote_like_repr():
    rng = random.Random(0x5EED)
    specs = {"\x85x", "é", "\u2028", "it's", "a'b\"c", "\U0001F600", "x\U000E0001"}
    while len(specs) < 20000:
        specs.add("".join(rng.choice(_REPR_POOL) for _ in range(rng.randint(1, 10))))
    bad, compared, escaped = [], 0, 0
    for spec in sorted(specs):
        np_out = ns.numpy_outcome(_np_str, spec)
        problem, msg_checked = parse_case(spec, np_out)
        compared += msg_checked
        escaped += msg_checked and repr(spec)[1:-1] != spec
        if problem:
            bad.append(problem)
    ns.check_all("chars: repr() quoting in messages (random specs)", bad, len(specs),
                 f"{compared} messages compared, {escaped} with escapes")


def _table_unicode_version():
    text = (Path(__file__).resolve().parents[3] / "src/np/printable.rs").read_text()
    found = re.search(r"Unicode (\d+\.\d+\.\d+) tables", text)
    return found.group(1) if found else "unknown"


def test_repr_of_every_code_point():
    # (a comma would make the comma form, whose messages quote the spec as it is)
    code_points = [cp for cp in range(1, 0x110000)
                   if not 0xD800 <= cp <= 0xDFFF and cp != ord(",")]
    bad, total = [], 0
    for i in range(0, len(code_points), 8):
        spec = "x" + "".join(chr(cp) for cp in code_points[i:i + 8])
        total += 1
        want = ("err", nc.ERR_PARSE, f"data type {spec!r} not understood")
        got = nc.outcome(nc.dtype_parse, spec)
        if got != want:
            bad.append(f"{spec!r}: library {nc.describe(got)}, expected {want[2]!r}")
    ns.check_all("chars: repr() of every code point", bad, total,
                 f"{len(code_points)} code points, 8 a spec; the library's table is "
                 f"Unicode {_table_unicode_version()}, this Python's "
                 f"{unicodedata.unidata_version}")
