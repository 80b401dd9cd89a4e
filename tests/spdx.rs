// SPDX-License-Identifier: MIT OR Apache-2.0
//! Every source file of the repository says its licence in its first lines, as an SPDX
//! identifier (`MIT OR Apache-2.0`, Cargo.toml's `license`): Rust, C, C++, Go, C#, shell,
//! Python and CMake files, and the generated headers through cbindgen.toml's banner.

use std::path::{Path, PathBuf};

const ID: &str = "SPDX-License-Identifier: MIT OR Apache-2.0";
const ROOTS: &[&str] = &[
    "src",
    "include",
    "tests",
    "benches",
    "examples",
    "bindings",
    "scripts",
    "cmake",
    "fuzz/fuzz_targets",
    "integrations",
    "python",
    "xtask",
    "build.rs",
    "CMakeLists.txt",
];
const EXTENSIONS: &[&str] = &[
    "rs", "c", "h", "cpp", "hpp", "go", "cs", "sh", "py", "cmake", "in",
];

fn walk(path: &Path, out: &mut Vec<PathBuf>) {
    // Build output (target/, and that of the crates with workspaces of their own, such
    // as fuzz/target) is not source.
    if path.file_name().is_some_and(|n| n == "target") {
        return;
    }
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
            .map(|entry| entry.expect("a directory entry").path())
            .collect();
        entries.sort();
        for entry in entries {
            walk(&entry, out);
        }
    } else {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if name == "CMakeLists.txt" || EXTENSIONS.contains(&ext) {
            out.push(path.to_path_buf());
        }
    }
}

#[test]
fn every_source_file_names_its_licence() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for entry in ROOTS {
        walk(&root.join(entry), &mut files);
    }
    assert_eq!(
        std::fs::read_to_string(root.join("Cargo.toml"))
            .unwrap()
            .lines()
            .find(|l| l.starts_with("license"))
            .unwrap(),
        "license = \"MIT OR Apache-2.0\""
    );
    let mut missing = Vec::new();
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue; // not text (test data)
        };
        if !text.lines().take(3).any(|line| line.contains(ID)) {
            missing.push(
                file.strip_prefix(root)
                    .unwrap_or(file)
                    .display()
                    .to_string(),
            );
        }
    }
    assert!(files.len() > 200, "only {} files found", files.len());
    assert!(
        missing.is_empty(),
        "no `{ID}` in the first 3 lines of:\n{}",
        missing.join("\n")
    );
}
