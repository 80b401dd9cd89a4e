// SPDX-License-Identifier: MIT OR Apache-2.0
//! numpy's dtype grammar: `numpy.dtype(str)` parsed into an [`NpDtype`] as numpy 1
//! (1.22) and numpy 2 read it (docs/semantics-can-cast.md section 6): byte orders, type
//! codes and numbers, kind+size, names, datetime metadata, and the comma form (structs,
//! subarrays, repeats).

use super::super::rules::NumpyRules as Rules;
use super::model::{packed_struct, parse_error, subarray, Kind, NpDtype, Order, CODES, C_INT_MAX};
use super::printer::{py_repr, quoted_part};
use super::units::{Unit, UNIT_GENERIC, UNIT_NAMES};
use crate::error::Error;
use std::borrow::Cow;
use std::fmt::Write;

/// A parsed spec: numpy 2's reading of it, and what numpy 1 makes of it when that differs.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed {
    /// numpy 2's reading of the spec.
    pub dtype: NpDtype,
    /// numpy 1's reading when it differs from numpy 2's (`'f8,'` is f8 there).
    pub np1: Option<NpDtype>,
    /// Under these rules the spec is refused, with this message.
    pub refused: Option<(Rules, String)>,
}

impl Parsed {
    /// The dtype these rules make of the spec, or numpy's refusal.
    pub fn under(&self, rules: Rules) -> Result<&NpDtype, Error> {
        if let Some((refused, message)) = &self.refused {
            if *refused == rules {
                return Err(parse_error(message.clone()));
            }
        }
        Ok(match (rules, &self.np1) {
            (Rules::Numpy1, Some(d)) => d,
            _ => &self.dtype,
        })
    }
}

/// Which numpy versions accept a spelling.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Era {
    Both,
    /// Removed in numpy 2.0 with "Alias 'X' was removed ..." (a name ending in a digit).
    OneAlias,
    /// Removed in numpy 2.0: "data type 'X' not understood".
    One,
    /// Added after 1.22 (`ulong`, `T`, `n`, `N`).
    Two,
}

/// The type names numpy looks up when a spec is neither a code nor kind+size.
const NAMES: &[(&str, u8, Era)] = &[
    ("bool", b'?', Era::Both),
    ("bool_", b'?', Era::Both),
    ("bool8", b'?', Era::OneAlias),
    ("int8", b'b', Era::Both),
    ("int16", b'h', Era::Both),
    ("int32", b'i', Era::Both),
    ("int64", b'l', Era::Both),
    ("uint8", b'B', Era::Both),
    ("uint16", b'H', Era::Both),
    ("uint32", b'I', Era::Both),
    ("uint64", b'L', Era::Both),
    ("float16", b'e', Era::Both),
    ("float32", b'f', Era::Both),
    ("float64", b'd', Era::Both),
    ("float128", b'g', Era::Both),
    ("complex64", b'F', Era::Both),
    ("complex128", b'D', Era::Both),
    ("complex256", b'G', Era::Both),
    ("half", b'e', Era::Both),
    ("single", b'f', Era::Both),
    ("double", b'd', Era::Both),
    ("longdouble", b'g', Era::Both),
    ("longfloat", b'g', Era::One),
    ("float_", b'd', Era::One),
    ("csingle", b'F', Era::Both),
    ("singlecomplex", b'F', Era::One),
    ("cdouble", b'D', Era::Both),
    ("cfloat", b'D', Era::One),
    ("complex_", b'D', Era::One),
    ("clongdouble", b'G', Era::Both),
    ("clongfloat", b'G', Era::One),
    ("longcomplex", b'G', Era::One),
    ("byte", b'b', Era::Both),
    ("ubyte", b'B', Era::Both),
    ("short", b'h', Era::Both),
    ("ushort", b'H', Era::Both),
    ("intc", b'i', Era::Both),
    ("uintc", b'I', Era::Both),
    ("int_", b'l', Era::Both),
    ("uint", b'L', Era::Both),
    ("long", b'l', Era::Both),
    ("ulong", b'L', Era::Two),
    ("longlong", b'q', Era::Both),
    ("ulonglong", b'Q', Era::Both),
    ("intp", b'l', Era::Both),
    ("uintp", b'L', Era::Both),
    ("int0", b'l', Era::OneAlias),
    ("uint0", b'L', Era::OneAlias),
    ("int", b'l', Era::Both),
    ("float", b'd', Era::Both),
    ("complex", b'D', Era::Both),
    ("object", b'O', Era::Both),
    ("object_", b'O', Era::Both),
    ("object0", b'O', Era::OneAlias),
    ("str", b'U', Era::Both),
    ("str_", b'U', Era::Both),
    ("str0", b'U', Era::OneAlias),
    ("unicode", b'U', Era::Both),
    ("unicode_", b'U', Era::One),
    ("bytes", b'S', Era::Both),
    ("bytes_", b'S', Era::Both),
    ("bytes0", b'S', Era::OneAlias),
    ("string_", b'S', Era::One),
    ("void", b'V', Era::Both),
    ("void0", b'V', Era::OneAlias),
];

