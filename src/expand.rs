// SPDX-License-Identifier: MIT OR Apache-2.0
//! Expand (ONNX Expand-8/13): numpy broadcasting of an input into a new, contiguous
//! buffer (`docs/semantics-expand-bitcast.md`).
//!
//! The output's dimensions are merged where the input's layout allows (runs of
//! broadcast dimensions, runs of dimensions contiguous in the input), each contiguous
//! input run is copied once, and every broadcast level is filled by copying the block
//! already written: doubling while it is small, then repeating a cache-resident chunk.
//! Large outputs copy blocks with streaming stores; one element repeated is written by
//! string stores where the CPU has fast ones, as memset writes (on Zen 4, 64 MiB at
//! 0.95-1.00 of memset's speed on 4 KiB pages and 2 MiB pages alike, where register
//! stores ran at 0.87-0.90 on 4 KiB pages and 1.03-1.13 on 2 MiB ones); a block of up
//! to 512 bytes repeated is stored from registers at every size (ordinary stores beat
//! streaming ones on numpy's 2 MiB pages). Packed dtypes are expanded code by code
//! through their bit streams (they are rare and never strided).

use crate::dtype::DType;
use crate::error::{shape_text, Error};
use crate::formats::pack;
use crate::parallel::{shares, Pieces, Workers};
use crate::simd::cpu::Tier;
use crate::simd::fill;
use crate::tensor::{Layout, Tensor, TensorMut, MAX_NDIM};

/// The numpy broadcast of two shapes (aligned on the right; equal dims stay, a 1 takes
/// the other side's extent, 0 included). Returns the rank; the dims are in `out`.
pub fn broadcast_shape(
    input: &[usize],
    shape: &[usize],
    out: &mut [usize; MAX_NDIM],
) -> Result<usize, Error> {
    let rank = input.len().max(shape.len());
    if rank > MAX_NDIM {
        return Err(Error::InvalidShape(format!(
            "broadcast rank {rank} is above the most, {MAX_NDIM}"
        )));
    }
    for (axis, slot) in out[..rank].iter_mut().enumerate() {
        // Position from the right in each shape; missing leading dims are 1.
        let from_right = rank - axis;
        let a = input.len().checked_sub(from_right).map_or(1, |i| input[i]);
        let b = shape.len().checked_sub(from_right).map_or(1, |i| shape[i]);
        *slot = if a == b || b == 1 {
            a
        } else if a == 1 {
            b
        } else {
            return Err(Error::IncompatibleShapes(format!(
                "cannot broadcast input shape {} to shape {}: dimension {axis} of the result has {a} in the input and {b} in the shape",
                shape_text(input),
                shape_text(shape)
            )));
        };
    }
    Ok(rank)
}

/// One level of the merged loop nest: `len` output blocks; the input advances by
/// `stride` bytes per block (0 for a broadcast level).
#[derive(Copy, Clone, Debug)]
struct Level {
    len: usize,
    stride: usize,
}

/// Below this block size a broadcast level doubles its copies; above it, it repeats a
/// chunk of this size that stays in cache.
const CHUNK_BYTES: usize = 64 << 10;
/// Blocks up to half this size are repeated from a pattern buffer when streaming.
const PATTERN_BYTES: usize = 4096;
/// Outputs up to this size that repeat one element (or a block of up to 16 bytes) are
/// filled with typed stores.
const SMALL_FILL_BYTES: usize = 512;
/// Outputs at least this large copy their blocks with streaming stores.
const STREAM_MIN_BYTES: usize = 16 << 20;
/// Rows broadcast over outputs at least this large (and below [`STREAM_MIN_BYTES`]) that
/// the register loop cannot take (rows not whole vectors) are laid out in a buffer of up
/// to [`ROW_PATTERN_BYTES`] and copied out with string moves. Which of the two comes
/// first, for rows both can take, depends on the CPU ([`fill::rows_by_string_first`]):
/// on an AMD EPYC (Zen 4), 64 outputs of 1 MiB from (64,1,64) f32 ran at 0.42x memset
/// by string moves and 1.00x from registers, idle and with the other core busy; on an
/// Intel Xeon the string moves won (benches/expand.rs).
const STRING_ROWS_MIN_BYTES: usize = 256 << 10;
/// Rows of one broadcast element each (a column broadcast, (32,1) -> (32,32)), up to
/// this many bytes a row (of any length in outputs of [`STREAM_MIN_BYTES`] or more), are
/// stored row by row from the element, without the per-row recursion: 2048 outputs of
/// 4 KiB went from 0.14x to ~0.35x a fill, (2M,1) -> (2M,8) f32 from 0.11x to 0.8x.
const SPLAT_ROW_MAX_BYTES: usize = 4096;
const ROW_PATTERN_BYTES: usize = 16 << 10;

/// INVALID_ARGUMENT unless the output dtype is the input's: Expand keeps the dtype.
pub fn check_same_dtype(dtype: DType, out_dtype: DType) -> Result<(), Error> {
    if out_dtype != dtype {
        return Err(Error::InvalidArgument(format!(
            "output dtype {out_dtype} differs from input dtype {dtype}: expand keeps the dtype"
        )));
    }
    Ok(())
}

