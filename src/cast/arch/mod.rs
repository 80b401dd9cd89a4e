//! Hand-vectorised kernels for pairs the compiler does not vectorise well on its own,
//! one file per ISA, behind the single dispatch point [`special`].

#[cfg(target_arch = "x86_64")]
mod x86_64;

use super::kernel::{Kernel, Tier};
use super::repr::Repr;
use crate::dtype::Scalar;

/// A hand-written kernel for this pair on this tier, if there is one.
pub fn special(from: Scalar, to: Scalar, tier: Tier) -> Option<Kernel> {
    match tier {
        Tier::Baseline => None,
        #[cfg(target_arch = "x86_64")]
        Tier::Avx2 => x86_64::special(from, to),
    }
}

/// A hand-written kernel for a pair involving a low-precision format (`opt`: the
/// option bits the target is compiled for), if there is one.
pub fn special_low(from: Repr, to: Repr, opt: u8, tier: Tier) -> Option<Kernel> {
    match tier {
        Tier::Baseline => None,
        #[cfg(target_arch = "x86_64")]
        Tier::Avx2 => x86_64::special_low(from, to, opt),
    }
}

/// Whether [`stream_copy`] has a non-temporal path on this tier.
pub fn can_stream(tier: Tier) -> bool {
    tier != Tier::Baseline
}

/// Copies `src` to `dst` with non-temporal stores where the tier has them (else an
/// ordinary copy), so that a large output is not first read into the cache.
pub fn stream_copy(src: &[u8], dst: &mut [u8], tier: Tier) {
    match tier {
        Tier::Baseline => dst.copy_from_slice(src),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the Avx2 tier is only in use when the CPU supports AVX2.
        Tier::Avx2 => unsafe { x86_64::stream_copy(src, dst) },
    }
}

/// Orders earlier streaming stores before anything that follows.
pub fn stream_fence(tier: Tier) {
    match tier {
        Tier::Baseline => {}
        #[cfg(target_arch = "x86_64")]
        Tier::Avx2 => x86_64::fence(),
    }
}

/// Fills `dst` with copies of `block` (1, 2, 4, 8, 16 or 32 bytes) with streaming stores
/// where the tier has them, else ordinary stores.
pub fn stream_fill(dst: &mut [u8], block: &[u8], tier: Tier) {
    assert!(
        matches!(block.len(), 1 | 2 | 4 | 8 | 16 | 32) && dst.len() % block.len() == 0
    );
    match tier {
        Tier::Baseline => {
            for slot in dst.chunks_exact_mut(block.len()) {
                slot.copy_from_slice(block);
            }
        }
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the Avx2 tier is only in use when the CPU supports AVX2.
        Tier::Avx2 => unsafe { x86_64::stream_fill(dst, block) },
    }
}

/// Fills `dst` with copies of `block` (a multiple of 32 bytes, at most 512) with
/// stores only, where the tier can; false when it cannot (nothing written).
pub fn repeat_block(dst: &mut [u8], block: &[u8], tier: Tier) -> bool {
    if block.is_empty()
        || block.len() % 32 != 0
        || block.len() > 512
        || dst.len() % block.len() != 0
    {
        return false;
    }
    match tier {
        Tier::Baseline => false,
        #[cfg(target_arch = "x86_64")]
        Tier::Avx2 => {
            // SAFETY: the Avx2 tier is only in use when the CPU supports AVX2; the sizes
            // were checked above.
            unsafe { x86_64::repeat_block(dst, block) };
            true
        }
    }
}

/// Fills `out`, split into `count` equal blocks, with rows of `data`: block i is the
/// `row` bytes at `data[at + i * stride..]` repeated. False, with nothing written, where
/// the tier cannot (or `row` is not a multiple of 32 up to 512, or the blocks are not
/// whole rows).
pub fn repeat_rows(
    out: &mut [u8],
    data: &[u8],
    (at, stride, count): (usize, usize, usize),
    row: usize,
    tier: Tier,
) -> bool {
    if row == 0
        || row % 32 != 0
        || row > 512
        || count == 0
        || out.len() % count != 0
    {
        return false;
    }
    let block = out.len() / count;
    if block % row != 0 || at + (count - 1) * stride + row > data.len() {
        return false;
    }
    match tier {
        Tier::Baseline => false,
        #[cfg(target_arch = "x86_64")]
        Tier::Avx2 => {
            let whole = &mut out[..block * count];
            // SAFETY: the Avx2 tier is only in use when the CPU supports AVX2.
            unsafe { x86_64::repeat_rows_blocks(whole, data, at, stride, row, block) };
            true
        }
    }
}

/// Repeats `out[..period]` over the rest of `out` (so that `out[i] == out[i - period]`)
/// with one forward string move, which on CPUs with enhanced `rep movsb` writes whole
/// lines without first reading them (memset's speed, where vector stores pay for the
/// read-for-ownership). False, with nothing written, where that is not available or
/// `period` is too short for the fast string path.
pub fn replicate(out: &mut [u8], period: usize) -> bool {
    // Below this distance the string move falls back to its slow byte-wise mode.
    const MIN_PERIOD: usize = 16 << 10;
    if period < MIN_PERIOD || period >= out.len() {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    if x86_64::has_erms() {
        x86_64::replicate(out, period);
        return true;
    }
    false
}
