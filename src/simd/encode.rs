// SPDX-License-Identifier: MIT OR Apache-2.0
//! The low-precision encoders, written once over [`Halves`], a vector of 16-bit lanes:
//! FLOAT, FLOAT16 and BFLOAT16 to the float8 formats (FLOAT8E8M0 included), FLOAT6E2M3,
//! FLOAT6E3M2 and FLOAT4E2M1, for every option set, as `lowp::encode_f32` gives them.
//! Each ISA (`x86_64/cast.rs`: AVX2, sixteen lanes, and AVX-512 with VBMI, 32;
//! `aarch64/cast.rs`: NEON, eight) implements the trait with its intrinsics and supplies what differs between them: the
//! loads that round f32 to bfloat16 to odd, the widening to f32, the packing and stores
//! of the codes, and how the whole steps are walked (AVX2 in four prefetched streams).
//!
//! The method: a FLOAT source is first rounded to bfloat16 *to odd* (the top 16 bits,
//! the last one set when the low 16 were not all zero). bfloat16 has f32's range and
//! at least two more mantissa bits than any of these formats, and the sticky bit keeps
//! whether the dropped bits were zero, so the one rounding to the format that follows
//! is the correctly rounded result of the f32 value, at about half the work of an
//! encoding in 32-bit lanes. The 16-bit patterns are then encoded with no branch on
//! the data ([`encode_halves`]).
//!
//! Everything here is `#[inline(always)]` and without target features: it is inlined
//! into the family's entry point, compiled with the family's features, as the kernel
//! bodies are (`family::Body`).

use crate::dtype::Scalar;
use crate::formats::lowp::{Kind, FORMATS};
use crate::simd::encoders::{byte_signed, output_bytes};
use crate::simd::family::{Body, Run};
use crate::simd::kernel::Kernel;
use crate::simd::lanes::Halves;
use std::marker::PhantomData;

/// Codes of float format `F` with options `OPT` (one per 16-bit lane) of FLOAT16 or
/// BFLOAT16 values (`SRC`: 0 FLOAT16, 1 BFLOAT16, exact or rounded to odd from f32),
/// the rules of `lowp::encode_f32` with no branch on the data: a normal of the format
/// rounds its dropped mantissa bits to nearest even and rebiases its exponent; a value
/// below the smallest normal takes [`subnormal_codes`] (a branch on such lanes
/// mispredicted on data around the smallest normal: FLOAT -> FLOAT8E4M3FN 0.74 -> 0.91x
/// memcpy on values in [-1, 1] on AVX2); NaN and overflow are blended to their codes
/// (a 32-bit path per vector before ran FLOAT -> FLOAT8E4M3FN with `saturate = 0` at
/// 0.42x memcpy on data that overflows now and then, then about 0.8x). FLOAT8E8M0
/// carries exponents on the bfloat16 patterns ([`e8m0_codes`]); FLOAT4E2M1 is not
/// encoded here but in bytes ([`fp4_bytes`]). Where `clear` is given, `h` holds the
/// bfloat16 values truncated and `clear` the mask of the lanes whose sticky bit, with
/// the last kept bit counted, is clear (`Halves::load_f32_parts`, [`f32_lsb`]).
///
/// # Safety
/// The CPU runs `V`'s family.
#[inline(always)]
pub(crate) unsafe fn encode_halves<V: Halves, const SRC: u8, const F: u8, const OPT: u8>(
    h: V,
    f32_at: Option<*const u8>,
    clear: Option<V>,
) -> V {
    // SAFETY: the caller's promise.
    unsafe { encode_parts::<V, SRC, F, OPT, false>(h, f32_at, clear).0 }
}

