// SPDX-License-Identifier: MIT OR Apache-2.0
//! The low-precision decoders, written once over [`Bytes`], a vector of byte lanes whose
//! table lookups are byte shuffles: the 4-bit, 2-bit and 6-bit formats from their
//! packed codes ([`packed`]), the signed 8-bit floats by the rule of `Lut::EIGHTS`
//! ([`eights`]) and FLOAT8E8M0 by arithmetic ([`e8m0`]), each to FLOAT, FLOAT16 and
//! BFLOAT16 (`formats/lut.rs`'s table targets). Each ISA (`x86_64/cast.rs`: AVX2, 32
//! lanes; `aarch64/cast.rs`: NEON, 16) implements the trait with its intrinsics
//! (`simd/bytes.rs`) and declares its family's loops through [`decoder_family!`].
//!
//! A kernel's entry point is compiled per format and target, but holds only a call: the
//! loops take the format's tables as arguments and are compiled per code width, target
//! and lookup, with the family's features, once for all formats
//! ([`DecoderFamily`]). Everything else here is `#[inline(always)]` and without target
//! features, inlined into those loops.

use crate::formats::lowp::{Kind, FORMATS};
use crate::formats::lut::{lut_size, Eights, Lut, Sixes, LUT_BF16, LUT_F32};
use crate::formats::pack;
use crate::simd::bytes::Bytes;
use crate::simd::family::{Body, Run};
use crate::simd::kernel::{Kernel, STREAM_MIN_BYTES};
use crate::simd::lanes::Halves;
use std::marker::PhantomData;

/// How [`packed`] looks a code's entry up: 4-bit and 2-bit codes by one 16-entry lookup
/// per byte of the entry.
pub(crate) const NIBBLES: u8 = 0;
/// 6-bit codes by one 64-entry lookup per byte of the entry.
pub(crate) const SIXES: u8 = 1;
/// 6-bit codes of a format whose entries split into magnitude and sign
/// (`Lut::SIGNED_SIXES`) by one 32-entry lookup of the magnitude per byte of the
/// 16-bit entry, the sign ORed in (FLOAT by the BFLOAT16 entries, widened).
pub(crate) const SIGNED: u8 = 2;

/// [`packed`]'s code width for sub-byte codes held one per byte (an unpacked tensor's
/// bytes): each byte read as it is, its code the low bits [`PackedTables`]' mask keeps.
pub(crate) const HELD: u8 = 8;

/// The tables a packed decoder of one format and target reads.
pub(crate) struct PackedTables {
    /// The format's code bits, set ([`HELD`] codes are the bytes' bits under it).
    mask: u8,
    /// The entries of the 256 codes (`Lut::TABLES`), for the tail.
    table: &'static [u32; 256],
    /// `Lut::NIBBLES`: byte planes of the first 16 entries.
    nibbles: &'static [[u8; 32]; 4],
    /// `Lut::SIX_PLANES`: byte planes of the first 64 entries.
    sixes: &'static [[u8; 64]; 4],
    /// `Lut::SIGNED_SIXES` where the format's entries split so (else unused).
    signed: &'static Sixes,
}

/// [`PackedTables::signed`] of a format whose entries do not split.
static NO_SIXES: Sixes = Sixes {
    planes: [[0; 32]; 4],
};

impl PackedTables {
    fn of<const F: u8, const T: u8>() -> PackedTables {
        PackedTables {
            mask: ((1u16 << FORMATS[F as usize].bits) - 1) as u8,
            table: &Lut::<F>::TABLES[T as usize],
            nibbles: &Lut::<F>::NIBBLES[T as usize],
            sixes: &Lut::<F>::SIX_PLANES[T as usize],
            signed: signed_sixes::<F, T>().unwrap_or(&NO_SIXES),
        }
    }
}

/// The entry of `per_target` (a format's by table target) that a decoder of format `F`
/// to table target `T` reads: its own, or for FLOAT the BFLOAT16 one, each result the
/// top half of a 32-bit lane (exact where `Lut::F32_IS_BF16_WIDENED`).
fn for_target<const F: u8, const T: u8, R>(
    per_target: &'static [Option<R>; 3],
) -> Option<&'static R> {
    let target = match T {
        LUT_F32 if Lut::<F>::F32_IS_BF16_WIDENED => LUT_BF16,
        LUT_F32 => return None,
        _ => T,
    };
    per_target[target as usize].as_ref()
}

/// The magnitude-and-sign tables of a 6-bit format `F` for table target `T`, if its
/// entries split so.
fn signed_sixes<const F: u8, const T: u8>() -> Option<&'static Sixes> {
    for_target::<F, T, _>(Lut::<F>::SIGNED_SIXES)
}

/// The `Lut::EIGHTS` rule of a signed 8-bit float format `F` for table target `T`.
fn eights_rule<const F: u8, const T: u8>() -> Option<&'static Eights> {
    for_target::<F, T, _>(Lut::<F>::EIGHTS)
}

/// A decoder's loop over one part of a call, streaming its stores where `stream`.
trait PartRun<V: Bytes> {
    /// # Safety
    /// The CPU runs `V`'s family; the slices are the loop's (`dst` 32-byte aligned
    /// where `stream`).
    unsafe fn run(&self, src: &[u8], dst: &mut [u8], stream: bool);
}

