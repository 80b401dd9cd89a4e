// SPDX-License-Identifier: MIT OR Apache-2.0
//! Bitcast: a view of a tensor's bytes as another dtype, without copying
//! (`docs/semantics-expand-bitcast.md`). Three rule sets decide the view's shape:
//! tf.bitcast, ONNX BitCast-26 and numpy's `ndarray.view(dtype)`.

use crate::dtype::{DType, Family};
use crate::error::{shape_text, Error};
use crate::tensor::{Layout, MAX_NDIM};

crate::tables::c_enum! {
    /// Which library's rules a bitcast follows.
    pub enum BitcastRules: i32,
        "The rules argument of tcast_bitcast_shape and tcast_bitcast: which library's \
         bitcast the view follows."
    {
        Tf = 0 => TCAST_BITCAST_TF:
            "tf.bitcast: equal sizes keep the shape; a larger input type appends a dimension \
             of the size ratio; a smaller one needs a last dimension equal to the ratio, \
             dropped.",
        Onnx = 1 => TCAST_BITCAST_ONNX:
            "ONNX BitCast-26: equal bit widths (BOOL and the packed types included), same \
             shape.",
        NumpyView = 2 => TCAST_BITCAST_NUMPY_VIEW:
            "numpy's ndarray.view(dtype): byte-sized dtypes; the last axis is rescaled.",
    }
}

/// The dtypes tf.bitcast accepts, in TensorFlow's order.
pub const TF_DTYPES: [DType; 19] = [
    DType::Bfloat16,
    DType::Float16,
    DType::Float,
    DType::Double,
    DType::Int64,
    DType::Int32,
    DType::Uint8,
    DType::Uint16,
    DType::Uint32,
    DType::Uint64,
    DType::Int8,
    DType::Int16,
    DType::Complex64,
    DType::Complex128,
    DType::Qint8,
    DType::Quint8,
    DType::Qint16,
    DType::Quint16,
    DType::Qint32,
];

/// A view's shape: up to one dimension more than the input can have.
#[derive(Debug)]
pub struct ViewShape {
    dims: [usize; MAX_NDIM + 1],
    rank: usize,
}

impl ViewShape {
    pub fn dims(&self) -> &[usize] {
        &self.dims[..self.rank]
    }
}

/// How the input's last axis is laid out (numpy's view checks it).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LastAxis {
    Contiguous,
    Strided,
}

/// [`TF_DTYPES`] by dtype code (codes are below 128): one load instead of a search.
const TF_TAKES: [bool; 128] = {
    let mut takes = [false; 128];
    let mut i = 0;
    while i < TF_DTYPES.len() {
        takes[TF_DTYPES[i] as usize] = true;
        i += 1;
    }
    takes
};

#[inline]
fn tf_bytes(dtype: DType) -> Result<usize, Error> {
    if TF_TAKES[dtype as usize & 127] {
        return Ok((dtype.bits() / 8) as usize);
    }
    Err(tf_refuses(dtype))
}

#[cold]
#[inline(never)]
fn tf_refuses(dtype: DType) -> Error {
    let allowed: Vec<&str> = TF_DTYPES.iter().map(|d| d.name()).collect();
    Error::Unsupported(format!(
        "TCAST_BITCAST_TF does not take {dtype}: tf.bitcast takes {}",
        allowed.join(", ")
    ))
}

/// UNSUPPORTED when `rules` do not take the dtype pair, whatever the shape: a dtype
/// outside tf.bitcast's list, unequal bit widths for ONNX, a sub-byte or STRING dtype
/// for numpy's view.
pub fn check_dtypes(from: DType, to: DType, rules: BitcastRules) -> Result<(), Error> {
    match rules {
        BitcastRules::Tf => {
            tf_bytes(from)?;
            tf_bytes(to)?;
        }
        BitcastRules::Onnx => {
            for dtype in [from, to] {
                if dtype == DType::String {
                    return Err(Error::Unsupported(
                        "TCAST_BITCAST_ONNX does not take STRING (its elements are views, not values)".into(),
                    ));
                }
            }
            if from.bits() != to.bits() {
                return Err(Error::Unsupported(format!(
                    "TCAST_BITCAST_ONNX needs equal bit widths: {from} has {} bits, {to} has {}",
                    from.bits(),
                    to.bits()
                )));
            }
        }
        BitcastRules::NumpyView => {
            for dtype in [from, to] {
                if dtype.info().family == Family::String || dtype.is_packed() {
                    return Err(Error::Unsupported(format!(
                        "TCAST_BITCAST_NUMPY_VIEW takes byte-sized dtypes; {dtype} is {}",
                        if dtype.is_packed() {
                            "packed"
                        } else {
                            "a string view"
                        }
                    )));
                }
            }
        }
    }
    Ok(())
}

