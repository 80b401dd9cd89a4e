// SPDX-License-Identifier: MIT OR Apache-2.0
//! Layer 2 of the C ABI: argument readers and writers. Each reader turns raw C arguments
//! into checked Rust values and is an `unsafe fn` whose `# Safety` section is the part
//! of the C contract (docs/c-api.md sections 1 and 4) it relies on; a writer is a value
//! made by a reader (which checked its pointer), so writing through it is safe. Errors
//! name the argument; the exports call the readers in the order of docs/c-api.md
//! section 8.

mod cast;
mod common;
mod np;
mod options;
mod outputs;
mod strings;
mod tensors;

pub(crate) use cast::{cast_operands, plain_cast_operands, PlainCast};
pub(crate) use common::{c_static, require_disjoint};
pub(crate) use np::{read_bytes, read_handle};
pub(crate) use options::{plain_options, read_options, runs_as_one_task, OptionsArg};
pub(crate) use outputs::{
    out_arg, shape_out, shape_result, text_out, text_out_later, Out, ShapeOut, TextOut,
};
pub(crate) use strings::{dtype_named, read_arena, read_text};
pub(crate) use tensors::{
    byte_range, check_data, dtype_of, input_output_views, input_view, output_view, plain_views,
    read_descriptor, read_dims, read_input_output, read_layout, require_shape, LayoutBuf,
};
