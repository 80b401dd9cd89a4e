// SPDX-License-Identifier: MIT OR Apache-2.0
//! AVX2-family fills and copies with streaming or register stores (Expand's output
//! and the cast's streaming path), and the ERMSB string move.

use super::{avx2_family, Avx2, Erms};
use crate::simd::family::enable_features;
use std::arch::x86_64::*;

avx2_family! { enable_features! {
    /// # Safety
    /// The CPU runs the AVX2 family; as for [`stream_copy_body`].
    unsafe fn stream_copy_entry(src: &[u8], dst: &mut [u8]) {
        // SAFETY: the caller's promise is the body's.
        unsafe { stream_copy_body(src, dst) }
    }

    /// # Safety
    /// The CPU runs the AVX2 family; as for [`repeat_block_body`].
    unsafe fn repeat_block_entry(dst: &mut [u8], block: &[u8]) {
        // SAFETY: the caller's promise is the body's.
        unsafe { repeat_block_body(dst, block) }
    }

    /// # Safety
    /// The CPU runs the AVX2 family; as for [`repeat_rows_body`].
    unsafe fn repeat_rows_entry(
        out: &mut [u8],
        data: &[u8],
        (at, stride): (usize, usize),
        row: usize,
        block: usize,
    ) {
        // SAFETY: the caller's promise is the body's.
        unsafe { repeat_rows_body(out, data, at, stride, row, block) }
    }

    /// # Safety
    /// The CPU runs the AVX2 family; as for [`splat_rows_body`].
    unsafe fn splat_rows_entry(
        out: &mut [u8],
        data: &[u8],
        (at, stride, es): (usize, usize, usize),
        block: usize,
    ) {
        // SAFETY: the caller's promise is the body's.
        unsafe {
            match es {
                1 => splat_rows_body::<1>(out, data, at, stride, block),
                2 => splat_rows_body::<2>(out, data, at, stride, block),
                4 => splat_rows_body::<4>(out, data, at, stride, block),
                _ => splat_rows_body::<8>(out, data, at, stride, block),
            }
        }
    }
} }

/// Copies `src` into `dst` (same length) with streaming stores.
pub fn stream_copy(src: &[u8], dst: &mut [u8], _: Avx2) {
    assert_eq!(src.len(), dst.len());
    // SAFETY: the token proves the CPU runs the AVX2 family; the lengths match.
    unsafe { stream_copy_entry(src, dst) }
}

/// Fills `dst` with copies of `block` (a multiple of 32 bytes, at most 512; `dst.len()`
/// a multiple of it) from registers.
pub fn repeat_block(dst: &mut [u8], block: &[u8], _: Avx2) {
    assert!(
        !block.is_empty()
            && block.len() % 32 == 0
            && block.len() <= 512
            && dst.len() % block.len() == 0
    );
    // SAFETY: the token proves the CPU runs the AVX2 family; the sizes were checked.
    unsafe { repeat_block_entry(dst, block) }
}

/// Block i of `out` (each `block` bytes, whole rows) filled with the `row` bytes at
/// `data[at + i * stride..]` (`row` a multiple of 32, at most 512), from registers.
pub fn repeat_rows(
    out: &mut [u8],
    data: &[u8],
    (at, stride, row): (usize, usize, usize),
    block: usize,
    _: Avx2,
) {
    let count = out.len() / block;
    assert!(
        row > 0
            && row % 32 == 0
            && row <= 512
            && block % row == 0
            && out.len() % block == 0
            && (count == 0 || at + (count - 1) * stride + row <= data.len())
    );
    // SAFETY: the token proves the CPU runs the AVX2 family; the sizes were checked.
    unsafe { repeat_rows_entry(out, data, (at, stride), row, block) }
}

/// Block i of `out` (each `block` bytes, at least 32, a multiple of `es`) filled with
/// copies of the `es`-byte element (1, 2, 4 or 8) at `data[at + i * stride..]`, from
/// registers.
pub fn splat_rows(
    out: &mut [u8],
    data: &[u8],
    (at, stride, es): (usize, usize, usize),
    block: usize,
    _: Avx2,
) {
    let count = out.len() / block;
    assert!(
        matches!(es, 1 | 2 | 4 | 8)
            && block >= 32
            && block % es == 0
            && out.len() % block == 0
            && (count == 0 || at + (count - 1) * stride + es <= data.len())
    );
    // SAFETY: the token proves the CPU runs the AVX2 family; the sizes were checked.
    unsafe { splat_rows_entry(out, data, (at, stride, es), block) }
}