/// [`encode_halves`], or, `PARTS` (FLOAT -> FLOAT6 on the AVX2 tier, where the codes
/// are merged in bytes: [`fp6_f32_bytes`]), the three parts before the merge of
/// `encode_halves`' FLOAT -> FLOAT6 path: the normal rule's code (not capped), the NaN
/// mask and the subnormal rule's code (from the f32 values, not capped). Without
/// `PARTS` the three are the codes.
///
/// # Safety
/// The CPU runs `V`'s family.
#[inline(always)]
unsafe fn encode_parts<V: Halves, const SRC: u8, const F: u8, const OPT: u8, const PARTS: bool>(
    h: V,
    f32_at: Option<*const u8>,
    clear: Option<V>,
) -> (V, V, V) {
    let done = |v: V| (v, v, v);
    // SAFETY: the caller runs `V`'s family; registers only.
    unsafe {
        let f = &FORMATS[F as usize];
        if f.kind == Kind::E8m0 {
            // FLOAT16's own layout has no rule for it here: through f32 (exact) and
            // bfloat16 to odd, which keeps what its rules test.
            let h = if SRC == 0 { h.f16_to_bf16_odd() } else { h };
            return done(e8m0_codes::<V, OPT>(h));
        }
        // FLOAT6's constants kept (AVX2 rebuilt two of them in the loop).
        let splat = |x: i32| {
            if f.kind == Kind::Fp6 {
                V::kept_splat(x as u16)
            } else {
                V::splat(x as u16)
            }
        };
        let (src_exp_bits, src_man_bits, src_bias) =
            if SRC == 0 { (5, 10, 15) } else { (8, 7, 127) };
        let m = f.man_bits as i32;
        let source_bits =
            |exp: i32, man: i32| ((exp + src_bias) << src_man_bits) | (man << (src_man_bits - m));
        let min_bits = source_bits((1 - f.bias).max(1 - src_bias), 0);
        let abs = h.and(splat(0x7fff));
        // FLOAT6 has no infinity: it always saturates.
        let saturate = OPT & 1 == 1 && matches!(f.kind, Kind::Ieee | Kind::Fn | Kind::Fnuz)
            || f.kind == Kind::Fp6;
        let inf_bits = ((1 << src_exp_bits) - 1) << src_man_bits;
        // FLOAT -> FLOAT6: NaN's code (the sign bit alone, one above the largest) by the
        // cap, which with the subnormal codes taken by a maximum leaves the code two
        // operations after the shift where three were (FLOAT -> FLOAT6E2M3 +1.6% on
        // AVX2, Zen 4). From FLOAT16 and BFLOAT16 (AVX-512: 3% slower) the compare and
        // blend stay, and NaN's code is subtracted after them.
        let nan_capped = f.kind == Kind::Fp6 && f32_at.is_some();
        // Rounded to nearest even at the format's last mantissa bit and rebiased, the
        // rounding bias and the rebias added as one constant before the shift (one
        // operation fewer than a saturating rebias after it); a lane below 2^-bias goes
        // negative, which the arithmetic shift keeps negative, so no compare below
        // counts it as an overflow, and it is below the smallest normal, whose lanes
        // take their codes from `subnormal_codes`. A code above the largest
        // finite one is an overflow (infinity's included), which saturating caps at it;
        // NaN and (not saturating) overflow then take their format's special codes.
        let shift = (src_man_bits - m) as u32;
        let half_less_one = (1 << (shift - 1)) - 1;
        let rebias = (src_bias - f.bias) << m;
        let (code, nan) = if rebias >= 0 {
            let bias = half_less_one - (rebias << shift);
            match clear {
                // The truncated pattern plus the bias plus the sticky bit with the last
                // kept bit counted (one more, less one where it is clear): rounded to
                // nearest even (`f32_lsb`), NaN above infinity.
                Some(clear) => {
                    let sum = abs.add(splat(bias + 1)).add(clear);
                    (sum.shr_signed(shift), sum.gt(splat(inf_bits + bias)))
                }
                None => {
                    let lsb = h.shr(shift).and(splat(1));
                    let code = abs.add(splat(bias)).add(lsb).shr_signed(shift);
                    (code, abs.gt(splat(inf_bits)))
                }
            }
        } else {
            let lsb = h.shr(shift).and(splat(1));
            let rounded = abs.add(splat(half_less_one)).add(lsb).shr(shift);
            // The format's bias is above the source's (FLOAT16 -> FLOAT8E5M2FNUZ): zero
            // is kept by a mask instead.
            let code = abs.eq(splat(0)).and_not(rounded.add(splat(-rebias)));
            (code, abs.gt(splat(inf_bits)))
        };
        let max = splat(f.max_code as i32);
        let over = code.gt(max);
        // A format with the source's exponent field (FLOAT16 -> FLOAT8E5M2) has its
        // subnormals where the source has its own, with the quantum the shift above
        // rounds to: the rounding is already theirs.
        let code = if f.exp_bits as i32 == src_exp_bits && f.bias == src_bias {
            code.min(max)
        } else {
            let sub = match f32_at {
                Some(p) if V::F32_SUBNORMALS => {
                    V::f32_add_magic(p, h, subnormal_magic::<F>(), PARTS)
                }
                _ => subnormal_codes::<V, SRC, F>(h, abs),
            };
            if PARTS {
                // The mask that takes a capped code to NaN's (not saturating, FNUZ's
                // overflow's too).
                let fix = if f.kind == Kind::Fnuz && !saturate {
                    nan.or(over)
                } else {
                    nan
                };
                return (code, fix, sub);
            }
            if nan_capped {
                // The larger (signed) of the two codes, with no compare and no blend.
                // Below twice the smallest normal the subnormal rule's code is exact
                // (the quantum is the same up to there), and the normal rule's at most
                // that (from half the smallest normal it reads the exponent as the
                // format's first, below it goes negative); from there up the normal
                // code is exact and at least the subnormal one once that is capped at
                // twice the smallest normal's code (its sums wrap higher up). Then the
                // cap, one higher for NaN.
                code.max_signed(sub.min(splat(2 << m))).min(max.sub(nan))
            } else {
                // Below the format's smallest normal (zero too, whose code either way
                // is 0).
                let below = splat(min_bits).gt(abs);
                V::select(below, sub, code.min(max))
            }
        };
        let sign_bit = 1 << (f.exp_bits as i32 + m);
        // The sign bit as `h ^ abs`, which needs no mask of its own (one constant fewer to
        // keep in a register); none where the stores put it in as bytes.
        let late_signs = V::BYTE_SIGNS && byte_signed::<F>().is_some();
        let sign = if late_signs {
            splat(0)
        } else {
            h.xor(abs).shr(15 - (f.exp_bits + m as u32))
        };
        // The all-ones magnitude (FN's NaN) and an IEEE format's infinity, from the
        // format's widths.
        let ones = sign_bit - 1;
        let inf = ones & !((1 << m) - 1);
        let special = |v: V, code: i32, lanes: V| V::select(lanes, splat(code), v);
        done(match f.kind {
            Kind::Ieee | Kind::Fn => {
                let (overflow, nan_code) = match f.kind {
                    Kind::Ieee => (inf, inf | (1 << (m - 1))),
                    _ => (ones, ones),
                };
                let with_sign = |v: V| if late_signs { v } else { v.or(sign) };
                if saturate && nan_code == f.max_code as i32 + 1 {
                    // FN saturating: a NaN lane's code was capped at the largest finite
                    // code, one below NaN's, so subtracting its mask (minus one) gives
                    // NaN's code with no blend and no constant.
                    return done(with_sign(code.sub(nan)));
                }
                let v = if saturate {
                    code
                } else {
                    special(code, overflow, over)
                };
                with_sign(special(v, nan_code, nan))
            }
            Kind::Fnuz => {
                // No -0 (a value that rounds to zero included; the stores leave the
                // zero code unsigned where they put the signs in); NaN, and overflow
                // when not saturating, give the sign bit alone.
                let to_nan = if saturate { nan } else { nan.or(over) };
                if late_signs && sign_bit == f.max_code as i32 + 1 {
                    // The lanes to NaN were capped at the largest code, one below the
                    // sign bit alone: subtracting their mask gives it, with no blend (as
                    // FN's NaN above); the stores' signs leave it as it is.
                    return done(code.sub(to_nan));
                }
                let v = if late_signs {
                    code
                } else {
                    code.eq(splat(0)).and_not(sign).or(code)
                };
                special(v, sign_bit, to_nan)
            }
            Kind::Fp6 => {
                // No NaN: +NaN gives the sign bit alone, -NaN zero (as lowp::encode_f32).
                // Unless the cap gave it, a NaN lane's code was capped at the largest,
                // one below the sign bit: subtracting its mask gives the sign bit, which
                // the sign's XOR clears for -NaN; every other code is below the sign
                // bit, where XOR is OR (two operations where a blend of a NaN code took
                // four; the stores' XOR where they put the signs in).
                let code = if nan_capped { code } else { code.sub(nan) };
                if late_signs {
                    code
                } else {
                    code.xor(sign)
                }
            }
            Kind::Fp4 | Kind::E8m0 | Kind::Int { .. } => unreachable!("not a float8/6 format"),
        })
    }
}

