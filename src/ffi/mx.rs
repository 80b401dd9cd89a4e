// SPDX-License-Identifier: MIT OR Apache-2.0
//! MX / NVFP4 block quantization and the MXFP4 layouts: their options and operations.

use super::args::{read_descriptor, LayoutBuf};
use super::guard::guard;
use super::quant::{
    check_output, options_init, read_growing, read_input, unless_null, written_apart, Access,
    Checked, GrowingOptions,
};
use super::types::{
    tcast_error, tcast_mx_options, tcast_status, tcast_tensor, FIRST_MX_OPTIONS_SIZE,
};
use crate::error::Error;
use crate::quant::layout::{mx_repack, MxLayout};
use crate::quant::mx::{mx_dequantize, mx_quantize, MxOptions, ScaleRule};

// SAFETY: `tcast_mx_options` has no padding (u32, i32, i64, i64, i32, i32) and only
// integer fields.
unsafe impl GrowingOptions for tcast_mx_options {
    const NAME: &'static str = "tcast_mx_options";
    const FIRST_SIZE: u32 = FIRST_MX_OPTIONS_SIZE;

    fn defaults(struct_size: u32) -> tcast_mx_options {
        let d = MxOptions::default();
        tcast_mx_options {
            struct_size,
            scale_rule: 0,
            axis: d.axis,
            block_size: d.block_size,
            reserved0: 0,
            reserved1: 0,
        }
    }
}

/// Fills `*opts` with the default options for a struct of `size` bytes, the caller's
/// `sizeof(tcast_mx_options)`: `struct_size` = `size`, each field the library knows
/// that lies within `size` its default (scale_rule 0 FLOOR, axis -1, block_size 0),
/// any further byte up to `size` zero. Returns its status only.
/// Errors: NULL_ARGUMENT (`opts` NULL), INVALID_ARGUMENT (`size` below the first layout,
/// 32 bytes, or above UINT32_MAX); nothing is written then.
#[no_mangle]
pub extern "C" fn tcast_mx_options_init(opts: *mut tcast_mx_options, size: usize) -> tcast_status {
    options_init(opts, size)
}

/// Reads the caller's options (NULL: the defaults).
///
/// # Safety
/// `ptr` is NULL or points to a tcast_mx_options of at least its `struct_size` bytes.
unsafe fn read_mx_options(ptr: *const tcast_mx_options) -> Result<MxOptions, Error> {
    // SAFETY: forwarded from this function's contract.
    let o = unsafe { read_growing(ptr) }?;
    let rule = ScaleRule::from_arg(o.scale_rule, "options->scale_rule")?;
    if o.reserved0 != 0 || o.reserved1 != 0 {
        return Err(Error::InvalidArgument(format!(
            "options->reserved0 and reserved1 are {} and {}; they must be 0",
            o.reserved0, o.reserved1
        )));
    }
    Ok(MxOptions {
        axis: o.axis,
        block_size: o.block_size,
        rule,
    })
}

/// An output descriptor, read; its checks come later, in the order of docs/c-api.md
/// section 8.
struct Output {
    desc: tcast_tensor,
    buf: LayoutBuf,
    role: &'static str,
}

impl Output {
    /// # Safety
    /// `ptr` is NULL or a valid descriptor (docs/c-api.md sections 1, 4).
    unsafe fn read(ptr: *const tcast_tensor, role: &'static str) -> Result<Output, Error> {
        // SAFETY: forwarded from this function's contract.
        let desc = unsafe { read_descriptor(ptr, role) }?;
        Ok(Output {
            desc,
            buf: LayoutBuf::new(),
            role,
        })
    }

    /// The checked output, not yet viewed.
    ///
    /// # Safety
    /// The descriptor is valid (docs/c-api.md section 4).
    unsafe fn check(&mut self) -> Result<Checked<'_>, Error> {
        // SAFETY: forwarded from this function's contract.
        unsafe { check_output(&self.desc, self.role, &mut self.buf) }
    }
}

