// SPDX-License-Identifier: MIT OR Apache-2.0
//! numpy's `str(dtype)` (and the short construction repr of fields and subarray bases),
//! written piece by piece, and Python's `repr()` of a str as numpy's messages quote
//! specs.

use super::super::printable;
use super::model::{code_entry, Kind, NpDtype, Order, Shape};
use std::fmt::Write;

/// Python's `repr()` of a str, as numpy quotes specs in its messages: single quotes
/// unless the text holds one and no double quote; `\\`, `\n`, `\r`, `\t` and the
/// quote escaped, other characters that are not printable (`str.isprintable()`) as
/// `\xNN`, `\uNNNN` or `\UNNNNNNNN`.
///
/// For messages: a text of more than [`QUOTED_CHARS`] characters is quoted up to there
/// and followed by "..." (a message stays small whatever the spec; the C API's 255
/// bytes are the same either way).
pub fn py_repr(text: &str) -> String {
    let (shown, more) = quoted_part(text);
    let mut out = String::with_capacity(shown.len() + 5);
    // writing to a String cannot fail
    let _ = write_py_repr(shown, &mut out);
    out.push_str(more);
    out
}

/// The part of a caller's text a message quotes (its first [`QUOTED_CHARS`]
/// characters), and "..." when that is not all of it.
pub(super) fn quoted_part(text: &str) -> (&str, &'static str) {
    match text.char_indices().nth(QUOTED_CHARS) {
        Some((cut, _)) => (&text[..cut], "..."),
        None => (text, ""),
    }
}

/// The most characters of a caller's text a message quotes.
pub const QUOTED_CHARS: usize = 512;

/// [`py_repr`] (uncut) written to `out`.
fn write_py_repr(text: &str, out: &mut impl Write) -> core::fmt::Result {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    out.write_char(quote)?;
    for ch in text.chars() {
        match ch {
            '\\' => out.write_str("\\\\")?,
            '\n' => out.write_str("\\n")?,
            '\r' => out.write_str("\\r")?,
            '\t' => out.write_str("\\t")?,
            c if c == quote => {
                out.write_char('\\')?;
                out.write_char(c)?;
            }
            c if printable::is_printable(c) => out.write_char(c)?,
            c => {
                let cp = u32::from(c);
                if cp <= 0xff {
                    write!(out, "\\x{cp:02x}")?
                } else if cp <= 0xffff {
                    write!(out, "\\u{cp:04x}")?
                } else {
                    write!(out, "\\U{cp:08x}")?
                }
            }
        }
    }
    out.write_char(quote)
}

impl NpDtype {
    /// numpy's `dtype.str`: byte order, kind, size (`<i4`, `|S5`, `<U3`, `<M8[ns]`).
    pub fn typestr(&self) -> String {
        let prefix = self.order.prefix();
        match self.kind {
            Kind::Datetime | Kind::Timedelta => {
                format!("{prefix}{}8{}", self.kind.letter(), self.unit.text())
            }
            Kind::Str => format!("{prefix}U{}", self.chars()),
            _ => format!("{prefix}{}{}", self.kind.letter(), self.itemsize),
        }
    }

    /// numpy's `dtype.name` for a plain dtype (`int32`, `bytes40`, `datetime64[ns]`).
    fn name(&self) -> String {
        match self.kind {
            Kind::Datetime | Kind::Timedelta => {
                let base = if self.kind == Kind::Datetime {
                    "datetime64"
                } else {
                    "timedelta64"
                };
                format!("{base}{}", self.unit.text())
            }
            _ => code_entry(self.code).map_or("?", |e| e.name).to_string(),
        }
    }

    /// Python's `str(numpy.dtype(...))`, in a new String (for small dtypes and tests;
    /// [`NpDtype::write_str_to`] writes it anywhere, [`NpDtype::to_str_capped`] for
    /// messages).
    pub fn to_str(&self) -> String {
        let mut out = String::new();
        // writing to a String cannot fail
        let _ = self.write_str_to(&mut out);
        out
    }

    /// [`NpDtype::to_str`] cut after `QUOTED_CHARS` (512) bytes (then "..."), for
    /// messages.
    pub fn to_str_capped(&self) -> String {
        let mut out = crate::mem::Capped::new(QUOTED_CHARS);
        // a Capped writer never fails
        let _ = self.write_str_to(&mut out);
        out.finish()
    }

    /// Writes Python's `str(numpy.dtype(...))` to `out`, piece by piece (a struct's text
    /// is never built whole).
    pub fn write_str_to(&self, out: &mut impl Write) -> core::fmt::Result {
        match &self.shape {
            Shape::Plain => {
                let flexible = matches!(self.kind, Kind::Bytes | Kind::Str | Kind::Void);
                if flexible || !self.order.is_native() {
                    out.write_str(&self.typestr())
                } else {
                    out.write_str(&self.name())
                }
            }
            _ => self.write_short_repr(out),
        }
    }

    /// numpy's short construction repr of a field or subarray base (`'<i4'`, `'S4'`, `'?'`,
    /// `('<i4', (2,))`, `[('f0', '<i4')]`), written to `out`.
    fn write_short_repr(&self, out: &mut impl Write) -> core::fmt::Result {
        match &self.shape {
            Shape::Fields(fields) => {
                out.write_char('[')?;
                for (i, f) in fields.iter().enumerate() {
                    if i > 0 {
                        out.write_str(", ")?;
                    }
                    out.write_char('(')?;
                    write_py_repr(&f.name, out)?;
                    out.write_str(", ")?;
                    match &f.dtype.shape {
                        Shape::Sub { base, dims } => {
                            base.write_short_repr(out)?;
                            out.write_str(", ")?;
                            write_tuple(dims, out)?;
                        }
                        _ => f.dtype.write_short_repr(out)?,
                    }
                    out.write_char(')')?;
                }
                out.write_char(']')
            }
            Shape::Sub { base, dims } => {
                out.write_char('(')?;
                base.write_short_repr(out)?;
                out.write_str(", ")?;
                write_tuple(dims, out)?;
                out.write_char(')')
            }
            Shape::Plain => {
                let order = match self.order {
                    Order::None => "",
                    o => o.prefix(),
                };
                let size = self.itemsize;
                match self.kind {
                    Kind::Bool => write!(out, "'?'"),
                    Kind::Object => write!(out, "'O'"),
                    Kind::Bytes if size == 0 => write!(out, "'S'"),
                    Kind::Bytes => write!(out, "'S{size}'"),
                    Kind::Void if size == 0 => write!(out, "'V'"),
                    Kind::Void => write!(out, "'V{size}'"),
                    Kind::Str if size == 0 => write!(out, "'{order}U'"),
                    Kind::Str => write!(out, "'{order}U{}'", self.chars()),
                    Kind::Datetime => write!(out, "'{order}M8{}'", self.unit.text()),
                    Kind::Timedelta => write!(out, "'{order}m8{}'", self.unit.text()),
                    Kind::VString => write!(out, "'T'"),
                    _ => write!(out, "'{order}{}{size}'", self.kind.letter()),
                }
            }
        }
    }
}

/// A Python tuple of the dims: `(2,)`, `(2, 3)`, `()`.
fn write_tuple(dims: &[u64], out: &mut impl Write) -> core::fmt::Result {
    out.write_char('(')?;
    for (i, d) in dims.iter().enumerate() {
        if i > 0 {
            out.write_str(", ")?;
        }
        write!(out, "{d}")?;
    }
    if dims.len() == 1 {
        out.write_char(',')?;
    }
    out.write_char(')')
}
