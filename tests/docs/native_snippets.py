# SPDX-License-Identifier: MIT OR Apache-2.0
"""README.md's snippets that need an installed tensorcast, run from the README's text
against one (a prefix made by `cmake --install`, as the README's install block makes
$HOME/opt/tensorcast):

- the C program ("A first program in C"), built as app.c by the consumer snippets below,
  must print what the README's `./first` comment says;
- the pkg-config block, with $HOME/opt/tensorcast replaced by the prefix;
- the CMake block, the two lines of a consumer's CMakeLists.txt (after the
  cmake_minimum_required, project and add_executable lines a project has), configured
  with the -DCMAKE_PREFIX_PATH its comment gives, once with tensorcast::tensorcast and
  once with the tensorcast::tensorcast_static its comment offers;
- the Go block, the body of a main function of a module that requires bindings/go
  (replaced by this checkout's), built with -tags tensorcast_pkgconfig: `half` must hold
  what the comment on the CastSlice line says.

    python tests/docs/native_snippets.py PREFIX

Needs cc, cmake, pkg-config and go. Prints one line per snippet and "N passed, N failed";
exits 1 when one failed. tests/docs/test_snippets.py lists these snippets as run here.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from docs_snippets import REPO, snippets  # noqa: E402

HOME_PREFIX = "$HOME/opt/tensorcast"


def only(found, what):
    assert len(found) == 1, f"README.md: {len(found)} snippets {what}, not 1"
    return found[0]


def readme():
    return snippets("README.md")


def run(args, cwd, env=None, shell=False):
    done = subprocess.run(args, cwd=cwd, env=env, shell=shell, capture_output=True, text=True)
    assert done.returncode == 0, f"{args}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def claimed_output():
    """What the README says ./first prints: its `./first   # a, b` comment, one line per item."""
    cc_block = only([s for s in readme() if s.lang == "sh" and "./first" in s.text], "running ./first")
    (comment,) = re.findall(r"^\./first +# *(.*)$", cc_block.text, re.M)
    return comment.replace(", ", "\n") + "\n"


def program(work):
    c = only([s for s in readme() if s.lang == "c"], "in C")
    (work / "app.c").write_text(c.text)


def pkg_config(prefix, work):
    block = only([s for s in readme() if s.lang == "sh" and "pkg-config" in s.text], "with pkg-config")
    assert HOME_PREFIX in block.text and "cc app.c -o app" in block.text, block.text
    program(work)
    run(["bash", "-e", "-c", block.text.replace(HOME_PREFIX, str(prefix))], cwd=work)
    out = run(["./app"], cwd=work)
    assert out == claimed_output(), f"./app printed\n{out}README.md says\n{claimed_output()}"


def cmake(prefix, work):
    block = only([s for s in readme() if s.lang == "cmake"], "in CMake")
    flags = re.findall(r"-DCMAKE_PREFIX_PATH=(\S+)", block.text)
    assert flags == [HOME_PREFIX], flags
    static = "tensorcast::tensorcast_static"
    assert re.search(r"# or " + re.escape(static) + r"\b", block.text), block.text
    (link,) = [line for line in block.text.splitlines() if line.startswith("target_link_libraries(")]
    assert "PRIVATE tensorcast::tensorcast)" in link, link
    for target in ("tensorcast::tensorcast", static):
        text = block.text.replace(link, link.replace("PRIVATE tensorcast::tensorcast)", f"PRIVATE {target})"))
        project = work / target.replace("::", "-")
        project.mkdir()
        program(project)
        (project / "CMakeLists.txt").write_text(
            "cmake_minimum_required(VERSION 3.16)\nproject(app C)\nadd_executable(app app.c)\n" + text)
        run(["cmake", "-S", ".", "-B", "build", f"-DCMAKE_PREFIX_PATH={prefix}"], cwd=project)
        run(["cmake", "--build", "build"], cwd=project)
        out = run(["build/app"], cwd=project)
        assert out == claimed_output(), f"{target}: build/app printed\n{out}README.md says\n{claimed_output()}"


def go(prefix, work):
    block = only([s for s in readme() if s.lang == "go"], "in Go")
    (claim,) = re.findall(r"CastSlice\(.*// (\[.*\])$", block.text, re.M)
    body = "\n".join("\t" + line for line in block.text.splitlines())
    (work / "main.go").write_text(
        'package main\n\nimport (\n\t"fmt"\n\n\t"github.com/tensorcast/tensorcast/bindings/go"\n)\n\n'
        "func main() {\n" + body + "\n\tif err != nil {\n\t\tpanic(err)\n\t}\n"
        '\tfmt.Printf("%#x\\n", half)\n}\n')
    (work / "go.mod").write_text(
        "module docsnippet\n\ngo 1.18\n\nrequire github.com/tensorcast/tensorcast/bindings/go v0.0.0\n\n"
        f"replace github.com/tensorcast/tensorcast/bindings/go => {REPO / 'bindings' / 'go'}\n")
    pc = [p.parent for p in Path(prefix).rglob("tensorcast.pc")]
    assert len(pc) == 1, pc
    env = dict(os.environ, PKG_CONFIG_PATH=str(pc[0]), CGO_LDFLAGS=f"-Wl,-rpath,{pc[0].parent}",
               GOFLAGS="-mod=mod", GOPROXY="off")
    run(["go", "build", "-tags", "tensorcast_pkgconfig", "-o", "app", "."], cwd=work, env=env)
    out = run(["./app"], cwd=work)
    assert out == claim + "\n", f"half is {out.strip()}, README.md says {claim}"


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    prefix = Path(sys.argv[1]).resolve()
    checks = [("README.md's pkg-config block", pkg_config), ("README.md's CMake block", cmake),
              ("README.md's Go block", go)]
    passed = failed = 0
    for name, check in checks:
        work = Path(tempfile.mkdtemp(prefix="tcast-docs-"))
        try:
            check(prefix, work)
        except Exception:  # noqa: BLE001 - every snippet runs, each failure reported
            traceback.print_exc()
            print(f"FAILED: {name}")
            failed += 1
        else:
            print(f"ok: {name}")
            passed += 1
        finally:
            shutil.rmtree(work, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
