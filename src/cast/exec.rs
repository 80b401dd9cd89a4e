// SPDX-License-Identifier: MIT OR Apache-2.0
//! Runs a contiguous kernel over a possibly strided, packed or unpacked input into a
//! possibly packed or unpacked output, on one or more threads.

use super::kernels;
use super::options::{CastOptions, SubByteLayout};
use crate::dtype::DType;
use crate::error::Error;
use crate::formats::pack::{low_bits, low_bits_in_place, pack, packed_bytes, unpack};
use crate::formats::repr::Repr;
use crate::parallel::{shares, Pieces, Workers};
use crate::simd::fill;
use crate::simd::kernel::{Kernel, Tier, STREAM_MIN_BYTES};
use crate::tensor::{Tensor, MAX_NDIM};

/// Task shares start on multiples of this many elements (whole cache lines of output,
/// whole packed bytes).
const SPLIT_ALIGN: usize = 64;
/// Gather buffer for rows whose elements are not adjacent.
const GATHER_BYTES: usize = 4096;

/// A chosen kernel and how the two tensors are laid out around it.
#[derive(Copy, Clone)]
pub struct Plan {
    pub kernel: Kernel,
    /// How the input's elements lie around the kernel's.
    pub src: Storage,
    /// How the output's elements lie around the kernel's.
    pub dst: Storage,
    /// Either side is a low-precision format (float8, float6, float4, e8m0).
    pub low: bool,
}

/// How one side of a cast holds its elements, around a kernel that reads and writes
/// sub-byte codes one per byte, their high bits 0.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Storage {
    /// As the kernel has them: whole-byte elements.
    Bytes,
    /// Sub-byte codes of this many bits, packed (unpacked for the kernel, or packed from
    /// its codes).
    Packed(u32),
    /// Sub-byte codes of this many bits one per byte, high bits ignored when read
    /// (masked for the kernel) and 0 when written.
    Unpacked(u32),
}

impl Storage {
    /// How a tensor of `dtype` held as `sub_byte_layout` says lies around a kernel.
    fn of(dtype: DType, sub_byte_layout: SubByteLayout) -> Storage {
        match (dtype.is_packed(), sub_byte_layout) {
            (false, _) => Storage::Bytes,
            (true, SubByteLayout::Packed) => Storage::Packed(dtype.bits()),
            (true, SubByteLayout::Unpacked) => Storage::Unpacked(dtype.bits()),
        }
    }
}

/// Converts all of `input` into the contiguous `out`: on the calling thread, or split
/// into tasks of whole cache lines of output when `workers` allow several and the
/// tensor is large enough to repay them.
#[inline]
pub fn run(plan: Plan, input: &Tensor, out: &mut [u8], workers: Workers) -> Result<(), Error> {
    let count = input.layout().count();
    let tasks = workers.tasks(count, plan.ns_per_1k());
    let plain = plan.src == Storage::Bytes && plan.dst == Storage::Bytes;
    if tasks == 1 && plain && input.layout().strides().is_none() {
        // The common small call: one contiguous kernel run.
        run_contiguous(plan.kernel, input.data(), out);
        return Ok(());
    }
    if tasks == 1 {
        let stream = streams(plan.kernel, out.len());
        run_range(plan, input, 0, count, out, stream);
        return Ok(());
    }
    // Whether the output bypasses the cache is decided once for the whole call (a
    // piece's size says nothing about how much the call writes); a piece too small for
    // a kernel that streams itself is staged through `run_contiguous`'s buffer.
    let stream = streams(plan.kernel, out.len());
    let piece_bytes = if stream && plan.kernel.streams {
        STREAM_MIN_BYTES
    } else {
        PIECE_MIN_BYTES
    };
    let useful = out.len() / piece_bytes;
    let (pieces_n, workers) = (workers.pieces(tasks, useful), workers.at_most(tasks));
    let share = shares(count, pieces_n, SPLIT_ALIGN);
    let bytes = |i: usize| {
        let r = share(i);
        match plan.dst {
            Storage::Packed(bits) => packed_bytes(bits, r.start)..packed_bytes(bits, r.end),
            Storage::Bytes | Storage::Unpacked(_) => {
                r.start * plan.kernel.dst_size..r.end * plan.kernel.dst_size
            }
        }
    };
    let pieces = Pieces::new(out, pieces_n, bytes);
    workers.run(pieces_n, &|i| {
        if let Some(piece) = pieces.take(i) {
            let r = share(i);
            run_range(plan, input, r.start, r.len(), piece, stream);
        }
    })
}

/// Output bytes of a piece of work on own threads, at the least (a few hundred
/// microseconds of memory traffic: the counter and a new run of the prefetchers per
/// piece cost nothing next to that).
const PIECE_MIN_BYTES: usize = 1 << 20;

