// SPDX-License-Identifier: MIT OR Apache-2.0
//! MXFP4 storage layouts and the conversions between them, by moving nibbles and bytes
//! only (no value is decoded; docs/semantics-mx.md section "Layouts"):
//!
//! - ONNX: x FLOAT4E2M1 `[..., 32 * nb]` (two elements a byte, element 2j in the low
//!   nibble of byte j), scale FLOAT8E8M0 `[..., nb]`: DequantizeLinear with
//!   block_size 32 along the last axis.
//! - gpt-oss (`*.blocks` / `*.scales` in safetensors): blocks UINT8 `[..., nb, 16]`,
//!   element 2j of a block in the low nibble of its byte j and 2j+1 in the high nibble
//!   (HF transformers' `convert_moe_packed_tensors` puts `lut[b & 0x0F]` at even and
//!   `lut[b >> 4]` at odd positions), the code order E2M1's; scales UINT8 `[..., nb]`,
//!   the E8M0 code (the value 2^(s - 127)). Byte for byte ONNX's order.
//! - llama.cpp (`block_mxfp4`): UINT8 `[..., nb, 17]`: the E8M0 byte `e`, then `qs[16]`
//!   with element j in the low nibble of `qs[j]` and element j + 16 in its high nibble.
//!   ggml multiplies a doubled E2M1 table (`kvalues_mxfp4`: 0, 1, 2, 3, 4, 6, 8, 12, ...)
//!   by half the scale (`GGML_E8M0_TO_FP32_HALF(e)` = 2^(e - 128)): the same value, so
//!   the nibbles and `e` are E2M1 and E8M0 codes as they are.

use crate::dtype::DType;
use crate::error::{shape_text, Error};
use crate::tensor::{Tensor, TensorMut};

/// Values per MXFP4 block.
pub const MXFP4_BLOCK: usize = 32;

crate::tables::c_enum! {
    /// An MXFP4 storage layout.
    pub enum MxLayout: i32,
        "The from_layout and to_layout arguments of tcast_mx_repack: an MXFP4 storage \
         layout (docs/semantics-mx.md, \"Layouts\")."
    {
        Onnx = 0 => TCAST_MX_LAYOUT_ONNX ("onnx"):
            "ONNX: FLOAT4E2M1 data [..., 32 nb] and a FLOAT8E8M0 scale tensor [..., nb].",
        GptOss = 1 => TCAST_MX_LAYOUT_GPT_OSS ("gpt-oss"):
            "gpt-oss: UINT8 blocks [..., nb, 16] and UINT8 scales [..., nb].",
        Ggml = 2 => TCAST_MX_LAYOUT_GGML ("ggml"):
            "llama.cpp's block_mxfp4: UINT8 [..., nb, 17], the scale inside (no scale \
             tensor).",
    }
}

impl MxLayout {
    /// The layout's name in messages.
    fn title(self) -> &'static str {
        match self {
            MxLayout::Onnx => "ONNX",
            MxLayout::GptOss => "gpt-oss",
            MxLayout::Ggml => "ggml block_mxfp4",
        }
    }

    /// The dtypes of the data and the scale tensor (None: no scale tensor).
    fn dtypes(self) -> (DType, Option<DType>) {
        match self {
            MxLayout::Onnx => (DType::Float4E2M1, Some(DType::Float8E8M0)),
            MxLayout::GptOss => (DType::Uint8, Some(DType::Uint8)),
            MxLayout::Ggml => (DType::Uint8, None),
        }
    }
}

/// The prefix dims and the block count a layout's data tensor describes, checked
/// against its scale tensor's shape.
fn blocks_of<'d>(
    layout: MxLayout,
    role: &str,
    data: (DType, &'d [usize]),
    scale: Option<(DType, &[usize])>,
) -> Result<(&'d [usize], usize), Error> {
    let (dt, st) = layout.dtypes();
    let name = layout.title();
    if data.0 != dt {
        return Err(Error::Unsupported(format!(
            "mx_repack: {role} dtype {} is not {dt} ({name} layout)",
            data.0
        )));
    }
    let dims = data.1;
    let (prefix, nb) = match layout {
        MxLayout::Onnx => {
            let Some((&k, prefix)) = dims.split_last() else {
                return Err(Error::InvalidShape(format!(
                    "mx_repack: {role} shape [] has no last axis to hold blocks ({name} layout)"
                )));
            };
            if k % MXFP4_BLOCK != 0 {
                return Err(Error::InvalidShape(format!(
                    "mx_repack: {role} shape {}: the last dimension {k} is not a multiple of \
                     32 ({name} layout)",
                    shape_text(dims)
                )));
            }
            (prefix, k / MXFP4_BLOCK)
        }
        MxLayout::GptOss | MxLayout::Ggml => {
            let width = if layout == MxLayout::GptOss { 16 } else { 17 };
            if dims.len() < 2 || dims[dims.len() - 1] != width {
                return Err(Error::InvalidShape(format!(
                    "mx_repack: {role} shape {} must be [..., nblocks, {width}] ({name} layout)",
                    shape_text(dims)
                )));
            }
            (&dims[..dims.len() - 2], dims[dims.len() - 2])
        }
    };
    match (st, scale) {
        (None, Some(_)) => Err(Error::InvalidArgument(format!(
            "mx_repack: the {name} layout keeps its scales in the blocks; give no \
             {role}_scales tensor"
        ))),
        (Some(_), None) => Err(Error::NullArgument(format!(
            "mx_repack: the {name} layout needs {role}_scales"
        ))),
        (Some(st), Some((sdt, sdims))) => {
            if sdt != st {
                return Err(Error::Unsupported(format!(
                    "mx_repack: {role}_scales dtype {sdt} is not {st} ({name} layout)"
                )));
            }
            let mut expected = prefix.to_vec();
            expected.push(nb);
            if sdims != expected.as_slice() {
                return Err(Error::InvalidShape(format!(
                    "mx_repack: {role}_scales shape {} must be {} for {role} shape {} \
                     ({name} layout)",
                    shape_text(sdims),
                    shape_text(&expected),
                    shape_text(dims)
                )));
            }
            Ok((prefix, nb))
        }
        (None, None) => Ok((prefix, nb)),
    }
}

