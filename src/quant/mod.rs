// SPDX-License-Identifier: MIT OR Apache-2.0
//! ONNX QuantizeLinear and DequantizeLinear (opsets 10 to 25, docs/semantics-quantize.md):
//! per-tensor, per-axis and blocked scales, optional zero points, every quantized type
//! from INT2 to FLOAT8 and FLOAT4E2M1 (FLOAT6 as an extension), FLOAT, FLOAT16,
//! BFLOAT16 and FLOAT8E8M0 scales.
//!
//! One rounding, from the exact value: QuantizeLinear rounds x / scale once to the
//! element type (unless `precision` asks for ONNX's rounded division first) and
//! DequantizeLinear rounds (x - zero_point) * scale once to the output type. The
//! elements are read and written with the number formats' own decoders and encoders
//! (`formats::lowp`), never re-implemented here.

#[cfg(test)]
mod kernel_tests;
mod kernels;
pub(crate) mod layout;
pub(crate) mod mx;
mod shape;
#[cfg(test)]
mod tests;

use crate::dtype::DType;
use crate::error::Error;
use crate::formats::convert::{
    bf16_bits_to_f32, f16_bits_to_f32, f64_to_bf16_bits, f64_to_f16_bits, f64_to_f32,
};
use crate::formats::dispatch::by_format_and_options;
use crate::formats::lowp::{decode_f64, format_of, option_bits, to_code};
use crate::formats::pack;
use crate::formats::visit::OptionsVisitor;
use crate::simd::kernel::Tier;
use crate::tensor::{Layout, Tensor, TensorMut};
use kernels::{Divide, DqArgs, QArgs, Values};
use shape::{check_same_shape, plan};

/// Options of QuantizeLinear and DequantizeLinear: ONNX's attributes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct QdqOptions {
    /// The quantization axis (per-axis and blocked scales), in `[-rank, rank-1]`; ONNX's
    /// default 1. Ignored for a per-tensor scale.
    pub axis: i64,
    /// 0: per-tensor or per-axis (from the scale's shape); > 0: blocked along `axis`.
    pub block_size: i64,
    /// Float8 element types: out-of-range values saturate to the largest finite value
    /// (true, ONNX's default) or become infinity/NaN. Other types ignore it.
    pub saturate: bool,
    /// QuantizeLinear only. None (default): x / scale is not rounded before the one
    /// rounding to the element type. Some(FLOAT, FLOAT16, BFLOAT16 or DOUBLE): ONNX's
    /// `precision` attribute: x and scale are rounded to that type and their quotient
    /// too, before the element rounding.
    pub precision: Option<DType>,
}

impl Default for QdqOptions {
    fn default() -> QdqOptions {
        QdqOptions {
            axis: 1,
            block_size: 0,
            saturate: true,
            precision: None,
        }
    }
}

/// The element types of a quantized tensor (y of QuantizeLinear, x of DequantizeLinear).
pub const QUANT_TYPES: [DType; 15] = [
    DType::Int2,
    DType::Uint2,
    DType::Int4,
    DType::Uint4,
    DType::Int8,
    DType::Uint8,
    DType::Int16,
    DType::Uint16,
    DType::Float8E4M3Fn,
    DType::Float8E4M3Fnuz,
    DType::Float8E5M2,
    DType::Float8E5M2Fnuz,
    DType::Float4E2M1,
    DType::Float6E2M3,
    DType::Float6E3M2,
];

/// The types of x in QuantizeLinear and of y in DequantizeLinear (besides INT32 x), and
/// of the MX operations' unquantized side.
const FLOAT_TYPES: [DType; 3] = [DType::Float, DType::Float16, DType::Bfloat16];

/// The scale types.
const SCALE_TYPES: [DType; 5] = [
    DType::Float,
    DType::Float16,
    DType::Bfloat16,
    DType::Float8E8M0,
    DType::Int32,
];

/// The `precision` types.
const PRECISION_TYPES: [DType; 4] = [DType::Float, DType::Float16, DType::Bfloat16, DType::Double];

fn names(types: &[DType]) -> String {
    types
        .iter()
        .map(|t| t.name())
        .collect::<Vec<_>>()
        .join(", ")
}