impl Plan {
    /// How many tasks `workers` split `count` elements into (1: the calling thread).
    #[inline(always)]
    pub(crate) fn tasks(&self, count: u64, workers: Workers) -> usize {
        workers.tasks(
            usize::try_from(count).unwrap_or(usize::MAX),
            self.ns_per_1k(),
        )
    }

    /// A rough cost per thousand elements, for deciding how many tasks pay: ~0.1 ns
    /// per byte moved, four times that for the low-precision formats, whose kernels
    /// compute more than they move.
    fn ns_per_1k(&self) -> usize {
        let bytes = self.kernel.src_size + self.kernel.dst_size;
        let compute = if self.src != Storage::Bytes || self.dst != Storage::Bytes || self.low {
            4
        } else {
            1
        };
        bytes * 100 * compute
    }
}

/// Elements converted per block when either side holds sub-byte codes (a multiple of 4:
/// whole groups of every packed dtype).
const PACKED_BLOCK: usize = 1024;

/// The elements `[first, first + n)` with sub-byte codes on either side: unpack, mask,
/// gather or slice a block of source elements, convert it, and pack, widen or store the
/// result.
fn run_sub_byte(plan: Plan, input: &Tensor, first: usize, out: &mut [u8]) {
    let kernel = plan.kernel;
    let (es, ds) = (kernel.src_size, kernel.dst_size);
    // A share of a packed output ends where its bytes end (the last share at the
    // tensor's end).
    let n = match plan.dst {
        Storage::Packed(bits) => {
            (input.layout().count() - first).min(out.len() * 8 / bits as usize)
        }
        Storage::Bytes | Storage::Unpacked(_) => out.len() / ds,
    };
    let data = input.data();
    let unpacks = kernel.unpacks_bits;
    if unpacks != 0 && plan.src == Storage::Packed(unpacks) {
        // The kernel reads the packed codes itself: one call over the whole range. A
        // share starts on a multiple of `SPLIT_ALIGN` elements, so on a whole byte (a
        // whole 3-byte group of 6-bit codes).
        assert!(first % SPLIT_ALIGN == 0 && !matches!(plan.dst, Storage::Packed(_)));
        kernel.run(
            &data[packed_bytes(unpacks, first)..packed_bytes(unpacks, first + n)],
            &mut out[..n * ds],
        );
        return;
    }
    let packs = kernel.packs_bits;
    let contiguous = input.layout().strides().is_none();
    if let Storage::Unpacked(bits) = plan.src {
        if kernel.masks_bits == bits && contiguous && plan.dst == Storage::Bytes {
            // The kernel reads the bytes and keeps each code's bits itself: one call
            // over the whole range.
            kernel.run(&data[first..first + n], &mut out[..n * ds]);
            return;
        }
    }
    if packs != 0 && plan.src == Storage::Bytes && plan.dst == Storage::Packed(packs) && contiguous
    {
        // The kernel packs its own output: one call over the whole range.
        kernel.run(
            &data[first * es..(first + n) * es],
            &mut out[..packed_bytes(packs, n)],
        );
        return;
    }
    let mut source_block = [0u8; PACKED_BLOCK * 16];
    // The kernel's output on its way to the output: codes to pack, or packed codes to
    // widen.
    let mut kernel_out = [0u8; PACKED_BLOCK];
    let mut offsets = input
        .layout()
        .strides()
        .map(|_| input.layout().offsets().skip(first));
    let mut done = 0;
    while done < n {
        let m = PACKED_BLOCK.min(n - done);
        let at = first + done;
        let src: &[u8] = match plan.src {
            Storage::Packed(bits) => {
                let start = packed_bytes(bits, at);
                unpack(bits, &data[start..], &mut source_block[..m]);
                &source_block[..m]
            }
            Storage::Unpacked(bits) => {
                // Masked for a kernel that reads codes one per byte (`plan` chose one).
                let block = &mut source_block[..m];
                match offsets.as_mut() {
                    Some(offsets) => {
                        for (slot, offset) in block.iter_mut().zip(offsets) {
                            *slot = data[offset];
                        }
                        low_bits_in_place(bits, block);
                    }
                    None => low_bits(bits, &data[at..at + m], block),
                }
                block
            }
            Storage::Bytes => {
                if let Some(offsets) = offsets.as_mut() {
                    for (slot, offset) in source_block[..m * es].chunks_exact_mut(es).zip(offsets) {
                        slot.copy_from_slice(&data[offset..offset + es]);
                    }
                    &source_block[..m * es]
                } else {
                    &data[at * es..(at + m) * es]
                }
            }
        };
        match plan.dst {
            Storage::Packed(bits) if bits == packs => {
                let start = packed_bytes(bits, done);
                kernel.run(src, &mut out[start..packed_bytes(bits, done + m)]);
            }
            Storage::Packed(bits) => {
                kernel.run(src, &mut kernel_out[..m]);
                let start = packed_bytes(bits, done);
                let end = packed_bytes(bits, done + m);
                pack(bits, &kernel_out[..m], &mut out[start..end]);
            }
            Storage::Unpacked(bits) if bits == packs => {
                // Packed by the kernel, then widened to one per byte (a tier's packing
                // encoder has a form that writes one code per byte, which `plan`
                // chooses; this is for one that had not).
                let packed = &mut kernel_out[..packed_bytes(bits, m)];
                kernel.run(src, packed);
                unpack(bits, packed, &mut out[done..done + m]);
            }
            Storage::Unpacked(_) | Storage::Bytes => {
                kernel.run(src, &mut out[done * ds..(done + m) * ds])
            }
        }
        done += m;
    }
}

