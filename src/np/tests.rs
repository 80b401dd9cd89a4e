// SPDX-License-Identifier: MIT OR Apache-2.0
//! The examples of docs/semantics-can-cast.md, as fixed expectations. (The generated
//! comparisons with real numpy live in tests/oracles/numpy_can_cast.)
//!
//! The specs and answers are numpy's on a little-endian host, where they were measured.
//! On a big-endian host each spec is read with `<` and `>` traded and each answer traded
//! back ([`np_host_order`]), so the same expectations check the host's native order.

use super::dtype::py_repr;
use super::value::py_int;
use super::*;
use crate::error::Error;
use crate::np::casting::Casting::{self, Equiv, Never, No, Safe, SameKind, Unsafe};
use crate::testutil::np_host_order;

/// [`super::parse`] of a spec written for a little-endian host.
fn parse(spec: &str) -> Result<Parsed, Error> {
    super::parse(&np_host_order(spec))
}

/// `str()` of a dtype, as a little-endian host shows it.
fn shown(d: &NpDtype) -> String {
    np_host_order(&d.to_str())
}

/// An error's message, as a little-endian host words it.
fn message(e: Error) -> String {
    np_host_order(&e.to_string())
}

fn lv(a: &str, b: &str, rules: NumpyRules) -> Casting {
    let (pa, pb) = (parse(a).unwrap(), parse(b).unwrap());
    level(pa.under(rules).unwrap(), pb.under(rules).unwrap(), rules)
}

fn both(a: &str, b: &str) -> Casting {
    let one = lv(a, b, NumpyRules::Numpy1);
    assert_eq!(
        one,
        lv(a, b, NumpyRules::Numpy2),
        "{a} -> {b} differs between the rules"
    );
    one
}

fn text(spec: &str) -> String {
    shown(&parse(spec).unwrap().dtype)
}

fn parse_message(spec: &str) -> String {
    match parse(spec) {
        Ok(p) => panic!("{spec:?} parsed as {}", shown(&p.dtype)),
        Err(e) => message(e),
    }
}

#[test]
fn byte_orders_and_codes() {
    assert_eq!(both("<i4", "=i4"), No);
    assert_eq!(both("=i4", ">i4"), Equiv);
    assert_eq!(both(">S5", "<S5"), No);
    assert_eq!(both(">O", "<O"), No);
    assert_eq!(both("<i2", ">i4"), Safe);
    assert_eq!(both(">i4", "<i2"), SameKind);
    assert_eq!(both(">U5", "<U6"), Safe);
    assert_eq!(both("l", "q"), No);
    assert_eq!(both("i8", "u8"), Unsafe);
    assert_eq!(both("u8", "i8"), SameKind);
    assert_eq!(both("i8", "f8"), Safe);
    assert_eq!(both("i4", "c8"), SameKind);
    assert_eq!(both("b", "?"), Unsafe);
    assert_eq!(both("g", "G"), Safe);
    assert_eq!(both("d", "F"), SameKind);
}

#[test]
fn strings_void_object() {
    for (code, chars) in [
        ("?", 5),
        ("i1", 4),
        ("u1", 3),
        ("i2", 6),
        ("u2", 5),
        ("i4", 11),
        ("u4", 10),
        ("i8", 21),
        ("u8", 20),
        ("e", 32),
        ("f", 32),
        ("d", 32),
        ("g", 48),
        ("F", 64),
        ("D", 64),
        ("G", 96),
    ] {
        for kind in ["S", "U"] {
            assert_eq!(both(code, &format!("{kind}{chars}")), Safe, "{code} {kind}");
            let shorter = format!("{kind}{}", chars - 1);
            assert_eq!(both(code, &shorter), SameKind, "{code} {shorter}");
            assert_eq!(both(code, kind), Safe);
        }
    }
    assert_eq!(both("S", "S1"), Safe);
    assert_eq!(both("S5", "S"), No);
    assert_eq!(both("U5", "S10"), Unsafe);
    assert_eq!(both("S5", "U5"), Safe);
    assert_eq!(both("S5", "U4"), SameKind);
    assert_eq!(both("U2", "V8"), Safe);
    assert_eq!(both("U2", "V7"), Unsafe);
    assert_eq!(both("d", "V"), Safe);
    assert_eq!(both("d", "V1"), Unsafe);
    assert_eq!(both("V3", "V"), No);
    assert_eq!(both("V0", "V"), No);
    assert_eq!(both("V4", "V8"), Safe);
    assert_eq!(both("V8", "V4"), SameKind);
    assert_eq!(both("O", "S5"), Unsafe);
    assert_eq!(both("S5", "O"), Safe);
}