fn require_type(role: &str, dtype: DType, allowed: &[DType], op: &str) -> Result<(), Error> {
    if allowed.contains(&dtype) {
        return Ok(());
    }
    Err(Error::Unsupported(format!(
        "{op}: {role} dtype {dtype} is not one of {}",
        names(allowed)
    )))
}

/// The exact value of element `i` of a tensor of a non-quantized numeric type.
#[inline(always)]
fn read_value(dtype: DType, data: &[u8], i: usize) -> f64 {
    match dtype {
        DType::Float => f64::from(f32::from_ne_bytes(chunk(data, i))),
        DType::Float16 => f64::from(f16_bits_to_f32(u16::from_ne_bytes(chunk(data, i)))),
        DType::Bfloat16 => f64::from(bf16_bits_to_f32(u16::from_ne_bytes(chunk(data, i)))),
        DType::Int32 => f64::from(i32::from_ne_bytes(chunk(data, i))),
        DType::Double => f64::from_ne_bytes(chunk(data, i)),
        _ => read_quant(dtype, data, i).value,
    }
}

#[inline(always)]
fn chunk<const N: usize>(data: &[u8], i: usize) -> [u8; N] {
    let mut bytes = [0u8; N];
    bytes.copy_from_slice(&data[i * N..i * N + N]);
    bytes
}

/// An element of a quantized tensor (or a FLOAT8E8M0 scale): its value, and for the
/// integer types that value as an integer.
#[derive(Copy, Clone)]
struct Quant {
    value: f64,
    int: Option<i64>,
}

/// Element `i` of a tensor of a quantized type (packed types unpacked), or of INT32.
#[inline(always)]
fn read_quant(dtype: DType, data: &[u8], i: usize) -> Quant {
    let int = |v: i64| Quant {
        value: v as f64,
        int: Some(v),
    };
    match dtype {
        DType::Int8 => int(i64::from(data[i] as i8)),
        DType::Uint8 => int(i64::from(data[i])),
        DType::Int16 => int(i64::from(i16::from_ne_bytes(chunk(data, i)))),
        DType::Uint16 => int(i64::from(u16::from_ne_bytes(chunk(data, i)))),
        DType::Int32 => int(i64::from(i32::from_ne_bytes(chunk(data, i)))),
        _ => {
            let format = format_of(dtype).expect("a quantized type is a low-precision format");
            let value = decode_f64(format, get_code(dtype.bits(), data, i));
            match dtype {
                DType::Int2 | DType::Uint2 | DType::Int4 | DType::Uint4 => int(value as i64),
                _ => Quant { value, int: None },
            }
        }
    }
}

/// The value of code `code` of a quantized type of at most 8 bits, as f32 (exact).
fn code_value(dtype: DType, code: u8) -> f32 {
    read_quant(dtype, &[code], 0).value as f32
}

/// The range of an integer quantized type.
fn int_range(dtype: DType) -> Option<(i64, i64)> {
    Some(match dtype {
        DType::Int2 => (-2, 1),
        DType::Uint2 => (0, 3),
        DType::Int4 => (-8, 7),
        DType::Uint4 => (0, 15),
        DType::Int8 => (-128, 127),
        DType::Uint8 => (0, 255),
        DType::Int16 => (-32768, 32767),
        DType::Uint16 => (0, 65535),
        DType::Int32 => (i64::from(i32::MIN), i64::from(i32::MAX)),
        _ => return None,
    })
}

/// Writes integer `v` (in range) as element `i` of a quantized tensor.
#[inline(always)]
fn write_int(dtype: DType, data: &mut [u8], i: usize, v: i64) {
    match dtype {
        DType::Int8 | DType::Uint8 => data[i] = v as u8,
        DType::Int16 | DType::Uint16 => {
            data[2 * i..2 * i + 2].copy_from_slice(&(v as u16).to_ne_bytes())
        }
        _ => pack::set(
            dtype.bits(),
            data,
            i,
            (v as u8) & ((1u8 << dtype.bits()) - 1),
        ),
    }
}

/// Code `i` of a tensor of `bits`-bit codes (packed below 8 bits).
#[inline(always)]
fn get_code(bits: u32, data: &[u8], i: usize) -> u8 {
    if bits < 8 {
        pack::get(bits, data, i)
    } else {
        data[i]
    }
}

