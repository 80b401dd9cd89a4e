//! STRING casts in the core: parsing a STRING tensor's views into numbers, and
//! formatting numbers into an arena that STRING views then point into
//! (docs/semantics-cast.md section 8).

use super::options::{CastOptions, StringFormat};
use super::text;
use crate::dtype::DType;
use crate::error::Error;
use crate::string_view::{StringView, VIEW_BYTES};
use crate::tensor::{Tensor, TensorMut};

/// UNSUPPORTED for the pairs a cast into a plain output cannot make: numeric -> STRING
/// (the texts need an arena) and STRING <-> complex.
pub(crate) fn check_pair(from: DType, to: DType) -> Result<(), Error> {
    match (from, to) {
        (DType::String, DType::String) => Ok(()),
        (DType::String, _) => text::require_text_form(to, format_args!("cast from STRING to {to}")),
        (_, DType::String) => Err(Error::Unsupported(format!(
            "cast from {from} to STRING writes text into an arena: use tcast_cast_to_strings \
             (format_strings in Rust)"
        ))),
        _ => Ok(()),
    }
}

/// The checks of a numeric -> STRING formatting, in the order of docs/c-api.md section
/// 8 for the dtypes: the output must be STRING, the input numeric with a text form.
pub(crate) fn check_format_pair(from: DType, to: DType) -> Result<(), Error> {
    if to != DType::String {
        return Err(Error::Unsupported(format!(
            "output dtype is {to}: tcast_cast_to_strings writes STRING (use tcast_cast for numeric targets)"
        )));
    }
    if from == DType::String {
        return Err(Error::Unsupported(
            "input dtype is STRING: use tcast_cast to copy STRING views".into(),
        ));
    }
    text::require_text_form(from, format_args!("cast from {from} to STRING"))
}

/// STRING -> numeric: parses each view of `src` into `dst` (row-major order).
pub(crate) fn parse_strings(
    src: &Tensor,
    dst: &mut TensorMut,
    options: &CastOptions,
) -> Result<(), Error> {
    let layout = src.layout();
    if layout.strides().is_none() {
        let texts = src
            .data()
            .chunks_exact(VIEW_BYTES)
            .enumerate()
            .map(|(i, slot)| StringView::read_from(slot).bytes(i));
        text::parse_each(texts, dst, options)
    } else {
        let texts = layout
            .offsets()
            .enumerate()
            .map(|(i, at)| src.string_at(at).bytes(i));
        text::parse_each(texts, dst, options)
    }
}

/// Numeric -> STRING into a STRING output: formats every element of `input` into
/// `arena` from byte `used` on and stores in `output` a view of each text. Returns the
/// arena's new `used`; when the arena runs out, BUFFER_TOO_SMALL with the bytes needed.
pub(crate) fn format_to_views(
    input: &Tensor,
    output: &mut TensorMut,
    format: StringFormat,
    arena: &mut [u8],
    used: usize,
) -> Result<usize, Error> {
    let base = arena.as_ptr();
    let views = output.data();
    text::format_into(input, format, arena, used, |i, offset, len| {
        // SAFETY: `offset .. offset + len` lies inside the arena; its owner keeps it
        // alive and unchanged as long as it reads the views (docs/c-api.md section 5).
        let view = unsafe { StringView::from_raw(base.wrapping_add(offset), len) };
        view.write_to(&mut views[i * VIEW_BYTES..(i + 1) * VIEW_BYTES]);
    })
}

