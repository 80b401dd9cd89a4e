// SPDX-License-Identifier: MIT OR Apache-2.0
//! The fast paths of QuantizeLinear and DequantizeLinear: the cast kernels of the CPU
//! tier decode or encode a chunk of elements at a time (FLOAT4E2M1, FLOAT8, INT4/UINT4,
//! INT8/UINT8 to and from FLOAT), and a loop the compiler vectorises applies the scales
//! (and zero points) run by run (`shape::Run`: elements sharing one scale, or following
//! a row of scales). The kernels are chosen once per call.
//!
//! Every fast path gives the scalar path's result (`quant/mod.rs`, the reference): where
//! its f32 arithmetic is not provably the one rounding from the exact value, the element
//! is flagged and recomputed by the scalar path.
//!
//! - DequantizeLinear to FLOAT: an element (at most 9 bits after its zero point) times
//!   an f32 scale is rounded once by the f32 product, as the scalar path rounds the
//!   exact f64 product once. To FLOAT16/BFLOAT16: the f32 product is exact when the
//!   element's and the scale's significant bits fit in 24 (not for FLOAT scales, which
//!   keep the scalar path) and the product is an f32 normal number (or 0 from a 0
//!   element); it is then rounded once by the cast. Other elements are flagged.
//! - QuantizeLinear with FLOAT8E8M0 scales: x * 2^-k is x / 2^k exactly unless the
//!   result is not an f32 normal number; those (besides 0 from 0) are flagged for a float
//!   element type. An integer type rounds every such value as the scalar path does
//!   (under- and overflow round to 0 and saturate alike, NaN becomes 0).
//! - MX quantization, the scale 2^e computed from the block's largest magnitude (the
//!   blocks holding an infinity or NaN are zeroed, not divided): x * 2^-e is exact
//!   unless it is below f32's normal range (no quotient overflows: the largest is below
//!   2^(emax + 1)); such a quotient, and the exact one, are below 2^-126, which every
//!   FLOAT8 and FLOAT4 element type rounds to 0 of the same sign. Nothing is flagged.
//! - QuantizeLinear with other scales: f32(x / scale) is rounded before the element
//!   rounding; the two roundings give the one rounding of x / scale unless f32's result
//!   is a tie of the element type (a float type's midpoint or grid point: its fraction
//!   bits below the element's mantissa + 1 are 0; an integer type's k + 0.5), or not a
//!   normal number: those are flagged. With `precision` FLOAT the rounded quotient is
//!   the definition, and nothing is flagged.

use super::shape::{Plan, Run, Runs};
use crate::cast::kernels::{select, select_any};
use crate::dtype::{DType, Scalar};
use crate::formats::convert::{
    bf16_bits_to_f32, f16_bits_to_f32, f64_to_bf16_bits, f64_to_f16_bits,
};
use crate::formats::dispatch::by_format;
use crate::formats::lowp::{decode_f32, decode_int, format_of, Kind, FORMATS};
use crate::formats::pack;
use crate::formats::repr::Repr;
use crate::formats::visit::FormatVisitor;
use crate::simd::kernel::{Kernel, Tier};
#[cfg(target_arch = "x86_64")]
use crate::simd::{family::enable_features, x86_64::avx2_family};

/// Elements per step: the step's buffers stay in the first-level cache. Even, so that a
/// step of 4-bit elements starts on a whole byte.
const CHUNK: usize = 2048;

/// Whether [`MxScales`] can compute blocks of `block` elements: each block within one
/// chunk of the fast path.
pub fn mx_block_fits(block: usize) -> bool {
    block > 0 && CHUNK % block == 0
}

/// The kernel that decodes elements of `dtype` (one code per byte, or 4-bit codes
/// packed two per byte) to f32, if the fast paths take the type.
fn decoder(dtype: DType, tier: Tier) -> Option<Kernel> {
    let f32_ = Repr::Std(Scalar::F32);
    match dtype {
        DType::Int8 => Some(select(Scalar::I8, Scalar::F32, tier)),
        DType::Uint8 => Some(select(Scalar::U8, Scalar::F32, tier)),
        DType::Float => Some(select(Scalar::F32, Scalar::F32, tier)),
        DType::Float16 => Some(select(Scalar::F16, Scalar::F32, tier)),
        DType::Bfloat16 => Some(select(Scalar::Bf16, Scalar::F32, tier)),
        _ if matches!(dtype.bits(), 4 | 8) => {
            format_of(dtype).map(|f| select_any(Repr::Low(f), f32_, true, 0, tier))
        }
        _ => None,
    }
}