/// Copies `src` into `dst` (same length) with 32-byte non-temporal stores on the
/// aligned middle part and ordinary copies for the unaligned ends.
///
/// # Safety
/// The CPU must support AVX2; `src.len() == dst.len()`.
#[inline(always)]
unsafe fn stream_copy_body(src: &[u8], dst: &mut [u8]) {
    // SAFETY: the caller runs the AVX2 family (this function's contract); the
    // loads and stores stay inside the slices, as noted at each.
    unsafe {
        let head = dst.as_ptr().align_offset(32).min(dst.len());
        let (dst_head, rest) = dst.split_at_mut(head);
        let (src_head, src_rest) = src.split_at(head);
        dst_head.copy_from_slice(src_head);
        let mut s = src_rest.chunks_exact(32);
        let mut d = rest.chunks_exact_mut(32);
        for (si, di) in (&mut s).zip(&mut d) {
            // In bounds: `si` holds 32 readable bytes; `di` 32 writable bytes starting on a
            // 32-byte boundary (the head was split off at the alignment offset).
            {
                let v = _mm256_loadu_si256(si.as_ptr().cast());
                _mm256_stream_si256(di.as_mut_ptr().cast(), v);
            }
        }
        d.into_remainder().copy_from_slice(s.remainder());
    }
}

/// Makes earlier non-temporal stores globally visible before later stores.
pub fn fence() {
    // SAFETY: sfence is part of SSE, which every x86-64 CPU has.
    unsafe { _mm_sfence() }
}

/// Fills `dst` with copies of `block` (a multiple of 32 bytes, at most 512) straight
/// from registers: stores only, no reloads of what was just written.
///
/// # Safety
/// The CPU must support AVX2; `dst.len()` is a multiple of `block.len()`.
#[inline(always)]
unsafe fn repeat_block_body(dst: &mut [u8], block: &[u8]) {
    // SAFETY: the caller runs the AVX2 family (this function's contract); the
    // loads and stores stay inside the slices, as noted at each.
    unsafe {
        let lanes = block.len() / 32;
        if matches!(lanes, 1 | 2 | 4 | 8 | 16) {
            // In bounds: AVX2 is enabled here; `block` is `lanes` vectors and `dst` whole blocks.
            {
                match lanes {
                    1 => repeat_lanes::<1>(dst, block),
                    2 => repeat_lanes::<2>(dst, block),
                    4 => repeat_lanes::<4>(dst, block),
                    8 => repeat_lanes::<8>(dst, block),
                    _ => repeat_lanes::<16>(dst, block),
                }
            }
            return;
        }
        let mut regs = [_mm256_setzero_si256(); 16];
        for (k, reg) in regs[..lanes].iter_mut().enumerate() {
            // In bounds: `block` holds 32 * lanes readable bytes.
            *reg = _mm256_loadu_si256(block.as_ptr().add(32 * k).cast());
        }
        for piece in dst.chunks_exact_mut(block.len()) {
            for (k, reg) in regs[..lanes].iter().enumerate() {
                // In bounds: `piece` holds 32 * lanes writable bytes.
                _mm256_storeu_si256(piece.as_mut_ptr().add(32 * k).cast(), *reg);
            }
        }
    }
}

/// See `simd::fill::repeat_rows` (the caller has checked the sizes).
///
/// # Safety
/// The CPU must support AVX2.
#[inline(always)]
unsafe fn repeat_rows_body(
    out: &mut [u8],
    data: &[u8],
    at: usize,
    stride: usize,
    row: usize,
    block: usize,
) {
    // SAFETY: the caller runs the AVX2 family (this function's contract); the
    // loads and stores stay inside the slices, as noted at each.
    unsafe {
        let lanes = row / 32;
        if matches!(lanes, 1 | 2 | 4 | 8 | 16) {
            // In bounds: AVX2 is enabled here; the caller checked the rows lie inside `data`.
            {
                match lanes {
                    1 => rows_lanes::<1>(out, data, at, stride, block),
                    2 => rows_lanes::<2>(out, data, at, stride, block),
                    4 => rows_lanes::<4>(out, data, at, stride, block),
                    8 => rows_lanes::<8>(out, data, at, stride, block),
                    _ => rows_lanes::<16>(out, data, at, stride, block),
                }
            }
            return;
        }
        for (i, piece) in out.chunks_exact_mut(block).enumerate() {
            let src = &data[at + i * stride..at + i * stride + row];
            // In bounds: AVX2 is enabled; `piece` is whole rows.
            repeat_block_body(piece, src);
        }
    }
}