/// Widening casts with outputs of at least `STREAM_MIN_BYTES` bypass the cache (unless
/// the kernel streams them itself): converted block by block into a small buffer, then
/// written with streaming stores (no read-for-ownership of the output).
const STREAM_BLOCK_BYTES: usize = 8192;

#[inline]
pub(crate) fn run_contiguous(kernel: Kernel, src: &[u8], out: &mut [u8]) {
    run_piece(kernel, src, out, streams(kernel, out.len()));
}

/// Whether a call writing `out_bytes` through `kernel` writes them with streaming
/// stores: widening casts and the kernels that stream themselves, from
/// `STREAM_MIN_BYTES` of output.
#[inline]
fn streams(kernel: Kernel, out_bytes: usize) -> bool {
    out_bytes >= STREAM_MIN_BYTES
        && (kernel.streams || (kernel.dst_size > kernel.src_size && fill::can_stream(kernel.tier)))
}

/// Converts `src` into `out`, a piece of a call that streams its output when `stream`
/// ([`streams`] of the whole call's output): a kernel that streams itself does so for a
/// piece of at least `STREAM_MIN_BYTES`; other pieces of a streaming call are converted
/// block by block into a small buffer and written from it with streaming stores.
#[inline]
fn run_piece(kernel: Kernel, src: &[u8], out: &mut [u8], stream: bool) {
    let tier = kernel.tier;
    if !stream || (kernel.streams && out.len() >= STREAM_MIN_BYTES) || !fill::can_stream(tier) {
        kernel.run(src, out);
        return;
    }
    let (es, ds) = (kernel.src_size, kernel.dst_size);
    let per_block = STREAM_BLOCK_BYTES / ds;
    let mut block = [0u8; STREAM_BLOCK_BYTES];
    for (i, piece) in out.chunks_mut(per_block * ds).enumerate() {
        let m = piece.len() / ds;
        let from = i * per_block * es;
        kernel.run(&src[from..from + m * es], &mut block[..m * ds]);
        fill::stream_copy(&block[..m * ds], piece, tier);
    }
    fill::stream_fence(tier);
}

/// Converts the input elements `[first, first + n)` in row-major order into `out`.
fn run_range(plan: Plan, input: &Tensor, first: usize, n: usize, out: &mut [u8], stream: bool) {
    if plan.src != Storage::Bytes || plan.dst != Storage::Bytes {
        run_sub_byte(plan, input, first, out);
        return;
    }
    let kernel = plan.kernel;
    let (es, ds) = (kernel.src_size, kernel.dst_size);
    let data = input.data();
    let Some(strides) = input.layout().strides() else {
        run_piece(kernel, &data[first * es..(first + n) * es], out, stream);
        return;
    };
    let dims = input.layout().dims();
    let rank = dims.len();
    let row_len = dims[rank - 1];
    let row_step = strides[rank - 1] * es;

    // Position of element `first`: its row-major index and byte offset.
    let mut index = [0usize; MAX_NDIM];
    let mut rem = first;
    let mut offset = 0;
    for axis in (0..rank).rev() {
        index[axis] = rem % dims[axis];
        rem /= dims[axis];
        offset += index[axis] * strides[axis] * es;
    }

    let mut gather = [0u8; GATHER_BYTES];
    let mut done = 0;
    while done < n {
        let col = index[rank - 1];
        let take = (row_len - col).min(n - done);
        let dst = &mut out[done * ds..(done + take) * ds];
        if row_step == es {
            kernel.run(&data[offset..offset + take * es], dst);
        } else {
            let chunk = GATHER_BYTES / es;
            for (k, piece) in dst.chunks_mut(chunk * ds).enumerate() {
                let m = piece.len() / ds;
                let base = offset + k * chunk * row_step;
                for (j, slot) in gather[..m * es].chunks_exact_mut(es).enumerate() {
                    let at = base + j * row_step;
                    slot.copy_from_slice(&data[at..at + es]);
                }
                kernel.run(&gather[..m * es], piece);
            }
        }
        done += take;
        if done == n {
            break;
        }
        // Step to the start of the next row.
        offset -= col * row_step;
        index[rank - 1] = 0;
        let mut axis = rank - 1;
        loop {
            axis -= 1;
            index[axis] += 1;
            offset += strides[axis] * es;
            if index[axis] < dims[axis] {
                break;
            }
            offset -= dims[axis] * strides[axis] * es;
            index[axis] = 0;
        }
    }
}