#[inline(always)]
/// Decodes elements `c0 .. c1` of `data` (of a type with `bits` per element, `c0` a
/// whole byte) into f32 bytes in `out`.
fn decode(k: &Kernel, bits: u32, data: &[u8], (c0, c1): (usize, usize), out: &mut [u8]) {
    let n = c1 - c0;
    if bits != 4 {
        let size = bits as usize / 8;
        k.run(&data[c0 * size..c1 * size], &mut out[..4 * n]);
        return;
    }
    let src = &data[c0 / 2..pack::packed_bytes(4, c1)];
    if k.unpacks_bits == 4 {
        k.run(src, &mut out[..4 * n]);
    } else {
        let mut codes = [0u8; CHUNK];
        pack::unpack(4, src, &mut codes[..n]);
        k.run(&codes[..n], &mut out[..4 * n]);
    }
}

/// The values of a scale or zero-point tensor as f32, read run by run (no copy of the
/// whole tensor): types of at most 8 bits through a table of their codes' values.
pub struct Values<'a> {
    dtype: DType,
    data: &'a [u8],
    table: [f32; 256],
}

impl<'a> Values<'a> {
    /// The reader of a tensor of `dtype` (FLOAT, FLOAT16, BFLOAT16, FLOAT8E8M0 or a
    /// quantized type of 4 or 8 bits); `value(code)` gives the exact value of each code
    /// of a type of at most 8 bits (as f32, or its inverse where the caller asks).
    pub fn new(dtype: DType, data: &'a [u8], value: impl Fn(u8) -> f32) -> Values<'a> {
        let mut table = [0f32; 256];
        if dtype.bits() <= 8 {
            for (c, t) in table.iter_mut().enumerate().take(1 << dtype.bits()) {
                *t = value(c as u8);
            }
        }
        Values { dtype, data, table }
    }

    /// The value of code `c` of a type of at most 8 bits.
    #[inline(always)]
    fn of_code(&self, c: u8) -> f32 {
        self.table[usize::from(c)]
    }

    #[inline(always)]
    fn get(&self, i: usize) -> f32 {
        match self.dtype.bits() {
            4 => self.table[usize::from(pack::get(4, self.data, i))],
            8 => self.table[usize::from(self.data[i])],
            _ => {
                let half = |i: usize| u16::from_ne_bytes([self.data[2 * i], self.data[2 * i + 1]]);
                match self.dtype {
                    DType::Float16 => f16_bits_to_f32(half(i)),
                    DType::Bfloat16 => bf16_bits_to_f32(half(i)),
                    _ => f32_at(&self.data[4 * i..]),
                }
            }
        }
    }

    /// The values of a piece's scale elements `i + j * stride` (`len` of them for
    /// stride 1, one for stride 0), in `buf`.
    #[inline(always)]
    fn piece<'b>(&self, i: usize, len: usize, stride: usize, buf: &'b mut [f32]) -> &'b [f32] {
        let len = if stride == 0 { 1 } else { len };
        let out = &mut buf[..len];
        // One loop per type (the type matched once, not per element): FLOAT scales of a
        // per-axis row are a plain copy.
        match (self.dtype.bits(), self.dtype) {
            (8, _) => {
                for (v, &c) in out.iter_mut().zip(&self.data[i..i + len]) {
                    *v = self.table[usize::from(c)];
                }
            }
            (32, DType::Float) => {
                for (v, b) in out
                    .iter_mut()
                    .zip(self.data[4 * i..4 * (i + len)].chunks_exact(4))
                {
                    *v = f32_at(b);
                }
            }
            _ => {
                for (j, v) in out.iter_mut().enumerate() {
                    *v = self.get(i + j);
                }
            }
        }
        out
    }
}

/// The runs of a plan, clipped to steps.
struct Cursor {
    runs: Runs,
    run: Run,
}

impl Cursor {
    fn new(plan: &Plan) -> Cursor {
        Cursor {
            runs: plan.runs(),
            run: Run::default(),
        }
    }

    /// The pieces of runs covering elements `c0 .. c1`, as `[offset, len, scale,
    /// stride]` (`offset` from `c0`; `scale` the piece's first scale element), in
    /// `out`. A list rather than a callback: the loops over it stay in the caller's
    /// function, compiled with its tier's features.
    #[inline(always)]
    fn pieces(&mut self, c0: usize, c1: usize, out: &mut Vec<[usize; 4]>) {
        out.clear();
        let mut i = c0;
        while i < c1 {
            while self.run.start + self.run.len <= i {
                self.run = self.runs.next().expect("the runs cover every element");
            }
            let r = self.run;
            let end = (r.start + r.len).min(c1);
            out.push([
                i - c0,
                end - i,
                r.scale + (i - r.start) * r.stride,
                r.stride,
            ]);
            i = end;
        }
    }
}