/// Writes `code` as code `i` of a tensor of `bits`-bit codes (packed below 8 bits).
#[inline(always)]
fn set_code(bits: u32, data: &mut [u8], i: usize, code: u8) {
    if bits < 8 {
        pack::set(bits, data, i, code);
    } else {
        data[i] = code;
    }
}

/// `v` rounded to nearest even in `precision` (FLOAT, FLOAT16, BFLOAT16 or DOUBLE).
#[inline(always)]
fn round_to(precision: DType, v: f64) -> f64 {
    match precision {
        DType::Float => f64::from(f64_to_f32(v)),
        DType::Float16 => f64::from(f16_bits_to_f32(f64_to_f16_bits(v))),
        DType::Bfloat16 => f64::from(bf16_bits_to_f32(f64_to_bf16_bits(v))),
        _ => v,
    }
}

/// `n * s` (n an integer of at most 34 bits, s an f64) rounded to 53 bits *to odd*: the
/// exact product when it fits, otherwise with a sticky last bit, so that rounding it to
/// any format of at most 51 bits is the correctly rounded exact product.
#[inline(always)]
fn mul_round_odd(n: i64, s: f64) -> f64 {
    let p = n as f64 * s;
    if !p.is_finite() || p == 0.0 || s.is_nan() {
        return p;
    }
    let bits = s.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    // s = m * 2^e exactly.
    let (m, e) = if biased == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), biased - 1075)
    };
    let exact = i128::from(n) * i128::from(m);
    let a = exact.unsigned_abs();
    let width = 128 - a.leading_zeros() as i32;
    let k = (width - 53).max(0);
    let sticky = u128::from(a & ((1u128 << k) - 1) != 0);
    let top = ((a >> k) | sticky) as u64 as f64; // < 2^53: exact
    let signed = if (exact < 0) != (s < 0.0) { -top } else { top };
    // The product is an f64 normal number (checked finite and non-zero above, and the
    // scale's smallest value times 1 is far above f64's subnormals): scale by 2^(k+e)
    // in two exact steps.
    let shift = k + e;
    let half = shift / 2;
    signed * pow2(half) * pow2(shift - half)
}

/// 2^k for k in f64's normal exponent range.
#[inline(always)]
fn pow2(k: i32) -> f64 {
    f64::from_bits(((1023 + k) as u64) << 52)
}

/// Which of the two operations a call is.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Op {
    Quantize,
    Dequantize,
}

/// A Q/DQ call's inputs and options, checked by [`check_operands`], with the plan of
/// its scales.
struct Checked<'t, 'a> {
    x: &'t Tensor<'a>,
    scale: &'t Tensor<'a>,
    zp: Option<&'t Tensor<'a>>,
    plan: shape::Plan,
    options: &'t QdqOptions,
}

/// QuantizeLinear or DequantizeLinear with the fast paths of `tier`, or only the scalar
/// path (None).
fn qdq_on(
    op: Op,
    (x, scale, zero_point): (&Tensor, &Tensor, Option<&Tensor>),
    y: &mut TensorMut,
    options: &QdqOptions,
    tier: Option<Tier>,
) -> Result<(), Error> {
    let checked = check_operands(op, (x, scale, zero_point), y.layout(), options)?;
    match op {
        Op::Quantize => quantize_checked(&checked, y, tier),
        Op::Dequantize => dequantize_checked(&checked, y, tier),
    }
}

