// SPDX-License-Identifier: MIT OR Apache-2.0
//! In-memory element types the numeric kernels load and store. Buffers carry no
//! alignment guarantee, so elements are read and written as native-endian bytes.

use half::{bf16, f16};

/// A fixed-size element that can be loaded from and stored to unaligned bytes.
pub trait Elem: Copy + 'static {
    /// Bytes per element.
    const SIZE: usize;
    /// Reads an element from exactly `SIZE` bytes.
    fn load(bytes: &[u8]) -> Self;
    /// Writes the element into exactly `SIZE` bytes.
    fn store(self, bytes: &mut [u8]);
}

/// A BOOL element: one byte, any non-zero value reads as true.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Bool(pub u8);

/// A COMPLEX64 element: two f32, real part first.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct C64 {
    pub re: f32,
    pub im: f32,
}

/// A COMPLEX128 element: two f64, real part first.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct C128 {
    pub re: f64,
    pub im: f64,
}

macro_rules! ne_bytes_elem {
    ($($t:ty),*) => {$(
        impl Elem for $t {
            const SIZE: usize = core::mem::size_of::<$t>();
            #[inline(always)]
            fn load(bytes: &[u8]) -> Self {
                let mut raw = [0u8; core::mem::size_of::<$t>()];
                raw.copy_from_slice(bytes);
                <$t>::from_ne_bytes(raw)
            }
            #[inline(always)]
            fn store(self, bytes: &mut [u8]) {
                bytes.copy_from_slice(&self.to_ne_bytes());
            }
        }
    )*};
}
ne_bytes_elem!(i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);

impl Elem for Bool {
    const SIZE: usize = 1;
    #[inline(always)]
    fn load(bytes: &[u8]) -> Self {
        Bool(bytes[0])
    }
    #[inline(always)]
    fn store(self, bytes: &mut [u8]) {
        bytes[0] = self.0;
    }
}

macro_rules! half_elem {
    ($($t:ty),*) => {$(
        impl Elem for $t {
            const SIZE: usize = 2;
            #[inline(always)]
            fn load(bytes: &[u8]) -> Self {
                <$t>::from_bits(u16::load(bytes))
            }
            #[inline(always)]
            fn store(self, bytes: &mut [u8]) {
                self.to_bits().store(bytes)
            }
        }
    )*};
}
half_elem!(f16, bf16);

impl Elem for C64 {
    const SIZE: usize = 8;
    #[inline(always)]
    fn load(bytes: &[u8]) -> Self {
        C64 {
            re: f32::load(&bytes[..4]),
            im: f32::load(&bytes[4..8]),
        }
    }
    #[inline(always)]
    fn store(self, bytes: &mut [u8]) {
        self.re.store(&mut bytes[..4]);
        self.im.store(&mut bytes[4..8]);
    }
}

impl Elem for C128 {
    const SIZE: usize = 16;
    #[inline(always)]
    fn load(bytes: &[u8]) -> Self {
        C128 {
            re: f64::load(&bytes[..8]),
            im: f64::load(&bytes[8..16]),
        }
    }
    #[inline(always)]
    fn store(self, bytes: &mut [u8]) {
        self.re.store(&mut bytes[..8]);
        self.im.store(&mut bytes[8..16]);
    }
}
