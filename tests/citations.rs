// SPDX-License-Identifier: MIT OR Apache-2.0
//! The repository describes itself: every `.md` file that the sources, the header, the
//! build files, the scripts, the bindings and the tests cite must exist in the
//! repository, and every section a citation names must be a heading of that page.
//!
//! A citation is a path ending in `.md`, resolved from the repository root or from the
//! citing file's own directory (so `docs/c-api.md` works everywhere, and a page under
//! `docs/` may link its neighbours as `c-api.md`). A bare `c-api.md` in `src/` does not
//! resolve: a reader of `src/ffi/cast.rs` would not know where to look. The sections are
//! what follows the path, comment markers and line breaks aside:
//!
//! - `docs/c-api.md section 8`, `sections 4-7`, `sections 4 and 6`, `docs/c-api.md 1, 4, 5`:
//!   each number N must be a `## N.` heading of the page;
//! - `docs/semantics-expand-bitcast.md "Expand"`: a heading of the page must begin with
//!   the quoted words.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

/// What is scanned, relative to the repository root.
const ROOTS: &[&str] = &[
    "src",
    "include",
    "cbindgen.toml",
    "examples",
    "bindings",
    "scripts",
    "README.md",
    "CMakeLists.txt",
    "cmake",
    "benches",
    "tests",
    "build.rs",
    "Cargo.toml",
    ".ci",
    "docs",
];

/// Directories never scanned: build output and caches.
const SKIPPED_DIRS: &[&str] = &["target", "build", "__pycache__", "bin", "obj"];

/// This file: its examples are not citations.
const THIS_FILE: &str = "tests/citations.rs";

/// What a citation names inside its page.
#[derive(Debug, PartialEq, Eq)]
enum Section {
    /// `section N`: a `## N.` heading.
    Number(u32),
    /// `"Name"`: a heading that begins with these words.
    Named(String),
}

/// One citation found in a text.
#[derive(Debug, PartialEq, Eq)]
struct Citation {
    /// 1-based line of the path.
    line: usize,
    /// The path as written.
    path: String,
    sections: Vec<Section>,
}

fn is_path_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '/' | '-')
}

/// A line without its indentation and leading comment markers (`//!`, `///`, `//`, `/*`,
/// `*`, `#`), so that a citation broken over two comment lines reads as one.
fn strip_comment(line: &str) -> &str {
    let mut rest = line.trim_start();
    loop {
        let before = rest.len();
        for marker in ["//!", "///", "//", "/**", "/*", "*", "#"] {
            if let Some(after) = rest.strip_prefix(marker) {
                rest = after.trim_start();
                break;
            }
        }
        if rest.len() == before {
            return rest;
        }
    }
}

/// Reads a number at the start of `text`: its value and the bytes it took.
fn number(text: &str) -> Option<(u32, usize)> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 4 {
        return None;
    }
    // A number glued to a letter ("2D", "8x") is not a section.
    if text[digits..]
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return None;
    }
    Some((text[..digits].parse().ok()?, digits))
}

/// `text` without leading spaces and one leading `word` (ASCII case ignored) followed by
/// a space, or None when it does not start with that word.
fn after_word<'a>(text: &'a str, word: &str) -> Option<&'a str> {
    let t = text.trim_start();
    let head = t.get(..word.len())?;
    if !head.eq_ignore_ascii_case(word) {
        return None;
    }
    let rest = &t[word.len()..];
    rest.starts_with(char::is_whitespace).then_some(rest)
}

/// `text` without an optional leading "section" or "sections".
fn skip_section_word(text: &str) -> &str {
    after_word(text, "sections")
        .or_else(|| after_word(text, "section"))
        .unwrap_or(text)
}

/// The numbers of a list such as `4-7`, `1, 4, 5`, `4 and 6`, `4 and 5, section 8` at
/// the start of `text` (spaces first allowed).
fn number_list(text: &str) -> Vec<u32> {
    let mut found = Vec::new();
    let mut rest = text.trim_start();
    while let Some((first, used)) = number(rest) {
        rest = &rest[used..];
        let mut last = first;
        for dash in ["-", "\u{2013}", ".."] {
            if let Some((end, used)) = rest.strip_prefix(dash).and_then(number) {
                last = end;
                rest = &rest[dash.len() + used..];
                break;
            }
        }
        if last < first || last - first > 50 {
            last = first;
        }
        found.extend(first..=last);
        // A separator, then the next number (possibly after "section").
        let next = rest
            .strip_prefix(',')
            .map(|r| after_word(r, "and").unwrap_or(r))
            .or_else(|| after_word(rest, "and"));
        match next {
            Some(r) if number(skip_section_word(r).trim_start()).is_some() => {
                rest = skip_section_word(r).trim_start();
            }
            _ => break,
        }
    }
    found
}

