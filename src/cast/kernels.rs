// SPDX-License-Identifier: MIT OR Apache-2.0
//! Contiguous conversion kernels: one per (source, target) storage pair and CPU tier,
//! chosen once per call. Every kernel is the same loop over a per-element conversion
//! (`formats/convert.rs`); a SIMD tier compiles that loop with its family's features enabled
//! (`simd::x86_64::avx2_family`) so the compiler vectorises it, and the tier is detected
//! once per process.

use crate::dtype::Scalar;
use crate::formats::convert::CastTo;
use crate::formats::dispatch::{by_format, by_format_and_options, FormatVisitor, OptionsVisitor};
use crate::formats::elem::{Bool, Elem, C128, C64};
use crate::formats::lowp::{
    decode_f32, decode_int, option_bits, to_code, Code, Kind, LowSource, FORMATS,
};
use crate::formats::lut::{lut_all, lut_size, LUT_BF16, LUT_F16, LUT_F32};
use crate::formats::repr::Repr;
use crate::simd::kernel::{Kernel, Tier};
#[cfg(target_arch = "x86_64")]
use crate::simd::{family::enable_features, x86_64::avx2_family};
use half::{bf16, f16};
use std::sync::OnceLock;

#[inline(always)]
fn convert_all<S: Elem + CastTo<D>, D: Elem>(src: &[u8], dst: &mut [u8]) {
    for (s, d) in src.chunks_exact(S::SIZE).zip(dst.chunks_exact_mut(D::SIZE)) {
        S::load(s).cast_to().store(d);
    }
}

/// # Safety
/// None beyond the shared kernel signature; the portable tier runs on every CPU.
unsafe fn convert_portable<S: Elem + CastTo<D>, D: Elem>(src: &[u8], dst: &mut [u8]) {
    convert_all::<S, D>(src, dst)
}

#[cfg(target_arch = "x86_64")]
avx2_family! { enable_features! {
    /// # Safety
    /// The CPU runs the AVX2 family.
    unsafe fn convert_avx2<S: Elem + CastTo<D>, D: Elem>(src: &[u8], dst: &mut [u8]) {
        convert_all::<S, D>(src, dst)
    }

    /// # Safety
    /// The CPU runs the AVX2 family.
    unsafe fn encode_avx2<S: LowSource, const F: u8, const OPT: u8>(src: &[u8], dst: &mut [u8]) {
        encode_all::<S, F, OPT>(src, dst)
    }

    /// # Safety
    /// The CPU runs the AVX2 family.
    unsafe fn decode_avx2<const F: u8, D: Elem>(src: &[u8], dst: &mut [u8])
    where
        f32: CastTo<D>,
        i8: CastTo<D>,
    {
        decode_all::<F, D>(src, dst)
    }
} }

/// The kernel of a generic loop: `portable` on the portable tier, `family` (the same
/// loop compiled for the tier's kernel family) on the others.
fn generic(
    portable: unsafe fn(&[u8], &mut [u8]),
    #[cfg(target_arch = "x86_64")] avx2: unsafe fn(&[u8], &mut [u8]),
    (src_size, dst_size): (usize, usize),
    tier: Tier,
) -> Kernel {
    let run = match tier {
        Tier::Portable => portable,
        #[cfg(target_arch = "x86_64")]
        Tier::Avx2(_) => avx2,
        #[cfg(target_arch = "aarch64")]
        Tier::Neon(_) => portable,
    };
    // SAFETY: `portable` runs on every CPU; `avx2` is compiled for the AVX2 family and
    // chosen only for a tier that holds its token.
    unsafe { Kernel::new(run, src_size, dst_size, tier) }
}

/// # Safety
/// None; a byte copy runs on every CPU.
unsafe fn copy_bytes(src: &[u8], dst: &mut [u8]) {
    dst.copy_from_slice(src)
}

fn pick<S: Elem + CastTo<D>, D: Elem>(tier: Tier) -> Kernel {
    generic(
        convert_portable::<S, D>,
        #[cfg(target_arch = "x86_64")]
        convert_avx2::<S, D>,
        (S::SIZE, D::SIZE),
        tier,
    )
}

macro_rules! pick_target {
    ($s:ty, $to:expr, $tier:expr) => {
        match $to {
            Scalar::Bool => pick::<$s, Bool>($tier),
            Scalar::I8 => pick::<$s, i8>($tier),
            Scalar::I16 => pick::<$s, i16>($tier),
            Scalar::I32 => pick::<$s, i32>($tier),
            Scalar::I64 => pick::<$s, i64>($tier),
            Scalar::U8 => pick::<$s, u8>($tier),
            Scalar::U16 => pick::<$s, u16>($tier),
            Scalar::U32 => pick::<$s, u32>($tier),
            Scalar::U64 => pick::<$s, u64>($tier),
            Scalar::F16 => pick::<$s, f16>($tier),
            Scalar::Bf16 => pick::<$s, bf16>($tier),
            Scalar::F32 => pick::<$s, f32>($tier),
            Scalar::F64 => pick::<$s, f64>($tier),
            Scalar::C64 => pick::<$s, C64>($tier),
            Scalar::C128 => pick::<$s, C128>($tier),
        }
    };
}

