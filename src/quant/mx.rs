// SPDX-License-Identifier: MIT OR Apache-2.0
//! MX (OCP Microscaling v1.0) and NVFP4 block quantization with the scales computed from
//! the data, and the inverse (docs/semantics-mx.md).
//!
//! MX: blocks of `block_size` (default 32) consecutive values along `axis` share one
//! FLOAT8E8M0 scale 2^e; the elements are FLOAT8E4M3FN, FLOAT8E5M2, FLOAT6E2M3,
//! FLOAT6E3M2, FLOAT4E2M1 (MXFP8, MXFP6, MXFP4) or INT8 (MXINT8: the code times 2^-6).
//! NVFP4: blocks of 16 FLOAT4E2M1 values share one FLOAT8E4M3FN scale, and the tensor one
//! FLOAT scale. Elements are x / scale, computed exactly in f64 and rounded once (to
//! nearest even, saturating) by the formats' own encoders (`formats::lowp`).

use super::kernels::{self, Divide, MxScales, QArgs, Values};
use super::{get_code, require_type, set_code, FLOAT_TYPES};
use crate::dtype::DType;
use crate::error::{shape_text, Error};
use crate::formats::convert::{
    bf16_bits_to_f32, f16_bits_to_f32, f64_to_bf16_bits, f64_to_f16_bits, f64_to_f32,
};
use crate::formats::dispatch::by_format_and_options;
use crate::formats::lowp::{decode_f64, format_of, option_bits, to_code, FORMATS};
use crate::formats::visit::OptionsVisitor;
use crate::simd::kernel::Tier;
use crate::tensor::{Tensor, TensorMut};

#[cfg(test)]
#[path = "mx_tests.rs"]
mod tests;
// For mx_tests.rs, through its `use super::*`: tests/module_graph.rs takes a #[path]
// test module for a module of the library, and testutil is test code.
#[cfg(test)]
use crate::testutil::quick;

crate::tables::c_enum! {
    /// How a block's FLOAT8E8M0 scale 2^e follows from its largest magnitude `amax`
    /// (`emax` the element type's largest exponent, `max` its largest finite value).
    pub enum ScaleRule: i32,
        "tcast_mx_options.scale_rule: how an MX block's FLOAT8E8M0 scale follows from its \
         largest magnitude amax (docs/semantics-mx.md)."
    {
        Floor = 0 => TCAST_MX_SCALE_FLOOR ("floor"):
            "OCP MX v1.0 (and torchao's FLOOR), the default: e = floor(log2(amax)) - emax.",
        Ceil = 1 => TCAST_MX_SCALE_CEIL ("ceil"):
            "torchao's CEIL: e = ceil(log2(amax)) - emax.",
        Even = 2 => TCAST_MX_SCALE_EVEN ("even"):
            "torchao's EVEN: amax rounded to the element's mantissa width first (half away \
             from zero), then floor: e = floor(log2(round(amax))) - emax.",
        Rceil = 3 => TCAST_MX_SCALE_RCEIL ("rceil"):
            "cuBLAS / torchao's RCEIL: e = ceil(log2(amax / max)), the scale rounded up.",
    }
}

/// Options of [`mx_quantize`] and [`mx_dequantize`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MxOptions {
    /// The axis the blocks run along, in `[-rank, rank-1]`; default -1 (the last).
    pub axis: i64,
    /// Values per block; 0 (default): 32 for MX, 16 for NVFP4.
    pub block_size: i64,
    /// The scale rule (MX only; NVFP4 has its own). Default [`ScaleRule::Floor`].
    pub rule: ScaleRule,
}

impl Default for MxOptions {
    fn default() -> MxOptions {
        MxOptions {
            axis: -1,
            block_size: 0,
            rule: ScaleRule::Floor,
        }
    }
}

/// NVFP4's per-tensor scale is amax / (E2M1 max * E4M3FN max) = amax / (6 * 448).
pub const NVFP4_GLOBAL_DIVISOR: f64 = 6.0 * 448.0;

/// The element types of the MX formats (y of quantize, x of dequantize).
pub const MX_ELEMENT_TYPES: [DType; 6] = [
    DType::Float8E4M3Fn,
    DType::Float8E5M2,
    DType::Float6E2M3,
    DType::Float6E3M2,
    DType::Float4E2M1,
    DType::Int8,
];