/// FLOAT -> FLOAT6 (format `F`, options `OPT`) on a tier that puts the signs in as bytes
/// and takes the subnormal codes from the f32 values (AVX2): the codes of the two
/// vectors `lo` and `hi` (`Halves::load_f32_parts`, with their `clear` masks; `p` and
/// `q` their f32 values) as magnitude bytes in the order of `Halves::narrow_unsigned`.
/// The parts ([`encode_parts`]) are merged after the narrowing, 32 values per
/// operation where `encode_halves` merges sixteen: the normal codes narrowed with
/// unsigned saturation (a negative code gives 0, an overflow 255), the subnormal codes
/// with signed saturation, made magnitudes by the signs of the values
/// (`sign_of_bytes`: the sums of negative values are negated codes) and capped at twice
/// the smallest normal's code, and NaN's mask narrowed: the larger of the two codes,
/// capped at the largest code, or one more (the sign bit alone) for NaN: the same
/// codes as `encode_halves`' maximum and cap, two operations fewer per 32 values as
/// compiled.
///
/// # Safety
/// The CPU runs `V`'s family; `p` and `q` each hold the `4 * V::LANES` bytes of f32
/// values `lo` and `hi` were loaded from.
#[inline(always)]
unsafe fn fp6_f32_bytes<V: Halves, const F: u8, const OPT: u8>(
    (lo, lo_clear, p): (V, V, *const u8),
    (hi, hi_clear, q): (V, V, *const u8),
) -> V {
    // SAFETY: the caller runs `V`'s family; the parts read `p`'s and `q`'s bytes.
    unsafe {
        let (lo_code, lo_nan, lo_sub) =
            encode_parts::<V, 1, F, OPT, true>(lo, Some(p), Some(lo_clear));
        let (hi_code, hi_nan, hi_sub) =
            encode_parts::<V, 1, F, OPT, true>(hi, Some(q), Some(hi_clear));
        let sub = V::narrow_signed(lo_sub, hi_sub).sign_of_bytes(V::narrow_signed(lo, hi));
        merge_bytes::<V, F>((lo_code, hi_code), (lo_nan, hi_nan), sub)
    }
}

/// The merge of [`fp6_f32_bytes`] and [`half_bytes`]: the normal codes (`code`, not
/// capped) narrowed with unsigned saturation and capped at the largest code less the
/// narrowed `fix` mask (one more for the lanes to NaN), then the larger of them and the
/// subnormal codes `sub` (bytes, magnitudes) capped at twice the smallest normal's code,
/// which is below every cap: the cap off the subnormal codes' path, the longer
/// (BFLOAT16 -> FLOAT8E4M3FN +1.7% against the cap last).
///
/// # Safety
/// The CPU runs `V`'s family.
#[inline(always)]
unsafe fn merge_bytes<V: Halves, const F: u8>(code: (V, V), fix: (V, V), sub: V) -> V {
    // SAFETY: the caller runs `V`'s family; registers only.
    unsafe {
        let f = &FORMATS[F as usize];
        // Every byte `x` (below 256).
        let bytes = |x: u32| V::kept_splat(((x << 8) | x) as u16);
        let code = V::narrow_unsigned(code.0, code.1);
        let fix = V::narrow_signed(fix.0, fix.1);
        let sub = sub.min_ubytes(bytes(2 << f.man_bits));
        code.min_ubytes(bytes(f.max_code).sub_bytes(fix))
            .max_ubytes(sub)
    }
}

/// Whether BFLOAT16 -> format `F` with options `OPT` merges its codes on bytes
/// ([`half_bytes`]): where the stores put the signs in as bytes and the lanes to NaN
/// take the largest code plus one (FLOAT8E4M3FN saturating, the FNUZ formats, FLOAT6).
#[inline(always)]
const fn half_merged<V: Halves, const F: u8, const OPT: u8>() -> bool {
    let f = &FORMATS[F as usize];
    let sign_bit = 1u32 << (f.exp_bits + f.man_bits);
    V::BYTE_SIGNS
        && byte_signed::<F>().is_some()
        && match f.kind {
            Kind::Fn => OPT & 1 == 1 && sign_bit - 1 == f.max_code + 1,
            Kind::Fnuz => sign_bit == f.max_code + 1,
            Kind::Fp6 => true,
            _ => false,
        }
}

