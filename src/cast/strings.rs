// SPDX-License-Identifier: MIT OR Apache-2.0
//! STRING casts in the core: parsing a STRING tensor's views into numbers, and
//! formatting numbers into an arena that STRING views then point into
//! (docs/semantics-cast.md section 8).

use super::options::{CastOptions, StringFormat, SubByteLayout};
use super::text;
use crate::dtype::DType;
use crate::error::Error;
use crate::parallel::{shares, FirstError, Pieces, Workers, MAX_TASKS};
use crate::simd::fpenv::DefaultFpEnv;
use crate::string_view::{StringView, VIEW_BYTES};
use crate::tensor::{storage_bytes, Layout, Tensor, TensorMut};
use core::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

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

/// Parsing costs about this many ns per thousand elements (for choosing task counts).
const PARSE_NS_PER_1K: usize = 25_000;
/// Formatting costs about this many ns per thousand elements.
const FORMAT_NS_PER_1K: usize = 40_000;
/// Task shares start on multiples of this many elements (whole packed bytes).
const SPLIT_ALIGN: usize = 64;

/// STRING -> numeric: parses each view of `src` into `dst` (row-major order). A
/// contiguous input large enough is split into tasks on `workers`; the error reported
/// is the one at the lowest element index, whichever task found it.
pub(crate) fn parse_strings(
    src: &Tensor,
    dst: &mut TensorMut,
    options: &CastOptions,
    workers: Workers,
) -> Result<(), Error> {
    let layout = src.layout();
    if layout.strides().is_some() {
        let texts = layout
            .offsets()
            .enumerate()
            .map(|(i, at)| (i, src.string_at(at)));
        return text::parse_each(texts, dst, options);
    }
    let count = layout.count();
    let tasks = workers.tasks(count, PARSE_NS_PER_1K);
    let views = |range: Range<usize>| &src.data()[range.start * VIEW_BYTES..range.end * VIEW_BYTES];
    if tasks == 1 {
        return text::parse_views(views(0..count), 0, dst, options);
    }
    let (to, held) = (dst.layout().dtype(), dst.layout().sub_byte_layout());
    let share = shares(count, tasks, SPLIT_ALIGN);
    let (_, out) = dst.parts();
    let pieces = Pieces::new(out, tasks, |i| element_bytes(to, held, share(i)));
    let first_error = FirstError::new();
    workers.run(tasks, &|i| {
        let Some(piece) = pieces.take(i) else {
            return;
        };
        let range = share(i);
        let dims = [range.len()];
        let parsed = Layout::with_sub_byte_layout("output", to, &dims, None, held)
            .and_then(|layout| TensorMut::from_layout(layout, piece))
            .and_then(|mut part| {
                text::parse_views(views(range.clone()), range.start, &mut part, options)
            });
        if let Err(e) = parsed {
            first_error.offer(e);
        }
    })?;
    first_error.into_result()
}

/// The bytes elements `range` of a contiguous tensor of `dtype` held as `held` says
/// occupy (`range.start` a multiple of 8 for packed dtypes).
fn element_bytes(dtype: DType, held: SubByteLayout, range: Range<usize>) -> Range<usize> {
    let at = |n: usize| storage_bytes(dtype, held, n as u64).map_or(usize::MAX, |b| b as usize);
    at(range.start)..at(range.end)
}