fn not_understood(spec: &str) -> Error {
    parse_error(format!("data type {} not understood", py_repr(spec)))
}

fn alias_removed(name: &str) -> String {
    format!(
        "Alias {} was removed in NumPy 2.0. Use a name without a digit at the end.",
        py_repr(name)
    )
}

/// Parses a numpy dtype spec as `numpy.dtype(spec)` does, accepting what either numpy 1
/// (1.22) or numpy 2 accepts; [`Parsed::under`] applies one version's refusals.
pub fn parse(spec: &str) -> Result<Parsed, Error> {
    let bytes = spec.as_bytes();
    if bytes.is_empty() {
        return Err(not_understood(spec));
    }
    if is_comma_form(bytes) {
        return parse_comma(spec);
    }
    let (dtype, era) = parse_simple(spec)?;
    let refused = match era {
        Era::Both => None,
        Era::OneAlias => Some((Rules::Numpy2, alias_removed(spec))),
        Era::One => Some((
            Rules::Numpy2,
            format!("data type {} not understood", py_repr(spec)),
        )),
        Era::Two => Some((
            Rules::Numpy1,
            format!("data type {} not understood", py_repr(spec)),
        )),
    };
    Ok(Parsed {
        dtype,
        np1: None,
        refused,
    })
}

fn is_order(b: u8) -> bool {
    matches!(b, b'<' | b'>' | b'=' | b'|')
}

/// numpy's test for the comma (struct / repeat) form.
fn is_comma_form(b: &[u8]) -> bool {
    if b[0].is_ascii_digit() || (b.len() > 1 && is_order(b[0]) && b[1].is_ascii_digit()) {
        return true;
    }
    if (b.len() > 1 && b[0] == b'(' && b[1] == b')')
        || (b.len() > 3 && is_order(b[0]) && b[1] == b'(' && b[2] == b')')
    {
        return true;
    }
    let mut depth = 0i64;
    for &c in b {
        match c {
            b',' if depth == 0 => return true,
            b'[' => depth += 1,
            b']' => depth -= 1,
            _ => {}
        }
    }
    false
}

/// C's `strtol` on a decimal: leading whitespace, a sign, digits. Returns the value (or
/// None when it overflows a 64-bit long) and the bytes consumed (0 when nothing parsed).
fn strtol(b: &[u8]) -> (Option<i64>, usize) {
    let mut i = 0;
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c') {
        i += 1;
    }
    let mut negative = false;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        negative = b[i] == b'-';
        i += 1;
    }
    let start = i;
    let mut value: Option<i64> = Some(0);
    while i < b.len() && b[i].is_ascii_digit() {
        let digit = i64::from(b[i] - b'0');
        value = value
            .and_then(|v| v.checked_mul(10))
            .and_then(|v| v.checked_add(digit));
        i += 1;
    }
    if i == start {
        return (Some(0), 0);
    }
    (value.map(|v| if negative { -v } else { v }), i)
}

