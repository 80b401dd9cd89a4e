// SPDX-License-Identifier: MIT OR Apache-2.0
//! The import graph of the modules in src/, which must have no cycle.
//!
//! `src_has_no_import_cycle` reads every .rs file under src/, builds the graph below and
//! fails listing every cycle as a chain of file paths, with the lines behind each step.
//! It reads the sources as text (std only): nothing is compiled or expanded, and the whole
//! check takes a fraction of a second. `cargo test --test module_graph` runs it alone.
//!
//! The rules:
//! - One node per file module: src/lib.rs is the crate root, src/a/b.rs and src/a/b/mod.rs
//!   are module `a::b`. An inline module (`mod x { .. }`) is part of its file's node.
//! - Edges come from `use` declarations, of any visibility and at any depth (in function
//!   bodies too), however they are written: `crate::`, `self::`, `super::` (any number of
//!   them), a child module's name, nested braces, `self` in braces, globs, `as`, several
//!   lines. And from the paths written out in code that start the same way (`crate::`,
//!   `$crate::`, `self::`, `super::` or a child module's name): `super::arch::special(..)`
//!   in a function body depends on that module as much as an import would, and the
//!   cast/kernels.rs -> cast/arch/ dependency is written only so. `mod` lines make no
//!   edge: a parent depends on its child only through what it imports or names.
//! - Each imported path is resolved against the module it is written in and mapped to the
//!   longest prefix of it that is a module of the crate: `use crate::cast::kernels::Repr`
//!   is an edge to src/cast/kernels.rs, and `use super::Item` in src/cast/kernels.rs, Item
//!   being an item of the parent, an edge to src/cast/mod.rs (child -> parent).
//! - Re-exports count: `pub use child::X` in a parent is an edge parent -> child, being a
//!   `use` line. A module that imports X through the parent then depends on the parent,
//!   which depends on the child; when the child also imports from the parent, that is a
//!   cycle (the parent's facade and the child's needs are tangled).
//! - Not edges: std, core, alloc and external crates (a first segment that is none of
//!   `crate`, `self`, `super` or a child module), names that are not modules (a `use
//!   Kind::*` of an enum in scope), and a module's imports from its own file.
//! - Test code is left out: every item under `#[cfg(test)]` (inline `mod tests { .. }`,
//!   test-only functions and imports) and the file modules declared `#[cfg(test)] mod x;`,
//!   with all below them.
//! - A cycle is a closed chain of edges through distinct files. All elementary cycles are
//!   listed, per strongly connected component, shortest first.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// More cycles than this are counted, not printed.
const MAX_CYCLES_SHOWN: usize = 200;
/// Source lines printed per edge of a cycle.
const MAX_LINES_SHOWN: usize = 4;

#[test]
fn src_has_no_import_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = read_sources(&root.join("src"), root);
    assert!(
        files.iter().any(|(path, _)| path == "src/lib.rs"),
        "src/lib.rs not found under {}",
        root.display()
    );
    let graph = Graph::build(&files);
    let cycles = graph.cycles();
    let report = graph.report(&cycles);
    assert!(cycles.is_empty(), "{report}");
    println!("{report}");
}

/// The floors of the crate, bottom first: a module imports only from floors below its
/// own (docs/architecture.md). Each top-level module of src/ is on exactly one floor; a new
/// module must be placed here before the test passes.
const FLOORS: &[(&str, &[&str])] = &[
    ("tables and the quiet-panic marker", &["tables", "quiet"]),
    ("errors", &["error"]),
    (
        "the dtype registry, memory, string views",
        &["dtype", "mem", "string_view"],
    ),
    ("number formats", &["formats"]),
    ("simd: detection, tokens, ISA kernels", &["simd"]),
    (
        "tensors, threads, DLPack codes",
        &["tensor", "parallel", "dlpack"],
    ),
    ("numpy's rules", &["np"]),
    ("operations", &["cast", "expand", "bitcast"]),
    ("operations built on the cast's kernels", &["quant"]),
    ("the C ABI", &["ffi", "registry"]),
    ("the crate root", &[""]),
];

/// The floor of a file: that of its top-level module ("" for src/lib.rs).
fn floor_of(path: &str) -> Option<usize> {
    let module = module_of_file(path);
    let top = module.first().map(String::as_str).unwrap_or("");
    FLOORS
        .iter()
        .position(|(_, members)| members.contains(&top))
}

