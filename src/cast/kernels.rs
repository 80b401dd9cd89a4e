//! Contiguous conversion kernels: one per (source, target) storage pair and CPU tier,
//! chosen once per call. Every kernel is the same loop over a per-element conversion
//! (`convert.rs`); the AVX2 tier compiles that loop with AVX2/F16C enabled so the
//! compiler vectorises it, and the tier is detected once per process.

use super::convert::CastTo;
use super::elem::{Bool, Elem, C128, C64};
use crate::dtype::Scalar;
use half::{bf16, f16};

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
        }
    }

    /// Converts every element of `src` into `dst`; both hold the same element count.
    pub fn run(&self, src: &[u8], dst: &mut [u8]) {
        assert_eq!(src.len() / self.src_size, dst.len() / self.dst_size);
        // SAFETY: `select` hands out a tier's kernels only for a tier that
        // `Tier::detect` found on this CPU (or for Baseline, which every CPU runs).
        unsafe { (self.run)(src, dst) }
    }
}

#[inline(always)]
fn convert_all<S: Elem + CastTo<D>, D: Elem>(src: &[u8], dst: &mut [u8]) {
    for (s, d) in src.chunks_exact(S::SIZE).zip(dst.chunks_exact_mut(D::SIZE)) {
        S::load(s).cast_to().store(d);
    }
}

/// # Safety
/// None beyond the shared kernel signature; Baseline runs on every CPU.
unsafe fn convert_baseline<S: Elem + CastTo<D>, D: Elem>(src: &[u8], dst: &mut [u8]) {
    convert_all::<S, D>(src, dst)
}

/// # Safety
/// The CPU must support AVX2, FMA and F16C.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,f16c,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn convert_avx2<S: Elem + CastTo<D>, D: Elem>(src: &[u8], dst: &mut [u8]) {
    convert_all::<S, D>(src, dst)
}

/// # Safety
/// None; a byte copy runs on every CPU.
unsafe fn copy_bytes(src: &[u8], dst: &mut [u8]) {
    dst.copy_from_slice(src)
}

fn pick<S: Elem + CastTo<D>, D: Elem>(tier: Tier) -> Kernel {
    let run: unsafe fn(&[u8], &mut [u8]) = match tier {
        Tier::Baseline => convert_baseline::<S, D>,
        #[cfg(target_arch = "x86_64")]
        Tier::Avx2 => convert_avx2::<S, D>,
    };
    Kernel::new(run, S::SIZE, D::SIZE, tier)
}

macro_rules! pick_target {
    ($s:ty, $to:expr, $tier:expr) => {
        match $to {
            Scalar::Bool => pick::<$s, Bool>($tier),
            Scalar::I8 => pick::<$s, i8>($tier),
            Scalar::I16 => pick::<$s, i16>($tier),
            Scalar::I32 => pick::<$s, i32>($tier),
            Scalar::I64 => pick::<$s, i64>($tier),
            Scalar::U8 => pick::<$s, u8>($tier),
            Scalar::U16 => pick::<$s, u16>($tier),
            Scalar::U32 => pick::<$s, u32>($tier),
            Scalar::U64 => pick::<$s, u64>($tier),
            Scalar::F16 => pick::<$s, f16>($tier),
            Scalar::Bf16 => pick::<$s, bf16>($tier),
            Scalar::F32 => pick::<$s, f32>($tier),
            Scalar::F64 => pick::<$s, f64>($tier),
            Scalar::C64 => pick::<$s, C64>($tier),
            Scalar::C128 => pick::<$s, C128>($tier),
        }
    };
}

/// A byte copy of elements of `size` bytes.
pub fn copy(size: usize, tier: Tier) -> Kernel {
    Kernel::new(copy_bytes, size, size, tier)
}

/// The kernel for a storage pair on a tier. Identical storage is a byte copy, which
/// keeps NaN payloads (a same-dtype cast copies bytes).
pub fn select(from: Scalar, to: Scalar, tier: Tier) -> Kernel {
    if from == to {
        return copy(from.size(), tier);
    }
    if let Some(kernel) = super::arch::special(from, to, tier) {
        return kernel;
    }
    match from {
        Scalar::Bool => pick_target!(Bool, to, tier),
        Scalar::I8 => pick_target!(i8, to, tier),
        Scalar::I16 => pick_target!(i16, to, tier),
        Scalar::I32 => pick_target!(i32, to, tier),
        Scalar::I64 => pick_target!(i64, to, tier),
        Scalar::U8 => pick_target!(u8, to, tier),
        Scalar::U16 => pick_target!(u16, to, tier),
        Scalar::U32 => pick_target!(u32, to, tier),
        Scalar::U64 => pick_target!(u64, to, tier),
        Scalar::F16 => pick_target!(f16, to, tier),
        Scalar::Bf16 => pick_target!(bf16, to, tier),
        Scalar::F32 => pick_target!(f32, to, tier),
        Scalar::F64 => pick_target!(f64, to, tier),
        Scalar::C64 => pick_target!(C64, to, tier),
        Scalar::C128 => pick_target!(C128, to, tier),
    }
}
