//! The C ABI, in three layers with dependencies one way:
//!
//! 1. [`types`]: the `repr(C)` types and typedefs the header declares.
//! 2. `args` (argument readers and writers, each reader an `unsafe fn` stating the part
//!    of the C contract it relies on) and `guard` (the panic guard that fills
//!    `tcast_error`).
//! 3. The exports, one file per API area: each is one guard call around reading its
//!    arguments (in the order of docs/c-api.md section 8) and one call into the core.
//!
//! Every item of the C API is re-exported here, so Rust code (tests, benchmarks) can
//! call it as `tensorcast::ffi::tcast_cast`.
#![allow(non_camel_case_types)]

mod args;
mod guard;
pub mod types;

// The exports: safe `extern "C"` functions whose pointer arguments are the C caller's
// promise (docs/c-api.md section 1). Each hands its pointers to the `unsafe fn` readers
// of `args`, which state what they rely on; the lint below would ask the exports to be
// `unsafe fn`, which changes nothing for C. Layers 1 and 2 keep the lint.
#[allow(clippy::not_unsafe_ptr_arg_deref)]
mod bitcast;
#[allow(clippy::not_unsafe_ptr_arg_deref)]
mod cast;
#[allow(clippy::not_unsafe_ptr_arg_deref)]
mod dlpack;
#[allow(clippy::not_unsafe_ptr_arg_deref)]
mod dtype;
#[allow(clippy::not_unsafe_ptr_arg_deref)]
mod expand;
#[allow(clippy::not_unsafe_ptr_arg_deref)]
mod np;
mod status;
#[allow(clippy::not_unsafe_ptr_arg_deref)]
mod strings;

pub use bitcast::*;
pub use cast::*;
pub use dlpack::*;
pub use dtype::*;
pub use expand::*;
pub use np::*;
pub use status::*;
pub use strings::*;
pub use types::*;

/// Success.
pub const TCAST_OK: types::tcast_status = 0;
/// A required pointer was NULL.
pub const TCAST_ERR_NULL_ARGUMENT: types::tcast_status = 1;
/// Unknown dtype code or name.
pub const TCAST_ERR_INVALID_DTYPE: types::tcast_status = 2;
/// Valid dtypes the operation does not accept.
pub const TCAST_ERR_UNSUPPORTED: types::tcast_status = 3;
/// Negative dimension, rank above TCAST_MAX_NDIM, element or byte count overflow, bad
/// strides, or an output shape that is not what the operation produces.
pub const TCAST_ERR_INVALID_SHAPE: types::tcast_status = 4;
/// A broadcast or bitcast shape rule was violated.
pub const TCAST_ERR_INCOMPATIBLE_SHAPES: types::tcast_status = 5;
/// `data_bytes`, an arena or an output capacity is smaller than needed.
pub const TCAST_ERR_BUFFER_TOO_SMALL: types::tcast_status = 6;
/// A string element or a dtype spec could not be parsed.
pub const TCAST_ERR_PARSE: types::tcast_status = 7;
/// A bad option or enum value, or overlapping input and output buffers.
pub const TCAST_ERR_INVALID_ARGUMENT: types::tcast_status = 8;
/// The cast is not allowed at the requested numpy casting level.
pub const TCAST_ERR_CASTING: types::tcast_status = 9;
/// A temporary the operation needs could not be allocated (never an abort of the host).
pub const TCAST_ERR_OUT_OF_MEMORY: types::tcast_status = 10;
/// A bug: a panic was caught at the boundary.
pub const TCAST_ERR_INTERNAL: types::tcast_status = 99;