/// A byte copy of elements of `size` bytes.
pub fn copy(size: usize, tier: Tier) -> Kernel {
    // SAFETY: a byte copy runs on every CPU.
    unsafe { Kernel::new(copy_bytes, size, size, tier) }
}

/// The kernel for a storage pair on a tier. Identical storage is a byte copy, which
/// keeps NaN payloads (a same-dtype cast copies bytes).
pub fn select(from: Scalar, to: Scalar, tier: Tier) -> Kernel {
    if from == to {
        return copy(from.size(), tier);
    }
    if let Some(kernel) = crate::simd::kernels::special(from, to, tier) {
        return kernel;
    }
    match from {
        Scalar::Bool => pick_target!(Bool, to, tier),
        Scalar::I8 => pick_target!(i8, to, tier),
        Scalar::I16 => pick_target!(i16, to, tier),
        Scalar::I32 => pick_target!(i32, to, tier),
        Scalar::I64 => pick_target!(i64, to, tier),
        Scalar::U8 => pick_target!(u8, to, tier),
        Scalar::U16 => pick_target!(u16, to, tier),
        Scalar::U32 => pick_target!(u32, to, tier),
        Scalar::U64 => pick_target!(u64, to, tier),
        Scalar::F16 => pick_target!(f16, to, tier),
        Scalar::Bf16 => pick_target!(bf16, to, tier),
        Scalar::F32 => pick_target!(f32, to, tier),
        Scalar::F64 => pick_target!(f64, to, tier),
        Scalar::C64 => pick_target!(C64, to, tier),
        Scalar::C128 => pick_target!(C128, to, tier),
    }
}

// ---- low-precision codes (one per byte; see lowp.rs) ---------------------------------

#[inline(always)]
fn encode_all<S: LowSource, const F: u8, const OPT: u8>(src: &[u8], dst: &mut [u8]) {
    for (s, d) in src.chunks_exact(S::SIZE).zip(dst.iter_mut()) {
        *d = to_code::<S, F, OPT>(S::load(s));
    }
}

/// # Safety
/// None beyond the shared kernel signature.
unsafe fn encode_portable<S: LowSource, const F: u8, const OPT: u8>(src: &[u8], dst: &mut [u8]) {
    encode_all::<S, F, OPT>(src, dst)
}

fn encode_pick<S: LowSource, const F: u8, const OPT: u8>(tier: Tier) -> Kernel {
    generic(
        encode_portable::<S, F, OPT>,
        #[cfg(target_arch = "x86_64")]
        encode_avx2::<S, F, OPT>,
        (S::SIZE, 1),
        tier,
    )
}

#[inline(always)]
fn decode_all<const F: u8, D: Elem>(src: &[u8], dst: &mut [u8])
where
    f32: CastTo<D>,
    i8: CastTo<D>,
{
    let is_int = matches!(FORMATS[F as usize].kind, Kind::Int { .. });
    for (&s, d) in src.iter().zip(dst.chunks_exact_mut(D::SIZE)) {
        let value: D = if is_int {
            decode_int::<F>(s).cast_to()
        } else {
            decode_f32::<F>(s).cast_to()
        };
        value.store(d);
    }
}

/// # Safety
/// None beyond the shared kernel signature.
unsafe fn decode_portable<const F: u8, D: Elem>(src: &[u8], dst: &mut [u8])
where
    f32: CastTo<D>,
    i8: CastTo<D>,
{
    decode_all::<F, D>(src, dst)
}

fn decode_pick<const F: u8, D: Elem>(tier: Tier) -> Kernel
where
    f32: CastTo<D>,
    i8: CastTo<D>,
{
    generic(
        decode_portable::<F, D>,
        #[cfg(target_arch = "x86_64")]
        decode_avx2::<F, D>,
        (1, D::SIZE),
        tier,
    )
}

