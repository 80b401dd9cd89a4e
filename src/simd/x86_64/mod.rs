// SPDX-License-Identifier: MIT OR Apache-2.0
//! x86-64: the kernel families, each with its target features listed once, and their
//! capability tokens. A token is a zero-sized proof that the running CPU has every
//! feature of its family (and that none was disabled by `TCAST_DISABLE_CPU_FEATURES`):
//! only [`detect`] makes one, so safe code that holds a token may run the family's
//! kernels.

pub mod bytes;
pub mod cast;
pub mod fill;
pub mod lanes;
pub mod scan;

/// The AVX2 family's target features, listed once: `avx2_family! { m! { .. } }` calls
/// `m! { ["avx", ...] .. }`, so the `#[target_feature]` attributes
/// (`family::enable_features`) and the run-time check (`family::features_detected`) come from this one list. FMA, F16C,
/// BMI1/2, LZCNT and POPCNT shipped with AVX2 on every Intel and AMD CPU that has it.
macro_rules! avx2_family {
    ($callback:ident! { $($args:tt)* }) => {
        $callback! { ["avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "lzcnt", "popcnt"] $($args)* }
    };
}
pub(crate) use avx2_family;

/// The AVX2 family's features with AVX-512F, VL and BW added, listed once as
/// [`avx2_family`] is: the encoders have a second build with these
/// (`cast::encoder_entry`, for a CPU without [`vbmi_family`]'s features). The code is the AVX2 code, on 256-bit vectors; what the
/// extra features give it is the compiler's: 32 vector registers instead of 16 (the
/// encoders' four streams spilled to the stack), masks for the blends and `vpternlog`
/// for chains of logic. Only with a compiler that has these target features
/// (`tcast_avx512`, build.rs).
macro_rules! avx512_family {
    ($callback:ident! { $($args:tt)* }) => {
        $crate::simd::x86_64::avx2_family! {
            with_avx512! { $callback! { $($args)* } }
        }
    };
}
/// [`avx512_family`]'s step: the AVX2 list with the AVX-512 features appended.
macro_rules! with_avx512 {
    ([$($feature:tt),+] $callback:ident! { $($args:tt)* }) => {
        $callback! { [$($feature),+, "avx512f", "avx512vl", "avx512bw"] $($args)* }
    };
}
pub(crate) use avx512_family;
pub(crate) use with_avx512;

/// [`avx512_family`]'s features with AVX-512VBMI added, listed once: the FLOAT6
/// decoders' build that looks a code's 32 magnitudes up with one byte permute
/// (`vpermb`) per byte of the result (`cast::decode_lut`), and the encoders' on
/// 512-bit vectors (`cast::encoder`). Only with `tcast_avx512`.
macro_rules! vbmi_family {
    ($callback:ident! { $($args:tt)* }) => {
        $crate::simd::x86_64::avx512_family! {
            with_vbmi! { $callback! { $($args)* } }
        }
    };
}
/// [`vbmi_family`]'s step: the AVX-512 list with AVX-512VBMI appended.
macro_rules! with_vbmi {
    ([$($feature:tt),+] $callback:ident! { $($args:tt)* }) => {
        $callback! { [$($feature),+, "avx512vbmi"] $($args)* }
    };
}
pub(crate) use vbmi_family;
pub(crate) use with_vbmi;

use super::family::{feature_names, features_detected};

/// Proof that the CPU runs the AVX2 family, and (inside) whether it also runs
/// [`avx512_family`]'s features (and they are neither disabled nor unknown to the
/// compiler that built the library).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Avx2(Option<Avx512>);

/// Proof that the CPU runs the AVX-512 build of the AVX2 kernels ([`avx512_family`]),
/// and (inside) whether it also runs [`vbmi_family`]'s.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Avx512(Option<Vbmi>);

/// Proof that the CPU runs the AVX-512VBMI build of the FLOAT6 decoders and of the
/// encoders on 512-bit vectors ([`vbmi_family`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Vbmi(());

impl Avx512 {
    /// The proof of the VBMI build too, if the CPU runs it.
    pub fn vbmi(self) -> Option<Vbmi> {
        self.0
    }
}

impl Avx2 {
    /// The proof of the AVX-512 build too, if the CPU runs it.
    pub fn avx512(self) -> Option<Avx512> {
        self.0
    }

    /// The same proof without the AVX-512 build: its kernels are the plain AVX2 ones
    /// (for tests that compare the two builds).
    #[cfg(test)]
    pub fn without_avx512(self) -> Avx2 {
        Avx2(None)
    }

    /// The same proof with the AVX-512 build but without the VBMI one (for tests that
    /// compare the two).
    #[cfg(test)]
    pub fn without_vbmi(self) -> Avx2 {
        Avx2(self.0.map(|_| Avx512(None)))
    }
}

/// Proof that SSE2 is available and not disabled (every x86-64 CPU has it; the token
/// exists so that `TCAST_DISABLE_CPU_FEATURES` can turn its kernels off).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Sse2(());

/// Proof that the CPU has enhanced `rep movsb` (ERMSB) and it is not disabled.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Erms(());

/// The tokens of this CPU.
#[derive(Copy, Clone, Debug)]
pub struct Tokens {
    pub avx2: Option<Avx2>,
    pub sse2: Option<Sse2>,
    pub erms: Option<Erms>,
    /// The CPU's vendor string is `GenuineIntel`: a tuning fact, not a feature (see
    /// `fill::rows_by_string_first`).
    pub intel: bool,
}

impl Tokens {
    /// Each family by the name `tcast_cpu_info` reports, with whether it is in use.
    pub fn families(self) -> [(&'static str, bool); 5] {
        let avx512 = self.avx2.and_then(Avx2::avx512);
        [
            ("avx2", self.avx2.is_some()),
            ("avx512", avx512.is_some()),
            ("avx512vbmi", avx512.and_then(Avx512::vbmi).is_some()),
            ("sse2", self.sse2.is_some()),
            ("erms", self.erms.is_some()),
        ]
    }
}

/// Every feature name the families use, for checking `TCAST_DISABLE_CPU_FEATURES`.
pub fn known_features() -> impl Iterator<Item = &'static str> {
    let vbmi: &[&str] = vbmi_family! { feature_names! {} };
    vbmi.iter().copied().chain(["sse2", "ermsb"])
}

/// Detects the families this CPU runs; `disabled` names features to treat as absent.
pub fn detect(disabled: &dyn Fn(&str) -> bool) -> Tokens {
    let avx512 = cfg!(tcast_avx512)
        && avx512_family! { features_detected! { is_x86_feature_detected, disabled } };
    let vbmi = avx512 && vbmi_family! { features_detected! { is_x86_feature_detected, disabled } };
    Tokens {
        avx2: (avx2_family! { features_detected! { is_x86_feature_detected, disabled } })
            .then_some(Avx2(avx512.then_some(Avx512(vbmi.then_some(Vbmi(())))))),
        sse2: features_detected!(["sse2"] is_x86_feature_detected, disabled).then_some(Sse2(())),
        erms: features_detected!(["ermsb"] is_x86_feature_detected, disabled).then_some(Erms(())),
        intel: vendor_is_intel(),
    }
}

/// Whether CPUID leaf 0 names the vendor `GenuineIntel` (in EBX, EDX, ECX).
fn vendor_is_intel() -> bool {
    // Miri runs no inline assembly, which CPUID is (and detects no feature either).
    if cfg!(miri) {
        return false;
    }
    // SAFETY: CPUID exists on every x86-64 CPU, and leaf 0 always answers.
    #[allow(unused_unsafe)]
    let leaf = unsafe { std::arch::x86_64::__cpuid(0) };
    let mut vendor = [0u8; 12];
    vendor[..4].copy_from_slice(&leaf.ebx.to_le_bytes());
    vendor[4..8].copy_from_slice(&leaf.edx.to_le_bytes());
    vendor[8..].copy_from_slice(&leaf.ecx.to_le_bytes());
    &vendor == b"GenuineIntel"
}