/// An element type's facts the scale rules use, read from the format's row (MXINT8:
/// OCP's 1.6 fixed point, largest value 127/64).
#[derive(Copy, Clone, Debug)]
struct Element {
    /// The largest finite value.
    max: f64,
    /// floor(log2(max)): OCP's emax_elem.
    emax: i32,
    /// Mantissa bits (EVEN's rounding width).
    man_bits: u32,
}

fn element(dtype: DType) -> Element {
    match format_of(dtype) {
        Some(f) if dtype != DType::Int8 => {
            let row = &FORMATS[usize::from(f)];
            let max = decode_f64(f, row.max_code as u8);
            Element {
                max,
                emax: exponent_of(max),
                man_bits: row.man_bits,
            }
        }
        _ => Element {
            max: 127.0 / 64.0,
            emax: 0,
            man_bits: 6,
        },
    }
}

/// floor(log2(v)) of a positive finite f64 normal number, exactly.
#[inline(always)]
fn exponent_of(v: f64) -> i32 {
    ((v.to_bits() >> 52) & 0x7ff) as i32 - 1023
}

/// 2^k as f64 (k within f64's normal range).
#[inline(always)]
fn pow2(k: i32) -> f64 {
    f64::from_bits(((1023 + k) as u64) << 52)
}

/// The FLOAT8E8M0 code of a block whose largest finite magnitude is `amax`: 0xFF (NaN)
/// when the block holds an infinity or NaN (`bad`).
fn scale_code(amax: f32, bad: bool, rule: ScaleRule, el: &Element) -> u8 {
    if bad {
        0xff
    } else {
        (shared_exponent(f64::from(amax), rule, el) + 127) as u8
    }
}

/// The unbiased E8M0 exponent (clamped to [-127, 127]) of a block whose largest
/// magnitude is `amax` (finite, >= 0; f32 values, so f64 normal or zero).
fn shared_exponent(amax: f64, rule: ScaleRule, el: &Element) -> i32 {
    if amax == 0.0 {
        return -127;
    }
    let fl = exponent_of(amax);
    let significand = || amax * pow2(-fl); // in [1, 2), exact
    let e = match rule {
        ScaleRule::Floor => fl - el.emax,
        ScaleRule::Ceil => fl + i32::from(significand() > 1.0) - el.emax,
        ScaleRule::Even => {
            let up = significand() >= 2.0 - pow2(-(el.man_bits as i32) - 1);
            fl + i32::from(up) - el.emax
        }
        ScaleRule::Rceil => {
            // The least e with amax <= max * 2^e (exact comparisons in f64).
            let mut e = fl - exponent_of(el.max);
            while el.max * pow2(e) < amax {
                e += 1;
            }
            while e > -1000 && el.max * pow2(e - 1) >= amax {
                e -= 1;
            }
            e
        }
    };
    e.clamp(-127, 127)
}

/// The f32 value of element `i` of a FLOAT, FLOAT16 or BFLOAT16 tensor.
type Reader = fn(&[u8], usize) -> f32;

fn reader(dtype: DType) -> Reader {
    match dtype {
        DType::Float => {
            |d, i| f32::from_ne_bytes([d[4 * i], d[4 * i + 1], d[4 * i + 2], d[4 * i + 3]])
        }
        DType::Float16 => |d, i| f16_bits_to_f32(u16::from_ne_bytes([d[2 * i], d[2 * i + 1]])),
        _ => |d, i| bf16_bits_to_f32(u16::from_ne_bytes([d[2 * i], d[2 * i + 1]])),
    }
}

/// Each float format's encoder from f64 with `saturate`, chosen once per call.
struct Encoder;

impl OptionsVisitor for Encoder {
    type Out = fn(f64) -> u8;
    fn visit<const F: u8, const OPT: u8>(self) -> fn(f64) -> u8 {
        to_code::<f64, F, OPT>
    }
}

/// MXINT8's code of a scaled value q (the element is code * 2^-6): nearest even,
/// saturated to [-128, 127].
fn int8_code(q: f64) -> u8 {
    (q * 64.0).round_ties_even().clamp(-128.0, 127.0) as i8 as u8
}

/// The saturating encoder of an element type.
fn encoder(dtype: DType) -> fn(f64) -> u8 {
    match format_of(dtype) {
        Some(f) if dtype != DType::Int8 => {
            by_format_and_options(f, option_bits(f, true, 0), Encoder)
        }
        _ => int8_code,
    }
}

