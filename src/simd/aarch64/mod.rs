// SPDX-License-Identifier: MIT OR Apache-2.0
//! aarch64: the kernel families, each with its target features listed once, and their
//! capability tokens (see `x86_64/mod.rs` for the pattern). Advanced SIMD (NEON) is part
//! of every aarch64 CPU; its token exists so that `TCAST_DISABLE_CPU_FEATURES` can turn
//! the NEON kernels off.

pub mod bytes;
pub mod cast;
pub mod lanes;

/// The NEON family's target features, listed once: `neon_family! { m! { .. } }` calls
/// `m! { ["neon"] .. }`.
macro_rules! neon_family {
    ($callback:ident! { $($args:tt)* }) => {
        $callback! { ["neon"] $($args)* }
    };
}
pub(crate) use neon_family;

use super::family::{feature_names, features_detected};

/// Proof that the CPU runs the NEON family .
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Neon(());

/// The tokens of this CPU.
#[derive(Copy, Clone, Debug)]
pub struct Tokens {
    pub neon: Option<Neon>,
}

impl Tokens {
    /// Each family by the name `tcast_cpu_info` reports, with whether it is in use.
    pub fn families(self) -> [(&'static str, bool); 1] {
        [("neon", self.neon.is_some())]
    }
}

/// Every feature name the families use, for checking `TCAST_DISABLE_CPU_FEATURES`.
pub fn known_features() -> impl Iterator<Item = &'static str> {
    let neon: &[&str] = neon_family! { feature_names! {} };
    neon.iter().copied()
}

/// Detects the families this CPU runs; `disabled` names features to treat as absent.
pub fn detect(disabled: &dyn Fn(&str) -> bool) -> Tokens {
    Tokens {
        neon: (neon_family! { features_detected! { is_aarch64_feature_detected, disabled } })
            .then_some(Neon(())),
    }
}