/// See [`splat_rows`] (the caller has checked the sizes): each row's element broadcast
/// to a vector, stored over the row's whole vectors and once more over its last 32
/// bytes (overlapping, in phase: 32 and the row are multiples of `W`).
///
/// # Safety
/// The CPU must support AVX2.
#[inline(always)]
unsafe fn splat_rows_body<const W: usize>(
    out: &mut [u8],
    data: &[u8],
    at: usize,
    stride: usize,
    block: usize,
) {
    // SAFETY: the caller runs the AVX2 family (this function's contract); the loads and
    // stores stay inside the slices, as noted at each.
    unsafe {
        for (i, row) in out.chunks_exact_mut(block).enumerate() {
            let start = at + i * stride;
            let mut word = [0u8; 8];
            word[..W].copy_from_slice(&data[start..start + W]);
            let bits = u64::from_le_bytes(word);
            let v = match W {
                1 => _mm256_set1_epi8(bits as i8),
                2 => _mm256_set1_epi16(bits as i16),
                4 => _mm256_set1_epi32(bits as i32),
                _ => _mm256_set1_epi64x(bits as i64),
            };
            let p = row.as_mut_ptr();
            let mut k = 0;
            while k + 32 < block {
                // In bounds: k + 32 < block, the row's length.
                _mm256_storeu_si256(p.add(k).cast(), v);
                k += 32;
            }
            // In bounds: block >= 32.
            _mm256_storeu_si256(p.add(block - 32).cast(), v);
        }
    }
}

/// Block i of `out` (each `block` bytes) filled with the `32 * LANES` bytes at
/// `data[at + i * stride..]`, from registers.
///
/// # Safety
/// The CPU must support AVX2.
#[inline(always)]
unsafe fn rows_lanes<const LANES: usize>(
    out: &mut [u8],
    data: &[u8],
    at: usize,
    stride: usize,
    block: usize,
) {
    // SAFETY: the caller runs the AVX2 family (this function's contract); the
    // loads and stores stay inside the slices, as noted at each.
    unsafe {
        for (i, piece) in out.chunks_exact_mut(block).enumerate() {
            let src = &data[at + i * stride..at + i * stride + 32 * LANES];
            // In bounds: AVX2 is enabled; `src` holds 32 * LANES bytes and `piece` whole rows.
            repeat_lanes::<LANES>(piece, src);
        }
    }
}

/// Stores the `$n` vectors of `$regs` over each `32 * $n` bytes of `$dst` from named
/// values: the compiler keeps those in registers, where it reloaded an array's elements
/// from the block for every store ((1,64)->(64,64) f32 ran 20% slower so).
macro_rules! store_named {
    ($dst:expr, $regs:expr, $n:literal: $($r:ident $k:literal),+) => {{
        let [$($r),+]: [__m256i; $n] = $regs.try_into().expect("LANES vectors");
        for piece in $dst.chunks_exact_mut(32 * $n) {
            let p = piece.as_mut_ptr();
            $(_mm256_storeu_si256(p.add(32 * $k).cast(), $r);)+
        }
    }};
}

