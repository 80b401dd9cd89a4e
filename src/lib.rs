// SPDX-License-Identifier: MIT OR Apache-2.0
//! tensorcast: exact, fast dtype conversions for tensors.
//!
//! The Rust API works on validated views ([`Tensor`], [`TensorMut`]); the C API in
//! [`ffi`] is a thin shell over it. Semantics are those of ONNX Cast (Cast-1 to
//! Cast-28, CastLike) with the decisions documented in the README: float -> integer
//! truncates and saturates with NaN -> 0, integer -> integer wraps, and every float
//! conversion rounds once, to nearest even, from the exact source value.
//! Results do not depend on the caller's floating-point environment (rounding mode,
//! FTZ/DAZ): each call computes in the default one (docs/c-api.md section 8).
//!
//! The Rust API is what this page lists, and nothing else:
//! - [`cast`] with its [`CastOptions`] ([`RoundMode`], [`StringFormat`], [`Casting`],
//!   [`SubByteLayout`]); [`check_casting`] (a cast's refusal at a casting level alone),
//!   [`max_text_bytes`];
//! - [`expand`], [`expand_threaded`] and [`broadcast_shape`]; [`bitcast_shape`]
//!   ([`BitcastRules`], [`LastAxis`], [`ViewShape`]);
//! - dtypes: [`DType`], its registry row [`DTypeInfo`], [`Family`], [`Scalar`],
//!   [`ONNX_CAST_VERSIONS`]; DLPack: [`to_dlpack`], [`from_dlpack`], [`DlpackDtype`],
//!   [`DlpackCode`];
//! - tensors: [`Tensor`], [`TensorMut`], [`Layout`], [`MAX_NDIM`]; errors: [`Error`],
//!   [`Status`];
//! - [`np`]: numpy's dtype grammar and casting rules (parse a spec, the casting level,
//!   `can_cast`, `promote_types`, `min_scalar_type`); [`cpu_info`].
//!
//! [`ffi`] is the C ABI, callable from Rust too.
//!
//! ```
//! use tensorcast::{cast, CastOptions, DType, Tensor, TensorMut};
//! let src: Vec<u8> = [1.5f32, -2.0, 65520.0].iter().flat_map(|x| x.to_ne_bytes()).collect();
//! let mut dst = vec![0u8; 6];
//! let input = Tensor::new(&src, DType::Float, &[3]).unwrap();
//! let mut output = TensorMut::new(&mut dst, DType::Float16, &[3]).unwrap();
//! cast(&input, &mut output, &CastOptions::default()).unwrap();
//! assert_eq!(dst, [0x00, 0x3e, 0x00, 0xc0, 0x00, 0x7c]);
//! ```

mod bitcast;
mod cast;
mod dlpack;
mod dtype;
mod error;
mod expand;
pub mod ffi;
mod formats;
mod mem;
pub mod np;
mod parallel;
mod quant;
mod quiet;
mod registry;
mod simd;
mod string_view;
#[doc(hidden)]
pub mod tables;
mod tensor;
#[cfg(test)]
mod testutil;

pub use bitcast::{bitcast_shape, BitcastRules, LastAxis, ViewShape};
pub use cast::{
    cast, check_casting, format_strings, max_text_bytes, CastOptions, Casting, RoundMode,
    StringFormat, SubByteLayout,
};
pub use dlpack::{from_dlpack, to_dlpack, DlpackCode, DlpackDtype};
pub use dtype::{
    DType, DTypeInfo, Family, LowFormat, LowKind, NumpyName, Scalar, LOW_FORMATS,
    ONNX_CAST_VERSIONS,
};
pub use error::{Error, Status};
pub use expand::{broadcast_shape, expand, expand_threaded};
pub use quant::layout::{mx_repack, MxLayout};
pub use quant::mx::{mx_dequantize, mx_quantize, MxOptions, ScaleRule};
pub use quant::{dequantize_linear, quantize_linear, QdqOptions};
#[doc(hidden)]
pub use registry::c_tables;
pub use string_view::StringView;
pub use tensor::{Layout, Tensor, TensorMut, MAX_NDIM};

/// The library's version, "MAJOR.MINOR.PATCH" (what `tcast_version` returns).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// One line on what the library runs on this CPU (architecture, SIMD kernel families),
/// the text `tcast_cpu_info` writes.
pub fn cpu_info() -> String {
    simd::cpu::report()
}
