//! The committed header must be what cbindgen generates from the current sources, and
//! its version macros must match Cargo.toml.

use std::path::Path;

fn generate() -> String {
    let root = env!("CARGO_MANIFEST_DIR");
    let config = cbindgen::Config::from_file(Path::new(root).join("cbindgen.toml"))
        .expect("cbindgen.toml parses");
    let mut out = Vec::new();
    // Only the FFI shell is the C API: parse it (and its submodules) alone.
    cbindgen::Builder::new()
        .with_src(Path::new(root).join("src/ffi/mod.rs"))
        .with_config(config)
        .generate()
        .expect("cbindgen generates the header")
        .write(&mut out);
    String::from_utf8(out).expect("the header is UTF-8")
}

#[test]
fn committed_header_is_fresh() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("include/tensorcast.h");
    let fresh = generate();
    if std::env::var_os("TCAST_BLESS_HEADER").is_some() {
        std::fs::write(&path, &fresh).expect("write include/tensorcast.h");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "include/tensorcast.h is stale: regenerate it with `TCAST_BLESS_HEADER=1 cargo test --test header` and commit it"
    );
}

#[test]
fn version_macros_match_cargo_toml() {
    let header =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("include/tensorcast.h"))
            .expect("read include/tensorcast.h");
    for (name, expected) in [
        ("TCAST_VERSION_MAJOR", env!("CARGO_PKG_VERSION_MAJOR")),
        ("TCAST_VERSION_MINOR", env!("CARGO_PKG_VERSION_MINOR")),
        ("TCAST_VERSION_PATCH", env!("CARGO_PKG_VERSION_PATCH")),
    ] {
        let line = header
            .lines()
            .find(|l| l.starts_with(&format!("#define {name} ")))
            .unwrap_or_else(|| panic!("{name} is missing from the header"));
        let value = line.split_whitespace().nth(2).unwrap();
        assert_eq!(value, expected, "{name}");
    }
}
