// SPDX-License-Identifier: MIT OR Apache-2.0
//! What every kernel family shares: the macros that turn a family's one list of target
//! features into `#[target_feature]` attributes and a run-time check, and the kernel
//! bodies that a family's generic entry point runs.
//!
//! An ISA module declares a family as a callback macro holding its list (for example
//! `avx2_family! { m! { .. } }` calls `m! { ["avx", "avx2", ..] .. }`), so the list is
//! written once and every use goes through it.

use crate::formats::convert::CastTo;
use crate::formats::elem::Elem;

/// A kernel entry point: converts the contiguous elements of `src` into `dst`.
pub type Run = unsafe fn(&[u8], &mut [u8]);

/// Prepends `#[target_feature(enable = ..)]` for each listed feature to every item.
macro_rules! enable_features {
    ([$($feature:tt),+]) => {};
    ([$($feature:tt),+] $first:item $($rest:item)*) => {
        $(#[target_feature(enable = $feature)])+
        $first
        $crate::simd::family::enable_features! { [$($feature),+] $($rest)* }
    };
}
pub(crate) use enable_features;

/// Whether the CPU has every listed feature, by `std::arch::$detect!`, and `disabled`
/// names none of them.
macro_rules! features_detected {
    ([$($feature:tt),+] $detect:ident, $disabled:expr) => {
        $(std::arch::$detect!($feature) && !$disabled($feature))&&+
    };
}
pub(crate) use features_detected;

/// The listed features as a slice of names.
macro_rules! feature_names {
    ([$($feature:tt),+]) => {
        &[$($feature),+]
    };
}
pub(crate) use feature_names;

/// Declares a family's generic entry point, `entry::<B>`, compiled with the family's
/// target features (`$family!` is its feature-list macro; `enable_features!` must be in
/// scope), and `kernel(run, src_size, dst_size, token)`, which makes a [`Kernel`] of tier
/// `$tier` from an entry (`Run` and `Kernel` must be in scope: this module does not
/// depend on `kernel.rs`, which depends on detection). Both stay private to the ISA module that declares them, which
/// gives `kernel` only its own entries.
macro_rules! family_entry {
    ($family:ident, $token:ty, $tier:path) => {
        $family! { enable_features! {
            /// # Safety
            /// The CPU runs the family; the sizes of the kernel for `B`.
            unsafe fn entry<B: Body>(src: &[u8], dst: &mut [u8]) {
                // SAFETY: the caller's promise is the body's.
                unsafe { B::run(src, dst) }
            }
        } }

        /// A kernel of this family.
        fn kernel(run: Run, src_size: usize, dst_size: usize, token: $token) -> Kernel {
            // SAFETY: every `run` given here is an `entry` of this module, compiled for the
            // family, and the tier carries the token that detection made on this CPU.
            unsafe { Kernel::new(run, src_size, dst_size, $tier(token)) }
        }
    };
}
pub(crate) use family_entry;

/// A kernel body: an `#[inline(always)]` function without target features of its own,
/// run by a family's generic entry point (`entry::<B>`), which is compiled with the
/// family's features and into which the body and its intrinsics are inlined.
pub trait Body {
    /// # Safety
    /// The CPU runs the family of the entry point that calls this; `src` and `dst` hold
    /// the same element count.
    unsafe fn run(src: &[u8], dst: &mut [u8]);
}

/// Declares a zero-sized [`Body`] type per kernel body function (with the body's const
/// generic parameters, if any).
macro_rules! bodies {
    ($($name:ident $(<$(const $c:ident: $t:ty),+>)? => $body:ident;)*) => {
        $(
            struct $name $(<$(const $c: $t),+>)?;
            impl $(<$(const $c: $t),+>)? $crate::simd::family::Body for $name $(<$($c),+>)? {
                #[inline(always)]
                unsafe fn run(src: &[u8], dst: &mut [u8]) {
                    // SAFETY: the caller's promise is the body's.
                    unsafe { $body $(::<$($c),+>)? (src, dst) }
                }
            }
        )*
    };
}
pub(crate) use bodies;

/// Converts the elements a vector loop left over (whole elements of `S` in `src`, as
/// many of `D` in `dst`) one by one by the scalar conversion, which rounds as the
/// kernels' instructions do (the tests compare the two on every input they try).
/// Never inlined: inside a kernel compiled for AVX2, LLVM vectorized this loop of at
/// most a vector's elements with masked loads and stores (`vpmaskmovd`), which are slow
/// on AMD's cores; a call on a one-element tensor then took most of a small call's time
/// (FLOAT -> INT32 of one element through onnxruntime, Zen 4). Out of line it is a plain
/// loop: `tcast_cast_plan_run` of one FLOAT -> FLOAT16 element 25 -> 17 ns.
#[inline(never)]
pub fn scalar_tail<S, D>(src: &[u8], dst: &mut [u8])
where
    S: Elem + CastTo<D>,
    D: Elem,
{
    for (si, di) in src.chunks_exact(S::SIZE).zip(dst.chunks_exact_mut(D::SIZE)) {
        S::load(si).cast_to().store(di);
    }
}
