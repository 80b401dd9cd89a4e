// SPDX-License-Identifier: MIT OR Apache-2.0
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
#![warn(missing_docs)]

mod args;
mod executor;
mod guard;
#[cfg(test)]
mod overlap_tests;
#[cfg(test)]
mod plain_paths;
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
mod diagnostics;
#[allow(clippy::not_unsafe_ptr_arg_deref)]
mod dlpack;
#[allow(clippy::not_unsafe_ptr_arg_deref)]
mod dtype;
#[allow(clippy::not_unsafe_ptr_arg_deref)]
mod expand;
#[allow(clippy::not_unsafe_ptr_arg_deref)]
mod mx;
#[allow(clippy::not_unsafe_ptr_arg_deref)]
mod np;
#[allow(clippy::not_unsafe_ptr_arg_deref)]
mod plan;
#[allow(clippy::not_unsafe_ptr_arg_deref)]
mod quant;
mod status;
#[allow(clippy::not_unsafe_ptr_arg_deref)]
mod strings;

pub use bitcast::*;
pub use cast::*;
pub use diagnostics::*;
pub use dlpack::*;
pub use dtype::*;
pub use expand::*;
pub use mx::*;
pub use np::*;
pub use plan::*;
pub use quant::*;
pub use status::*;
pub use strings::*;
pub use types::*;
