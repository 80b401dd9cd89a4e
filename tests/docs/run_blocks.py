# SPDX-License-Identifier: MIT OR Apache-2.0
"""Runs a document's Python snippets in order in one namespace, as a reader pastes them
into one interpreter, each followed by the test's check of what it claims.

    python run_blocks.py STEPS.json

STEPS.json: a list of {"label": ..., "code": ..., "check": bool}. A snippet whose last
statement is an expression stores its value in `_`, as the interactive interpreter does.
A check runs in a copy of the namespace, so that nothing it defines reaches the snippets
after it. The first step that raises ends the run: its label and traceback on stderr,
exit status 1.
"""

import ast
import json
import sys
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def run(code, label, namespace):
    tree = ast.parse(code, filename=label)
    last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    if last is not None:
        tree.body.pop()
    exec(compile(tree, label, "exec"), namespace)
    if last is not None:
        namespace["_"] = eval(compile(ast.Expression(last.value), label, "eval"), namespace)


def main():
    steps = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    namespace = {"__name__": "__main__"}
    for step in steps:
        try:
            run(step["code"], step["label"], dict(namespace) if step["check"] else namespace)
        except BaseException:  # noqa: BLE001 - a snippet's failure, reported whole
            traceback.print_exc()
            print(f"FAILED: {step['label']}", file=sys.stderr)
            return 1
        print(f"ok: {step['label']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
