//! Hand-vectorised kernels for pairs the compiler does not vectorise well on its own,
//! one file per ISA, behind the single dispatch point [`special`].

#[cfg(target_arch = "x86_64")]
mod x86_64;

use super::kernels::{Kernel, Tier};
use crate::dtype::Scalar;

/// A hand-written kernel for this pair on this tier, if there is one.
pub fn special(from: Scalar, to: Scalar, tier: Tier) -> Option<Kernel> {
    match tier {
        Tier::Baseline => None,
        #[cfg(target_arch = "x86_64")]
        Tier::Avx2 => x86_64::special(from, to),
    }
}