/// Runs `run` over a call: on a family with streaming stores, for an output of at
/// least [`STREAM_MIN_BYTES`] whose first 32-byte boundary falls on a whole unit
/// (`dst_unit` output bytes of `src_unit` input bytes), up to that boundary and then
/// streaming the rest (each vector store of which stays aligned: a step writes whole
/// multiples of 32 bytes), then a fence; otherwise over the whole call. Streaming skips
/// the read for ownership of the output, and the kernel doing it itself the second pass
/// over `exec::run_contiguous`'s staging buffer.
///
/// # Safety
/// As `R::run`'s, for the whole call.
#[inline(always)]
unsafe fn in_parts<V: Bytes, R: PartRun<V>>(
    run: &R,
    src: &[u8],
    dst: &mut [u8],
    src_unit: usize,
    dst_unit: usize,
) {
    let head = dst.as_ptr().align_offset(32);
    let streams = V::STREAMS && dst.len() >= STREAM_MIN_BYTES && head % dst_unit == 0;
    let (src_head, src_rest, dst_head, dst_rest): (&[u8], &[u8], &mut [u8], &mut [u8]) = if streams
    {
        let (dst_head, dst_rest) = dst.split_at_mut(head);
        let (src_head, src_rest) = src.split_at(head / dst_unit * src_unit);
        (src_head, src_rest, dst_head, dst_rest)
    } else {
        (src, &[], dst, &mut [])
    };
    // SAFETY: the caller's promise, for each part.
    unsafe {
        run.run(src_head, dst_head, false);
        if streams {
            run.run(src_rest, dst_rest, true);
            V::fence();
        }
    }
}

/// Writes the entries (`table`, `size` bytes each) of `codes` into `dst`: what a vector
/// loop leaves.
#[inline(always)]
fn table_tail(table: &[u32; 256], size: usize, codes: impl Iterator<Item = u8>, dst: &mut [u8]) {
    for (code, di) in codes.zip(dst.chunks_exact_mut(size)) {
        let entry = table[usize::from(code)];
        if size == 4 {
            di.copy_from_slice(&entry.to_ne_bytes());
        } else {
            di.copy_from_slice(&(entry as u16).to_ne_bytes());
        }
    }
}

/// Stores one step's entries, byte planes `b0` to `b3` of the 32-bit ones (FLOAT) or
/// `b0` and `b1` of the 16-bit ones (`in_order`: of codes in the stores' order,
/// [`Bytes::unpack`]).
///
/// # Safety
/// The CPU runs `V`'s family; `out` holds the step's output (aligned when `stream`).
#[inline(always)]
unsafe fn store_planes<V: Bytes, const T: u8>(
    out: *mut u8,
    b: [V; 4],
    in_order: bool,
    stream: bool,
) {
    // SAFETY: the caller's promise.
    unsafe {
        let low = V::zip(b[0], b[1]);
        if T == LUT_F32 {
            V::store32(out, low, V::zip(b[2], b[3]), in_order, stream);
        } else {
            V::store16(out, low, in_order, stream);
        }
    }
}

/// Stores one step's 16-bit entries, given as their low and high bytes: as they are,
/// or for FLOAT as the top halves of the f32 values (a bfloat16 entry widened).
///
/// # Safety
/// As [`store_planes`]'s.
#[inline(always)]
unsafe fn store_halves<V: Bytes, const T: u8>(
    out: *mut u8,
    lo: V,
    hi: V,
    in_order: bool,
    stream: bool,
) {
    // SAFETY: the caller's promise.
    unsafe {
        let zero = V::splat(0);
        let planes = if T == LUT_F32 {
            [zero, zero, lo, hi]
        } else {
            [lo, hi, zero, zero]
        };
        store_planes::<V, T>(out, planes, in_order, stream);
    }
}

/// A 4-bit, 2-bit or 6-bit format's decoder to table target `T`, reading `BITS`-bit
/// packed codes itself, `V::WIDTH` codes per step: unpacked to one per byte
/// ([`Bytes::unpack`]; [`HELD`]: codes held one per byte, loaded and masked) and looked up by byte shuffles as `LOOKUP` says ([`NIBBLES`],
/// [`SIXES`], [`SIGNED`]; `WIDE`: by the family's 32-byte permute). Large outputs are
/// streamed ([`in_parts`], the first boundary on an element that starts a byte or
/// a 3-byte group); the tail, whatever its length, is decoded code by code (`pack::get`),
/// so the unused high bits of a part-filled last byte are not read. Measured on AVX2
/// (benches/cast.rs), against unpacking in blocks then gathering: INT4 -> FLOAT 0.47x
/// memcpy to 1.0-1.1x, FLOAT4E2M1 -> FLOAT/FLOAT16/BFLOAT16 ~0.5x to 0.95-1.0x, INT2 ->
/// FLOAT 0.37x to 0.91x.
///
/// # Safety
/// The CPU runs `V`'s family (with `WIDE`, the one that has the permute); `tables` are
/// the format's; `src` holds the packed codes of `dst`'s elements (one byte each where
/// `BITS` is [`HELD`]).
#[inline(always)]
pub(crate) unsafe fn packed<
    V: Bytes,
    const BITS: u8,
    const T: u8,
    const LOOKUP: u8,
    const WIDE: bool,
>(
    tables: &PackedTables,
    src: &[u8],
    dst: &mut [u8],
) {
    // The codes of a whole number of bytes: 8 / bits (one for HELD), or 4 in 3 bytes.
    let (codes, bytes) = if BITS == 6 {
        (4, 3)
    } else {
        (8 / BITS as usize, 1)
    };
    let run = PackedRun::<V, BITS, T, LOOKUP, WIDE>(tables, PhantomData);
    // SAFETY: the caller's promise.
    unsafe { in_parts(&run, src, dst, bytes, codes * lut_size::<T>()) }
}