#[test]
fn src_imports_run_down_the_floors() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = read_sources(&root.join("src"), root);
    let graph = Graph::build(&files);
    let mut problems = Vec::new();
    for file in &graph.files {
        if floor_of(file).is_none() {
            problems.push(format!("{file}: its module is on no floor of FLOORS"));
        }
    }
    for (&(from, to), sites) in &graph.edges {
        let (a, b) = (&graph.files[from], &graph.files[to]);
        let (Some(fa), Some(fb)) = (floor_of(a), floor_of(b)) else {
            continue;
        };
        let same_module = module_of_file(a).first() == module_of_file(b).first();
        if fb > fa || (fb == fa && !same_module) {
            let sites: Vec<&Site> = sites.iter().collect();
            problems.push(format!(
                "{a} ({}) -> {b} ({}): {}",
                FLOORS[fa].0,
                FLOORS[fb].0,
                describe(&sites)
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "imports that do not run down the floors:\n{}",
        problems.join("\n")
    );
}

/// Every .rs file under `dir`, as (path relative to `root` with `/`, contents), sorted.
fn read_sources(dir: &Path, root: &Path) -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let entries =
            std::fs::read_dir(dir).unwrap_or_else(|e| panic!("read {}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("read a directory entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut paths = Vec::new();
    walk(dir, &mut paths);
    let mut files: Vec<(String, String)> = paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
            let relative = path.strip_prefix(root).expect("under the root");
            let name: Vec<String> = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            (name.join("/"), text)
        })
        .collect();
    files.sort();
    files
}

/// The module path of a file: src/lib.rs -> [], src/a/b.rs and src/a/b/mod.rs -> [a, b].
fn module_of_file(path: &str) -> Vec<String> {
    let inner = path.strip_prefix("src/").unwrap_or(path);
    let inner = inner.strip_suffix(".rs").unwrap_or(inner);
    let mut segments: Vec<String> = inner.split('/').map(str::to_string).collect();
    if matches!(
        segments.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        segments.pop();
    }
    segments
}

// ---------------------------------------------------------------------------------------
// Tokens

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    /// `::`
    PathSep,
    Punct(char),
    /// A string, char or number literal, or a lifetime: never part of a path.
    Literal,
}