/// The portable tier's table decoder; a FLOAT8E8M0-kind format's codes to FLOAT and
/// BFLOAT16 by `decode_f32`'s arithmetic, which the compiler vectorises (0.63 -> 1.0x
/// and 0.45 -> 1.2x memcpy). The other formats keep the table: their rule compiled for
/// the baseline CPU ran at 0.46-0.53x against the table's 0.63-0.72x.
///
/// # Safety
/// None beyond the shared kernel signature.
unsafe fn lut_portable<const F: u8, const T: u8>(src: &[u8], dst: &mut [u8]) {
    if FORMATS[F as usize].kind == Kind::E8m0 && T != LUT_F16 {
        for (&s, d) in src.iter().zip(dst.chunks_exact_mut(lut_size::<T>())) {
            let bits = decode_f32::<F>(s).to_bits();
            if T == LUT_F32 {
                d.copy_from_slice(&bits.to_ne_bytes());
            } else {
                d.copy_from_slice(&((bits >> 16) as u16).to_ne_bytes());
            }
        }
    } else {
        lut_all::<F, T>(src, dst)
    }
}

/// The table decoder of format `F` to target `T`: the tier's own, or the scalar loop.
fn lut_pick<const F: u8, const T: u8>(tier: Tier) -> Kernel {
    crate::simd::kernels::decode_lut::<F, T>(tier).unwrap_or_else(|| {
        // SAFETY: the portable loop runs on every CPU.
        unsafe { Kernel::new(lut_portable::<F, T>, 1, lut_size::<T>(), tier) }
    })
}

fn decode_for<const F: u8>(to: Scalar, tier: Tier) -> Kernel {
    match to {
        Scalar::F32 => lut_pick::<F, LUT_F32>(tier),
        Scalar::F16 => lut_pick::<F, LUT_F16>(tier),
        Scalar::Bf16 => lut_pick::<F, LUT_BF16>(tier),
        _ => decode_codes::<F>(to, tier),
    }
}

/// The generic decoder from format `F`'s codes, one per byte, to `to`.
fn decode_codes<const F: u8>(to: Scalar, tier: Tier) -> Kernel {
    match to {
        Scalar::Bool => decode_pick::<F, Bool>(tier),
        Scalar::I8 => decode_pick::<F, i8>(tier),
        Scalar::I16 => decode_pick::<F, i16>(tier),
        Scalar::I32 => decode_pick::<F, i32>(tier),
        Scalar::I64 => decode_pick::<F, i64>(tier),
        Scalar::U8 => decode_pick::<F, u8>(tier),
        Scalar::U16 => decode_pick::<F, u16>(tier),
        Scalar::U32 => decode_pick::<F, u32>(tier),
        Scalar::U64 => decode_pick::<F, u64>(tier),
        Scalar::F16 => decode_pick::<F, f16>(tier),
        Scalar::Bf16 => decode_pick::<F, bf16>(tier),
        Scalar::F32 => decode_pick::<F, f32>(tier),
        Scalar::F64 => decode_pick::<F, f64>(tier),
        Scalar::C64 => decode_pick::<F, C64>(tier),
        Scalar::C128 => decode_pick::<F, C128>(tier),
    }
}

fn encode_to<const F: u8, const OPT: u8>(from: Repr, tier: Tier) -> Kernel {
    match from {
        Repr::Std(Scalar::Bool) => encode_pick::<Bool, F, OPT>(tier),
        Repr::Std(Scalar::I8) => encode_pick::<i8, F, OPT>(tier),
        Repr::Std(Scalar::I16) => encode_pick::<i16, F, OPT>(tier),
        Repr::Std(Scalar::I32) => encode_pick::<i32, F, OPT>(tier),
        Repr::Std(Scalar::I64) => encode_pick::<i64, F, OPT>(tier),
        Repr::Std(Scalar::U8) => encode_pick::<u8, F, OPT>(tier),
        Repr::Std(Scalar::U16) => encode_pick::<u16, F, OPT>(tier),
        Repr::Std(Scalar::U32) => encode_pick::<u32, F, OPT>(tier),
        Repr::Std(Scalar::U64) => encode_pick::<u64, F, OPT>(tier),
        Repr::Std(Scalar::F16) => encode_pick::<f16, F, OPT>(tier),
        Repr::Std(Scalar::Bf16) => encode_pick::<bf16, F, OPT>(tier),
        Repr::Std(Scalar::F32) => encode_pick::<f32, F, OPT>(tier),
        Repr::Std(Scalar::F64) => encode_pick::<f64, F, OPT>(tier),
        Repr::Std(Scalar::C64) => encode_pick::<C64, F, OPT>(tier),
        Repr::Std(Scalar::C128) => encode_pick::<C128, F, OPT>(tier),
        Repr::Low(source) => by_format(source, FromCode::<F, OPT> { tier }),
    }
}

/// The encoder to format `F` with options `OPT` from the codes of the format visited.
struct FromCode<const F: u8, const OPT: u8> {
    tier: Tier,
}