/// Checks that an output can receive the expansion of an input: the same dtype (a
/// sub-byte one packed), and a shape equal to the broadcast of the two shapes.
pub fn check_shapes(input: &Layout, output: &Layout) -> Result<(), Error> {
    check_same_dtype(input.dtype(), output.dtype())?;
    input.require_packed("input", "expand")?;
    output.require_packed("output", "expand")?;
    let (in_dims, out_dims) = (input.dims(), output.dims());
    // The output must be the broadcast: its rank at least the input's, and each of its
    // extents the broadcast of the aligned pair (compared in place, no work array).
    let is_broadcast = out_dims.len() >= in_dims.len()
        && out_dims
            .iter()
            .rev()
            .zip(in_dims.iter().rev())
            .all(|(&o, &i)| i == o || i == 1);
    if !is_broadcast {
        return Err(not_the_broadcast(in_dims, out_dims));
    }
    Ok(())
}

#[cold]
#[inline(never)]
fn not_the_broadcast(in_dims: &[usize], out_dims: &[usize]) -> Error {
    let mut expected = [0usize; MAX_NDIM];
    match broadcast_shape(in_dims, out_dims, &mut expected) {
        Err(e) => e,
        Ok(rank) => Error::InvalidShape(format!(
            "output shape {} is not the broadcast of input shape {} with it (that is {})",
            shape_text(out_dims),
            shape_text(in_dims),
            shape_text(&expected[..rank])
        )),
    }
}

/// Expands `input` into `output` (same dtype; output shape = the broadcast of the two).
pub fn expand(input: &Tensor, output: &mut TensorMut) -> Result<(), Error> {
    expand_threaded(input, output, 0)
}

/// [`expand`] on up to `threads` threads of the library's own (0 or 1: the calling
/// thread), as `tcast_expand_ex` with `options.threads`; the bytes do not depend on it.
pub fn expand_threaded(
    input: &Tensor,
    output: &mut TensorMut,
    threads: usize,
) -> Result<(), Error> {
    check_shapes(input.layout(), output.layout())?;
    expand_checked(input, output, Workers::own(threads))
}

/// [`expand`] of operands [`check_shapes`] accepted (the C shell checks them in the
/// order of docs/c-api.md section 8, once), split into tasks on `workers` when the
/// output is large enough: each task writes a range of the first output axis longer
/// than 1.
/// How many tasks an Expand of `count` elements of `es` bytes (an unpacked dtype) is
/// split into on `workers`. Write-bound: ~0.1 ns per output byte.
#[inline]
pub(crate) fn tasks(es: usize, count: usize, workers: Workers) -> usize {
    workers.tasks(count, es * 100)
}

pub(crate) fn expand_checked(
    input: &Tensor,
    output: &mut TensorMut,
    workers: Workers,
) -> Result<(), Error> {
    let dtype = input.layout().dtype();
    let out_dims = output.layout().dims();
    let count = output.layout().count();
    let es = (dtype.bits() / 8) as usize;
    let tasks = if dtype.is_packed() {
        1
    } else {
        tasks(es, count, workers)
    };
    let axis = out_dims.iter().position(|&d| d > 1);
    let (Some(axis), true) = (axis, tasks > 1) else {
        expand_serial(input, output);
        return Ok(());
    };
    let extent = out_dims[axis];
    let tasks = tasks.min(extent);
    let row_bytes = count / extent * es;
    let in_dims = input.layout().dims();
    let strides = input_strides::<MAX_NDIM>(input);
    // The input axis aligned with `axis` (none when the input has fewer dims), and
    // whether it advances (extent > 1) or is broadcast.
    let in_axis = (axis + in_dims.len())
        .checked_sub(out_dims.len())
        .filter(|&a| in_dims[a] != 1);
    let share = shares(extent, tasks, 1);
    let (_, out) = output.parts();
    let pieces = Pieces::new(out, tasks, |i| {
        let r = share(i);
        r.start * row_bytes..r.end * row_bytes
    });
    let data = input.data();
    workers.run(tasks, &|i| {
        let Some(piece) = pieces.take(i) else {
            return;
        };
        let r = share(i);
        let mut sub_out = [0usize; MAX_NDIM];
        sub_out[..out_dims.len()].copy_from_slice(out_dims);
        sub_out[axis] = r.len();
        let mut sub_in = [0usize; MAX_NDIM];
        sub_in[..in_dims.len()].copy_from_slice(in_dims);
        let mut at = 0;
        if let Some(a) = in_axis {
            sub_in[a] = r.len();
            at = r.start * strides[a] * es;
        }
        run::<MAX_NDIM>(
            &data[at..],
            es,
            &sub_in[..in_dims.len()],
            &strides[..in_dims.len()],
            &sub_out[..out_dims.len()],
            piece,
        );
    })
}

