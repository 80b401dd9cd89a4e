#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Checks the NuGet package that scripts/pack-csharp.sh writes (scripts/test-csharp.sh runs
this from the repository root, after it):

  check_nupkg.py NUPKG

- its entries are exactly the nuspec, the DLL, the licence texts LICENSE-MIT and
  LICENSE-APACHE, runtimes/linux-x64/native/libtensorcast.so and
  runtimes/linux-arm64/native/libtensorcast.so, and the OPC parts;
- the nuspec has the id, Cargo.toml's version, Cargo.toml's licence as a licence
  expression (and NuGet's licenseUrl for it), the copyright holder of the licence texts;
- the licence texts are the repository's, byte for byte;
- each native is the file built for its RID (target/release for linux-x64,
  target/cross/aarch64-unknown-linux-gnu/release for linux-arm64), byte for byte, and an
  ELF64 shared object for the RID's machine (x86-64, AArch64);
- [Content_Types].xml gives every part a content type and _rels/.rels points at the
  nuspec.

Then it checks the checks: each of a list of broken copies of the package (a native
missing, the natives swapped, a licence text missing or changed, another licence
expression, no licence element, a part without a content type, the relationships part as
another type, an x86-64 library where the arm64 one was built) must fail them. Prints
each result and `N passed, N failed`; exits 1 on a failure.
"""
import re
import struct
import sys
import urllib.parse
import xml.etree.ElementTree as ET
import zipfile

NUSPEC_NS = {"n": "http://schemas.microsoft.com/packaging/2013/05/nuspec.xsd"}
TYPES_NS = {"t": "http://schemas.openxmlformats.org/package/2006/content-types"}
RELATIONSHIPS = "application/vnd.openxmlformats-package.relationships+xml"
RELS_NS = {"r": "http://schemas.openxmlformats.org/package/2006/relationships"}
PACKAGE_ID = "TensorcastSharp"
HOLDER = "The tensorcast developers"
LICENSES = ["LICENSE-MIT", "LICENSE-APACHE"]
# RID -> (the file it must be, the ELF e_machine of the RID: EM_X86_64, EM_AARCH64)
NATIVES = {
    "linux-x64": ("target/release/libtensorcast.so", 62),
    "linux-arm64": ("target/cross/aarch64-unknown-linux-gnu/release/libtensorcast.so", 183),
}


def native_entry(rid):
    return f"runtimes/{rid}/native/libtensorcast.so"


def expected_entries():
    return sorted(
        [f"{PACKAGE_ID}.nuspec", "[Content_Types].xml", "_rels/.rels",
         "lib/netstandard2.0/TensorcastSharp.dll"]
        + LICENSES + [native_entry(rid) for rid in NATIVES])


def elf_problem(data, machine):
    """Why DATA is not an ELF64 shared object for MACHINE, or None."""
    if len(data) < 64 or data[:4] != b"\x7fELF":
        return "not an ELF file"
    if data[4] != 2:
        return "not ELF64"
    endian = "<" if data[5] == 1 else ">"
    e_type, e_machine = struct.unpack(endian + "HH", data[16:20])
    if e_type != 3:
        return f"ELF type {e_type}, not a shared object (3)"
    if e_machine != machine:
        return f"ELF machine {e_machine}, not {machine}"
    return None


def problems(entries, cargo, sources):
    """What is wrong with the package ENTRIES (name -> bytes)."""
    found = []
    names = sorted(entries)
    if names != expected_entries():
        missing = sorted(set(expected_entries()) - set(names))
        extra = sorted(set(names) - set(expected_entries()))
        found.append(f"entries: missing {missing}, unexpected {extra}")

    nuspec = entries.get(f"{PACKAGE_ID}.nuspec")
    if nuspec is None:
        found.append("no nuspec")
    else:
        meta = ET.fromstring(nuspec).find("n:metadata", NUSPEC_NS)

        def text(tag):
            element = meta.find(f"n:{tag}", NUSPEC_NS)
            return None if element is None else (element.text or "").strip()

        if text("id") != PACKAGE_ID:
            found.append(f"nuspec id {text('id')!r}")
        if text("version") != cargo["version"]:
            found.append(f"nuspec version {text('version')!r}, not {cargo['version']!r}")
        license_element = meta.find("n:license", NUSPEC_NS)
        if license_element is None:
            found.append("nuspec: no <license>")
        elif license_element.get("type") != "expression" or text("license") != cargo["license"]:
            found.append(f"nuspec license {license_element.get('type')!r} {text('license')!r}, "
                         f"not the expression {cargo['license']!r}")
        url = "https://licenses.nuget.org/" + urllib.parse.quote(cargo["license"])
        if text("licenseUrl") != url:
            found.append(f"nuspec licenseUrl {text('licenseUrl')!r}, not {url!r}")
        for tag in ("authors", "copyright"):
            if HOLDER not in (text(tag) or ""):
                found.append(f"nuspec {tag} {text(tag)!r} does not name {HOLDER!r}")

    for name in LICENSES:
        if name in entries and entries[name] != sources[name]:
            found.append(f"{name} differs from the repository's")

    for rid, (path, machine) in NATIVES.items():
        data = entries.get(native_entry(rid))
        if data is None:
            continue
        if data != sources[path]:
            found.append(f"{native_entry(rid)} is not {path}")
        why = elf_problem(data, machine)
        if why:
            found.append(f"{native_entry(rid)}: {why}")

    types = entries.get("[Content_Types].xml")
    if types is None:
        found.append("no [Content_Types].xml")
    else:
        root = ET.fromstring(types)
        defaults = {d.get("Extension").lower(): d.get("ContentType")
                    for d in root.findall("t:Default", TYPES_NS)}
        overrides = {o.get("PartName"): o.get("ContentType")
                     for o in root.findall("t:Override", TYPES_NS)}
        for name in names:
            if name == "[Content_Types].xml":
                continue
            base = name.rsplit("/", 1)[-1]
            extension = base.rpartition(".")[2].lower() if "." in base else ""
            kind = overrides.get("/" + name, defaults.get(extension))
            if kind is None:
                found.append(f"[Content_Types].xml: no content type for {name}")
            elif name == "_rels/.rels" and kind != RELATIONSHIPS:
                found.append(f"[Content_Types].xml: _rels/.rels is {kind}, not {RELATIONSHIPS}")

    rels = entries.get("_rels/.rels")
    targets = [] if rels is None else [
        r.get("Target") for r in ET.fromstring(rels).findall("r:Relationship", RELS_NS)]
    if f"/{PACKAGE_ID}.nuspec" not in targets:
        found.append(f"_rels/.rels does not point at /{PACKAGE_ID}.nuspec: {targets}")
    return found


def broken_copies(entries, sources):
    """(what is broken, the entries, the source files) for each deliberately broken copy of
    the package (the sources as they are, but for the last: a cross build that wrote an
    x86-64 library, which only the ELF check can tell)."""
    x64, arm64 = native_entry("linux-x64"), native_entry("linux-arm64")

    def without(name):
        return {k: v for k, v in entries.items() if k != name}

    def replace(name, data):
        copy = dict(entries)
        copy[name] = data
        return copy

    nuspec = f"{PACKAGE_ID}.nuspec"
    text = entries[nuspec].decode("utf-8")
    yield "no linux-arm64 native", without(arm64), sources
    yield "no linux-x64 native", without(x64), sources
    swapped = dict(entries)
    swapped[x64], swapped[arm64] = entries[arm64], entries[x64]
    yield "the natives swapped", swapped, sources
    yield "no LICENSE-APACHE", without("LICENSE-APACHE"), sources
    yield "LICENSE-MIT changed", replace("LICENSE-MIT", entries["LICENSE-MIT"].replace(
        b"The tensorcast developers", b"Someone else")), sources
    yield "licence expression MIT", replace(nuspec, re.sub(
        r'(<license type="expression">)[^<]*', r"\1MIT", text).encode()), sources
    yield "no <license> element", replace(nuspec, re.sub(
        r"\s*<license [^>]*>[^<]*</license>", "", text).encode()), sources
    types = entries["[Content_Types].xml"].decode("utf-8")
    yield "no content type for LICENSE-MIT", replace("[Content_Types].xml", re.sub(
        r'\s*<Override PartName="/LICENSE-MIT"[^>]*/>', "", types).encode()), sources
    yield ".rels as application/octet", replace("[Content_Types].xml", re.sub(
        r'(<Default Extension="rels" ContentType=")[^"]*', r"\1application/octet", types).encode()), sources
    cross = dict(sources)
    cross[NATIVES["linux-arm64"][0]] = entries[x64]
    yield "an x86-64 library built as the arm64 one", replace(arm64, entries[x64]), cross


def cargo_package():
    """Cargo.toml's [package] version and license."""
    with open("Cargo.toml", encoding="utf-8") as f:
        text = f.read()
    package = re.search(r"^\[package\]\s*$(.*?)(?=^\[|\Z)", text, re.M | re.S).group(1)
    return {key: re.search(rf'^{key}\s*=\s*"([^"]+)"', package, re.M).group(1)
            for key in ("version", "license")}


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    cargo = cargo_package()
    sources = {}
    for name in LICENSES:
        with open(name, "rb") as f:
            sources[name] = f.read()
    for path, _ in NATIVES.values():
        with open(path, "rb") as f:
            sources[path] = f.read()
    with zipfile.ZipFile(argv[1]) as z:
        entries = {name: z.read(name) for name in z.namelist()}

    passed = failed = 0
    found = problems(entries, cargo, sources)
    for problem in found:
        print(f"FAIL: {problem}")
    if found:
        failed += 1
    else:
        passed += 1
        print(f"ok: {argv[1]}: {len(entries)} entries, {PACKAGE_ID} {cargo['version']}, "
              f"licence {cargo['license']} with {', '.join(LICENSES)}, natives "
              + ", ".join(f"{rid} ({len(entries[native_entry(rid)])} bytes)" for rid in NATIVES))

    for what, broken, broken_sources in broken_copies(entries, sources):
        found = problems(broken, cargo, broken_sources)
        if found:
            passed += 1
            print(f"ok: refused, {what}: {found[0]}")
        else:
            failed += 1
            print(f"FAIL: accepted a package with {what}")

    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