/// [`packed`]'s loop, for [`in_parts`].
struct PackedRun<'a, V, const BITS: u8, const T: u8, const LOOKUP: u8, const WIDE: bool>(
    &'a PackedTables,
    PhantomData<V>,
);

impl<V: Bytes, const BITS: u8, const T: u8, const LOOKUP: u8, const WIDE: bool> PartRun<V>
    for PackedRun<'_, V, BITS, T, LOOKUP, WIDE>
{
    #[inline(always)]
    unsafe fn run(&self, src: &[u8], dst: &mut [u8], stream: bool) {
        // SAFETY: the caller's promise.
        unsafe { packed_run::<V, BITS, T, LOOKUP, WIDE>(self.0, src, dst, stream) }
    }
}

/// [`packed`] on one part, streaming the vector stores when `stream`.
#[inline(always)]
unsafe fn packed_run<V: Bytes, const BITS: u8, const T: u8, const LOOKUP: u8, const WIDE: bool>(
    tables: &PackedTables,
    src: &[u8],
    dst: &mut [u8],
    stream: bool,
) {
    // SAFETY: the caller runs `V`'s family; the loads and stores stay inside the slices,
    // as noted at each.
    unsafe {
        let size = lut_size::<T>();
        let bits = usize::from(BITS);
        // Each lookup's tables (those `LOOKUP` does not read are left unused).
        let nibble = |p: usize| V::load(tables.nibbles[p].as_ptr());
        let nibbles = [nibble(0), nibble(1), nibble(2), nibble(3)];
        let six = |p: usize| V::table64(&tables.sixes[p]);
        let sixes = [six(0), six(1), six(2), six(3)];
        let planes = &tables.signed.planes;
        let magnitudes = [
            V::table32::<WIDE>(&planes[0], &planes[2]),
            V::table32::<WIDE>(&planes[1], &planes[3]),
        ];
        let zero = V::splat(0);
        let mask = V::splat(tables.mask);
        let step = V::WIDTH * bits / 8;
        // Whole steps; a part-filled last byte goes to the tail, and a 6-bit step reads
        // eight bytes past its codes.
        let mut steps = dst.len() / (V::WIDTH * size);
        if BITS == 6 {
            steps = steps.min(src.len().saturating_sub(8) / step);
        }
        // Packed codes unpacked in the stores' order where the ISA does so.
        let in_order = V::UNPACKS_IN_STORE_ORDER && BITS != HELD;
        let prefetch = src.len() >= V::PREFETCH_MIN;
        for (k, di) in dst
            .chunks_exact_mut(V::WIDTH * size)
            .take(steps)
            .enumerate()
        {
            // In bounds: `si` holds the step's packed codes (and eight more bytes for
            // 6-bit codes, by `steps` above), and `di` their output.
            let si = src[k * step..].as_ptr();
            if prefetch {
                V::prefetch_ahead(si);
            }
            let codes = if BITS == HELD {
                V::load(si).and(mask)
            } else {
                V::unpack::<BITS>(si, size)
            };
            let out = di.as_mut_ptr();
            if LOOKUP == SIGNED {
                let magnitude = codes.and(V::splat(0x1f));
                let lo = V::lookup32::<WIDE>(&magnitudes[0], magnitude);
                let hi = V::lookup32::<WIDE>(&magnitudes[1], magnitude);
                // The sign from bit 5 to the high byte's top bit: a code of 32 or more
                // carries into it (adds run on more ports than AVX2's shifts).
                let hi = hi.or(codes.add_sat(V::splat(0x60)).and(V::splat(0x80)));
                store_halves::<V, T>(out, lo, hi, in_order, stream);
            } else {
                let byte = |p: usize| match LOOKUP {
                    SIXES => V::lookup64(&sixes[p], codes),
                    _ => V::lookup16(nibbles[p], codes),
                };
                // The fifth and sixth planes are only read for FLOAT.
                let (b2, b3) = if T == LUT_F32 {
                    (byte(2), byte(3))
                } else {
                    (zero, zero)
                };
                store_planes::<V, T>(out, [byte(0), byte(1), b2, b3], in_order, stream);
            }
        }
        let packed = &src[steps * step..];
        let rest = &mut dst[steps * V::WIDTH * size..];
        let codes = (0..rest.len() / size).map(|i| {
            if BITS == HELD {
                packed[i] & tables.mask
            } else {
                pack::get(u32::from(BITS), packed, i)
            }
        });
        table_tail(tables.table, size, codes, rest);
    }
}

/// One step of a decoder of 8-bit codes: the entries of the `V::WIDTH` codes `c`
/// stored at `out` (streaming where `stream`), with what it reads prepared once per
/// call.
trait CodeStep<V: Bytes> {
    /// # Safety
    /// The CPU runs `V`'s family; `out` holds the step's output (aligned when `stream`).
    unsafe fn step(&self, c: V, out: *mut u8, stream: bool);
}