/// The shape of `from[dims]` viewed as `to` under `rules` (the dtypes are checked
/// first, by `check_dtypes`).
pub fn bitcast_shape(
    from: DType,
    dims: &[usize],
    last_axis: LastAxis,
    to: DType,
    rules: BitcastRules,
) -> Result<ViewShape, Error> {
    check_dtypes(from, to, rules)?;
    let change = view_change(from, dims, last_axis, to, rules)?;
    let mut shape = ViewShape {
        dims: [0; MAX_NDIM + 1],
        rank: change.rank(dims.len()),
    };
    for (i, slot) in shape.dims[..shape.rank].iter_mut().enumerate() {
        *slot = change.dim(dims, i);
    }
    Ok(shape)
}

/// How a view's shape differs from its input's: only the last axis ever changes. The C
/// shell writes a view's shape from this and the input's dims, without building a
/// rank-65 array.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum LastDim {
    /// The same shape.
    Keep,
    /// A dimension of this extent appended.
    Append(usize),
    /// The last dimension removed.
    Drop,
    /// The last dimension's extent replaced.
    Set(usize),
}

impl LastDim {
    /// The view's rank for an input of rank `rank`.
    pub(crate) fn rank(self, rank: usize) -> usize {
        match self {
            LastDim::Keep | LastDim::Set(_) => rank,
            LastDim::Append(_) => rank + 1,
            LastDim::Drop => rank - 1,
        }
    }

    /// The view's extent `i` (below its rank) for input dims `dims`.
    pub(crate) fn dim(self, dims: &[usize], i: usize) -> usize {
        match self {
            LastDim::Append(d) if i == dims.len() => d,
            LastDim::Set(d) if i + 1 == dims.len() => d,
            _ => dims[i],
        }
    }
}

/// The shape rules of [`bitcast_shape`] for dtypes `check_dtypes` accepted.
#[inline]
pub(crate) fn view_change(
    from: DType,
    dims: &[usize],
    last_axis: LastAxis,
    to: DType,
    rules: BitcastRules,
) -> Result<LastDim, Error> {
    match rules {
        BitcastRules::Tf => {
            let (a, b) = (tf_bytes(from)?, tf_bytes(to)?);
            if a == b {
                return Ok(LastDim::Keep);
            }
            if a > b {
                if dims.len() == MAX_NDIM {
                    return Err(Error::InvalidShape(format!(
                        "bitcast from {from} to {to} appends a dimension to shape {}, above the most rank {MAX_NDIM}",
                        shape_text(dims)
                    )));
                }
                return Ok(LastDim::Append(a / b));
            }
            match dims.last() {
                Some(&last) if last == b / a => Ok(LastDim::Drop),
                _ => Err(Error::IncompatibleShapes(format!(
                    "Cannot bitcast from {from} to {to}: shape {}",
                    shape_text(dims)
                ))),
            }
        }
        BitcastRules::Onnx => Ok(LastDim::Keep),
        BitcastRules::NumpyView => {
            let (a, b) = ((from.bits() / 8) as usize, (to.bits() / 8) as usize);
            if a == b {
                return Ok(LastDim::Keep);
            }
            let Some(&last) = dims.last() else {
                return Err(Error::IncompatibleShapes(format!(
                    "Changing the dtype of a 0d array is only supported if the itemsize is unchanged ({from} to {to})"
                )));
            };
            if last_axis == LastAxis::Strided {
                return Err(Error::IncompatibleShapes(format!(
                    "To change to a dtype of a different size, the last axis must be contiguous ({from} to {to}, shape {})",
                    shape_text(dims)
                )));
            }
            let bytes = last * a;
            if bytes % b != 0 {
                return Err(Error::IncompatibleShapes(format!(
                    "When changing to a larger dtype, its size must be a divisor of the total size in bytes of the last axis of the array ({from} to {to}, shape {})",
                    shape_text(dims)
                )));
            }
            Ok(LastDim::Set(bytes / b))
        }
    }
}