/// The value of every code of an element type (256 entries; packed types use the first).
fn decode_table(dtype: DType) -> Vec<f64> {
    (0..256u32)
        .map(|c| match format_of(dtype) {
            Some(f) if dtype != DType::Int8 => {
                if c < 1 << dtype.bits() {
                    decode_f64(f, c as u8)
                } else {
                    0.0
                }
            }
            _ => f64::from(c as u8 as i8) / 64.0,
        })
        .collect()
}

/// Which of the two families a call is, from the scale's dtype.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Family {
    Mx,
    Nvfp4,
}

/// The QuantizeLinear/DequantizeLinear options of an MX call's blocks.
fn qdq_options(options: &MxOptions, w: &Blocks) -> super::QdqOptions {
    super::QdqOptions {
        axis: options.axis,
        block_size: w.block as i64,
        saturate: true,
        precision: None,
    }
}

/// MXFP8/MXFP6/MXFP4 quantization: the scales from each block's largest finite
/// magnitude (one pass over x), then the elements by QuantizeLinear with those scales
/// (x / 2^e rounded once, saturating: the same rounding), then the blocks holding NaN or
/// an infinity (scale 0xFF) zeroed.
fn mx_float_quantize(
    x: &Tensor,
    y: &mut TensorMut,
    scale: &mut TensorMut,
    options: &MxOptions,
    w: &Blocks,
) -> Result<(), Error> {
    let xl = x.layout();
    let (xt, et) = (xl.dtype(), y.layout().dtype());
    let el = element(et);
    let read = reader(xt);
    let xd = x.data();
    let bits = et.bits();
    let (_, sdata) = scale.parts();
    let (_, yd) = y.parts();
    let tier = Tier::detect();
    if w.inner == 1
        && w.extent % w.block == 0
        && kernels::mx_block_fits(w.block)
        && kernels::quantize_fast(xt, et)
    {
        return mx_quantize_fused(x, (et, yd), sdata, options, w, tier);
    }
    // Whole rows of `outer` at a time, about 256 KiB of x, so that the elements are
    // quantized while the pass that found their scales left them in cache (one pass
    // over memory, not two); rows that do not end on a byte boundary of y in one piece.
    let row = w.extent * w.inner;
    let rows = if (row * bits as usize) % 8 == 0 {
        ((256 << 10) / (row * (xt.bits() as usize / 8)).max(1)).max(1)
    } else {
        w.outer.max(1)
    };
    let qdq = super::QdqOptions {
        axis: 1,
        ..qdq_options(options, w)
    };
    let mut amax = vec![0.0f32; w.inner];
    let mut bad = vec![false; w.inner];
    let mut any_bad = false;
    for o0 in (0..w.outer).step_by(rows) {
        let o1 = (o0 + rows).min(w.outer);
        for o in o0..o1 {
            for b in 0..w.blocks {
                let a0 = b * w.block;
                let a1 = (a0 + w.block).min(w.extent);
                amax.fill(0.0);
                bad.fill(false);
                if w.inner == 1 && xt == DType::Float {
                    // Consecutive FLOAT values: the largest magnitude's bits (the order
                    // of non-negative floats' bits is their values'); at or above
                    // infinity's bits means an infinity or NaN in the block.
                    let bytes = &xd[4 * (o * w.extent + a0)..4 * (o * w.extent + a1)];
                    let top = kernels::top_magnitude_bits(bytes);
                    amax[0] = f32::from_bits(top);
                    bad[0] = top >= 0x7f80_0000;
                } else {
                    for a in a0..a1 {
                        let base = (o * w.extent + a) * w.inner;
                        for n in 0..w.inner {
                            let v = read(xd, base + n).abs();
                            if !v.is_finite() {
                                bad[n] = true;
                            } else if v > amax[n] {
                                amax[n] = v;
                            }
                        }
                    }
                }
                let sbase = (o * w.blocks + b) * w.inner;
                for n in 0..w.inner {
                    sdata[sbase + n] = scale_code(amax[n], bad[n], options.rule, &el);
                    any_bad |= bad[n];
                }
            }
        }
        // Rows o0..o1 as [rows, extent, inner], their scales [rows, blocks, inner].
        let dims = [o1 - o0, w.extent, w.inner];
        let sdims = [o1 - o0, w.blocks, w.inner];
        let xs = Tensor::new(
            &xd[o0 * row * (xt.bits() as usize / 8)..o1 * row * (xt.bits() as usize / 8)],
            xt,
            &dims,
        )?;
        let ss = Tensor::new(
            &sdata[o0 * w.blocks * w.inner..o1 * w.blocks * w.inner],
            DType::Float8E8M0,
            &sdims,
        )?;
        let y_bytes = |o: usize| o * row * bits as usize / 8;
        let y_end = if o1 == w.outer { yd.len() } else { y_bytes(o1) };
        let mut ys = TensorMut::new(&mut yd[y_bytes(o0)..y_end], et, &dims)?;
        super::quantize_linear(&xs, &ss, None, &mut ys, &qdq)?;
    }
    if any_bad {
        for o in 0..w.outer {
            for b in 0..w.blocks {
                for n in 0..w.inner {
                    if sdata[(o * w.blocks + b) * w.inner + n] != 0xff {
                        continue;
                    }
                    for a in b * w.block..((b + 1) * w.block).min(w.extent) {
                        set_code(bits, yd, (o * w.extent + a) * w.inner + n, 0);
                    }
                }
            }
        }
    }
    Ok(())
}

