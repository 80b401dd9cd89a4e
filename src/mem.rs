// SPDX-License-Identifier: MIT OR Apache-2.0
//! Fallible allocation. Rust's collections abort the process when an allocation fails,
//! which a library must not do to its host: every allocation whose size grows with the
//! caller's input goes through these helpers, and a failure is
//! [`Error::OutOfMemory`] (TCAST_ERR_OUT_OF_MEMORY), built without allocating.

use crate::error::Error;

fn out_of_memory<T>(what: &'static str, count: usize) -> Error {
    Error::OutOfMemory {
        what,
        bytes: count.saturating_mul(std::mem::size_of::<T>().max(1)),
    }
}

/// Makes room for `extra` more elements in `vec`, or OUT_OF_MEMORY naming `what`.
pub fn reserve<T>(vec: &mut Vec<T>, extra: usize, what: &'static str) -> Result<(), Error> {
    vec.try_reserve(extra)
        .map_err(|_| out_of_memory::<T>(what, extra))
}

/// An empty vector with room for `capacity` elements, or OUT_OF_MEMORY naming `what`.
pub fn vec_with_capacity<T>(capacity: usize, what: &'static str) -> Result<Vec<T>, Error> {
    let mut vec = Vec::new();
    reserve(&mut vec, capacity, what)?;
    Ok(vec)
}

/// Appends `item` to `vec`, growing it fallibly.
pub fn push<T>(vec: &mut Vec<T>, item: T, what: &'static str) -> Result<(), Error> {
    reserve(vec, 1, what)?;
    vec.push(item);
    Ok(())
}

/// Appends `text` to `out`, growing it fallibly.
pub fn push_str(out: &mut String, text: &str, what: &'static str) -> Result<(), Error> {
    out.try_reserve(text.len())
        .map_err(|_| out_of_memory::<u8>(what, text.len()))?;
    out.push_str(text);
    Ok(())
}

/// A copy of `text` in a new String, allocated fallibly.
pub fn string(text: &str, what: &'static str) -> Result<String, Error> {
    let mut out = String::new();
    push_str(&mut out, text, what)?;
    Ok(out)
}

/// `value` in a new Box, allocated fallibly.
pub fn boxed<T>(value: T, what: &'static str) -> Result<Box<T>, Error> {
    let mut one = vec_with_capacity(1, what)?;
    one.push(value);
    let slice = one.into_boxed_slice();
    // SAFETY: a boxed slice of exactly one T was allocated with the layout of one T (an
    // array of one has the size and alignment of its element), which is the allocation
    // a Box<T> owns and frees.
    Ok(unsafe { Box::from_raw(Box::into_raw(slice).cast::<T>()) })
}

/// A copy of `items` in a new vector, allocated fallibly.
pub fn copy_of<T: Copy>(items: &[T], what: &'static str) -> Result<Vec<T>, Error> {
    let mut vec = vec_with_capacity(items.len(), what)?;
    vec.extend_from_slice(items);
    Ok(vec)
}

/// A text of at most `limit` bytes (cut at a character boundary, then "..."), for
/// messages that quote something of the caller's that may be megabytes long: what a
/// message holds stays bounded whatever the input.
pub struct Capped {
    text: String,
    limit: usize,
    cut: bool,
}

impl Capped {
    pub fn new(limit: usize) -> Capped {
        Capped {
            text: String::new(),
            limit,
            cut: false,
        }
    }

    /// The text, with "..." when something was left out.
    pub fn finish(mut self) -> String {
        if self.cut {
            self.text.push_str("...");
        }
        self.text
    }
}

impl core::fmt::Write for Capped {
    fn write_str(&mut self, piece: &str) -> core::fmt::Result {
        if self.cut {
            return Ok(());
        }
        let room = self.limit - self.text.len();
        let mut take = piece.len().min(room);
        while !piece.is_char_boundary(take) {
            take -= 1;
        }
        self.cut = take < piece.len();
        self.text.push_str(&piece[..take]);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Status;

    #[test]
    fn impossible_requests_are_errors_not_aborts() {
        let mut v: Vec<u64> = Vec::new();
        let e = reserve(&mut v, usize::MAX / 4, "a test vector").unwrap_err();
        assert_eq!(e.status(), Status::OutOfMemory);
        assert_eq!(
            e.to_string(),
            format!(
                "out of memory: a test vector could not get {} more bytes",
                usize::MAX
            )
        );
        let mut s = String::from("x");
        assert!(push_str(&mut s, "yz", "text").is_ok());
        assert_eq!(s, "xyz");
        assert!(vec_with_capacity::<u8>(3, "t").unwrap().capacity() >= 3);
        let mut w = Vec::new();
        push(&mut w, 7u8, "t").unwrap();
        assert_eq!(w, [7]);
        assert_eq!(string("abc", "t").unwrap(), "abc");
        assert_eq!(*boxed(41u64 + 1, "t").unwrap(), 42);
        assert_eq!(copy_of(&[1u64, 2], "t").unwrap(), [1, 2]);
    }

    #[test]
    fn capped_text_stops_at_its_limit() {
        use core::fmt::Write;
        let mut c = Capped::new(5);
        c.write_str("ab").unwrap();
        c.write_str("céfgh").unwrap();
        assert_eq!(c.finish(), "abcé...");
        let mut c = Capped::new(5);
        write!(c, "abcde").unwrap();
        assert_eq!(c.finish(), "abcde");
    }
}
