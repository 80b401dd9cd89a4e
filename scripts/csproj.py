#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Reads what the Mono scripts need from bindings/csharp/src/TensorcastSharp.csproj, so that
mcs compiles the same files as `dotnet build` and the package carries the same version.

  csproj.py sources PROJECT   the <Compile Include> files, as paths from the current
                              directory, one a line
  csproj.py property PROJECT NAME
                              the value of the property NAME (<Version>, <PackageId>, ...)
  csproj.py packed PROJECT     the files `dotnet pack` adds to the package besides the
                              assembly (<None Pack="true">, <Content Pack="true">): one a
                              line, the file as a path from the current directory, a tab,
                              and its path inside the package (PackagePath, with the file's
                              name appended when it is a folder: empty or ending in /)
  csproj.py check PROJECT CARGO_TOML
                              fails unless every listed file exists, every .cs file under
                              the project's directory is listed (the SDK's default glob
                              would compile it), there are no wildcards, <Version> is
                              Cargo.toml's package version and <PackageLicenseExpression>
                              its licence, and the packed items have no wildcards and no
                              conditions (the Mono packer cannot evaluate them)
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


def packed_items(project):
    """(element, include as written, source path, path in the package) of each packed item."""
    root = ET.parse(project).getroot()
    base = os.path.dirname(project)
    items = []
    for tag in ("None", "Content"):
        for element in root.iter(tag):
            include = element.get("Include")
            if not include or element.get("Pack", "").lower() != "true":
                continue
            source = os.path.normpath(os.path.join(base, include.replace("\\", "/")))
            target = (element.get("PackagePath") or "").replace("\\", "/").lstrip("/")
            if target == "" or target.endswith("/"):
                target += os.path.basename(source)
            items.append((element, include, source, target))
    return items


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


def cargo_license(cargo_toml):
    text = open(cargo_toml, encoding="utf-8").read()
    package = re.search(r"^\[package\]\s*$(.*?)(?=^\[|\Z)", text, re.M | re.S)
    match = package and re.search(r'^license\s*=\s*"([^"]+)"', package.group(1), re.M)
    if not match:
        sys.exit(f"{cargo_toml}: no [package] license")
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
    lic, clic = prop(project, "PackageLicenseExpression"), cargo_license(cargo_toml)
    if lic != clic:
        problems.append(f"<PackageLicenseExpression> {lic} differs from Cargo.toml's {clic}")
    root = ET.parse(project).getroot()
    parents = {child: parent for parent in root.iter() for child in parent}
    targets = []
    for element, include, _, target in packed_items(project):
        if "*" in include:
            problems.append(f"wildcard in a packed item: {include}")
        node = element
        while node is not None:
            if node.get("Condition") is not None:
                problems.append(f"packed item {include} is under a Condition")
                break
            node = parents.get(node)
        targets.append(target)
    if len(set(targets)) != len(targets):
        problems.append("two packed items have the same path in the package")
    for p in problems:
        print(f"{project}: {p}", file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"{project}: {len(items)} files, version {v}, licence {lic}, {len(targets)} packed items")


def main(argv):
    if len(argv) == 3 and argv[1] == "sources":
        print("\n".join(compile_items(argv[2])))
    elif len(argv) == 3 and argv[1] == "packed":
        for _, _, source, target in packed_items(argv[2]):
            print(f"{source}\t{target}")
    elif len(argv) == 4 and argv[1] == "property":
        print(prop(argv[2], argv[3]))
    elif len(argv) == 4 and argv[1] == "check":
        check(argv[2], argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
