// SPDX-License-Identifier: MIT OR Apache-2.0
//! The SIMD layer: CPU-feature detection, the capability tokens that prove a kernel
//! family can run, and the hand-written kernels per ISA, beside the portable code the
//! callers fall back to. Outside this module, only `cast/kernels.rs` names a kernel
//! family: it compiles its generic loops for each, through the family's macro.
//!
//! - `family.rs`: what every kernel family shares (features to attributes and checks,
//!   kernel bodies).
//! - `encode.rs`: the low-precision encoders, written once over `lanes.rs`'s vector of
//!   16-bit lanes, whose table gives each operation's AVX2 and NEON intrinsics.
//! - `decode.rs`: the low-precision decoders, written once over `bytes.rs`'s vector of
//!   byte lanes (table lookups by byte shuffles), whose table gives each operation's
//!   AVX2 and NEON intrinsics.
//! - `encoders.rs`: what the low-precision encoders share (their output size); a call's
//!   encoder is found by `kernels.rs` through the generated dispatch table
//!   (`formats/dispatch.rs`).
//! - `cpu.rs`: detection once per process (with `TCAST_DISABLE_CPU_FEATURES`), the
//!   tokens and `Tier`, the kernel set a cast runs on.
//! - `kernels.rs`: the hand-written cast kernels of a tier.
//! - `kernel.rs`: what a kernel is, a function over bytes compiled for a tier (the
//!   low-precision decoders' tables it reads are `formats/lut.rs`).
//! - `fill.rs`: Expand's fills and the cast's streaming copy, with portable fallbacks.
//! - `scan.rs`: the text scanner's byte classification.
//! - `fpenv.rs`: the default floating-point environment for each call and task.
//! - `x86_64/`, `aarch64/`: the kernels of each ISA, with each family's features listed
//!   once.

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub mod bytes;
pub mod cpu;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub mod decode;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub mod encode;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub mod encoders;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub mod family;
pub mod fill;
pub mod fpenv;
pub mod kernel;
pub mod kernels;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub mod lanes;
pub mod scan;

#[cfg(target_arch = "aarch64")]
pub mod aarch64;
#[cfg(target_arch = "x86_64")]
pub mod x86_64;
