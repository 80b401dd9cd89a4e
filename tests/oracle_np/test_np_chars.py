"""How messages quote a spec, against Python (semantics-can-cast.md section 6,
corrections).

numpy quotes a spec in its messages with Python's ``repr()``, which escapes what
``str.isprintable()`` calls not printable (``'\\x85x'``, ``'\\u2028'``):

* test_repr_of_every_code_point: every code point but NUL, the surrogates and the
  comma, in a spec numpy does not understand (``'x'`` and eight code points): the
  library's message is ``data type {repr(spec)} not understood``. The library's table
  of printable characters is Python 3.11's (Unicode 14.0.0, src/np/printable.rs); under
  a Python with other Unicode tables this test shows the characters whose category
  changed.
"""

import re
import unicodedata
from pathlib import Path

import npcast as nc
import npside as ns


def _table_unicode_version():
    text = (Path(__file__).resolve().parents[2] / "src/np/printable.rs").read_text()
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
