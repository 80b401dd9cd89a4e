// SPDX-License-Identifier: MIT OR Apache-2.0
//! The floating-point environment: tensorcast computes in the default one, whatever the
//! caller's thread holds, and hands the caller's control modes back unchanged.
//!
//! Conversions between float widths, integer -> float instructions and the float
//! arithmetic of text parsing depend on the rounding mode and on flush-to-zero /
//! denormals-are-zero (x86-64 MXCSR) or FZ, FZ16, DN and AHP (aarch64 FPCR); unmasked
//! exceptions would trap on a NaN -> integer conversion. [`DefaultFpEnv::enter`], at
//! each entry point and at the start of each task, reads the control register once and,
//! only when it does not hold the defaults, sets them and writes the caller's value back
//! on drop (on x86-64 that is the whole MXCSR, the caller's status flags with it). In the
//! common case, a caller already in the default environment, the cost is that one read:
//! the status flags the library's conversions raise (inexact, underflow, ...) then stay
//! raised, as C library functions may raise them.
//!
//! On s390x the rounding mode is read and set through C's `fegetround`/`fesetround`
//! (the FPC's other fields have no effect on the library's work unless the caller
//! enables IEEE traps). Other CPUs: nothing is done; the README says so. Under Miri,
//! which runs no inline assembly and computes in the default environment only, nothing
//! is done either, so that the exports' tests can run there.

/// The default environment for the life of the value (one per call or task; nesting is
/// cheap: the inner one finds the defaults in place).
pub(crate) struct DefaultFpEnv {
    saved: imp::Saved,
}

impl DefaultFpEnv {
    /// Puts the default environment in place on this thread, remembering the caller's.
    #[inline(always)]
    pub(crate) fn enter() -> DefaultFpEnv {
        DefaultFpEnv {
            saved: imp::enter(),
        }
    }
}

impl Drop for DefaultFpEnv {
    #[inline(always)]
    fn drop(&mut self) {
        imp::leave(&self.saved);
    }
}

#[cfg(all(target_arch = "x86_64", not(miri)))]
mod imp {
    use core::arch::asm;

    /// MXCSR's control bits: DAZ (6), the six exception masks (7-12), the rounding
    /// control (13-14) and FTZ (15). Bits 0-5 are the status flags.
    const CONTROL: u32 = 0xFFC0;
    /// Every exception masked, round to nearest even, no FTZ or DAZ.
    const DEFAULT_CONTROL: u32 = 0x1F80;

    pub(super) struct Saved(u32);

    #[inline(always)]
    pub(super) fn read() -> u32 {
        let mut value = 0u32;
        // SAFETY: STMXCSR stores the 4-byte MXCSR at the address given, a local here;
        // every x86-64 CPU has SSE.
        unsafe {
            asm!("stmxcsr [{}]", in(reg) &mut value, options(nostack, preserves_flags));
        }
        value
    }

    #[inline(always)]
    pub(super) fn write(value: u32) {
        // SAFETY: LDMXCSR loads MXCSR from a local holding a value with no reserved bit
        // set (a value read from MXCSR, or one with only defined bits changed).
        unsafe {
            asm!("ldmxcsr [{}]", in(reg) &value, options(nostack, preserves_flags));
        }
    }

    #[inline(always)]
    pub(super) fn enter() -> Saved {
        let caller = read();
        if caller & CONTROL != DEFAULT_CONTROL {
            write(caller & !CONTROL | DEFAULT_CONTROL);
        }
        Saved(caller)
    }

    #[inline(always)]
    pub(super) fn leave(saved: &Saved) {
        // Only what `enter` changed is put back: reading MXCSR again would cost as much
        // as the first read, on every call.
        if saved.0 & CONTROL != DEFAULT_CONTROL {
            write(saved.0);
        }
    }
}

#[cfg(all(target_arch = "aarch64", not(miri)))]
mod imp {
    use core::arch::asm;

    /// FPCR's fields that change results or trap: AH, FIZ, NEP (0-2, FEAT_AFP), the
    /// trap enables IOE..IXE (8-12) and IDE (15), FZ16 (19), RMode (22-23), FZ (24), DN
    /// (25) and AHP (26). All clear is the default.
    const CONTROL: u64 = 0x7 | 0x1F00 | 0x8000 | (1 << 19) | (0x1F << 22);

