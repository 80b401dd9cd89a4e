#!/usr/bin/env python3
"""Reads what the Mono scripts need from bindings/csharp/src/TensorcastSharp.csproj, so that
mcs compiles the same files as `dotnet build` and the package carries the same version.

  csproj.py sources PROJECT   the <Compile Include> files, as paths from the current
                              directory, one a line
  csproj.py property PROJECT NAME
                              the value of the property NAME (<Version>, <PackageId>, ...)
  csproj.py check PROJECT CARGO_TOML
                              fails unless every listed file exists, every .cs file under
                              the project's directory is listed (the SDK's default glob
                              would compile it), there are no wildcards, and <Version> is
                              Cargo.toml's package version
"""
import glob
import os
import re
import sys
import xml.etree.ElementTree as ET


def compile_items(project):
    root = ET.parse(project).getroot()
    base = os.path.dirname(project)
    items = [c.get("Include") for c in root.iter("Compile") if c.get("Include")]
    return [os.path.normpath(os.path.join(base, i.replace("\\", "/"))) for i in items]


def prop(project, name):
    found = [v.text.strip() for v in ET.parse(project).getroot().iter(name) if v.text]
    if len(found) != 1:
        sys.exit(f"{project}: expected one <{name}>, found {len(found)}")
    return found[0]


def cargo_version(cargo_toml):
    text = open(cargo_toml, encoding="utf-8").read()
    package = re.search(r"^\[package\]\s*$(.*?)(?=^\[|\Z)", text, re.M | re.S)
    match = package and re.search(r'^version\s*=\s*"([^"]+)"', package.group(1), re.M)
    if not match:
        sys.exit(f"{cargo_toml}: no [package] version")
    return match.group(1)


def check(project, cargo_toml):
    problems = []
    items = compile_items(project)
    if any("*" in i for i in items):
        problems.append("wildcards in <Compile Include>: list the files")
    for item in items:
        if not os.path.isfile(item):
            problems.append(f"listed but missing: {item}")
    if len(set(items)) != len(items):
        problems.append("a file is listed twice")
    base = os.path.dirname(project)
    # bin/ and obj/ are the SDK's outputs, which it leaves out of its own glob.
    on_disk = {
        os.path.normpath(p)
        for p in glob.glob(os.path.join(base, "**", "*.cs"), recursive=True)
        if os.path.relpath(p, base).split(os.sep)[0] not in ("bin", "obj")
    }
    for orphan in sorted(on_disk - set(items)):
        problems.append(f"not listed: {orphan}")
    v, cv = prop(project, "Version"), cargo_version(cargo_toml)
    if v != cv:
        problems.append(f"<Version> {v} differs from Cargo.toml's {cv}")
    for p in problems:
        print(f"{project}: {p}", file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"{project}: {len(items)} files, version {v}")


def main(argv):
    if len(argv) == 3 and argv[1] == "sources":
        print("\n".join(compile_items(argv[2])))
    elif len(argv) == 4 and argv[1] == "property":
        print(prop(argv[2], argv[3]))
    elif len(argv) == 4 and argv[1] == "check":
        check(argv[2], argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