#[test]
fn datetimes() {
    assert_eq!(both("M8[1000ns]", "M8[us]"), No);
    assert_eq!(both("M8[2001ns]", "M8[2us]"), No);
    assert_eq!(both(">M8[1000ns]", "<M8[us]"), Equiv);
    assert_eq!(both("M8[D]", "M8[ns]"), Safe);
    assert_eq!(both("M8[D]", "M8[ps]"), SameKind);
    assert_eq!(both("M8[W]", "M8[ps]"), SameKind);
    assert_eq!(both("M8[s]", "M8[as]"), SameKind);
    assert_eq!(both("M8[ms]", "M8[as]"), Safe);
    assert_eq!(both("M8[10s]", "M8[2s]"), Safe);
    assert_eq!(both("M8[2s]", "M8[10s]"), SameKind);
    assert_eq!(both("M8[Y]", "M8[D]"), Safe);
    assert_eq!(both("m8[Y]", "m8[D]"), Unsafe);
    assert_eq!(both("m8[Y]", "m8[M]"), Safe);
    assert_eq!(both("M8[ns]", "M8[s]"), SameKind);
    assert_eq!(both("m8[D]", "m8[W]"), SameKind);
    assert_eq!(both("M8[60s]", "M8[m]"), SameKind);
    assert_eq!(both("M8[7h]", "M8[3h]"), SameKind);
    assert_eq!(both("M8[6h]", "M8[3h]"), Safe);
    assert_eq!(both("M8", "M8[s]"), Safe);
    assert_eq!(both("M8[s]", "M8"), Unsafe);
    assert_eq!(both("u8", "m8"), SameKind);
    assert_eq!(both("u4", "m8[s]"), Safe);
    assert_eq!(both("?", "M8"), Unsafe);
    assert_eq!(both("f4", "m8"), Unsafe);
    assert_eq!(both("M8", "m8"), Unsafe);
    assert_eq!(both("M8[s]", "S100"), Unsafe);
    assert_eq!(both("M8[s]", "V8"), Safe);
}

#[test]
fn subarrays_and_structures() {
    assert_eq!(both("i4", "(2,)i4"), Safe);
    assert_eq!(both("(2,)i4", "i4"), Unsafe);
    assert_eq!(both("(2,)i4", "(2,)i8"), Safe);
    assert_eq!(both("(2,)i4", "(3,)i4"), Unsafe);
    assert_eq!(both("i4", "i4,i4"), Unsafe);
    assert_eq!(both("V8", "i4,i4"), Unsafe);
    assert_eq!(both("i4,i4", "i4"), Never);
    assert_eq!(both("i4,f8", "V"), No);
    assert_eq!(both("i4,i4", "V8"), Never);
    assert_eq!(both("i4,f8", "O"), Safe);
    assert_eq!(both("i4,f8", ">i4,>f8"), Equiv);
    assert_eq!(both("i4,f8", "i8,f8"), Safe);
    assert_eq!(both("i4,f8", "i2,f8"), SameKind);
    assert_eq!(both("i4,f8", "i4,u8"), Unsafe);
    // field count: numpy 1.22 matches by name (unsafe), numpy 2 by position (never)
    assert_eq!(lv("i4,f8", "i4,f8,i2", NumpyRules::Numpy1), Unsafe);
    assert_eq!(lv("i4,f8", "i4,f8,i2", NumpyRules::Numpy2), Never);
}

#[test]
fn grammar_and_str() {
    for (spec, expected) in [
        ("i4", "int32"),
        (">i4", ">i4"),
        ("u1", "uint8"),
        (">u1", "uint8"),
        ("S5", "|S5"),
        ("<S5", "|S5"),
        ("U3", "<U3"),
        ("S", "|S0"),
        ("U", "<U0"),
        ("V", "|V0"),
        ("c", "|S1"),
        ("a5", "|S5"),
        ("b1", "bool"),
        ("b01", "bool"),
        ("i 4", "int32"),
        ("i+4", "int32"),
        ("i04", "int32"),
        ("O4", "object"),
        ("g", "float128"),
        ("c32", "complex256"),
        ("p", "int64"),
        ("float64", "float64"),
        ("longdouble", "float128"),
        ("M8", "datetime64"),
        ("M8[ns]", "datetime64[ns]"),
        (">M8[ns]", ">M8[ns]"),
        ("<datetime64[ns]", "datetime64[ns]"),
        ("m8[10s]", "timedelta64[10s]"),
        ("M8[μs]", "datetime64[us]"),
        ("M8[D/24]", "datetime64[h]"),
        ("M8[3D/2]", "datetime64[36h]"),
        ("m8[2147483647D/24]", "timedelta64[2147483647h]"),
        ("M8[W/11]", "datetime64[0Y]"),
        ("i4,f8", "[('f0', '<i4'), ('f1', '<f8')]"),
        ("2i4", "('<i4', (2,))"),
        ("(2,3)f8", "('<f8', (2, 3))"),
        ("3S4", "('S4', (3,))"),
        ("S4,(2,)u1", "[('f0', 'S4'), ('f1', 'u1', (2,))]"),
        ("M8[ns],i4", "[('f0', '<M8[ns]'), ('f1', '<i4')]"),
        (">i4,?", "[('f0', '>i4'), ('f1', '?')]"),
        ("()i4", "int32"),
    ] {
        assert_eq!(text(spec), expected, "{spec}");
    }
    for (spec, message) in [
        ("", "data type '' not understood"),
        ("<", "data type '<' not understood"),
        ("abc", "data type 'abc' not understood"),
        (">float64", "data type '>float64' not understood"),
        ("i0", "data type 'i0' not understood"),
        ("i16", "data type 'i16' not understood"),
        ("f10", "data type 'f10' not understood"),
        ("I4", "data type 'I4' not understood"),
        ("M4", "data type 'M4' not understood"),
        ("M[s]", "data type 'M[s]' not understood"),
        ("O16", "data type 'O16' not understood"),
        ("S-1", "data type 'S-1' not understood"),
        ("M8[s", "Invalid datetime metadata string \"[s\""),
        ("M8[]", "Invalid datetime metadata string \"[]\""),
        (
            "M8[s]x",
            "Invalid datetime metadata string \"[s]x\" at position 3",
        ),
        (
            "M8[5 s]",
            "Invalid datetime unit in metadata string \"[5 s]\"",
        ),
        ("M8[B]", "Invalid datetime unit in metadata string \"[B]\""),
        (
            "M8[D/7]",
            "divisor (7) is not a multiple of a lower-unit in datetime metadata \"[D/7]\"",
        ),
        (
            "i4,M8[D/24]",
            "format number 2 of \"i4,M8[D/24]\" is not recognized",
        ),
        (
            "M8[927646077D/2]",
            "the datetime unit multiplier 11131752924 h that \"[927646077D/2]\" asks for \
             does not fit into a C int (at most 2147483647)",
        ),
        (
            "m8[1073741824D/12]",
            "the datetime unit multiplier 2147483648 h that \"[1073741824D/12]\" asks for \
             does not fit into a C int (at most 2147483647)",
        ),
        ("it's", "data type \"it's\" not understood"),
    ] {
        assert_eq!(parse_message(spec), message, "{spec}");
    }
    assert_eq!(py_repr("a'b\"c"), "'a\\'b\"c'");
}

