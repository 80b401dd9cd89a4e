#!/usr/bin/env bash
# Packs the C# bindings as a NuGet package with Mono, without the .NET SDK:
#
#   bash scripts/pack-csharp.sh        -> build/csharp/TensorcastSharp.VERSION.nupkg
#
# Builds the Rust library (cargo build --release --lib), compiles with mcs the <Compile>
# files of bindings/csharp/src/TensorcastSharp.csproj, and zips, in NuGet's layout:
#
#   TensorcastSharp.nuspec                    id, version, authors, description, license:
#                                             the .csproj's properties
#   lib/netstandard2.0/TensorcastSharp.dll
#   runtimes/RID/native/libtensorcast.so      RID linux-x64 or linux-arm64, from uname -m
#   [Content_Types].xml, _rels/.rels          the OPC parts NuGet's own packer writes
#
# The unzipped tree is left in build/csharp/package/. The DLL is compiled against Mono's
# mscorlib (that is all mcs has here), not against the netstandard2.0 reference assemblies
# as `dotnet pack` on the .csproj would do; it is run under Mono by scripts/test-csharp.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

install_missing mcs python3

project=bindings/csharp/src/TensorcastSharp.csproj
out=build/csharp
pkg=$out/package

step "csproj: sources and version" python3 scripts/csproj.py check "$project" Cargo.toml
step "cargo build --release --lib" cargo build --release --lib

rid=$(nuget_rid)
prop() { python3 scripts/csproj.py property "$project" "$1"; }
id=$(prop PackageId)
version=$(prop Version)

# Text for XML element content.
xml_text() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g'; }

layout() {
  rm -rf "$pkg"
  mkdir -p "$pkg/lib/netstandard2.0" "$pkg/runtimes/$rid/native" "$pkg/_rels"
  local sources
  mapfile -t sources < <(python3 scripts/csproj.py sources "$project")
  mcs -unsafe -warn:4 -warnaserror -nologo -optimize+ -target:library \
    -out:"$pkg/lib/netstandard2.0/TensorcastSharp.dll" "${sources[@]}"
  cp target/release/libtensorcast.so "$pkg/runtimes/$rid/native/libtensorcast.so"

  cat > "$pkg/$id.nuspec" <<NUSPEC
<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://schemas.microsoft.com/packaging/2013/05/nuspec.xsd">
  <metadata>
    <id>$id</id>
    <version>$version</version>
    <authors>$(prop Authors | xml_text)</authors>
    <description>$(prop Description | xml_text)</description>
    <license type="expression">$(prop PackageLicenseExpression | xml_text)</license>
  </metadata>
</package>
NUSPEC
  cat > "$pkg/[Content_Types].xml" <<'TYPES'
<?xml version="1.0" encoding="utf-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
  <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml" />
  <Default Extension="nuspec" ContentType="application/octet" />
  <Default Extension="dll" ContentType="application/octet" />
  <Default Extension="so" ContentType="application/octet" />
</Types>
TYPES
  cat > "$pkg/_rels/.rels" <<RELS
<?xml version="1.0" encoding="utf-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
  <Relationship Type="http://schemas.microsoft.com/packaging/2010/07/manifest" Target="/$id.nuspec" Id="R0" />
</Relationships>
RELS
}
step "package layout in $pkg ($rid)" layout

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