/// BFLOAT16 -> format `F` with options `OPT` where [`half_merged`]: the codes of `lo`
/// and `hi` as magnitude bytes in the order of `Halves::narrow_unsigned`, merged as
/// [`merge_bytes`] says, where `encode_halves` blends each vector's subnormal codes
/// under a compare and subtracts NaN's mask (two operations fewer per 32 values).
///
/// # Safety
/// The CPU runs `V`'s family.
#[inline(always)]
unsafe fn half_bytes<V: Halves, const F: u8, const OPT: u8>(lo: V, hi: V) -> V {
    // SAFETY: the caller runs `V`'s family; registers only.
    unsafe {
        let (lo_code, lo_fix, lo_sub) = encode_parts::<V, 1, F, OPT, true>(lo, None, None);
        let (hi_code, hi_fix, hi_sub) = encode_parts::<V, 1, F, OPT, true>(hi, None, None);
        let sub = V::narrow_unsigned(lo_sub, hi_sub);
        merge_bytes::<V, F>((lo_code, hi_code), (lo_fix, hi_fix), sub)
    }
}

/// The bit of the bfloat16 patterns at which float format `F`'s normals round (its
/// last kept bit), where the FLOAT steps load the values in two parts
/// (`Halves::load_f32_parts`): the top halves `t` (the bfloat16 truncated) and the
/// lanes whose sticky bit, that bit counted, is clear; else 0. Rounded to nearest even
/// at the kept bit `k`, an f32 `t << 16 | d` gains `(half - 1) << 16 | 0xffff` and `k`
/// at the bit below `t`'s, whose low half carries into `t` exactly when `d + k >= 1`.
/// So `t` plus half less one plus `(d != 0) | k` holds the rounded value (and NaN stays
/// above infinity in it): one operation per sixteen values fewer than rounding to odd
/// and adding `k` (two shifts fewer), and the sticky bit, added last, puts the code
/// two operations nearer the loads than ORing it into the pattern did.
/// FLOAT6, where the subnormal codes come from the f32 values
/// (`Halves::F32_SUBNORMALS`; the bfloat16's, rounded at other bits, would take `k`
/// for a dropped bit).
#[inline(always)]
pub(crate) const fn f32_lsb<V: Halves, const F: u8>() -> u16 {
    let f = &FORMATS[F as usize];
    match f.kind {
        Kind::Fp6 if V::F32_SUBNORMALS => 1 << (7 - f.man_bits),
        _ => 0,
    }
}

/// The signs of the values in `lo` and `hi` as the stores take them
/// (`Halves::sign_bytes`) where they put the signs of format `F` in, else a vector they
/// do not read.
///
/// # Safety
/// The CPU runs `V`'s family.
#[inline(always)]
unsafe fn store_signs<V: Halves, const F: u8>(lo: V, hi: V) -> V {
    if V::BYTE_SIGNS && byte_signed::<F>().is_some() {
        // SAFETY: the caller runs `V`'s family; registers only.
        unsafe { V::sign_bytes(lo, hi) }
    } else {
        lo
    }
}

/// The magnitude codes of FLOAT16 or BFLOAT16 magnitudes (`SRC`: 0 FLOAT16, 1 BFLOAT16)
/// below float format `F`'s smallest normal, or below the source's where that is higher
/// (FLOAT16 -> FLOAT8E5M2FNUZ: the lanes between the two are in the format's first
/// binade, which has the same quantum), rounded to nearest even at the format's
/// subnormal quantum: widened to f32 exactly, the FPU's addition of a power of two whose
/// ulp is that quantum rounds them, as in `lowp::encode_f32`; the code is the sum's bits
/// less the power of two's. A bfloat16 rounded to odd from f32 carries at least two more
/// bits than the quantum below the smallest normal, so the result is that of the
/// original value. Lanes at or above the smallest normal give values to be discarded.
///
/// # Safety
/// The CPU runs `V`'s family.
#[inline(always)]
unsafe fn subnormal_codes<V: Halves, const SRC: u8, const F: u8>(h: V, abs: V) -> V {
    // SAFETY: the caller runs `V`'s family; registers only.
    unsafe { V::add_magic::<SRC>(h, abs, subnormal_magic::<F>()) }
}

/// The f32 (bits) whose ulp is float format `F`'s subnormal quantum, with its low 16
/// bits zero: added to a magnitude below the format's smallest normal, the FPU rounds
/// it to that quantum ([`subnormal_codes`]).
#[inline(always)]
const fn subnormal_magic<const F: u8>() -> u32 {
    let f = &FORMATS[F as usize];
    ((151 - f.bias - f.man_bits as i32) << 23) as u32
}

/// The FLOAT4E2M1 code of each bfloat16 pattern (exact, or rounded to odd from f32) as
/// a key in 16-bit lanes, `(d, q)`: `d` the magnitude from 0.25 up in steps of 1/16 of a
/// binade, rounded to odd (so a rounding threshold of the format, a multiple of 1/8 of
/// a binade, is exact: 0 at 0.25 and below, 12 at 0.75, 18 at 1.25, 22 at 1.75, 26 at
/// 2.5, 30 at 3.5, 34 at 5), negative for NaN; `q` is `d / 4`, the index of
/// [`FP4_BASE`] and [`FP4_STEP`]. The rounding to odd ORs the sticky bit into bit 4
/// (`(x & 15) + 15` carries into it when the low four bits are not zero); adding 0x70
/// then carries a NaN's pattern (at least 0x7f90 by then, infinity's at most 0x7f8f)
/// past the sign bit, which the arithmetic shift keeps and the saturating subtraction
/// of 0.25's key (plus 7) does not reach; below 0.25 it stops at zero.
///
/// # Safety
/// The CPU runs `V`'s family.
#[inline(always)]
unsafe fn fp4_keys<V: Halves>(h: V) -> (V, V) {
    // SAFETY: the caller runs `V`'s family; registers only.
    unsafe {
        let splat = |x: i32| V::splat(x as u16);
        let abs = h.and(splat(0x7fff));
        let odd = abs.or(h.and(splat(15)).add(splat(15)));
        let d = odd.add(splat(0x70)).shr_signed(4).sub_sat(splat(0x3e8 + 7));
        (d, d.shr_signed(2))
    }
}

