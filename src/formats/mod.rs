// SPDX-License-Identifier: MIT OR Apache-2.0
//! The number formats' arithmetic, below both `simd/` and `cast/`: the element
//! representations (`elem`), exact scalar widening and narrowing (`convert`), the small
//! floats and packed integers (`lowp`) and the generated table that dispatches over them
//! (`dispatch`, its visitor traits in `visit`), nibble and crumb packing (`pack`) and the
//! storage a dtype's elements have in memory (`repr`). Pure Rust: no ISA code, no
//! tensors.

pub(crate) mod convert;
pub(crate) mod dispatch;
pub(crate) mod elem;
pub(crate) mod lowp;
pub(crate) mod lut;
pub(crate) mod pack;
pub(crate) mod repr;
pub(crate) mod visit;