/// MX or NVFP4 quantization with the scales computed from x (docs/semantics-mx.md):
/// x FLOAT, FLOAT16 or BFLOAT16; y of x's shape, FLOAT8E4M3FN, FLOAT8E5M2 (MXFP8),
/// FLOAT6E2M3, FLOAT6E3M2 (MXFP6), FLOAT4E2M1 (MXFP4) or INT8 (MXINT8, the code times
/// 2^-6); `scale` x's shape with ceil(D / block_size) along `options->axis`: FLOAT8E8M0
/// (MX, block_size default 32, `options->scale_rule`) or FLOAT8E4M3FN (NVFP4: y
/// FLOAT4E2M1, block_size default 16), then `global_scale` is a FLOAT `[]` or `[1]`
/// receiving amax(x) / (6 * 448); NULL for MX. Elements are x / scale rounded once to
/// nearest even, saturating; a block holding NaN or an infinity gets a NaN scale (0xFF /
/// 0x7F) and zero elements. No output overlaps another or x. `options` may be NULL.
/// Errors: NULL_ARGUMENT, INVALID_DTYPE, UNSUPPORTED (a dtype the operation does not
/// take), INVALID_SHAPE (y's, scale's or global_scale's shape), BUFFER_TOO_SMALL,
/// INVALID_ARGUMENT (axis, block_size, scale_rule, reserved fields, global_scale given
/// for MX or missing for NVFP4, overlapping buffers).
#[no_mangle]
pub extern "C" fn tcast_mx_quantize(
    x: *const tcast_tensor,
    y: *const tcast_tensor,
    scale: *const tcast_tensor,
    global_scale: *const tcast_tensor,
    options: *const tcast_mx_options,
    err: *mut tcast_error,
) -> tcast_status {
    guard(err, || {
        // SAFETY: each pointer is NULL or valid per the C API contract; the views are
        // made only after written_apart found each written buffer apart from the others.
        unsafe {
            let mut yo = Output::read(y, "y")?;
            let mut so = Output::read(scale, "scale")?;
            let mut go = unless_null(global_scale, |g| Output::read(g, "global_scale"))?;
            let mut xb = LayoutBuf::new();
            let xc = read_input(x, "x", &mut xb)?;
            let opts = read_mx_options(options)?;
            let yc = yo.check()?;
            let sc = so.check()?;
            let gc = go.as_mut().map(|o| o.check()).transpose()?;
            written_apart(&[
                ("the x buffer", Some(xc.range()), Access::Read),
                ("the y buffer", Some(yc.range()), Access::Written),
                ("the scale buffer", Some(sc.range()), Access::Written),
                (
                    "the global_scale buffer",
                    gc.as_ref().map(Checked::range),
                    Access::Written,
                ),
            ])?;
            let (xt, mut yt, mut st) = (xc.input()?, yc.output()?, sc.output()?);
            let mut g = gc.map(|g| g.output()).transpose()?;
            mx_quantize(&xt, &mut yt, &mut st, g.as_mut(), &opts)
        }
    })
}

/// The inverse of tcast_mx_quantize: y (FLOAT, FLOAT16 or BFLOAT16, x's shape) = the
/// element's value times its block's scale (times `global_scale`, a FLOAT `[]` or `[1]`,
/// for NVFP4; NULL for MX), rounded once to nearest even. A NaN scale (E8M0 0xFF,
/// E4M3FN 0x7F) gives NaN. Shapes and options as tcast_mx_quantize (`scale_rule` is
/// not used). y does not overlap the inputs.
/// Errors: as tcast_mx_quantize.
#[no_mangle]
pub extern "C" fn tcast_mx_dequantize(
    x: *const tcast_tensor,
    scale: *const tcast_tensor,
    global_scale: *const tcast_tensor,
    y: *const tcast_tensor,
    options: *const tcast_mx_options,
    err: *mut tcast_error,
) -> tcast_status {
    guard(err, || {
        // SAFETY: each pointer is NULL or valid per the C API contract; the views are
        // made only after written_apart found each written buffer apart from the others.
        unsafe {
            let mut yo = Output::read(y, "y")?;
            let (mut xb, mut sb, mut gb) = (LayoutBuf::new(), LayoutBuf::new(), LayoutBuf::new());
            let xc = read_input(x, "x", &mut xb)?;
            let sc = read_input(scale, "scale", &mut sb)?;
            let gc = unless_null(global_scale, |g| read_input(g, "global_scale", &mut gb))?;
            let opts = read_mx_options(options)?;
            let yc = yo.check()?;
            written_apart(&[
                ("the x buffer", Some(xc.range()), Access::Read),
                ("the scale buffer", Some(sc.range()), Access::Read),
                (
                    "the global_scale buffer",
                    gc.as_ref().map(Checked::range),
                    Access::Read,
                ),
                ("the y buffer", Some(yc.range()), Access::Written),
            ])?;
            let (xt, st, mut yt) = (xc.input()?, sc.input()?, yc.output()?);
            let g = gc.map(|g| g.input()).transpose()?;
            mx_dequantize(&xt, &st, g.as_ref(), &mut yt, &opts)
        }
    })
}