#[test]
fn names_that_one_numpy_refuses() {
    let int0 = parse("int0").unwrap();
    assert!(int0.under(NumpyRules::Numpy1).is_ok());
    let refused = int0.under(NumpyRules::Numpy2).unwrap_err().to_string();
    assert_eq!(
        refused,
        "Alias 'int0' was removed in NumPy 2.0. Use a name without a digit at the end."
    );
    let unicode = parse("unicode_").unwrap();
    assert_eq!(
        unicode.under(NumpyRules::Numpy2).unwrap_err().to_string(),
        "data type 'unicode_' not understood"
    );
    let ulong = parse("ulong").unwrap();
    assert!(ulong.under(NumpyRules::Numpy1).is_err());
    assert_eq!(shown(ulong.under(NumpyRules::Numpy2).unwrap()), "uint64");
    // 'f8,' is f8 in numpy 1 and a one-field struct in numpy 2
    let f8 = parse("f8,").unwrap();
    assert_eq!(shown(f8.under(NumpyRules::Numpy1).unwrap()), "float64");
    assert_eq!(
        shown(f8.under(NumpyRules::Numpy2).unwrap()),
        "[('f0', '<f8')]"
    );
}

fn can_py_int(v: &str, to: &str, casting: Casting) -> bool {
    let (dtype, value) = py_int(v).unwrap();
    let to = parse(to).unwrap();
    can_cast_value(&dtype, value, &to.dtype, casting, NumpyRules::Numpy1)
}

fn can_py_float(v: f64, to: &str, casting: Casting) -> bool {
    let d = NpDtype::from_code(b'd', dtype::Order::None).unwrap();
    let to = parse(to).unwrap();
    can_cast_value(&d, Value::Float(v), &to.dtype, casting, NumpyRules::Numpy1)
}

#[test]
fn value_based_numpy_1() {
    let big = (1u128 << 64).to_string();
    for (v, to, casting, expected) in [
        ("100", "i1", Safe, true),
        ("150", "i1", Safe, false),
        ("150", "i1", SameKind, true),
        ("150", "u1", Safe, true),
        ("-1", "u1", Safe, false),
        ("-1", "u1", SameKind, false),
        ("-1", "u1", Unsafe, true),
        ("-128", "i1", Safe, true),
        ("-129", "i1", Safe, false),
        ("127", "i1", Safe, true),
        ("128", "i1", Safe, false),
        ("255", "u1", Safe, true),
        ("256", "u1", Safe, false),
        ("2147483648", "i4", Safe, false),
        ("9223372036854775807", "i8", Safe, true),
        ("9223372036854775808", "i8", Safe, false),
        ("9223372036854775808", "u8", Safe, true),
        (&big, "u8", Safe, false),
        (&big, "u8", SameKind, false),
        (&big, "O", Safe, true),
        ("100", "f2", Safe, true),
        ("16777217", "f4", Safe, false),
        ("2147483648", "f8", Safe, true),
        ("1", "?", Safe, false),
        ("0", "?", SameKind, false),
        ("100", "c8", Safe, true),
        ("100", "S3", Safe, false),
        ("200", "S3", Safe, true),
        ("128", "S3", Safe, true),
        ("-100", "S4", Safe, true),
        ("100", "m8[s]", Safe, true),
        ("100", "M8[s]", Safe, false),
        ("100", "V1", Safe, true),
        ("100", "i1", No, true),
        ("300", ">i2", Equiv, true),
    ] {
        assert_eq!(
            can_py_int(v, to, casting),
            expected,
            "{v} -> {to} at {casting:?}"
        );
    }
    for (v, to, expected) in [
        (3.5e100, "f4", false),
        (1000.0, "f4", true),
        (1000.0, "f2", true),
        (64999.0, "f2", true),
        (65000.0, "f2", false),
        (3.39e38, "f4", true),
        (3.4e38, "f4", false),
        (f64::INFINITY, "f2", true),
        (f64::NAN, "f2", true),
        (1.0, "i8", false),
        (1.0, "S32", true),
        (1.0, "S31", false),
    ] {
        assert_eq!(can_py_float(v, to, Safe), expected, "{v} -> {to}");
    }
    assert!(can_py_float(1000.0, "f2", No));
}