/// The input's strides in elements (its own, or the contiguous ones), in an array of
/// N >= its rank.
#[inline(always)]
fn input_strides<const N: usize>(input: &Tensor) -> [usize; N] {
    let mut strides = [0usize; N];
    write_input_strides(input, &mut strides);
    strides
}

/// Writes the input's strides in elements (its own, or the contiguous ones) into the
/// first of `strides` (at least its rank). Written in place: an array returned by value
/// was copied with 16-byte loads of its 8-byte stores, which cannot forward (3 ns of a
/// 60 ns small Expand, Zen 4).
#[inline(always)]
fn write_input_strides(input: &Tensor, strides: &mut [usize]) {
    match input.layout().strides() {
        Some(s) => strides[..s.len()].copy_from_slice(s),
        None => write_contiguous_strides(input.layout().dims(), strides),
    }
}

/// The rank up to which Expand's work arrays are small ones: a small call then does not
/// zero the rank-64 arrays (1.5 KB).
pub(crate) const SMALL_RANK: usize = 8;

/// Expand of operands the C shell checked on its plain path: a contiguous input of
/// `in_dims` (at most [`SMALL_RANK`] of them) of `es`-byte elements (not packed), an
/// output of `out_dims`, their broadcast, on the calling thread.
pub(crate) fn expand_contiguous(
    data: &[u8],
    es: usize,
    in_dims: &[usize],
    out_dims: &[usize],
    out: &mut [u8],
) {
    if out.is_empty() {
        return;
    }
    let mut strides = [0usize; SMALL_RANK];
    write_contiguous_strides(in_dims, &mut strides);
    run::<SMALL_RANK>(data, es, in_dims, &strides[..in_dims.len()], out_dims, out);
}

/// Expand on the calling thread.
fn expand_serial(input: &Tensor, output: &mut TensorMut) {
    let dtype = input.layout().dtype();
    let in_dims = input.layout().dims();
    let out_dims = output.layout().dims();
    if output.layout().count() == 0 {
        return;
    }
    if dtype.is_packed() {
        // Element by element through the packed streams (no allocation; packed
        // tensors are contiguous). Unused high bits end up 0.
        let bits = dtype.bits();
        let in_strides = contiguous_strides(in_dims);
        let offset = out_dims.len() - in_dims.len();
        let data = input.data();
        let out = output.data();
        out.fill(0);
        let mut index = [0usize; MAX_NDIM];
        let mut at = 0;
        for i in 0..count_of(out_dims) {
            pack::set(bits, out, i, pack::get(bits, data, at));
            // Odometer over the output; `at` follows in the input (0 where broadcast).
            for axis in (0..out_dims.len()).rev() {
                let step = if axis >= offset && in_dims[axis - offset] != 1 {
                    in_strides[axis - offset]
                } else {
                    0
                };
                index[axis] += 1;
                at += step;
                if index[axis] < out_dims[axis] {
                    break;
                }
                at -= index[axis] * step;
                index[axis] = 0;
            }
        }
        return;
    }
    let es = (dtype.bits() / 8) as usize;
    let data = input.data();
    let (_, out) = output.parts();
    if out_dims.len() <= SMALL_RANK {
        let mut strides = [0usize; SMALL_RANK];
        write_input_strides(input, &mut strides);
        run::<SMALL_RANK>(data, es, in_dims, &strides[..in_dims.len()], out_dims, out);
    } else {
        let strides = input_strides::<MAX_NDIM>(input);
        run::<MAX_NDIM>(data, es, in_dims, &strides[..in_dims.len()], out_dims, out);
    }
}

fn count_of(dims: &[usize]) -> usize {
    dims.iter().product()
}

fn contiguous_strides(dims: &[usize]) -> [usize; MAX_NDIM] {
    let mut strides = [0usize; MAX_NDIM];
    write_contiguous_strides(dims, &mut strides);
    strides
}

/// Writes the contiguous strides of `dims` into the first of `strides` (at least its
/// rank).
#[inline(always)]
fn write_contiguous_strides(dims: &[usize], strides: &mut [usize]) {
    let mut step = 1;
    for (s, &d) in strides[..dims.len()].iter_mut().zip(dims).rev() {
        *s = step;
        step *= d;
    }
}

/// Merges the loop nest and runs it. `in_strides` are in elements of `es` bytes.
fn run<const N: usize>(
    data: &[u8],
    es: usize,
    in_dims: &[usize],
    in_strides: &[usize],
    out_dims: &[usize],
    out: &mut [u8],
) {
    let strings_first = fill::rows_by_string_first();
    run_ordered::<N>(
        data,
        es,
        (in_dims, in_strides),
        out_dims,
        out,
        strings_first,
    );
}