#[inline(always)]
fn f32_at(bytes: &[u8]) -> f32 {
    f32::from_ne_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
}

/// How [`apply`] reads its input elements: f32 bytes, or one code per byte.
trait Element {
    const SIZE: usize;
    fn read(bytes: &[u8]) -> f32;
}

/// f32 bytes.
struct F32Bytes;

impl Element for F32Bytes {
    const SIZE: usize = 4;
    #[inline(always)]
    fn read(bytes: &[u8]) -> f32 {
        f32_at(bytes)
    }
}

impl<C: CodeValue> Element for C {
    const SIZE: usize = 1;
    #[inline(always)]
    fn read(bytes: &[u8]) -> f32 {
        C::value(bytes[0])
    }
}

/// `out[j] = op(v[j], scale[j * stride], zero[j * stride])` over f32 bytes, and whether
/// `flag` held for any element; `zero` is 0 without a zero point. Written per stride
/// so that each loop vectorises.
#[inline(always)]
fn apply<C: Element>(
    v: &[u8],
    out: &mut [u8],
    (scale, zero, stride): (&[f32], Option<&[f32]>, usize),
    op: impl Fn(f32, f32, f32) -> f32,
    flag: impl Fn(f32, f32, f32, f32) -> bool,
) -> bool {
    let mut any = false;
    let mut step = |d: &mut [u8], x: f32, s: f32, z: f32| {
        let y = op(x, s, z);
        any |= flag(x, s, z, y);
        d.copy_from_slice(&y.to_ne_bytes());
    };
    // Plain `for` loops: `for_each` left the loop in a function of its own, compiled
    // without the tier's features.
    let pairs = out.chunks_exact_mut(4).zip(v.chunks_exact(C::SIZE));
    match (stride, zero) {
        (0, None) => {
            for (d, x) in pairs {
                step(d, C::read(x), scale[0], 0.0);
            }
        }
        (0, Some(z)) => {
            for (d, x) in pairs {
                step(d, C::read(x), scale[0], z[0]);
            }
        }
        (_, None) => {
            for ((d, x), &s) in pairs.zip(scale) {
                step(d, C::read(x), s, 0.0);
            }
        }
        (_, Some(z)) => {
            for (((d, x), &s), &z) in pairs.zip(scale).zip(z) {
                step(d, C::read(x), s, z);
            }
        }
    }
    any
}

/// What DequantizeLinear's fast path reads: x's type and bytes, the scales and zero
/// points, y's type.
pub struct DqArgs<'a> {
    pub xt: DType,
    pub xd: &'a [u8],
    pub scales: Values<'a>,
    pub zeros: Option<Values<'a>>,
    pub yt: DType,
}

/// Whether DequantizeLinear has a fast path for these types.
pub fn dequantize_fast(xt: DType, st: DType, yt: DType, tier: Tier) -> bool {
    let quant = matches!(
        xt,
        DType::Int8 | DType::Uint8 | DType::Int4 | DType::Uint4 | DType::Float4E2M1
    ) || (xt.bits() == 8 && format_of(xt).is_some());
    // The significant bits of an element after its zero point, and of a scale.
    let element_bits = if matches!(xt, DType::Int8 | DType::Uint8) {
        8
    } else {
        4
    };
    let scale_bits = match st {
        DType::Float8E8M0 => 1,
        DType::Bfloat16 => 8,
        DType::Float16 => 11,
        _ => 24,
    };
    quant && decoder(xt, tier).is_some() && (yt == DType::Float || element_bits + scale_bits <= 24)
}

/// An element type's codes as f32, the rule inlined into the fused loops.
pub trait CodeValue {
    /// Bits per element: 4 (packed two per byte) or 8.
    const BITS: u32;
    fn value(code: u8) -> f32;
}

/// The codes of low-precision format `F` (FLOAT8, FLOAT4E2M1, INT4, UINT4).
pub struct LowCode<const F: u8>;

impl<const F: u8> CodeValue for LowCode<F> {
    const BITS: u32 = FORMATS[F as usize].bits;
    #[inline(always)]
    fn value(code: u8) -> f32 {
        if matches!(FORMATS[F as usize].kind, Kind::Int { .. }) {
            f32::from(decode_int::<F>(code))
        } else {
            decode_f32::<F>(code)
        }
    }
}