#[test]
fn casting_names_and_promotion() {
    assert_eq!(
        casting_from_name("same_kind", NumpyRules::Numpy2).unwrap(),
        SameKind
    );
    // NEVER is a result, not a level to ask for.
    assert!(casting_from_name("never", NumpyRules::Numpy2).is_err());
    assert_eq!(
        casting_from_name("Safe", NumpyRules::Numpy1)
            .unwrap_err()
            .to_string(),
        "casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe' (got 'Safe')"
    );
    assert_eq!(
        casting_from_name("x", NumpyRules::Numpy2)
            .unwrap_err()
            .to_string(),
        "casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe' (got 'x')"
    );
    let promote = |a: &str, b: &str| {
        promote::promote(&parse(a).unwrap().dtype, &parse(b).unwrap().dtype).map(|d| shown(&d))
    };
    for (a, b, expected) in [
        ("i4", "u4", "int64"),
        ("i8", "u8", "float64"),
        ("b", "e", "float16"),
        ("i8", "S", "|S21"),
        ("i4", "S3", "|S11"),
        ("f8", "U5", "<U32"),
        ("?", "S", "|S5"),
        ("S5", "U3", "<U5"),
        ("S", "U", "<U0"),
        ("M8[2s]", "M8[3s]", "datetime64[s]"),
        ("M8[D]", "M8[M]", "datetime64[D]"),
        ("m8[s]", "i4", "timedelta64[s]"),
        ("M8[s]", "m8[h]", "datetime64[s]"),
        (">i4", ">i4", "int32"),
    ] {
        assert_eq!(promote(a, b).unwrap(), expected, "{a} + {b}");
    }
    for (a, b) in [("m8[Y]", "m8[D]"), ("M8", "i4"), ("V8", "V4"), ("m8", "u8")] {
        assert!(promote(a, b).is_err(), "{a} + {b}");
    }
}

#[test]
fn arbitrary_specs_never_panic() {
    // Random specs from the grammar's alphabet: every one parses or fails cleanly, and
    // whatever parses can be printed and queried.
    let alphabet = b"<>=|,()[]/ 0123456789ibufcSUVOMmTpPaehdgFDG?snuYWDhmsa.+-e";
    let mut rng = crate::testutil::Rng(0xfa11);
    let fixed = parse("i4").unwrap();
    let prefixes = ["", "M8[", "m8[", "(", "i4,", "2", "S", "<U", "datetime64["];
    let mut parsed = 0;
    let total = crate::testutil::samples(1_000_000);
    for _ in 0..total {
        let len = 1 + rng.below(14) as usize;
        let mut spec = prefixes[rng.below(prefixes.len() as u64) as usize].to_string();
        spec.extend(
            (0..len).map(|_| char::from(alphabet[rng.below(alphabet.len() as u64) as usize])),
        );
        if let Ok(p) = parse(&spec) {
            parsed += 1;
            let _ = p.dtype.to_str();
            for rules in [NumpyRules::Numpy1, NumpyRules::Numpy2] {
                if let Ok(d) = p.under(rules) {
                    let _ = level(d, &fixed.dtype, rules);
                    let _ = level(&fixed.dtype, d, rules);
                    let _ = level(d, d, rules);
                    let _ = promote::promote(d, &fixed.dtype);
                }
            }
        }
    }
    eprintln!("{parsed} of {total} random specs parsed");
    assert!(parsed > total / 1000, "{parsed} of {total}");
}

/// numpy's reading of a spec under `rules` printed, or the refusal's message.
fn under(spec: &str, rules: NumpyRules) -> Result<String, String> {
    parse(spec)
        .and_then(|p| p.under(rules).map(shown))
        .map_err(message)
}