/// A spec without commas: optional byte order, then a datetime form, a code, kind+size
/// or a name.
fn parse_simple(spec: &str) -> Result<(NpDtype, Era), Error> {
    let all = spec.as_bytes();
    let (order, body) = match all.first() {
        Some(b'<') => (Order::Little, &all[1..]),
        Some(b'>') => (Order::Big, &all[1..]),
        Some(b'=') | Some(b'|') => (Order::None, &all[1..]),
        _ => (Order::None, all),
    };
    if body.is_empty() {
        return Err(not_understood(spec));
    }
    if is_datetime_form(body) {
        let (kind, unit) = parse_datetime(body)?;
        return Ok((NpDtype::time(kind, unit, order), Era::Both));
    }
    if body.len() == 1 {
        let prefixed = body.len() < all.len();
        if let Some(found) = one_character(body[0], order, prefixed) {
            return Ok(found);
        }
    } else if let Some(d) = parse_kind_size(spec, body, order)? {
        return Ok((d, Era::Both));
    }
    // A name: numpy looks up the whole original spec, byte-order prefix included.
    match NAMES.iter().find(|(name, _, _)| *name == spec) {
        Some(&(_, c, era)) => Ok((
            NpDtype::from_code(c, Order::None).expect("NAMES use valid codes"),
            era,
        )),
        None => Err(not_understood(spec)),
    }
}

/// The codes of numpy's type numbers 0..=23 (`NPY_BOOL` .. `NPY_HALF`): a one-character
/// spec below 24 is read as a type number (`'\x05'` is int32, `'\t'` int64 as `q`).
const TYPE_NUMBERS: &[u8; 24] = b"?bBhHiIlLqQfdgFDGOSUVMme";

/// numpy's `NPY_CHAR` (26), a type number numpy 2 removed: `S1` with the char `c`.
const NUMPY1_CHAR: u8 = 26;

/// A one-character spec after an optional byte order (`prefixed`): a type code, an alias
/// code (`p`, `n`, `a`, `c`) or a type number, and which numpy versions accept it.
/// numpy 2 knows `'a'` only as a (deprecated) name, so not after a byte order.
fn one_character(c: u8, order: Order, prefixed: bool) -> Option<(NpDtype, Era)> {
    let s1_c = || {
        let mut d = NpDtype::flexible(Kind::Bytes, 1, order);
        d.code = b'c';
        d
    };
    let (code, era) = match c {
        b'c' => return Some((s1_c(), Era::Both)),
        NUMPY1_CHAR => return Some((s1_c(), Era::One)),
        b'a' => {
            let era = if prefixed { Era::One } else { Era::Both };
            return Some((NpDtype::flexible(Kind::Bytes, 0, order), era));
        }
        0..=23 => (TYPE_NUMBERS[usize::from(c)], Era::Both),
        b'p' => (b'l', Era::Both),
        b'P' => (b'L', Era::Both),
        b'n' => (b'l', Era::Two),
        b'N' => (b'L', Era::Two),
        b'T' => (b'T', Era::Two),
        _ => (c, Era::Both),
    };
    NpDtype::from_code(code, order).map(|d| (d, era))
}

/// `i4`, `f8`, `S10`, `U3`, `V8`, `c16`, `b1`, `O8`: Some(dtype), None to try names, or an
/// error for sizes numpy refuses outright.
fn parse_kind_size(spec: &str, body: &[u8], order: Order) -> Result<Option<NpDtype>, Error> {
    let (value, used) = strtol(&body[1..]);
    if used == 0 || 1 + used != body.len() {
        return Ok(None);
    }
    let size = match value {
        Some(v) if (0..=i64::from(i32::MAX)).contains(&v) => v as u64,
        _ => return Err(not_understood(spec)),
    };
    let kind = body[0];
    let d = match kind {
        b'S' | b'a' => NpDtype::flexible(Kind::Bytes, size, order),
        b'U' => {
            if size * 4 > i32::MAX as u64 {
                return Err(not_understood(spec));
            }
            NpDtype::flexible(Kind::Str, size * 4, order)
        }
        b'V' => NpDtype::flexible(Kind::Void, size, order),
        b'O' if size == 4 || size == 8 => NpDtype::from_code(b'O', order).expect("O in CODES"),
        _ if size == 0 => return Ok(None),
        _ => {
            let wanted = match kind {
                b'b' => Kind::Bool,
                b'i' => Kind::Int,
                b'u' => Kind::UInt,
                b'f' => Kind::Float,
                b'c' => Kind::Complex,
                b'M' => Kind::Datetime,
                b'm' => Kind::Timedelta,
                _ => return Ok(None),
            };
            match CODES
                .iter()
                .find(|e| e.kind == wanted && e.itemsize == size)
            {
                Some(e) => NpDtype::plain(e, order),
                None => return Ok(None),
            }
        }
    };
    Ok(Some(d))
}

