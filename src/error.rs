// SPDX-License-Identifier: MIT OR Apache-2.0
//! One error type for the whole library. Each variant maps to one stable status code;
//! the message names what was wrong (argument, dtypes, shapes, element and value).

crate::tables::c_enum! {
    /// A stable status code, as the C API returns it.
    pub enum Status: i32,
        "The tcast_status values: TCAST_OK, or the TCAST_ERR_* code of what failed \
         (tcast_status_name gives the name of each)."
    {
        Ok = 0 => TCAST_OK: "Success.",
        NullArgument = 1 => TCAST_ERR_NULL_ARGUMENT: "A required pointer was NULL.",
        InvalidDtype = 2 => TCAST_ERR_INVALID_DTYPE: "Unknown dtype code or name.",
        Unsupported = 3 => TCAST_ERR_UNSUPPORTED: "Valid dtypes the operation does not accept.",
        InvalidShape = 4 => TCAST_ERR_INVALID_SHAPE:
            "Negative dimension, rank above TCAST_MAX_NDIM, element or byte count \
             overflow, bad strides, or an output shape that is not what the operation \
             produces.",
        IncompatibleShapes = 5 => TCAST_ERR_INCOMPATIBLE_SHAPES:
            "A broadcast or bitcast shape rule was violated.",
        BufferTooSmall = 6 => TCAST_ERR_BUFFER_TOO_SMALL:
            "`data_bytes`, an arena or an output capacity is smaller than needed.",
        Parse = 7 => TCAST_ERR_PARSE: "A string element or a dtype spec could not be parsed.",
        InvalidArgument = 8 => TCAST_ERR_INVALID_ARGUMENT:
            "A bad option or enum value, or overlapping input and output buffers.",
        Casting = 9 => TCAST_ERR_CASTING:
            "The cast is not allowed at the requested numpy casting level.",
        OutOfMemory = 10 => TCAST_ERR_OUT_OF_MEMORY:
            "A temporary the operation needs could not be allocated (never an abort of \
             the host).",
        Internal = 99 => TCAST_ERR_INTERNAL: "A bug: a panic was caught at the boundary.",
    }
}

/// Everything that can go wrong, with a message meant for the caller.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    NullArgument(String),
    #[error("{0}")]
    InvalidDtype(String),
    #[error("{0}")]
    Unsupported(String),
    #[error("{0}")]
    InvalidShape(String),
    #[error("{0}")]
    IncompatibleShapes(String),
    #[error("{0}")]
    BufferTooSmall(String),
    /// A string element or spec that could not be parsed; `index` is the element.
    #[error("{message}")]
    Parse { index: Option<u64>, message: String },
    #[error("{0}")]
    InvalidArgument(String),
    #[error("{0}")]
    Casting(String),
    /// Memory the operation needs could not be allocated. Built without allocating:
    /// `what` names the use, `bytes` the size of the request that failed.
    #[error("out of memory: {what} could not get {bytes} more bytes")]
    OutOfMemory { what: &'static str, bytes: usize },
    #[error("{0}")]
    Internal(String),
    /// Any other error, about one element (`err->index` is set).
    #[error("{error}")]
    AtElement { index: u64, error: Box<Error> },
}

impl Error {
    /// The status code this error is reported with.
    pub fn status(&self) -> Status {
        match self {
            Error::NullArgument(_) => Status::NullArgument,
            Error::InvalidDtype(_) => Status::InvalidDtype,
            Error::Unsupported(_) => Status::Unsupported,
            Error::InvalidShape(_) => Status::InvalidShape,
            Error::IncompatibleShapes(_) => Status::IncompatibleShapes,
            Error::BufferTooSmall(_) => Status::BufferTooSmall,
            Error::Parse { .. } => Status::Parse,
            Error::InvalidArgument(_) => Status::InvalidArgument,
            Error::Casting(_) => Status::Casting,
            Error::OutOfMemory { .. } => Status::OutOfMemory,
            Error::Internal(_) => Status::Internal,
            Error::AtElement { error, .. } => error.status(),
        }
    }

    /// This error, about element `index`.
    pub fn at_element(self, index: u64) -> Error {
        Error::AtElement {
            index,
            error: Box::new(self),
        }
    }

    /// The element the error is about, if any.
    pub fn index(&self) -> Option<u64> {
        match self {
            Error::Parse { index, .. } => *index,
            Error::AtElement { index, .. } => Some(*index),
            _ => None,
        }
    }
}

/// Formats a shape as `[d0,d1,...]` (`[]` for a scalar), the form every message uses.
pub fn shape_text<T: core::fmt::Display>(dims: &[T]) -> String {
    let mut text = String::from("[");
    for (i, d) in dims.iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&d.to_string());
    }
    text.push(']');
    text
}

impl From<crate::tables::InvalidValue> for Error {
    fn from(value: crate::tables::InvalidValue) -> Error {
        Error::InvalidArgument(value.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_codes_round_trip() {
        for s in Status::ALL {
            assert_eq!(Status::from_code(s as i32), Some(s));
        }
        assert_eq!(Status::from_code(11), None);
        assert_eq!(Status::Parse.name(), "TCAST_ERR_PARSE");
    }

    #[test]
    fn shapes_format_compactly() {
        assert_eq!(shape_text::<u64>(&[]), "[]");
        assert_eq!(shape_text(&[3u64, 0, 4]), "[3,0,4]");
    }
}