/// [`mx_float_quantize`] where the blocks are consecutive and whole (the last axis, a
/// block size dividing it) and QuantizeLinear's fast path writes the element type: the
/// fast path computes each block's scale as it quantizes the block, in one pass over x.
fn mx_quantize_fused(
    x: &Tensor,
    (et, yd): (DType, &mut [u8]),
    sdata: &mut [u8],
    options: &MxOptions,
    w: &Blocks,
    tier: Tier,
) -> Result<(), Error> {
    let (xt, xd) = (x.layout().dtype(), x.data());
    let el = element(et);
    let count = x.layout().count();
    let rows = w.outer * w.blocks;
    let plan = super::shape::plan(&[rows, w.block], &[rows, 1], 1, w.block as i64)?;
    // The code of a block from its largest magnitude's f32 bits (at or above infinity's:
    // an infinity or NaN in the block).
    let code = |top: u32| scale_code(f32::from_bits(top), top >= 0x7f80_0000, options.rule, &el);
    // `Divide::MxBlock` flags no element for the scalar path (kernels.rs's notes).
    let exact = |_: usize, _: usize| -> u8 { unreachable!("Divide::MxBlock flags no element") };
    let args = QArgs {
        xt,
        xd,
        count,
        exact: &exact,
        // Each code's inverse value, 2^-e (2^-127 a subnormal; NaN for 0xFF).
        scales: Values::new(DType::Float8E8M0, &[], |c| {
            if c == 0xff {
                f32::NAN
            } else {
                pow2(127 - i32::from(c)) as f32
            }
        }),
        zeros: None,
        divide: Divide::MxBlock,
        yt: et,
        saturate: true,
    };
    if et.bits() < 8 {
        yd.fill(0);
    }
    // FLOOR looks at a normal amax's exponent alone: a table of 256 codes, for calls of
    // more blocks than that.
    let mut table = [0u8; 256];
    let by_exponent = (options.rule == ScaleRule::Floor && rows > 256).then(|| {
        for (f, t) in table.iter_mut().enumerate() {
            *t = code(((f as u32) << 23).max(0x0080_0000));
        }
        &table
    });
    let mx = MxScales {
        code: &code,
        by_exponent,
        out: sdata,
    };
    kernels::quantize(&plan, &args, yd, Some(mx), tier);
    Ok(())
}

/// The walk of a blocked tensor: x is `[outer, extent, inner]`, the scale
/// `[outer, blocks, inner]`.
#[derive(Copy, Clone, Debug)]
struct Blocks {
    outer: usize,
    extent: usize,
    inner: usize,
    block: usize,
    blocks: usize,
}