/// Runs `step` over the whole vectors of 8-bit codes in `src`, their entries of table
/// target `T` into `dst`, then looks the codes left over up in `table`. Large outputs
/// are streamed ([`in_parts`]) and large inputs prefetched ahead.
///
/// # Safety
/// The CPU runs `V`'s family; `step` and `table` are the format's for `T`;
/// `dst.len() == lut_size::<T>() * src.len()`.
#[inline(always)]
unsafe fn byte_codes<V: Bytes, const T: u8, S: CodeStep<V>>(
    step: &S,
    table: &[u32; 256],
    src: &[u8],
    dst: &mut [u8],
) {
    let run = ByteCodesRun::<V, T, S>(step, table, PhantomData);
    // SAFETY: the caller's promise.
    unsafe { in_parts(&run, src, dst, 1, lut_size::<T>()) }
}

/// [`byte_codes`]'s loop, for [`in_parts`].
struct ByteCodesRun<'a, V, const T: u8, S>(&'a S, &'a [u32; 256], PhantomData<V>);

impl<V: Bytes, const T: u8, S: CodeStep<V>> PartRun<V> for ByteCodesRun<'_, V, T, S> {
    #[inline(always)]
    unsafe fn run(&self, src: &[u8], dst: &mut [u8], stream: bool) {
        // SAFETY: the caller's promise.
        unsafe { byte_codes_run::<V, T, S>(self.0, self.1, src, dst, stream) }
    }
}

/// [`byte_codes`] on one part, streaming the vector stores when `stream`.
#[inline(always)]
unsafe fn byte_codes_run<V: Bytes, const T: u8, S: CodeStep<V>>(
    step: &S,
    table: &[u32; 256],
    src: &[u8],
    dst: &mut [u8],
    stream: bool,
) {
    let size = lut_size::<T>();
    let prefetch = src.len() >= V::PREFETCH_MIN;
    let mut s = src.chunks_exact(V::WIDTH);
    let mut d = dst.chunks_exact_mut(V::WIDTH * size);
    for (si, di) in (&mut s).zip(&mut d) {
        // SAFETY: the caller runs `V`'s family; `si` holds `WIDTH` readable bytes and
        // `di` their output.
        unsafe {
            if prefetch {
                V::prefetch_ahead(si.as_ptr());
            }
            step.step(V::load(si.as_ptr()), di.as_mut_ptr(), stream);
        }
    }
    let rest = s.remainder();
    table_tail(table, size, rest.iter().copied(), d.into_remainder());
}

/// [`EightsStep`]'s magnitudes: none above `max_code` (no infinity or NaN but 0x80's,
/// as FNUZ formats have it): the step skips the second lookups, about a fifth of its
/// work.
pub(crate) const SMALL_ONLY: u8 = 0;
/// Magnitudes above `max_code`, looked up.
pub(crate) const TOP: u8 = 1;
/// As [`TOP`], and the offset's low byte is zero (every FLOAT16 target, the BFLOAT16
/// ones of an even bias difference): the shifted magnitude is made on the bytes, its low
/// byte `mag << shift` and its high byte `mag >> (8 - shift)` plus the offset's, and
/// chosen against the entries there, so that one pair of byte interleaves makes the
/// results (where the 16-bit lanes took four pairs, two shifts and two adds).
pub(crate) const TOP_BYTES: u8 = 2;

/// A signed 8-bit float format's step to table target `T` in 16-bit lanes, by the rule
/// of its `Lut::EIGHTS` entry (`formats::lut::Eights`): the two 16-entry lookups and the
/// choice between them and the shifted magnitude done on the bytes, the shift, the add
/// and the sign on the 16-bit lanes (or all on the bytes, [`TOP_BYTES`]); FLOAT by the
/// BFLOAT16 rule, each result the top half of a 32-bit lane (`FNUZ`: a format without
/// -0, whose code 0x80 is NaN; `MAG`: [`SMALL_ONLY`], [`TOP`] or [`TOP_BYTES`], which
/// spare the work a format does not need).
/// Measured on AVX2 (benches/cast.rs): to the 16-bit targets 0.58-0.67x memcpy by the
/// table's gathers, 1.03-1.23x by this rule (0.37-0.51x decoding each code to f32
/// first). The source is prefetched ahead: without it the streamed loop ran at
/// 0.41-0.87x, differing by format though the loops differ only in constants.
struct EightsStep<V: Bytes, const T: u8, const FNUZ: bool, const MAG: u8> {
    small: [V; 2],
    top: [V; 2],
    max: V,
    shift: u32,
    offset: V::Words,
    /// The offset's high byte, in every lane ([`TOP_BYTES`]).
    offset_high: V,
    /// The low byte and the high byte but its sign of the code 0x80's entry.
    neg_zero: [V; 2],
}

