// SPDX-License-Identifier: MIT OR Apache-2.0
//! Numbers -> text: one formatter per source type, chosen once per call, writing each
//! element's text in place in the caller's arena. Integers in decimal, BOOL
//! "True"/"False", NaN/inf as "NaN", "INF", "-INF", and floats in the layout of the
//! [`StringFormat`] asked for (`layout.rs`); a float format's text behaviour is one
//! [`FloatText`] table entry.

use super::super::options::{StringFormat, SubByteLayout};
use super::form::{text_repr, PACKED_BLOCK};
use super::layout::{printf_g, shortest_bf16, shortest_f16, shortest_low};
use super::scratch::{push, push_u64, Scratch, SCRATCH_BYTES};
use super::shortest::{double_element, float_element};
use crate::dtype::{DType, Scalar};
use crate::error::Error;
use crate::formats::dispatch::{by_format, FormatVisitor};
use crate::formats::elem::Elem;
use crate::formats::lowp;
use crate::formats::repr::Repr;
use crate::formats::{convert, pack};

/// How one float format turns into text: how its shortest round-trip digits are found,
/// and numpy's positional / scientific threshold U (`1e-4 <= |x| < U` is positional).
struct FloatText {
    /// Values at or above this magnitude are written in scientific form.
    upper: f64,
    /// Writes the shortest digits of a finite, non-negative value of the format in
    /// numpy's layout for a threshold U.
    shortest: fn(f64, f64, &mut Scratch),
    /// Significant digits of the printf form: 8 ("%.8g"), 17 for DOUBLE.
    printf_digits: usize,
}

/// The table: one entry per float storage formatted from its value as f64 (FLOAT and
/// DOUBLE are formatted from their bits: [`format_f32`], [`format_f64`]).
#[inline(always)]
fn float_text(source: Scalar) -> Option<FloatText> {
    let (upper, shortest, printf_digits): (f64, fn(f64, f64, &mut Scratch), usize) = match source {
        Scalar::F16 => (1e3, shortest_f16, 8),
        Scalar::Bf16 => (1e3, shortest_bf16, 8),
        _ => return None,
    };
    Some(FloatText {
        upper,
        shortest,
        printf_digits,
    })
}

/// NaN, "INF" and "-INF" in full, or a finite value's sign ('-' or nothing): its
/// magnitude is then left to write.
#[inline(always)]
fn special_or_sign(x: f64, out: &mut Scratch) -> Option<f64> {
    if x.is_nan() {
        push(out, b"NaN");
        return None;
    }
    if x.is_infinite() {
        push(out, if x < 0.0 { b"-INF" } else { b"INF" });
        return None;
    }
    // The sign without a branch (signs are often random): '-' is always written, and
    // kept only for a negative value; otherwise the text below overwrites it.
    out.buf[out.len] = b'-';
    out.len += usize::from(x.is_sign_negative());
    Some(x.abs())
}

/// Writes a float value (exact as f64) of a format described by `spec`.
#[inline(always)]
fn write_float(x: f64, spec: &FloatText, format: StringFormat, out: &mut Scratch) {
    let Some(magnitude) = special_or_sign(x, out) else {
        return;
    };
    match format {
        StringFormat::Shortest => (spec.shortest)(magnitude, spec.upper, out),
        StringFormat::Printf8g => printf_text(magnitude, spec.printf_digits, out),
    }
}

/// [`printf_g`], kept out of the loops that format the shortest text.
#[inline(never)]
fn printf_text(magnitude: f64, precision: usize, out: &mut Scratch) {
    printf_g(magnitude, precision, out)
}

/// Reads an element of 1, 2, 4 or 8 bytes, in the host's byte order as every element
/// is (docs/c-api.md section 4), as raw bits.
#[inline]
fn load_bits(bytes: &[u8]) -> u64 {
    match bytes.len() {
        1 => u64::from(bytes[0]),
        2 => u64::from(u16::load(bytes)),
        4 => u64::from(u32::load(bytes)),
        _ => u64::load(&bytes[..8]),
    }
}