fn layout_of(code: i32, role: &str) -> Result<MxLayout, Error> {
    Ok(MxLayout::from_arg(code, role)?)
}

/// Converts MXFP4 data between layouts by moving nibbles and bytes (no value is
/// decoded; docs/semantics-mx.md "Layouts"). `from_layout` / `to_layout`, TCAST_MX_LAYOUT_*
/// constants: _ONNX (data FLOAT4E2M1 `[..., 32 nb]`, scales FLOAT8E8M0 `[..., nb]`),
/// _GPT_OSS (data UINT8 `[..., nb, 16]`, scales UINT8 `[..., nb]`), _GGML (`block_mxfp4`:
/// data UINT8 `[..., nb, 17]`, scales NULL). The leading dims and nb must agree; outputs do not
/// overlap the inputs. `options` may be NULL (no field is used yet).
/// Errors: NULL_ARGUMENT, INVALID_DTYPE, UNSUPPORTED (a dtype other than the layout's),
/// INVALID_SHAPE, BUFFER_TOO_SMALL, INVALID_ARGUMENT (a layout code, a scales tensor
/// given for ggml, overlapping buffers, options).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn tcast_mx_repack(
    from_layout: i32,
    from: *const tcast_tensor,
    from_scales: *const tcast_tensor,
    to_layout: i32,
    to: *const tcast_tensor,
    to_scales: *const tcast_tensor,
    options: *const tcast_mx_options,
    err: *mut tcast_error,
) -> tcast_status {
    guard(err, || {
        let fl = layout_of(from_layout, "from_layout")?;
        let tl = layout_of(to_layout, "to_layout")?;
        // SAFETY: each pointer is NULL or valid per the C API contract; the views are
        // made only after written_apart found each written buffer apart from the others.
        unsafe {
            let mut to_o = Output::read(to, "to")?;
            let mut ts_o = unless_null(to_scales, |t| Output::read(t, "to_scales"))?;
            let (mut fb, mut fsb) = (LayoutBuf::new(), LayoutBuf::new());
            let fc = read_input(from, "from", &mut fb)?;
            let fsc = unless_null(from_scales, |f| read_input(f, "from_scales", &mut fsb))?;
            read_mx_options(options)?;
            let tc = to_o.check()?;
            let tsc = ts_o.as_mut().map(|o| o.check()).transpose()?;
            written_apart(&[
                ("the from buffer", Some(fc.range()), Access::Read),
                ("the to buffer", Some(tc.range()), Access::Written),
                (
                    "the from_scales buffer",
                    fsc.as_ref().map(Checked::range),
                    Access::Read,
                ),
                (
                    "the to_scales buffer",
                    tsc.as_ref().map(Checked::range),
                    Access::Written,
                ),
            ])?;
            let (ft, mut tt) = (fc.input()?, tc.output()?);
            let fs = fsc.map(|f| f.input()).transpose()?;
            let mut ts = tsc.map(|t| t.output()).transpose()?;
            mx_repack(fl, &ft, fs.as_ref(), tl, &mut tt, ts.as_mut())
        }
    })
}
