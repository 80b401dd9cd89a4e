//! Numbers <-> text (ONNX Cast-9+ with STRING, `semantics-cast.md` section 8).
//!
//! Parsing: trim ASCII whitespace; an optional sign and inf / infinity / nan in any case;
//! else a decimal or scientific number. FLOAT and DOUBLE parse correctly rounded in their
//! own precision; the other float targets parse to f64 and then round by the numeric
//! rules; integer targets parse plain integer text exactly (saturating) and anything with
//! a fraction or exponent through f64 and the float -> integer rule.
//!
//! Formatting: integers in decimal, BOOL "True"/"False", NaN/inf as "NaN", "INF", "-INF",
//! and floats either as the shortest digits that read back to the same value of the
//! source type laid out like numpy's `str()`, or as C's "%.8g" ("%.17g" for DOUBLE).
//! A float format's text behaviour is one [`FloatText`] table entry.

use super::{convert, StringFormat};
use crate::dtype::{DType, Scalar};
use crate::error::Error;
use core::fmt::Write;

/// Longest text any element can format to, in bytes (also the scratch buffer size).
pub const MAX_TEXT_BYTES: usize = 32;

/// A fixed buffer that `core::fmt` can write into.
struct Scratch {
    buf: [u8; 48],
    len: usize,
}

impl Scratch {
    fn new() -> Scratch {
        Scratch {
            buf: [0; 48],
            len: 0,
        }
    }

