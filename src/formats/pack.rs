// SPDX-License-Identifier: MIT OR Apache-2.0
//! Packing of the sub-byte dtypes (docs/c-api.md section 4): INT4/UINT4/FLOAT4E2M1 two per
//! byte, INT2/UINT2 four per byte, FLOAT6 four per three bytes as a bit stream; element 0
//! in the lowest bits; unused high bits of the last byte 0. Kernels see one code per
//! byte; these functions move codes in and out of that layout, starting at a whole
//! group (an element index that is a multiple of 4).

/// Reads `codes.len()` codes of `bits` bits from `src`, starting at its first byte.
/// Inlined, so that a kernel compiled for a tier's features unpacks with them.
#[inline(always)]
pub fn unpack(bits: u32, src: &[u8], codes: &mut [u8]) {
    match bits {
        4 => {
            let full = codes.len() / 2;
            let mut pairs = codes.chunks_exact_mut(2);
            for (pair, &b) in (&mut pairs).zip(src) {
                let word = u16::from(b & 0x0f) | (u16::from(b >> 4) << 8);
                pair.copy_from_slice(&word.to_le_bytes());
            }
            if let [last] = pairs.into_remainder() {
                *last = src[full] & 0x0f;
            }
        }
        2 => {
            let full = codes.len() / 4;
            for (g, &b) in codes.chunks_exact_mut(4).zip(src) {
                g.copy_from_slice(&[b & 3, (b >> 2) & 3, (b >> 4) & 3, b >> 6]);
            }
            for (i, code) in codes[full * 4..].iter_mut().enumerate() {
                *code = get(2, &src[full..], i);
            }
        }
        6 => {
            let full = codes.len() / 4;
            for (g, b) in codes.chunks_exact_mut(4).zip(src.chunks_exact(3)) {
                let stream = u32::from(b[0]) | (u32::from(b[1]) << 8) | (u32::from(b[2]) << 16);
                g.copy_from_slice(&[
                    (stream & 0x3f) as u8,
                    ((stream >> 6) & 0x3f) as u8,
                    ((stream >> 12) & 0x3f) as u8,
                    (stream >> 18) as u8,
                ]);
            }
            for (i, code) in codes[full * 4..].iter_mut().enumerate() {
                *code = get(6, &src[full * 3..], i);
            }
        }
        _ => unreachable!("no packed dtype has {bits} bits"),
    }
}

/// Writes `codes` (each already within `bits` bits) into `dst`, which holds exactly the
/// bytes they occupy; the unused high bits of the last byte become 0. Inlined, as
/// [`unpack`] is.
#[inline(always)]
pub fn pack(bits: u32, codes: &[u8], dst: &mut [u8]) {
    match bits {
        4 => {
            let mut pairs = codes.chunks_exact(2);
            for (b, pair) in dst.iter_mut().zip(&mut pairs) {
                // As one 16-bit word the high code sits at bit 8; shifting it down by
                // 4 puts it in the high nibble (a form the compiler vectorises).
                let word = u16::from_le_bytes([pair[0], pair[1]]);
                *b = (word | (word >> 4)) as u8;
            }
            if let [last] = pairs.remainder() {
                dst[codes.len() / 2] = *last;
            }
        }
        2 => {
            let full = codes.len() / 4;
            for (b, g) in dst.iter_mut().zip(codes.chunks_exact(4)) {
                *b = g[0] | (g[1] << 2) | (g[2] << 4) | (g[3] << 6);
            }
            pack_tail(2, &codes[full * 4..], &mut dst[full..]);
        }
        6 => {
            let full = codes.len() / 4;
            for (out, g) in dst.chunks_exact_mut(3).zip(codes.chunks_exact(4)) {
                let stream = u32::from(g[0])
                    | (u32::from(g[1]) << 6)
                    | (u32::from(g[2]) << 12)
                    | (u32::from(g[3]) << 18);
                out.copy_from_slice(&stream.to_le_bytes()[..3]);
            }
            pack_tail(6, &codes[full * 4..], &mut dst[full * 3..]);
        }
        _ => unreachable!("no packed dtype has {bits} bits"),
    }
}