/// The sections named right after a cited path (`after` is the text that follows it).
fn sections_after(after: &str) -> Vec<Section> {
    // Closing markup around the path: `c-api.md`, **c-api.md**.
    let rest = after.trim_start_matches(['`', '*']);
    if rest.starts_with(['"', '\'']) {
        return Vec::new(); // the path was quoted: "README.md"
    }
    // A quoted heading, possibly after a comma: "Expand".
    let quoted = rest.trim_start();
    let quoted = quoted.strip_prefix(',').unwrap_or(quoted).trim_start();
    if let Some(inner) = quoted.strip_prefix('"') {
        if let Some(end) = inner.find('"') {
            let name = &inner[..end];
            let plain = |c: char| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_');
            if !name.is_empty() && name.len() <= 60 && name.chars().all(plain) {
                return vec![Section::Named(name.to_string())];
            }
        }
        return Vec::new();
    }
    let listed = match after_word(rest, "sections").or_else(|| after_word(rest, "section")) {
        Some(r) => r,
        None => rest,
    };
    number_list(listed)
        .into_iter()
        .map(Section::Number)
        .collect()
}

/// The citations of `.md` files in `text`.
fn citations(text: &str) -> Vec<Citation> {
    // The text as one line of comment-free words, and where each source line starts in it.
    let mut joined = String::new();
    let mut starts = Vec::new();
    for line in text.lines() {
        starts.push(joined.len());
        joined.push_str(strip_comment(line));
        joined.push(' ');
    }
    let line_of = |at: usize| starts.partition_point(|&s| s <= at);
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(hit) = joined[from..].find(".md") {
        let dot = from + hit;
        let end = dot + 3;
        from = end;
        let mut next = joined[end..].chars();
        let continues = match next.next() {
            // A full stop ends a sentence unless a name goes on: "x.md." vs "x.md.in".
            Some('.') => next.next().is_some_and(|c| c.is_ascii_alphanumeric()),
            Some(c) => is_path_char(c),
            None => false,
        };
        if continues {
            continue; // ".mdx", "x.md.in", "a.md/b"
        }
        let start = joined[..dot]
            .char_indices()
            .rev()
            .take_while(|&(_, c)| is_path_char(c))
            .last()
            .map_or(dot, |(i, _)| i);
        let path = &joined[start..end];
        if !path[..path.len() - 3]
            .chars()
            .any(|c| c.is_ascii_alphanumeric())
        {
            continue; // a pattern such as `<page>.md`
        }
        if joined[..start].ends_with(':') {
            continue; // a URL: https://host/x.md
        }
        found.push(Citation {
            line: line_of(start),
            path: path.to_string(),
            sections: sections_after(&joined[end..]),
        });
    }
    found
}

/// The files under `path` (itself if a file), sorted, skipping build output.
fn files_under(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_file() {
        out.push(path.to_path_buf());
        return;
    }
    let Ok(entries) = fs::read_dir(path) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for entry in entries {
        let name = entry.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if entry.is_dir() && (SKIPPED_DIRS.contains(&name) || name.starts_with('.')) {
            continue;
        }
        files_under(&entry, out);
    }
}

/// The page a citation names: from the root, or from the citing file's directory.
fn resolve(root: &Path, citing_dir: &Path, cited: &str) -> Option<PathBuf> {
    if cited.starts_with('/') {
        return None; // an absolute path is outside the repository
    }
    let root_real = root.canonicalize().ok()?;
    [root.join(cited), citing_dir.join(cited)]
        .into_iter()
        .filter_map(|p| p.canonicalize().ok())
        .find(|p| p.is_file() && p.starts_with(&root_real))
}

/// Whether `page` has a heading for `section`.
fn has_section(page: &str, section: &Section) -> bool {
    page.lines().any(|line| {
        let heading = line.trim_start_matches('#');
        if heading.len() == line.len() || !heading.starts_with(' ') {
            return false;
        }
        let title = heading.trim_start();
        match section {
            Section::Number(n) => line.starts_with("## ") && title.starts_with(&format!("{n}.")),
            Section::Named(name) => {
                title.starts_with(name.as_str())
                    && !title[name.len()..]
                        .chars()
                        .next()
                        .is_some_and(|c| c.is_alphanumeric())
            }
        }
    })
}

fn describe(section: &Section) -> String {
    match section {
        Section::Number(n) => format!("section {n} (no `## {n}.` heading)"),
        Section::Named(name) => format!("section \"{name}\" (no heading beginning so)"),
    }
}