impl<const F: u8, const OPT: u8> FormatVisitor for FromCode<F, OPT> {
    type Out = Kernel;
    fn visit<const G: u8>(self) -> Kernel {
        encode_pick::<Code<G>, F, OPT>(self.tier)
    }
}

/// The decoder from the format visited to `to`.
struct Decode {
    to: Scalar,
    tier: Tier,
}

impl FormatVisitor for Decode {
    type Out = Kernel;
    fn visit<const F: u8>(self) -> Kernel {
        decode_for::<F>(self.to, self.tier)
    }
}

/// The decoder from the format visited's codes, one per byte, to `to`: the tier's
/// table decoder that masks the codes itself, or the generic one.
struct DecodeCodes {
    to: Scalar,
    tier: Tier,
}

impl FormatVisitor for DecodeCodes {
    type Out = Kernel;
    fn visit<const F: u8>(self) -> Kernel {
        use crate::simd::kernels::decode_held;
        let held = match self.to {
            Scalar::F32 => decode_held::<F, LUT_F32>(self.tier),
            Scalar::F16 => decode_held::<F, LUT_F16>(self.tier),
            Scalar::Bf16 => decode_held::<F, LUT_BF16>(self.tier),
            _ => None,
        };
        held.unwrap_or_else(|| decode_codes::<F>(self.to, self.tier))
    }
}

/// The decoder from `format`'s codes held one per byte to `to` on `tier`: for sub-byte
/// codes held unpacked, where the tier's table decoder would read them packed. A kernel
/// with `masks_bits` keeps each byte's low bits itself; the others read codes already
/// masked.
pub fn decode_codes_on(format: u8, to: Scalar, tier: Tier) -> Kernel {
    by_format(format, DecodeCodes { to, tier })
}

/// [`decode_codes_on`] the detected tier.
pub fn decode_codes_detected(format: u8, to: Scalar) -> Kernel {
    decode_codes_on(format, to, Tier::detect())
}

/// The encoder from `from` to the format and option bits visited.
struct Encode {
    from: Repr,
    tier: Tier,
}

impl OptionsVisitor for Encode {
    type Out = Kernel;
    fn visit<const F: u8, const OPT: u8>(self) -> Kernel {
        encode_to::<F, OPT>(self.from, self.tier)
    }
}

/// The kernel for any pair of representations on the detected tier. The kernels of the
/// 15 x 15 pairs of scalar kinds are chosen once per process, so a small call looks its
/// kernel up instead of walking the selection (a fifth of its cost before).
pub fn select_detected(from: Repr, to: Repr, saturate: bool, round_mode: u8) -> Kernel {
    static STD: OnceLock<[[Kernel; 15]; 15]> = OnceLock::new();
    match (from, to) {
        (Repr::Std(a), Repr::Std(b)) => {
            let table = STD.get_or_init(|| {
                let tier = Tier::detect();
                core::array::from_fn(|i| {
                    core::array::from_fn(|j| select(Scalar::ALL[i], Scalar::ALL[j], tier))
                })
            });
            table[a.index()][b.index()]
        }
        _ => select_any(from, to, saturate, round_mode, Tier::detect()),
    }
}

/// The kernel for any pair of representations. Identical representations copy bytes
/// (a same-dtype cast keeps every code, NaN payloads included).
pub fn select_any(from: Repr, to: Repr, saturate: bool, round_mode: u8, tier: Tier) -> Kernel {
    if from != to {
        let opt = match to {
            Repr::Low(g) => option_bits(g, saturate, round_mode),
            Repr::Std(_) => 0,
        };
        if let Some(kernel) = crate::simd::kernels::special_low(from, to, opt, tier) {
            return kernel;
        }
    }
    match (from, to) {
        (Repr::Std(a), Repr::Std(b)) => select(a, b, tier),
        (a, b) if a == b => copy(1, tier),
        (Repr::Low(f), Repr::Std(to)) => by_format(f, Decode { to, tier }),
        // Option bits: bit 0 saturate, bits 1-2 the round mode (`option_bits`).
        (from, Repr::Low(g)) => by_format_and_options(
            g,
            option_bits(g, saturate, round_mode),
            Encode { from, tier },
        ),
    }
}

/// The encoder from `from` to the sub-byte format `to` that writes its codes one per
/// byte (`SubByteLayout::Unpacked`, the high bits 0), for an output held so, where the
/// one [`select_any`] picks packs them: None where the tier has no such encoder (the
/// kernel of `select_any` is then the one to use).
pub fn select_unpacked(
    from: Repr,
    to: Repr,
    saturate: bool,
    round_mode: u8,
    tier: Tier,
) -> Option<Kernel> {
    let Repr::Low(g) = to else { return None };
    let opt = option_bits(g, saturate, round_mode);
    crate::simd::kernels::special_low_unpacked(from, to, opt, tier)
}