/// Packs a last partial group (fewer than 4 codes) into the bytes left.
fn pack_tail(bits: u32, codes: &[u8], dst: &mut [u8]) {
    dst.fill(0);
    for (i, &c) in codes.iter().enumerate() {
        set(bits, dst, i, c);
    }
}

/// Code `index` of a packed stream of `bits`-bit codes.
pub fn get(bits: u32, bytes: &[u8], index: usize) -> u8 {
    let bit = index * bits as usize;
    let low = u16::from(bytes[bit / 8]);
    let high = u16::from(*bytes.get(bit / 8 + 1).unwrap_or(&0));
    (((low | (high << 8)) >> (bit % 8)) & ((1 << bits) - 1)) as u8
}

/// Sets code `index` of a packed stream (the other bits are kept).
pub fn set(bits: u32, bytes: &mut [u8], index: usize, code: u8) {
    let bit = index * bits as usize;
    let mask = ((1u16 << bits) - 1) << (bit % 8);
    let value = u16::from(code) << (bit % 8);
    let at = bit / 8;
    bytes[at] = (u16::from(bytes[at]) & !mask | value) as u8;
    if bit % 8 + bits as usize > 8 {
        bytes[at + 1] = ((((u16::from(bytes[at + 1]) << 8) & !mask) | value) >> 8) as u8;
    }
}

/// Bytes `elements` codes of `bits` bits occupy.
pub const fn packed_bytes(bits: u32, elements: usize) -> usize {
    (elements * bits as usize).div_ceil(8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_with_odd_counts_and_zero_padding() {
        for bits in [2u32, 4, 6] {
            for n in 0..40usize {
                let codes: Vec<u8> = (0..n).map(|i| ((i * 7 + 3) % (1 << bits)) as u8).collect();
                let mut packed = vec![0xffu8; packed_bytes(bits, n)];
                pack(bits, &codes, &mut packed);
                let used = n * bits as usize;
                if used % 8 != 0 {
                    let last = *packed.last().unwrap();
                    assert_eq!(last >> (used % 8), 0, "bits {bits} n {n}: unused bits set");
                }
                let mut back = vec![0u8; n];
                unpack(bits, &packed, &mut back);
                assert_eq!(back, codes, "bits {bits} n {n}");
            }
        }
    }

    #[test]
    fn get_and_set_agree_with_pack() {
        for bits in [2u32, 4, 6] {
            let codes: Vec<u8> = (0..37).map(|i| ((i * 5 + 1) % (1 << bits)) as u8).collect();
            let mut packed = vec![0u8; packed_bytes(bits, codes.len())];
            pack(bits, &codes, &mut packed);
            let mut rebuilt = vec![0u8; packed.len()];
            for (i, &c) in codes.iter().enumerate().rev() {
                assert_eq!(get(bits, &packed, i), c);
                set(bits, &mut rebuilt, i, c);
            }
            assert_eq!(rebuilt, packed);
            set(bits, &mut rebuilt, 5, 0);
            assert_eq!(get(bits, &rebuilt, 5), 0);
            assert_eq!(get(bits, &rebuilt, 4), codes[4]);
            assert_eq!(get(bits, &rebuilt, 6), codes[6]);
        }
    }

    #[test]
    fn layouts_match_the_api_page() {
        let mut out = [0u8; 1];
        pack(4, &[0x1, 0xe], &mut out);
        assert_eq!(out, [0xe1]);
        pack(2, &[1, 2, 3, 0], &mut out);
        assert_eq!(out, [0b00_11_10_01]);
        let mut six = [0u8; 3];
        pack(6, &[0x3f, 0, 0, 0x01], &mut six);
        assert_eq!(six, [0x3f, 0x00, 0x04]);
    }
}