    pub(super) struct Saved {
        fpcr: u64,
    }

    #[inline(always)]
    pub(super) fn enter() -> Saved {
        let fpcr: u64;
        // SAFETY: reading FPCR has no side effect.
        unsafe {
            asm!("mrs {}, fpcr", out(reg) fpcr, options(nomem, nostack, preserves_flags));
        }
        if fpcr & CONTROL != 0 {
            // SAFETY: only defined FPCR fields are cleared; the others are written back
            // as read.
            unsafe {
                asm!("msr fpcr, {}", in(reg) fpcr & !CONTROL, options(nomem, nostack, preserves_flags));
            }
        }
        Saved { fpcr }
    }

    #[inline(always)]
    pub(super) fn leave(saved: &Saved) {
        if saved.fpcr & CONTROL != 0 {
            // SAFETY: writes back the value read from FPCR on entry.
            unsafe {
                asm!("msr fpcr, {}", in(reg) saved.fpcr, options(nomem, nostack, preserves_flags));
            }
        }
    }
}

#[cfg(all(target_arch = "s390x", target_os = "linux", not(miri)))]
mod imp {
    use std::ffi::c_int;

    extern "C" {
        fn fegetround() -> c_int;
        fn fesetround(mode: c_int) -> c_int;
    }

    /// glibc's FE_TONEAREST on s390x.
    const TO_NEAREST: c_int = 0;

    pub(super) struct Saved(c_int);

    #[inline(always)]
    pub(super) fn enter() -> Saved {
        // SAFETY: C's fenv functions, called with a valid mode.
        let caller = unsafe { fegetround() };
        if caller != TO_NEAREST {
            // SAFETY: as above.
            unsafe { fesetround(TO_NEAREST) };
        }
        Saved(caller)
    }

    #[inline(always)]
    pub(super) fn leave(saved: &Saved) {
        if saved.0 != TO_NEAREST {
            // SAFETY: restores the mode fegetround reported.
            unsafe { fesetround(saved.0) };
        }
    }
}

#[cfg(any(
    miri,
    not(any(
        target_arch = "x86_64",
        target_arch = "aarch64",
        all(target_arch = "s390x", target_os = "linux")
    ))
))]
mod imp {
    pub(super) struct Saved;

    #[inline(always)]
    pub(super) fn enter() -> Saved {
        Saved
    }

    #[inline(always)]
    pub(super) fn leave(_: &Saved) {}
}

#[cfg(all(test, target_arch = "x86_64", not(miri)))]
mod tests {
    use super::*;

    /// Inside, MXCSR holds the defaults (with the caller's status flags); on drop a
    /// caller's other value comes back exactly, flags raised inside undone, and a caller
    /// in the default environment keeps its control bits (flags raised inside stay).
    #[test]
    fn mxcsr_is_default_inside_and_the_callers_after() {
        let original = imp::read();
        // Toward zero, FTZ, DAZ, invalid unmasked; the inexact flag set.
        let hostile = (original & !0xFFC0) | 0x6000 | 0x8000 | 0x0040 | 0x1F00 | 0x20;
        for caller in [hostile, 0x1F80] {
            imp::write(caller);
            {
                let _env = DefaultFpEnv::enter();
                assert_eq!(imp::read() & 0xFFC0, 0x1F80, "inside, from {caller:#x}");
                let tiny = std::hint::black_box(f64::from_bits(1));
                // 2^-1074 -> f32 is 0 (raising underflow and inexact: undone on drop);
                // under DAZ, 2^-149 -> f64 would be 0 too.
                assert_eq!((tiny as f32).to_bits(), 0);
                assert_eq!(
                    f64::from(std::hint::black_box(f32::from_bits(1))).to_bits(),
                    0x36a0000000000000
                );
            }
            let after = imp::read();
            imp::write(original);
            if caller == hostile {
                assert_eq!(after, caller, "MXCSR after, from {caller:#x}");
            } else {
                assert_eq!(
                    after & 0xFFC0,
                    caller & 0xFFC0,
                    "MXCSR after, from {caller:#x}"
                );
            }
        }
    }
}