#[test]
fn repeat_count_before_an_unsized_flexible_type_is_its_size() {
    // numpy's generic type tuple ('8S' is np.dtype(('S', 8))), the same in 1.26 and 2.4
    for (spec, expected) in [
        ("8S", "|S8"),
        ("8U", "<U8"),
        ("16V", "|V16"),
        ("32str", "<U32"),
        ("8bytes", "|S8"),
        ("8void", "|V8"),
        ("8unicode", "<U8"),
        ("8a", "|S8"),
        ("8S0", "|S8"),
        ("8U0", "<U8"),
        ("8V0", "|V8"),
        ("0S", "|S0"),
        ("1S", "|S1"),
        ("1U", "<U1"),
        ("2 S", "|S2"),
        (">8U", ">U8"),
        ("8>U", ">U8"),
        ("<8S", "|S8"),
        (">8V", "|V8"),
        ("2147483647S", "|S2147483647"),
        ("2147483647V", "|V2147483647"),
        ("536870911U", "<U536870911"),
        ("i4,8S", "[('f0', '<i4'), ('f1', 'S8')]"),
        ("i4,(2)S", "[('f0', '<i4'), ('f1', 'S2')]"),
        ("2S4,8U", "[('f0', 'S4', (2,)), ('f1', '<U8')]"),
        ("(2,)2S", "('S2', (2,))"),
        // sized types keep the subarray reading
        ("8c", "('S1', (8,))"),
        ("2S4", "('S4', (2,))"),
        ("3M8", "('<M8', (3,))"),
        ("2O", "('O', (2,))"),
    ] {
        for rules in [NumpyRules::Numpy1, NumpyRules::Numpy2] {
            assert_eq!(
                under(spec, rules).as_deref(),
                Ok(expected),
                "{spec} {rules:?}"
            );
        }
    }
    // numpy 2 makes '8S,' a one-field struct, numpy 1 the field's dtype
    assert_eq!(under("8S,", NumpyRules::Numpy1).as_deref(), Ok("|S8"));
    assert_eq!(
        under("8S,", NumpyRules::Numpy2).as_deref(),
        Ok("[('f0', 'S8')]")
    );
    assert_eq!(lv("8S", "S8", NumpyRules::Numpy2), No);
    assert_eq!(lv("i4", "8U", NumpyRules::Numpy1), SameKind);
    // a shape, or a size beyond a C int (a quarter of one for U), is refused
    for spec in [
        "(2,)S",
        "(0,)V0",
        "()str",
        "(2,)U",
        "(1,)S",
        "(0,)S",
        ">(2,)S",
        "(0,2147483648)S0",
        "2147483648S",
        "536870912U",
        "1073741824U",
        "2147483647U",
        "4294967296U",
        "99999999999999999999S",
        "i4,(2,)S",
    ] {
        assert_eq!(
            parse_message(spec),
            "invalid itemsize in generic type tuple",
            "{spec}"
        );
    }
}