/// FLOAT4E2M1's magnitude code of key `d` (from [`fp4_keys`], narrowed to a byte) is
/// `FP4_BASE[d / 4]`, plus one where `d` is above `FP4_STEP[d / 4]` (127: never), each
/// plus 8 ([`fp4_byte_magnitudes`]); from `d / 4` = 10 (at 6.25, or above 127 where
/// narrowed) the code is 7, saturated.
const FP4_BASE: [u8; 16] = {
    let base = [0, 1, 1, 2, 2, 3, 4, 5, 6, 7, 7];
    let mut table = [15; 16];
    let mut i = 0;
    while i < base.len() {
        table[i] = base[i] + 8;
        i += 1;
    }
    table
};

/// See [`FP4_BASE`].
const FP4_STEP: [u8; 16] = [
    0, 127, 127, 127, 18, 21, 26, 29, 34, 127, 127, 127, 127, 127, 127, 127,
];

/// The FLOAT4E2M1 magnitude codes of the bfloat16 values (exact, or rounded to odd from
/// f32) in `lo` then `hi`, as bytes in the order of `Halves::narrow_signed`, each XOR 8
/// (8-15 for codes 0-7), NaN 0: XOR 8 for a value that is not negative, 0 for one that
/// is (say by a byte lookup of the signed narrowing of the values: 0 where its top bit
/// is set), puts the sign in and gives NaN 8 for + and 0 for -, as `lowp::encode_f32`
/// has it. The codes come from the key ([`fp4_keys`]) by two byte lookups and a compare
/// of 32 values per operation on AVX2, where counting two thresholds and rounding in
/// 16-bit lanes took 14 operations per sixteen values; a NaN's negative key gives 0 from
/// both lookups, and its compare is false.
///
/// # Safety
/// The CPU runs `V`'s family.
#[inline(always)]
unsafe fn fp4_byte_magnitudes<V: Halves>(lo: V, hi: V) -> V {
    // SAFETY: the caller runs `V`'s family; registers only.
    unsafe {
        let (d_lo, q_lo) = fp4_keys(lo);
        let (d_hi, q_hi) = fp4_keys(hi);
        let d = V::narrow_signed(d_lo, d_hi);
        let q = V::narrow_signed(q_lo, q_hi).min_bytes(V::splat(0x0a0a));
        let base = V::table_bytes(&FP4_BASE, q);
        let step = V::table_bytes(&FP4_STEP, q);
        base.sub_bytes(d.gt_bytes(step))
    }
}

/// The FLOAT4E2M1 codes of the FLOAT16 or BFLOAT16 values (`SRC`: 0, 1; exact, or
/// rounded to odd from f32) in `lo` then `hi`, as bytes in the order of
/// `Halves::narrow_signed` ([`fp4_byte_magnitudes`]), with their signs: XOR 8 looked
/// up by the signed narrowing of the values (`Halves::nonnegative_bytes`: 8 where not
/// negative), so +NaN gives 0x8 and -NaN 0x0, as `lowp::encode_f32` has it, and every
/// other code its sign bit. FLOAT16 goes through f32 (exact) to bfloat16 to odd first,
/// which keeps what the key tests. The one FLOAT4E2M1 encoder of every tier, packed
/// and unpacked (`Halves::store_fp4`).
///
/// # Safety
/// The CPU runs `V`'s family.
#[inline(always)]
pub(crate) unsafe fn fp4_bytes<V: Halves, const SRC: u8>(lo: V, hi: V) -> V {
    // SAFETY: the caller runs `V`'s family; registers only.
    unsafe {
        let (lo, hi) = if SRC == 0 {
            (lo.f16_to_bf16_odd(), hi.f16_to_bf16_odd())
        } else {
            (lo, hi)
        };
        let signs = V::narrow_signed(lo, hi).nonnegative_bytes(8);
        fp4_byte_magnitudes(lo, hi).xor(signs)
    }
}

/// FLOAT8E8M0 codes with options `OPT` (one per 16-bit lane) of bfloat16 values (exact,
/// or rounded to odd from f32): the rules of `lowp::encode_e8m0` in 16-bit lanes (twice
/// the values per instruction of its 32-bit form, at about a quarter of the operations;
/// on AVX2 0.77 -> 0.91-1.00x memcpy against the 32-bit-lane encoder). Rounding to odd
/// keeps every fact those rules test: whether the dropped mantissa is zero, at or above
/// a half, or (below 2^-126) above 0x40 or at least 0x60 in bfloat16's units, and
/// whether a value is below 2^-127 (0x0040) or above 2^127 (0x7f00). A normal's code is
/// its exponent field after the mode's rounding carries into it; below 2^-126 the
/// thresholds are a half step higher, which a saturating subtraction of one applies.
/// A lane may hold 0x1ff (a code of 0x100 marked bad): both ISAs' narrowing to bytes
/// gives 0xff for it.
///
/// # Safety
/// The CPU runs `V`'s family.
#[inline(always)]
unsafe fn e8m0_codes<V: Halves, const OPT: u8>(h: V) -> V {
    // SAFETY: the caller runs `V`'s family; registers only.
    unsafe {
        let abs = h.and(V::splat(0x7fff));
        // The rounding increment, and the bound under which a value below 2^-126 rounds
        // to code 0 although the increment carried it to 1 (0: none).
        let (carry, low_bound) = match OPT >> 1 {
            0 => (0x7f, 0x41),
            1 => (0, 0),
            _ => (0x40, 0x60),
        };
        let code = abs.add(V::splat(carry)).shr(7);
        let code = if low_bound == 0 {
            code
        } else {
            let low = V::splat(low_bound).gt(abs);
            code.sub_sat(low.and(V::splat(1)))
        };
        let ff = V::splat(0xff);
        if OPT & 1 == 1 {
            // Negative or zero -> 0, above 2^127 (infinity included) -> 0xfe, NaN -> 0xff.
            let code = h.negative().and_not(code.min(V::splat(0xfe)));
            let nan = abs.gt(V::splat(0x7f80));
            code.or(nan.and(ff))
        } else {
            // Negative (signed, so below), below 2^-127 (zero included), above 2^127,
            // infinite or NaN -> 0xff.
            let bad = V::splat(0x40).gt(h).or(h.gt(V::splat(0x7f00)));
            code.or(bad.and(ff))
        }
    }
}