#[test]
fn every_cited_page_and_section_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for entry in ROOTS {
        files_under(&root.join(entry), &mut files);
    }
    let mut problems = String::new();
    let mut checked = 0;
    for file in &files {
        let relative = file.strip_prefix(root).unwrap_or(file);
        if relative == Path::new(THIS_FILE) {
            continue;
        }
        let Ok(bytes) = fs::read(file) else {
            continue;
        };
        if bytes.contains(&0) {
            continue; // binary
        }
        let text = String::from_utf8_lossy(&bytes);
        let dir = file.parent().unwrap_or(root);
        for citation in citations(&text) {
            checked += 1;
            let at = format!("{}:{}", relative.display(), citation.line);
            let Some(page_path) = resolve(root, dir, &citation.path) else {
                let name = Path::new(&citation.path).file_name().unwrap_or_default();
                let hint = if root.join("docs").join(name).is_file() {
                    format!(" (write docs/{})", name.to_string_lossy())
                } else {
                    String::new()
                };
                let _ = writeln!(
                    problems,
                    "{at}: {} is not a file of the repository{hint}",
                    citation.path
                );
                continue;
            };
            let page = fs::read_to_string(&page_path).unwrap_or_default();
            for section in &citation.sections {
                if !has_section(&page, section) {
                    let _ = writeln!(
                        problems,
                        "{at}: {} has no {}",
                        citation.path,
                        describe(section)
                    );
                }
            }
        }
    }
    assert!(checked > 0, "no citation found: is the scan list right?");
    assert!(
        problems.is_empty(),
        "citations that a reader cannot follow:\n{problems}"
    );
}

#[test]
fn the_citation_forms_in_use_are_read() {
    let text = "\
//! Packing (docs/c-api.md section 4): two per byte.
// The checks in the order of docs/c-api.md section 8: NULL pointers.
/* `docs/semantics-cast.md` sections 4-7, docs/c-api.md
 * sections 4 and 6 */
// SAFETY: valid per the contract (docs/c-api.md 1, 4, 5).
//! the rules in `docs/semantics-cast.md` sections
//! 2-3 that the compiler can vectorise
# docs/semantics-cast.md 6, in a venv
(docs/semantics-expand-bitcast.md, \"Bitcast\"; docs/c-api.md section 6).
 * Expand (docs/semantics-expand-bitcast.md \"Expand\", docs/c-api.md sections 4 and 5, section 8's
(docs/c-api.md allows only additions) bindings/go/README.md
[c-api.md section 5](c-api.md) `docs/<page>.md section N` https://example.org/x.md
readme = \"README.md\" publish = \"no\"
See docs/performance.md. Not CMakeLists.md.in, nor x.mdx.
";
    let found: Vec<(usize, String, Vec<Section>)> = citations(text)
        .into_iter()
        .map(|c| (c.line, c.path, c.sections))
        .collect();
    use Section::{Named, Number};
    let expected: Vec<(usize, String, Vec<Section>)> = vec![
        (1, "docs/c-api.md".to_string(), vec![Number(4)]),
        (2, "docs/c-api.md".to_string(), vec![Number(8)]),
        (
            3,
            "docs/semantics-cast.md".to_string(),
            vec![Number(4), Number(5), Number(6), Number(7)],
        ),
        (3, "docs/c-api.md".to_string(), vec![Number(4), Number(6)]),
        (
            5,
            "docs/c-api.md".to_string(),
            vec![Number(1), Number(4), Number(5)],
        ),
        (
            6,
            "docs/semantics-cast.md".to_string(),
            vec![Number(2), Number(3)],
        ),
        (8, "docs/semantics-cast.md".to_string(), vec![Number(6)]),
        (
            9,
            "docs/semantics-expand-bitcast.md".to_string(),
            vec![Named("Bitcast".into())],
        ),
        (9, "docs/c-api.md".to_string(), vec![Number(6)]),
        (
            10,
            "docs/semantics-expand-bitcast.md".to_string(),
            vec![Named("Expand".into())],
        ),
        (
            10,
            "docs/c-api.md".to_string(),
            vec![Number(4), Number(5), Number(8)],
        ),
        (11, "docs/c-api.md".to_string(), vec![]),
        (11, "bindings/go/README.md".to_string(), vec![]),
        (12, "c-api.md".to_string(), vec![Number(5)]),
        (12, "c-api.md".to_string(), vec![]),
        (13, "README.md".to_string(), vec![]),
        (14, "docs/performance.md".to_string(), vec![]),
    ];
    assert_eq!(found, expected);
}

#[test]
fn sections_are_headings_of_the_page() {
    let page =
        "# Title\n\n## 1. Conventions\n\n### 1.5 not a section\n\n## Expand (ONNX)\n\n## 10. Ten\n";
    assert!(has_section(page, &Section::Number(1)));
    assert!(has_section(page, &Section::Number(10)));
    assert!(!has_section(page, &Section::Number(5)));
    assert!(has_section(page, &Section::Named("Expand".into())));
    assert!(!has_section(page, &Section::Named("Exp".into())));
    assert!(!has_section(page, &Section::Named("Bitcast".into())));
}