/// [`run`], with broadcast rows given to string moves before the register loop when
/// `strings_first` (the CPU's choice, or a test's). Inlined into [`run`]: as a call of
/// its own it cost a 16-element Expand 4 ns of 33 (benches/small_calls.rs).
#[inline(always)]
fn run_ordered<const N: usize>(
    data: &[u8],
    es: usize,
    (in_dims, in_strides): (&[usize], &[usize]),
    out_dims: &[usize],
    out: &mut [u8],
    strings_first: bool,
) {
    let rank = out_dims.len();
    let offset = rank - in_dims.len();
    // Per output axis (N >= rank): its extent and the input's byte stride (0 where
    // broadcast).
    let mut levels = [Level { len: 1, stride: 0 }; N];
    let mut count = 0;
    for axis in 0..rank {
        let len = out_dims[axis];
        let stride = if axis < offset || in_dims[axis - offset] == 1 {
            0
        } else {
            in_strides[axis - offset] * es
        };
        if len == 1 {
            continue; // extent 1: no loop at all
        }
        // Merge into the previous level when both broadcast, or when the previous one
        // steps exactly over this one's extent (contiguous in the input).
        if count > 0 {
            let prev = levels[count - 1];
            if (prev.stride == 0 && stride == 0) || (stride != 0 && prev.stride == stride * len) {
                levels[count - 1] = Level {
                    len: prev.len * len,
                    stride,
                };
                continue;
            }
        }
        levels[count] = Level { len, stride };
        count += 1;
    }
    let tier = Tier::detect();
    let stream = out.len() >= STREAM_MIN_BYTES && fill::can_stream(tier);
    let filler = Filler {
        data,
        es,
        tier,
        stream,
        strings_first,
    };
    filler.level(&levels[..count], 0, out);
    if stream {
        fill::stream_fence(tier);
    }
}

struct Filler<'a> {
    data: &'a [u8],
    es: usize,
    tier: Tier,
    stream: bool,
    /// Broadcast rows go to string moves before the register loop
    /// ([`fill::rows_by_string_first`]).
    strings_first: bool,
}

