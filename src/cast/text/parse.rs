// SPDX-License-Identifier: MIT OR Apache-2.0
//! Text -> numbers: trim C's whitespace (space, \t, \n, \v, \f, \r); an optional sign
//! and inf / infinity / nan in any case; else a decimal or scientific number. FLOAT and
//! DOUBLE parse correctly rounded in their own precision (the fast path of `scan.rs` and
//! `decimal.rs`, else fast-float2); the other float targets parse to f64 and then round
//! by the numeric rules; integer targets parse plain integer text exactly and convert
//! it as a float of that value would (8- to 64-bit integers saturate,
//! INT4/UINT4/INT2/UINT2 keep the low bits), and anything with a fraction or exponent
//! through f64 and the float -> integer rule. The parser for a dtype is chosen once per
//! call.

use super::super::options::CastOptions;
use super::form::{text_repr, PACKED_BLOCK};
use super::scan::{
    plain_integer, plain_integer_low_bits, scan_wide, short_integer, tiny_integer,
    tiny_integer_pair, trim,
};
use crate::dtype::{DType, Scalar};
use crate::error::Error;
use crate::formats::elem::Elem;
use crate::formats::repr::Repr;
use crate::formats::{convert, lowp, pack};
use crate::string_view::{StringView, VIEW_BYTES};

/// Parses as a float of type `F`, correctly rounded in `F`'s own precision, which
/// reads exactly the forms of the semantics page: no whitespace (trimmed before), no
/// hex, no separators; "inf", "infinity" and "nan" in any case with an optional sign.
#[inline(always)]
fn parse_float<F: FastText>(text: &[u8]) -> Option<F> {
    F::fast(text).or_else(|| fast_float2::parse(text).ok())
}

/// The float types the fast path (`scan.rs`, `decimal.rs`) reads directly; anything it
/// cannot settle goes to fast-float2, which reads every form.
trait FastText: fast_float2::FastFloat {
    fn fast(text: &[u8]) -> Option<Self>;
}

impl FastText for f64 {
    #[inline(always)]
    fn fast(text: &[u8]) -> Option<f64> {
        scan_wide(text)?.to_f64()
    }
}

