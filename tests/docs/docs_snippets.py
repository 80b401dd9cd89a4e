# SPDX-License-Identifier: MIT OR Apache-2.0
"""The fenced code blocks of the documents whose snippets tests/docs runs.

A block opens with a line of three backquotes and a language (indented as a list item's
block may be) and closes with three backquotes at the same indentation; its text is
dedented by that indentation. A snippet is named by its document, its language and its
first line, which the inventory in test_snippets.py uses as its key.
"""

import re
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOCS = ("README.md", "docs/python.md", "integrations/onnxruntime/README.md")

_OPEN = re.compile(r"^( *)```(\S*)\s*$")


@dataclass(frozen=True)
class Snippet:
    doc: str
    lang: str
    line: int  # 1-based line of the opening fence
    text: str

    @property
    def key(self):
        return (self.doc, self.lang, self.text.splitlines()[0])

    def where(self):
        return f"{self.doc}:{self.line} ({self.lang})"


def snippets(doc):
    lines = (REPO / doc).read_text(encoding="utf-8").splitlines()
    found = []
    i = 0
    while i < len(lines):
        m = _OPEN.match(lines[i])
        if not m:
            i += 1
            continue
        indent, lang = m.group(1), m.group(2)
        if not lang:
            raise AssertionError(f"{doc}:{i + 1}: a code block without a language")
        close = indent + "```"
        body = []
        j = i + 1
        while j < len(lines) and lines[j].rstrip() != close:
            if lines[j].strip() and not lines[j].startswith(indent):
                raise AssertionError(f"{doc}:{j + 1}: a line outside the block's indentation")
            body.append(lines[j][len(indent):])
            j += 1
        if j == len(lines):
            raise AssertionError(f"{doc}:{i + 1}: the block never closes")
        found.append(Snippet(doc, lang, i + 1, "\n".join(body) + "\n"))
        i = j + 1
    return found


def all_snippets():
    return [s for doc in DOCS for s in snippets(doc)]