/// Formats one element (its native bytes) into `out`.
type Formatter = fn(&[u8], StringFormat, &mut Scratch);

fn format_bool(bytes: &[u8], _: StringFormat, out: &mut Scratch) {
    push(out, if bytes[0] != 0 { b"True" } else { b"False" });
}

fn format_unsigned(bytes: &[u8], _: StringFormat, out: &mut Scratch) {
    push_u64(out, load_bits(bytes));
}

#[inline(always)]
fn format_signed(bytes: &[u8], _: StringFormat, out: &mut Scratch) {
    let shift = 64 - 8 * bytes.len() as u32;
    let v = ((load_bits(bytes) << shift) as i64) >> shift;
    // The sign without a branch (signs come in no order a predictor could learn): '-'
    // written always, kept only for a negative value (else the first digit overwrites
    // it; every text has at least one digit, so nothing is written past the text).
    out.buf[out.len] = b'-';
    out.len += usize::from(v < 0);
    push_u64(out, v.unsigned_abs());
}

/// FLOAT: the shortest text decided on its bits ([`float_element`]), or %.8g of its
/// value.
#[inline(always)]
fn format_f32(bytes: &[u8], format: StringFormat, out: &mut Scratch) {
    let bits = u32::load(bytes);
    match format {
        StringFormat::Shortest => float_element(bits, out),
        StringFormat::Printf8g => {
            if let Some(magnitude) = special_or_sign(f64::from(f32::from_bits(bits)), out) {
                printf_text(magnitude, 8, out);
            }
        }
    }
}

/// DOUBLE: as [`format_f32`], %.17g in the printf format.
#[inline(always)]
fn format_f64(bytes: &[u8], format: StringFormat, out: &mut Scratch) {
    let bits = u64::load(bytes);
    match format {
        StringFormat::Shortest => double_element(bits, out),
        StringFormat::Printf8g => {
            if let Some(magnitude) = special_or_sign(f64::from_bits(bits), out) {
                printf_text(magnitude, 17, out);
            }
        }
    }
}

fn format_f16(bytes: &[u8], format: StringFormat, out: &mut Scratch) {
    let x = convert::f16_bits_to_f32(load_bits(bytes) as u16);
    let spec = float_text(Scalar::F16).expect("FLOAT16 has a text entry");
    write_float(f64::from(x), &spec, format, out);
}

fn format_bf16(bytes: &[u8], format: StringFormat, out: &mut Scratch) {
    let x = convert::bf16_bits_to_f32(load_bits(bytes) as u16);
    let spec = float_text(Scalar::Bf16).expect("BFLOAT16 has a text entry");
    write_float(f64::from(x), &spec, format, out);
}

fn format_low<const F: u8>(bytes: &[u8], format: StringFormat, out: &mut Scratch) {
    match lowp::FORMATS[F as usize].kind {
        lowp::Kind::Int { .. } => {
            let v = lowp::decode_int::<F>(bytes[0]);
            if v < 0 {
                push(out, b"-");
            }
            push_u64(out, u64::from(v.unsigned_abs()));
        }
        _ => {
            let spec = FloatText {
                upper: 1e3,
                shortest: shortest_low::<F>,
                printf_digits: 8,
            };
            write_float(
                f64::from(lowp::decode_f32::<F>(bytes[0])),
                &spec,
                format,
                out,
            );
        }
    }
}

pub(super) fn low_formatter(format: u8) -> Formatter {
    struct Low;
    impl FormatVisitor for Low {
        type Out = Formatter;
        fn visit<const F: u8>(self) -> Formatter {
            format_low::<F>
        }
    }
    by_format(format, Low)
}