/// Formats every element of the numeric `input` (row-major order) as text appended to
/// `arena` from byte `used` on, and points `views[i]` at element i's text. Returns the
/// arena's new end. Errors: INVALID_SHAPE (`views` not one per element),
/// UNSUPPORTED (a dtype with no text form), BUFFER_TOO_SMALL (the bytes needed in the
/// message; the arena's bytes past `used` are then unspecified).
///
/// ```
/// use tensorcast::{format_strings, DType, StringFormat, StringView, Tensor};
/// let src: Vec<u8> = [0.1f32, -2.5].iter().flat_map(|x| x.to_ne_bytes()).collect();
/// let input = Tensor::new(&src, DType::Float, &[2]).unwrap();
/// let mut arena = [0u8; 32];
/// let mut views = [StringView::new(b""); 2];
/// format_strings(&input, StringFormat::Shortest, &mut arena, 0, &mut views).unwrap();
/// assert_eq!(views[0].bytes(0).unwrap(), b"0.1");
/// assert_eq!(views[1].bytes(1).unwrap(), b"-2.5");
/// ```
pub fn format_strings<'a>(
    input: &Tensor,
    format: StringFormat,
    arena: &'a mut [u8],
    used: usize,
    views: &mut [StringView<'a>],
) -> Result<usize, Error> {
    let count = input.layout().count();
    if views.len() != count {
        return Err(Error::InvalidShape(format!(
            "{} views for {count} input elements: format_strings writes one view per element",
            views.len()
        )));
    }
    // The texts lie one after another from `used` on: record their lengths, then point
    // the views into the arena once it is no longer written (its shared borrow for 'a).
    let mut expected = used;
    let end = text::format_into(input, format, arena, used, |i, offset, len| {
        debug_assert_eq!(offset, expected, "texts are written one after another");
        expected = offset + len;
        // SAFETY: a placeholder carrying the length; replaced below before any read.
        views[i] = unsafe { StringView::from_raw(core::ptr::null(), len) };
    })?;
    let arena: &'a [u8] = arena;
    let mut at = used;
    for view in views.iter_mut() {
        let len = view.len() as usize;
        *view = StringView::new(&arena[at..at + len]);
        at += len;
    }
    Ok(end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Status;

    #[test]
    fn rust_callers_parse_and_format_strings_through_the_core() {
        let texts = [StringView::new(b" 3.25"), StringView::new(b"-inf")];
        let input = Tensor::strings(&texts, &[2]).unwrap();
        let mut out = [0u8; 8];
        let mut output = TensorMut::new(&mut out, DType::Float, &[2]).unwrap();
        crate::cast(&input, &mut output, &CastOptions::default()).unwrap();
        assert_eq!(out[..4], 3.25f32.to_ne_bytes());
        assert_eq!(out[4..], f32::NEG_INFINITY.to_ne_bytes());

        let bad = [StringView::new(b"1"), StringView::new(b"x")];
        let input = Tensor::strings(&bad, &[2]).unwrap();
        let mut output = TensorMut::new(&mut out, DType::Float, &[2]).unwrap();
        let e = crate::cast(&input, &mut output, &CastOptions::default()).unwrap_err();
        assert_eq!((e.status(), e.index()), (Status::Parse, Some(1)));

        let numbers: Vec<u8> = [7i32, -12].iter().flat_map(|x| x.to_ne_bytes()).collect();
        let input = Tensor::new(&numbers, DType::Int32, &[2]).unwrap();
        let mut arena = [0u8; 16];
        let mut views = [StringView::new(b""); 2];
        let end = format_strings(&input, StringFormat::Shortest, &mut arena, 2, &mut views);
        assert_eq!(end.unwrap(), 2 + 1 + 3);
        assert_eq!(views[0].bytes(0).unwrap(), b"7");
        assert_eq!(views[1].bytes(1).unwrap(), b"-12");
    }

    #[test]
    fn bytes_are_not_views() {
        let bytes = [0u8; 16];
        let e = Tensor::new(&bytes, DType::String, &[1]).unwrap_err();
        assert_eq!(e.status(), Status::Unsupported);
        let mut out = [0u8; 16];
        let e = TensorMut::new(&mut out, DType::String, &[1]).unwrap_err();
        assert_eq!(e.status(), Status::Unsupported);
        let numbers = [0u8; 4];
        let input = Tensor::new(&numbers, DType::Float, &[1]).unwrap();
        let mut views = [StringView::new(b"")];
        let e = format_strings(
            &input,
            StringFormat::Shortest,
            &mut [0u8; 4],
            0,
            &mut views[..0],
        );
        assert_eq!(e.unwrap_err().status(), Status::InvalidShape);
    }
}