/// INT8 codes.
pub struct I8Code;

impl CodeValue for I8Code {
    const BITS: u32 = 8;
    #[inline(always)]
    fn value(code: u8) -> f32 {
        f32::from(code as i8)
    }
}

/// UINT8 codes.
pub struct U8Code;

impl CodeValue for U8Code {
    const BITS: u32 = 8;
    #[inline(always)]
    fn value(code: u8) -> f32 {
        f32::from(code)
    }
}

type DqEntry = fn(&Plan, usize, &DqArgs, &mut [u8], Tier);

/// The fused DequantizeLinear of the format visited.
struct DqFor;

impl FormatVisitor for DqFor {
    type Out = DqEntry;
    fn visit<const F: u8>(self) -> DqEntry {
        dequantize_entry::<LowCode<F>>
    }
}

/// DequantizeLinear's fast path (`dequantize_fast` holds): y = (x - zero) * scale.
pub fn dequantize(plan: &Plan, count: usize, a: &DqArgs, yd: &mut [u8], tier: Tier) {
    let entry: DqEntry = match a.xt {
        DType::Int8 => dequantize_entry::<I8Code>,
        DType::Uint8 => dequantize_entry::<U8Code>,
        t => by_format(
            format_of(t).expect("dequantize_fast chose the types"),
            DqFor,
        ),
    };
    entry(plan, count, a, yd, tier)
}

/// [`dequantize`] for the codes of `C`, on the tier's build.
fn dequantize_entry<C: CodeValue>(
    plan: &Plan,
    count: usize,
    a: &DqArgs,
    yd: &mut [u8],
    tier: Tier,
) {
    #[cfg(target_arch = "x86_64")]
    if let Tier::Avx2(_) = tier {
        // SAFETY: an AVX2 tier is made only on a CPU that runs the AVX2 family.
        unsafe { dequantize_avx2::<C>(plan, count, a, yd, tier) };
        return;
    }
    dequantize_body::<C>(plan, count, a, yd, tier)
}

#[cfg(target_arch = "x86_64")]
avx2_family! { enable_features! {
    /// # Safety
    /// The CPU runs the AVX2 family.
    unsafe fn dequantize_avx2<C: CodeValue>(
        plan: &Plan,
        count: usize,
        a: &DqArgs,
        yd: &mut [u8],
        tier: Tier,
    ) {
        dequantize_body::<C>(plan, count, a, yd, tier)
    }

    /// # Safety
    /// The CPU runs the AVX2 family.
    unsafe fn quantize_avx2(plan: &Plan, a: &QArgs, yd: &mut [u8], mx: Option<MxScales>, tier: Tier) {
        quantize_body(plan, a, yd, mx, tier)
    }
} }