fn formatter(source: Scalar) -> Formatter {
    match source {
        Scalar::Bool => format_bool,
        Scalar::I8 | Scalar::I16 | Scalar::I32 | Scalar::I64 => format_signed,
        Scalar::U8 | Scalar::U16 | Scalar::U32 | Scalar::U64 => format_unsigned,
        Scalar::F16 => format_f16,
        Scalar::Bf16 => format_bf16,
        Scalar::F32 => format_f32,
        Scalar::F64 => format_f64,
        Scalar::C64 | Scalar::C128 => {
            unreachable!("complex -> STRING is refused before formatting")
        }
    }
}

#[cfg(test)]
pub(super) fn format_element(
    source: Scalar,
    bytes: &[u8],
    format: StringFormat,
    out: &mut Scratch,
) {
    formatter(source)(bytes, format, out)
}

/// An upper bound on the text of one element of `dtype` in any format; 0 for STRING,
/// complex and unknown dtypes.
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
        Some(Scalar::C64 | Scalar::C128) => 0,
        None => match lowp::format_of(dtype).map(|f| lowp::FORMATS[f as usize].kind) {
            // "-8", "15", "-2", "3"
            Some(lowp::Kind::Int { .. }) => 2,
            // "-5.8774718e-39" at the longest (FLOAT8E8M0's 2^-127 in %.8g)
            Some(_) => 16,
            None => 0,
        },
    }
}

/// Formats every element of a numeric tensor (row-major order) into `arena`, one text
/// after another from byte `start` on, and reports each text's place with
/// `place(element, offset, len)`. Returns the arena's new end. When the arena runs out,
/// fails with BUFFER_TOO_SMALL naming the bytes the texts need (the arena's bytes past
/// `start` are then unspecified).
pub fn format_into(
    input: &crate::tensor::Tensor,
    format: StringFormat,
    arena: &mut [u8],
    start: usize,
    place: impl FnMut(usize, usize, usize),
) -> Result<usize, Error> {
    let from = input.layout().dtype();
    let repr = text_repr(from, format_args!("cast from {from} to STRING"))?;
    let job = FormatJob {
        input,
        data: input.data(),
        format,
        start,
    };
    // The hot types get a loop of their own: INT64's formatting inlined into it,
    // FLOAT's and DOUBLE's one direct call per element.
    match repr {
        Repr::Std(Scalar::F32) => job.run(FloatElement, 4, arena, place),
        Repr::Std(Scalar::F64) => job.run(DoubleElement, 8, arena, place),
        Repr::Std(Scalar::I64) => job.run(Int64Element, 8, arena, place),
        Repr::Std(source) => job.run(formatter(source), source.size(), arena, place),
        Repr::Low(f) => job.run(low_formatter(f), 1, arena, place),
    }
}

/// Formats one element (its native bytes) at the start of `room` ([`SCRATCH_BYTES`]
/// bytes) and returns the text's length.
trait WriteElement {
    fn write(&self, bytes: &[u8], format: StringFormat, room: &mut [u8]) -> usize;
}

/// A formatter called through a pointer.
impl WriteElement for Formatter {
    #[inline(always)]
    fn write(&self, bytes: &[u8], format: StringFormat, room: &mut [u8]) -> usize {
        let mut out = Scratch::over(room);
        self(bytes, format, &mut out);
        out.len
    }
}

/// INT64, inlined into its loop.
struct Int64Element;

impl WriteElement for Int64Element {
    #[inline(always)]
    fn write(&self, bytes: &[u8], format: StringFormat, room: &mut [u8]) -> usize {
        let mut out = Scratch::over(room);
        format_signed(bytes, format, &mut out);
        out.len
    }
}

/// FLOAT and DOUBLE: one call per element that returns the length in a register (the
/// room's state stays inside the call).
macro_rules! out_of_line {
    ($($name:ident: $formatter:ident via $function:ident;)*) => {$(
        struct $name;

        #[inline(never)]
        fn $function(bytes: &[u8], format: StringFormat, room: &mut [u8]) -> usize {
            let mut out = Scratch::over(room);
            $formatter(bytes, format, &mut out);
            out.len
        }

        impl WriteElement for $name {
            #[inline(always)]
            fn write(&self, bytes: &[u8], format: StringFormat, room: &mut [u8]) -> usize {
                $function(bytes, format, room)
            }
        }
    )*};
}