/// Rust source -> tokens with their 1-based line numbers. Comments (doc comments too) are
/// dropped; literals become `Tok::Literal`, so text inside strings or comments is never
/// read as code.
fn tokenize(src: &str) -> Vec<(Tok, usize)> {
    let chars: Vec<char> = src.chars().collect();
    let mut toks = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let n = chars.len();
    let at = |k: usize| chars.get(k).copied().unwrap_or('\0');
    let is_ident_start = |c: char| c == '_' || c.is_alphabetic();
    let is_ident_char = |c: char| c == '_' || c.is_alphanumeric();
    while i < n {
        let c = chars[i];
        let start_line = line;
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < n && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < n {
                if chars[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if let Some(end) = raw_string_end(&chars, i) {
            line += chars[i..end].iter().filter(|&&c| c == '\n').count();
            i = end;
            toks.push((Tok::Literal, start_line));
        } else if c == '"' || ((c == 'b' || c == 'c') && at(i + 1) == '"') {
            i += if c == '"' { 1 } else { 2 };
            while i < n && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                if at(i) == '\n' {
                    line += 1;
                }
                i += 1;
            }
            i += 1;
            toks.push((Tok::Literal, start_line));
        } else if c == '\'' || (c == 'b' && at(i + 1) == '\'') {
            // A char or byte literal ('x', '\n', '\u{..}', b'x'), or a lifetime / label.
            let q = if c == 'b' { i + 1 } else { i };
            if at(q + 1) == '\\' {
                // Past the backslash and the escaped character ('\'' too), to the quote.
                i = q + 3;
                while i < n && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(q + 2) == '\'' {
                i = q + 3;
            } else {
                i = q + 1;
                while i < n && is_ident_char(chars[i]) {
                    i += 1;
                }
            }
            toks.push((Tok::Literal, start_line));
        } else if c.is_ascii_digit() {
            while i < n
                && (is_ident_char(chars[i]) || (chars[i] == '.' && at(i + 1).is_ascii_digit()))
            {
                i += 1;
            }
            toks.push((Tok::Literal, start_line));
        } else if is_ident_start(c) {
            let begin = i;
            if c == 'r' && at(i + 1) == '#' && is_ident_start(at(i + 2)) {
                i += 2;
            }
            while i < n && is_ident_char(chars[i]) {
                i += 1;
            }
            toks.push((Tok::Ident(chars[begin..i].iter().collect()), start_line));
        } else if c == ':' && at(i + 1) == ':' {
            toks.push((Tok::PathSep, start_line));
            i += 2;
        } else {
            toks.push((Tok::Punct(c), start_line));
            i += 1;
        }
    }
    toks
}

/// Where a raw string literal starting at `i` (r"..", r#".."#, br"..", cr"..") ends.
fn raw_string_end(chars: &[char], i: usize) -> Option<usize> {
    let mut k = i;
    if matches!(chars.get(k), Some('b' | 'c')) {
        k += 1;
    }
    if chars.get(k) != Some(&'r') {
        return None;
    }
    k += 1;
    let hashes = chars[k..].iter().take_while(|&&c| c == '#').count();
    k += hashes;
    if chars.get(k) != Some(&'"') {
        return None;
    }
    k += 1;
    while k < chars.len() {
        if chars[k] == '"'
            && chars[k + 1..]
                .iter()
                .take(hashes)
                .filter(|&&c| c == '#')
                .count()
                == hashes
        {
            return Some(k + 1 + hashes);
        }
        k += 1;
    }
    Some(chars.len())
}

// ---------------------------------------------------------------------------------------
// One file: its `use` paths, inline modules and test modules

/// One path a module names: an imported path as written, after braces are expanded
/// (`use a::{b, c::d}` gives `a::b` and `a::c::d`), or a path written out in code.
#[derive(Debug, Clone, PartialEq)]
struct UsePath {
    /// The module the path is written in (the file's module, plus inline modules).
    scope: Vec<String>,
    segments: Vec<String>,
    line: usize,
    /// Written in code rather than in a `use` declaration.
    in_code: bool,
}

#[derive(Debug, Default)]
struct FileItems {
    uses: Vec<UsePath>,
    /// Inline modules outside test code, as full module paths.
    inline_modules: Vec<Vec<String>>,
    /// Modules declared under `#[cfg(test)]` (file or inline), as full module paths.
    test_modules: Vec<Vec<String>>,
    /// The whole file is `#![cfg(test)]`.
    test_only: bool,
}

fn parse_file(module: &[String], src: &str) -> FileItems {
    let toks = tokenize(src);
    let mut items = FileItems::default();
    // Open braces: Some(name) for an inline module's, None for any other.
    let mut open: Vec<Option<String>> = Vec::new();
    let scope = |open: &[Option<String>]| -> Vec<String> {
        let mut path = module.to_vec();
        path.extend(open.iter().flatten().cloned());
        path
    };
    let mut test_attribute = false;
    let mut i = 0;
    while i < toks.len() {
        let tok = &toks[i].0;
        if *tok == Tok::Punct('#') {
            let inner = toks.get(i + 1).map(|t| &t.0) == Some(&Tok::Punct('!'));
            let bracket = if inner { i + 2 } else { i + 1 };
            if toks.get(bracket).map(|t| &t.0) == Some(&Tok::Punct('[')) {
                let end = group_end(&toks, bracket);
                let is_test = is_cfg_test(&toks[bracket + 1..end - 1]);
                if inner {
                    items.test_only |= is_test && open.is_empty();
                } else {
                    test_attribute |= is_test;
                }
                i = end;
                continue;
            }
        }
        if test_attribute {
            test_attribute = false;
            if let Some(name) = declared_module(&toks, i) {
                let mut path = scope(&open);
                path.push(name);
                items.test_modules.push(path);
            }
            i = item_end(&toks, i);
            continue;
        }
        match tok {
            Tok::Ident(word) if word == "mod" => {
                if let (Some((Tok::Ident(name), _)), Some((Tok::Punct('{'), _))) =
                    (toks.get(i + 1), toks.get(i + 2))
                {
                    let mut path = scope(&open);
                    path.push(name.clone());
                    items.inline_modules.push(path);
                    open.push(Some(name.clone()));
                    i += 3;
                    continue;
                }
            }
            // Not `impl Trait + use<'a>` (precise capturing).
            Tok::Ident(word)
                if word == "use" && toks.get(i + 1).map(|t| &t.0) != Some(&Tok::Punct('<')) =>
            {
                let here = scope(&open);
                let mut paths = Vec::new();
                let mut k = parse_use_tree(&toks, i + 1, Vec::new(), &mut paths);
                while k < toks.len() && toks[k].0 != Tok::Punct(';') {
                    k += 1;
                }
                items
                    .uses
                    .extend(paths.into_iter().map(|(segments, line)| UsePath {
                        scope: here.clone(),
                        segments,
                        line,
                        in_code: false,
                    }));
                i = k + 1;
                continue;
            }
            // The start of a path in code (`a::b`, not the `b::c` of `a::b::c`); which of
            // them name modules of the crate, `resolve` decides.
            Tok::Ident(first)
                if toks.get(i + 1).map(|t| &t.0) == Some(&Tok::PathSep)
                    && (i == 0 || toks[i - 1].0 != Tok::PathSep) =>
            {
                let mut segments = vec![first.clone()];
                let mut k = i + 1;
                while let (Some((Tok::PathSep, _)), Some((Tok::Ident(name), _))) =
                    (toks.get(k), toks.get(k + 1))
                {
                    segments.push(name.clone());
                    k += 2;
                }
                items.uses.push(UsePath {
                    scope: scope(&open),
                    segments,
                    line: toks[i].1,
                    in_code: true,
                });
                i = k;
                continue;
            }
            Tok::Punct('{') => open.push(None),
            Tok::Punct('}') => {
                open.pop();
            }
            _ => {}
        }
        i += 1;
    }
    items
}

/// The index just past the bracket group opening at `open` (`(`, `[` or `{`).
fn group_end(toks: &[(Tok, usize)], open: usize) -> usize {
    let mut depth = 0usize;
    for (k, (tok, _)) in toks.iter().enumerate().skip(open) {
        match tok {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') => {
                depth -= 1;
                if depth == 0 {
                    return k + 1;
                }
            }
            _ => {}
        }
    }
    toks.len()
}

/// `cfg(test)` or `cfg(all(test, ..))`: the tokens inside `#[ ]`.
fn is_cfg_test(attr: &[(Tok, usize)]) -> bool {
    let words: Vec<&Tok> = attr.iter().map(|(t, _)| t).collect();
    let ident = |s: &str| Tok::Ident(s.to_string());
    let cfg_test = [
        &ident("cfg"),
        &Tok::Punct('('),
        &ident("test"),
        &Tok::Punct(')'),
    ];
    let cfg_all_test = [
        &ident("cfg"),
        &Tok::Punct('('),
        &ident("all"),
        &Tok::Punct('('),
        &ident("test"),
    ];
    words == cfg_test || words.starts_with(&cfg_all_test)
}

/// The name of the module an item starting at `i` declares (`[pub[(..)]] mod name`).
fn declared_module(toks: &[(Tok, usize)], mut i: usize) -> Option<String> {
    if toks.get(i)?.0 == Tok::Ident("pub".into()) {
        i += 1;
        if toks.get(i)?.0 == Tok::Punct('(') {
            i = group_end(toks, i);
        }
    }
    match (&toks.get(i)?.0, &toks.get(i + 1)?.0) {
        (Tok::Ident(m), Tok::Ident(name)) if m == "mod" => Some(name.clone()),
        _ => None,
    }
}

/// The index just past the item (or field, variant, statement) starting at `i`: past its
/// `;`, past its closing brace, or, for what is not an item, at a `,` or at the brace
/// that closes the enclosing block.
fn item_end(toks: &[(Tok, usize)], i: usize) -> usize {
    const ITEM_WORDS: &[&str] = &[
        "pub",
        "fn",
        "impl",
        "struct",
        "enum",
        "union",
        "mod",
        "use",
        "const",
        "static",
        "type",
        "trait",
        "macro_rules",
        "extern",
        "unsafe",
        "async",
        "let",
    ];
    let item = matches!(&toks[i].0, Tok::Ident(w) if ITEM_WORDS.contains(&w.as_str()));
    let mut depth = 0usize;
    let mut k = i;
    while k < toks.len() {
        match toks[k].0 {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') => {
                if depth == 0 {
                    return k;
                }
                depth -= 1;
                if depth == 0 && toks[k].0 == Tok::Punct('}') {
                    return k + 1;
                }
            }
            Tok::Punct(';') if depth == 0 => return k + 1,
            Tok::Punct(',') if depth == 0 && !item => return k + 1,
            _ => {}
        }
        k += 1;
    }
    k
}