/// Checks the dtypes, shapes and options of a call and returns its walk.
#[allow(clippy::too_many_arguments)]
fn check(
    op: &str,
    elem: DType,
    elem_role: &str,
    x_dims: &[usize],
    scale: (DType, &[usize]),
    global: Option<(DType, &[usize])>,
    options: &MxOptions,
) -> Result<(Family, Blocks), Error> {
    require_type(elem_role, elem, &MX_ELEMENT_TYPES, op)?;
    let family = match scale.0 {
        DType::Float8E8M0 => Family::Mx,
        DType::Float8E4M3Fn => Family::Nvfp4,
        other => {
            return Err(Error::Unsupported(format!(
                "{op}: scale dtype {other} is not FLOAT8E8M0 (MX) or FLOAT8E4M3FN (NVFP4)"
            )))
        }
    };
    if family == Family::Nvfp4 && elem != DType::Float4E2M1 {
        return Err(Error::Unsupported(format!(
            "{op}: a FLOAT8E4M3FN scale (NVFP4) takes FLOAT4E2M1 elements, not {elem}"
        )));
    }
    match (family, global) {
        (Family::Mx, Some(_)) => {
            return Err(Error::InvalidArgument(format!(
                "{op}: global_scale is for NVFP4 (a FLOAT8E4M3FN scale); an MX call \
                 (FLOAT8E8M0 scale) takes none"
            )))
        }
        (Family::Nvfp4, None) => {
            return Err(Error::InvalidArgument(format!(
                "{op}: NVFP4 (FLOAT8E4M3FN scale) needs global_scale, a FLOAT tensor of \
                 one element"
            )))
        }
        (Family::Nvfp4, Some((gt, gd))) => {
            if gt != DType::Float {
                return Err(Error::Unsupported(format!(
                    "{op}: global_scale dtype {gt} is not FLOAT"
                )));
            }
            if gd.iter().product::<usize>() != 1 || gd.len() > 1 {
                return Err(Error::InvalidShape(format!(
                    "{op}: global_scale shape {} must be [] or [1]",
                    shape_text(gd)
                )));
            }
        }
        _ => {}
    }
    let rank = x_dims.len() as i64;
    if rank == 0 {
        return Err(Error::InvalidShape(format!(
            "{op}: x shape [] has no axis to block along; give it rank 1 or more"
        )));
    }
    if options.axis < -rank || options.axis >= rank {
        return Err(Error::InvalidArgument(format!(
            "{op}: axis {} is out of range for x shape {} (rank {rank})",
            options.axis,
            shape_text(x_dims)
        )));
    }
    let axis = if options.axis < 0 {
        options.axis + rank
    } else {
        options.axis
    } as usize;
    let block = match options.block_size {
        0 if family == Family::Mx => 32,
        0 => 16,
        b if b < 0 => {
            return Err(Error::InvalidArgument(format!(
                "{op}: block_size is {b}; it must be 0 (the format's default) or positive"
            )))
        }
        b => usize::try_from(b).unwrap_or(usize::MAX),
    };
    let extent = x_dims[axis];
    let blocks = extent.div_ceil(block);
    let mut expected = x_dims.to_vec();
    expected[axis] = blocks;
    if scale.1 != expected.as_slice() {
        return Err(Error::InvalidShape(format!(
            "{op}: scale shape {} must be {} (x shape {} with ceil({extent} / {block}) along \
             axis {axis})",
            shape_text(scale.1),
            shape_text(&expected),
            shape_text(x_dims)
        )));
    }
    Ok((
        family,
        Blocks {
            outer: x_dims[..axis].iter().product(),
            extent,
            inner: x_dims[axis + 1..].iter().product(),
            block,
            blocks,
        },
    ))
}

fn same_shape(op: &str, role: &str, dims: &[usize], x: &[usize]) -> Result<(), Error> {
    if dims == x {
        return Ok(());
    }
    Err(Error::InvalidShape(format!(
        "{op}: {role} shape {} must equal x shape {}",
        shape_text(dims),
        shape_text(x)
    )))
}

