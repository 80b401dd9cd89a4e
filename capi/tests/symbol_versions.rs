// SPDX-License-Identifier: MIT OR Apache-2.0
//! The cdylib cargo built for this test run, by plain cargo (no CMake, no linker set):
//! every function it exports carries the symbol version TENSORCAST_<major>, as in the
//! CMake build (build.rs and symbol-versions.sh; docs/c-api.md, section 11), and they are
//! the functions include/tensorcast.h declares. readelf (binutils) reads the library.
#![cfg(target_os = "linux")]

use std::collections::BTreeSet;
use std::process::Command;

#[test]
fn plain_cargo_build_versions_every_export() {
    let exe = std::env::current_exe().expect("current_exe");
    // cargo test writes this package's cdylib beside the test binary (c_suite.rs).
    let so = exe.parent().expect("a directory").join("libtensorcast.so");
    assert!(so.is_file(), "{} is missing", so.display());
    let out = Command::new("readelf")
        .args(["--dyn-syms", "-W"])
        .arg(&so)
        .output()
        .expect("run readelf (binutils)");
    assert!(out.status.success(), "readelf failed on {}", so.display());
    let node = format!("TENSORCAST_{}", env!("CARGO_PKG_VERSION_MAJOR"));
    let versioned_suffix = format!("@@{node}");

    let mut exported = BTreeSet::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        // Num: Value Size Type Bind Vis Ndx Name
        if fields.len() < 8 || !fields[0].ends_with(':') || fields[6] == "UND" {
            continue;
        }
        if fields[4] != "GLOBAL" && fields[4] != "WEAK" {
            continue;
        }
        let (kind, ndx, name) = (fields[3], fields[6], fields[7]);
        // GNU ld writes the version's name as an absolute symbol; lld does not.
        if kind == "OBJECT" && ndx == "ABS" && name == node {
            continue;
        }
        let function = name
            .strip_suffix(&versioned_suffix)
            .unwrap_or_else(|| panic!("{} exports {name}, not a function @@{node}", so.display()));
        assert_eq!(kind, "FUNC", "{name} is a {kind}");
        assert!(
            function.starts_with("tcast_"),
            "{name} is not a tcast_ function"
        );
        exported.insert(function.to_string());
    }

    let header = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../include/tensorcast.h"
    ))
    .expect("read include/tensorcast.h");
    // Each `tcast_<name>(` of the header, at the start of a word.
    let mut declared = BTreeSet::new();
    for (at, _) in header.match_indices("tcast_") {
        let starts_word = header[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
        let rest = &header[at..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if starts_word && rest[end..].starts_with('(') {
            declared.insert(rest[..end].to_string());
        }
    }
    assert!(
        declared.len() >= 30,
        "the header declares {} functions",
        declared.len()
    );
    assert_eq!(
        exported, declared,
        "the exports @@{node} and the header's functions differ"
    );
}