fn gcd(mut a: usize, mut b: usize) -> usize {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Fills `pattern` with whole copies of `block` (word-sized blocks as typed stores,
/// which the compiler turns into vector stores).
fn fill_pattern(block: &[u8], pattern: &mut [u8]) {
    macro_rules! words {
        ($t:ty) => {{
            let word = <$t>::from_ne_bytes(block.try_into().expect("block size"));
            for slot in pattern.chunks_exact_mut(block.len()) {
                slot.copy_from_slice(&word.to_ne_bytes());
            }
        }};
    }
    match block.len() {
        1 => pattern.fill(block[0]),
        2 => words!(u16),
        4 => words!(u32),
        8 => words!(u64),
        16 => words!(u128),
        n => {
            pattern[..n].copy_from_slice(block);
            let mut have = n;
            while have < pattern.len() {
                let take = have.min(pattern.len() - have);
                pattern.copy_within(..take, have);
                have += take;
            }
        }
    }
}

/// `out` split into rows of `block` bytes, row i all copies of the `W`-byte element at
/// input byte `at + i * stride` (one loop, the element size known to the compiler).
fn splat_rows<const W: usize>(
    out: &mut [u8],
    data: &[u8],
    (at, stride): (usize, usize),
    block: usize,
) {
    for (i, row) in out.chunks_exact_mut(block).enumerate() {
        let start = at + i * stride;
        let word: [u8; W] = data[start..start + W].try_into().expect("W bytes");
        for slot in row.chunks_exact_mut(W) {
            slot.copy_from_slice(&word);
        }
    }
}

impl Filler<'_> {
    /// Writes the block of `levels` starting at input byte `at` into `out`.
    fn level(&self, levels: &[Level], at: usize, out: &mut [u8]) {
        let es = self.es;
        let Some((&first, rest)) = levels.split_first() else {
            out.copy_from_slice(&self.data[at..at + es]);
            return;
        };
        let block = out.len() / first.len;
        if first.stride == 0
            && matches!(rest, [run] if run.stride == es)
            && block <= 512
            && fill::repeat_block(out, &self.data[at..at + block], self.tier)
        {
            // A short contiguous input run broadcast: stored straight from registers.
        } else if first.stride == 0 {
            // Broadcast: write one block, then copy it over the rest.
            self.level(rest, at, &mut out[..block]);
            self.repeat(out, block);
        } else if rest.is_empty() && first.stride == es {
            // A contiguous input run: one copy.
            self.copy(&self.data[at..at + out.len()], out);
        } else if (self.stream || block <= SPLAT_ROW_MAX_BYTES)
            && matches!(rest, [b] if b.stride == 0)
        {
            // Rows, each one input element broadcast: on a large output by string stores
            // where the CPU has fast ones, else stored from registers where the tier
            // can, else typed stores of it, row by row.
            let rows = (at, first.stride);
            let spec = (at, first.stride, first.len);
            if self.stream && fill::string_splat_rows(out, self.data, spec, es) {
                return;
            }
            if fill::splat_rows(out, self.data, spec, es, self.tier) {
                return;
            }
            match es {
                1 => splat_rows::<1>(out, self.data, rows, block),
                2 => splat_rows::<2>(out, self.data, rows, block),
                4 => splat_rows::<4>(out, self.data, rows, block),
                8 => splat_rows::<8>(out, self.data, rows, block),
                _ => {
                    for (i, row) in out.chunks_exact_mut(block).enumerate() {
                        let start = at + i * first.stride;
                        fill_pattern(&self.data[start..start + es], row);
                    }
                }
            }
        } else if let [bcast, run] = rest {
            // Rows, each a short input run broadcast: all of them in one register loop
            // where the tier has one, else one level at a time.
            let row = block / bcast.len;
            let broadcast_rows = bcast.stride == 0 && run.stride == es && !self.stream;
            let by_string = |out: &mut [u8]| {
                out.len() >= STRING_ROWS_MIN_BYTES && self.rows_by_string(out, at, first, row)
            };
            let rows_done = broadcast_rows
                && ((self.strings_first && by_string(out))
                    || fill::repeat_rows(
                        out,
                        self.data,
                        (at, first.stride, first.len),
                        row,
                        self.tier,
                    )
                    || (!self.strings_first && by_string(out)));
            if !rows_done {
                for (i, piece) in out.chunks_exact_mut(block).enumerate() {
                    self.level(rest, at + i * first.stride, piece);
                }
            }
        } else {
            for (i, piece) in out.chunks_exact_mut(block).enumerate() {
                self.level(rest, at + i * first.stride, piece);
            }
        }
    }

    /// `out`, split into `rows.len` blocks, with block i the `row` bytes at input byte
    /// `at + i * rows.stride` repeated: each block laid out in a buffer that stays in L1,
    /// then string-copied. False, with nothing written, where the CPU has no fast string
    /// move or the row is too long for the buffer.
    fn rows_by_string(&self, out: &mut [u8], at: usize, rows: Level, row: usize) -> bool {
        if row == 0 || row > ROW_PATTERN_BYTES / 2 || !fill::has_string_moves() {
            return false;
        }
        let block = out.len() / rows.len;
        let length = (ROW_PATTERN_BYTES / row * row).min(block);
        let mut pattern = [0u8; ROW_PATTERN_BYTES];
        for (i, piece) in out.chunks_exact_mut(block).enumerate() {
            let start = at + i * rows.stride;
            let source = &self.data[start..start + row];
            if !fill::repeat_block(&mut pattern[..length], source, self.tier) {
                fill_pattern(source, &mut pattern[..length]);
            }
            fill::copy_repeated(piece, &pattern[..length]);
        }
        true
    }

    /// `out[..filled]` holds a block; repeats it over all of `out`.
    fn repeat(&self, out: &mut [u8], filled: usize) {
        let total = out.len();
        if total <= SMALL_FILL_BYTES && matches!(filled, 1 | 2 | 4 | 8 | 16) {
            // A small output of one small element (or block): typed stores, without
            // the doubling and the vector loop's set-up.
            let (block, rest) = out.split_at_mut(filled);
            fill_pattern(block, rest);
            return;
        }
        if self.stream && matches!(filled, 1 | 2 | 4 | 8) && total > filled {
            // One element repeated: string stores, as memset's, where the CPU has fast
            // ones.
            let (element, rest) = out.split_at_mut(filled);
            if fill::string_splat_rows(rest, element, (0, 0, 1), filled) {
                return;
            }
        }
        if self.stream && matches!(filled, 1 | 2 | 4 | 8 | 16 | 32) && total > filled {
            // One small element (or block) repeated: stored from registers.
            return self.fill_from(out, filled);
        }
        if self.stream && filled <= PATTERN_BYTES / 2 && total > filled {
            // A small block (a single element, say): lay whole copies of it out in a
            // buffer that stays in L1, then stream that over the output.
            let mut pattern = [0u8; PATTERN_BYTES];
            let length = PATTERN_BYTES / filled * filled;
            fill_pattern(&out[..filled], &mut pattern[..length]);
            for piece in out[filled..].chunks_mut(length) {
                let n = piece.len();
                self.copy(&pattern[..n], piece);
            }
            return;
        }
        if !self.stream && total >= 2 * CHUNK_BYTES {
            // Fill one chunk (a whole number of blocks), then repeat that chunk over the
            // rest with a string move where the CPU has a fast one: it writes lines
            // without reading them first, as memset does.
            let period = if filled >= CHUNK_BYTES {
                filled
            } else {
                CHUNK_BYTES / filled * filled
            };
            if period < total {
                self.fill_from(&mut out[..period], filled);
                if fill::replicate(out, period) {
                    return;
                }
                return self.fill_from(out, period);
            }
        }
        self.fill_from(out, filled);
    }

    /// `out[..filled]` holds a block; repeats it over all of `out` with ordinary stores.
    fn fill_from(&self, out: &mut [u8], filled: usize) {
        let total = out.len();
        // A block of whole vectors (a short block first doubled up to one): stored from
        // registers over the rest.
        let vectors = filled * 32 / gcd(filled, 32);
        if filled > 0 && vectors <= 512 && total >= 2 * vectors {
            let mut have = filled;
            while have < vectors {
                out.copy_within(..have, have);
                have *= 2;
            }
            // `have` is a multiple of `vectors` (both powers of two times `filled`).
            let whole = total / vectors * vectors;
            let (block, rest) = out[..whole].split_at_mut(vectors);
            if fill::repeat_block(rest, block, self.tier) {
                let tail = total - whole;
                out.copy_within(..tail, whole);
                return;
            }
        }
        let mut done = filled;
        // Double while small, up to a chunk that stays in cache.
        while done < total && done < CHUNK_BYTES {
            let n = done.min(total - done);
            out.copy_within(..n, done);
            done += n;
        }
        if done >= total {
            return;
        }
        let chunk = done - done % filled.max(1);
        let (head, tail) = out.split_at_mut(chunk);
        let head: &[u8] = head;
        for piece in tail.chunks_mut(chunk) {
            let n = piece.len();
            self.copy(&head[..n], piece);
        }
    }

    fn copy(&self, src: &[u8], dst: &mut [u8]) {
        if self.stream && dst.len() >= 1024 {
            fill::stream_copy(src, dst, self.tier);
        } else {
            dst.copy_from_slice(src);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::DType;
    use crate::error::Status;

    fn shape(input: &[usize], with: &[usize]) -> Result<Vec<usize>, Error> {
        let mut out = [0; MAX_NDIM];
        let rank = broadcast_shape(input, with, &mut out)?;
        Ok(out[..rank].to_vec())
    }

    #[test]
    fn broadcast_shapes_of_the_semantics_page() {
        assert_eq!(shape(&[3, 1], &[1, 1]).unwrap(), [3, 1]);
        assert_eq!(shape(&[3, 1], &[4]).unwrap(), [3, 4]);
        assert_eq!(shape(&[3, 1], &[]).unwrap(), [3, 1]);
        assert_eq!(shape(&[3, 1], &[2, 1, 6]).unwrap(), [2, 3, 6]);
        assert_eq!(shape(&[3, 1], &[3, 4]).unwrap(), [3, 4]);
        assert_eq!(shape(&[], &[2, 3]).unwrap(), [2, 3]);
        assert_eq!(shape(&[], &[]).unwrap(), Vec::<usize>::new());
        assert_eq!(shape(&[1], &[0]).unwrap(), [0]);
        let e = shape(&[0, 1], &[3, 4]).unwrap_err();
        assert_eq!(e.status(), Status::IncompatibleShapes);
        assert!(
            e.to_string().contains("[0,1]") && e.to_string().contains("[3,4]"),
            "{e}"
        );
    }

    /// Per-element reference: output element i reads the input element its index maps
    /// to.
    fn reference(
        data: &[u8],
        es: usize,
        in_dims: &[usize],
        strides: &[usize],
        out_dims: &[usize],
    ) -> Vec<u8> {
        let n: usize = out_dims.iter().product();
        let mut out = vec![0u8; n * es];
        let offset = out_dims.len() - in_dims.len();
        for i in 0..n {
            let (mut rem, mut at) = (i, 0);
            for axis in (0..out_dims.len()).rev() {
                let idx = rem % out_dims[axis];
                rem /= out_dims[axis];
                if axis >= offset && in_dims[axis - offset] != 1 {
                    at += idx * strides[axis - offset];
                }
            }
            out[i * es..(i + 1) * es].copy_from_slice(&data[at * es..(at + 1) * es]);
        }
        out
    }

    #[test]
    fn random_expands_match_the_reference() {
        let mut rng = crate::testutil::Rng(0x1234_5678);
        let mut next = move |m: u64| rng.below(m);
        let extents = [1usize, 1, 2, 3, 5, 7];
        for case in 0..3000 {
            let rank = next(5) as usize;
            let in_dims: Vec<usize> = (0..rank).map(|_| extents[next(6) as usize]).collect();
            let extra = next(3) as usize;
            let mut out_dims: Vec<usize> = (0..extra).map(|_| extents[next(6) as usize]).collect();
            out_dims.extend(
                in_dims
                    .iter()
                    .map(|&d| if d == 1 { extents[next(6) as usize] } else { d }),
            );
            let es = [1usize, 2, 4, 8, 16][next(5) as usize];
            // Strides: contiguous, padded, or transposed-ish.
            let mut strides = contiguous_strides(&in_dims)[..rank].to_vec();
            if next(2) == 1 {
                for s in strides.iter_mut() {
                    *s *= 2;
                }
            }
            let span = 1 + in_dims
                .iter()
                .zip(&strides)
                .map(|(d, s)| (d - 1) * s)
                .sum::<usize>();
            let data: Vec<u8> = (0..span * es).map(|_| next(256) as u8).collect();
            let dtype = match es {
                1 => DType::Uint8,
                2 => DType::Int16,
                4 => DType::Float,
                8 => DType::Double,
                _ => DType::Complex128,
            };
            let input = Tensor::strided(&data, dtype, &in_dims, &strides).unwrap();
            let n: usize = out_dims.iter().product();
            let mut out = vec![0u8; n * es];
            let mut output = TensorMut::new(&mut out, dtype, &out_dims).unwrap();
            expand(&input, &mut output).unwrap();
            assert_eq!(
                out,
                reference(&data, es, &in_dims, &strides, &out_dims),
                "case {case}: {in_dims:?} strides {strides:?} -> {out_dims:?}"
            );
        }
    }

    #[test]
    fn large_broadcasts_take_the_chunked_and_streaming_paths() {
        for (in_dims, out_dims) in [
            (vec![1usize, 4096], vec![1100usize, 4096]),
            (vec![4096, 1], vec![4096, 1100]),
            (vec![1], vec![4_500_000]),
            (vec![3, 1, 5], vec![3, 70_000, 5]),
            // Blocks of whole vectors (256 and 32 bytes) repeated from registers.
            (vec![64, 1, 64], vec![64, 64, 64]),
            (vec![5, 1, 8], vec![5, 9, 8]),
        ] {
            let count: usize = in_dims.iter().product();
            let data: Vec<u8> = (0..count * 4).map(|i| (i * 7 % 251) as u8).collect();
            let input = Tensor::new(&data, DType::Float, &in_dims).unwrap();
            let n: usize = out_dims.iter().product();
            let mut out = vec![0u8; n * 4];
            let mut output = TensorMut::new(&mut out, DType::Float, &out_dims).unwrap();
            expand(&input, &mut output).unwrap();
            let strides = contiguous_strides(&in_dims);
            assert!(
                out == reference(&data, 4, &in_dims, &strides[..in_dims.len()], &out_dims),
                "{in_dims:?} -> {out_dims:?}"
            );
        }
    }

    /// Outputs past [`STREAM_MIN_BYTES`] whose fills are stored from registers: column
    /// broadcasts with rows of 8, 32 and 4400 bytes and short blocks repeated, for
    /// elements of 2, 4 and 8 bytes, the output starting 0 or 4 bytes past a 32-byte
    /// boundary (so the fills' vector stores are unaligned), and nothing written past it.
    #[test]
    fn large_fills_from_registers_match_the_reference() {
        for (dtype, in_dims, out_dims) in [
            (
                DType::Float,
                vec![2_200_000usize, 1],
                vec![2_200_000usize, 2],
            ),
            (DType::Float, vec![600_000, 1], vec![600_000, 8]),
            (DType::Double, vec![4096, 1], vec![4096, 550]),
            (DType::Float16, vec![9000, 1], vec![9000, 1000]),
            (DType::Float, vec![1, 4], vec![1_100_000, 4]),
            (DType::Float, vec![1, 128], vec![33_000, 128]),
            (DType::Int64, vec![1], vec![2_200_000]),
        ] {
            let es = dtype.bits() as usize / 8;
            let count: usize = in_dims.iter().product();
            let data: Vec<u8> = (0..count * es).map(|i| (i * 13 % 253) as u8).collect();
            let input = Tensor::new(&data, dtype, &in_dims).unwrap();
            let n: usize = out_dims.iter().product();
            assert!(
                n * es >= STREAM_MIN_BYTES,
                "{out_dims:?} is not a large output"
            );
            let strides = contiguous_strides(&in_dims);
            let want = reference(&data, es, &in_dims, &strides[..in_dims.len()], &out_dims);
            for skew in [0, 4] {
                let mut storage = vec![0xeeu8; n * es + 96];
                let start = storage.as_ptr().align_offset(32) + skew;
                let out = &mut storage[start..start + n * es];
                let mut output = TensorMut::new(out, dtype, &out_dims).unwrap();
                expand(&input, &mut output).unwrap();
                let case = format!("{dtype} {in_dims:?} -> {out_dims:?}, skew {skew}");
                assert!(storage[start..start + n * es] == want[..], "{case}");
                assert!(
                    storage[..start].iter().all(|&b| b == 0xee)
                        && storage[start + n * es..].iter().all(|&b| b == 0xee),
                    "{case}: wrote outside the output"
                );
            }
        }
    }

    #[test]
    fn repeats_by_string_moves_and_widened_blocks_match_the_reference() {
        // Outputs between 128 KiB and 16 MiB (the string-move paths), blocks of sizes that
        // are not whole vectors (widened by doubling first), odd tails.
        for (dtype, in_dims, out_dims) in [
            (DType::Float, vec![1usize, 3000], vec![50usize, 3000]),
            (DType::Uint8, vec![1, 7], vec![20_001, 7]),
            (DType::Float16, vec![5, 1], vec![5, 40_001]),
            (DType::Int64, vec![3, 1], vec![3, 100_001]),
            (DType::Complex128, vec![2, 1, 3], vec![2, 5_001, 3]),
            (DType::Int16, vec![4, 1, 6], vec![4, 30_000, 6]),
            (DType::Float, vec![7, 1, 3], vec![7, 11, 3]),
            // Rows broadcast over outputs of 256 KiB and more: laid out in a buffer and
            // string-copied, rows too long for the buffer one level at a time.
            (DType::Float, vec![9, 1, 40], vec![9, 300, 40]),
            (DType::Uint8, vec![3, 1, 9000], vec![3, 30, 9000]),
            (DType::Float, vec![3, 1, 3000], vec![3, 30, 3000]),
            // Rows that are not whole vectors: the string moves, after the register loop
            // declined them.
            (DType::Float, vec![5, 1, 7], vec![5, 2000, 7]),
        ] {
            let es = dtype.bits() as usize / 8;
            let count: usize = in_dims.iter().product();
            let data: Vec<u8> = (0..count * es).map(|i| (i * 7 % 251) as u8).collect();
            let input = Tensor::new(&data, dtype, &in_dims).unwrap();
            let n: usize = out_dims.iter().product();
            let mut out = vec![0u8; n * es];
            let mut output = TensorMut::new(&mut out, dtype, &out_dims).unwrap();
            expand(&input, &mut output).unwrap();
            let strides = contiguous_strides(&in_dims);
            assert!(
                out == reference(&data, es, &in_dims, &strides[..in_dims.len()], &out_dims),
                "{dtype:?} {in_dims:?} -> {out_dims:?}"
            );
        }
    }

    /// Broadcast rows that both the register loop and the string moves can take, in
    /// both orders (the CPU picks one; the other must give the same bytes too).
    #[test]
    fn broadcast_rows_match_the_reference_in_either_order() {
        for (in_dims, out_dims) in [
            (vec![64usize, 1, 64], vec![64usize, 64, 64]),
            (vec![3, 1, 8], vec![3, 4000, 8]),
            (vec![2, 1, 128], vec![2, 300, 128]),
            (vec![4, 1, 24], vec![4, 3000, 24]),
        ] {
            let count: usize = in_dims.iter().product();
            let data: Vec<u8> = (0..count * 4).map(|i| (i * 7 % 251) as u8).collect();
            let strides = contiguous_strides(&in_dims);
            let want = reference(&data, 4, &in_dims, &strides[..in_dims.len()], &out_dims);
            for strings_first in [false, true] {
                let mut out = vec![0u8; want.len()];
                let ins = (&in_dims[..], &strides[..in_dims.len()]);
                run_ordered::<MAX_NDIM>(&data, 4, ins, &out_dims, &mut out, strings_first);
                assert!(
                    out == want,
                    "{in_dims:?} -> {out_dims:?}, string moves first: {strings_first}"
                );
            }
        }
    }

    #[test]
    fn packed_dtypes_expand_bit_exactly() {
        let mut rng = crate::testutil::Rng(99);
        let mut next = move |m: u64| rng.below(m);
        for dtype in [
            DType::Int4,
            DType::Uint2,
            DType::Float6E2M3,
            DType::Float4E2M1,
        ] {
            for _ in 0..200 {
                let in_dims = vec![
                    [1usize, 3, 5][next(3) as usize],
                    1,
                    [1usize, 7][next(2) as usize],
                ];
                let out_dims = vec![
                    in_dims[0],
                    [1usize, 2, 3, 9][next(4) as usize],
                    if in_dims[2] == 1 {
                        [1usize, 5, 11][next(3) as usize]
                    } else {
                        in_dims[2]
                    },
                ];
                let count: usize = in_dims.iter().product();
                let codes: Vec<u8> = (0..count).map(|_| next(1 << dtype.bits()) as u8).collect();
                let mut packed = vec![0u8; dtype.bytes_for(count as u64).unwrap() as usize];
                pack::pack(dtype.bits(), &codes, &mut packed);
                let input = Tensor::new(&packed, dtype, &in_dims).unwrap();
                let n: usize = out_dims.iter().product();
                let mut out = vec![0xffu8; dtype.bytes_for(n as u64).unwrap() as usize];
                let mut output = TensorMut::new(&mut out, dtype, &out_dims).unwrap();
                expand(&input, &mut output).unwrap();
                let strides = contiguous_strides(&in_dims);
                let want_codes = reference(&codes, 1, &in_dims, &strides[..3], &out_dims);
                let mut want = vec![0u8; out.len()];
                pack::pack(dtype.bits(), &want_codes, &mut want);
                assert_eq!(out, want, "{dtype} {in_dims:?} -> {out_dims:?}");
            }
        }
    }

    #[test]
    fn the_output_shape_must_be_the_broadcast() {
        let data = [0u8; 12];
        let input = Tensor::new(&data, DType::Float, &[3, 1]).unwrap();
        let mut out = vec![0u8; 48];
        let mut output = TensorMut::new(&mut out, DType::Float, &[3, 4]).unwrap();
        expand(&input, &mut output).unwrap();
        let mut out = vec![0u8; 12];
        let mut output = TensorMut::new(&mut out, DType::Float, &[1, 3]).unwrap();
        let e = expand(&input, &mut output).unwrap_err();
        assert_eq!(e.status(), Status::InvalidShape, "{e}");
        let mut out = vec![0u8; 48];
        let mut output = TensorMut::new(&mut out, DType::Int32, &[3, 4]).unwrap();
        assert_eq!(
            expand(&input, &mut output).unwrap_err().status(),
            Status::InvalidArgument
        );
    }
}