fn is_datetime_form(b: &[u8]) -> bool {
    (b.len() >= 2 && b[1] == b'8' && (b[0] == b'M' || b[0] == b'm'))
        || b.starts_with(b"datetime64")
        || b.starts_with(b"timedelta64")
}

fn invalid_metadata(meta: &str, position: Option<usize>) -> Error {
    match position {
        Some(p) if p < meta.len() => parse_error(format!(
            "Invalid datetime metadata string \"{meta}\" at position {p}"
        )),
        _ => parse_error(format!("Invalid datetime metadata string \"{meta}\"")),
    }
}

/// `M8`, `m8[ns]`, `datetime64[10s]`, `timedelta64[D/24]`.
fn parse_datetime(b: &[u8]) -> Result<(Kind, Unit), Error> {
    let (kind, rest) = if b[1] == b'8' {
        let kind = if b[0] == b'M' {
            Kind::Datetime
        } else {
            Kind::Timedelta
        };
        (kind, &b[2..])
    } else if b.starts_with(b"datetime64") {
        (Kind::Datetime, &b[10..])
    } else {
        (Kind::Timedelta, &b[11..])
    };
    let meta = String::from_utf8_lossy(rest).into_owned();
    if rest.is_empty() {
        return Ok((kind, Unit::GENERIC));
    }
    if rest.len() < 3 {
        return Err(invalid_metadata(&meta, None));
    }
    if rest[0] != b'[' {
        return Err(invalid_metadata(&meta, Some(1)));
    }
    let close = match rest[1..].iter().position(|&c| c == b']') {
        Some(p) if p > 0 => p + 1,
        _ => return Err(invalid_metadata(&meta, None)),
    };
    let unit = parse_unit_text(&rest[1..close], &meta)?;
    if close + 1 != rest.len() {
        return Err(invalid_metadata(&meta, Some(close + 1)));
    }
    Ok((kind, unit))
}

/// The inside of `[...]`: an optional multiplier, the unit, an optional `/divisor`.
fn parse_unit_text(inner: &[u8], meta: &str) -> Result<Unit, Error> {
    let mut i = 0;
    let mut num: u64 = 1;
    let (value, used) = strtol(inner);
    if used > 0 {
        match value {
            Some(v) if (0..=i64::from(i32::MAX)).contains(&v) => num = v as u64,
            _ => return Err(invalid_metadata(meta, Some(1))),
        }
        i = used;
    }
    let unit_end = inner[i..]
        .iter()
        .position(|&c| c == b'/')
        .map_or(inner.len(), |p| i + p);
    if unit_end == i {
        return Err(invalid_metadata(meta, Some(1 + i)));
    }
    let unit_text = &inner[i..unit_end];
    let base = Unit::base_named(unit_text).ok_or_else(|| {
        parse_error(format!(
            "Invalid datetime unit in metadata string \"{meta}\""
        ))
    })?;
    let mut unit = Unit {
        base,
        num: num as u32,
    };
    if unit_end < inner.len() {
        let (den, used) = strtol(&inner[unit_end + 1..]);
        if used == 0 || unit_end + 1 + used != inner.len() {
            return Err(invalid_metadata(meta, Some(1 + unit_end + 1)));
        }
        let den = den.unwrap_or(0);
        if den != 1 {
            unit = divide_unit(unit, den, meta)?;
        }
    }
    if base == UNIT_GENERIC {
        unit.num = 1;
    }
    Ok(unit)
}

