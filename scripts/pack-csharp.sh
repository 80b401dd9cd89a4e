#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Packs the C# bindings as a NuGet package with Mono, without the .NET SDK:
#
#   bash scripts/pack-csharp.sh        -> build/csharp/TensorcastSharp.VERSION.nupkg
#
# Builds the Rust library for this machine as the CMake build makes it (linked through
# cmake/tensorcast-linker.sh so that its functions carry TENSORCAST_0, paths remapped:
# scripts/lib.sh's cmake_release_library, a no-op after the test command's ctest step;
# each packed native is checked for the versions) and for aarch64
# (scripts/build-cross-lib.sh aarch64-unknown-linux-gnu: Debian's rustc 1.85 and the cross
# gcc, installed when missing, the result checked under qemu-aarch64), compiles with mcs
# the <Compile> files of bindings/csharp/src/TensorcastSharp.csproj, and zips, in NuGet's
# layout:
#
#   TensorcastSharp.nuspec                    id, version, authors, copyright, description,
#                                             licence expression: the .csproj's properties
#   lib/netstandard2.0/TensorcastSharp.dll
#   LICENSE-MIT, LICENSE-APACHE               the .csproj's packed items (scripts/csproj.py
#   runtimes/linux-x64/native/libtensorcast.so     packed), where `dotnet pack` puts them:
#   runtimes/linux-arm64/native/libtensorcast.so   the licence texts and both natives
#   [Content_Types].xml, _rels/.rels          the OPC parts NuGet's own packer writes
#
# Each runtimes/RID/native/ file must be an ELF shared object for RID's machine: the
# linux-x64 one is the host's build, so this packs on x86-64 Linux only, and says so
# elsewhere rather than label an arm64 library linux-x64. The unzipped tree is left in
# build/csharp/package/. The DLL is compiled against Mono's mscorlib (that is all mcs has
# here), not against the netstandard2.0 reference assemblies as `dotnet pack` on the
# .csproj would do; it is run under Mono by scripts/test-csharp.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

install_missing cmake make cc mcs python3 readelf

project=bindings/csharp/src/TensorcastSharp.csproj
out=build/csharp
pkg=$out/package

step "csproj: sources and version" python3 scripts/csproj.py check "$project" Cargo.toml
step "the release library as CMake builds it (scripts/lib.sh: cmake_release_library)" cmake_release_library
step "scripts/build-cross-lib.sh aarch64-unknown-linux-gnu" \
  bash scripts/build-cross-lib.sh aarch64-unknown-linux-gnu

prop() { python3 scripts/csproj.py property "$project" "$1"; }
id=$(prop PackageId)
version=$(prop Version)

# Text for XML element content.
xml_text() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g'; }

# elf_machine FILE: readelf's name of FILE's machine, when it is an ELF shared object.
elf_machine() {
  local header
  header=$(readelf -h "$1") || return 1
  grep -qE '^ +Type: +DYN ' <<<"$header" || { echo "error: $1 is not a shared object" >&2; return 1; }
  sed -n 's/^ *Machine: *//p' <<<"$header"
}

layout() {
  rm -rf "$pkg"
  mkdir -p "$pkg/lib/netstandard2.0" "$pkg/_rels"
  local sources
  mapfile -t sources < <(python3 scripts/csproj.py sources "$project")
  mcs -unsafe -warn:4 -warnaserror -nologo -optimize+ -target:library \
    -out:"$pkg/lib/netstandard2.0/TensorcastSharp.dll" "${sources[@]}"

  # The .csproj's packed items, where `dotnet pack` puts them.
  local source target rid machine want
  while IFS=$'\t' read -r source target; do
    if [ ! -f "$source" ]; then
      echo "error: $project packs $source, which is not there" >&2
      return 1
    fi
    case $target in
      runtimes/*/native/*)
        rid=${target#runtimes/}
        rid=${rid%%/*}
        case $rid in
          linux-x64) want="Advanced Micro Devices X86-64" ;;
          linux-arm64) want=AArch64 ;;
          *)
            echo "error: no machine known for the runtime identifier $rid ($target)" >&2
            return 1
            ;;
        esac
        machine=$(elf_machine "$source")
        if [ "$machine" != "$want" ]; then
          echo "error: $source is for $machine, not $want: it cannot be $target" \
            "(linux-x64 is this machine's build: pack on x86-64 Linux)" >&2
          return 1
        fi
        # Every native carries the symbol versions of the CMake build's library.
        versioned_exports "$source"
        echo "$target: $source ($machine)"
        ;;
      *) echo "$target: $source" ;;
    esac
    mkdir -p "$pkg/$(dirname "$target")"
    cp "$source" "$pkg/$target"
  done < <(python3 scripts/csproj.py packed "$project")

  local license
  license=$(prop PackageLicenseExpression)
  cat > "$pkg/$id.nuspec" <<NUSPEC
<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://schemas.microsoft.com/packaging/2013/05/nuspec.xsd">
  <metadata>
    <id>$id</id>
    <version>$version</version>
    <authors>$(prop Authors | xml_text)</authors>
    <copyright>$(prop Copyright | xml_text)</copyright>
    <description>$(prop Description | xml_text)</description>
    <license type="expression">$(xml_text <<<"$license")</license>
    <licenseUrl>https://licenses.nuget.org/$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$license" | xml_text)</licenseUrl>
  </metadata>
</package>
NUSPEC
  cat > "$pkg/_rels/.rels" <<RELS
<?xml version="1.0" encoding="utf-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
  <Relationship Type="http://schemas.microsoft.com/packaging/2010/07/manifest" Target="/$id.nuspec" Id="R0" />
</Relationships>
RELS
  # Every part gets a content type: a Default by extension, an Override by name for the
  # files without one (LICENSE-MIT), as NuGet's packer writes them.
  (cd "$pkg" && python3 - <<'PY'
import os
defaults, overrides = set(), []
for root, dirs, files in os.walk("."):
    for name in files:
        part = "/" + os.path.relpath(os.path.join(root, name), ".").replace(os.sep, "/")
        # Not splitext, for which ".rels" has no extension.
        extension = name.rpartition(".")[2] if "." in name else ""
        if extension:
            defaults.add(extension)
        else:
            overrides.append(part)
lines = ['<?xml version="1.0" encoding="utf-8"?>',
         '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">']
for extension in sorted(defaults):
    kind = {"rels": "application/vnd.openxmlformats-package.relationships+xml"}.get(
        extension, "application/octet")
    lines.append(f'  <Default Extension="{extension}" ContentType="{kind}" />')
for part in sorted(overrides):
    lines.append(f'  <Override PartName="{part}" ContentType="application/octet" />')
lines.append("</Types>")
with open("[Content_Types].xml", "w", encoding="utf-8") as out:
    out.write("\n".join(lines) + "\n")
PY
  )
}
step "package layout in $pkg (linux-x64, linux-arm64)" layout

zip_package() {
  local nupkg=$PWD/$out/$id.$version.nupkg
  rm -f "$nupkg"
  # Files only, no directory entries (NuGet's own packages have none), deflated.
  (cd "$pkg" && python3 - "$nupkg" <<'PY'
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    for root, dirs, files in os.walk("."):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            z.write(path, os.path.relpath(path, ".").replace(os.sep, "/"))
PY
  )
  echo "$nupkg"
}
step "zip: $out/$id.$version.nupkg" zip_package