impl<V: Bytes, const T: u8, const FNUZ: bool, const MAG: u8> CodeStep<V>
    for EightsStep<V, T, FNUZ, MAG>
{
    #[inline(always)]
    unsafe fn step(&self, c: V, out: *mut u8, stream: bool) {
        // SAFETY: the caller's promise; registers, and the store of the step's output.
        unsafe {
            let zero = V::splat(0);
            // Magnitudes are below 0x80: the lookups read entry `mag & 15`, and the
            // signed compares order them.
            let mag = c.and(V::splat(0x7f));
            let small = V::splat(16).gt(mag);
            let over = if MAG == SMALL_ONLY {
                zero
            } else {
                mag.gt(self.max)
            };
            let looked = over.or(small);
            let pick = |p: usize| {
                let entry = V::lookup16(self.small[p], mag);
                if MAG == SMALL_ONLY {
                    entry
                } else {
                    V::select(over, V::lookup16(self.top[p], mag), entry)
                }
            };
            let (lo, hi) = (pick(0), pick(1));
            // The sign's byte planes, with the code 0x80's entry of a format without -0.
            let sign = c.and(V::splat(0x80));
            let (sign_lo, sign_hi) = if FNUZ {
                let nan = c.eq(V::splat(0x80));
                let [lo, hi] = self.neg_zero;
                (nan.and(lo), sign.or(nan.and(hi)))
            } else {
                (zero, sign)
            };
            if MAG == TOP_BYTES {
                // No carry between the bytes: the offset's low byte is zero, and a
                // finite magnitude's high byte stays below 0x80 (no saturation).
                let value_lo = mag.shl_by(self.shift);
                let value_hi = mag.shr_by(8 - self.shift).add_sat(self.offset_high);
                let lo = V::select(looked, lo, value_lo).or(sign_lo);
                let hi = V::select(looked, hi, value_hi).or(sign_hi);
                let words = V::zip(lo, hi);
                if T == LUT_F32 {
                    V::store32(out, V::zip(zero, zero), words, false, stream);
                } else {
                    V::store16(out, words, false, stream);
                }
                return;
            }
            let half = |m: V::Words, entry: V::Words, looked: V::Words, sign: V::Words| {
                let value = V::shl_words(m, self.shift).add(self.offset);
                V::Words::select(looked, entry, value).or(sign)
            };
            let (m0, m1) = V::zip(mag, zero);
            let (e0, e1) = V::zip(lo, hi);
            let (l0, l1) = V::zip(looked, looked);
            let (s0, s1) = V::zip(sign_lo, sign_hi);
            let words = (half(m0, e0, l0, s0), half(m1, e1, l1, s1));
            if T == LUT_F32 {
                V::store32(out, V::zip(zero, zero), words, false, stream);
            } else {
                V::store16(out, words, false, stream);
            }
        }
    }
}

/// A signed 8-bit float format's decoder to table target `T` by its `Lut::EIGHTS`
/// rule ([`EightsStep`]).
///
/// # Safety
/// The CPU runs `V`'s family; `rule` and `table` are the format's for `T`;
/// `dst.len() == lut_size::<T>() * src.len()`.
#[inline(always)]
pub(crate) unsafe fn eights<V: Bytes, const T: u8, const FNUZ: bool, const MAG: u8>(
    rule: &Eights,
    table: &[u32; 256],
    src: &[u8],
    dst: &mut [u8],
) {
    // SAFETY: the caller's promise; the loads read the rule's 32-byte planes.
    unsafe {
        let load = |plane: &[u8; 32]| V::load(plane.as_ptr());
        debug_assert!((MAG == SMALL_ONLY) == (rule.max_code == 0x7f));
        debug_assert!(MAG != TOP_BYTES || (rule.shift <= 8 && rule.offset & 0xff == 0));
        let step = EightsStep::<V, T, FNUZ, MAG> {
            small: [load(&rule.small[0]), load(&rule.small[1])],
            top: [load(&rule.top[0]), load(&rule.top[1])],
            max: V::splat(rule.max_code),
            shift: rule.shift,
            offset: V::Words::splat(rule.offset),
            offset_high: V::splat((rule.offset >> 8) as u8),
            neg_zero: [
                V::splat(rule.neg_zero as u8),
                V::splat((rule.neg_zero >> 8) as u8 & 0x7f),
            ],
        };
        byte_codes::<V, T, _>(&step, table, src, dst)
    }
}

/// A FLOAT8E8M0-kind format's step to table target `T` by arithmetic on the bytes, the
/// low and high byte of each result computed for all the codes at once and interleaved.
/// FLOAT and BFLOAT16: the f32's top two bytes (the code is f32's exponent field, but
/// for 0, 2^-127 (an f32 subnormal), and 0xFF, NaN, each one bit (0x0040_0000) away
/// from what the shift gives; the low two bytes are zero). FLOAT16: the code less
/// `rebias` (the format's bias less f16's 15) is the f16 exponent field, saturated at
/// 31 (infinity); the 16 codes from `first` (2^-24, the smallest f16 subnormal) cover
/// the subnormals and the first normals and are looked up in two byte planes of their
/// entries (`small`); those below round to 0. Measured on AVX2 (benches/cast.rs): to
/// the 16-bit targets 0.61-0.65x memcpy by gathers, 0.79-0.97x through f32 lanes and
/// `vcvtps2ph`.
struct E8m0Step<V, const T: u8> {
    small: [V; 2],
    nan: [V; 2],
    first: u8,
    rebias: u8,
}

impl<V: Bytes, const T: u8> CodeStep<V> for E8m0Step<V, T> {
    #[inline(always)]
    unsafe fn step(&self, c: V, out: *mut u8, stream: bool) {
        // SAFETY: the caller's promise; registers, and the store of the step's output.
        unsafe {
            let ff = V::splat(0xff);
            let (lo, hi) = if T == LUT_F32 || T == LUT_BF16 {
                let ends = c.eq(V::splat(0)).or(c.eq(ff));
                (c.shl::<7>().or(ends.and(V::splat(0x40))), c.shr::<1>())
            } else {
                // Index `code - first` with its top bit set (a zero lookup) outside 0-15.
                let index = c.sub(V::splat(self.first)).add_sat(V::splat(0x70));
                // The exponent field, at most 31, moved to its place in the high byte.
                let field = c.sub_sat(V::splat(self.rebias)).min(V::splat(31));
                let nan = c.eq(ff);
                let hi = V::lookup16(self.small[1], index).or(field.shl::<2>());
                (
                    V::select(nan, self.nan[0], V::lookup16(self.small[0], index)),
                    V::select(nan, self.nan[1], hi),
                )
            };
            store_halves::<V, T>(out, lo, hi, false, stream);
        }
    }
}