/// The plan of a pair of numeric dtypes that are not packed (standard scalars and the
/// one-byte low-precision formats), whose kernel converts contiguous memory with nothing
/// around it; None for other pairs.
#[inline]
pub(crate) fn plain_kernel(from: DType, to: DType, options: &CastOptions) -> Option<Plan> {
    match (Repr::of(from), Repr::of(to)) {
        (Some(source @ Repr::Std(_)), Some(target @ Repr::Std(_))) => Some(Plan {
            kernel: kernels::select_detected(source, target, true, 0),
            src: Storage::Bytes,
            dst: Storage::Bytes,
            low: false,
        }),
        (Some(source), Some(target)) if !from.is_packed() && !to.is_packed() => {
            let round = options.round_mode as u8;
            Some(Plan {
                kernel: kernels::select_detected(source, target, options.saturate, round),
                src: Storage::Bytes,
                dst: Storage::Bytes,
                low: true,
            })
        }
        _ => None,
    }
}

/// Chooses the kernel for a numeric pair or STRING -> STRING (which copies the views) on
/// the detected CPU tier, and how the sub-byte sides lie around it
/// (`options.sub_byte_layout`): a pair `strings::check_pair` accepted, other than STRING ->
/// numeric (parsed by [`super::strings`], not a kernel).
#[inline]
pub(crate) fn plan(from: DType, to: DType, options: &CastOptions) -> Plan {
    let (kernel, low) = match (from, to) {
        (DType::String, DType::String) => (
            kernels::copy(DType::String.bits() as usize / 8, Tier::detect()),
            false,
        ),
        _ => {
            let (Some(source), Some(target)) = (Repr::of(from), Repr::of(to)) else {
                unreachable!("cast() plans numeric pairs and STRING -> STRING only")
            };
            let low = matches!(source, Repr::Low(_)) || matches!(target, Repr::Low(_));
            let round = options.round_mode as u8;
            (
                kernels::select_detected(source, target, options.saturate, round),
                low,
            )
        }
    };
    let src = Storage::of(from, options.sub_byte_layout);
    // Unpacked codes go to a decoder that reads them one per byte, not to the tier's,
    // which reads them packed: INT2 -> FLOAT unpacked went from 9-11 to 17-19 GB/s
    // (packing them first), FLOAT6E2M3 -> FLOAT from 7-9 to 17.6, INT4 and FLOAT4E2M1
    // stayed at 17-19 (4M elements, benches/cast.rs). To FLOAT, FLOAT16 and BFLOAT16 it
    // is the tier's table decoder masking the bytes itself, in one call
    // (`run_sub_byte`): FLOAT4E2M1 and FLOAT6E2M3 -> FLOAT from 1.5 to 3.1-4.7x the DRAM
    // memcpy in L2 (Zen 4, AVX2 and AVX-512).
    let kernel = match (src, Repr::of(from), Repr::of(to)) {
        (Storage::Unpacked(_), Some(Repr::Low(format)), Some(Repr::Std(target)))
            if kernel.unpacks_bits != 0 =>
        {
            kernels::decode_codes_detected(format, target)
        }
        _ => kernel,
    };
    // Codes to be held unpacked go to an encoder that writes them one per byte, not to
    // the tier's, which packs them: packed into an L1 buffer and widened after it, FLOAT
    // -> FLOAT6E2M3 unpacked ran at 0.53x a 16M memcpy (1.02x in L2), now 1.25x (1.95);
    // FLOAT4E2M1 0.66 -> 1.25x (1.65 -> 2.08; Zen 4, benches/cast.rs).
    let dst = Storage::of(to, options.sub_byte_layout);
    let kernel = match (dst, Repr::of(from), Repr::of(to)) {
        (Storage::Unpacked(_), Some(source), Some(target)) if kernel.packs_bits != 0 => {
            let (saturate, round) = (options.saturate, options.round_mode as u8);
            kernels::select_unpacked(source, target, saturate, round, Tier::detect())
                .unwrap_or(kernel)
        }
        _ => kernel,
    };
    // A kernel that writes codes one per byte, their high bits 0, writes an unpacked
    // output as it is held: no block loop around it.
    let dst = match dst {
        Storage::Unpacked(_) if kernel.packs_bits == 0 => Storage::Bytes,
        dst => dst,
    };
    Plan {
        kernel,
        src,
        dst,
        low,
    }
}