#[test]
fn c_int_limits_of_subarrays_and_sizes() {
    let dims = |n: usize| format!("({})i4", vec!["1"; n].join(","));
    for (spec, message) in [
        (
            "(2147483648,)i1",
            "invalid shape in fixed-type tuple: dimension does not fit into a C int.",
        ),
        (
            "2147483648i1",
            "invalid shape in fixed-type tuple: dimension does not fit into a C int.",
        ),
        (
            "(0,2147483648)i1",
            "invalid shape in fixed-type tuple: dimension does not fit into a C int.",
        ),
        (
            "(4294967296,0)i1",
            "invalid shape in fixed-type tuple: dimension does not fit into a C int.",
        ),
        (
            "(65536,65536)i1",
            "invalid shape in fixed-type tuple: dtype size in bytes must fit into a C int.",
        ),
        (
            "(65536,32768)i1",
            "invalid shape in fixed-type tuple: dtype size in bytes must fit into a C int.",
        ),
        (
            "(1073741824,)i2",
            "invalid shape in fixed-type tuple: dtype size in bytes must fit into a C int.",
        ),
        (
            "2147483647int",
            "invalid shape in fixed-type tuple: dtype size in bytes must fit into a C int.",
        ),
        (
            "(2147483647,)S2",
            "invalid shape in fixed-type tuple: dtype size in bytes must fit into a C int.",
        ),
        (
            "(2,)V2147483647",
            "invalid shape in fixed-type tuple: dtype size in bytes must fit into a C int.",
        ),
        (
            "(536870912,)U1",
            "invalid shape in fixed-type tuple: dtype size in bytes must fit into a C int.",
        ),
        // numpy's element count overflows its 64-bit intp before the 0 is reached
        (
            "(2147483647,2147483647,2147483647,0)i1",
            "invalid shape in fixed-type tuple: dtype size in bytes must fit into a C int.",
        ),
        // beyond numpy's intp, and more than 64 dimensions
        (
            "(9223372036854775808,)i1",
            "invalid shape in fixed-type tuple.",
        ),
        (
            "(99999999999999999999,)i1",
            "invalid shape in fixed-type tuple.",
        ),
        (
            "(2147483648,9223372036854775808)i1",
            "invalid shape in fixed-type tuple.",
        ),
        (&dims(65), "invalid shape in fixed-type tuple."),
        // numpy does not check a struct's total size (it wraps to a negative itemsize);
        // tensorcast refuses it
        (
            "V2147483647,V1",
            "dtype size in bytes must fit into a C int.",
        ),
        (
            "V1073741824,V1073741824",
            "dtype size in bytes must fit into a C int.",
        ),
        (
            "U536870911,U1",
            "dtype size in bytes must fit into a C int.",
        ),
        (
            "i4,(2147483647,)i1",
            "dtype size in bytes must fit into a C int.",
        ),
    ] {
        assert_eq!(parse_message(spec), message, "{spec}");
    }
    for (spec, expected) in [
        ("(2147483647,)i1", "('i1', (2147483647,))"),
        ("2147483647i1", "('i1', (2147483647,))"),
        ("(65536,32767)i1", "('i1', (65536, 32767))"),
        ("(1073741823,)i2", "('<i2', (1073741823,))"),
        ("(2147483647,0)i1", "('i1', (2147483647, 0))"),
        (
            "(2147483647,2147483647,0)i1",
            "('i1', (2147483647, 2147483647, 0))",
        ),
        (
            "(0,2147483647,2147483647,2147483647)i1",
            "('i1', (0, 2147483647, 2147483647, 2147483647))",
        ),
        ("V2147483647,V0", "[('f0', 'V2147483647'), ('f1', 'V')]"),
        (
            "V1073741824,V1073741823",
            "[('f0', 'V1073741824'), ('f1', 'V1073741823')]",
        ),
        (
            "(1073741823,)V2,i1",
            "[('f0', 'V2', (1073741823,)), ('f1', 'i1')]",
        ),
    ] {
        assert_eq!(text(spec), expected, "{spec}");
    }
    // numpy 1 allows 32 dimensions, numpy 2 64
    let d33 = parse(&dims(33)).unwrap();
    assert_eq!(
        d33.under(NumpyRules::Numpy1).unwrap_err().to_string(),
        "invalid shape in fixed-type tuple."
    );
    assert_eq!(d33.under(NumpyRules::Numpy2).unwrap().itemsize, 4);
    assert!(parse(&dims(64)).unwrap().under(NumpyRules::Numpy2).is_ok());
    assert!(parse(&dims(32)).unwrap().under(NumpyRules::Numpy1).is_ok());
    // a refusal under each rule set in different items: numpy 2's message
    let both = format!("{},int0", dims(33));
    assert_eq!(
        parse_message(&both),
        "Alias 'int0' was removed in NumPy 2.0. Use a name without a digit at the end."
    );
    let one = format!("ulong,{}", dims(33));
    assert_eq!(
        under(&one, NumpyRules::Numpy1),
        Err("data type 'ulong' not understood".to_string())
    );
    assert!(under(&one, NumpyRules::Numpy2).is_ok());
    assert_eq!(
        parse_message(&format!("int0,{}", dims(65))),
        "Alias 'int0' was removed in NumPy 2.0. Use a name without a digit at the end."
    );
    // numpy 2 stops at the first item it refuses
    assert_eq!(
        parse_message("int0,abc"),
        "Alias 'int0' was removed in NumPy 2.0. Use a name without a digit at the end."
    );
}

#[test]
fn messages_quote_specs_as_python_repr_does() {
    for (text, expected) in [
        ("i4", "'i4'"),
        ("it's", "\"it's\""),
        ("a'b\"c", "'a\\'b\"c'"),
        ("a\"b", "'a\"b'"),
        ("a\\b", "'a\\\\b'"),
        ("\t\n\r", "'\\t\\n\\r'"),
        ("\0\x1b\x7f", "'\\x00\\x1b\\x7f'"),
        ("\u{85}x", "'\\x85x'"),
        ("\u{a0}\u{ad}", "'\\xa0\\xad'"),
        ("é", "'é'"),
        ("\u{ff}", "'ÿ'"),
        ("μs", "'μs'"),
        ("\u{378}", "'\\u0378'"),
        ("\u{2028}\u{2029}", "'\\u2028\\u2029'"),
        ("\u{200b}\u{feff}", "'\\u200b\\ufeff'"),
        ("\u{3000}", "'\\u3000'"),
        ("\u{e000}", "'\\ue000'"),
        ("\u{ffff}", "'\\uffff'"),
        ("\u{10000}", "'𐀀'"),
        ("\u{1f600}", "'😀'"),
        ("\u{e0001}", "'\\U000e0001'"),
        ("\u{10ffff}", "'\\U0010ffff'"),
    ] {
        assert_eq!(py_repr(text), expected, "{text:?}");
    }
    assert_eq!(
        parse_message("\u{85}x"),
        "data type '\\x85x' not understood"
    );
    assert_eq!(
        parse_message("i4\u{2028}"),
        "data type 'i4\\u2028' not understood"
    );
}