/// `[D/24]` -> `[h]`: the finer unit the divisor divides (`Unit::divided`), or numpy's
/// refusal.
fn divide_unit(unit: Unit, den: i64, meta: &str) -> Result<Unit, Error> {
    if unit.base == UNIT_GENERIC {
        return Err(parse_error(
            "Can't use 'den' divisor with generic units".to_string(),
        ));
    }
    let (base, num) = unit.divided(den).ok_or_else(|| {
        parse_error(format!(
            "divisor ({den}) is not a multiple of a lower-unit in datetime metadata \"{meta}\""
        ))
    })?;
    // numpy keeps the multiplier in a C int and lets this product wrap (it prints a
    // negative multiplier it cannot parse back); tensorcast refuses it.
    match u32::try_from(num) {
        Ok(fits) if num <= C_INT_MAX => Ok(Unit { base, num: fits }),
        _ => Err(parse_error(format!(
            "the datetime unit multiplier {num} {} that \"{meta}\" asks for does not fit \
             into a C int (at most {})",
            UNIT_NAMES[usize::from(base)],
            C_INT_MAX
        ))),
    }
}

/// One item of the comma form: byte order, repeat count or shape, byte order, dtype.
struct Item<'a> {
    /// The dtype text, with the item's byte order when that is not the host's (numpy
    /// drops `=`, `|` and the native one).
    dtype: Cow<'a, str>,
    repeats: Option<Repeat>,
}

fn format_not_recognized(n: usize, spec: &str) -> Error {
    let (shown, more) = quoted_part(spec);
    parse_error(format!(
        "format number {n} of \"{shown}{more}\" is not recognized"
    ))
}

/// What the comma form's allocations are for, in OUT_OF_MEMORY messages.
const COMMA_FORM: &str = "the fields of a comma-form numpy dtype";

/// Splits the comma form as numpy's `_commastring` does. Returns the items and whether a
/// separator was seen (numpy 2 makes a one-item list a struct).
fn split_items(spec: &str) -> Result<(Vec<Item<'_>>, bool), Error> {
    let b = spec.as_bytes();
    let mut items = Vec::new();
    let mut pos = 0;
    let mut is_list = false;
    while pos < b.len() {
        let n = items.len() + 1;
        let take = |pos: &mut usize, ok: &dyn Fn(u8) -> bool| {
            let start = *pos;
            while *pos < b.len() && ok(b[*pos]) {
                *pos += 1;
            }
            start
        };
        // order1
        let mut order1 = None;
        if pos < b.len() && is_order(b[pos]) {
            order1 = Some(b[pos]);
            pos += 1;
        }
        // repeats: ' *[(]?[ ,0-9]*[)]? *'
        let rstart = pos;
        take(&mut pos, &|c| c == b' ');
        if pos < b.len() && b[pos] == b'(' {
            pos += 1;
        }
        take(&mut pos, &|c| c == b' ' || c == b',' || c.is_ascii_digit());
        if pos < b.len() && b[pos] == b')' {
            pos += 1;
        }
        take(&mut pos, &|c| c == b' ');
        let repeats_text = &spec[rstart..pos];
        // order2
        let mut order2 = None;
        if pos < b.len() && is_order(b[pos]) {
            order2 = Some(b[pos]);
            pos += 1;
        }
        // dtype: '[A-Za-z0-9.?]*(?:\[[a-zA-Z0-9,.]+\])?'
        let dstart = take(&mut pos, &|c| {
            c.is_ascii_alphanumeric() || c == b'.' || c == b'?'
        });
        if pos < b.len() && b[pos] == b'[' {
            let mut q = pos + 1;
            while q < b.len() && (b[q].is_ascii_alphanumeric() || b[q] == b',' || b[q] == b'.') {
                q += 1;
            }
            if q > pos + 1 && q < b.len() && b[q] == b']' {
                pos = q + 1;
            }
        }
        let dtype_text = &spec[dstart..pos];
        // separator (`\s*,\s*`) or trailing spaces (`\s+$`)
        if pos < b.len() {
            let q = skip_python_space(spec, pos);
            if q == b.len() {
                pos = q;
            } else if b[q] == b',' {
                pos = skip_python_space(spec, q + 1);
                is_list = true;
            } else {
                return Err(format_not_recognized(n, spec));
            }
        }
        // `=` is the host's order, the one numpy leaves unwritten (`_nbo`).
        let native = Order::NATIVE.prefix().as_bytes()[0];
        let canon = |o: Option<u8>| match o {
            Some(b'=') => Some(native),
            other => other,
        };
        let order = match (order1, order2) {
            (o, None) | (None, o) => o,
            (Some(a), Some(c)) => {
                if canon(Some(a)) != canon(Some(c)) {
                    return Err(parse_error(format!(
                        "inconsistent byte-order specification {} and {}",
                        a as char, c as char
                    )));
                }
                Some(a)
            }
        };
        let prefix = match order {
            Some(o @ (b'<' | b'>')) if o != native => Order::SWAPPED.prefix(),
            _ => "",
        };
        let repeats = if repeats_text.is_empty() {
            None
        } else {
            Some(literal_repeat(repeats_text)?)
        };
        let dtype = if prefix.is_empty() {
            Cow::Borrowed(dtype_text)
        } else {
            let mut owned = crate::mem::string(prefix, COMMA_FORM)?;
            crate::mem::push_str(&mut owned, dtype_text, COMMA_FORM)?;
            Cow::Owned(owned)
        };
        crate::mem::push(&mut items, Item { dtype, repeats }, COMMA_FORM)?;
    }
    Ok((items, is_list))
}