impl FastText for f32 {
    #[inline(always)]
    fn fast(text: &[u8]) -> Option<f32> {
        scan_wide(text)?.to_f32()
    }
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

pub(super) fn parse_error(index: usize, text: &[u8], to: DType) -> Error {
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

/// Parses one (trimmed) text into a target's bytes, in the host's byte order as every
/// element is (docs/c-api.md section 4); None if it does not parse.
type Parser = fn(&[u8], &mut [u8]) -> Option<()>;

#[inline(always)]
fn parse_f32(text: &[u8], out: &mut [u8]) -> Option<()> {
    parse_float::<f32>(text)?.store(out);
    Some(())
}

#[inline(always)]
fn parse_f64(text: &[u8], out: &mut [u8]) -> Option<()> {
    parse_float::<f64>(text)?.store(out);
    Some(())
}

fn parse_f16(text: &[u8], out: &mut [u8]) -> Option<()> {
    convert::f64_to_f16_bits(parse_float(text)?).store(out);
    Some(())
}

fn parse_bf16(text: &[u8], out: &mut [u8]) -> Option<()> {
    convert::f64_to_bf16_bits(parse_float(text)?).store(out);
    Some(())
}

fn parse_bool(text: &[u8], out: &mut [u8]) -> Option<()> {
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
    Some(())
}

/// An integer target of `BYTES` bytes: plain integers exactly with saturation; text with
/// a fraction or exponent through f64 and the float -> integer rule (truncate, saturate,
/// NaN -> 0).
///
/// The plain integers of up to 19 digits are read inline; every other text goes to a cold
/// function, so that the common case is a short loop body.
#[inline(always)]
fn parse_int<const BYTES: usize, const SIGNED: bool>(text: &[u8], out: &mut [u8]) -> Option<()> {
    match short_integer(text) {
        Some((negative, magnitude)) => {
            store_magnitude::<BYTES, SIGNED>(negative, magnitude, out);
            Some(())
        }
        None => parse_long_int::<BYTES, SIGNED>(text, out),
    }
}

/// Stores the integer of sign `negative` and `magnitude`, saturated, as a `BYTES`-byte
/// integer. Saturated in 64 bits: the magnitude to the target's limit on its side (for an
/// unsigned target a negative text's limit is 0), then the sign applied without a branch
/// (half the texts may be negative, in no order a predictor could learn): -m is
/// (m ^ -1) + 1.
#[inline(always)]
fn store_magnitude<const BYTES: usize, const SIGNED: bool>(
    negative: bool,
    magnitude: u64,
    out: &mut [u8],
) {
    let bits = 8 * BYTES as u32;
    let limit = if SIGNED {
        (u64::MAX >> (65 - bits)) + u64::from(negative)
    } else {
        (u64::MAX >> (64 - bits)) * u64::from(!negative)
    };
    let sign = u64::from(negative).wrapping_neg();
    let word = (magnitude.min(limit) ^ sign).wrapping_sub(sign);
    match BYTES {
        1 => out[0] = word as u8,
        2 => (word as u16).store(out),
        4 => (word as u32).store(out),
        _ => word.store(out),
    }
}

/// [`parse_int`] of a text that is not a plain integer of up to 19 digits.
#[cold]
#[inline(never)]
fn parse_long_int<const BYTES: usize, const SIGNED: bool>(
    text: &[u8],
    out: &mut [u8],
) -> Option<()> {
    let value = match plain_integer(text) {
        Some(v) => v,
        None => {
            let x: f64 = parse_float(text)?;
            // `as` truncates toward zero, saturates and maps NaN to 0; i128 holds every
            // integer target's range.
            x as i128
        }
    };
    store_int::<BYTES, SIGNED>(value, out);
    Some(())
}

/// Stores `value`, saturated to the target's range, as a `BYTES`-byte integer.
#[inline(always)]
fn store_int<const BYTES: usize, const SIGNED: bool>(value: i128, out: &mut [u8]) {
    let bits = 8 * BYTES as u32;
    let (min, max) = if SIGNED {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    };
    // Two's complement in BYTES bytes, stored in the host's byte order.
    let word = value.clamp(min, max) as u64;
    match BYTES {
        1 => out[0] = word as u8,
        2 => (word as u16).store(out),
        4 => (word as u32).store(out),
        _ => word.store(out),
    }
}

fn parser(target: Scalar) -> Parser {
    match target {
        Scalar::F32 => parse_f32,
        Scalar::F64 => parse_f64,
        Scalar::F16 => parse_f16,
        Scalar::Bf16 => parse_bf16,
        Scalar::Bool => parse_bool,
        Scalar::C64 | Scalar::C128 => unreachable!("STRING -> complex is refused before parsing"),
        integer => match for_int(integer, IntParser) {
            Ok(parser) => parser,
            Err(_) => unreachable!("{integer:?} is an integer scalar"),
        },
    }
}

/// Work over an integer target, generic in its width and signedness, which [`for_int`]
/// runs for a [`Scalar`].
trait IntJob: Sized {
    type Out;
    fn run<const BYTES: usize, const SIGNED: bool>(self) -> Self::Out;
}

/// `job` run for the integer scalar `s`: the one table of the integer targets' widths
/// and signedness. The job comes back, not run, for any other scalar.
fn for_int<J: IntJob>(s: Scalar, job: J) -> Result<J::Out, J> {
    Ok(match s {
        Scalar::I8 => job.run::<1, true>(),
        Scalar::I16 => job.run::<2, true>(),
        Scalar::I32 => job.run::<4, true>(),
        Scalar::I64 => job.run::<8, true>(),
        Scalar::U8 => job.run::<1, false>(),
        Scalar::U16 => job.run::<2, false>(),
        Scalar::U32 => job.run::<4, false>(),
        Scalar::U64 => job.run::<8, false>(),
        _ => return Err(job),
    })
}

/// The general parser of an integer target ([`parse_int`]).
struct IntParser;

impl IntJob for IntParser {
    type Out = Parser;
    fn run<const BYTES: usize, const SIGNED: bool>(self) -> Parser {
        parse_int::<BYTES, SIGNED>
    }
}

#[cfg(test)]
pub(super) fn parse_element(text: &[u8], to: Scalar, out: &mut [u8]) -> Option<()> {
    parser(to)(trim(text), out)
}

/// Parses a text into a code of low-precision format `format` (options `opt`): floats
/// round once from the f64 the text reads as. The integer formats convert a plain
/// integer text as a float of its exact value converts (round, a no-op here, then keep
/// the low bits), however long the text; anything else goes through f64 and the
/// float -> integer rule (nearest even, low bits; NaN and infinities 0).
pub(super) fn parse_low(text: &[u8], format: u8, opt: u8) -> Option<u8> {
    let f = &lowp::FORMATS[format as usize];
    if let lowp::Kind::Int { .. } = f.kind {
        if let Some(v) = plain_integer_low_bits(text) {
            return Some(v as u8 & ((1u8 << f.bits) - 1));
        }
    }
    Some(lowp::encode_f64(format, opt, parse_float(text)?))
}

/// Parses every text into the numeric `output`, in row-major order. `texts` yields each
/// element's index (in the whole tensor, which errors report) and view (read here, so
/// that a broken one, e.g. NULL, is an error about the element).
/// `options` supplies `saturate` and `round_mode` for the low-precision targets.
pub fn parse_each<'t>(
    texts: impl Iterator<Item = (usize, StringView<'t>)>,
    output: &mut crate::tensor::TensorMut,
    options: &CastOptions,
) -> Result<(), Error> {
    let (to, packed) = (output.layout().dtype(), output.layout().is_packed());
    let target = text_repr(to, format_args!("cast from STRING to {to}"))?;
    let out = output.data();
    match target {
        // The hot targets get a loop of their own, so their parser inlines into it.
        Repr::Std(Scalar::F32) => parse_all(texts, out, 4, to, parse_f32)?,
        Repr::Std(Scalar::F64) => parse_all(texts, out, 8, to, parse_f64)?,
        Repr::Std(scalar) => match for_int(scalar, IntLoop { texts, out, to }) {
            Ok(done) => done?,
            Err(IntLoop { texts, out, .. }) => {
                parse_all(texts, out, scalar.size(), to, parser(scalar))?
            }
        },
        Repr::Low(format) => {
            let opt = lowp::option_bits(format, options.saturate, options.round_mode as u8);
            let mut texts = texts;
            let mut codes = |slots: &mut [u8]| -> Result<(), Error> {
                for (slot, (i, view)) in slots.iter_mut().zip(&mut texts) {
                    let text = view.bytes(i)?;
                    *slot = parse_low(trim(text), format, opt)
                        .ok_or_else(|| parse_error(i, text, to))?;
                }
                Ok(())
            };
            if !packed {
                // One code per byte: the low-precision formats, and the sub-byte ones
                // held unpacked (each code within its bits, the high bits 0).
                return codes(out);
            }
            // Packed targets: a block of codes at a time on the stack, packed into the
            // output (nothing allocated, however many elements).
            let bits = to.bits();
            let count = output_count(to, out.len());
            let mut block = [0u8; PACKED_BLOCK];
            let mut done = 0;
            while done < count {
                let m = PACKED_BLOCK.min(count - done);
                codes(&mut block[..m])?;
                let bytes = pack::packed_bytes(bits, done)..pack::packed_bytes(bits, done + m);
                pack::pack(bits, &block[..m], &mut out[bytes]);
                done += m;
            }
        }
    }
    Ok(())
}

/// Parses each text into the next `size` bytes of `out` with `read` (inlined into the
/// caller's loop, so that a hot parser inlines into it too).
#[inline(always)]
fn parse_all<'t>(
    texts: impl Iterator<Item = (usize, StringView<'t>)>,
    out: &mut [u8],
    size: usize,
    to: DType,
    read: impl Fn(&[u8], &mut [u8]) -> Option<()>,
) -> Result<(), Error> {
    for ((i, view), slot) in texts.zip(out.chunks_exact_mut(size)) {
        let text = view.bytes(i)?;
        if read(trim(text), slot).is_none() {
            return Err(parse_error(i, text, to));
        }
    }
    Ok(())
}

/// An integer target's loop, one of its own for each target (see [`int_element`]).
struct IntLoop<'o, I> {
    texts: I,
    out: &'o mut [u8],
    to: DType,
}

impl<'t, I: Iterator<Item = (usize, StringView<'t>)>> IntJob for IntLoop<'_, I> {
    type Out = Result<(), Error>;

    #[inline(never)]
    fn run<const BYTES: usize, const SIGNED: bool>(self) -> Result<(), Error> {
        for ((i, view), slot) in self.texts.zip(self.out.chunks_exact_mut(BYTES)) {
            int_element::<BYTES, SIGNED>(i, view, slot, self.to)?;
        }
        Ok(())
    }
}