/// [`dequantize`], compiled for each tier's features. The output is written with
/// ordinary stores: staging it through a buffer for streaming stores measured slower
/// (MXFP8 -> FLOAT 0.5x memcpy against 0.8-0.96x).
#[inline(always)]
fn dequantize_body<C: CodeValue>(plan: &Plan, count: usize, a: &DqArgs, yd: &mut [u8], tier: Tier) {
    let uniform = plan.uniform_block();
    let narrow = match a.yt {
        DType::Float => None,
        DType::Float16 => Some(select(Scalar::F32, Scalar::F16, tier)),
        _ => Some(select(Scalar::F32, Scalar::Bf16, tier)),
    };
    let ysize = a.yt.bits() as usize / 8;
    let mut cursor = Cursor::new(plan);
    let mut unpacked = [0u8; CHUNK];
    let mut products = [0u8; 4 * CHUNK];
    let mut pieces = Vec::new();
    let (mut sbuf, mut zbuf) = ([0f32; CHUNK], [0f32; CHUNK]);
    // A product the narrowing to FLOAT16/BFLOAT16 would not round once from the exact
    // value: below f32's normal range (0 from a nonzero element included).
    let inexact = |x: f32, z: f32, y: f32| ((y.abs() < f32::MIN_POSITIVE) | y.is_nan()) & (x != z);
    // A block whose scale's magnitude is at least this has no such product: its nonzero
    // elements (after the zero point: integers differ from it by 1 or more) are at least
    // the type's smallest magnitude, and the type has no NaN. Infinite (every block
    // checked) for small calls, where finding it would cost more than it saves, and for
    // types with NaN codes.
    let unflagged_from = if narrow.is_some() && count >= CHUNK {
        let values = (0..1u32 << C::BITS).map(|c| C::value(c as u8));
        let nan = values.clone().any(f32::is_nan);
        let int = values.clone().all(|v| v.is_nan() || v.fract() == 0.0);
        let least = values
            .filter(|v| *v != 0.0)
            .fold(f32::INFINITY, |m, v| m.min(v.abs()));
        let least = if int { 1.0 } else { least };
        if nan {
            f32::INFINITY
        } else {
            f32::MIN_POSITIVE / least
        }
    } else {
        f32::INFINITY
    };
    for c0 in (0..count).step_by(CHUNK) {
        let c1 = (c0 + CHUNK).min(count);
        let n = c1 - c0;
        let codes: &[u8] = if C::BITS == 4 {
            pack::unpack(
                4,
                &a.xd[c0 / 2..pack::packed_bytes(4, c1)],
                &mut unpacked[..n],
            );
            &unpacked[..n]
        } else {
            &a.xd[c0..c1]
        };
        let out = match narrow {
            None => &mut yd[4 * c0..4 * c1],
            Some(_) => &mut products[..4 * n],
        };
        let mut any = false;
        if let Some(b) = uniform {
            // Block by block (block i / b), no list of pieces: with blocks of 32 its
            // cost showed (MXFP4 -> FLOAT 0.58x memcpy with it, 0.88x without).
            let mut i = c0;
            let mut block = c0 / b;
            while i < c1 {
                let end = ((block + 1) * b).min(c1);
                let s = a.scales.get(block);
                let z = a.zeros.as_ref().map_or(0.0, |z| z.get(block));
                let v = &codes[i - c0..end - c0];
                let pairs = out[4 * (i - c0)..4 * (end - c0)].chunks_exact_mut(4).zip(v);
                if narrow.is_none() || s.abs() >= unflagged_from {
                    for (d, &c) in pairs {
                        d.copy_from_slice(&((C::value(c) - z) * s).to_ne_bytes());
                    }
                } else {
                    for (d, &c) in pairs {
                        let x = C::value(c);
                        let y = (x - z) * s;
                        any |= inexact(x, z, y);
                        d.copy_from_slice(&y.to_ne_bytes());
                    }
                }
                i = end;
                block += 1;
            }
        } else {
            cursor.pieces(c0, c1, &mut pieces);
            for &[j, len, si, stride] in &pieces {
                let (v, d) = (&codes[j..j + len], &mut out[4 * j..4 * (j + len)]);
                let sc = a.scales.piece(si, len, stride, &mut sbuf);
                let zc = a
                    .zeros
                    .as_ref()
                    .map(|z| z.piece(si, len, stride, &mut zbuf));
                let s = (sc, zc, stride);
                let flag = |x, _, z, y| narrow.is_some() & inexact(x, z, y);
                any |= apply::<C>(v, d, s, |x, s, z| (x - z) * s, flag);
            }
        }
        let Some(narrow) = &narrow else {
            continue;
        };
        let out = &mut yd[ysize * c0..ysize * c1];
        narrow.run(&products[..4 * n], out);
        if !any {
            continue;
        }
        // The flagged elements again: the exact product (at most 9 bits times at most
        // 24: exact in f64) rounded once.
        if let Some(b) = uniform {
            pieces.clear();
            pieces.extend((c0..c1).map(|i| [i - c0, 1, i / b, 0]));
        }
        for &[j, len, si, stride] in &pieces {
            for k in j..j + len {
                let sk = si + (k - j) * stride;
                let z = a.zeros.as_ref().map_or(0.0, |z| z.get(sk));
                let x = C::value(codes[k]);
                let s = a.scales.get(sk);
                if inexact(x, z, (x - z) * s) {
                    // The difference in f64 too, so that no f32 x f32 -> f64 multiply
                    // (s390x MDEBR) is formed: qemu 7.2 computes it wrong for a
                    // subnormal operand (2^-127 x 1 gave 2^-134).
                    let p = (f64::from(x) - f64::from(z)) * f64::from(s);
                    let bits = if a.yt == DType::Float16 {
                        f64_to_f16_bits(p)
                    } else {
                        f64_to_bf16_bits(p)
                    };
                    out[2 * k..2 * k + 2].copy_from_slice(&bits.to_ne_bytes());
                }
            }
        }
    }
}