/// MX or NVFP4 quantization of x (FLOAT, FLOAT16 or BFLOAT16): the scales into `scale`
/// (FLOAT8E8M0: MX; FLOAT8E4M3FN: NVFP4, then `global_scale` a FLOAT `[]` or `[1]`
/// receives the per-tensor scale), the elements into `y` (x's shape, an
/// `MX_ELEMENT_TYPES` dtype). docs/semantics-mx.md has every rule.
#[allow(clippy::needless_range_loop)] // columns of parallel per-block vectors
pub fn mx_quantize(
    x: &Tensor,
    y: &mut TensorMut,
    scale: &mut TensorMut,
    global_scale: Option<&mut TensorMut>,
    options: &MxOptions,
) -> Result<(), Error> {
    const OP: &str = "mx_quantize";
    let xl = x.layout();
    require_type("x", xl.dtype(), &FLOAT_TYPES, OP)?;
    xl.require_contiguous("x")?;
    y.layout().require_packed("y", OP)?;
    let et = y.layout().dtype();
    same_shape(OP, "y", y.layout().dims(), xl.dims())?;
    let (st, sd) = (scale.layout().dtype(), scale.layout().dims());
    let global_info = global_scale
        .as_ref()
        .map(|g| (g.layout().dtype(), g.layout().dims()));
    let (family, w) = check(OP, et, "y", xl.dims(), (st, sd), global_info, options)?;
    let read = reader(xl.dtype());
    let encode = encoder(et);
    let bits = et.bits();
    let el = element(et);
    let xd = x.data();
    let count = xl.count();
    // NVFP4's per-tensor scale from the largest finite magnitude.
    let global = if family == Family::Nvfp4 {
        let mut amax = 0.0f32;
        for i in 0..count {
            let a = read(xd, i).abs();
            if a.is_finite() && a > amax {
                amax = a;
            }
        }
        let g = f64_to_f32(f64::from(amax) / NVFP4_GLOBAL_DIVISOR);
        if let Some(gs) = global_scale {
            gs.data()[..4].copy_from_slice(&g.to_ne_bytes());
        }
        f64::from(g)
    } else {
        0.0
    };
    if family == Family::Mx && et != DType::Int8 {
        return mx_float_quantize(x, y, scale, options, &w);
    }
    let e4m3_encode = encoder(DType::Float8E4M3Fn);
    let e4m3_format = format_of(DType::Float8E4M3Fn).unwrap_or(0);
    let (_, yd) = y.parts();
    if bits < 8 {
        yd.fill(0);
    }
    let (_, sdata) = scale.parts();
    let mut amax = vec![0.0f64; w.inner];
    let mut bad = vec![false; w.inner];
    // Per column: MX the multiplier 2^-e, NVFP4 the divisor block scale * global;
    // 0: the block's elements are 0 (a NaN scale, or a zero NVFP4 scale).
    let mut factor = vec![0.0f64; w.inner];
    for o in 0..w.outer {
        for b in 0..w.blocks {
            let a0 = b * w.block;
            let a1 = (a0 + w.block).min(w.extent);
            amax.fill(0.0);
            bad.fill(false);
            for a in a0..a1 {
                let base = (o * w.extent + a) * w.inner;
                for n in 0..w.inner {
                    let v = f64::from(read(xd, base + n));
                    if !v.is_finite() {
                        bad[n] = true;
                    } else if v.abs() > amax[n] {
                        amax[n] = v.abs();
                    }
                }
            }
            let sbase = (o * w.blocks + b) * w.inner;
            for n in 0..w.inner {
                let (code, f) = match family {
                    Family::Mx if bad[n] => (0xff, 0.0),
                    Family::Mx => {
                        let e = shared_exponent(amax[n], options.rule, &el);
                        ((e + 127) as u8, pow2(-e))
                    }
                    Family::Nvfp4 if bad[n] => (0x7f, 0.0),
                    Family::Nvfp4 => {
                        if global == 0.0 {
                            (0, 0.0)
                        } else {
                            // amax / 6 / global, exact in f64 up to one rounding.
                            let c = e4m3_encode(amax[n] / (6.0 * global));
                            (c, decode_f64(e4m3_format, c) * global) // exact
                        }
                    }
                };
                sdata[sbase + n] = code;
                factor[n] = f;
            }
            for a in a0..a1 {
                let base = (o * w.extent + a) * w.inner;
                for n in 0..w.inner {
                    let v = f64::from(read(xd, base + n));
                    let code = if factor[n] == 0.0 {
                        0
                    } else if family == Family::Nvfp4 {
                        encode(v / factor[n]) // x / (block scale * global)
                    } else {
                        encode(v * factor[n]) // a power of two: exact
                    };
                    set_code(bits, yd, base + n, code);
                }
            }
        }
    }
    Ok(())
}