/// Element `i` of an integer target: a text of 1 to 8 bytes that is a plain integer is
/// read inline by [`tiny_integer`], the reader [`parse_int`] starts with, without the
/// trim before it (a text with C whitespace in it is not a plain integer, and goes the
/// general way, which trims first); every other text goes the general way, out of line.
#[inline(always)]
fn int_element<const BYTES: usize, const SIGNED: bool>(
    i: usize,
    view: StringView,
    slot: &mut [u8],
    to: DType,
) -> Result<(), Error> {
    match view.short_bytes::<8>().and_then(tiny_integer) {
        Some((negative, magnitude)) => {
            store_magnitude::<BYTES, SIGNED>(negative, magnitude, slot);
            Ok(())
        }
        None => parse_one(i, view, slot, to, parse_int::<BYTES, SIGNED>),
    }
}

/// [`parse_each`] of a run of a contiguous STRING tensor's views: `slots` the bytes of the
/// views of elements `first..` (as many as `output` holds). The integer targets take
/// them by index, in a loop with one counter ([`ViewsLoop`]).
pub fn parse_views(
    slots: &[u8],
    first: usize,
    output: &mut crate::tensor::TensorMut,
    options: &CastOptions,
) -> Result<(), Error> {
    let to = output.layout().dtype();
    if let Some(Repr::Std(scalar)) = Repr::of(to) {
        let job = ViewsLoop {
            slots,
            first,
            out: output.data(),
            to,
        };
        if let Ok(done) = for_int(scalar, job) {
            return done;
        }
    }
    let texts = ViewTexts {
        slots,
        index: first,
    };
    parse_each(texts, output, options)
}

