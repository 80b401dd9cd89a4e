// SPDX-License-Identifier: MIT OR Apache-2.0
//! What a conversion kernel is: a function over contiguous bytes compiled for one CPU
//! tier, with its element sizes. `cast/kernels.rs` chooses kernels, `simd/` supplies the
//! hand-written ones; both build on these types, so the dependencies go one way.

/// The kernel set a kernel was compiled for; made only by detection (`simd::cpu`).
pub use crate::simd::cpu::Tier;

/// Widening casts with outputs at least this large bypass the cache with streaming
/// stores (no read-for-ownership of the output): the kernels that stream
/// ([`Kernel::streams`]) do so themselves, the others through a buffer
/// (`exec::run_contiguous`). Measured (benches/cast.rs): it lifts u8 -> f32 and f16 ->
/// f32 from ~0.8x to ~1.0x memcpy, and costs 5-10% on same-size and narrowing casts,
/// which keep ordinary stores.
pub const STREAM_MIN_BYTES: usize = 16 << 20;

/// Source bytes from which the light kernels (one or two instructions a vector: FLOAT
/// -> FLOAT16, BFLOAT16 and BOOL, DOUBLE -> FLOAT16) run as four interleaved streams
/// (`four_streams!`, `simd/x86_64/cast.rs`). Below
/// it their data come from the caches, where the interleaving and the prefetches only
/// add instructions: FLOAT -> FLOAT16 on 512-bit vectors (Zen 4, the C API, best of
/// 300) took 3.6 us for 64 Ki elements in one plain loop and 5.2 us as four streams,
/// 162 and 219 us for 2 Mi; at 4 Mi (16 MiB read) the streams are ahead, 475 against
/// 541 us, and at 16 Mi 3.4 against 5.2 ms. The float encoders take the same gate
/// (x86-64: `simd/x86_64/cast.rs`); the tests reach both sides of it.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) const FOUR_STREAMS_MIN_BYTES: usize = 12 << 20;

/// A contiguous kernel: converts `src.len() / src_size` elements into `dst`.
#[derive(Copy, Clone)]
pub struct Kernel {
    /// Requires the CPU to support the tier the kernel was selected for.
    run: unsafe fn(&[u8], &mut [u8]),
    pub src_size: usize,
    pub dst_size: usize,
    /// The CPU tier the kernel was compiled for.
    pub tier: Tier,
    /// The kernel writes a packed output itself, this many bits per code (4: two
    /// codes per byte, 2: four), instead of one code per byte (0).
    pub packs_bits: u32,
    /// The kernel reads a packed input itself, this many bits per code (4: two codes
    /// per byte, 2: four, 6: four per three bytes, the first in the lowest bits; the unused bits of a part-filled
    /// last byte are not read) instead of one code per byte (0).
    pub unpacks_bits: u32,
    /// The kernel reads sub-byte codes held one per byte (an unpacked tensor's bytes)
    /// and keeps only their low this many bits itself (4, 2 or 6), or reads codes
    /// already within range (0).
    pub masks_bits: u32,
    /// The kernel writes large outputs with streaming stores itself, so the caller
    /// need not stage them through a buffer (`exec::run_contiguous`).
    pub streams: bool,
}

impl Kernel {
    /// Wraps a kernel function compiled for a tier.
    ///
    /// # Safety
    /// `run` runs on every CPU that `tier` was detected on: it is portable code, or
    /// compiled for the kernel family whose token `tier` holds.
    pub(crate) unsafe fn new(
        run: unsafe fn(&[u8], &mut [u8]),
        src_size: usize,
        dst_size: usize,
        tier: Tier,
    ) -> Kernel {
        Kernel {
            run,
            src_size,
            dst_size,
            tier,
            packs_bits: 0,
            unpacks_bits: 0,
            masks_bits: 0,
            streams: false,
        }
    }

    /// This kernel, marked as streaming its large outputs itself (outputs of at least
    /// `exec::STREAM_MIN_BYTES`).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) fn streaming(self) -> Kernel {
        Kernel {
            streams: true,
            ..self
        }
    }

    /// This kernel, marked as writing codes of `bits` (4, 2 or 6) packed (only
    /// hand-written kernels pack; the targets without one never call this).
    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "aarch64")),
        allow(dead_code)
    )]
    pub(crate) fn packing(self, bits: u32) -> Kernel {
        debug_assert!(matches!(bits, 4 | 2 | 6));
        Kernel {
            packs_bits: bits,
            ..self
        }
    }

    /// This kernel, marked as reading codes of `bits` (4, 2 or 6) packed (only
    /// hand-written kernels unpack; the targets without one never call this).
    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "aarch64")),
        allow(dead_code)
    )]
    pub(crate) fn unpacking(self, bits: u32) -> Kernel {
        debug_assert!(matches!(bits, 4 | 2 | 6));
        Kernel {
            unpacks_bits: bits,
            ..self
        }
    }

    /// This kernel, marked as keeping the low `bits` (4, 2 or 6) of each input byte
    /// itself (only hand-written decoders do; the targets without one never call this).
    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "aarch64")),
        allow(dead_code)
    )]
    pub(crate) fn masking(self, bits: u32) -> Kernel {
        debug_assert!(matches!(bits, 4 | 2 | 6));
        Kernel {
            masks_bits: bits,
            ..self
        }
    }

    /// Converts every element of `src` into `dst`; both hold the same element count
    /// (for a kernel that unpacks its input, `dst`'s count sets it and `src` holds its
    /// packed bytes).
    #[inline]
    pub fn run(&self, src: &[u8], dst: &mut [u8]) {
        // Element sizes are powers of two (1 to 16 bytes): shifts, not divisions, which
        // would cost more than a small call's conversions.
        debug_assert!(self.src_size.is_power_of_two() && self.dst_size.is_power_of_two());
        let (n, expected) = if self.unpacks_bits != 0 {
            let n = dst.len() >> self.dst_size.trailing_zeros();
            assert!(
                src.len() == (n * self.unpacks_bits as usize).div_ceil(8),
                "kernel input of {} bytes for {n} packed elements",
                src.len()
            );
            (n, n << self.dst_size.trailing_zeros())
        } else {
            let n = src.len() >> self.src_size.trailing_zeros();
            let expected = if self.packs_bits != 0 {
                (n * self.packs_bits as usize).div_ceil(8)
            } else {
                n << self.dst_size.trailing_zeros()
            };
            (n, expected)
        };
        assert!(
            dst.len() == expected,
            "kernel output of {} bytes for {n} elements",
            dst.len()
        );
        // SAFETY: `Kernel::new`'s contract: `run` runs on a CPU with `tier`, and a tier
        // other than Portable holds the token that detection made on this CPU.
        unsafe { (self.run)(src, dst) }
    }
}
