// SPDX-License-Identifier: MIT OR Apache-2.0
//! What the kernels and the text conversions see of a numeric dtype: a standard scalar,
//! or one code per byte of a low-precision format (`lowp.rs`).

use super::lowp;
use crate::dtype::{DType, Scalar};

/// A numeric dtype as the kernels and the text conversions handle its elements.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Repr {
    /// A standard scalar, in its native bytes.
    Std(Scalar),
    /// One code per byte of low-precision format `low_ids::E4M3FN` ... `low_ids::U2` (packed
    /// dtypes are unpacked around the kernels).
    Low(u8),
}

impl Repr {
    /// The representation of a dtype; None for STRING (and dtypes without elements).
    pub fn of(dtype: DType) -> Option<Repr> {
        dtype
            .info()
            .scalar
            .map(Repr::Std)
            .or_else(|| lowp::format_of(dtype).map(Repr::Low))
    }
}