/// One block in ONNX / gpt-oss order: the E8M0 code and 16 bytes, element 2j in the low
/// nibble of byte j.
type Block = (u8, [u8; 16]);

#[inline(always)]
fn read_block(layout: MxLayout, data: &[u8], scales: &[u8], b: usize) -> Block {
    let mut q = [0u8; 16];
    match layout {
        MxLayout::Onnx | MxLayout::GptOss => {
            q.copy_from_slice(&data[16 * b..16 * b + 16]);
            (scales[b], q)
        }
        MxLayout::Ggml => {
            let g = &data[17 * b..17 * b + 17];
            // ggml: element j low nibble of qs[j], element j + 16 its high nibble.
            for (j, byte) in q.iter_mut().enumerate() {
                let lo = nibble_ggml(&g[1..], 2 * j);
                let hi = nibble_ggml(&g[1..], 2 * j + 1);
                *byte = lo | (hi << 4);
            }
            (g[0], q)
        }
    }
}

/// Element `i` (0..32) of a ggml `qs[16]`.
#[inline(always)]
fn nibble_ggml(qs: &[u8], i: usize) -> u8 {
    if i < 16 {
        qs[i] & 0x0f
    } else {
        qs[i - 16] >> 4
    }
}

/// Element `i` (0..32) of ONNX-order bytes.
#[inline(always)]
fn nibble_onnx(q: &[u8; 16], i: usize) -> u8 {
    (q[i / 2] >> (4 * (i % 2))) & 0x0f
}

#[inline(always)]
fn write_block(layout: MxLayout, data: &mut [u8], scales: &mut [u8], b: usize, block: &Block) {
    match layout {
        MxLayout::Onnx | MxLayout::GptOss => {
            data[16 * b..16 * b + 16].copy_from_slice(&block.1);
            scales[b] = block.0;
        }
        MxLayout::Ggml => {
            let g = &mut data[17 * b..17 * b + 17];
            g[0] = block.0;
            for j in 0..16 {
                g[1 + j] = nibble_onnx(&block.1, j) | (nibble_onnx(&block.1, j + 16) << 4);
            }
        }
    }
}

/// Converts MXFP4 data between layouts, bit-exactly: `from_scales` / `to_scales` are
/// the scale tensors of the layouts that have one (None for ggml). The block counts and
/// the leading dims must agree.
pub fn mx_repack(
    from: MxLayout,
    data: &Tensor,
    from_scales: Option<&Tensor>,
    to: MxLayout,
    out: &mut TensorMut,
    to_scales: Option<&mut TensorMut>,
) -> Result<(), Error> {
    data.layout().require_contiguous("from")?;
    data.layout().require_packed("from", "mx_repack")?;
    out.layout().require_packed("to", "mx_repack")?;
    if let Some(s) = from_scales {
        s.layout().require_contiguous("from_scales")?;
    }
    let dl = data.layout();
    let (prefix, nb) = blocks_of(
        from,
        "from",
        (dl.dtype(), dl.dims()),
        from_scales.map(|s| (s.layout().dtype(), s.layout().dims())),
    )?;
    let ol = out.layout();
    let (oprefix, onb) = blocks_of(
        to,
        "to",
        (ol.dtype(), ol.dims()),
        to_scales
            .as_ref()
            .map(|s| (s.layout().dtype(), s.layout().dims())),
    )?;
    if prefix != oprefix || nb != onb {
        return Err(Error::InvalidShape(format!(
            "mx_repack: from shape {} ({}) holds {} x {nb} blocks; to shape {} ({}) holds {} \
             x {onb}: the leading dims and block counts must agree",
            shape_text(dl.dims()),
            from.title(),
            shape_text(prefix),
            shape_text(ol.dims()),
            to.title(),
            shape_text(oprefix)
        )));
    }
    let total = prefix.iter().product::<usize>() * nb;
    let src = data.data();
    let src_scales = from_scales.map_or(&[][..], |s| s.data());
    let mut none: [u8; 0] = [];
    let (_, dst) = out.parts();
    let dst_scales: &mut [u8] = match to_scales {
        Some(s) => s.data(),
        None => &mut none,
    };
    for b in 0..total {
        let block = read_block(from, src, src_scales, b);
        write_block(to, dst, dst_scales, b, &block);
    }
    Ok(())
}
