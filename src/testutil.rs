//! Helpers shared by the unit tests.

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