out_of_line! {
    FloatElement: format_f32 via format_f32_into;
    DoubleElement: format_f64 via format_f64_into;
}

/// One format_into call's input and settings.
struct FormatJob<'a> {
    input: &'a crate::tensor::Tensor<'a>,
    data: &'a [u8],
    format: StringFormat,
    start: usize,
}

/// Where the texts go: the arena, the end of the texts so far, and the bytes still
/// needed once it has run out.
struct Sink<'a, P> {
    arena: &'a mut [u8],
    end: usize,
    overflow: usize,
    place: P,
}

impl<P: FnMut(usize, usize, usize)> Sink<'_, P> {
    /// Formats element `i` (its bytes) after the texts so far; inlined into each type's
    /// loop, so that the loop's state stays in registers.
    #[inline(always)]
    fn put(&mut self, write: &impl WriteElement, format: StringFormat, i: usize, bytes: &[u8]) {
        let end = self.end;
        if self.overflow == 0 && self.arena.len() - end >= SCRATCH_BYTES {
            // Build the text in place.
            let len = write.write(bytes, format, &mut self.arena[end..end + SCRATCH_BYTES]);
            (self.place)(i, end, len);
            self.end = end + len;
            return;
        }
        // Less room left: the text is built on the stack and copied if it fits, else
        // counted.
        let mut space = [0u8; SCRATCH_BYTES];
        let len = write.write(bytes, format, &mut space);
        if self.overflow == 0 && len <= self.arena.len() - end {
            self.arena[end..end + len].copy_from_slice(&space[..len]);
            (self.place)(i, end, len);
            self.end = end + len;
        } else {
            self.overflow += len;
        }
    }
}

impl FormatJob<'_> {
    fn run(
        &self,
        write: impl WriteElement,
        size: usize,
        arena: &mut [u8],
        place: impl FnMut(usize, usize, usize),
    ) -> Result<usize, Error> {
        let (format, start, data) = (self.format, self.start, self.data);
        let capacity = arena.len();
        let mut sink = Sink {
            arena,
            end: start,
            overflow: 0,
            place,
        };
        let layout = self.input.layout();
        let dtype = layout.dtype();
        if layout.sub_byte_layout() == SubByteLayout::Unpacked {
            // One code per byte in the low bits, the high bits ignored.
            let mask = (1u8 << dtype.bits()) - 1;
            for (i, offset) in layout.offsets().enumerate() {
                sink.put(&write, format, i, &[data[offset] & mask]);
            }
        } else if dtype.is_packed() {
            // Unpacked a block at a time on the stack (packed tensors are contiguous).
            let (bits, count) = (dtype.bits(), self.input.layout().count());
            let mut block = [0u8; PACKED_BLOCK];
            for first in (0..count).step_by(PACKED_BLOCK) {
                let m = PACKED_BLOCK.min(count - first);
                pack::unpack(
                    bits,
                    &data[pack::packed_bytes(bits, first)..],
                    &mut block[..m],
                );
                for (k, code) in block[..m].chunks_exact(1).enumerate() {
                    sink.put(&write, format, first + k, code);
                }
            }
        } else if self.input.layout().strides().is_none() {
            for (i, bytes) in data.chunks_exact(size).enumerate() {
                sink.put(&write, format, i, bytes);
            }
        } else {
            for (i, offset) in self.input.layout().offsets().enumerate() {
                sink.put(&write, format, i, &data[offset..offset + size]);
            }
        }
        let (end, overflow) = (sink.end, sink.overflow);
        if overflow > 0 {
            return Err(Error::BufferTooSmall(format!(
                "arena has {} free bytes (capacity {capacity}, used {start}) but the texts need {} bytes",
                capacity - start,
                end - start + overflow
            )));
        }
        Ok(end)
    }
}