/// The inverse of [`mx_quantize`]: y (FLOAT, FLOAT16 or BFLOAT16, x's shape) = element
/// value * block scale (* the global scale for NVFP4), rounded once.
pub fn mx_dequantize(
    x: &Tensor,
    scale: &Tensor,
    global_scale: Option<&Tensor>,
    y: &mut TensorMut,
    options: &MxOptions,
) -> Result<(), Error> {
    const OP: &str = "mx_dequantize";
    let xl = x.layout();
    let et = xl.dtype();
    xl.require_contiguous("x")?;
    xl.require_packed("x", OP)?;
    scale.layout().require_contiguous("scale")?;
    let yt = y.layout().dtype();
    require_type("y", yt, &FLOAT_TYPES, OP)?;
    same_shape(OP, "y", y.layout().dims(), xl.dims())?;
    let sl = scale.layout();
    let global_info = global_scale.map(|g| (g.layout().dtype(), g.layout().dims()));
    let (family, w) = check(
        OP,
        et,
        "x",
        xl.dims(),
        (sl.dtype(), sl.dims()),
        global_info,
        options,
    )?;
    if family == Family::Mx && et != DType::Int8 {
        // The same operation as ONNX's blocked DequantizeLinear with a FLOAT8E8M0 scale
        // (an element times 2^e, rounded once; 0xFF NaN): its vectorised paths run it.
        return super::dequantize_linear(x, scale, None, y, &qdq_options(options, &w));
    }
    let table = decode_table(et);
    let scale_format = format_of(sl.dtype()).unwrap_or(0);
    let scale_table: Vec<f64> = (0..256u32)
        .map(|c| decode_f64(scale_format, c as u8))
        .collect();
    let global = match global_scale {
        Some(g) => {
            let d = g.data();
            f64::from(f32::from_ne_bytes([d[0], d[1], d[2], d[3]]))
        }
        None => 1.0,
    };
    let bits = et.bits();
    let (xd, sd) = (x.data(), scale.data());
    let (_, yd) = y.parts();
    let walk = Walk {
        w,
        bits,
        table: &table,
        scale_table: &scale_table,
        global,
    };
    // The writer and the code width chosen once, each loop compiled for them.
    match (yt, bits) {
        (DType::Float, 4) => walk.run::<4>(xd, sd, yd, |d, i, v| {
            put::<4>(d, i, f64_to_f32(v).to_ne_bytes())
        }),
        (DType::Float, _) => walk.run::<8>(xd, sd, yd, |d, i, v| {
            put::<4>(d, i, f64_to_f32(v).to_ne_bytes())
        }),
        (DType::Float16, 4) => walk.run::<4>(xd, sd, yd, |d, i, v| {
            put::<2>(d, i, f64_to_f16_bits(v).to_ne_bytes())
        }),
        (DType::Float16, _) => walk.run::<8>(xd, sd, yd, |d, i, v| {
            put::<2>(d, i, f64_to_f16_bits(v).to_ne_bytes())
        }),
        (_, 4) => walk.run::<4>(xd, sd, yd, |d, i, v| {
            put::<2>(d, i, f64_to_bf16_bits(v).to_ne_bytes())
        }),
        _ => walk.run::<8>(xd, sd, yd, |d, i, v| {
            put::<2>(d, i, f64_to_bf16_bits(v).to_ne_bytes())
        }),
    }
    Ok(())
}

#[inline(always)]
fn put<const N: usize>(d: &mut [u8], i: usize, bytes: [u8; N]) {
    d[N * i..N * i + N].copy_from_slice(&bytes);
}

/// Dequantize's walk over the blocks, with its tables.
struct Walk<'t> {
    w: Blocks,
    bits: u32,
    table: &'t [f64],
    scale_table: &'t [f64],
    global: f64,
}

impl Walk<'_> {
    /// `B`: 4 for FLOAT4E2M1 (the nibble read inline), otherwise 8 (a byte, or the
    /// packed 6-bit codes through `pack::get`).
    #[inline(always)]
    fn run<const B: u32>(
        &self,
        xd: &[u8],
        sd: &[u8],
        yd: &mut [u8],
        write: impl Fn(&mut [u8], usize, f64),
    ) {
        let w = self.w;
        for o in 0..w.outer {
            for a in 0..w.extent {
                let base = (o * w.extent + a) * w.inner;
                let sbase = (o * w.blocks + a / w.block) * w.inner;
                for n in 0..w.inner {
                    let i = base + n;
                    let s = self.scale_table[usize::from(sd[sbase + n])] * self.global;
                    let code = if B == 4 {
                        (xd[i / 2] >> (4 * (i % 2))) & 0x0f
                    } else {
                        get_code(self.bits, xd, i)
                    };
                    // At most 8 significant bits times 4 times 24: exact in f64.
                    write(yd, i, self.table[usize::from(code)] * s);
                }
            }
        }
    }
}
