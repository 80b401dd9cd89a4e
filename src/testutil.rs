// SPDX-License-Identifier: MIT OR Apache-2.0
//! Helpers shared by the unit tests: a generator, quick mode's sampling, and the
//! host's byte order.

use std::sync::OnceLock;

/// Quick mode, for runs under an emulator (scripts/test-cross.sh sets
/// `TCAST_TEST_QUICK=1`): the exhaustive and random-heavy tests sample their inputs
/// through [`patterns_u16`] and [`samples`] instead of covering them all. Read once;
/// any value but `1` (or none) leaves the tests exhaustive, as native runs are.
pub fn quick() -> bool {
    static QUICK: OnceLock<bool> = OnceLock::new();
    *QUICK.get_or_init(|| std::env::var_os("TCAST_TEST_QUICK").is_some_and(|v| v == "1"))
}

/// In quick mode a test draws one in this many of its random values, and
/// [`patterns_u16`] keeps every this-many-th pattern besides the edges.
const QUICK_STRIDE: usize = 31;

/// How many random values a test draws: `full`, or `full / 31` in quick mode. The
/// special values and boundaries a test lists are always all taken.
pub fn samples(full: usize) -> usize {
    if quick() {
        full / QUICK_STRIDE
    } else {
        full
    }
}

/// Whether a test that checks a large output element by element (the outputs of 16 MiB
/// that the kernels stream) checks element `i` of `n`: every one; in quick mode the
/// first 65,536 (every 8- and 16-bit source value and the listed specials come first),
/// the last 4,096 (the tails) and every 31st between. The kernels still write all `n`.
pub fn checks_element(i: usize, n: usize) -> bool {
    !quick() || i < 1 << 16 || i + 4096 >= n || i % QUICK_STRIDE == 0
}

/// The low bytes [`patterns_u16`] keeps with every high byte in quick mode: zero and one,
/// the halves and quarters (where the exponent fields of FLOAT16 and BFLOAT16 and the
/// rounding ties to the narrower formats change), and the largest values.
const LOW_BYTE_EDGES: [u8; 14] = [
    0x00, 0x01, 0x02, 0x3f, 0x40, 0x41, 0x7f, 0x80, 0x81, 0xbf, 0xc0, 0xc1, 0xfe, 0xff,
];

/// The 16-bit patterns an exhaustive test of a 16-bit source covers: all 65,536; in quick
/// mode every high byte with each of [`LOW_BYTE_EDGES`] (every sign and exponent, zeros,
/// infinities, NaNs, the integer limits) and every 31st pattern besides, about 9% of
/// them.
pub fn patterns_u16() -> Vec<u16> {
    (0..=u16::MAX)
        .filter(|&p| {
            !quick() || usize::from(p) % QUICK_STRIDE == 0 || LOW_BYTE_EDGES.contains(&(p as u8))
        })
        .collect()
}

/// Every text of up to `max_len` bytes over a 16-byte alphabet (16^0 + ... + 16^max_len
/// of them), shortest first.
pub fn texts_over(alphabet: &[u8; 16], max_len: u32) -> Vec<Vec<u8>> {
    (0..=max_len)
        .flat_map(|len| {
            (0..16usize.pow(len)).map(move |k| {
                (0..len)
                    .map(|d| alphabet[k / 16usize.pow(d) % 16])
                    .collect()
            })
        })
        .collect()
}

/// A random text of `len` bytes, mostly digits (so that many are integers), the rest
/// from `alphabet`.
pub fn mostly_digits(rng: &mut Rng, alphabet: &[u8; 16], len: usize) -> Vec<u8> {
    (0..len)
        .map(|_| {
            let r = rng.below(24) as usize;
            if r < 10 {
                b'0' + r as u8
            } else {
                alphabet[r % 16]
            }
        })
        .collect()
}

/// xorshift64: a small deterministic generator, so failures reproduce.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A value below `m`.
    pub fn below(&mut self, m: u64) -> u64 {
        self.next() % m
    }
}

/// The low `size` (1 to 8) bytes of `bits` as one element in the host's byte order, as
/// the library stores every multi-byte element (docs/c-api.md section 4).
pub fn host_bytes(bits: u64, size: usize) -> Vec<u8> {
    let all = bits.to_ne_bytes();
    if cfg!(target_endian = "big") {
        all[8 - size..].to_vec()
    } else {
        all[..size].to_vec()
    }
}

/// The bits of one element of 1 to 8 bytes in the host's byte order ([`host_bytes`]'s
/// inverse).
pub fn host_bits(bytes: &[u8]) -> u64 {
    let mut raw = [0u8; 8];
    if cfg!(target_endian = "big") {
        raw[8 - bytes.len()..].copy_from_slice(bytes);
    } else {
        raw[..bytes.len()].copy_from_slice(bytes);
    }
    u64::from_ne_bytes(raw)
}

/// A numpy dtype text (a spec, `str()` of a dtype, a message) written for a
/// little-endian host, as the same text for this host: on a big-endian host `<` and `>`
/// trade places. numpy treats the two byte orders alike but for which one is native, so
/// on a big-endian host the answer to the mirrored spec is the mirrored answer. The
/// mapping is its own inverse.
pub fn np_host_order(text: &str) -> String {
    if cfg!(target_endian = "big") {
        text.chars()
            .map(|c| match c {
                '<' => '>',
                '>' => '<',
                other => other,
            })
            .collect()
    } else {
        text.to_string()
    }
}