/// How QuantizeLinear's fast path divides by the scale.
#[derive(Copy, Clone, PartialEq, Eq)]
pub enum Divide {
    /// Multiplies by the scale's inverse, a power of two (FLOAT8E8M0 scales).
    ByPowerOfTwo,
    /// Divides in f32, a rounding the caller asked for (`precision` FLOAT).
    Rounded,
    /// Divides in f32 and flags the ties of the element type (no `precision`).
    Exact,
    /// Multiplies by the inverse of an MX scale computed from the block's largest
    /// magnitude ([`MxScales`]), for a FLOAT8 or FLOAT4 element type: nothing is
    /// flagged (see the module's notes).
    MxBlock,
}

/// What QuantizeLinear's fast path reads and writes.
pub struct QArgs<'a> {
    pub xt: DType,
    pub xd: &'a [u8],
    /// x's element count.
    pub count: usize,
    /// The scalar path's code for element i with scale element si, for the elements
    /// flagged.
    pub exact: &'a dyn Fn(usize, usize) -> u8,
    /// The scales, or their inverses for [`Divide::ByPowerOfTwo`].
    pub scales: Values<'a>,
    pub zeros: Option<Values<'a>>,
    pub divide: Divide,
    pub yt: DType,
    pub saturate: bool,
}

/// The element types QuantizeLinear's fast path writes.
pub fn quantize_fast(xt: DType, yt: DType) -> bool {
    let float8 = yt.bits() == 8 && format_of(yt).is_some();
    matches!(xt, DType::Float | DType::Float16 | DType::Bfloat16)
        && (float8
            || matches!(
                yt,
                DType::Float4E2M1 | DType::Int4 | DType::Uint4 | DType::Int8 | DType::Uint8
            ))
}

/// The integer ranges of the integer types the fast path writes.
fn int_bounds(yt: DType) -> Option<(f32, f32)> {
    match yt {
        DType::Int4 => Some((-8.0, 7.0)),
        DType::Uint4 => Some((0.0, 15.0)),
        DType::Int8 => Some((-128.0, 127.0)),
        DType::Uint8 => Some((0.0, 255.0)),
        _ => None,
    }
}

/// `q` rounded to an integer, ties to even, for `|q| <= 2^22` (by adding and removing
/// 1.5 * 2^23, where f32's spacing is 1: a form the compiler vectorises).
#[inline(always)]
fn round_even(q: f32) -> f32 {
    const M: f32 = 12_582_912.0;
    (q + M) - M
}

/// MX scales computed inside QuantizeLinear's fast path, block by block while the
/// block is in cache (one pass over x): the plan's blocks are uniform, and `a.scales`
/// holds the inverse of each FLOAT8E8M0 code's value (`Values::new` with data `[]`).
pub struct MxScales<'a> {
    /// The E8M0 code of a block whose largest magnitude has the f32 bits `top` (0xFF
    /// for an infinity or NaN: the block's elements are then 0).
    pub code: &'a dyn Fn(u32) -> u8,
    /// `code` of every f32 normal number (and infinity, NaN) by the exponent field
    /// alone, where the rule looks at nothing else (FLOOR): `by_exponent[top >> 23]`.
    pub by_exponent: Option<&'a [u8; 256]>,
    /// One code per block, written.
    pub out: &'a mut [u8],
}

impl MxScales<'_> {
    #[inline(always)]
    fn code_of(&self, top: u32) -> u8 {
        match self.by_exponent {
            Some(t) if top >= 0x0080_0000 => t[(top >> 23) as usize & 0xff],
            _ => (self.code)(top),
        }
    }
}

/// QuantizeLinear's fast path (`quantize_fast` holds). With `mx`, the scales are
/// computed (see [`MxScales`]) rather than read.
pub fn quantize(plan: &Plan, a: &QArgs, yd: &mut [u8], mx: Option<MxScales>, tier: Tier) {
    #[cfg(target_arch = "x86_64")]
    if let Tier::Avx2(_) = tier {
        // SAFETY: an AVX2 tier is made only on a CPU that runs the AVX2 family.
        unsafe { quantize_avx2(plan, a, yd, mx, tier) };
        return;
    }
    quantize_body(plan, a, yd, mx, tier)
}

/// The largest magnitude's bits of f32 values (as bytes): the order of non-negative
/// floats' bits is their values', and bits at or above infinity's mean an infinity or
/// NaN. Eight lanes of maxima, which the compiler keeps in one vector.
#[inline(always)]
pub fn top_magnitude_bits(values: &[u8]) -> u32 {
    let magnitude = |v: &[u8]| f32_at(v).to_bits() & 0x7fff_ffff;
    let mut top = [0u32; 8];
    let lanes = values.chunks_exact(32);
    let rest = lanes.remainder();
    for group in lanes {
        for (t, v) in top.iter_mut().zip(group.chunks_exact(4)) {
            *t = (*t).max(magnitude(v));
        }
    }
    let top = top.into_iter().fold(0, u32::max);
    rest.chunks_exact(4).map(magnitude).fold(top, u32::max)
}