/// Runs an encoder's whole steps (`S::run(src, dst)`: `step_in` source bytes to
/// `step_codes` codes of format `F` each, at most 256 and 64, packed or, `UNPACKED`, one
/// per byte) over `src`, then the values
/// left over, fewer than a step, as one more step padded with zeros in a stack buffer
/// (zero encodes to the code 0 in every format, so a part-filled last byte of packed
/// codes gets zero bits), of whose output the bytes that belong to `dst` are copied: a
/// short call, or a long one's tail, takes the vector path instead of the scalar encoder
/// (AVX2, 16 f32 -> FLOAT8E4M3FN per call: 41 ns -> 34 ns, where f32 -> f16 takes 20 ns).
/// The steps are a [`Body`] type, not a closure: a closure is compiled without the
/// family's features, so its intrinsics would not inline (FLOAT -> FLOAT8E4M3FN ran at
/// 0.02x memcpy so).
///
/// # Safety
/// `S` runs on whole steps (the CPU runs its family); `dst.len()` is
/// `output_bytes::<F, UNPACKED>` of the values of `src`.
#[inline(always)]
pub(crate) unsafe fn with_padded_tail<const F: u8, const UNPACKED: bool, S: Body>(
    src: &[u8],
    dst: &mut [u8],
    step_in: usize,
    step_codes: usize,
) {
    let whole = src.len() / step_in * step_in;
    let done = output_bytes::<F, UNPACKED>(whole / step_in * step_codes);
    // SAFETY: the caller's promise; both calls get whole steps and their output.
    unsafe { S::run(&src[..whole], &mut dst[..done]) };
    let rest = &src[whole..];
    if !rest.is_empty() {
        let mut padded = [0u8; 256];
        padded[..rest.len()].copy_from_slice(rest);
        let mut codes = [0u8; 64];
        // SAFETY: as above.
        unsafe {
            S::run(
                &padded[..step_in],
                &mut codes[..output_bytes::<F, UNPACKED>(step_codes)],
            )
        };
        let tail = &mut dst[done..];
        let n = tail.len();
        tail.copy_from_slice(&codes[..n]);
    }
}

/// Keeps the compiler from moving a step's loads above the stores of the step before:
/// the families run several steps per turn (AVX2: four streams), and with the loads
/// hoisted the compiler computed the first half of all four steps before any second
/// half, which holds more values than AVX2's sixteen registers: about ten spills and
/// reloads per step of FLOAT -> FLOAT8E4M3FN. It emits no instruction.
#[inline(always)]
pub(crate) fn step_boundary() {
    std::sync::atomic::compiler_fence(std::sync::atomic::Ordering::SeqCst);
}

/// One step of FLOAT -> float format `F` with options `OPT`: `2 * V::LANES` f32 (`si`)
/// rounded to bfloat16 to odd, encoded ([`encode_halves`]) and stored (`di`), packed
/// or, `UNPACKED`, one per byte.
///
/// # Safety
/// The CPU runs `V`'s family; `si` holds `8 * V::LANES` bytes and `di` at least
/// `output_bytes::<F, UNPACKED>(2 * V::LANES)`, the step's output, which it writes
/// first (the stores may write junk on bytes after it: `Halves::store_codes`).
#[inline(always)]
unsafe fn encode_f32_step<V: Halves, const F: u8, const OPT: u8, const UNPACKED: bool>(
    si: &[u8],
    di: &mut [u8],
) {
    debug_assert!(
        si.len() == 8 * V::LANES && di.len() >= output_bytes::<F, UNPACKED>(2 * V::LANES)
    );
    step_boundary();
    // SAFETY: the caller runs `V`'s family; the loads read `si`'s bytes (two halves of
    // `4 * V::LANES`) and `store_codes` writes `di`'s.
    unsafe {
        let p = si.as_ptr();
        let q = p.add(4 * V::LANES);
        if FORMATS[F as usize].kind == Kind::Fp4 {
            let (lo, hi) = (V::load_f32_odd(p), V::load_f32_odd(q));
            return V::store_f32_fp4(di, fp4_bytes::<V, 1>(lo, hi), UNPACKED);
        }
        // (No closure for the two: it would be compiled without the family's features.)
        let ((lo, lo_clear), (hi, hi_clear)) = match f32_lsb::<V, F>() {
            0 => ((V::load_f32_odd(p), None), (V::load_f32_odd(q), None)),
            lsb => {
                let ((lo, lo_clear), (hi, hi_clear)) =
                    (V::load_f32_parts(p, lsb), V::load_f32_parts(q, lsb));
                ((lo, Some(lo_clear)), (hi, Some(hi_clear)))
            }
        };
        let signs = store_signs::<V, F>(lo, hi);
        if let (Some(lo_clear), Some(hi_clear), true, false) =
            (lo_clear, hi_clear, V::BYTE_SIGNS, UNPACKED)
        {
            let bytes = fp6_f32_bytes::<V, F, OPT>((lo, lo_clear, p), (hi, hi_clear, q));
            return V::store_f32_narrowed::<F>(di, bytes, signs);
        }
        let (lo, hi) = (
            encode_halves::<V, 1, F, OPT>(lo, Some(p), lo_clear),
            encode_halves::<V, 1, F, OPT>(hi, Some(q), hi_clear),
        );
        if UNPACKED {
            V::store_f32_bytes::<F>(di, lo, hi, signs);
        } else {
            V::store_f32_codes::<F>(di, lo, hi, signs);
        }
    }
}