/// Parses one use tree at `i` with the path `prefix` before it; pushes the paths it names
/// (with the line of their last segment) to `out` and returns the index after the tree.
fn parse_use_tree(
    toks: &[(Tok, usize)],
    mut i: usize,
    prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, usize)>,
) -> usize {
    let mut path = prefix;
    let mut line = toks.get(i).map_or(0, |t| t.1);
    if toks.get(i).map(|t| &t.0) == Some(&Tok::PathSep) {
        if path.is_empty() {
            // `use ::name`: an external crate.
            path.push("::".into());
        }
        i += 1;
    }
    while let Some((tok, tok_line)) = toks.get(i) {
        match tok {
            Tok::Ident(name) => {
                // `self` after a path (`a::{self, b}`) names that path itself.
                if name != "self" || path.is_empty() {
                    path.push(name.clone());
                }
                line = *tok_line;
                i += 1;
                match toks.get(i).map(|t| &t.0) {
                    Some(Tok::PathSep) => i += 1,
                    Some(Tok::Ident(word)) if word == "as" => {
                        out.push((path, line));
                        return i + 2;
                    }
                    _ => {
                        out.push((path, line));
                        return i;
                    }
                }
            }
            Tok::Punct('{') => {
                i += 1;
                while let Some((tok, _)) = toks.get(i) {
                    match tok {
                        Tok::Punct('}') => return i + 1,
                        Tok::Punct(',') => i += 1,
                        _ => i = parse_use_tree(toks, i, path.clone(), out),
                    }
                }
                return i;
            }
            Tok::Punct('*') => {
                // A glob imports from the module the path names.
                out.push((path, *tok_line));
                return i + 1;
            }
            _ => {
                if !path.is_empty() {
                    out.push((path, line));
                }
                return i;
            }
        }
    }
    i
}