/// Numeric -> STRING into a STRING output: formats every element of `input` into
/// `arena` from byte `used` on and stores in `output` a view of each text. Returns the
/// arena's new `used`; when the arena runs out, BUFFER_TOO_SMALL with the bytes needed.
///
/// A contiguous input large enough is split into tasks on `workers`: each formats its
/// share into its own region of the free arena (proportional to its element count),
/// then the regions are moved together and the views moved with them, so the arena
/// holds exactly what one thread writes. A region that runs out sends the whole call
/// back to one thread (the arena may still hold every text).
pub(crate) fn format_to_views(
    input: &Tensor,
    output: &mut TensorMut,
    format: StringFormat,
    arena: &mut [u8],
    used: usize,
    workers: Workers,
) -> Result<usize, Error> {
    let count = input.layout().count();
    let tasks = if input.layout().strides().is_none() {
        workers.tasks(count, FORMAT_NS_PER_1K)
    } else {
        1
    };
    if tasks > 1 {
        if let Some(end) = format_in_tasks(input, output, format, arena, used, (workers, tasks))? {
            return Ok(end);
        }
    }
    let base = arena.as_ptr();
    let views = output.data();
    text::format_into(input, format, arena, used, |i, offset, len| {
        // SAFETY: `offset .. offset + len` lies inside the arena; its owner keeps it
        // alive and unchanged as long as it reads the views (docs/c-api.md section 5).
        let view = unsafe { StringView::from_raw(base.wrapping_add(offset), len) };
        view.write_to(&mut views[i * VIEW_BYTES..(i + 1) * VIEW_BYTES]);
    })
}

