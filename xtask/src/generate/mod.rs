// SPDX-License-Identifier: MIT OR Apache-2.0
//! Every generated file and region of the repository, from the library's registry (the
//! dtype rows, the status table, `tensorcast::c_tables`) and the measured table
//! src/np/ml_dtypes_levels.txt. `bash scripts/generate.sh` writes them (the library's own,
//! [`library_outputs`], first); tests/header.rs regenerates them in memory and fails,
//! naming the file, when a committed one differs.
//!
//! A region is the part of a hand-written file between two marker lines, `@generated
//! begin NAME` and `@generated end NAME` in the file's comment syntax; the generator
//! rewrites the markers and what lies between them, and nothing else.
//!
//! This module is compiled into the xtask binary and, by a `#[path]` attribute, into
//! tests/header.rs: it reads the registry only through tensorcast's public API.

mod bindings;
mod dispatch;
mod header;
mod levels;
mod oracle_dtypes;
mod ort;
mod test_dtypes;

use std::path::Path;

/// The command that regenerates everything, as the stale-file messages name it.
pub const COMMAND: &str = "bash scripts/generate.sh";

/// One generated file: its path from the repository's root and its fresh text.
pub struct Output {
    pub path: &'static str,
    pub text: String,
}

/// The generated files compiled into the library: the dispatch table over the
/// low-precision formats, which every cast to or from one of them runs through. Made
/// from the registry's rows alone, without running a cast, so that a table the library
/// was built with can be regenerated when a row is new.
pub fn library_outputs() -> Vec<Output> {
    vec![Output {
        path: dispatch::RS_TABLE,
        text: dispatch::rs_table(),
    }]
}

/// Every generated file, with the text it must have. A file with regions is read from
/// `root` and returned with its regions regenerated.
pub fn outputs(root: &Path) -> Vec<Output> {
    let header = header::header(root);
    let levels = levels::Levels::read(root);
    let mut out = vec![
        Output {
            path: "include/tensorcast.h",
            text: header.clone(),
        },
        // The Go package's copy, which `go mod vendor` needs inside the package directory.
        Output {
            path: "bindings/go/tensorcast.h",
            text: header,
        },
        Output {
            path: "bindings/go/tables_generated.go",
            text: bindings::go_tables(),
        },
        Output {
            path: "bindings/csharp/src/FloatStorage.cs",
            text: bindings::csharp_storage_types(),
        },
        Output {
            path: levels::C_INCLUDE,
            text: levels.c_include(),
        },
        Output {
            path: test_dtypes::C_INCLUDE,
            text: test_dtypes::c_include(),
        },
        Output {
            path: test_dtypes::GO_TEST,
            text: test_dtypes::go_test(),
        },
        Output {
            path: oracle_dtypes::PY_MODULE,
            text: oracle_dtypes::py_module(),
        },
        // tensorcast-ort's declarations of onnxruntime's C API, from its vendored headers.
        Output {
            path: ort::RS_MODULE,
            text: ort::rs_module(root),
        },
    ];
    out.extend(library_outputs());
    let regions: [Regions; 3] = [
        (
            "include/tensorcast.hpp",
            Style::Line,
            &[
                ("enums", bindings::cpp_enums()),
                ("storage-types", bindings::cpp_storage_types()),
            ],
        ),
        (
            "bindings/csharp/src/Tensorcast.cs",
            Style::Line,
            &[
                ("enums", bindings::csharp_enums()),
                ("storage-types", bindings::csharp_named_dtypes()),
            ],
        ),
        (
            "docs/semantics-can-cast.md",
            Style::Html,
            &[("ml-levels", levels.markdown())],
        ),
    ];
    for (path, style, bodies) in regions {
        let mut text =
            std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("read {path}: {e}"));
        for (name, body) in bodies {
            text = replace_region(path, &text, style, name, body);
        }
        out.push(Output { path, text });
    }
    out
}

/// A hand-written file with generated regions: its path, its marker style, and each
/// region's name and body.
type Regions<'a> = (&'static str, Style, &'a [(&'a str, String)]);

/// How a file writes its marker lines.
#[derive(Clone, Copy)]
enum Style {
    /// `// @generated begin NAME: ...` (C++, C#).
    Line,
    /// `<!-- @generated begin NAME: ... -->` (Markdown).
    Html,
}

/// `text` with the region `name` (its marker lines included) holding `body`. The begin
/// marker's indentation is kept for both markers; `body` comes indented as it is to be.
fn replace_region(path: &str, text: &str, style: Style, name: &str, body: &str) -> String {
    let begin_key = format!("@generated begin {name}:");
    let end_key = format!("@generated end {name}");
    let missing = |key: &str| -> ! {
        panic!("{path} has no `{key}` marker line: the generated region is gone")
    };
    let at = text.find(&begin_key).unwrap_or_else(|| missing(&begin_key));
    let begin = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end_at = at
        + text[at..]
            .find(&end_key)
            .unwrap_or_else(|| missing(&end_key));
    let end = end_at
        + text[end_at..]
            .find('\n')
            .map_or(text.len() - end_at, |i| i + 1);
    let indent: String = text[begin..]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    let note = format!("written by `{COMMAND}`; do not edit");
    let (open, close) = match style {
        Style::Line => ("// ", ""),
        Style::Html => ("<!-- ", " -->"),
    };
    format!(
        "{}{indent}{open}{begin_key} {note}{close}\n{body}{indent}{open}{end_key}{close}\n{}",
        &text[..begin],
        &text[end..]
    )
}