// ---------------------------------------------------------------------------------------
// The graph

/// Where an edge comes from: a `use` path in a file.
#[derive(Debug, Clone)]
struct Site {
    file: String,
    line: usize,
    segments: Vec<String>,
    in_code: bool,
}

struct Graph {
    /// Node names: the files of the modules, sorted.
    files: Vec<String>,
    /// Edges between node indexes, with the `use` lines that make them.
    edges: BTreeMap<(usize, usize), Vec<Site>>,
}

impl Graph {
    fn build(sources: &[(String, String)]) -> Graph {
        let mut sources: Vec<&(String, String)> = sources.iter().collect();
        sources.sort();
        let parsed: Vec<(String, Vec<String>, FileItems)> = sources
            .into_iter()
            .map(|(path, src)| {
                let module = module_of_file(path);
                let items = parse_file(&module, src);
                (path.clone(), module, items)
            })
            .collect();
        let mut test_roots: Vec<Vec<String>> = Vec::new();
        for (_, module, items) in &parsed {
            test_roots.extend(items.test_modules.iter().cloned());
            if items.test_only {
                test_roots.push(module.clone());
            }
        }
        let in_test = |path: &[String]| test_roots.iter().any(|t| path.starts_with(t));
        let mut files = Vec::new();
        let mut file_of_module: HashMap<Vec<String>, usize> = HashMap::new();
        let mut modules: HashSet<Vec<String>> = HashSet::new();
        for (path, module, items) in &parsed {
            if in_test(module) {
                continue;
            }
            file_of_module.insert(module.clone(), files.len());
            files.push(path.clone());
            modules.insert(module.clone());
            modules.extend(items.inline_modules.iter().filter(|m| !in_test(m)).cloned());
        }
        let mut edges: BTreeMap<(usize, usize), Vec<Site>> = BTreeMap::new();
        for (path, module, items) in &parsed {
            let Some(&from) = file_of_module.get(module) else {
                continue;
            };
            for use_path in &items.uses {
                let Some(target) = resolve(&use_path.scope, &use_path.segments, &modules) else {
                    continue;
                };
                if in_test(&target) {
                    continue;
                }
                // The file holding the target module (an inline module is in its file).
                let to = (0..=target.len())
                    .rev()
                    .find_map(|n| file_of_module.get(&target[..n]))
                    .copied()
                    .expect("the crate root is a file module");
                if to != from {
                    edges.entry((from, to)).or_default().push(Site {
                        file: path.clone(),
                        line: use_path.line,
                        segments: use_path.segments.clone(),
                        in_code: use_path.in_code,
                    });
                }
            }
        }
        Graph { files, edges }
    }

    /// Every elementary cycle, as node indexes with the first node not repeated at the end:
    /// per strongly connected component, each cycle once, starting at its smallest node.
    fn cycles(&self) -> Vec<Vec<usize>> {
        let n = self.files.len();
        let mut next: Vec<Vec<usize>> = vec![Vec::new(); n];
        for &(from, to) in self.edges.keys() {
            next[from].push(to);
        }
        let component = strongly_connected_components(&next);
        let mut cycles = Vec::new();
        for start in 0..n {
            // Cycles through `start` and larger nodes of its component only.
            let allowed = |v: usize| v >= start && component[v] == component[start];
            let mut path = vec![start];
            let mut on_path = vec![false; n];
            on_path[start] = true;
            let mut stack = vec![0usize];
            while let Some(position) = stack.last_mut() {
                let v = *path.last().expect("path and stack have one entry per node");
                if let Some(&w) = next[v].get(*position) {
                    *position += 1;
                    if w == start {
                        cycles.push(path.clone());
                    } else if allowed(w) && !on_path[w] {
                        path.push(w);
                        on_path[w] = true;
                        stack.push(0);
                    }
                } else {
                    stack.pop();
                    on_path[v] = false;
                    path.pop();
                }
            }
        }
        // Components in the order of their first file, then shortest cycles first.
        let mut first_of_component = HashMap::new();
        for (v, &c) in component.iter().enumerate() {
            first_of_component.entry(c).or_insert(v);
        }
        cycles.sort_by_key(|cycle| {
            (
                first_of_component[&component[cycle[0]]],
                cycle.len(),
                cycle.clone(),
            )
        });
        cycles
    }