/// One step of FLOAT16 or BFLOAT16 (`SRC`: 0, 1) -> float format `F` with options
/// `OPT`: `2 * V::LANES` values (`si`) encoded ([`encode_halves`]) and stored (`di`),
/// packed or, `UNPACKED`, one per byte.
///
/// # Safety
/// The CPU runs `V`'s family; `si` holds `4 * V::LANES` bytes and `di` at least
/// `output_bytes::<F, UNPACKED>(2 * V::LANES)`, as for [`encode_f32_step`].
#[inline(always)]
unsafe fn encode_half_step<
    V: Halves,
    const SRC: u8,
    const F: u8,
    const OPT: u8,
    const UNPACKED: bool,
>(
    si: &[u8],
    di: &mut [u8],
) {
    debug_assert!(
        si.len() == 4 * V::LANES && di.len() >= output_bytes::<F, UNPACKED>(2 * V::LANES)
    );
    step_boundary();
    // SAFETY: the caller runs `V`'s family; the loads read `si`'s bytes (two halves of
    // `2 * V::LANES`) and `store_codes` writes `di`'s.
    unsafe {
        let p = si.as_ptr();
        let (lo, hi) = (V::load(p), V::load(p.add(2 * V::LANES)));
        if FORMATS[F as usize].kind == Kind::Fp4 {
            return V::store_fp4(di, fp4_bytes::<V, SRC>(lo, hi), UNPACKED);
        }
        let signs = store_signs::<V, F>(lo, hi);
        if SRC == 1 && !UNPACKED && half_merged::<V, F, OPT>() {
            return V::store_narrowed::<F>(di, half_bytes::<V, F, OPT>(lo, hi), signs);
        }
        let lo = encode_halves::<V, SRC, F, OPT>(lo, None, None);
        let hi = encode_halves::<V, SRC, F, OPT>(hi, None, None);
        if UNPACKED {
            V::store_bytes::<F>(di, lo, hi, signs);
        } else {
            V::store_codes::<F>(di, lo, hi, signs);
        }
    }
}

/// [`encode_f32_step`] as a [`Body`], for the families' step loops.
pub(crate) struct F32Step<V, const F: u8, const OPT: u8, const UNPACKED: bool>(PhantomData<V>);

impl<V: Halves, const F: u8, const OPT: u8, const UNPACKED: bool> Body
    for F32Step<V, F, OPT, UNPACKED>
{
    #[inline(always)]
    unsafe fn run(si: &[u8], di: &mut [u8]) {
        // SAFETY: the caller's promise is the step's.
        unsafe { encode_f32_step::<V, F, OPT, UNPACKED>(si, di) }
    }
}

/// [`encode_half_step`] as a [`Body`], for the families' step loops.
pub(crate) struct HalfStep<V, const SRC: u8, const F: u8, const OPT: u8, const UNPACKED: bool>(
    PhantomData<V>,
);

impl<V: Halves, const SRC: u8, const F: u8, const OPT: u8, const UNPACKED: bool> Body
    for HalfStep<V, SRC, F, OPT, UNPACKED>
{
    #[inline(always)]
    unsafe fn run(si: &[u8], di: &mut [u8]) {
        // SAFETY: the caller's promise is the step's.
        unsafe { encode_half_step::<V, SRC, F, OPT, UNPACKED>(si, di) }
    }
}

/// What a kernel family supplies to the encoders besides its vector type: its entry
/// point and kernels, and how it walks whole steps (AVX2 in four prefetched streams,
/// NEON one step after another). Implemented by the family's token.
pub(crate) trait EncoderFamily: Copy + 'static {
    /// The family's vector of 16-bit lanes.
    type V: Halves;
    /// The family's entry point for body `B` (compiled with its target features; on
    /// x86-64 with AVX-512's added where the token has them).
    fn entry<B: Body>(self) -> Run;
    /// A kernel of the family (this token proves the CPU runs it).
    fn kernel(self, run: Run, src_size: usize, dst_size: usize) -> Kernel;
    /// FLOAT -> format `F` (a float or an integer format) with options `OPT` over
    /// whole steps of `2 * V::LANES` values, the codes packed or, `UNPACKED`, one per
    /// byte.
    ///
    /// # Safety
    /// The CPU runs the family; `src.len()` is a multiple of `8 * V::LANES` and
    /// `dst.len()` is `output_bytes::<F, UNPACKED>` of `src.len() / 4`.
    unsafe fn f32_steps<const F: u8, const OPT: u8, const UNPACKED: bool>(
        src: &[u8],
        dst: &mut [u8],
    );
    /// FLOAT16 or BFLOAT16 (`SRC`: 0, 1) -> float format `F` with options `OPT` over
    /// whole steps of `2 * V::LANES` values, the codes packed or, `UNPACKED`, one per
    /// byte.
    ///
    /// # Safety
    /// The CPU runs the family; `src.len()` is a multiple of `4 * V::LANES` and
    /// `dst.len()` is `output_bytes::<F, UNPACKED>` of `src.len() / 2`.
    unsafe fn half_steps<const SRC: u8, const F: u8, const OPT: u8, const UNPACKED: bool>(
        src: &[u8],
        dst: &mut [u8],
    );
}

