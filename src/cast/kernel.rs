//! What a conversion kernel is: a function over contiguous bytes compiled for one CPU
//! tier, with its element sizes. `kernels.rs` chooses kernels, `arch/` supplies the
//! hand-written ones; both build on these types, so the dependencies go one way.

/// A CPU feature level with its own compilation of the kernels.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Tier {
    /// What every CPU of the target runs.
    Baseline,
    /// x86-64 with AVX2, FMA and F16C.
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Tier {
    /// The best tier this CPU supports, detected on first use and cached.
    pub fn detect() -> Tier {
        #[cfg(target_arch = "x86_64")]
        {
            use std::sync::atomic::{AtomicU8, Ordering};
            static CACHE: AtomicU8 = AtomicU8::new(0);
            match CACHE.load(Ordering::Relaxed) {
                1 => return Tier::Baseline,
                2 => return Tier::Avx2,
                _ => {}
            }
            let avx2 = std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
                && std::arch::is_x86_feature_detected!("f16c");
            CACHE.store(if avx2 { 2 } else { 1 }, Ordering::Relaxed);
            if avx2 {
                return Tier::Avx2;
            }
        }
        Tier::Baseline
    }

    /// Every tier this CPU can run (tests compare them all).
    #[cfg(test)]
    pub fn available() -> Vec<Tier> {
        let mut tiers = vec![Tier::Baseline];
        #[cfg(target_arch = "x86_64")]
        if Tier::detect() == Tier::Avx2 {
            tiers.push(Tier::Avx2);
        }
        tiers
    }
}

/// A contiguous kernel: converts `src.len() / src_size` elements into `dst`.
#[derive(Copy, Clone)]
pub struct Kernel {
    /// Requires the CPU to support the tier the kernel was selected for.
    run: unsafe fn(&[u8], &mut [u8]),
    pub src_size: usize,
    pub dst_size: usize,
    /// The CPU tier the kernel was compiled for.
    pub tier: Tier,
    /// The kernel writes a 4-bit packed output itself (two codes per byte) instead of
    /// one code per byte.
    pub packs_nibbles: bool,
}

impl Kernel {
    /// Wraps a kernel function compiled for a tier.
    pub(crate) fn new(
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
            packs_nibbles: false,
        }
    }

    /// This kernel, marked as writing two 4-bit codes per byte.
    pub(crate) fn packing_nibbles(self) -> Kernel {
        Kernel {
            packs_nibbles: true,
            ..self
        }
    }

    /// Converts every element of `src` into `dst`; both hold the same element count.
    pub fn run(&self, src: &[u8], dst: &mut [u8]) {
        let n = src.len() / self.src_size;
        if self.packs_nibbles {
            assert_eq!(n.div_ceil(2), dst.len());
        } else {
            assert_eq!(n, dst.len() / self.dst_size);
        }
        // SAFETY: `select` hands out a tier's kernels only for a tier that
        // `Tier::detect` found on this CPU (or for Baseline, which every CPU runs).
        unsafe { (self.run)(src, dst) }
    }
}
