// SPDX-License-Identifier: MIT OR Apache-2.0
//! x86-64: the kernel families, each with its target features listed once, and their
//! capability tokens. A token is a zero-sized proof that the running CPU has every
//! feature of its family (and that none was disabled by `TCAST_DISABLE_CPU_FEATURES`):
//! only [`detect`] makes one, so safe code that holds a token may run the family's
//! kernels.

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

use super::family::{feature_names, features_detected};

/// Proof that the CPU runs the AVX2 family .
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Avx2(());

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
}

impl Tokens {
    /// Each family by the name `tcast_cpu_info` reports, with whether it is in use.
    pub fn families(self) -> [(&'static str, bool); 3] {
        [
            ("avx2", self.avx2.is_some()),
            ("sse2", self.sse2.is_some()),
            ("erms", self.erms.is_some()),
        ]
    }
}

/// Every feature name the families use, for checking `TCAST_DISABLE_CPU_FEATURES`.
pub fn known_features() -> impl Iterator<Item = &'static str> {
    let avx2: &[&str] = avx2_family! { feature_names! {} };
    avx2.iter().copied().chain(["sse2", "ermsb"])
}

/// Detects the families this CPU runs; `disabled` names features to treat as absent.
pub fn detect(disabled: &dyn Fn(&str) -> bool) -> Tokens {
    Tokens {
        avx2: (avx2_family! { features_detected! { is_x86_feature_detected, disabled } })
            .then_some(Avx2(())),
        sse2: features_detected!(["sse2"] is_x86_feature_detected, disabled).then_some(Sse2(())),
        erms: features_detected!(["ermsb"] is_x86_feature_detected, disabled).then_some(Erms(())),
    }
}