    fn bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl Write for Scratch {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let end = self.len + s.len();
        if end > self.buf.len() {
            return Err(core::fmt::Error);
        }
        self.buf[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// Decimal digits `d1 d2 ... dn` (no leading zero unless the value is 0) and the
/// exponent of the first: the value is d1.d2...dn x 10^exp.
struct Decimal {
    digits: [u8; 24],
    len: usize,
    exp: i32,
}

impl Decimal {
    /// Reads Rust's `{:e}` output ("-1.2345e-5", "1e16") without its sign.
    fn from_exp_text(text: &[u8]) -> Decimal {
        let mut d = Decimal {
            digits: [0; 24],
            len: 0,
            exp: 0,
        };
        let mut i = usize::from(text.first() == Some(&b'-'));
        while i < text.len() && text[i] != b'e' {
            if text[i] != b'.' {
                d.digits[d.len] = text[i];
                d.len += 1;
            }
            i += 1;
        }
        let mut exp: i32 = 0;
        let mut negative = false;
        for &c in &text[i + 1..] {
            match c {
                b'-' => negative = true,
                b'0'..=b'9' => exp = exp * 10 + i32::from(c - b'0'),
                _ => {}
            }
        }
        d.exp = if negative { -exp } else { exp };
        d
    }

    /// Drops trailing zero digits (keeping at least one digit).
    fn trim_zeros(&mut self) {
        while self.len > 1 && self.digits[self.len - 1] == b'0' {
            self.len -= 1;
        }
    }

    fn digits(&self) -> &[u8] {
        &self.digits[..self.len]
    }

    /// Writes d.ddd e±XX (the mantissa's point only when there is more than one digit,
    /// the exponent with a sign and at least two digits), as numpy and C both do.
    fn write_scientific(&self, out: &mut Scratch) {
        let digits = self.digits();
        push(out, &digits[..1]);
        if digits.len() > 1 {
            push(out, b".");
            push(out, &digits[1..]);
        }
        push(out, if self.exp < 0 { b"e-" } else { b"e+" });
        let e = self.exp.unsigned_abs();
        if e < 10 {
            push(out, b"0");
        }
        let _ = write!(out, "{e}");
    }

    /// Writes the digits positionally: "123.45", "0.00012"; `whole_suffix` is appended to
    /// a whole number (numpy writes "100.0", C's %g writes "100").
    fn write_positional(&self, out: &mut Scratch, whole_suffix: &[u8]) {
        let digits = self.digits();
        if self.exp < 0 {
            push(out, b"0.");
            for _ in 0..(-self.exp - 1) {
                push(out, b"0");
            }
            push(out, digits);
            return;
        }
        let int_len = self.exp as usize + 1;
        if digits.len() <= int_len {
            push(out, digits);
            for _ in digits.len()..int_len {
                push(out, b"0");
            }
            push(out, whole_suffix);
        } else {
            push(out, &digits[..int_len]);
            push(out, b".");
            push(out, &digits[int_len..]);
        }
    }
}

fn push(out: &mut Scratch, bytes: &[u8]) {
    let end = out.len + bytes.len();
    out.buf[out.len..end].copy_from_slice(bytes);
    out.len = end;
}

/// How one float format turns into text: its shortest-digit search and numpy's
/// positional / scientific threshold U (`1e-4 <= |x| < U` is positional).
pub struct FloatText {
    /// Values at or above this magnitude are written in scientific form.
    pub upper: f64,
    /// Rounds an f64 to the nearest value of the format (as f64); None for FLOAT and
    /// DOUBLE, whose shortest digits come from the standard library directly.
    pub round: Option<fn(f64) -> f64>,
}

fn round_f16(x: f64) -> f64 {
    f64::from(convert::f16_bits_to_f32(convert::f64_to_f16_bits(x)))
}

fn round_bf16(x: f64) -> f64 {
    f64::from(convert::bf16_bits_to_f32(convert::f64_to_bf16_bits(x)))
}

/// The table: one entry per float storage the library formats.
fn float_text(source: Scalar) -> Option<FloatText> {
    Some(match source {
        Scalar::F64 => FloatText {
            upper: 1e16,
            round: None,
        },
        Scalar::F32 => FloatText {
            upper: 1e6,
            round: None,
        },
        Scalar::F16 => FloatText {
            upper: 1e3,
            round: Some(round_f16),
        },
        Scalar::Bf16 => FloatText {
            upper: 1e3,
            round: Some(round_bf16),
        },
        _ => return None,
    })
}

/// The shortest digits that read back (through `round`) to `x`; among equally short
/// ones, the closest to `x`.
fn shortest_by_search(x: f64, round: fn(f64) -> f64) -> Decimal {
    let reads_back = |d: &Decimal| {
        let mut text = Scratch::new();
        d.write_scientific(&mut text);
        let parsed: f64 = core::str::from_utf8(text.bytes())
            .ok()
            .and_then(|t| t.parse().ok())
            .unwrap_or(f64::NAN);
        round(parsed) == x
    };
    for precision in 1..=17 {
        let mut text = Scratch::new();
        let _ = write!(text, "{:.*e}", precision - 1, x);
        let nearest = Decimal::from_exp_text(text.bytes());
        if reads_back(&nearest) {
            let mut d = nearest;
            d.trim_zeros();
            return d;
        }
    }
    // Unreachable for the formats in the table (17 digits always read back).
    let mut text = Scratch::new();
    let _ = write!(text, "{x:e}");
    Decimal::from_exp_text(text.bytes())
}

/// Formats a finite or special float value of a format with `spec`.
fn format_float(
    x: f64,
    spec: &FloatText,
    exact_shortest: impl FnOnce(&mut Scratch),
    format: StringFormat,
    double: bool,
    out: &mut Scratch,
) {
    if x.is_nan() {
        push(out, b"NaN");
        return;
    }
    if x.is_infinite() {
        push(out, if x < 0.0 { b"-INF" } else { b"INF" });
        return;
    }
    if x.is_sign_negative() {
        push(out, b"-");
    }
    match format {
        StringFormat::Shortest => {
            let digits = match spec.round {
                Some(round) => shortest_by_search(x.abs(), round),
                None => {
                    let mut text = Scratch::new();
                    exact_shortest(&mut text);
                    Decimal::from_exp_text(text.bytes())
                }
            };
            let magnitude = x.abs();
            if magnitude == 0.0 || (1e-4..spec.upper).contains(&magnitude) {
                digits.write_positional(out, b".0");
            } else {
                digits.write_scientific(out);
            }
        }
        StringFormat::Printf8g => {
            // C's %.Pg: P significant digits; scientific when the exponent X of the
            // rounded value is < -4 or >= P; trailing zeros and a bare point dropped.
            let precision: i32 = if double { 17 } else { 8 };
            let mut text = Scratch::new();
            let _ = write!(text, "{:.*e}", (precision - 1) as usize, x.abs());
            let mut digits = Decimal::from_exp_text(text.bytes());
            digits.trim_zeros();
            if digits.exp < -4 || digits.exp >= precision {
                digits.write_scientific(out);
            } else {
                digits.write_positional(out, b"");
            }
        }
    }
}

/// Formats one element of `source` storage (its native bytes) into `out`.
fn format_element(source: Scalar, bytes: &[u8], format: StringFormat, out: &mut Scratch) {
    let mut raw = [0u8; 8];
    raw[..bytes.len()].copy_from_slice(bytes);
    let word = u64::from_le_bytes(raw);
    let _ = match source {
        Scalar::Bool => {
            push(out, if word != 0 { b"True" } else { b"False" });
            Ok(())
        }
        Scalar::I8 => write!(out, "{}", word as u8 as i8),
        Scalar::I16 => write!(out, "{}", word as u16 as i16),
        Scalar::I32 => write!(out, "{}", word as u32 as i32),
        Scalar::I64 => write!(out, "{}", word as i64),
        Scalar::U8 | Scalar::U16 | Scalar::U32 | Scalar::U64 => write!(out, "{word}"),
        Scalar::F32 => {
            let x = f32::from_bits(word as u32);
            let spec = float_text(source).expect("FLOAT has a text entry");
            format_float(
                f64::from(x),
                &spec,
                |t| {
                    let _ = write!(t, "{:e}", x.abs());
                },
                format,
                false,
                out,
            );
            Ok(())
        }
        Scalar::F64 => {
            let x = f64::from_bits(word);
            let spec = float_text(source).expect("DOUBLE has a text entry");
            format_float(
                x,
                &spec,
                |t| {
                    let _ = write!(t, "{:e}", x.abs());
                },
                format,
                true,
                out,
            );
            Ok(())
        }
        Scalar::F16 | Scalar::Bf16 => {
            let x = if source == Scalar::F16 {
                convert::f16_bits_to_f32(word as u16)
            } else {
                convert::bf16_bits_to_f32(word as u16)
            };
            let spec = float_text(source).expect("a 16-bit float has a text entry");
            format_float(f64::from(x), &spec, |_| {}, format, false, out);
            Ok(())
        }
        Scalar::C64 | Scalar::C128 => {
            unreachable!("complex -> STRING is refused before formatting")
        }
    };
}

/// An upper bound on the text of one element of `dtype` in any format; 0 for STRING,
/// complex and dtypes this version does not format.
pub fn max_text_bytes(dtype: DType) -> u64 {
    match dtype.info().scalar {
        Some(Scalar::Bool) => 5,
        Some(Scalar::I8) => 4,
        Some(Scalar::U8) => 3,
        Some(Scalar::I16) => 6,
        Some(Scalar::U16) => 5,
        Some(Scalar::I32) => 11,
        Some(Scalar::U32) => 10,
        Some(Scalar::I64) | Some(Scalar::U64) => 20,
        // "-1.2345678901234567e-308" / "-0.00012345678901234567"
        Some(Scalar::F64) => 24,
        // "-1.23456789e-38" / "-0.000123456789"; 16-bit floats need fewer.
        Some(Scalar::F32) | Some(Scalar::F16) | Some(Scalar::Bf16) => 16,
        _ => 0,
    }
}

/// Whether this version can format / parse `dtype`.
fn text_scalar(dtype: DType, direction: &str) -> Result<Scalar, Error> {
    match dtype.info().scalar {
        Some(Scalar::C64 | Scalar::C128) => Err(Error::Unsupported(format!(
            "{direction}: {dtype} <-> STRING is not supported (complex numbers have no text form here)"
        ))),
        Some(s) => Ok(s),
        None => Err(Error::Unsupported(format!(
            "{direction}: this version does not implement {dtype} <-> STRING"
        ))),
    }
}

/// Formats every element of a numeric tensor (row-major order), handing each text to
/// `emit` with its element index.
pub fn format_each(
    input: &crate::tensor::Tensor,
    format: StringFormat,
    mut emit: impl FnMut(usize, &[u8]),
) -> Result<(), Error> {
    let from = input.layout().dtype();
    let source = text_scalar(from, &format!("cast from {from} to STRING"))?;
    let size = source.size();
    let data = input.data();
    for (i, offset) in input.layout().offsets().enumerate() {
        let mut text = Scratch::new();
        format_element(source, &data[offset..offset + size], format, &mut text);
        emit(i, text.bytes());
    }
    Ok(())
}

// ---- parsing ------------------------------------------------------------------------

fn trim(text: &[u8]) -> &[u8] {
    let start = text
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(text.len());
    let end = text
        .iter()
        .rposition(|c| !c.is_ascii_whitespace())
        .map_or(start, |e| e + 1);
    &text[start..end]
}

/// A plain integer text ("-123", "+7"): its value, saturated to i128's range.
fn plain_integer(text: &[u8]) -> Option<i128> {
    let (negative, digits) = match text.first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut value: i128 = 0;
    for &c in digits {
        value = value
            .saturating_mul(10)
            .saturating_add(i128::from(c - b'0'));
    }
    Some(if negative { -value } else { value })
}

/// Parses as a float of type `F` (correctly rounded by the standard library), accepting
/// exactly the forms of the semantics page.
fn parse_float<F: core::str::FromStr>(text: &[u8]) -> Option<F> {
    // The standard parser also accepts what we do not want only in forms we already
    // exclude (it takes no whitespace, no hex, no separators); it reads "inf",
    // "infinity" and "nan" in any case with an optional sign, as the page asks.
    let text = core::str::from_utf8(text).ok()?;
    text.parse().ok()
}

/// Renders a text for an error message: cut to a readable length, non-printable bytes
/// escaped.
fn quote(text: &[u8]) -> String {
    const LIMIT: usize = 40;
    let shown = &text[..text.len().min(LIMIT)];
    let mut quoted: String = shown.escape_ascii().to_string();
    if text.len() > LIMIT {
        quoted.push_str("...");
    }
    format!("\"{quoted}\"")
}

fn parse_error(index: usize, text: &[u8], to: DType) -> Error {
    let why = if core::str::from_utf8(text).is_err() {
        " (not valid UTF-8)"
    } else {
        ""
    };
    Error::Parse {
        index: Some(index as u64),
        message: format!(
            "input element {index}: cannot parse {} as {to}{why}",
            quote(text)
        ),
    }
}

/// Parses one text into `to` storage, writing its native bytes into `out`.
fn parse_element(text: &[u8], to: Scalar, out: &mut [u8]) -> Option<()> {
    let text = trim(text);
    let write_int = |out: &mut [u8], value: i128, min: i128, max: i128| {
        let v = value.clamp(min, max) as u128;
        out.copy_from_slice(&v.to_le_bytes()[..out.len()]);
    };
    match to {
        Scalar::F32 => out.copy_from_slice(&parse_float::<f32>(text)?.to_bits().to_le_bytes()),
        Scalar::F64 => out.copy_from_slice(&parse_float::<f64>(text)?.to_bits().to_le_bytes()),
        Scalar::F16 => {
            let x: f64 = parse_float(text)?;
            out.copy_from_slice(&convert::f64_to_f16_bits(x).to_le_bytes());
        }
        Scalar::Bf16 => {
            let x: f64 = parse_float(text)?;
            out.copy_from_slice(&convert::f64_to_bf16_bits(x).to_le_bytes());
        }
        Scalar::Bool => {
            let truth = if text.eq_ignore_ascii_case(b"true") {
                true
            } else if text.eq_ignore_ascii_case(b"false") {
                false
            } else if let Some(v) = plain_integer(text) {
                v != 0
            } else {
                parse_float::<f64>(text)? != 0.0
            };
            out[0] = u8::from(truth);
        }
        int => {
            let bits = (int.size() * 8) as u32;
            let signed = matches!(int, Scalar::I8 | Scalar::I16 | Scalar::I32 | Scalar::I64);
            let (min, max) = if signed {
                (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
            } else {
                (0, (1i128 << bits) - 1)
            };
            let value = match plain_integer(text) {
                Some(v) => v,
                // A fraction or exponent: through f64 and the float -> integer rule.
                None => {
                    let x: f64 = parse_float(text)?;
                    if x.is_nan() {
                        0
                    } else {
                        // Saturating `as` truncates toward zero; i128 holds every
                        // integer target's range.
                        x as i128
                    }
                }
            };
            write_int(out, value, min, max);
        }
    }
    Some(())
}

/// Parses every text into the numeric `output`, in row-major order. `texts` yields each
/// element's bytes (or an error about the element itself, e.g. a NULL view).
pub fn parse_each<'t>(
    texts: impl Iterator<Item = Result<&'t [u8], Error>>,
    output: &mut crate::tensor::TensorMut,
) -> Result<(), Error> {
    let to = output.layout().dtype();
    let target = text_scalar(to, &format!("cast from STRING to {to}"))?;
    let size = target.size();
    let out = output.data();
    for (i, (text, slot)) in texts.zip(out.chunks_exact_mut(size)).enumerate() {
        let text = text?;
        parse_element(text, target, slot).ok_or_else(|| parse_error(i, text, to))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(source: Scalar, bits: u64, format: StringFormat) -> String {
        let mut out = Scratch::new();
        format_element(
            source,
            &bits.to_le_bytes()[..source.size()],
            format,
            &mut out,
        );
        String::from_utf8(out.bytes().to_vec()).unwrap()
    }

    fn f32s(x: f32) -> String {
        fmt(Scalar::F32, u64::from(x.to_bits()), StringFormat::Shortest)
    }

    fn f64s(x: f64) -> String {
        fmt(Scalar::F64, x.to_bits(), StringFormat::Shortest)
    }

    fn f16s(x: f32) -> String {
        fmt(
            Scalar::F16,
            u64::from(convert::f32_to_f16_bits(x)),
            StringFormat::Shortest,
        )
    }

    #[test]
    fn shortest_matches_the_examples_of_the_semantics_page() {
        for (x, text) in [
            (0.1f32, "0.1"),
            (1e-4, "1e-04"),
            (1e-5, "1e-05"),
            (999999.0, "999999.0"),
            (1e6, "1e+06"),
            (1234567.0, "1.234567e+06"),
            (100.0, "100.0"),
            (-0.0, "-0.0"),
            (0.0, "0.0"),
            (f32::NAN, "NaN"),
            (f32::INFINITY, "INF"),
            (f32::NEG_INFINITY, "-INF"),
        ] {
            assert_eq!(f32s(x), text, "f32 {x:e}");
        }
        for (x, text) in [(1000.0, "1e+03"), (65504.0, "6.55e+04"), (999.5, "999.5")] {
            assert_eq!(f16s(x), text, "f16 {x}");
        }
        for (x, text) in [
            (1e15f64, "1000000000000000.0"),
            (1e16, "1e+16"),
            (0.1, "0.1"),
            (1e-4, "0.0001"),
            (-1.5e-300, "-1.5e-300"),
            (5e-324, "5e-324"),
        ] {
            assert_eq!(f64s(x), text, "f64 {x:e}");
        }
        assert_eq!(fmt(Scalar::Bool, 1, StringFormat::Shortest), "True");
        assert_eq!(fmt(Scalar::Bool, 0, StringFormat::Shortest), "False");
        assert_eq!(fmt(Scalar::I8, 0x80, StringFormat::Shortest), "-128");
        assert_eq!(
            fmt(Scalar::U64, u64::MAX, StringFormat::Printf8g),
            "18446744073709551615"
        );
    }

    #[test]
    fn printf_8g_matches_c() {
        let g = |x: f32| fmt(Scalar::F32, u64::from(x.to_bits()), StringFormat::Printf8g);
        assert_eq!(g(0.1), "0.1");
        assert_eq!(g(1e-5), "9.9999997e-06");
        assert_eq!(g(1.0), "1");
        assert_eq!(g(-0.0), "-0");
        assert_eq!(g(1e8), "1e+08");
        assert_eq!(g(12345678.0), "12345678");
        assert_eq!(g(f32::NAN), "NaN");
        let d = |x: f64| fmt(Scalar::F64, x.to_bits(), StringFormat::Printf8g);
        assert_eq!(d(0.1), "0.10000000000000001");
        assert_eq!(d(1e300), "1.0000000000000001e+300");
        assert_eq!(d(0.0001), "0.0001");
        assert_eq!(d(123.0), "123");
    }

    fn parse(text: &[u8], to: Scalar) -> Option<Vec<u8>> {
        let mut out = vec![0u8; to.size()];
        parse_element(text, to, &mut out).map(|()| out)
    }

    #[test]
    fn parsing_accepts_and_rejects_as_the_page_says() {
        let f32_of = |t: &str| {
            parse(t.as_bytes(), Scalar::F32).map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        };
        for (text, value) in [
            ("3.25", 3.25f32),
            (" 2.5 ", 2.5),
            ("\t\n1e-5\r ", 1e-5),
            ("1E8", 1e8),
            ("+INF", f32::INFINITY),
            ("-Infinity", f32::NEG_INFINITY),
            ("inf", f32::INFINITY),
            (".5", 0.5),
            ("5.", 5.0),
            ("1e400", f32::INFINITY),
            ("-0", -0.0),
        ] {
            let got = f32_of(text).unwrap_or_else(|| panic!("{text:?} should parse"));
            assert_eq!(got.to_bits(), value.to_bits(), "{text:?}");
        }
        assert!(f32_of("nan").unwrap().is_nan());
        assert!(f32_of("NaN").unwrap().is_nan());
        assert!(f32_of("-nan").unwrap().is_nan());
        for bad in [
            "", "  ", "abc", "3.14abc", "1,5", "0x10", "--1", "1e", "e5", ".", "1 2", "in", "nana",
            "1\u{0}1",
        ] {
            assert_eq!(f32_of(bad), None, "{bad:?} must be refused");
        }
        assert_eq!(parse(b"\xff1", Scalar::F32), None);
        assert_eq!(
            parse(b"100.5", Scalar::I32),
            Some(100i32.to_le_bytes().to_vec())
        );
        assert_eq!(parse(b"-1", Scalar::U8), Some(vec![0]));
        assert_eq!(parse(b"300", Scalar::I8), Some(vec![127]));
        assert_eq!(parse(b"-300", Scalar::I8), Some(vec![128]));
        assert_eq!(
            parse(b"1e3", Scalar::I16),
            Some(1000i16.to_le_bytes().to_vec())
        );
        assert_eq!(parse(b"nan", Scalar::I32), Some(vec![0; 4]));
        assert_eq!(
            parse(b"-inf", Scalar::I64),
            Some(i64::MIN.to_le_bytes().to_vec())
        );
        assert_eq!(
            parse(b"99999999999999999999999999", Scalar::U64),
            Some(u64::MAX.to_le_bytes().to_vec())
        );
        assert_eq!(
            parse(b"-9223372036854775808", Scalar::I64),
            Some(i64::MIN.to_le_bytes().to_vec())
        );
        assert_eq!(parse(b"2.9", Scalar::U8), Some(vec![2]));
        assert_eq!(parse(b"12abc", Scalar::I32), None);
        for (text, truth) in [
            ("true", 1),
            ("FALSE", 0),
            ("True", 1),
            ("0", 0),
            ("0.0", 0),
            ("2", 1),
            ("nan", 1),
            ("-0", 0),
        ] {
            assert_eq!(
                parse(text.as_bytes(), Scalar::Bool),
                Some(vec![truth]),
                "{text:?}"
            );
        }
        assert_eq!(parse(b"yes", Scalar::Bool), None);
        // Narrow floats parse to f64, then round once: 1.00048828125 + 1e-12 -> 0x3c01.
        assert_eq!(
            parse(b"1.000488281251", Scalar::F16),
            Some(0x3c01u16.to_le_bytes().to_vec())
        );
        assert_eq!(
            parse(b"65519.99999", Scalar::F16),
            Some(0x7bffu16.to_le_bytes().to_vec())
        );
    }

    #[test]
    fn error_messages_quote_the_text_readably() {
        let e = parse_error(7, b"3.14abc", DType::Float);
        assert_eq!(e.index(), Some(7));
        assert_eq!(
            e.to_string(),
            "input element 7: cannot parse \"3.14abc\" as FLOAT"
        );
        let e = parse_error(0, b"a\0b\xff", DType::Int32);
        assert_eq!(
            e.to_string(),
            "input element 0: cannot parse \"a\\x00b\\xff\" as INT32 (not valid UTF-8)"
        );
        let long = vec![b'x'; 500];
        assert!(parse_error(1, &long, DType::Double).to_string().len() < 100);
    }

    /// Formats `bits` of `source` (shortest), parses the text back into `source` and
    /// checks the bits (any NaN for NaN); also checks the length bound in both formats.
    fn round_trip(source: Scalar, dtype: DType, bits: u64) {
        let text = fmt(source, bits, StringFormat::Shortest);
        let bound = max_text_bytes(dtype) as usize;
        assert!(
            text.len() <= bound,
            "{dtype} 0x{bits:x}: {text:?} is longer than {bound}"
        );
        let printf = fmt(source, bits, StringFormat::Printf8g);
        assert!(
            printf.len() <= bound,
            "{dtype} 0x{bits:x}: {printf:?} is longer than {bound}"
        );
        let back =
            parse(text.as_bytes(), source).unwrap_or_else(|| panic!("{text:?} does not parse"));
        let mut raw = [0u8; 8];
        raw[..back.len()].copy_from_slice(&back);
        let back = u64::from_le_bytes(raw);
        let nan = |b: u64| match source {
            Scalar::F16 => f32::is_nan(convert::f16_bits_to_f32(b as u16)),
            Scalar::Bf16 => f32::is_nan(convert::bf16_bits_to_f32(b as u16)),
            Scalar::F32 => f32::from_bits(b as u32).is_nan(),
            _ => f64::from_bits(b).is_nan(),
        };
        if nan(bits) {
            assert!(nan(back), "{dtype} NaN 0x{bits:x} came back as 0x{back:x}");
        } else {
            assert_eq!(back, bits, "{dtype} 0x{bits:x} -> {text:?} -> 0x{back:x}");
        }
    }

    #[test]
    fn every_f16_and_bf16_value_round_trips() {
        for bits in 0..=u16::MAX {
            round_trip(Scalar::F16, DType::Float16, u64::from(bits));
            round_trip(Scalar::Bf16, DType::Bfloat16, u64::from(bits));
        }
    }

    #[test]
    fn random_f32_and_f64_values_round_trip() {
        let mut state = 0x1234_5678_9abc_def1u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let powers = (-45..=38).map(|e| 10f64.powi(e));
        for p in powers {
            let x = p as f32;
            for b in [x.to_bits().wrapping_sub(1), x.to_bits(), x.to_bits() + 1] {
                round_trip(Scalar::F32, DType::Float, u64::from(b));
            }
        }
        for e in -323..=308 {
            let x: f64 = format!("1e{e}").parse().unwrap();
            for b in [x.to_bits() - 1, x.to_bits(), x.to_bits() + 1] {
                round_trip(Scalar::F64, DType::Double, b);
            }
        }
        for b in [
            1u64,
            0x000f_ffff_ffff_ffff,
            0x7fef_ffff_ffff_ffff,
            0x0010_0000_0000_0000,
        ] {
            round_trip(Scalar::F64, DType::Double, b);
            round_trip(Scalar::F64, DType::Double, b | 1 << 63);
        }
        for b in [1u32, 0x007f_ffff, 0x7f7f_ffff, 0x0080_0000] {
            round_trip(Scalar::F32, DType::Float, u64::from(b));
        }
        for _ in 0..1_000_000 {
            let r = next();
            round_trip(Scalar::F32, DType::Float, r >> 32);
            round_trip(Scalar::F64, DType::Double, r);
        }
    }

    #[test]
    fn integer_texts_fit_their_bounds() {
        for (dtype, extremes) in [
            (DType::Int8, [i8::MIN as u64, i8::MAX as u64]),
            (DType::Int16, [i16::MIN as u64, i16::MAX as u64]),
            (DType::Int32, [i32::MIN as u64, i32::MAX as u64]),
            (DType::Int64, [i64::MIN as u64, i64::MAX as u64]),
            (DType::Uint8, [0, u64::from(u8::MAX)]),
            (DType::Uint16, [0, u64::from(u16::MAX)]),
            (DType::Uint32, [0, u64::from(u32::MAX)]),
            (DType::Uint64, [0, u64::MAX]),
            (DType::Bool, [0, 1]),
        ] {
            let s = dtype.info().scalar.unwrap();
            for v in extremes {
                let text = fmt(s, v, StringFormat::Shortest);
                assert!(
                    text.len() <= max_text_bytes(dtype) as usize,
                    "{dtype} {text}"
                );
                assert_eq!(
                    parse(text.as_bytes(), s).unwrap(),
                    v.to_le_bytes()[..s.size()].to_vec()
                );
            }
        }
    }
}
