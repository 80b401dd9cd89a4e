// SPDX-License-Identifier: MIT OR Apache-2.0
//! The bindings' hand-written copies of the C enumerations agree with the tables they
//! copy (`tensorcast::tables`, from which the header's `#define`s are generated):
//!
//! - the C# binding's enums (bindings/csharp/src/Tensorcast.cs), both ways: every member
//!   is a constant of its table with the same value, and every constant has a member;
//! - the Python test helpers' module constants (tests/oracles/numpy*, tests/conformance), one
//!   way: a constant named like a C one (`FLOAT`, `ERR_PARSE`, `NUMPY_1`) has its value.
//!
//! The Go binding needs no check: it takes every value from the header through cgo
//! (`C.TCAST_...`).

use std::collections::BTreeMap;
use std::path::Path;
use tensorcast::c_tables;
use tensorcast::tables::CTable;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn table(rust_name: &str) -> &'static CTable {
    c_tables()
        .into_iter()
        .find(|t| t.rust_name == rust_name)
        .unwrap_or_else(|| panic!("no table {rust_name}"))
}

/// A name without case or underscores, the form the C and C# spellings share
/// (`TCAST_ERR_INVALID_DTYPE` after its prefix and `InvalidDType` are both INVALIDDTYPE).
fn folded(name: &str) -> String {
    name.chars()
        .filter(|&c| c != '_')
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

/// Source text without `//` comments (C# has no `//` inside the enum bodies' strings).
fn without_line_comments(text: &str) -> String {
    text.lines()
        .map(|l| l.find("//").map_or(l, |i| &l[..i]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The members of every `public enum` in a C# file: enum name -> [(member, value)].
fn csharp_enums(text: &str) -> BTreeMap<String, Vec<(String, i64)>> {
    let text = without_line_comments(text);
    let mut enums = BTreeMap::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("public enum ") {
        rest = &rest[at + "public enum ".len()..];
        let open = rest.find('{').expect("an enum body");
        let close = open + rest[open..].find('}').expect("the end of an enum body");
        let name = rest[..open].trim().to_string();
        let members = rest[open + 1..close]
            .split(',')
            .map(str::trim)
            .filter(|m| !m.is_empty())
            .map(|m| {
                let (member, value) = m
                    .split_once('=')
                    .unwrap_or_else(|| panic!("{name}.{m} has no explicit value"));
                let value = value.trim().parse().unwrap_or_else(|_| {
                    panic!("{name}.{}: {value:?} is not a number", member.trim())
                });
                (member.trim().to_string(), value)
            })
            .collect();
        assert!(
            enums.insert(name.clone(), members).is_none(),
            "enum {name} twice"
        );
        rest = &rest[close..];
    }
    enums
}

/// A C# enum and the table it copies: the C# name, the table's Rust name, prefixes of the
/// C names (the first that matches is dropped), and C# members spelled differently from
/// their constants (C#, C after the prefix).
struct CsharpEnum {
    csharp: &'static str,
    table: &'static str,
    prefixes: &'static [&'static str],
    aliases: &'static [(&'static str, &'static str)],
}

#[test]
fn csharp_enums_match_the_tables() {
    let enums = csharp_enums(&read("bindings/csharp/src/Tensorcast.cs"));
    let e = |csharp, table, prefixes, aliases| CsharpEnum {
        csharp,
        table,
        prefixes,
        aliases,
    };
    let pairs = [
        e("Status", "Status", &["TCAST_ERR_", "TCAST_"], &[]),
        e("DType", "DType", &["TCAST_DTYPE_"], &[]),
        e("RoundMode", "RoundMode", &["TCAST_ROUND_"], &[]),
        e("StringFormat", "StringFormat", &["TCAST_FORMAT_"], &[]),
        e("CastingLevel", "Casting", &["TCAST_CASTING_"], &[]),
        e(
            "BitcastRules",
            "BitcastRules",
            &["TCAST_BITCAST_"],
            &[("TensorFlow", "TF")],
        ),
        e("NumpyRules", "NumpyRules", &["TCAST_"], &[]),
    ];
    for &CsharpEnum {
        csharp: cs_name,
        table: rust_name,
        prefixes,
        aliases,
    } in &pairs
    {
        let members = enums
            .get(cs_name)
            .unwrap_or_else(|| panic!("Tensorcast.cs has no enum {cs_name}"));
        let constants: BTreeMap<String, (&str, i64)> = table(rust_name)
            .consts
            .iter()
            .map(|c| {
                let short = prefixes
                    .iter()
                    .find_map(|p| c.name.strip_prefix(p))
                    .unwrap_or_else(|| panic!("{} has none of the prefixes {prefixes:?}", c.name));
                (folded(short), (c.name, c.value))
            })
            .collect();
        let mut seen = Vec::new();
        for (member, value) in members {
            let spelled = aliases
                .iter()
                .find(|(cs, _)| cs == member)
                .map_or(member.as_str(), |(_, c)| c);
            let (c_name, c_value) = constants.get(&folded(spelled)).unwrap_or_else(|| {
                panic!("C# {cs_name}.{member} is not a constant of the {rust_name} table")
            });
            assert_eq!(*value, *c_value, "C# {cs_name}.{member} vs {c_name}");
            seen.push(*c_name);
        }
        for (c_name, _) in constants.values() {
            assert!(
                seen.contains(c_name),
                "{c_name} has no member in the C# enum {cs_name}"
            );
        }
    }
    // Tables the C# binding has no enum for (it takes DLPack codes as bytes).
    let covered: Vec<&str> = pairs.iter().map(|p| p.table).collect();
    for t in c_tables() {
        if !covered.contains(&t.rust_name) {
            assert_eq!(
                t.rust_name, "DlpackCode",
                "no C# enum is checked for {}",
                t.rust_name
            );
        }
    }
}

/// The Python helpers' module-level `NAME = integer` lines.
fn python_constants(text: &str) -> Vec<(String, i64)> {
    text.lines()
        .filter_map(|line| {
            let code = line.split('#').next().unwrap().trim_end();
            let (name, value) = code.split_once(" = ")?;
            let is_name = name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
                && !name.is_empty();
            Some((name.to_string(), value.parse().ok()?)).filter(|_| is_name)
        })
        .collect()
}

#[test]
fn python_helpers_match_the_tables() {
    let mut all = BTreeMap::new();
    for t in c_tables() {
        for c in t.consts {
            all.insert(c.name, c.value);
        }
    }
    let mut matched = 0;
    for path in [
        "tests/oracles/numpy/capi_base.py",
        "tests/oracles/numpy/tcast.py",
        "tests/oracles/numpy_can_cast/npcast.py",
        "tests/oracles/numpy_can_cast/npside.py",
        "tests/conformance/onnx_node.py",
    ] {
        for (name, value) in python_constants(&read(path)) {
            let c_name = ["", "TCAST_", "TCAST_ERR_", "TCAST_DTYPE_"]
                .iter()
                .map(|prefix| format!("{prefix}{name}"))
                .find(|c| all.contains_key(c.as_str()));
            if let Some(c_name) = c_name {
                assert_eq!(value, all[c_name.as_str()], "{path}: {name} vs {c_name}");
                matched += 1;
            }
        }
    }
    // The status codes, round modes, formats, dtypes, bitcast and numpy rules at least.
    assert!(
        matched >= 50,
        "only {matched} Python constants matched a table"
    );
}
