// SPDX-License-Identifier: MIT OR Apache-2.0
//! The generated files are fresh, and include/tensorcast.h is a good C header.
//!
//! `bash scripts/generate.sh` writes the header, its Go copy, the bindings' dtype and status
//! tables and the copies of src/np/ml_dtypes_levels.txt (xtask/src/generate, compiled
//! into this test too); [`generated_files_are_fresh`] fails naming every file a commit
//! left stale. The header is compiled as C89 ... C23 and C++98 ... C++23 with warnings
//! as errors.

use std::path::{Path, PathBuf};
use tensorcast::c_tables;

#[path = "../xtask/src/generate/mod.rs"]
mod generate;

mod common;
use common::target_triple;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Every generated file and region (the header and its Go copy, the bindings' tables, the
/// copies of the measured ml_dtypes levels) is what `bash scripts/generate.sh` writes now.
#[test]
fn generated_files_are_fresh() {
    let root = Path::new(ROOT);
    let mut stale = Vec::new();
    for output in generate::outputs(root) {
        let committed = std::fs::read_to_string(root.join(output.path)).unwrap_or_default();
        if committed != output.text {
            stale.push(output.path);
        }
    }
    assert!(
        stale.is_empty(),
        "stale generated files: {}; regenerate them with `{}` and commit them",
        stale.join(", "),
        generate::COMMAND
    );
}

#[test]
fn generation_is_deterministic() {
    let texts = |outputs: Vec<generate::Output>| -> Vec<(&str, String)> {
        outputs.into_iter().map(|o| (o.path, o.text)).collect()
    };
    let root = Path::new(ROOT);
    assert_eq!(
        texts(generate::outputs(root)),
        texts(generate::outputs(root))
    );
}

#[test]
fn version_macros_match_cargo_toml() {
    let header = std::fs::read_to_string(Path::new(ROOT).join("include/tensorcast.h"))
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

/// Every enumeration constant is in the committed header with its table's value, once.
#[test]
fn header_defines_every_table_constant() {
    let header = std::fs::read_to_string(Path::new(ROOT).join("include/tensorcast.h"))
        .expect("read include/tensorcast.h");
    for table in c_tables() {
        for c in table.consts {
            let line = format!("#define {} {}", c.name, c.value);
            assert_eq!(
                header.lines().filter(|l| *l == line).count(),
                1,
                "{line} in the header"
            );
        }
    }
}

/// The header compiles without a warning in every C and C++ standard the compiler knows
/// from C89 and C++98 on (-Wall -Wextra -pedantic -Wcast-qual -Werror), and uses every
/// declaration (TCAST_CONST_DATA on a const array among them).
#[test]
fn header_compiles_as_c89_to_c23_and_cpp98_to_cpp23() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("header_std");
    std::fs::create_dir_all(&dir).expect("create the output directory");
    let source = "#include \"tensorcast.h\"\n\
                  int tcast_header_check(void);\n\
                  int tcast_header_check(void) {\n\
                  \x20 static const float values[2] = {1.0f, 2.0f};\n\
                  \x20 tcast_error err;\n\
                  \x20 tcast_tensor t;\n\
                  \x20 err.status = TCAST_OK;\n\
                  \x20 t.dtype = TCAST_DTYPE_FLOAT;\n\
                  \x20 t.data = TCAST_CONST_DATA(values);\n\
                  \x20 if (t.data != (const void *)values) return -1;\n\
                  \x20 return err.status + (int)t.dtype + TCAST_MAX_NDIM;\n\
                  }\n";
    let triple = target_triple();
    let mut checked = Vec::new();
    for (cpp, standards) in [
        (false, &["c89", "c99", "c11", "c17", "c2x"][..]),
        (
            true,
            &["c++98", "c++11", "c++14", "c++17", "c++20", "c++23"][..],
        ),
    ] {
        let file = dir.join(if cpp { "check.cpp" } else { "check.c" });
        std::fs::write(&file, source).expect("write the check source");
        let compiler = cc::Build::new()
            .cpp(cpp)
            .target(&triple)
            .host(&triple)
            .opt_level(0)
            .cargo_metadata(false)
            .cargo_warnings(false)
            .try_get_compiler();
        let Ok(compiler) = compiler else {
            eprintln!("no {} compiler: skipped", if cpp { "C++" } else { "C" });
            continue;
        };
        for std in standards {
            let mut cmd = compiler.to_command();
            cmd.arg(format!("-std={std}"))
                .args(["-pedantic", "-Wall", "-Wextra", "-Wcast-qual", "-Werror"])
                .arg("-fsyntax-only")
                .arg("-I")
                .arg(Path::new(ROOT).join("include"))
                .arg(&file);
            let output = cmd.output().expect("run the compiler");
            let stderr = String::from_utf8_lossy(&output.stderr);
            if !output.status.success() && stderr.contains(&format!("-std={std}")) {
                eprintln!("{std}: not known to {}: skipped", compiler.path().display());
                continue;
            }
            assert!(
                output.status.success(),
                "include/tensorcast.h does not compile cleanly as {std}:\n{cmd:?}\n{stderr}"
            );
            checked.push(*std);
        }
    }
    println!("header checked as {checked:?}");
}