#[test]
fn type_numbers_and_intp_codes() {
    // numpy reads a one-character spec below 24 as a type number
    let by_number = [
        "bool",
        "int8",
        "uint8",
        "int16",
        "uint16",
        "int32",
        "uint32",
        "int64",
        "uint64",
        "int64",
        "uint64",
        "float32",
        "float64",
        "float128",
        "complex64",
        "complex128",
        "complex256",
        "object",
        "|S0",
        "<U0",
        "|V0",
        "datetime64",
        "timedelta64",
        "float16",
    ];
    for (number, expected) in by_number.iter().enumerate() {
        let spec = char::from(number as u8).to_string();
        for rules in [NumpyRules::Numpy1, NumpyRules::Numpy2] {
            assert_eq!(under(&spec, rules).as_deref(), Ok(*expected), "{spec:?}");
        }
    }
    // the codes: '\t' is NPY_LONGLONG, '\x07' NPY_LONG
    assert_eq!(parse("\t").unwrap().dtype.code, b'q');
    assert_eq!(parse("\x07").unwrap().dtype.code, b'l');
    assert_eq!(both("\t", "q"), No);
    assert_eq!(both("\x0c", "f8"), No);
    assert_eq!(under(">\x05", NumpyRules::Numpy2).as_deref(), Ok(">i4"));
    assert_eq!(under(">\x13", NumpyRules::Numpy1).as_deref(), Ok(">U0"));
    for spec in ["\x18", "\x19", "\x1b", "\x1f", "\x7f"] {
        assert_eq!(
            parse_message(spec),
            format!("data type {} not understood", py_repr(spec))
        );
    }
    // numpy 1's NPY_CHAR (26) is S1 with the char 'c'; numpy 2 removed it
    let char26 = parse("\x1a").unwrap();
    assert_eq!(shown(char26.under(NumpyRules::Numpy1).unwrap()), "|S1");
    assert_eq!(char26.under(NumpyRules::Numpy1).unwrap().code, b'c');
    assert_eq!(
        under("\x1a", NumpyRules::Numpy2),
        Err("data type '\\x1a' not understood".to_string())
    );
    assert_eq!(under(">\x1a", NumpyRules::Numpy1).as_deref(), Ok("|S1"));
    // numpy 2's 'n' (intp) and 'N' (uintp)
    for (spec, expected) in [
        ("n", "int64"),
        ("N", "uint64"),
        (">n", ">i8"),
        ("<N", "uint64"),
        ("=n", "int64"),
        ("2n", "('<i8', (2,))"),
        ("n,N", "[('f0', '<i8'), ('f1', '<u8')]"),
        ("i4,n", "[('f0', '<i4'), ('f1', '<i8')]"),
    ] {
        assert_eq!(
            under(spec, NumpyRules::Numpy2).as_deref(),
            Ok(expected),
            "{spec}"
        );
    }
    assert_eq!(parse("n").unwrap().dtype.code, b'l');
    assert_eq!(parse("N").unwrap().dtype.code, b'L');
    for (spec, message) in [
        ("n", "data type 'n' not understood"),
        ("N", "data type 'N' not understood"),
        (">n", "data type '>n' not understood"),
        ("2n", "data type 'n' not understood"),
        ("n,N", "data type 'n' not understood"),
        ("i4,n", "data type 'n' not understood"),
    ] {
        assert_eq!(
            under(spec, NumpyRules::Numpy1),
            Err(message.to_string()),
            "{spec}"
        );
    }
    for spec in ["n1", "N8"] {
        assert_eq!(
            parse_message(spec),
            format!("data type '{spec}' not understood")
        );
    }
}

#[test]
fn prefixed_a_is_numpy_1_only() {
    // numpy 2 knows 'a' as a deprecated name, not a code: a byte order before it fails
    for spec in ["<a", ">a", "=a", "|a"] {
        assert_eq!(
            under(spec, NumpyRules::Numpy1).as_deref(),
            Ok("|S0"),
            "{spec}"
        );
        assert_eq!(
            under(spec, NumpyRules::Numpy2),
            Err(format!("data type '{spec}' not understood")),
            "{spec}"
        );
    }
    assert_eq!(
        under(">8a", NumpyRules::Numpy2),
        Err("data type '>a' not understood".to_string())
    );
    assert_eq!(under(">8a", NumpyRules::Numpy1).as_deref(), Ok("|S8"));
    for rules in [NumpyRules::Numpy1, NumpyRules::Numpy2] {
        assert_eq!(under("a", rules).as_deref(), Ok("|S0"));
        assert_eq!(under("<8a", rules).as_deref(), Ok("|S8"));
        assert_eq!(under(">a5", rules).as_deref(), Ok("|S5"));
    }
}

#[test]
fn comma_form_separators_are_python_whitespace() {
    // numpy splits the comma form with Python's `\s` (str.isspace): Unicode spaces and
    // the information separators \x1c..\x1f too
    for (spec, expected) in [
        ("i4\u{85},f8", "[('f0', '<i4'), ('f1', '<f8')]"),
        ("i4,\x0bf8", "[('f0', '<i4'), ('f1', '<f8')]"),
        ("i4 ,\x1ci4", "[('f0', '<i4'), ('f1', '<i4')]"),
        ("4>i \u{2028}", "('>i4', (4,))"),
        ("i4,f8\u{3000}", "[('f0', '<i4'), ('f1', '<f8')]"),
        ("2i4\x1f", "('<i4', (2,))"),
    ] {
        assert_eq!(text(spec), expected, "{spec:?}");
    }
    for (spec, message) in [
        ("4\u{a0}", "data type '' not understood"),
        ("4\u{85}", "data type '' not understood"),
        ("4\x0b", "data type '' not understood"),
        ("4 > \u{a0} ", "data type '>' not understood"),
        (
            "i4,\u{200b}f8",
            "format number 2 of \"i4,\u{200b}f8\" is not recognized",
        ),
    ] {
        assert_eq!(parse_message(spec), message, "{spec:?}");
    }
}