/// [`format_to_views`] in `tasks` tasks on `workers`; None when a task's region ran out.
fn format_in_tasks(
    input: &Tensor,
    output: &mut TensorMut,
    format: StringFormat,
    arena: &mut [u8],
    used: usize,
    (workers, tasks): (Workers, usize),
) -> Result<Option<usize>, Error> {
    let (count, from) = (input.layout().count(), input.layout().dtype());
    let held = input.layout().sub_byte_layout();
    let free = arena.len() - used;
    let share = shares(count, tasks, SPLIT_ALIGN);
    // Task i's region of the arena: its elements' proportion of the free bytes.
    let region = |i: usize| {
        let r = share(i);
        let at = |n: usize| used + (free as u128 * n as u128 / count as u128) as usize;
        at(r.start)..at(r.end)
    };
    let base = arena.as_ptr() as usize;
    let lengths = [const { AtomicUsize::new(0) }; MAX_TASKS];
    let out_of_room = AtomicBool::new(false);
    let first_error = FirstError::new();
    {
        let regions = Pieces::new(arena, tasks, region);
        let views = Pieces::new(output.data(), tasks, |i| {
            let r = share(i);
            r.start * VIEW_BYTES..r.end * VIEW_BYTES
        });
        let data = input.data();
        workers.run(tasks, &|i| {
            let (Some(text), Some(views)) = (regions.take(i), views.take(i)) else {
                return;
            };
            let range = share(i);
            let dims = [range.len()];
            let part =
                Layout::with_sub_byte_layout("input", from, &dims, None, held).and_then(|layout| {
                    Tensor::from_layout(layout, &data[element_bytes(from, held, range.clone())])
                });
            let start = text.as_ptr() as usize - base;
            let written = part.and_then(|part| {
                text::format_into(&part, format, text, 0, |k, offset, len| {
                    // A placeholder: the arena offset, made a pointer once the regions
                    // are in place.
                    // SAFETY: never read as a view before it is rewritten below.
                    let view = unsafe {
                        StringView::from_raw(
                            core::ptr::null::<u8>().wrapping_add(start + offset),
                            len,
                        )
                    };
                    view.write_to(&mut views[k * VIEW_BYTES..(k + 1) * VIEW_BYTES]);
                })
            });
            match written {
                Ok(end) => lengths[i].store(end, Ordering::Relaxed),
                Err(Error::BufferTooSmall(_)) => out_of_room.store(true, Ordering::Relaxed),
                Err(e) => first_error.offer(e),
            }
        })?;
    }
    first_error.into_result()?;
    if out_of_room.load(Ordering::Relaxed) {
        return Ok(None);
    }
    // Move each region's text down to where the previous one ended, and its views with
    // it, in order (a region only ever moves towards the start).
    let views = output.data();
    let mut end = used;
    for (i, length) in lengths.iter().enumerate().take(tasks) {
        let (from_at, len) = (region(i).start, length.load(Ordering::Relaxed));
        arena.copy_within(from_at..from_at + len, end);
        let shift = from_at - end;
        let r = share(i);
        for slot in views[r.start * VIEW_BYTES..r.end * VIEW_BYTES].chunks_exact_mut(VIEW_BYTES) {
            let placeholder = StringView::read_from(slot);
            let offset = placeholder.as_ptr() as usize - shift;
            // SAFETY: `offset .. offset + len` holds the element's text inside the arena,
            // which its owner keeps alive and unchanged while it reads the views
            // (docs/c-api.md section 5).
            let view = unsafe {
                StringView::from_raw(
                    arena.as_ptr().wrapping_add(offset),
                    placeholder.len() as usize,
                )
            };
            view.write_to(slot);
        }
        end += len;
    }
    Ok(Some(end))
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
    let _env = DefaultFpEnv::enter();
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

    /// What parsing made of the elements before the first error (all of them if none),
    /// and the error (status, index, message).
    type Parsed = (Vec<u8>, Option<(Status, Option<u64>, String)>);

    /// Casts `views` to each target with text (one task: few elements).
    fn parse_all_targets(views: &[StringView]) -> Vec<Parsed> {
        let targets = [
            DType::Int64,
            DType::Int32,
            DType::Int8,
            DType::Uint8,
            DType::Uint64,
            DType::Float,
            DType::Double,
            DType::Float16,
            DType::Bool,
        ];
        let dims = [views.len()];
        let input = Tensor::strings(views, &dims).unwrap();
        targets
            .iter()
            .map(|&to| {
                let mut out = vec![0u8; to.bytes_for(views.len() as u64).unwrap() as usize];
                let mut output = TensorMut::new(&mut out, to, &dims).unwrap();
                match crate::cast(&input, &mut output, &CastOptions::default()) {
                    Ok(()) => (out, None),
                    Err(e) => {
                        let done = to.bytes_for(e.index().unwrap()).unwrap() as usize;
                        out.truncate(done);
                        (out, Some((e.status(), e.index(), e.to_string())))
                    }
                }
            })
            .collect()
    }

    /// A random text of `len` bytes: mostly a plain integer (spaces, a sign, digits),
    /// one in 64 any of the bytes number texts are made of (mostly not a number: rare
    /// enough that most tensors of 40 parse to their end or to a late element).
    fn random_text(rng: &mut crate::testutil::Rng, len: usize) -> Vec<u8> {
        let alphabet = b"0123456789+- .e\t/:x";
        if rng.below(64) == 0 {
            return (0..len)
                .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
                .collect();
        }
        let mut text: Vec<u8> = (0..len).map(|_| b'0' + rng.below(10) as u8).collect();
        if len > 1 && rng.below(3) == 0 {
            text[0] = if rng.below(2) == 0 { b'-' } else { b'+' };
        }
        if len > 2 && rng.below(8) == 0 {
            text[len - 1] = b' ';
        }
        if len > 2 && rng.below(8) == 0 {
            text[0] = b'\t';
        }
        text
    }

    #[test]
    fn adjacent_views_parse_as_separate_ones() {
        let mut rng = crate::testutil::Rng(0xad_1ace);
        const N: usize = 40;
        for round in 0..crate::testutil::samples(600) {
            let texts: Vec<Vec<u8>> = (0..N)
                .map(|k| random_text(&mut rng, (round * N + k) % 25))
                .collect();
            // One buffer, each text right after the one before or after a gap of digits
            // (which a reader that overreads would take for the text's own).
            let mut buffer = Vec::new();
            let mut starts = Vec::new();
            for text in &texts {
                if rng.below(3) == 0 {
                    buffer.extend_from_slice(&b"7777777777"[..1 + rng.below(9) as usize]);
                }
                starts.push(buffer.len());
                buffer.extend_from_slice(text);
            }
            let joined: Vec<StringView> = starts
                .iter()
                .zip(&texts)
                .map(|(&at, text)| StringView::new(&buffer[at..at + text.len()]))
                .collect();
            // The same texts, each in a buffer of its own with a digit after it.
            let own: Vec<Vec<u8>> = texts.iter().map(|t| [&t[..], b"7"].concat()).collect();
            let apart: Vec<StringView> = own
                .iter()
                .zip(&texts)
                .map(|(o, t)| StringView::new(&o[..t.len()]))
                .collect();
            assert_eq!(
                parse_all_targets(&joined),
                parse_all_targets(&apart),
                "{texts:?}"
            );
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn texts_ending_at_an_unreadable_page_parse_without_a_fault() {
        extern "C" {
            fn mmap(addr: *mut u8, len: usize, prot: i32, flags: i32, fd: i32, off: i64)
                -> *mut u8;
            fn mprotect(addr: *mut u8, len: usize, prot: i32) -> i32;
            fn munmap(addr: *mut u8, len: usize) -> i32;
        }
        const PROT_NONE: i32 = 0;
        const PROT_READ: i32 = 1;
        const PROT_WRITE: i32 = 2;
        const MAP_PRIVATE: i32 = 0x02;
        const MAP_ANONYMOUS: i32 = 0x20;
        // 64 KiB: a whole number of pages for every page size Linux uses.
        const SPAN: usize = 1 << 16;
        // SAFETY: a fresh private anonymous mapping, no address hint.
        let base = unsafe {
            mmap(
                core::ptr::null_mut(),
                2 * SPAN,
                PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert!(!base.is_null() && base as isize != -1, "mmap failed");
        // SAFETY: the second half of the mapping made above.
        let protected = unsafe { mprotect(base.wrapping_add(SPAN), SPAN, PROT_NONE) };
        assert_eq!(protected, 0);
        // SAFETY: the first half stays readable and writable until munmap below, after
        // its last use.
        let page = unsafe { core::slice::from_raw_parts_mut(base, SPAN) };
        let cases: [&[&[u8]]; 5] = [
            &[b"12", b"-3", b"7"],
            &[b"1", b"2", b"3", b"4", b"5", b"6", b"7", b"8", b"9"],
            &[b"-1234567"],
            &[b" +42 "],
            &[b"5", b"x"],
        ];
        for texts in cases {
            let total: usize = texts.iter().map(|t| t.len()).sum();
            for at_end in [true, false] {
                // Adjacent texts, the last ending at the unreadable page; or (at_end
                // false) the first text alone at the page end and the others before it.
                let mut views = Vec::new();
                if at_end {
                    let mut at = SPAN - total;
                    for text in texts {
                        page[at..at + text.len()].copy_from_slice(text);
                        views.push(at..at + text.len());
                        at += text.len();
                    }
                } else {
                    let first = texts[0];
                    page[SPAN - first.len()..].copy_from_slice(first);
                    views.push(SPAN - first.len()..SPAN);
                    let mut at = 0;
                    for text in &texts[1..] {
                        page[at..at + text.len()].copy_from_slice(text);
                        views.push(at..at + text.len());
                        at += text.len();
                    }
                }
                let page: &[u8] = page;
                let joined: Vec<StringView> = views
                    .iter()
                    .map(|r| StringView::new(&page[r.clone()]))
                    .collect();
                let own: Vec<Vec<u8>> = views.iter().map(|r| page[r.clone()].to_vec()).collect();
                let apart: Vec<StringView> = own.iter().map(|t| StringView::new(t)).collect();
                assert_eq!(
                    parse_all_targets(&joined),
                    parse_all_targets(&apart),
                    "{texts:?}"
                );
            }
        }
        // SAFETY: the mapping made above; nothing refers to it any more.
        let unmapped = unsafe { munmap(base, 2 * SPAN) };
        assert_eq!(unmapped, 0);
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
