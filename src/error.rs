//! One error type for the whole library. Each variant maps to one stable status code;
//! the message names what was wrong (argument, dtypes, shapes, element and value).

/// A stable status code, as the C API returns it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum Status {
    Ok = 0,
    NullArgument = 1,
    InvalidDtype = 2,
    Unsupported = 3,
    InvalidShape = 4,
    IncompatibleShapes = 5,
    BufferTooSmall = 6,
    Parse = 7,
    InvalidArgument = 8,
    Casting = 9,
    OutOfMemory = 10,
    Internal = 99,
}

impl Status {
    /// Every status, in code order.
    pub const ALL: [Status; 12] = [
        Status::Ok,
        Status::NullArgument,
        Status::InvalidDtype,
        Status::Unsupported,
        Status::InvalidShape,
        Status::IncompatibleShapes,
        Status::BufferTooSmall,
        Status::Parse,
        Status::InvalidArgument,
        Status::Casting,
        Status::OutOfMemory,
        Status::Internal,
    ];

    /// The status with this code.
    pub fn from_code(code: i32) -> Option<Status> {
        Status::ALL.iter().copied().find(|s| *s as i32 == code)
    }

    /// The C name of the status, e.g. "TCAST_ERR_PARSE".
    pub fn name(self) -> &'static str {
        let named = self.name_nul();
        &named[..named.len() - 1]
    }

    /// The C name followed by a NUL, for the C API.
    pub const fn name_nul(self) -> &'static str {
        match self {
            Status::Ok => "TCAST_OK\0",
            Status::NullArgument => "TCAST_ERR_NULL_ARGUMENT\0",
            Status::InvalidDtype => "TCAST_ERR_INVALID_DTYPE\0",
            Status::Unsupported => "TCAST_ERR_UNSUPPORTED\0",
            Status::InvalidShape => "TCAST_ERR_INVALID_SHAPE\0",
            Status::IncompatibleShapes => "TCAST_ERR_INCOMPATIBLE_SHAPES\0",
            Status::BufferTooSmall => "TCAST_ERR_BUFFER_TOO_SMALL\0",
            Status::Parse => "TCAST_ERR_PARSE\0",
            Status::InvalidArgument => "TCAST_ERR_INVALID_ARGUMENT\0",
            Status::Casting => "TCAST_ERR_CASTING\0",
            Status::OutOfMemory => "TCAST_ERR_OUT_OF_MEMORY\0",
            Status::Internal => "TCAST_ERR_INTERNAL\0",
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_codes_round_trip() {
        for s in Status::ALL {
            assert_eq!(Status::from_code(s as i32), Some(s));
        }
        assert_eq!(Status::from_code(11), None);
    }

    #[test]
    fn shapes_format_compactly() {
        assert_eq!(shape_text::<u64>(&[]), "[]");
        assert_eq!(shape_text(&[3u64, 0, 4]), "[3,0,4]");
    }
}