/// What Python's `ast.literal_eval` makes of a repeat spec. Numbers saturate at
/// `u64::MAX`: numpy's limits (a C int, a 64-bit intp) lie far below.
#[derive(Clone, Debug, PartialEq)]
enum Repeat {
    /// A bare number: `2`, `(2)`.
    Int(u64),
    /// A tuple: `(2,3)`, `(2,)`, `()`, `2,3`.
    Tuple(Vec<u64>),
}

/// The byte offset in `spec` after the characters from `pos` that Python's regex `\s`
/// matches (`str.isspace()`: Unicode's white space and the separators `\x1c`..`\x1f`).
fn skip_python_space(spec: &str, pos: usize) -> usize {
    spec[pos..]
        .char_indices()
        .find(|&(_, c)| !(c.is_whitespace() || ('\x1c'..='\x1f').contains(&c)))
        .map_or(spec.len(), |(i, _)| pos + i)
}

/// Python's `ast.literal_eval` on a repeat spec: `2`, `(2,3)`, `(2,)`, `(2)`, `()`.
fn literal_repeat(text: &str) -> Result<Repeat, Error> {
    let syntax = || parse_error("invalid syntax (<unknown>, line 1)".to_string());
    let t = text.trim_matches(' ');
    let (inner, parens) = if let Some(rest) = t.strip_prefix('(') {
        (rest.strip_suffix(')').ok_or_else(syntax)?, true)
    } else {
        (t, false)
    };
    // a comma after the last number makes a tuple (`(2,)`); `()` is the empty one
    let (list, trailing_comma) = match inner.trim_end_matches(' ').strip_suffix(',') {
        Some(list) => (list, true),
        None => (inner, false),
    };
    if parens && !trailing_comma && list.trim_matches(' ').is_empty() {
        return Ok(Repeat::Tuple(Vec::new()));
    }
    let mut dims =
        crate::mem::vec_with_capacity(list.bytes().filter(|&c| c == b',').count() + 1, COMMA_FORM)?;
    for p in list.split(',').map(|p| p.trim_matches(' ')) {
        if p.is_empty() || !p.bytes().all(|c| c.is_ascii_digit()) {
            return Err(syntax());
        }
        if p.len() > 1 && p.starts_with('0') && p.bytes().any(|c| c != b'0') {
            return Err(syntax());
        }
        dims.push(p.bytes().fold(0u64, |v, c| {
            v.saturating_mul(10).saturating_add(u64::from(c - b'0'))
        }));
    }
    match dims.as_slice() {
        // `2,3` without parentheses is a tuple too
        [n] if !trailing_comma => Ok(Repeat::Int(*n)),
        _ => Ok(Repeat::Tuple(dims)),
    }
}