    fn report(&self, cycles: &[Vec<usize>]) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "module graph of src/: {} modules, {} edges from `use` lines and paths in code \
             (rules: tests/module_graph.rs)",
            self.files.len(),
            self.edges.len()
        );
        if cycles.is_empty() {
            let _ = writeln!(out, "no import cycle");
            return out;
        }
        let _ = writeln!(out, "{} import cycles:", cycles.len());
        for (number, cycle) in cycles.iter().enumerate().take(MAX_CYCLES_SHOWN) {
            let mut chain: Vec<&str> = cycle.iter().map(|&v| self.files[v].as_str()).collect();
            chain.push(&self.files[cycle[0]]);
            let _ = writeln!(out, "\ncycle {}: {}", number + 1, chain.join(" -> "));
            for (k, &from) in cycle.iter().enumerate() {
                let to = cycle[(k + 1) % cycle.len()];
                // One line per source line, with the paths it names.
                let mut lines: BTreeMap<(&str, usize), Vec<&Site>> = BTreeMap::new();
                for site in &self.edges[&(from, to)] {
                    lines
                        .entry((site.file.as_str(), site.line))
                        .or_default()
                        .push(site);
                }
                for ((file, line), sites) in lines.iter().take(MAX_LINES_SHOWN) {
                    let _ = writeln!(out, "    {file}:{line}: {}", describe(sites));
                }
                if lines.len() > MAX_LINES_SHOWN {
                    let _ = writeln!(
                        out,
                        "    ... and {} more lines",
                        lines.len() - MAX_LINES_SHOWN
                    );
                }
            }
        }
        if cycles.len() > MAX_CYCLES_SHOWN {
            let _ = writeln!(
                out,
                "\n... and {} more cycles",
                cycles.len() - MAX_CYCLES_SHOWN
            );
        }
        let members: BTreeSet<&str> = cycles
            .iter()
            .flatten()
            .map(|&v| self.files[v].as_str())
            .collect();
        let _ = writeln!(
            out,
            "\nfiles on a cycle ({}): {}",
            members.len(),
            members.into_iter().collect::<Vec<_>>().join(", ")
        );
        out
    }
}

/// The paths one source line names, imports as `use a::b::{c, d}` and paths in code as
/// `a::b::c`.
fn describe(sites: &[&Site]) -> String {
    let mut imports: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    let mut in_code: BTreeSet<String> = BTreeSet::new();
    for site in sites {
        if site.in_code {
            in_code.insert(site.segments.join("::"));
        } else {
            let (last, parent) = site.segments.split_last().expect("a path has a segment");
            imports.entry(parent.join("::")).or_default().push(last);
        }
    }
    let mut parts: Vec<String> = imports
        .into_iter()
        .map(|(parent, names)| match names.as_slice() {
            [name] if parent.is_empty() => format!("use {name}"),
            [name] => format!("use {parent}::{name}"),
            _ => format!("use {parent}::{{{}}}", names.join(", ")),
        })
        .collect();
    parts.extend(in_code);
    parts.join("; ")
}

/// Resolves a `use` path written in module `scope` to the module it imports from: the
/// longest prefix of the full path that is a module of the crate. None for std, core,
/// alloc, external crates and names that are not modules.
fn resolve(
    scope: &[String],
    segments: &[String],
    modules: &HashSet<Vec<String>>,
) -> Option<Vec<String>> {
    let first = segments.first()?;
    let (mut full, rest) = match first.as_str() {
        "crate" => (Vec::new(), &segments[1..]),
        "self" => (scope.to_vec(), &segments[1..]),
        "super" => {
            let mut base = scope.to_vec();
            let supers = segments.iter().take_while(|s| *s == "super").count();
            for _ in 0..supers {
                base.pop()?;
            }
            (base, &segments[supers..])
        }
        name => {
            let mut child = scope.to_vec();
            child.push(name.to_string());
            if !modules.contains(&child) {
                return None;
            }
            (scope.to_vec(), segments)
        }
    };
    full.extend(rest.iter().cloned());
    (0..=full.len())
        .rev()
        .map(|n| full[..n].to_vec())
        .find(|prefix| prefix.is_empty() || modules.contains(prefix))
}

/// Tarjan's algorithm, iterative: a component number per node.
fn strongly_connected_components(next: &[Vec<usize>]) -> Vec<usize> {
    const UNSEEN: usize = usize::MAX;
    let n = next.len();
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut component = vec![UNSEEN; n];
    let mut counter = 0;
    let mut components = 0;
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        // (node, position in its successor list)
        let mut calls = vec![(root, 0usize)];
        index[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut position)) = calls.last_mut() {
            if let Some(&w) = next[v].get(*position) {
                *position += 1;
                if index[w] == UNSEEN {
                    index[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    calls.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                calls.pop();
                if let Some(&(parent, _)) = calls.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    loop {
                        let w = stack.pop().expect("v is on the stack");
                        on_stack[w] = false;
                        component[w] = components;
                        if w == v {
                            break;
                        }
                    }
                    components += 1;
                }
            }
        }
    }
    component
}

