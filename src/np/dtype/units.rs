// SPDX-License-Identifier: MIT OR Apache-2.0
//! numpy's datetime units: their enum values and names, a unit with its multiplier and
//! its `[...]` text, and the finer units a divisor moves a unit to.

/// Datetime units in numpy's enum order (3 is the removed business day).
pub const UNIT_NAMES: [&str; 15] = [
    "Y", "M", "W", "", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as", "generic",
];
/// Years.
pub const UNIT_Y: u8 = 0;
/// Months.
pub const UNIT_M: u8 = 1;
/// Weeks.
pub const UNIT_W: u8 = 2;
/// Days.
pub const UNIT_D: u8 = 4;
/// Hours.
pub const UNIT_H: u8 = 5;
/// Minutes.
pub const UNIT_MIN: u8 = 6;
/// Seconds.
pub const UNIT_S: u8 = 7;
/// Milliseconds.
pub const UNIT_MS: u8 = 8;
/// Microseconds.
pub const UNIT_US: u8 = 9;
/// Femtoseconds.
pub const UNIT_FS: u8 = 12;
/// Attoseconds.
pub const UNIT_AS: u8 = 13;
/// Generic units (`M8`, `m8`): no unit yet.
pub const UNIT_GENERIC: u8 = 14;

/// A datetime/timedelta unit: numpy's enum value and the multiplier.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    /// numpy's enum value of the unit (`NPY_DATETIMEUNIT`: Y, M, W, -, D, h, m, s, ms,
    /// us, ns, ps, fs, as, generic).
    pub base: u8,
    /// How many of the unit (`[10s]`: 10).
    pub num: u32,
}

impl Unit {
    /// Generic units, as `M8` and `m8` have them.
    pub const GENERIC: Unit = Unit {
        base: UNIT_GENERIC,
        num: 1,
    };

    /// `[10s]`, `[ns]`, or nothing for generic units.
    pub fn text(self) -> String {
        if self.base == UNIT_GENERIC {
            String::new()
        } else if self.num == 1 {
            format!("[{}]", UNIT_NAMES[self.base as usize])
        } else {
            format!("[{}{}]", self.num, UNIT_NAMES[self.base as usize])
        }
    }

    /// The enum value of the unit a metadata string names (numpy's names, and "μs"
    /// for microseconds).
    pub(super) fn base_named(text: &[u8]) -> Option<u8> {
        match text {
            b"\xce\xbcs" => Some(UNIT_US),
            _ => UNIT_NAMES
                .iter()
                .position(|n| !n.is_empty() && n.as_bytes() == text)
                .map(|p| p as u8),
        }
    }

    /// `[D/24]` -> `[h]`: numpy's search for a finer unit that the divisor `den` divides;
    /// None when none does or `den` is not positive. Generic units have none (the
    /// grammar refuses a divisor on them before it asks).
    ///
    /// The multiplier is returned as it comes out (`[927646077D/2]` gives 12 h per 2, so
    /// 5565876462 h), unchecked: the grammar refuses one that is not a C int.
    pub(super) fn divided(self, den: i64) -> Option<(u8, u64)> {
        // Factors to the next finer units, as numpy tabulates them (weeks read a fourth,
        // zero entry: the quirk that makes `[W/11]` a zero multiple of years).
        let (tries, units): (&[i64], &[u8]) = match self.base {
            UNIT_Y => (&[12, 52, 365], &[UNIT_M, UNIT_W, UNIT_D]),
            UNIT_M => (&[4, 30, 720], &[UNIT_W, UNIT_D, UNIT_H]),
            UNIT_W => (&[7, 168, 10080, 0], &[UNIT_D, UNIT_H, UNIT_MIN, UNIT_Y]),
            UNIT_D => (&[24, 1440, 86400], &[UNIT_H, UNIT_MIN, UNIT_S]),
            UNIT_H => (&[60, 3600], &[UNIT_MIN, UNIT_S]),
            UNIT_MIN => (&[60, 60000], &[UNIT_S, UNIT_MS]),
            UNIT_AS | UNIT_GENERIC => (&[], &[]),
            UNIT_FS => (&[1000], &[UNIT_AS]),
            b => (&[1000, 1_000_000], &[b + 1, b + 2]),
        };
        if den <= 0 {
            return None;
        }
        for (&t, &u) in tries.iter().zip(units) {
            if t % den == 0 {
                return Some((u, u64::from(self.num) * (t / den) as u64));
            }
        }
        None
    }
}