/// The checks QuantizeLinear and DequantizeLinear share, in the order of docs/c-api.md
/// section 8: the dtypes (x's besides INT32), the packing of the quantized operand
/// (QuantizeLinear's y, DequantizeLinear's x) and of the zero point (UNSUPPORTED when
/// held one per byte), `precision`, y's shape, the zero point's, the scale's plan,
/// contiguity, and the zero points of a float quantized type (all zero).
fn check_operands<'t, 'a>(
    op: Op,
    (x, scale, zero_point): (&'t Tensor<'a>, &'t Tensor<'a>, Option<&'t Tensor<'a>>),
    y: &Layout,
    options: &'t QdqOptions,
) -> Result<Checked<'t, 'a>, Error> {
    let (xl, sl) = (x.layout(), scale.layout());
    let (name, x_types, scale_types, y_types, (role, quantized)) = match op {
        Op::Quantize => (
            "QuantizeLinear",
            &FLOAT_TYPES[..],
            &SCALE_TYPES[..],
            &QUANT_TYPES[..],
            ("y", y),
        ),
        Op::Dequantize => (
            "DequantizeLinear",
            &QUANT_TYPES[..],
            &SCALE_TYPES[..4],
            &FLOAT_TYPES[..],
            ("x", xl),
        ),
    };
    let mut x_types = x_types.to_vec();
    x_types.push(DType::Int32);
    require_type("x", xl.dtype(), &x_types, name)?;
    require_type("scale", sl.dtype(), scale_types, name)?;
    require_type("y", y.dtype(), y_types, name)?;
    quantized.require_packed(role, name)?;
    if let Some(z) = zero_point {
        z.layout().require_packed("zero_point", name)?;
    }
    match (op, options.precision) {
        (_, None) => {}
        (Op::Quantize, Some(p)) => require_type("precision", p, &PRECISION_TYPES, name)?,
        (Op::Dequantize, Some(_)) => {
            return Err(Error::InvalidArgument(
                "DequantizeLinear: precision is a QuantizeLinear option; DequantizeLinear \
                 rounds once, to y's dtype"
                    .into(),
            ))
        }
    }
    check_same_shape("y", y.dims(), "x", xl.dims())?;
    let zp = zero_point_of(name, zero_point, quantized.dtype(), sl.dims())?;
    let g = plan(xl.dims(), sl.dims(), options.axis, options.block_size)?;
    xl.require_contiguous("x")?;
    sl.require_contiguous("scale")?;
    if let (None, Some(z)) = (int_range(quantized.dtype()), zp) {
        require_zero_zero_points(name, z)?;
    }
    Ok(Checked {
        x,
        scale,
        zp,
        plan: g,
        options,
    })
}