#[test]
fn structured_casts_on_many_fields() {
    // numpy 1 matches fields by name (through a map when they are not in place), numpy 2
    // by position; 100,000 fields, in order, reversed, retyped and renamed
    let n = 100_000;
    let i4 = parse("i4").unwrap().dtype;
    let f8 = parse("f8").unwrap().dtype;
    let members =
        || -> Vec<(String, NpDtype)> { (0..n).map(|i| (format!("f{i}"), i4.clone())).collect() };
    let a = dtype::packed_struct(members()).unwrap();
    let mut reversed = members();
    reversed.reverse();
    let reversed = dtype::packed_struct(reversed).unwrap();
    assert_eq!(level(&a, &a, NumpyRules::Numpy1), No);
    assert_eq!(level(&a, &reversed, NumpyRules::Numpy1), Equiv);
    assert_eq!(level(&a, &reversed, NumpyRules::Numpy2), Safe);
    let mut retyped = members();
    retyped.reverse();
    retyped[n / 3].1 = f8.clone();
    let retyped = dtype::packed_struct(retyped).unwrap();
    assert_eq!(level(&a, &retyped, NumpyRules::Numpy1), Safe);
    assert_eq!(level(&retyped, &a, NumpyRules::Numpy1), Unsafe);
    let mut renamed = members();
    renamed[n - 1].0 = "g".to_string();
    let renamed = dtype::packed_struct(renamed).unwrap();
    assert_eq!(level(&a, &renamed, NumpyRules::Numpy1), Unsafe);
    assert_eq!(level(&a, &renamed, NumpyRules::Numpy2), Safe);

    // the comma form of as many fields: queries, str(), promotion
    let spec = "f8,".repeat(n);
    assert!(can_cast_str(&spec, &spec, No, NumpyRules::Numpy1).unwrap());
    assert!(can_cast_str(&"i4,".repeat(n), &spec, Safe, NumpyRules::Numpy1).unwrap());
    assert!(!can_cast_str(&spec, &"i4,".repeat(n), SameKind, NumpyRules::Numpy2).unwrap());
    let parsed = parse(&spec).unwrap();
    assert_eq!(parsed.dtype.itemsize, 8 * n as u64);
    let text = shown(&parsed.dtype);
    assert!(text.starts_with("[('f0', '<f8'), ('f1', '<f8'), "));
    assert!(text.ends_with(&format!("('f{}', '<f8')]", n - 1)));
    assert_eq!(text.matches("'<f8'").count(), n);
    let nested = parse(&"(2,)2i4,".repeat(n)).unwrap().dtype;
    assert_eq!(nested.itemsize, 16 * n as u64);
    let promoted = promote::promote(&parse(&"i4,".repeat(n)).unwrap().dtype, &parsed.dtype);
    assert_eq!(promoted.unwrap(), parsed.dtype);
}

/// A message quotes at most QUOTED_CHARS characters of a spec, so that a megabyte spec
/// does not make a megabyte message (the C API keeps 255 bytes of it either way).
#[test]
fn messages_quote_long_specs_in_part() {
    let spec = "x".repeat(100_000);
    let e = dtype::parse(&spec).unwrap_err();
    let quoted = format!("'{}'...", "x".repeat(dtype::QUOTED_CHARS));
    assert_eq!(e.to_string(), format!("data type {quoted} not understood"));
    let short = "x".repeat(dtype::QUOTED_CHARS);
    let e = dtype::parse(&short).unwrap_err();
    assert_eq!(e.to_string(), format!("data type '{short}' not understood"));
    let junk = format!("{}!", "i4,".repeat(1000));
    let e = dtype::parse(&junk).unwrap_err().to_string();
    assert!(e.starts_with("format number 1001 of \"i4,i4,"), "{e}");
    assert!(e.ends_with("...\" is not recognized"), "{e}");
    assert!(e.len() < dtype::QUOTED_CHARS + 64, "{e}");
    // str() of a huge struct is written piece by piece, and capped for messages
    let big = dtype::parse(&"f8,".repeat(10_000)).unwrap().dtype;
    assert_eq!(big.to_str().len(), big.to_str().chars().count());
    assert!(big.to_str().len() > 100_000);
    let capped = big.to_str_capped();
    assert_eq!(capped.len(), dtype::QUOTED_CHARS + 3);
    assert!(big.to_str().starts_with(&capped[..dtype::QUOTED_CHARS]));
    assert_eq!(big.try_clone().unwrap(), big);
    assert_eq!(big.native().unwrap(), big);
}