// ---------------------------------------------------------------------------------------
// The checker's own tests, on small made-up crates

fn strings(path: &str) -> Vec<String> {
    if path.is_empty() {
        return Vec::new();
    }
    path.split("::").map(str::to_string).collect()
}

fn written_uses(src: &str) -> Vec<String> {
    parse_file(&[], src)
        .uses
        .iter()
        .map(|u| u.segments.join("::"))
        .collect()
}

fn graph_of(files: &[(&str, &str)]) -> Graph {
    let files: Vec<(String, String)> = files
        .iter()
        .map(|(p, s)| (p.to_string(), s.to_string()))
        .collect();
    Graph::build(&files)
}

fn chains(graph: &Graph) -> Vec<String> {
    graph
        .cycles()
        .iter()
        .map(|cycle| {
            let names: Vec<&str> = cycle.iter().map(|&v| graph.files[v].as_str()).collect();
            names.join(" -> ")
        })
        .collect()
}

#[test]
fn use_trees_expand_braces_self_globs_and_renames() {
    let src = "
        use crate::a::{b, c::{self, d as e}, f::*};
        pub(crate) use super::super::g
            ::h;
        pub use self::i::{
            j,
            k,
        };
        use std::fmt::Write as _;
        use ::ext::x;
        fn f() { use crate::inner::y; }
        fn g() -> impl Sized + use<> {}
    ";
    assert_eq!(
        written_uses(src),
        [
            "crate::a::b",
            "crate::a::c",
            "crate::a::c::d",
            "crate::a::f",
            "super::super::g::h",
            "self::i::j",
            "self::i::k",
            "std::fmt::Write",
            "::::ext::x",
            "crate::inner::y",
        ]
    );
}

#[test]
fn comments_strings_and_test_code_hide_their_uses() {
    let src = r####"
        // use crate::commented::a;
        /* use crate::block::b; /* nested */ use crate::still_comment::c; */
        /// ```
        /// use crate::doc::d;
        /// ```
        const S: &str = "use crate::string::e;";
        const R: &str = r#"use crate::raw::f; "quoted" "#;
        const C: char = '{';
        fn life<'a>(x: &'a str) -> &'a str { x }
        use crate::real::g;
        #[cfg(test)]
        use crate::test_import::h;
        #[cfg(test)]
        fn helper() { use crate::test_fn::i; }
        #[cfg(test)]
        mod tests {
            use super::*;
            use crate::test_mod::j;
        }
        #[cfg(all(test, feature = "x"))]
        mod more_tests { use crate::test_mod2::k; }
        #[cfg(not(test))]
        use crate::not_test::l;
        struct Fields { #[cfg(test)] a: u8, b: u8 }
        const Q: [char; 2] = ['\'', '\\'];
        use crate::after::m;
    "####;
    assert_eq!(
        written_uses(src),
        ["crate::real::g", "crate::not_test::l", "crate::after::m"]
    );
    let items = parse_file(&strings("x"), src);
    assert_eq!(
        items.test_modules,
        [strings("x::tests"), strings("x::more_tests")]
    );
}

#[test]
fn paths_resolve_to_the_longest_module_prefix() {
    let modules: HashSet<Vec<String>> = ["a", "a::b", "a::b::c", "d", "a::inline"]
        .iter()
        .map(|m| strings(m))
        .collect();
    let resolve_in = |scope: &str, path: &str| resolve(&strings(scope), &strings(path), &modules);
    assert_eq!(resolve_in("d", "crate::a::b::Item"), Some(strings("a::b")));
    assert_eq!(
        resolve_in("d", "crate::a::b::c::f"),
        Some(strings("a::b::c"))
    );
    assert_eq!(resolve_in("a::b::c", "super::Item"), Some(strings("a::b")));
    assert_eq!(
        resolve_in("a::b::c", "super::super::Item"),
        Some(strings("a"))
    );
    assert_eq!(
        resolve_in("a::b::c", "super::super::super::d::x"),
        Some(strings("d"))
    );
    assert_eq!(resolve_in("a::b", "self::c::x"), Some(strings("a::b::c")));
    assert_eq!(
        resolve_in("a", "b::c::x"),
        Some(strings("a::b::c")),
        "a child's name"
    );
    assert_eq!(
        resolve_in("a::inline", "super::b::x"),
        Some(strings("a::b"))
    );
    assert_eq!(
        resolve_in("d", "crate::Item"),
        Some(strings("")),
        "the crate root"
    );
    assert_eq!(resolve_in("a", "std::fmt::Write"), None);
    assert_eq!(resolve_in("a", "half::f16"), None, "an external crate");
    assert_eq!(resolve_in("a", "Kind::Float"), None, "an enum in scope");
    assert_eq!(resolve_in("a", "::::ext::x"), None);
    assert_eq!(resolve_in("", "super::x"), None, "no parent");
}

