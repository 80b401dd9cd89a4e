// SPDX-License-Identifier: MIT OR Apache-2.0
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
/// Read once, at the first detection; for tests of the portable path. The library never
/// prints what it made of it: [`report`] (`tcast_cpu_info`) tells.
pub const DISABLE_VAR: &str = "TCAST_DISABLE_CPU_FEATURES";

/// The kernel families of this CPU, as tokens.
#[derive(Copy, Clone, Debug)]
pub struct Cpu {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    tokens: isa::Tokens,
}

/// What the first detection found: the families in use, and the names of
/// [`DISABLE_VAR`] no family knows, already written out for [`report`] (kept in place,
/// without allocating: detection runs inside a caller's first call, and the numeric
/// casts promise no allocation).
struct Detected {
    cpu: Cpu,
    unknown: FixedText,
}

fn detected() -> &'static Detected {
    static DETECTED: OnceLock<Detected> = OnceLock::new();
    DETECTED.get_or_init(|| {
        with_setting(|setting| {
            let disabled = Disabled::parse(setting);
            let mut unknown = FixedText::new();
            write_unknown(&disabled, &mut unknown);
            Detected {
                cpu: Cpu::detect(&disabled),
                unknown,
            }
        })
    })
}

/// The families detected on this CPU (once per process).
pub fn cpu() -> Cpu {
    detected().cpu
}

/// One line saying what detection found: the architecture, the kernel families in use
/// (`portable` when none), the families this CPU has that [`DISABLE_VAR`] withdrew, and
/// the names in it that no family knows, quoted, with every byte that is not printable
/// ASCII (and `"`, `\`) written `\xNN`: `arch=x86_64 kernels=sse2,erms withdrawn=avx2
/// unknown="avx3","\xff"`. What `tcast_cpu_info` returns.
pub fn report() -> String {
    let found = detected();
    let in_use = found.cpu.families();
    let present = Cpu::detect(&Disabled::parse(b"")).families();
    let mut kernels = names_where(in_use.iter().map(|&(name, on)| (name, on)));
    if kernels.is_empty() {
        kernels.push_str("portable");
    }
    let withdrawn = names_where(
        present
            .iter()
            .zip(in_use.iter())
            .map(|(&(name, has), &(_, on))| (name, has && !on)),
    );
    let unknown = found.unknown.as_str();
    format!(
        "arch={} kernels={kernels} withdrawn={} unknown={}",
        std::env::consts::ARCH,
        or_none(&withdrawn),
        or_none(unknown)
    )
}