/// The arguments of [`parse_views_int`], for [`for_int`].
struct ViewsLoop<'s, 'o> {
    slots: &'s [u8],
    first: usize,
    out: &'o mut [u8],
    to: DType,
}

impl IntJob for ViewsLoop<'_, '_> {
    type Out = Result<(), Error>;

    fn run<const BYTES: usize, const SIGNED: bool>(self) -> Result<(), Error> {
        parse_views_int::<BYTES, SIGNED>(self.slots, self.first, self.out, self.to)
    }
}

/// An integer target's loop over views by index, two elements a step: two texts of 1 to
/// 3 bytes that are plain integers are read together by [`tiny_integer_pair`] (the
/// texts of small numbers: pixel values, labels, counts); otherwise each element goes
/// its own way ([`int_element`]).
#[inline(never)]
fn parse_views_int<const BYTES: usize, const SIGNED: bool>(
    slots: &[u8],
    first: usize,
    out: &mut [u8],
    to: DType,
) -> Result<(), Error> {
    let n = (slots.len() / VIEW_BYTES).min(out.len() / BYTES);
    let paired = n / 2 * 2;
    let (slots, tail_slot) = slots.split_at(paired * VIEW_BYTES);
    let (out, tail_out) = out.split_at_mut(paired * BYTES);
    // The chunk sizes are constants here: a zip of the two runs by one index.
    let pairs = slots
        .chunks_exact(2 * VIEW_BYTES)
        .zip(out.chunks_exact_mut(2 * BYTES));
    for (k, (two, out)) in pairs.enumerate() {
        let i = first + 2 * k;
        let (a, b) = two.split_at(VIEW_BYTES);
        let (a, b) = (StringView::read_from(a), StringView::read_from(b));
        let (out_a, out_b) = out.split_at_mut(BYTES);
        let both = a
            .short_bytes::<3>()
            .zip(b.short_bytes::<3>())
            .and_then(|(a, b)| tiny_integer_pair(a, b));
        match both {
            Some([(negative_a, a), (negative_b, b)]) => {
                store_magnitude::<BYTES, SIGNED>(negative_a, a, out_a);
                store_magnitude::<BYTES, SIGNED>(negative_b, b, out_b);
            }
            None => {
                int_element::<BYTES, SIGNED>(i, a, out_a, to)?;
                int_element::<BYTES, SIGNED>(i + 1, b, out_b, to)?;
            }
        }
    }
    if n > paired {
        let view = StringView::read_from(tail_slot);
        int_element::<BYTES, SIGNED>(first + paired, view, &mut tail_out[..BYTES], to)?;
    }
    Ok(())
}

