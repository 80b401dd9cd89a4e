// SPDX-License-Identifier: MIT OR Apache-2.0
//! numpy dtype specs through the C API. The input is two specs split at the first NUL.
//! Each must parse or fail with PARSE / OUT_OF_MEMORY (never INTERNAL); what parses prints
//! a `str()` that parses again to a dtype that prints the same and that casts to and from
//! the first at level "no" or "equiv" (numpy's answer for equal dtypes), except a structured or subarray dtype, whose
//! `str()` is a Python repr (`[('f0', '<i4')]`, `('<i4', (2,))`, `StringDType()`) that
//! numpy's parser refuses, as tensorcast's must. Then casting_level, can_cast at every level and
//! promote_types of the pair under numpy 1 and numpy 2 rules answer with a documented
//! status, and can_cast agrees with casting_level. All of it within a time linear in the
//! input's length (a generous constant per byte, for the sanitizer and a busy machine).
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::ffi::CString;
use std::ptr;
use std::time::{Duration, Instant};
use tensorcast::ffi::{
    tcast_error, tcast_np_can_cast, tcast_np_casting_level, tcast_np_dtype, tcast_np_dtype_free,
    tcast_np_dtype_parse, tcast_np_dtype_str, tcast_np_promote_types,
};
use tensorcast::Status;

const OK: i32 = Status::Ok.code();
const NEVER: i32 = 5;

fn blank() -> tcast_error {
    tcast_error {
        status: -1,
        index: -1,
        message: [0; tensorcast::ffi::TCAST_ERROR_MESSAGE_BYTES],
    }
}

fn message(err: &tcast_error) -> String {
    let bytes: Vec<u8> = err
        .message
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A parsed handle, freed on drop.
struct Handle(*mut tcast_np_dtype);

impl Drop for Handle {
    fn drop(&mut self) {
        tcast_np_dtype_free(self.0);
    }
}

fn parse(spec: &CString) -> Option<Handle> {
    let mut out = ptr::null_mut();
    let mut err = blank();
    let status = tcast_np_dtype_parse(spec.as_ptr(), &mut out, &mut err);
    let allowed = [OK, Status::Parse.code(), Status::OutOfMemory.code()];
    assert!(
        allowed.contains(&status),
        "parse {spec:?}: status {status}: {}",
        message(&err)
    );
    (status == OK).then(|| Handle(out))
}

fn text_of(h: &Handle) -> CString {
    let mut needed = 0u64;
    let mut err = blank();
    let status = tcast_np_dtype_str(h.0, ptr::null_mut(), 0, &mut needed, &mut err);
    assert_eq!(status, OK, "sizing str(): {}", message(&err));
    let mut buf = vec![0u8; needed as usize];
    let status = tcast_np_dtype_str(
        h.0,
        buf.as_mut_ptr().cast(),
        needed,
        ptr::null_mut(),
        &mut err,
    );
    assert_eq!(status, OK, "str(): {}", message(&err));
    assert_eq!(buf.pop(), Some(0), "str() ends with its NUL");
    CString::new(buf).expect("str() has no NUL inside")
}

fn level(a: &Handle, b: &Handle, rules: i32) -> Option<i32> {
    let mut level = -1;
    let mut err = blank();
    let status = tcast_np_casting_level(a.0, b.0, rules, &mut level, &mut err);
    // A spelling one rule set does not know is PARSE there.
    assert!(
        status == OK || status == Status::Parse.code(),
        "casting_level: status {status}: {}",
        message(&err)
    );
    (status == OK).then_some(level)
}

fn check(a: &[u8], b: &[u8]) {
    let (Ok(a), Ok(b)) = (CString::new(a), CString::new(b)) else {
        return;
    };
    let (Some(ha), hb) = (parse(&a), parse(&b)) else {
        return;
    };
    // str() is a fixed point: it parses again to an equal dtype that prints the same.
    let text = text_of(&ha);
    let repr =
        matches!(text.as_bytes().first(), Some(b'[' | b'(')) || text.as_bytes().ends_with(b")");
    let again = parse(&text);
    if repr {
        assert!(
            again.is_none(),
            "str() of {a:?} is the repr {text:?}, which numpy refuses"
        );
    }
    let Some(again) = again.or_else(|| repr.then_some(Handle(ptr::null_mut()))) else {
        panic!("str() of {a:?} is {text:?}, which does not parse");
    };
    if again.0.is_null() {
        return;
    }
    assert_eq!(text_of(&again), text, "str(parse(str(parse({a:?}))))");
    // Under a rule set that knows the spelling (numpy 2 refuses numpy 1's aliases).
    let equal = |x: &Handle, y: &Handle| level(x, y, 2).or_else(|| level(x, y, 1));
    // "no" or "equiv": numpy itself answers equiv for a few equal dtypes (np.dtype('>U')
    // to '>U0', which compare ==); the identical str() above is the rest of the equality.
    let there = equal(&ha, &again);
    let back = equal(&again, &ha);
    assert!(
        matches!(there, Some(0 | 1)),
        "{a:?} -> its str() {text:?}: level {there:?}"
    );
    assert!(
        matches!(back, Some(0 | 1)),
        "{text:?} -> {a:?}: level {back:?}"
    );

    let Some(hb) = hb else {
        return;
    };
    for rules in [1, 2] {
        let Some(lvl) = level(&ha, &hb, rules) else {
            continue;
        };
        assert!((0..=NEVER).contains(&lvl), "level {lvl}");
        for casting in 0..=4 {
            let mut result = -1;
            let mut err = blank();
            let status = tcast_np_can_cast(ha.0, hb.0, casting, rules, &mut result, &mut err);
            assert_eq!(status, OK, "can_cast: {}", message(&err));
            assert_eq!(
                result,
                i32::from(lvl <= casting),
                "can_cast at {casting} vs level {lvl}"
            );
        }
    }
    let mut needed = 0u64;
    let mut err = blank();
    let status = tcast_np_promote_types(
        a.as_ptr(),
        b.as_ptr(),
        ptr::null_mut(),
        0,
        &mut needed,
        &mut err,
    );
    let allowed = [
        OK,
        Status::Parse.code(),
        Status::Unsupported.code(),
        Status::OutOfMemory.code(),
    ];
    assert!(
        allowed.contains(&status),
        "promote_types: status {status}: {}",
        message(&err)
    );
}

fuzz_target!(|data: &[u8]| {
    let (a, b) = match data.iter().position(|&c| c == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &b"i4"[..]),
    };
    let start = Instant::now();
    check(a, b);
    let budget = Duration::from_millis(200) + Duration::from_micros(200) * data.len() as u32;
    let took = start.elapsed();
    assert!(
        took <= budget,
        "{} bytes took {took:?}, over the linear budget {budget:?}",
        data.len()
    );
});