/// The quotients of a piece of x (f32 bytes `v`) by its scales into `d`, and whether
/// any of them is flagged for the scalar path (see the module's notes).
#[inline(always)]
fn divide_piece(
    (divide, int, tie_mask): (Divide, bool, u32),
    v: &[u8],
    d: &mut [u8],
    s: (&[f32], Option<&[f32]>, usize),
) -> bool {
    match (divide, int) {
        (Divide::ByPowerOfTwo, false) => apply::<F32Bytes>(
            v,
            d,
            s,
            |x, s, _| x * s,
            |x, s, _, q| {
                let normal = (q.abs() >= f32::MIN_POSITIVE) & (q.abs() <= f32::MAX);
                !normal & ((x != 0.0) | s.is_nan())
            },
        ),
        (Divide::Exact, false) => apply::<F32Bytes>(
            v,
            d,
            s,
            |x, s, _| x / s,
            |x, _, _, q| {
                let normal = (q.abs() >= f32::MIN_POSITIVE) & (q.abs() <= f32::MAX);
                (!normal & (x != 0.0)) | q.is_nan() | ((q != 0.0) & (q.to_bits() & tie_mask == 0))
            },
        ),
        (Divide::MxBlock, _) => apply::<F32Bytes>(v, d, s, |x, s, _| x * s, |_, _, _, _| false),
        (Divide::ByPowerOfTwo, true) => {
            apply::<F32Bytes>(v, d, s, |x, s, _| x * s, |_, _, _, _| false)
        }
        (Divide::Exact, true) => apply::<F32Bytes>(
            v,
            d,
            s,
            |x, s, _| x / s,
            |_, _, _, q| {
                // Beyond +-512 every quotient saturates whatever the zero point (at
                // most 255 from the range): its ties do not matter.
                let q = if q.is_nan() {
                    0.0
                } else {
                    q.clamp(-512.0, 512.0)
                };
                (q - round_even(q)).abs() == 0.5
            },
        ),
        (Divide::Rounded, _) => apply::<F32Bytes>(v, d, s, |x, s, _| x / s, |_, _, _, _| false),
    }
}