/// numpy's refusals of a spec: the first message each numpy raises for it.
#[derive(Default)]
struct Refusals {
    numpy1: Option<String>,
    numpy2: Option<String>,
}

impl Refusals {
    /// Records a refusal, keeping each numpy's first.
    fn add(&mut self, refusal: Option<(Rules, String)>) {
        if let Some((rules, message)) = refusal {
            let slot = match rules {
                Rules::Numpy1 => &mut self.numpy1,
                Rules::Numpy2 => &mut self.numpy2,
            };
            slot.get_or_insert(message);
        }
    }

    /// An error raised after these refusals: numpy 2 raised its refusal first.
    fn first_error(&self, later: Error) -> Error {
        match &self.numpy2 {
            Some(message) => parse_error(message.clone()),
            None => later,
        }
    }

    /// The refusal of a spec that one numpy accepts; refused by both, the spec is an
    /// error with numpy 2's message.
    fn single(self) -> Result<Option<(Rules, String)>, Error> {
        match (self.numpy1, self.numpy2) {
            (Some(_), Some(two)) => Err(parse_error(two)),
            (Some(one), None) => Ok(Some((Rules::Numpy1, one))),
            (None, Some(two)) => Ok(Some((Rules::Numpy2, two))),
            (None, None) => Ok(None),
        }
    }
}

/// One comma-form item read by numpy 2, numpy 1's reading when that differs, and the
/// item's refusals.
struct BuiltItem {
    numpy2: NpDtype,
    numpy1: Option<NpDtype>,
    refused: Refusals,
}

/// numpy's limit on subarray dimensions (`NPY_MAXDIMS`): 32 in numpy 1, 64 in numpy 2.
const NUMPY1_MAX_DIMS: usize = 32;
const NUMPY2_MAX_DIMS: usize = 64;

/// One comma-form item, as numpy's `(dtype, repeats)` tuple: a repeat count before an
/// unsized S/U/V is its size (`'8S'` is `S8`), anything else is a subarray shape. numpy 1
/// reads a bare count of 1 (`'1i4'`) as no repeat.
fn build_item(item: Item<'_>) -> Result<BuiltItem, Error> {
    let parsed = parse(&item.dtype)?;
    if parsed.np1.is_some() {
        // a nested comma form cannot come out of the item grammar
        return Err(not_understood(&item.dtype));
    }
    let mut refused = Refusals::default();
    refused.add(parsed.refused);
    let base = parsed.dtype;
    let Some(repeats) = item.repeats else {
        return Ok(BuiltItem {
            numpy2: base,
            numpy1: None,
            refused,
        });
    };
    // numpy converts the item's dtype before it looks at the repeats
    let shaped = if base.is_unsized() {
        generic_size(&base, &repeats).map(|d| (d, None))
    } else {
        repeated(base, repeats, &mut refused)
    };
    let (numpy2, numpy1) = shaped.map_err(|e| refused.first_error(e))?;
    Ok(BuiltItem {
        numpy2,
        numpy1,
        refused,
    })
}

/// numpy's generic type tuple `('S', 8)`: the unsized flexible `base` with the item size
/// `repeats` (characters for U), which must be a number that fits a C int.
fn generic_size(base: &NpDtype, repeats: &Repeat) -> Result<NpDtype, Error> {
    let limit = if base.kind == Kind::Str {
        C_INT_MAX / 4
    } else {
        C_INT_MAX
    };
    match *repeats {
        Repeat::Int(n) if n <= limit => {
            let size = if base.kind == Kind::Str { n * 4 } else { n };
            Ok(NpDtype::flexible(base.kind, size, base.order))
        }
        _ => Err(parse_error(
            "invalid itemsize in generic type tuple".to_string(),
        )),
    }
}