/// [`repeat_block_body`] for a block of exactly `LANES` vectors, kept in registers.
///
/// # Safety
/// As for `repeat_block`, with `block.len() == 32 * LANES`.
#[inline(always)]
unsafe fn repeat_lanes<const LANES: usize>(dst: &mut [u8], block: &[u8]) {
    // SAFETY: the caller runs the AVX2 family (this function's contract); the
    // loads and stores stay inside the slices, as noted at each.
    unsafe {
        let mut regs = [_mm256_setzero_si256(); LANES];
        for (k, reg) in regs.iter_mut().enumerate() {
            // In bounds: `block` holds 32 * LANES readable bytes.
            *reg = _mm256_loadu_si256(block.as_ptr().add(32 * k).cast());
        }
        // Every store from a named register (`store_named!`), and no prefetch ahead of
        // the stores: Expand (1,) -> (16M,) f32 on Zen 4, medians of three or four runs
        // over glibc's memset, ran at 0.99-1.03 with none, 0.97-1.03 with a line touched
        // 64 KiB ahead per 4 KiB page and 0.91-0.99 with one 8 KiB ahead per line.
        // In bounds: each piece holds 32 * LANES writable bytes.
        let regs = &regs[..];
        match LANES {
            1 => store_named!(dst, regs, 1: r0 0),
            2 => store_named!(dst, regs, 2: r0 0, r1 1),
            4 => store_named!(dst, regs, 4: r0 0, r1 1, r2 2, r3 3),
            8 => store_named!(dst, regs, 8: r0 0, r1 1, r2 2, r3 3, r4 4, r5 5, r6 6, r7 7),
            _ => store_named!(dst, regs, 16: r0 0, r1 1, r2 2, r3 3, r4 4, r5 5, r6 6, r7 7,
                r8 8, r9 9, r10 10, r11 11, r12 12, r13 13, r14 14, r15 15),
        }
    }
}

/// `out[i] = out[i - period]` for every i >= period, by one forward `rep movsb` from
/// the start of `out` to `period` bytes further (an overlapping forward move replicates
/// the pattern byte for byte, as the instruction is defined).
pub fn replicate(out: &mut [u8], period: usize, _: Erms) {
    assert!(period > 0 && period < out.len());
    let count = out.len() - period;
    let base = out.as_mut_ptr();
    // SAFETY: source [base, base + count) and destination [base + period, base +
    // out.len()) both lie inside `out`, which is borrowed mutably; the direction flag is
    // clear (the ABI guarantees it), so the move runs forward.
    unsafe {
        std::arch::asm!(
            "rep movsb",
            inout("rcx") count => _,
            inout("rdi") base.add(period) => _,
            inout("rsi") base.cast_const() => _,
            options(nostack, preserves_flags)
        );
    }
}

/// Fills `out` with copies of `element` (1, 2, 4 or 8 bytes; `out.len()` a multiple of
/// its size) by one `rep stos` of that width. With enhanced string stores the CPU writes
/// whole lines without first reading them, as memset does.
pub fn string_fill(out: &mut [u8], element: &[u8], _: Erms) {
    let es = element.len();
    assert!(matches!(es, 1 | 2 | 4 | 8) && out.len() % es == 0);
    let mut word = [0u8; 8];
    word[..es].copy_from_slice(element);
    // The stores write the register's low `es` bytes in memory order (little-endian).
    let value = u64::from_le_bytes(word);
    let count = out.len() / es;
    let at = out.as_mut_ptr();
    // SAFETY: each form stores `count` units of `es` bytes forward from `out`'s start
    // (the ABI keeps the direction flag clear): exactly `out`, which is borrowed mutably.
    unsafe {
        match es {
            1 => std::arch::asm!("rep stosb", inout("rcx") count => _, inout("rdi") at => _,
                in("al") value as u8, options(nostack, preserves_flags)),
            2 => std::arch::asm!("rep stosw", inout("rcx") count => _, inout("rdi") at => _,
                in("ax") value as u16, options(nostack, preserves_flags)),
            4 => std::arch::asm!("rep stosd", inout("rcx") count => _, inout("rdi") at => _,
                in("eax") value as u32, options(nostack, preserves_flags)),
            _ => std::arch::asm!("rep stosq", inout("rcx") count => _, inout("rdi") at => _,
                in("rax") value, options(nostack, preserves_flags)),
        }
    }
}

/// Copies `src` into `dst` (same length, not overlapping) with one `rep movsb`, which
/// on CPUs with enhanced string moves writes whole lines without first reading them.
pub fn string_copy(src: &[u8], dst: &mut [u8], _: Erms) {
    assert_eq!(src.len(), dst.len());
    // SAFETY: `src` and `dst` are distinct borrows (so they do not overlap) of
    // `src.len()` bytes each; the direction flag is clear (the ABI guarantees it), so the
    // move runs forward over exactly those bytes.
    unsafe {
        std::arch::asm!(
            "rep movsb",
            inout("rcx") src.len() => _,
            inout("rdi") dst.as_mut_ptr() => _,
            inout("rsi") src.as_ptr() => _,
            options(nostack, preserves_flags)
        );
    }
}
