//! Which kernel families this CPU runs: detected once per process, with the features
//! named in `TCAST_DISABLE_CPU_FEATURES` treated as absent.

use std::sync::OnceLock;

#[cfg(target_arch = "aarch64")]
use super::aarch64 as isa;
#[cfg(target_arch = "x86_64")]
use super::x86_64 as isa;

#[cfg(target_arch = "aarch64")]
pub use super::aarch64::Neon;
#[cfg(target_arch = "x86_64")]
pub use super::x86_64::{Avx2, Erms, Sse2};

/// The environment variable that turns features off: a comma-separated list of names
/// as `is_x86_feature_detected!` / `is_aarch64_feature_detected!` spell them, or `all`.
/// Read once, at the first detection; for tests of the portable path.
pub const DISABLE_VAR: &str = "TCAST_DISABLE_CPU_FEATURES";

/// The kernel families of this CPU, as tokens.
#[derive(Copy, Clone, Debug)]
pub struct Cpu {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    tokens: isa::Tokens,
}

/// The families detected on this CPU (once per process).
pub fn cpu() -> Cpu {
    static CPU: OnceLock<Cpu> = OnceLock::new();
    *CPU.get_or_init(|| {
        with_setting(|setting| {
            let disabled = Disabled::parse(setting);
            for name in disabled.unknown() {
                eprintln!("tensorcast: {DISABLE_VAR}: unknown CPU feature {name:?} ignored");
            }
            Cpu::detect(&disabled)
        })
    })
}

/// Runs `f` on the value of [`DISABLE_VAR`] ("" when unset or not UTF-8), read without
/// allocating: detection runs inside a caller's first call, and the numeric casts
/// promise no allocation.
fn with_setting<R>(f: impl FnOnce(&str) -> R) -> R {
    #[cfg(unix)]
    {
        extern "C" {
            fn getenv(name: *const std::ffi::c_char) -> *const std::ffi::c_char;
        }
        const NAME: &std::ffi::CStr = c"TCAST_DISABLE_CPU_FEATURES";
        debug_assert_eq!(NAME.to_bytes(), DISABLE_VAR.as_bytes());
        // SAFETY: NAME is NUL-terminated; getenv returns NULL or a NUL-terminated string
        // that stays valid until the environment is changed, and Rust's `set_var` may
        // not run concurrently with C code reading the environment (its own contract).
        // The value is only read inside `f`, before this function returns.
        let value = unsafe {
            let raw = getenv(NAME.as_ptr());
            if raw.is_null() {
                &[][..]
            } else {
                std::ffi::CStr::from_ptr(raw).to_bytes()
            }
        };
        f(std::str::from_utf8(value).unwrap_or(""))
    }
    #[cfg(not(unix))]
    {
        let value = std::env::var(DISABLE_VAR).unwrap_or_default();
        f(&value)
    }
}

impl Cpu {
    fn detect(disabled: &Disabled) -> Cpu {
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        let _ = disabled;
        Cpu {
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            tokens: isa::detect(&|name| disabled.has(name)),
        }
    }

    /// The best tier of these families.
    fn best_tier(self) -> Tier {
        #[cfg(target_arch = "x86_64")]
        if let Some(token) = self.avx2() {
            return Tier::Avx2(token);
        }
        #[cfg(target_arch = "aarch64")]
        if let Some(token) = self.neon() {
            return Tier::Neon(token);
        }
        Tier::Portable
    }

    /// AVX2 with FMA, F16C, BMI1/2, LZCNT and POPCNT.
    #[cfg(target_arch = "x86_64")]
    pub fn avx2(self) -> Option<Avx2> {
        self.tokens.avx2
    }

    /// SSE2 (every x86-64 CPU, unless disabled).
    #[cfg(target_arch = "x86_64")]
    pub fn sse2(self) -> Option<Sse2> {
        self.tokens.sse2
    }

    /// Enhanced `rep movsb`.
    #[cfg(target_arch = "x86_64")]
    pub fn erms(self) -> Option<Erms> {
        self.tokens.erms
    }

    /// Advanced SIMD (every aarch64 CPU, unless disabled).
    #[cfg(target_arch = "aarch64")]
    pub fn neon(self) -> Option<Neon> {
        self.tokens.neon
    }
}

/// The value of [`DISABLE_VAR`], parsed (without allocating).
#[derive(Debug)]
struct Disabled<'a> {
    setting: &'a str,
}

impl<'a> Disabled<'a> {
    fn parse(setting: &'a str) -> Disabled<'a> {
        Disabled { setting }
    }

    /// The names listed, trimmed, empty ones left out.
    fn names(&self) -> impl Iterator<Item = &'a str> {
        self.setting
            .split(',')
            .map(str::trim)
            .filter(|name| !name.is_empty())
    }

    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "aarch64")),
        allow(dead_code)
    )]
    fn has(&self, feature: &str) -> bool {
        self.names().any(|name| name == "all" || name == feature)
    }

    /// The names that are neither `all` nor a feature any kernel family uses.
    fn unknown(&self) -> impl Iterator<Item = &'a str> {
        self.names()
            .filter(|name| *name != "all" && !known_features().any(|known| known == *name))
    }
}

/// Every feature name a kernel family of this target uses.
fn known_features() -> impl Iterator<Item = &'static str> {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    return isa::known_features();
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    return std::iter::empty();
}

/// A set of kernels compiled for one kernel family, with the token that proves the CPU
/// runs them: safe code can only hold a tier other than `Portable` that detection made.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Tier {
    /// Plain Rust that every CPU of the target runs.
    Portable,
    /// x86-64 with the AVX2 family.
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2),
    /// aarch64 with Advanced SIMD.
    #[cfg(target_arch = "aarch64")]
    Neon(Neon),
}

impl Tier {
    /// The best tier this CPU runs.
    pub fn detect() -> Tier {
        cpu().best_tier()
    }

    /// Every tier this CPU runs (tests compare them all).
    #[cfg(test)]
    pub fn available() -> Vec<Tier> {
        let mut tiers = vec![Tier::Portable];
        if Tier::detect() != Tier::Portable {
            tiers.push(Tier::detect());
        }
        tiers
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_disable_setting_is_a_comma_separated_list_or_all() {
        let none = Disabled::parse("");
        assert!(!none.has("avx2") && none.unknown().next().is_none());
        let some = Disabled::parse(" avx2 ,f16c,");
        assert!(some.has("avx2") && some.has("f16c") && !some.has("fma"));
        let all = Disabled::parse("all");
        assert!(all.has("avx2") && all.has("neon") && all.unknown().next().is_none());
        let typo = Disabled::parse("avx3,all");
        assert_eq!(typo.unknown().collect::<Vec<_>>(), ["avx3"]);
        for known in known_features() {
            assert!(Disabled::parse(known).unknown().next().is_none(), "{known}");
        }
    }

    #[test]
    fn all_leaves_the_portable_tier_only() {
        assert_eq!(
            Cpu::detect(&Disabled::parse("all")).best_tier(),
            Tier::Portable
        );
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn a_disabled_feature_withdraws_its_whole_family() {
        let tokens = isa::detect(&|name| name == "f16c");
        assert!(tokens.avx2.is_none());
        assert_eq!(
            tokens.sse2.is_some(),
            std::arch::is_x86_feature_detected!("sse2")
        );
        let nothing = isa::detect(&|_| true);
        assert!(nothing.avx2.is_none() && nothing.sse2.is_none() && nothing.erms.is_none());
    }
}
