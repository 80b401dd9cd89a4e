// SPDX-License-Identifier: MIT OR Apache-2.0
//! Fills and copies for Expand's output and the cast's streaming path: streaming or
//! register stores where the tier has them, the portable loops beside them.

#[cfg(target_arch = "x86_64")]
use super::cpu::cpu;
use super::cpu::Tier;

/// Whether [`stream_copy`] has a non-temporal path on this tier.
pub fn can_stream(tier: Tier) -> bool {
    match tier {
        Tier::Portable => false,
        #[cfg(target_arch = "x86_64")]
        Tier::Avx2(_) => true,
        #[cfg(target_arch = "aarch64")]
        Tier::Neon(_) => false,
    }
}

/// Copies `src` to `dst` (same length) with non-temporal stores where the tier has them
/// (else an ordinary copy), so that a large output is not first read into the cache.
pub fn stream_copy(src: &[u8], dst: &mut [u8], tier: Tier) {
    match tier {
        #[cfg(target_arch = "x86_64")]
        Tier::Avx2(token) => super::x86_64::fill::stream_copy(src, dst, token),
        _ => dst.copy_from_slice(src),
    }
}

/// Orders earlier streaming stores before anything that follows.
pub fn stream_fence(tier: Tier) {
    #[cfg(target_arch = "x86_64")]
    if let Tier::Avx2(_) = tier {
        super::x86_64::fill::fence();
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = tier;
}

/// Fills `dst` with copies of `block` (a multiple of 32 bytes, at most 512) with stores
/// only, where the tier can; false when it cannot (nothing written).
pub fn repeat_block(dst: &mut [u8], block: &[u8], tier: Tier) -> bool {
    if block.is_empty()
        || block.len() % 32 != 0
        || block.len() > 512
        || dst.len() % block.len() != 0
    {
        return false;
    }
    match tier {
        #[cfg(target_arch = "x86_64")]
        Tier::Avx2(token) => {
            super::x86_64::fill::repeat_block(dst, block, token);
            true
        }
        _ => false,
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
    if row == 0 || row % 32 != 0 || row > 512 || count == 0 || out.len() % count != 0 {
        return false;
    }
    let block = out.len() / count;
    if block % row != 0 || at + (count - 1) * stride + row > data.len() {
        return false;
    }
    match tier {
        #[cfg(target_arch = "x86_64")]
        Tier::Avx2(token) => {
            let whole = &mut out[..block * count];
            super::x86_64::fill::repeat_rows(whole, data, (at, stride, row), block, token);
            true
        }
        _ => false,
    }
}

/// Fills `out`, split into `count` equal blocks (rows), with elements of `data`: block i
/// all copies of the `es`-byte element at `data[at + i * stride..]`, stored from
/// registers. False, with nothing written, where the tier cannot (or `es` is not 1, 2,
/// 4 or 8, or a block is shorter than 32 bytes or not whole elements).
pub fn splat_rows(
    out: &mut [u8],
    data: &[u8],
    (at, stride, count): (usize, usize, usize),
    es: usize,
    tier: Tier,
) -> bool {
    if !matches!(es, 1 | 2 | 4 | 8) || count == 0 || out.len() % count != 0 {
        return false;
    }
    let block = out.len() / count;
    if block < 32 || block % es != 0 || at + (count - 1) * stride + es > data.len() {
        return false;
    }
    match tier {
        #[cfg(target_arch = "x86_64")]
        Tier::Avx2(token) => {
            super::x86_64::fill::splat_rows(out, data, (at, stride, es), block, token);
            true
        }
        _ => false,
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
    if let Some(token) = cpu().erms() {
        super::x86_64::fill::replicate(out, period, token);
        return true;
    }
    false
}

/// Fills `out`, split into `count` equal blocks (rows), with elements of `data`: block i
/// all copies of the `es`-byte element (1, 2, 4 or 8) at `data[at + i * stride..]`, by
/// string stores where the CPU has fast ones. Like memset, they write the output's lines
/// without first reading them, on pages of any size: on Zen 4, 64 MiB on 4 KiB pages
/// filled at 0.95-0.98 of memset's speed where [`splat_rows`]' register stores ran at
/// 0.87-0.90 (on 2 MiB pages 0.99-1.00 against 1.03-1.13). False, with nothing written,
/// elsewhere (or where the blocks are empty or not whole elements).
pub fn string_splat_rows(
    out: &mut [u8],
    data: &[u8],
    (at, stride, count): (usize, usize, usize),
    es: usize,
) -> bool {
    if !matches!(es, 1 | 2 | 4 | 8) || count == 0 || out.len() % count != 0 {
        return false;
    }
    let block = out.len() / count;
    if block == 0 || block % es != 0 || at + (count - 1) * stride + es > data.len() {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(token) = cpu().erms() {
        for (i, row) in out.chunks_exact_mut(block).enumerate() {
            let start = at + i * stride;
            super::x86_64::fill::string_fill(row, &data[start..start + es], token);
        }
        return true;
    }
    false
}

/// Whether Expand lays broadcast rows out in a buffer and string-copies them
/// ([`copy_repeated`]) before it tries the register loop ([`repeat_rows`]), on
/// outputs large enough for either. Measured on 64 outputs of 1 MiB from (64,1,64) f32
/// (benches/expand.rs), ratio to a fill: on an Intel Xeon (family 6 model 207) string
/// moves 0.83-0.86 against registers 0.72 (and 1.07-1.16x numpy's broadcast copy
/// against 0.85-0.97x); on an AMD EPYC (Zen 4) string moves 0.42 against registers
/// 1.00. So: string moves first on Intel CPUs with fast ones, registers first elsewhere.
pub fn rows_by_string_first() -> bool {
    #[cfg(target_arch = "x86_64")]
    return cpu().intel() && cpu().erms().is_some();
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Whether [`copy_repeated`] has fast string moves to work with.
pub fn has_string_moves() -> bool {
    #[cfg(target_arch = "x86_64")]
    return cpu().erms().is_some();
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Fills `out` with whole copies of a non-empty `pattern` (the last one cut short) by
/// string moves from it where the CPU has fast ones ([`has_string_moves`]): like
/// memset, they write the output's lines without first reading them, where vector
/// stores pay for that read. Elsewhere, ordinary copies.
pub fn copy_repeated(out: &mut [u8], pattern: &[u8]) {
    assert!(!pattern.is_empty());
    #[cfg(target_arch = "x86_64")]
    if let Some(token) = cpu().erms() {
        for piece in out.chunks_mut(pattern.len()) {
            let n = piece.len();
            super::x86_64::fill::string_copy(&pattern[..n], piece, token);
        }
        return;
    }
    for piece in out.chunks_mut(pattern.len()) {
        let n = piece.len();
        piece.copy_from_slice(&pattern[..n]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks of every vector count the register loop takes (1 to 16 vectors), over
    /// outputs below and above the size from which it prefetches: whole copies of the
    /// block, where the tier takes it.
    #[test]
    fn repeat_block_writes_whole_copies() {
        let block: Vec<u8> = (0..512).map(|i| (i * 7 % 251) as u8).collect();
        for tier in Tier::available() {
            for lanes in 1..=16usize {
                let size = 32 * lanes;
                for copies in [1usize, 2, 3, 70_000 / size + 1] {
                    let mut out = vec![0xeeu8; size * copies];
                    if !repeat_block(&mut out, &block[..size], tier) {
                        assert!(out.iter().all(|&b| b == 0xee), "{tier:?} {lanes}: wrote");
                        continue;
                    }
                    for (i, piece) in out.chunks_exact(size).enumerate() {
                        assert_eq!(piece, &block[..size], "{tier:?} {lanes} lanes, copy {i}");
                    }
                }
            }
        }
    }

    /// Every element size, rows from none to past 100 bytes, input strides: where the CPU
    /// has fast string stores, each row is copies of its element, nothing past the
    /// output changes, whatever the output's alignment.
    #[test]
    fn string_splat_rows_fill_each_row_with_its_element() {
        let data: Vec<u8> = (0..=255).rev().collect();
        for es in [1usize, 2, 4, 8] {
            for row in (0..=136).step_by(es) {
                for (count, stride, skew) in
                    [(1usize, 0usize, 0usize), (3, es, 1), (5, 3 * es + 1, 3)]
                {
                    let len = count * row;
                    let mut storage = vec![0xeeu8; len + 48];
                    let out = &mut storage[skew..skew + len];
                    let taken = string_splat_rows(out, &data, (9, stride, count), es);
                    let case = format!("es {es} row {row} count {count} skew {skew}");
                    assert_eq!(taken, row > 0 && has_string_moves(), "{case}");
                    if !taken {
                        assert!(storage.iter().all(|&b| b == 0xee), "{case}: wrote");
                        continue;
                    }
                    for (i, out) in storage[skew..skew + len].chunks_exact(row).enumerate() {
                        let element = &data[9 + i * stride..][..es];
                        for (j, got) in out.chunks_exact(es).enumerate() {
                            assert_eq!(got, element, "{case}: row {i} element {j}");
                        }
                    }
                    assert!(storage[..skew].iter().all(|&b| b == 0xee), "{case}: before");
                    assert!(
                        storage[skew + len..].iter().all(|&b| b == 0xee),
                        "{case}: past"
                    );
                }
            }
        }
    }

    /// Every element size, row lengths from none to past 200 bytes (whole vectors, a
    /// part-vector tail, shorter than a vector) and input strides: where the tier takes
    /// the rows, each is copies of its element, and nothing past the output changes.
    #[test]
    fn splat_rows_fill_each_row_with_its_element() {
        let data: Vec<u8> = (0..=255).collect();
        for tier in Tier::available() {
            for es in [1usize, 2, 4, 8] {
                for row in (0..=200).step_by(es) {
                    for (count, stride) in [(1usize, 0usize), (3, es), (5, 3 * es + 1)] {
                        let len = count * row;
                        let mut storage = vec![0xeeu8; len + 40];
                        let taken =
                            splat_rows(&mut storage[..len], &data, (7, stride, count), es, tier);
                        let case = format!("{tier:?} es {es} row {row} count {count}");
                        assert_eq!(
                            taken,
                            row >= 32 && tier != Tier::Portable && cfg!(target_arch = "x86_64"),
                            "{case}"
                        );
                        if !taken {
                            assert!(storage.iter().all(|&b| b == 0xee), "{case}: wrote");
                            continue;
                        }
                        for (i, out) in storage[..len].chunks_exact(row).enumerate() {
                            let element = &data[7 + i * stride..][..es];
                            for (j, got) in out.chunks_exact(es).enumerate() {
                                assert_eq!(got, element, "{case}: row {i} element {j}");
                            }
                        }
                        assert!(storage[len..].iter().all(|&b| b == 0xee), "{case}: past");
                    }
                }
            }
        }
    }
}