/// Implements [`EncoderFamily`] for a family's token: `encoder_family!(Token, Vector,
/// encoder_entry, kernel, f32_steps, half_steps)`, with the family's entry chooser (`fn
/// encoder_entry<B: Body>(token) -> Run`), kernel maker (`fn kernel(run, src_size,
/// dst_size, token) -> Kernel`) and two step walkers named.
macro_rules! encoder_family {
    (
        $token:ty, $vector:ty, $entry:ident, $kernel:ident, $f32_steps:ident,
        $half_steps:ident
    ) => {
        impl $crate::simd::encode::EncoderFamily for $token {
            type V = $vector;
            fn entry<B: Body>(self) -> Run {
                $entry::<B>(self)
            }
            fn kernel(self, run: Run, src_size: usize, dst_size: usize) -> Kernel {
                $kernel(run, src_size, dst_size, self)
            }
            #[inline(always)]
            unsafe fn f32_steps<const F: u8, const OPT: u8, const UNPACKED: bool>(
                src: &[u8],
                dst: &mut [u8],
            ) {
                // SAFETY: the caller's promise is the steps'.
                unsafe { $f32_steps::<F, OPT, UNPACKED>(src, dst) }
            }
            #[inline(always)]
            unsafe fn half_steps<
                const SRC: u8,
                const F: u8,
                const OPT: u8,
                const UNPACKED: bool,
            >(
                src: &[u8],
                dst: &mut [u8],
            ) {
                // SAFETY: the caller's promise is the steps'.
                unsafe { $half_steps::<SRC, F, OPT, UNPACKED>(src, dst) }
            }
        }
    };
}
pub(crate) use encoder_family;

/// [`EncoderFamily::f32_steps`] as a [`Body`], for [`with_padded_tail`].
struct F32Steps<E, const F: u8, const OPT: u8, const UNPACKED: bool>(PhantomData<E>);

impl<E: EncoderFamily, const F: u8, const OPT: u8, const UNPACKED: bool> Body
    for F32Steps<E, F, OPT, UNPACKED>
{
    #[inline(always)]
    unsafe fn run(src: &[u8], dst: &mut [u8]) {
        // SAFETY: the caller's promise is the steps'.
        unsafe { E::f32_steps::<F, OPT, UNPACKED>(src, dst) }
    }
}

/// [`EncoderFamily::half_steps`] as a [`Body`], for [`with_padded_tail`].
struct HalfSteps<E, const SRC: u8, const F: u8, const OPT: u8, const UNPACKED: bool>(
    PhantomData<E>,
);

impl<E: EncoderFamily, const SRC: u8, const F: u8, const OPT: u8, const UNPACKED: bool> Body
    for HalfSteps<E, SRC, F, OPT, UNPACKED>
{
    #[inline(always)]
    unsafe fn run(src: &[u8], dst: &mut [u8]) {
        // SAFETY: the caller's promise is the steps'.
        unsafe { E::half_steps::<SRC, F, OPT, UNPACKED>(src, dst) }
    }
}

/// The body of family `E`'s encoder from FLOAT to format `F` with options `OPT`, the
/// codes packed or, `UNPACKED`, one per byte.
struct EncodeF32<E, const F: u8, const OPT: u8, const UNPACKED: bool>(PhantomData<E>);

impl<E: EncoderFamily, const F: u8, const OPT: u8, const UNPACKED: bool> Body
    for EncodeF32<E, F, OPT, UNPACKED>
{
    #[inline(always)]
    unsafe fn run(src: &[u8], dst: &mut [u8]) {
        let lanes = <E::V as Halves>::LANES;
        // SAFETY: the caller runs the family and sized `dst` for `src`; the steps get
        // whole steps of `2 * lanes` values.
        unsafe {
            with_padded_tail::<F, UNPACKED, F32Steps<E, F, OPT, UNPACKED>>(
                src,
                dst,
                8 * lanes,
                2 * lanes,
            )
        }
    }
}

/// The body of family `E`'s encoder from FLOAT16 or BFLOAT16 (`SRC`: 0, 1) to float
/// format `F` with options `OPT`, the codes packed or, `UNPACKED`, one per byte.
struct EncodeHalf<E, const SRC: u8, const F: u8, const OPT: u8, const UNPACKED: bool>(
    PhantomData<E>,
);

impl<E: EncoderFamily, const SRC: u8, const F: u8, const OPT: u8, const UNPACKED: bool> Body
    for EncodeHalf<E, SRC, F, OPT, UNPACKED>
{
    #[inline(always)]
    unsafe fn run(src: &[u8], dst: &mut [u8]) {
        let lanes = <E::V as Halves>::LANES;
        // SAFETY: as for `EncodeF32`.
        unsafe {
            with_padded_tail::<F, UNPACKED, HalfSteps<E, SRC, F, OPT, UNPACKED>>(
                src,
                dst,
                4 * lanes,
                2 * lanes,
            )
        }
    }
}

/// Family `E`'s encoder of format `F` with options `OPT` from `source`, if it has one:
/// FLOAT to every format, FLOAT16 and BFLOAT16 to the float formats. A 4-bit, 2-bit or
/// 6-bit format's packs its codes itself, unless `UNPACKED`: then it writes them one
/// per byte (`SubByteLayout::Unpacked`), the vector's bytes before packing, where a
/// packed kernel's output was widened in a second pass (`formats::pack::unpack`).
pub(crate) fn encoder<E: EncoderFamily, const F: u8, const OPT: u8, const UNPACKED: bool>(
    source: Scalar,
    family: E,
) -> Option<Kernel> {
    let is_int = matches!(FORMATS[F as usize].kind, Kind::Int { .. });
    let (run, size) = match source {
        Scalar::F32 => (family.entry::<EncodeF32<E, F, OPT, UNPACKED>>(), 4),
        Scalar::F16 if !is_int => (family.entry::<EncodeHalf<E, 0, F, OPT, UNPACKED>>(), 2),
        Scalar::Bf16 if !is_int => (family.entry::<EncodeHalf<E, 1, F, OPT, UNPACKED>>(), 2),
        _ => return None,
    };
    let kernel = family.kernel(run, size, 1);
    Some(match FORMATS[F as usize].bits {
        bits @ (4 | 2 | 6) if !UNPACKED => kernel.packing(bits),
        _ => kernel,
    })
}
