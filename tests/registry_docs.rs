// SPDX-License-Identifier: MIT OR Apache-2.0
//! The dtype tables the documents show agree with the registry (src/dtype.rs), so a new
//! row fails here until it is documented: docs/c-api.md section 3 lists every dtype with
//! its code, docs/semantics-cast.md's table of Cast versions lists every dtype under the
//! version that added it, and docs/dlpack.md names the DLPack code of every dtype that
//! has one.

use std::fs;
use tensorcast::{DType, DlpackCode, ONNX_CAST_VERSIONS};

fn read(path: &str) -> String {
    fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Whether `word` occurs in `text` as a whole word.
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        let edge = |c: Option<char>| !c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        edge(before) && edge(after)
    })
}

#[test]
fn c_api_lists_every_dtype_with_its_code() {
    let doc = read("docs/c-api.md");
    let start = doc.find("## 3. Dtypes").expect("docs/c-api.md section 3");
    let end = start
        + doc[start..]
            .find("\n## 4.")
            .expect("docs/c-api.md section 4");
    let section = doc[start..end]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for d in DType::all() {
        let entry = format!("{} {}", d.name(), d.code());
        assert!(
            has_word(&section, &entry),
            "docs/c-api.md section 3 does not list `{entry}`"
        );
    }
}

#[test]
fn semantics_cast_lists_every_dtype_under_its_cast_version() {
    let doc = read("docs/semantics-cast.md");
    for version in ONNX_CAST_VERSIONS {
        let added: Vec<DType> = DType::all()
            .filter(|d| d.info().onnx_cast_since == version)
            .collect();
        let row = doc.lines().find(|l| {
            l.strip_prefix("| ")
                .and_then(|r| r.split(" |").next())
                .is_some_and(|v| v.split(", ").any(|v| v == version.to_string()))
        });
        let Some(row) = row else {
            assert!(
                added.is_empty(),
                "docs/semantics-cast.md has no row for Cast-{version}"
            );
            continue;
        };
        if row.contains("classic numeric types") {
            // Cast-1's row, which Cast-6 shares: it counts the dtypes instead of naming them.
            if version == 1 {
                let count = format!("the {} classic numeric types", added.len());
                assert!(
                    row.contains(&count),
                    "docs/semantics-cast.md: Cast-1 adds {count}"
                );
            } else {
                assert!(
                    added.is_empty(),
                    "docs/semantics-cast.md: Cast-{version} adds dtypes"
                );
            }
            continue;
        }
        let listed = row.split('|').nth(2).unwrap_or("");
        for d in &added {
            assert!(
                has_word(listed, d.name()),
                "docs/semantics-cast.md: the Cast-{version} row does not list {}",
                d.name()
            );
        }
        let names = listed.split(',').count();
        assert_eq!(
            names,
            added.len(),
            "docs/semantics-cast.md: the Cast-{version} row lists other dtypes: {listed}"
        );
    }
}

#[test]
fn dlpack_page_names_every_dlpack_code_a_dtype_has() {
    let doc = read("docs/dlpack.md");
    for d in DType::all() {
        let Ok(dl) = tensorcast::to_dlpack(d) else {
            continue;
        };
        let code = DlpackCode::from_code(dl.code).expect("a DLPack 1.1 code");
        // The page names kDLFloat8_e4m3fn as "float8 (e4m3fn, ...)": the label, or the
        // part after its underscore.
        let label = code.label();
        let short = label.rsplit('_').next().unwrap_or(label);
        assert!(
            has_word(&doc, label) || has_word(&doc, short),
            "docs/dlpack.md does not name {label}, the DLPack code of {}",
            d.name()
        );
    }
}