/// A FLOAT8E8M0-kind format's decoder to table target `T` by arithmetic ([`E8m0Step`]).
///
/// # Safety
/// The CPU runs `V`'s family; `table` is the format's for `T`;
/// `dst.len() == lut_size::<T>() * src.len()`.
#[inline(always)]
pub(crate) unsafe fn e8m0<V: Bytes, const T: u8>(
    table: &[u32; 256],
    rebias: i32,
    src: &[u8],
    dst: &mut [u8],
) {
    // SAFETY: the caller's promise; the loads read 32-byte arrays.
    unsafe {
        let first = rebias - 9;
        let mut small = [V::splat(0); 2];
        if T != LUT_F32 && T != LUT_BF16 {
            // FLOAT16's planes of the 16 entries from code `first`, once per 16 bytes.
            for (shift, plane) in [0, 8].into_iter().zip(&mut small) {
                let bytes: [u8; 32] = std::array::from_fn(|i| {
                    (table[(first as usize + i % 16) & 0xff] >> shift) as u8
                });
                *plane = V::load(bytes.as_ptr());
            }
        }
        let step = E8m0Step::<V, T> {
            small,
            nan: [
                V::splat(table[0xff] as u8),
                V::splat((table[0xff] >> 8) as u8),
            ],
            first: first as u8,
            rebias: rebias as u8,
        };
        byte_codes::<V, T, _>(&step, table, src, dst)
    }
}

/// What a kernel family supplies to the decoders besides its vector type: its entry
/// point and kernels, and the loops compiled with its features. Implemented by the
/// family's token through [`decoder_family!`].
pub(crate) trait DecoderFamily: Copy + 'static {
    /// The family's vector of byte lanes.
    type B: Bytes;
    /// The family's entry point for body `B`.
    fn decoder_entry<B: Body>(self) -> Run;
    /// The entry point for body `B` in the build with a 32-byte permute, if this CPU
    /// runs one (AVX-512VBMI).
    fn wide_entry<B: Body>(self) -> Option<Run>;
    /// A kernel of the family (this token proves the CPU runs it).
    fn decoder_kernel(self, run: Run, src_size: usize, dst_size: usize) -> Kernel;
    /// [`packed`], compiled with the family's features.
    ///
    /// # Safety
    /// As [`packed`]'s.
    unsafe fn packed<const BITS: u8, const T: u8, const LOOKUP: u8>(
        tables: &PackedTables,
        src: &[u8],
        dst: &mut [u8],
    );
    /// [`packed`] of [`SIGNED`] 6-bit codes (`BITS`: 6, or [`HELD`]) by the permute of
    /// [`Self::wide_entry`]'s build, compiled with its features.
    ///
    /// # Safety
    /// As [`packed`]'s, and the CPU runs that build.
    unsafe fn packed_wide<const BITS: u8, const T: u8>(
        tables: &PackedTables,
        src: &[u8],
        dst: &mut [u8],
    );
    /// [`eights`], compiled with the family's features.
    ///
    /// # Safety
    /// As [`eights`]'s.
    unsafe fn eights<const T: u8, const FNUZ: bool, const MAG: u8>(
        rule: &Eights,
        table: &[u32; 256],
        src: &[u8],
        dst: &mut [u8],
    );
    /// [`e8m0`], compiled with the family's features.
    ///
    /// # Safety
    /// As [`e8m0`]'s.
    unsafe fn e8m0<const T: u8>(table: &[u32; 256], rebias: i32, src: &[u8], dst: &mut [u8]);
}