/// The names whose flag is set, comma-separated.
fn names_where(families: impl Iterator<Item = (&'static str, bool)>) -> String {
    let mut names = String::new();
    for (name, _) in families.filter(|&(_, on)| on) {
        if !names.is_empty() {
            names.push(',');
        }
        names.push_str(name);
    }
    names
}

fn or_none(list: &str) -> &str {
    if list.is_empty() {
        "none"
    } else {
        list
    }
}

/// Writes the unknown names of the setting, each quoted and escaped, comma-separated.
fn write_unknown(disabled: &Disabled, out: &mut FixedText) {
    for (i, name) in disabled.unknown().enumerate() {
        if i > 0 {
            out.push(b",");
        }
        out.push(b"\"");
        for &byte in name {
            if (0x20..0x7f).contains(&byte) && byte != b'"' && byte != b'\\' {
                out.push(&[byte]);
            } else {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.push(&[
                    b'\\',
                    b'x',
                    HEX[usize::from(byte >> 4)],
                    HEX[usize::from(byte & 15)],
                ]);
            }
        }
        out.push(b"\"");
    }
}

/// ASCII text in a fixed array, ended by `...` when more was pushed than fits.
struct FixedText {
    bytes: [u8; FixedText::CAPACITY],
    len: usize,
    /// The ellipsis is written: nothing more is taken.
    cut: bool,
}

impl FixedText {
    const CAPACITY: usize = 512;
    const ELLIPSIS: &'static [u8] = b"...";

    fn new() -> FixedText {
        FixedText {
            bytes: [0; FixedText::CAPACITY],
            len: 0,
            cut: false,
        }
    }

    /// Appends `piece` whole, or, when it does not fit with room left for the ellipsis,
    /// the ellipsis (once) and nothing after it.
    fn push(&mut self, piece: &[u8]) {
        let room = Self::CAPACITY - Self::ELLIPSIS.len();
        if self.cut {
            return;
        }
        let (piece, cut) = if self.len + piece.len() <= room {
            (piece, false)
        } else {
            (Self::ELLIPSIS, true)
        };
        self.bytes[self.len..self.len + piece.len()].copy_from_slice(piece);
        self.len += piece.len();
        self.cut = cut;
    }

    fn as_str(&self) -> &str {
        // Only printable ASCII is ever pushed.
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or("")
    }
}

/// Runs `f` on the bytes of [`DISABLE_VAR`] (empty when unset), read without allocating.
fn with_setting<R>(f: impl FnOnce(&[u8]) -> R) -> R {
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
        f(value)
    }
    #[cfg(not(unix))]
    {
        let value = std::env::var_os(DISABLE_VAR).unwrap_or_default();
        f(value.as_encoded_bytes())
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

    /// Each kernel family of this target by name, with whether it is in use.
    fn families(self) -> Vec<(&'static str, bool)> {
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        return self.tokens.families().to_vec();
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        return Vec::new();
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

    /// Whether the CPU is Intel's (a tuning choice between measured paths, never a
    /// question of what runs).
    #[cfg(target_arch = "x86_64")]
    pub fn intel(self) -> bool {
        self.tokens.intel
    }

    /// Advanced SIMD (every aarch64 CPU, unless disabled).
    #[cfg(target_arch = "aarch64")]
    pub fn neon(self) -> Option<Neon> {
        self.tokens.neon
    }
}

/// The value of [`DISABLE_VAR`], parsed (without allocating). Its bytes need not be
/// UTF-8: a name that is not is unknown, and the others still count.
#[derive(Debug)]
struct Disabled<'a> {
    setting: &'a [u8],
}

impl<'a> Disabled<'a> {
    fn parse(setting: &'a [u8]) -> Disabled<'a> {
        Disabled { setting }
    }

    /// The names listed, trimmed of ASCII white space, empty ones left out.
    fn names(&self) -> impl Iterator<Item = &'a [u8]> {
        self.setting
            .split(|&byte| byte == b',')
            .map(<[u8]>::trim_ascii)
            .filter(|name| !name.is_empty())
    }

    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "aarch64")),
        allow(dead_code)
    )]
    fn has(&self, feature: &str) -> bool {
        self.names()
            .any(|name| name == b"all" || name == feature.as_bytes())
    }

    /// The names that are neither `all` nor a feature any kernel family uses.
    fn unknown(&self) -> impl Iterator<Item = &'a [u8]> {
        self.names().filter(|name| {
            *name != b"all" && !known_features().any(|known| known.as_bytes() == *name)
        })
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

    /// Every tier this CPU runs (tests compare them all); on x86-64 with AVX-512 the AVX2
    /// tier twice, with and without its AVX-512 build (and a third time, with the AVX-512
    /// build but not the VBMI one, where the CPU has VBMI).
    #[cfg(test)]
    pub fn available() -> Vec<Tier> {
        let mut tiers = vec![Tier::Portable];
        #[cfg(target_arch = "x86_64")]
        if let Tier::Avx2(token) = Tier::detect() {
            if token.avx512().is_some() {
                tiers.push(Tier::Avx2(token.without_avx512()));
            }
            if token.avx512().and_then(|t| t.vbmi()).is_some() {
                tiers.push(Tier::Avx2(token.without_vbmi()));
            }
        }
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
        let none = Disabled::parse(b"");
        assert!(!none.has("avx2") && none.unknown().next().is_none());
        let some = Disabled::parse(b" avx2 ,f16c,");
        assert!(some.has("avx2") && some.has("f16c") && !some.has("fma"));
        let all = Disabled::parse(b"all");
        assert!(all.has("avx2") && all.has("neon") && all.unknown().next().is_none());
        let typo = Disabled::parse(b"avx3,all");
        assert_eq!(typo.unknown().collect::<Vec<_>>(), [b"avx3"]);
        for known in known_features() {
            assert!(
                Disabled::parse(known.as_bytes()).unknown().next().is_none(),
                "{known}"
            );
        }
    }

    #[test]
    fn a_name_that_is_not_utf8_is_unknown_and_the_others_still_count() {
        // A feature name this target knows, if it knows any (s390x knows none).
        let known = known_features().next().unwrap_or("all");
        let setting = [known.as_bytes(), b",\xff, ", known.as_bytes(), b"\xc3 ,all"].concat();
        let mixed = Disabled::parse(&setting);
        assert!(mixed.has(known));
        let with_byte = [known.as_bytes(), b"\xc3"].concat();
        assert_eq!(
            mixed.unknown().collect::<Vec<_>>(),
            [&b"\xff"[..], &with_byte[..]]
        );
        assert_eq!(
            Cpu::detect(&Disabled::parse(b"all,\xff")).best_tier(),
            Tier::Portable
        );
    }

    #[test]
    fn unknown_names_are_quoted_with_every_other_byte_escaped() {
        let mut text = FixedText::new();
        write_unknown(&Disabled::parse(b"avx3,\xff\"\\ x,\t\x01a"), &mut text);
        assert_eq!(text.as_str(), r#""avx3","\xff\x22\x5c x","\x01a""#);
        let mut empty = FixedText::new();
        let known = known_features().next().unwrap_or("all");
        write_unknown(
            &Disabled::parse(&[b"all, ,", known.as_bytes()].concat()),
            &mut empty,
        );
        assert_eq!(empty.as_str(), "");
    }

    #[test]
    fn a_long_list_of_unknown_names_ends_in_an_ellipsis() {
        let setting = vec![b'q'; 2000];
        let mut text = FixedText::new();
        write_unknown(&Disabled::parse(&setting), &mut text);
        let shown = text.as_str();
        assert_eq!(shown.len(), FixedText::CAPACITY);
        assert!(
            shown.starts_with("\"qqq") && shown.ends_with("q..."),
            "{shown}"
        );
        let mut many = FixedText::new();
        let names = "ab,".repeat(400);
        write_unknown(&Disabled::parse(names.as_bytes()), &mut many);
        assert!(many.as_str().ends_with("\"ab\"..."), "{}", many.as_str());
    }

    #[test]
    fn a_list_cut_inside_an_escaped_byte_holds_no_nul() {
        // Four bytes of text per 0x01: the cut comes where a whole `\x01` no longer fits,
        // before the last 3 bytes of room (issue 37's repro).
        let setting = [&b"aa,"[..], &[1u8; 10_000]].concat();
        let mut text = FixedText::new();
        write_unknown(&Disabled::parse(&setting), &mut text);
        let shown = text.as_str().to_owned();
        assert!(shown.ends_with("\\x01..."), "{shown}");
        assert!(
            shown.bytes().all(|b| (0x20..0x7f).contains(&b)),
            "{shown:?}"
        );
        assert!(shown.len() <= FixedText::CAPACITY, "{}", shown.len());
        assert!(shown.starts_with("\"aa\",\"\\x01"), "{shown}");
        // Nothing is taken after the cut, not even a piece short enough to fit.
        text.push(b"z");
        assert_eq!(text.as_str(), shown);
    }

    #[test]
    fn all_leaves_the_portable_tier_only() {
        assert_eq!(
            Cpu::detect(&Disabled::parse(b"all")).best_tier(),
            Tier::Portable
        );
    }

    #[test]
    fn the_report_names_the_architecture_and_the_families() {
        let line = report();
        let fields: Vec<&str> = line.split(' ').collect();
        assert_eq!(fields.len(), 4, "{line}");
        assert_eq!(fields[0], format!("arch={}", std::env::consts::ARCH));
        assert!(fields[1].starts_with("kernels="), "{line}");
        assert!(fields[2].starts_with("withdrawn="), "{line}");
        assert!(fields[3].starts_with("unknown="), "{line}");
        let in_use = names_where(cpu().families().into_iter());
        assert_eq!(fields[1], format!("kernels={}", or_none_portable(&in_use)));
    }

    fn or_none_portable(list: &str) -> &str {
        if list.is_empty() {
            "portable"
        } else {
            list
        }
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