/// The public operations, whose signatures run in parallel: each is [`qdq_on`] of its
/// [`Op`] on the tier the CPU runs.
macro_rules! qdq_operations {
    ($($(#[$doc:meta])* $name:ident => $op:expr;)*) => {$(
        $(#[$doc])*
        pub fn $name(
            x: &Tensor,
            scale: &Tensor,
            zero_point: Option<&Tensor>,
            y: &mut TensorMut,
            options: &QdqOptions,
        ) -> Result<(), Error> {
            qdq_on($op, (x, scale, zero_point), y, options, Some(Tier::detect()))
        }
    )*};
}

qdq_operations! {
    /// QuantizeLinear: `y = saturate(round(x / scale) + zero_point)` into `y`'s dtype
    /// (docs/semantics-quantize.md). `zero_point`, when given, has `y`'s dtype and
    /// `scale`'s shape.
    quantize_linear => Op::Quantize;
    /// DequantizeLinear: `y = (x - zero_point) * scale`, rounded once to `y`'s dtype
    /// (FLOAT, FLOAT16 or BFLOAT16).
    dequantize_linear => Op::Dequantize;
}

/// [`quantize_linear`] of checked operands.
fn quantize_checked(c: &Checked, y: &mut TensorMut, tier: Option<Tier>) -> Result<(), Error> {
    let (x, scale, zp, g, options) = (c.x, c.scale, c.zp, &c.plan, c.options);
    let (xl, sl) = (x.layout(), scale.layout());
    let xt = xl.dtype();
    let yt = y.layout().dtype();
    let (xd, sd) = (x.data(), scale.data());
    let float_target = int_range(yt).is_none();
    let (lo, hi) = int_range(yt).unwrap_or((0, 0));
    let encode = format_of(yt)
        .map(|f| by_format_and_options(f, option_bits(f, options.saturate, 0), Encoder));
    let read_x = value_reader(xt);
    let st = sl.dtype();
    let (_, yd) = y.parts();
    if yt.bits() < 8 {
        yd.fill(0);
    }
    let precision = options.precision;
    // Element i with scale element si: a float type's code, an integer type's value.
    let element = |i: usize, si: usize, sv: f64| -> i64 {
        let xv = read_x(xd, i);
        let q = match precision {
            None => xv / sv,
            Some(p) => round_to(p, round_to(p, xv) / round_to(p, sv)),
        };
        match (float_target, encode) {
            (true, Some(encode)) => {
                let mut code = encode(q);
                // FLOAT4E2M1 adds its zero point (zeros) after the rounding as ONNX's
                // formula and reference do: -0 + +0 is +0. (FLOAT8 keeps -0, as the
                // reference, which ignores a FLOAT8 zero point; docs/semantics-quantize.md.)
                if let (DType::Float4E2M1, Some(z)) = (yt, zp) {
                    if code == 0x8 && pack::get(4, z.data(), si) == 0 {
                        code = 0;
                    }
                }
                i64::from(code)
            }
            _ => {
                let z = zp.map_or(0, |z| read_quant(yt, z.data(), si).int.unwrap_or(0));
                let r = if q.is_nan() { 0.0 } else { q.round_ties_even() };
                // Saturate in f64 first: r may be far outside i64.
                (r + z as f64).clamp(lo as f64, hi as f64) as i64
            }
        }
    };
    // A FLOAT4E2M1 zero point turns -0 into +0 (above), which the fast path does not.
    let fp4_zero_point = yt == DType::Float4E2M1 && zp.is_some();
    let fast = tier.filter(|_| {
        kernels::quantize_fast(xt, yt)
            && !fp4_zero_point
            && st != DType::Int32
            && matches!(precision, None | Some(DType::Float))
    });
    if let Some(tier) = fast {
        let power_of_two = st == DType::Float8E8M0;
        // 1 / 2^k is a power of two in f32's range (2^-127 a subnormal).
        let scale_of = |c: u8| scale_value(st, &[c], 0) as f32;
        let mask = (1i64 << yt.bits()) - 1;
        let exact = |i, si| (element(i, si, scale_value(st, sd, si)) & mask) as u8;
        let args = QArgs {
            xt,
            xd,
            count: xl.count(),
            exact: &exact,
            scales: Values::new(st, sd, |c| 1.0 / scale_of(c)),
            zeros: zp
                .filter(|_| !float_target)
                .map(|z| Values::new(yt, z.data(), |c| code_value(yt, c))),
            divide: if power_of_two {
                Divide::ByPowerOfTwo
            } else if precision.is_some() {
                Divide::Rounded
            } else {
                Divide::Exact
            },
            yt,
            saturate: options.saturate,
        };
        kernels::quantize(g, &args, yd, None, tier);
        return Ok(());
    }
    let mut cached = (usize::MAX, 0.0);
    g.for_each(|i, si| {
        if cached.0 != si {
            cached = (si, scale_value(st, sd, si));
        }
        let v = element(i, si, cached.1);
        if float_target {
            set_code(yt.bits(), yd, i, v as u8);
        } else {
            write_int(yt, yd, i, v);
        }
    });
    Ok(())
}

/// [`dequantize_linear`] of checked operands.
fn dequantize_checked(c: &Checked, y: &mut TensorMut, tier: Option<Tier>) -> Result<(), Error> {
    let (x, scale, zp, g) = (c.x, c.scale, c.zp, &c.plan);
    let (xl, sl) = (x.layout(), scale.layout());
    let xt = xl.dtype();
    let yt = y.layout().dtype();
    let int_source = int_range(xt).is_some();
    let (xd, sd) = (x.data(), scale.data());
    let st = sl.dtype();
    if let Some(tier) = tier.filter(|&t| kernels::dequantize_fast(xt, st, yt, t)) {
        let args = DqArgs {
            xt,
            xd,
            scales: Values::new(st, sd, |c| scale_value(st, &[c], 0) as f32),
            zeros: zp
                .filter(|_| int_source)
                .map(|z| Values::new(xt, z.data(), |c| code_value(xt, c))),
            yt,
        };
        kernels::dequantize(g, xl.count(), &args, y.parts().1, tier);
        return Ok(());
    }
    // The values of every code of an element type of at most 8 bits, once per call.
    let table: Option<Vec<f64>> = (xt.bits() <= 8).then(|| {
        (0..1usize << xt.bits())
            .map(|c| {
                let byte = [c as u8];
                if xt.bits() < 8 {
                    decode_f64(format_of(xt).unwrap_or(0), c as u8)
                } else {
                    read_quant(xt, &byte, 0).value
                }
            })
            .collect()
    });
    let (_, yd) = y.parts();
    let zero = |si: usize| zp.map_or(0, |z| read_quant(xt, z.data(), si).int.unwrap_or(0));
    let run = |yd: &mut [u8], write: &dyn Fn(&mut [u8], usize, f64)| {
        let mut cached = (usize::MAX, 0.0, 0.0);
        g.for_each(|i, si| {
            if cached.0 != si {
                cached = (si, scale_value(st, sd, si), zero(si) as f64);
            }
            let (sv, z) = (cached.1, cached.2);
            let v = match &table {
                // At most 9 bits (after the zero point) times at most 24: exact in f64.
                Some(t) => {
                    let code = if xt.bits() < 8 {
                        pack::get(xt.bits(), xd, i)
                    } else {
                        xd[i]
                    };
                    (t[usize::from(code)] - z) * sv
                }
                None => match read_quant(xt, xd, i).int {
                    Some(n) => mul_round_odd(n - z as i64, sv),
                    None => unreachable!("16- and 32-bit quantized types are integers"),
                },
            };
            write(yd, i, v);
        });
    };
    match yt {
        DType::Float => run(yd, &|d, i, v| {
            d[4 * i..4 * i + 4].copy_from_slice(&f64_to_f32(v).to_ne_bytes())
        }),
        DType::Float16 => run(yd, &|d, i, v| {
            d[2 * i..2 * i + 2].copy_from_slice(&f64_to_f16_bits(v).to_ne_bytes())
        }),
        _ => run(yd, &|d, i, v| {
            d[2 * i..2 * i + 2].copy_from_slice(&f64_to_bf16_bits(v).to_ne_bytes())
        }),
    }
    Ok(())
}

/// Each format's encoder from f64, for options `OPT`: chosen once per call.
struct Encoder;

impl OptionsVisitor for Encoder {
    type Out = fn(f64) -> u8;
    fn visit<const F: u8, const OPT: u8>(self) -> fn(f64) -> u8 {
        to_code::<f64, F, OPT>
    }
}

/// The reader of x's values, chosen once per call.
fn value_reader(dtype: DType) -> fn(&[u8], usize) -> f64 {
    match dtype {
        DType::Float => |d, i| f64::from(f32::from_ne_bytes(chunk(d, i))),
        DType::Float16 => |d, i| f64::from(f16_bits_to_f32(u16::from_ne_bytes(chunk(d, i)))),
        DType::Bfloat16 => |d, i| f64::from(bf16_bits_to_f32(u16::from_ne_bytes(chunk(d, i)))),
        _ => |d, i| f64::from(i32::from_ne_bytes(chunk(d, i))),
    }
}

/// The exact value of scale element `i`.
#[inline(always)]
fn scale_value(dtype: DType, data: &[u8], i: usize) -> f64 {
    match dtype {
        DType::Float8E8M0 => read_quant(dtype, data, i).value,
        _ => read_value(dtype, data, i),
    }
}

/// Checks a zero point: `dtype` (the quantized type) and the scale's shape.
fn zero_point_of<'t, 'a>(
    op: &str,
    zero_point: Option<&'t Tensor<'a>>,
    dtype: DType,
    scale_dims: &[usize],
) -> Result<Option<&'t Tensor<'a>>, Error> {
    let Some(z) = zero_point else {
        return Ok(None);
    };
    let zt = z.layout().dtype();
    if zt != dtype {
        return Err(Error::InvalidArgument(format!(
            "{op}: zero_point dtype {zt} must be the quantized type {dtype}"
        )));
    }
    // A per-tensor zero point may be [] or [1] whichever the scale is (ONNX's own node
    // tests pair a [] scale with a [1] zero point).
    let per_tensor = |dims: &[usize]| dims.len() <= 1 && dims.iter().product::<usize>() == 1;
    if !(per_tensor(z.layout().dims()) && per_tensor(scale_dims)) {
        check_same_shape("zero_point", z.layout().dims(), "scale", scale_dims)?;
    }
    z.layout().require_contiguous("zero_point")?;
    Ok(Some(z))
}

/// Float element types take only a zero point of zeros (+0 or -0).
fn require_zero_zero_points(op: &str, z: &Tensor) -> Result<(), Error> {
    let zt = z.layout().dtype();
    for i in 0..z.layout().count() {
        let v = read_quant(zt, z.data(), i).value;
        if v != 0.0 {
            return Err(Error::InvalidArgument(format!(
                "{op}: zero_point element {i} is {v}; a {zt} zero point must be 0"
            ))
            .at_element(i as u64));
        }
    }
    Ok(())
}