#[test]
fn cycles_are_listed_as_chains_of_files() {
    let graph = graph_of(&[
        (
            "src/lib.rs",
            "pub mod a; pub mod b; pub mod c; pub mod p; mod t;",
        ),
        ("src/a.rs", "use crate::b::X;"),
        ("src/b.rs", "use crate::{a::Y, c::Z};"),
        ("src/c.rs", "use super::a::W;"),
        // A parent's re-export and a child's import of the parent's item: a cycle.
        ("src/p/mod.rs", "mod q; pub use q::Q; pub struct P;"),
        ("src/p/q.rs", "use super::P;"),
    ]);
    assert_eq!(
        chains(&graph),
        [
            "src/a.rs -> src/b.rs",
            "src/a.rs -> src/b.rs -> src/c.rs",
            "src/p/mod.rs -> src/p/q.rs",
        ]
    );
    let report = graph.report(&graph.cycles());
    assert!(
        report.contains("cycle 1: src/a.rs -> src/b.rs -> src/a.rs\n    src/a.rs:1: use crate::b::X\n    src/b.rs:1: use crate::a::Y\n"),
        "{report}"
    );
    assert!(report.contains("3 import cycles"), "{report}");
}

#[test]
fn paths_in_code_are_edges_too() {
    let src = "
        fn f() -> u8 {
            let v = Vec::<u8>::new();
            let k = Kind::Float;
            super::arch::special(v, k);
            crate::error::Error::Internal;
            $crate::mem::alloc();
            self::inner::g();
            std::mem::size_of::<u8>()
        }
    ";
    let paths: Vec<String> = parse_file(&[], src)
        .uses
        .iter()
        .map(|u| {
            format!(
                "{}{}",
                u.segments.join("::"),
                if u.in_code { "" } else { " (use)" }
            )
        })
        .collect();
    assert_eq!(
        paths,
        [
            "Vec",
            "Kind::Float",
            "super::arch::special",
            "crate::error::Error::Internal",
            "crate::mem::alloc",
            "self::inner::g",
            "std::mem::size_of",
        ]
    );
    // The cast/kernels.rs <-> cast/arch/ shape: an import one way, a call the other.
    let graph = graph_of(&[
        ("src/lib.rs", "pub mod cast;"),
        ("src/cast/mod.rs", "mod arch; mod kernels;"),
        (
            "src/cast/kernels.rs",
            "pub struct Kernel; fn pick() { super::arch::special(); }",
        ),
        (
            "src/cast/arch/mod.rs",
            "use super::kernels::Kernel; pub fn special() {}",
        ),
    ]);
    assert_eq!(
        chains(&graph),
        ["src/cast/arch/mod.rs -> src/cast/kernels.rs"]
    );
    let report = graph.report(&graph.cycles());
    assert!(
        report.contains("    src/cast/arch/mod.rs:1: use super::kernels::Kernel\n    src/cast/kernels.rs:1: super::arch::special\n"),
        "{report}"
    );
}

#[test]
fn test_modules_mod_lines_and_acyclic_graphs_make_no_cycle() {
    let graph = graph_of(&[
        (
            "src/lib.rs",
            "pub mod a; pub mod b; #[cfg(test)] mod testutil; pub use a::A;",
        ),
        (
            "src/a.rs",
            "use crate::b::B; pub struct A; #[cfg(test)] mod tests { use crate::A; }",
        ),
        ("src/b.rs", "mod c; pub struct B;"),
        ("src/b/c.rs", "use super::super::a::A;"),
        ("src/testutil.rs", "use crate::a::A; use crate::b::B;"),
    ]);
    assert_eq!(chains(&graph), Vec::<String>::new());
    assert_eq!(
        graph.files,
        ["src/a.rs", "src/b.rs", "src/b/c.rs", "src/lib.rs"],
        "the cfg(test) file module is not a node"
    );
    let edges: Vec<(&str, &str)> = graph
        .edges
        .keys()
        .map(|&(f, t)| (graph.files[f].as_str(), graph.files[t].as_str()))
        .collect();
    assert_eq!(
        edges,
        [
            ("src/a.rs", "src/b.rs"),
            ("src/b/c.rs", "src/a.rs"),
            ("src/lib.rs", "src/a.rs"),
        ]
    );
    assert!(graph.report(&[]).contains("no import cycle"));
}
