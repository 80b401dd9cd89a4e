#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Writes the pytensorcast wheel from python/pytensorcast and the two built libraries
(scripts/build-wheel.sh runs it): a zip with the package, libtensorcast.so.0 and
libtensorcast_ort.so inside it, and the .dist-info files (METADATA, WHEEL, RECORD).

The package calls the C ABI through ctypes; its one extension module, _fast.abi3.so (the
compiled fast path of cast), uses CPython's limited API of 3.9, so the wheel is tagged
cp39-abi3: one wheel for every CPython >= 3.9. Its platform tag is manylinux_<glibc>_<arch>, the
glibc being the newest GLIBC_x.y symbol version the two libraries reference (what
objdump -T shows), so that pip never installs it where the libraries cannot load.
Entries are sorted and dated SOURCE_DATE_EPOCH (default: 1980-01-01): the same inputs
give the same bytes.

    python3 scripts/build-wheel.py --lib L --ort-lib O --arch x86_64 --out build/wheels
"""

import argparse
import base64
import hashlib
import os
import re
import subprocess
import sys
import time
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cargo_version():
    text = open(os.path.join(ROOT, "Cargo.toml")).read()
    return re.search(r'^version\s*=\s*"([^"]+)"', text, re.M).group(1)


def glibc_needed(paths, objdump):
    newest = (2, 17)
    for path in paths:
        out = subprocess.run([objdump, "-T", path], check=True, capture_output=True, text=True).stdout
        for major, minor in re.findall(r"\bGLIBC_(\d+)\.(\d+)", out):
            newest = max(newest, (int(major), int(minor)))
    return newest


def record_hash(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lib", required=True, help="libtensorcast.so (versioned symbols, SONAME libtensorcast.so.0)")
    ap.add_argument("--ort-lib", required=True, help="libtensorcast_ort.so")
    ap.add_argument("--ext", required=True, help="_fast.abi3.so (python/ext/_fast.c)")
    ap.add_argument("--arch", required=True, help="x86_64 or aarch64")
    ap.add_argument("--objdump", default="objdump", help="objdump for the libraries' arch")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    version = cargo_version()
    major, minor = glibc_needed([args.lib, args.ort_lib, args.ext], args.objdump)
    tag = f"cp39-abi3-manylinux_{major}_{minor}_{args.arch}"
    name = f"pytensorcast-{version}"
    dist_info = f"{name}.dist-info"
    package_dir = os.path.join(ROOT, "python", "pytensorcast")

    files = []  # (archive name, bytes, executable)
    for entry in sorted(os.listdir(package_dir)):
        if entry.endswith((".py", ".typed")):
            with open(os.path.join(package_dir, entry), "rb") as f:
                files.append((f"pytensorcast/{entry}", f.read(), False))
    libs = ((args.lib, "libtensorcast.so.0"), (args.ort_lib, "libtensorcast_ort.so"), (args.ext, "_fast.abi3.so"))
    for src, dest in libs:
        with open(src, "rb") as f:
            files.append((f"pytensorcast/{dest}", f.read(), True))
    for lic in ("LICENSE-APACHE", "LICENSE-MIT"):
        with open(os.path.join(ROOT, lic), "rb") as f:
            files.append((f"{dist_info}/licenses/{lic}", f.read(), False))
    readme = open(os.path.join(ROOT, "docs/python.md"), encoding="utf-8").read()
    metadata = (
        "Metadata-Version: 2.4\n"
        f"Name: pytensorcast\nVersion: {version}\n"
        "Summary: Exact, fast dtype conversions (ONNX Cast, Expand, Bitcast, numpy casting rules)"
        " for numpy, ml_dtypes and onnxruntime\n"
        "License-Expression: MIT OR Apache-2.0\n"
        "License-File: LICENSE-APACHE\nLicense-File: LICENSE-MIT\n"
        "Requires-Python: >=3.9\n"
        "Requires-Dist: numpy>=1.21\nRequires-Dist: ml_dtypes>=0.5.0\n"
        "Classifier: Programming Language :: Python :: 3\n"
        "Classifier: Operating System :: POSIX :: Linux\n"
        "Description-Content-Type: text/markdown\n\n" + readme
    )
    files.append((f"{dist_info}/METADATA", metadata.encode(), False))
    wheel = f"Wheel-Version: 1.0\nGenerator: tensorcast scripts/build-wheel.py\nRoot-Is-Purelib: false\nTag: {tag}\n"
    files.append((f"{dist_info}/WHEEL", wheel.encode(), False))
    record = "".join(f"{n},{record_hash(d)},{len(d)}\n" for n, d, _ in files) + f"{dist_info}/RECORD,,\n"
    files.append((f"{dist_info}/RECORD", record.encode(), False))

    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, f"{name}-{tag}.whl")
    epoch = max(int(os.environ.get("SOURCE_DATE_EPOCH", "315532800")), 315532800)
    date = time.gmtime(epoch)[:6]
    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for n, d, executable in files:
            info = zipfile.ZipInfo(n, date)
            info.external_attr = (0o100755 if executable else 0o100644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, d)
    os.replace(tmp, path)
    print(path)


if __name__ == "__main__":
    sys.exit(main())