/// [`quantize`], compiled for each tier's features.
#[inline(always)]
fn quantize_body(plan: &Plan, a: &QArgs, yd: &mut [u8], mut mx: Option<MxScales>, tier: Tier) {
    let (count, exact) = (a.count, a.exact);
    let widen = decoder(a.xt, tier).expect("quantize_fast chose the types");
    let ybits = a.yt.bits();
    let bounds = int_bounds(a.yt);
    let encoder = format_of(a.yt)
        .filter(|_| bounds.is_none())
        .map(|f| select_any(Repr::Std(Scalar::F32), Repr::Low(f), a.saturate, 0, tier));
    // A float element type's ties: f32 fraction bits below its mantissa + 1 all 0.
    let man = format_of(a.yt).map_or(0, |f| FORMATS[f as usize].man_bits);
    let mode = (a.divide, bounds.is_some(), (1u32 << (22 - man)) - 1);
    let uniform = plan.uniform_block();
    assert!(
        mx.is_none() || uniform.is_some_and(mx_block_fits) && bounds.is_none(),
        "MX scales are computed for uniform blocks within a chunk, float element types"
    );
    assert_eq!(
        mx.is_some(),
        a.divide == Divide::MxBlock,
        "MxBlock goes with MxScales"
    );
    let mut cursor = Cursor::new(plan);
    let mut widened = [0u8; 4 * CHUNK];
    let mut quotients = [0u8; 4 * CHUNK];
    let mut codes = [0u8; CHUNK];
    // This step's pieces of runs (offset, len, scale, stride), and those with an
    // element flagged.
    let mut pieces: Vec<[usize; 4]> = Vec::new();
    let mut flagged: Vec<[usize; 4]> = Vec::new();
    let mut sbuf = [0f32; CHUNK];
    for c0 in (0..count).step_by(CHUNK) {
        let c1 = (c0 + CHUNK).min(count);
        let n = c1 - c0;
        let values: &[u8] = if a.xt == DType::Float {
            &a.xd[4 * c0..4 * c1]
        } else {
            decode(&widen, a.xt.bits(), a.xd, (c0, c1), &mut widened);
            &widened[..4 * n]
        };
        flagged.clear();
        if let Some(b) = uniform {
            // Block by block, no list of pieces (as in `dequantize_body`).
            let mut i = c0;
            let mut block = c0 / b;
            while i < c1 {
                let end = ((block + 1) * b).min(c1);
                let (j, len) = (i - c0, end - i);
                let (v, d) = (
                    &values[4 * j..4 * (j + len)],
                    &mut quotients[4 * j..4 * (j + len)],
                );
                let s = match mx.as_mut() {
                    None => [a.scales.get(block)],
                    Some(m) => {
                        let code = m.code_of(top_magnitude_bits(v));
                        m.out[block] = code;
                        [a.scales.of_code(code)]
                    }
                };
                if s[0].is_nan() && mx.is_some() {
                    // An infinity or NaN in the block: its elements are 0.
                    d.fill(0);
                } else if divide_piece(mode, v, d, (&s, None, 0)) {
                    flagged.push([j, len, block, 0]);
                }
                if let Some(range) = bounds {
                    let z = a.zeros.as_ref().map_or(0.0, |z| z.get(block));
                    let (q, c) = (&quotients[4 * j..4 * (j + len)], &mut codes[j..j + len]);
                    int_codes(c, q, a.yt, z, range);
                }
                i = end;
                block += 1;
            }
        } else {
            cursor.pieces(c0, c1, &mut pieces);
            for &[j, len, si, stride] in &pieces {
                let s = (a.scales.piece(si, len, stride, &mut sbuf), None, stride);
                let (v, d) = (
                    &values[4 * j..4 * (j + len)],
                    &mut quotients[4 * j..4 * (j + len)],
                );
                if divide_piece(mode, v, d, s) {
                    flagged.push([j, len, si, stride]);
                }
                if let Some(range) = bounds {
                    let (q, c) = (&quotients[4 * j..4 * (j + len)], &mut codes[j..j + len]);
                    for k in 0..len {
                        let z = a.zeros.as_ref().map_or(0.0, |z| z.get(si + k * stride));
                        int_codes(&mut c[k..k + 1], &q[4 * k..4 * k + 4], a.yt, z, range);
                    }
                }
            }
        }
        if bounds.is_none() {
            let enc = encoder
                .as_ref()
                .expect("a float element type has an encoder");
            if enc.packs_bits == 4 {
                let out = &mut yd[c0 / 2..pack::packed_bytes(4, c1)];
                enc.run(&quotients[..4 * n], out);
            } else if ybits == 4 {
                enc.run(&quotients[..4 * n], &mut codes[..n]);
            } else {
                enc.run(&quotients[..4 * n], &mut yd[c0..c1]);
            }
        }
        if bounds.is_some() || encoder.is_some_and(|e| e.packs_bits == 0) {
            if ybits == 4 {
                pack::pack(4, &codes[..n], &mut yd[c0 / 2..pack::packed_bytes(4, c1)]);
            } else if bounds.is_some() {
                yd[c0..c1].copy_from_slice(&codes[..n]);
            }
        }
        // The flagged pieces again, element by element, by the scalar path.
        for &[j, len, si, stride] in &flagged {
            for k in 0..len {
                let i = c0 + j + k;
                let code = exact(i, si + k * stride);
                if ybits == 4 {
                    pack::set(4, yd, i, code);
                } else {
                    yd[i] = code;
                }
            }
        }
    }
}

/// An integer type's codes for quotients (f32 bytes) sharing zero point `z`: rounded
/// to even, plus the zero point, saturated.
#[inline(always)]
fn int_codes(codes: &mut [u8], quotients: &[u8], yt: DType, z: f32, (lo, hi): (f32, f32)) {
    let mask = ((1u32 << yt.bits()) - 1) as u8;
    for (c, q) in codes.iter_mut().zip(quotients.chunks_exact(4)) {
        let q = f32_at(q);
        // NaN becomes 0; beyond +-512 every value saturates alike (the zero point is
        // within +-255 of the range).
        let q = if q.is_nan() {
            0.0
        } else {
            q.clamp(-512.0, 512.0)
        };
        let v = (round_even(q) + z).clamp(lo, hi);
        // v is an integer of at most 9 bits: v + 1.5 * 2^23 holds it in its low bits
        // (two's complement), a bit move the compiler vectorises where `as i32` is not.
        *c = ((v + 12_582_912.0).to_bits() as u8) & mask;
    }
}