/// The view shape change of a tensor with `layout` seen as `to` (dtypes checked): the
/// rules' shape checks, then UNSUPPORTED for a strided input (a view carries no
/// strides), in that order.
#[inline(always)]
pub(crate) fn view_shape(
    layout: &Layout,
    to: DType,
    rules: BitcastRules,
) -> Result<LastDim, Error> {
    let last_axis = match layout.strides() {
        Some(s) if layout.dims().last().is_some_and(|&d| d != 1) && s[s.len() - 1] != 1 => {
            LastAxis::Strided
        }
        _ => LastAxis::Contiguous,
    };
    let change = view_change(layout.dtype(), layout.dims(), last_axis, to, rules)?;
    if let Some(strides) = layout.strides() {
        return Err(Error::Unsupported(format!(
            "the input is not C-contiguous (strides {}): a bitcast view carries no strides",
            shape_text(strides)
        )));
    }
    Ok(change)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Status;

    fn tf(from: DType, dims: &[usize], to: DType) -> Result<Vec<usize>, Error> {
        bitcast_shape(from, dims, LastAxis::Contiguous, to, BitcastRules::Tf)
            .map(|s| s.dims().to_vec())
    }

    fn np(from: DType, dims: &[usize], to: DType) -> Result<Vec<usize>, Error> {
        bitcast_shape(
            from,
            dims,
            LastAxis::Contiguous,
            to,
            BitcastRules::NumpyView,
        )
        .map(|s| s.dims().to_vec())
    }

    #[test]
    fn tensorflow_cases_of_the_semantics_page() {
        use DType::*;
        assert_eq!(tf(Uint32, &[], Uint8).unwrap(), [4]);
        assert_eq!(tf(Float, &[3], Uint8).unwrap(), [3, 4]);
        let e = tf(Float, &[3], Complex128).unwrap_err();
        assert_eq!(e.status(), Status::IncompatibleShapes);
        assert_eq!(
            e.to_string(),
            "Cannot bitcast from FLOAT to COMPLEX128: shape [3]"
        );
        assert_eq!(tf(Double, &[3, 2], Int8).unwrap(), [3, 2, 8]);
        assert_eq!(tf(Int8, &[4, 4], Int32).unwrap(), [4]);
        assert_eq!(tf(Double, &[3, 4], Int64).unwrap(), [3, 4]);
        assert!(tf(Int8, &[1, 1], Int32).is_err());
        assert_eq!(tf(Int32, &[], Int8).unwrap(), [4]);
        assert_eq!(tf(Uint16, &[3, 4], Quint16).unwrap(), [3, 4]);
        assert_eq!(tf(Int64, &[3, 4], Uint64).unwrap(), [3, 4]);
        assert_eq!(tf(Uint8, &[8], Uint64).unwrap(), Vec::<usize>::new());
        assert_eq!(tf(Uint64, &[], Uint8).unwrap(), [8]);
        assert_eq!(tf(Complex128, &[4, 5], Int8).unwrap(), [4, 5, 16]);
        assert_eq!(tf(Int8, &[0], Int8).unwrap(), [0]);
        assert_eq!(tf(Int32, &[0], Int8).unwrap(), [0, 4]);
        assert_eq!(tf(Int32, &[3, 0], Int8).unwrap(), [3, 0, 4]);
        assert_eq!(tf(Int8, &[0, 4], Int32).unwrap(), [0]);
        assert!(tf(Int8, &[4, 0], Int32).is_err());
        assert!(tf(Int8, &[0], Int32).is_err());
        assert_eq!(
            tf(Int8, &[], Int32).unwrap_err().to_string(),
            "Cannot bitcast from INT8 to INT32: shape []"
        );
        let e = tf(Bool, &[4], Int8).unwrap_err();
        assert_eq!(e.status(), Status::Unsupported);
        assert!(e.to_string().contains("BFLOAT16, FLOAT16, FLOAT"), "{e}");
    }

    #[test]
    fn numpy_view_cases_of_the_semantics_page() {
        use DType::*;
        assert_eq!(np(Int32, &[3], Uint8).unwrap(), [12]);
        assert_eq!(np(Int8, &[2, 8], Int32).unwrap(), [2, 2]);
        assert_eq!(np(Int8, &[0, 4], Int32).unwrap(), [0, 1]);
        assert_eq!(np(Int8, &[4, 0], Int32).unwrap(), [4, 0]);
        assert_eq!(np(Int8, &[], Uint8).unwrap(), Vec::<usize>::new());
        assert!(np(Int8, &[], Int32)
            .unwrap_err()
            .to_string()
            .contains("0d array"));
        assert!(np(Int8, &[3], Int32)
            .unwrap_err()
            .to_string()
            .contains("divisor"));
        let strided = bitcast_shape(
            Int8,
            &[8],
            LastAxis::Strided,
            Int32,
            BitcastRules::NumpyView,
        )
        .unwrap_err();
        assert!(strided.to_string().contains("last axis must be contiguous"));
        assert_eq!(
            np(Int4, &[4], Int8).unwrap_err().status(),
            Status::Unsupported
        );
    }

    #[test]
    fn onnx_needs_equal_widths() {
        let onnx =
            |from, to| bitcast_shape(from, &[2, 3], LastAxis::Contiguous, to, BitcastRules::Onnx);
        assert_eq!(onnx(DType::Float, DType::Int32).unwrap().dims(), [2, 3]);
        assert_eq!(onnx(DType::Bool, DType::Uint8).unwrap().dims(), [2, 3]);
        assert_eq!(onnx(DType::Int4, DType::Float4E2M1).unwrap().dims(), [2, 3]);
        assert_eq!(
            onnx(DType::Float, DType::Double).unwrap_err().status(),
            Status::Unsupported
        );
        assert_eq!(
            onnx(DType::String, DType::String).unwrap_err().status(),
            Status::Unsupported
        );
    }
}