/// numpy's fixed-type tuple `('i4', (2, 3))`: numpy 2's subarray and numpy 1's reading
/// when it differs. Refusals numpy 1 alone makes go to `refused`.
fn repeated(
    base: NpDtype,
    repeats: Repeat,
    refused: &mut Refusals,
) -> Result<(NpDtype, Option<NpDtype>), Error> {
    // numpy 1 reads a bare count of 1 as no repeat
    let numpy1 = (repeats == Repeat::Int(1)).then(|| base.clone());
    let dims = match repeats {
        Repeat::Int(n) => crate::mem::copy_of(&[n], COMMA_FORM)?,
        Repeat::Tuple(dims) if dims.is_empty() => return Ok((base, None)),
        Repeat::Tuple(dims) => dims,
    };
    // what numpy's conversion of the shape to intps refuses
    if dims.len() > NUMPY2_MAX_DIMS || dims.iter().any(|&d| d > i64::MAX as u64) {
        return Err(parse_error(
            "invalid shape in fixed-type tuple.".to_string(),
        ));
    }
    if dims.len() > NUMPY1_MAX_DIMS {
        refused.add(Some((
            Rules::Numpy1,
            "invalid shape in fixed-type tuple.".to_string(),
        )));
    }
    Ok((subarray(base, dims)?, numpy1))
}

/// The comma form's struct: fields f0, f1, ... packed. numpy does not check the total
/// size and wraps it through a C int; tensorcast refuses a size beyond one.
fn structured(members: Vec<NpDtype>) -> Result<NpDtype, Error> {
    let mut named = crate::mem::vec_with_capacity(members.len(), COMMA_FORM)?;
    for (i, d) in members.into_iter().enumerate() {
        let mut name = crate::mem::string("f", COMMA_FORM)?;
        name.try_reserve(20).map_err(|_| Error::OutOfMemory {
            what: COMMA_FORM,
            bytes: 20,
        })?;
        // a u64's digits fit the 20 bytes reserved: no allocation here
        let _ = write!(name, "{i}");
        named.push((name, d));
    }
    let d = packed_struct(named)?;
    if d.itemsize > C_INT_MAX {
        return Err(parse_error(
            "dtype size in bytes must fit into a C int.".to_string(),
        ));
    }
    Ok(d)
}

fn parse_comma(spec: &str) -> Result<Parsed, Error> {
    let (items, is_list) = split_items(spec)?;
    let mut two = crate::mem::vec_with_capacity(items.len(), COMMA_FORM)?;
    // the items numpy 1 reads differently, by position
    let mut one_differs = Vec::new();
    let mut refused = Refusals::default();
    for (i, item) in items.into_iter().enumerate() {
        // numpy 2 stops at the first item it refuses
        let built = build_item(item).map_err(|e| refused.first_error(e))?;
        if let Some(d) = built.numpy1 {
            crate::mem::push(&mut one_differs, (i, d), COMMA_FORM)?;
        }
        refused.add(built.refused.numpy1.map(|m| (Rules::Numpy1, m)));
        refused.add(built.refused.numpy2.map(|m| (Rules::Numpy2, m)));
        two.push(built.numpy2);
    }
    // numpy 2 makes a one-item list with a separator ('f8,') a struct, numpy 1 does not
    let single = two.len() == 1;
    let np1 = if one_differs.is_empty() && !(single && is_list) {
        None
    } else {
        let mut one = crate::mem::vec_with_capacity(two.len(), COMMA_FORM)?;
        for d in &two {
            one.push(d.try_clone()?);
        }
        for (i, d) in one_differs {
            one[i] = d;
        }
        match one.pop() {
            Some(d) if single => Some(d),
            popped => {
                one.extend(popped);
                Some(structured(one).map_err(|e| refused.first_error(e))?)
            }
        }
    };
    let dtype = match two.pop() {
        Some(d) if single && !is_list => d,
        popped => {
            two.extend(popped);
            structured(two).map_err(|e| refused.first_error(e))?
        }
    };
    Ok(Parsed {
        dtype,
        np1,
        refused: refused.single()?,
    })
}