/// Implements [`DecoderFamily`] for a family's token: `decoder_family!(Token, Bytes,
/// family_macro)`, with the family's `entry` and `kernel` (`family::family_entry!`) and
/// `enable_features!` in scope; `, wide: wide_entry, wide_loop` names the entry chooser
/// of the permute build (`fn(token) -> Option<Run>`) and its loop (`packed_wide`), where
/// the family has one.
macro_rules! decoder_family {
    ($token:ty, $bytes:ty, $family:ident $(, wide: $wide_entry:ident, $wide_loop:ident)?) => {
        $family! { enable_features! {
            /// [`decode::packed`] compiled with the family's features, once per code
            /// width, target and lookup.
            ///
            /// # Safety
            /// As [`decode::packed`]'s.
            unsafe fn decode_packed<const BITS: u8, const T: u8, const LOOKUP: u8>(
                tables: &$crate::simd::decode::PackedTables,
                src: &[u8],
                dst: &mut [u8],
            ) {
                // SAFETY: the caller's promise.
                unsafe {
                    $crate::simd::decode::packed::<$bytes, BITS, T, LOOKUP, false>(tables, src, dst)
                }
            }

            /// [`decode::eights`] compiled with the family's features, once per target.
            ///
            /// # Safety
            /// As [`decode::eights`]'s.
            unsafe fn decode_eights<const T: u8, const FNUZ: bool, const MAG: u8>(
                rule: &$crate::formats::lut::Eights,
                table: &[u32; 256],
                src: &[u8],
                dst: &mut [u8],
            ) {
                // SAFETY: the caller's promise.
                unsafe {
                    $crate::simd::decode::eights::<$bytes, T, FNUZ, MAG>(rule, table, src, dst)
                }
            }

            /// [`decode::e8m0`] compiled with the family's features, once per target.
            ///
            /// # Safety
            /// As [`decode::e8m0`]'s.
            unsafe fn decode_e8m0<const T: u8>(
                table: &[u32; 256],
                rebias: i32,
                src: &[u8],
                dst: &mut [u8],
            ) {
                // SAFETY: the caller's promise.
                unsafe { $crate::simd::decode::e8m0::<$bytes, T>(table, rebias, src, dst) }
            }
        } }

        impl $crate::simd::decode::DecoderFamily for $token {
            type B = $bytes;
            fn decoder_entry<B: Body>(self) -> Run {
                entry::<B>
            }
            fn wide_entry<B: Body>(self) -> Option<Run> {
                $crate::simd::decode::decoder_family!(@wide_entry self, B $(, $wide_entry)?)
            }
            fn decoder_kernel(self, run: Run, src_size: usize, dst_size: usize) -> Kernel {
                kernel(run, src_size, dst_size, self)
            }
            #[inline(always)]
            unsafe fn packed<const BITS: u8, const T: u8, const LOOKUP: u8>(
                tables: &$crate::simd::decode::PackedTables,
                src: &[u8],
                dst: &mut [u8],
            ) {
                // SAFETY: the caller's promise.
                unsafe { decode_packed::<BITS, T, LOOKUP>(tables, src, dst) }
            }
            #[inline(always)]
            unsafe fn packed_wide<const BITS: u8, const T: u8>(
                tables: &$crate::simd::decode::PackedTables,
                src: &[u8],
                dst: &mut [u8],
            ) {
                $crate::simd::decode::decoder_family!(@wide_loop BITS, T, tables, src, dst $(, $wide_loop)?)
            }
            #[inline(always)]
            unsafe fn eights<const T: u8, const FNUZ: bool, const MAG: u8>(
                rule: &$crate::formats::lut::Eights,
                table: &[u32; 256],
                src: &[u8],
                dst: &mut [u8],
            ) {
                // SAFETY: the caller's promise.
                unsafe { decode_eights::<T, FNUZ, MAG>(rule, table, src, dst) }
            }
            #[inline(always)]
            unsafe fn e8m0<const T: u8>(table: &[u32; 256], rebias: i32, src: &[u8], dst: &mut [u8]) {
                // SAFETY: the caller's promise.
                unsafe { decode_e8m0::<T>(table, rebias, src, dst) }
            }
        }
    };
    (@wide_entry $token:ident, $b:ident, $wide_entry:ident) => {
        $wide_entry::<$b>($token)
    };
    (@wide_entry $token:ident, $b:ident) => {{
        let _ = $token;
        None
    }};
    (@wide_loop $bits:ident, $t:ident, $tables:ident, $src:ident, $dst:ident, $wide_loop:ident) => {
        // SAFETY: the caller's promise.
        unsafe { $wide_loop::<$bits, $t>($tables, $src, $dst) }
    };
    (@wide_loop $bits:ident, $t:ident, $tables:ident, $src:ident, $dst:ident) => {{
        let _ = ($tables, $src, $dst);
        unreachable!("no family without a wide entry runs the wide loop")
    }};
}
pub(crate) use decoder_family;

/// The body of family `D`'s decoder of a 4-bit, 2-bit or 6-bit format `F` to table
/// target `T` (`WIDE`: in the permute build; `BYTES`: codes held one per byte): a call
/// of the family's loop for the format's code width (or [`HELD`]) and lookup.
struct DecodePacked<D, const F: u8, const T: u8, const WIDE: bool, const BYTES: bool>(
    PhantomData<D>,
);

impl<D: DecoderFamily, const F: u8, const T: u8, const WIDE: bool, const BYTES: bool> Body
    for DecodePacked<D, F, T, WIDE, BYTES>
{
    #[inline(always)]
    unsafe fn run(src: &[u8], dst: &mut [u8]) {
        let tables = PackedTables::of::<F, T>();
        let signed = <D::B as Bytes>::SPLIT_SIXES && signed_sixes::<F, T>().is_some();
        // SAFETY: the caller runs the family (the permute build where `WIDE`) and sized
        // the slices; the tables are the format's.
        unsafe {
            match (BYTES, FORMATS[F as usize].bits) {
                (true, 4 | 2) => D::packed::<HELD, T, NIBBLES>(&tables, src, dst),
                (true, _) if signed && WIDE => D::packed_wide::<HELD, T>(&tables, src, dst),
                (true, _) if signed => D::packed::<HELD, T, SIGNED>(&tables, src, dst),
                (true, _) => D::packed::<HELD, T, SIXES>(&tables, src, dst),
                (false, 4) => D::packed::<4, T, NIBBLES>(&tables, src, dst),
                (false, 2) => D::packed::<2, T, NIBBLES>(&tables, src, dst),
                (false, _) if signed && WIDE => D::packed_wide::<6, T>(&tables, src, dst),
                (false, _) if signed => D::packed::<6, T, SIGNED>(&tables, src, dst),
                (false, _) => D::packed::<6, T, SIXES>(&tables, src, dst),
            }
        }
    }
}

/// The body of family `D`'s decoder of a signed 8-bit float format `F` to table target
/// `T` by its `Lut::EIGHTS` rule.
struct DecodeEights<D, const F: u8, const T: u8>(PhantomData<D>);