/// A run of views of a contiguous STRING tensor, each with its element's index: the view
/// size a constant of the type (not a field, as in `chunks_exact`), so that a parse loop
/// taking them has no multiply or length check per element.
struct ViewTexts<'a> {
    slots: &'a [u8],
    index: usize,
}

impl<'a> Iterator for ViewTexts<'a> {
    type Item = (usize, StringView<'a>);

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        let (slot, rest) = self.slots.split_first_chunk::<VIEW_BYTES>()?;
        self.slots = rest;
        let i = self.index;
        self.index += 1;
        Some((i, StringView::read_from(slot)))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.slots.len() / VIEW_BYTES;
        (n, Some(n))
    }
}

/// One element the general way: its view read, its text trimmed and parsed by `read`.
#[inline(never)]
fn parse_one(
    i: usize,
    view: StringView,
    slot: &mut [u8],
    to: DType,
    read: impl Fn(&[u8], &mut [u8]) -> Option<()>,
) -> Result<(), Error> {
    let text = view.bytes(i)?;
    read(trim(text), slot).ok_or_else(|| parse_error(i, text, to))
}

/// Elements a contiguous output of `dtype` holding `bytes` bytes has room for.
fn output_count(dtype: DType, bytes: usize) -> usize {
    bytes * 8 / dtype.bits() as usize
}

#[cfg(test)]
mod tests {
    use super::FastText;
    use crate::testutil::{samples, Rng};

    /// A random decimal text of one of the plain forms.
    fn random_text(rng: &mut Rng) -> String {
        let count = 1 + rng.below(24) as usize;
        let mut d: String = (0..count)
            .map(|_| char::from(b'0' + rng.below(10) as u8))
            .collect();
        if rng.below(4) == 0 {
            d.insert_str(0, &"0".repeat(rng.below(10) as usize));
        }
        let mut text = String::new();
        match rng.below(3) {
            0 => text.push('-'),
            1 => text.push('+'),
            _ => {}
        }
        let point = rng.below(d.len() as u64 + 2) as usize;
        if point <= d.len() && rng.below(3) != 0 {
            text.push_str(&d[..point]);
            text.push('.');
            text.push_str(&d[point..]);
        } else {
            text.push_str(&d);
        }
        if rng.below(3) != 0 {
            text.push(if rng.below(2) == 0 { 'e' } else { 'E' });
            let e = rng.below(800) as i64 - 400;
            if e >= 0 && rng.below(2) == 0 {
                text.push('+');
            }
            text.push_str(&e.to_string());
        }
        text
    }

