// SPDX-License-Identifier: MIT OR Apache-2.0
//! Links libtensorcast_ort.so as a library of its own on Linux: its own SONAME,
//! libtensorcast_ort.so (with the core's libtensorcast.so.0, a program's
//! `dlopen("libtensorcast.so.0")` would find this plugin once onnxruntime had loaded it),
//! and only onnxruntime's three entry points exported. The core's C functions, which
//! rustc exports from any cdylib that links them, are made local by a second version
//! script that names each of them (a wildcard does not override the names rustc lists);
//! their names are read from the core's generated header, include/tensorcast.h.

use std::io::Write;

fn main() {
    let header = concat!(env!("CARGO_MANIFEST_DIR"), "/../../include/tensorcast.h");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={header}");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("linux") {
        return;
    }
    let text = std::fs::read_to_string(header).expect("include/tensorcast.h is readable");
    let names = core_functions(&text);
    assert!(
        names.len() >= 30,
        "include/tensorcast.h declares only {} tcast_ functions",
        names.len()
    );
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let script = out.join("core-local.map");
    let mut file = std::fs::File::create(&script).expect("OUT_DIR is writable");
    writeln!(file, "{{ local:").expect("OUT_DIR is writable");
    for name in &names {
        writeln!(file, "  {name};").expect("OUT_DIR is writable");
    }
    writeln!(file, "}};").expect("OUT_DIR is writable");
    println!(
        "cargo:rustc-cdylib-link-arg=-Wl,--version-script={}",
        script.display()
    );
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libtensorcast_ort.so");
}

/// The functions the header declares: each `tcast_<name>(` in it, once.
fn core_functions(header: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for (at, _) in header.match_indices("tcast_") {
        let rest = &header[at..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let starts_word = at == 0 || {
            let before = header.as_bytes()[at - 1];
            !(before.is_ascii_alphanumeric() || before == b'_')
        };
        if starts_word && rest[end..].starts_with('(') && !names.iter().any(|n| n == &rest[..end]) {
            names.push(rest[..end].to_string());
        }
    }
    names
}