impl<D: DecoderFamily, const F: u8, const T: u8> Body for DecodeEights<D, F, T> {
    #[inline(always)]
    unsafe fn run(src: &[u8], dst: &mut [u8]) {
        let Some(rule) = eights_rule::<F, T>() else {
            unreachable!("decode_eights is chosen only where the rule holds")
        };
        let table = &Lut::<F>::TABLES[T as usize];
        // SAFETY: the caller runs the family and sized the slices; the rule and table
        // are the format's.
        unsafe {
            let mag = match (rule.max_code, rule.shift, rule.offset) {
                (0x7f, _, _) => SMALL_ONLY,
                (_, shift, offset) if shift <= 8 && offset & 0xff == 0 => TOP_BYTES,
                _ => TOP,
            };
            match (FORMATS[F as usize].kind == Kind::Fnuz, mag) {
                (true, SMALL_ONLY) => D::eights::<T, true, SMALL_ONLY>(rule, table, src, dst),
                (true, TOP) => D::eights::<T, true, TOP>(rule, table, src, dst),
                (true, _) => D::eights::<T, true, TOP_BYTES>(rule, table, src, dst),
                (false, SMALL_ONLY) => D::eights::<T, false, SMALL_ONLY>(rule, table, src, dst),
                (false, TOP) => D::eights::<T, false, TOP>(rule, table, src, dst),
                (false, _) => D::eights::<T, false, TOP_BYTES>(rule, table, src, dst),
            }
        }
    }
}

/// The body of family `D`'s decoder of a FLOAT8E8M0-kind format `F` to table target `T`.
struct DecodeE8m0<D, const F: u8, const T: u8>(PhantomData<D>);

impl<D: DecoderFamily, const F: u8, const T: u8> Body for DecodeE8m0<D, F, T> {
    #[inline(always)]
    unsafe fn run(src: &[u8], dst: &mut [u8]) {
        let table = &Lut::<F>::TABLES[T as usize];
        let rebias = FORMATS[F as usize].bias - 15;
        // SAFETY: the caller runs the family and sized the slices; the table is the
        // format's.
        unsafe { D::e8m0::<T>(table, rebias, src, dst) }
    }
}

/// Family `D`'s decoder of low-precision format `F` to table target `T` (`LUT_F32`,
/// `LUT_F16`, `LUT_BF16`), if it has one: a 4-bit, 2-bit or 6-bit format's reads its
/// packed codes itself ([`packed`]); a signed 8-bit float format with a rule in
/// `Lut::EIGHTS` decodes by that rule ([`eights`]), a FLOAT8E8M0-kind one by arithmetic
/// ([`e8m0`]). None for any other format. On a family that streams, the kernels stream
/// their large outputs.
pub(crate) fn decoder<D: DecoderFamily, const F: u8, const T: u8>(family: D) -> Option<Kernel> {
    let format = &FORMATS[F as usize];
    let size = lut_size::<T>();
    let kernel = if let bits @ (4 | 2 | 6) = format.bits {
        sub_byte_kernel::<D, F, T, false>(family).unpacking(bits)
    } else if eights_rule::<F, T>().is_some() {
        family.decoder_kernel(family.decoder_entry::<DecodeEights<D, F, T>>(), 1, size)
    } else if format.kind == Kind::E8m0 {
        family.decoder_kernel(family.decoder_entry::<DecodeE8m0<D, F, T>>(), 1, size)
    } else {
        return None;
    };
    Some(streaming::<D>(kernel))
}

/// Family `D`'s decoder of a 4-bit, 2-bit or 6-bit format `F` to table target `T` from
/// codes held one per byte (an unpacked tensor's bytes), each masked to the format's
/// bits by the kernel ([`HELD`]); None for any other format. An unpacked cast ran
/// through the per-code decoder before: FLOAT4E2M1 and FLOAT6E2M3 -> FLOAT at 1.31 and
/// 1.30x the DRAM memcpy in L2 (benches/cast.rs, Zen 4).
pub(crate) fn held_decoder<D: DecoderFamily, const F: u8, const T: u8>(
    family: D,
) -> Option<Kernel> {
    let bits @ (4 | 2 | 6) = FORMATS[F as usize].bits else {
        return None;
    };
    Some(streaming::<D>(
        sub_byte_kernel::<D, F, T, true>(family).masking(bits),
    ))
}

/// The kernel of [`DecodePacked`] for format `F`, target `T` and `BYTES`, in the
/// permute build where the family has one and the format's 6-bit codes use it.
fn sub_byte_kernel<D: DecoderFamily, const F: u8, const T: u8, const BYTES: bool>(
    family: D,
) -> Kernel {
    let signed = <D::B as Bytes>::SPLIT_SIXES && signed_sixes::<F, T>().is_some();
    let run = match family.wide_entry::<DecodePacked<D, F, T, true, BYTES>>() {
        Some(run) if FORMATS[F as usize].bits == 6 && signed => run,
        _ => family.decoder_entry::<DecodePacked<D, F, T, false, BYTES>>(),
    };
    family.decoder_kernel(run, 1, lut_size::<T>())
}

/// `kernel`, marked as streaming its large outputs where family `D` streams.
fn streaming<D: DecoderFamily>(kernel: Kernel) -> Kernel {
    if <D::B as Bytes>::STREAMS {
        kernel.streaming()
    } else {
        kernel
    }
}