    /// Compares both fast paths with the general parser; returns which of them decided.
    fn check(text: &str) -> (bool, bool) {
        let want64: Option<f64> = fast_float2::parse(text.as_bytes()).ok();
        let want32: Option<f32> = fast_float2::parse(text.as_bytes()).ok();
        let got64 = f64::fast(text.as_bytes());
        let got32 = f32::fast(text.as_bytes());
        if let Some(v) = got64 {
            assert_eq!(Some(v.to_bits()), want64.map(f64::to_bits), "f64 {text:?}");
        }
        if let Some(v) = got32 {
            assert_eq!(Some(v.to_bits()), want32.map(f32::to_bits), "f32 {text:?}");
        }
        (got64.is_some(), got32.is_some())
    }

    #[test]
    fn agrees_with_the_general_parser_on_random_texts() {
        let mut rng = Rng(0x0dec_13a1);
        let (mut fast64, mut fast32) = (0, 0);
        let n = samples(400_000);
        for _ in 0..n {
            let (a, b) = check(&random_text(&mut rng));
            fast64 += usize::from(a);
            fast32 += usize::from(b);
        }
        // Most texts (19 significant digits or fewer) take the fast path.
        assert!(fast64 > n / 2 && fast32 > n / 2, "{fast64} {fast32} of {n}");
    }

    #[test]
    fn agrees_on_the_texts_of_random_values() {
        let mut rng = Rng(0x5eed);
        for _ in 0..samples(300_000) {
            let bits = rng.next();
            let x = f64::from_bits(bits);
            if x.is_finite() {
                assert_eq!(check(&format!("{x:e}")), (true, true), "{x:e}");
                check(&format!("{x}"));
            }
            let y = f32::from_bits(bits as u32);
            if y.is_finite() {
                check(&format!("{y:e}"));
                check(&format!("{y}"));
            }
        }
    }

    #[test]
    fn boundaries_and_other_forms() {
        for text in [
            "0",
            "-0",
            "0.0",
            "1",
            "5.",
            ".5",
            "+.5",
            "-.5e-3",
            "1e0",
            "9007199254740993",
            "9007199254740992",
            "9007199254740995",
            "2.2250738585072011e-308",
            "2.2250738585072014e-308",
            "2.2250738585072012e-308",
            "4.9406564584124654e-324",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "1e309",
            "1e-400",
            "1e23",
            "8.98846567431158e307",
            "3.4028234663852886e38",
            "3.4028235677973366e38",
            "3.4028235677973367e38",
            "1.401298464324817e-45",
            "7.006492321624085e-46",
            "7.006492321624086e-46",
            "1.1754942e-38",
            "1.17549435e-38",
            "16777217",
            "33554435",
            "0.1",
            "0.2",
            "0.3",
            "123456789012345678",
            "9999999999999999999",
            "0.00000000000000000000000000000000000001",
            "1e-45",
            "1e38",
            "3.5e38",
            "0.000000001234567890123",
            "-0.0e5",
            "1E+05",
            // 16 to 32 bytes, the wide scanner's lengths, well and badly formed
            "1.234567890123456e-300",
            "-1234567890.123456",
            "+0.0000000000000001",
            "1.234567890123456x",
            "1.2.34567890123456",
            "12345678901234567e5e",
            "1234567890123456e+00",
            "-9.999999999999999e+308",
            "1.5e-0000000000005",
            "0.00000000000000000000001",
            "123456789012345678.9e1",
            "1e-5e-5e-5e-5e-5e",
            "1234567890123456789012345678",
            "-.123456789012345678",
            "12345678901234.e-11",
            "1.2345678901234e+1234",
            "1.2345678901234e-+12",
            "1.2345678901234e12 ",
        ] {
            check(text);
        }
        // Forms the fast path leaves to the general parser.
        for text in [
            "inf",
            "-Infinity",
            "nan",
            "1e",
            ".",
            "+",
            "-",
            "1_0",
            "0x10",
            "1.2.3",
            "e5",
            "12345678901234567890",
            "1e+",
            "--1",
        ] {
            assert_eq!(f64::fast(text.as_bytes()), None, "{text}");
        }
    }
}
