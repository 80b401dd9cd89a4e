// SPDX-License-Identifier: MIT OR Apache-2.0
//! Overlapping buffers, for every export family that writes a tensor or an arena: the
//! call fails with INVALID_ARGUMENT naming both buffers and leaves every byte alone, and
//! (run under Miri, scripts/test.sh --only miri) makes no `&mut [u8]` over bytes another
//! slice of the call covers, since the overlap is checked on the raw byte ranges before
//! any view of the caller's memory exists. The tensors are small, for Miri.

use super::cast::{tcast_cast, tcast_cast_sub_byte};
use super::expand::tcast_expand;
use super::guard::test_support::{blank_error, message};
use super::mx::{tcast_mx_dequantize, tcast_mx_quantize, tcast_mx_repack};
use super::plan::{tcast_cast_plan_create, tcast_cast_plan_free, tcast_cast_plan_run};
use super::quant::{tcast_dequantize_linear, tcast_quantize_linear};
use super::strings::tcast_cast_to_strings;
use super::types::{tcast_error, tcast_string_arena, tcast_tensor};
use crate::dtype::DType;
use crate::error::Status;
use std::ptr::null;

/// The bytes every call of a test works in: tensors are placed at offsets in one buffer,
/// so that they overlap or not as the test says.
const ARENA_WORDS: usize = 64;

/// A descriptor of `bytes` bytes at `base + at`.
fn at(base: *mut u8, at: usize, bytes: u64, dtype: DType, shape: &'static [i64]) -> tcast_tensor {
    tcast_tensor {
        // Within the test's buffer (`at + bytes` <= its size, checked by `place`).
        data: base.wrapping_add(at).cast(),
        data_bytes: bytes,
        shape: shape.as_ptr(),
        strides: null(),
        ndim: shape.len() as i32,
        dtype: dtype.code(),
    }
}

/// Runs `call` on a fresh buffer of patterned bytes (its base pointer given), and returns
/// the status, the message and whether any byte changed.
fn run(call: impl FnOnce(*mut u8, &mut tcast_error) -> i32) -> (i32, String, bool) {
    let mut words = [0u64; ARENA_WORDS];
    for (i, w) in words.iter_mut().enumerate() {
        // Small positive FLOATs in each half word's low bits, other bytes elsewhere.
        *w = (i as u64 + 1) * 0x0101_0101_3F80_0000;
    }
    let before = words;
    let mut err = blank_error();
    // One raw pointer for every descriptor, derived once (all of the buffer).
    let base = words.as_mut_ptr().cast::<u8>();
    let status = call(base, &mut err);
    (status, message(&err), words != before)
}

/// The call failed with INVALID_ARGUMENT saying that `second` overlaps `first`, and wrote
/// nothing.
#[track_caller]
fn refused(outcome: (i32, String, bool), first: &str, second: &str) {
    let (status, text, changed) = outcome;
    assert_eq!(status, Status::InvalidArgument.code(), "{text}");
    let wanted = format!("the {second} overlaps the {first} (");
    assert!(
        text.starts_with(&wanted),
        "{text:?} does not start with {wanted:?}"
    );
    assert!(!changed, "a refused call wrote to the buffers");
}

/// The call succeeded.
#[track_caller]
fn accepted(outcome: (i32, String, bool)) {
    assert_eq!(outcome.0, Status::Ok.code(), "{}", outcome.1);
}

const V4: &[i64] = &[4];
const V16: &[i64] = &[16];
const V32: &[i64] = &[32];
const ONE: &[i64] = &[1];
const SCALAR: &[i64] = &[];
const NB_16: &[i64] = &[1, 16];

#[test]
fn quantize_and_dequantize_linear() {
    // x FLOAT [4] at 0..16, scale FLOAT [] at 64, zero_point UINT8 [] at 96, y UINT8 [4].
    let q = |y_at: usize, zero_at: usize| {
        run(|b, err| {
            let x = at(b, 0, 16, DType::Float, V4);
            let scale = at(b, 64, 4, DType::Float, SCALAR);
            let zero = at(b, zero_at, 1, DType::Uint8, SCALAR);
            let y = at(b, y_at, 4, DType::Uint8, V4);
            tcast_quantize_linear(&x, &scale, &zero, &y, null(), err)
        })
    };
    accepted(q(128, 96));
    refused(q(12, 96), "x buffer", "y buffer");
    refused(q(62, 96), "scale buffer", "y buffer");
    refused(q(95, 96), "zero_point buffer", "y buffer");
    // Inputs may share bytes: the zero point inside x is read only.
    accepted(q(128, 3));

    // x UINT8 [4] at 0, scale FLOAT [] at 64, y FLOAT [4].
    let dq = |y_at: usize| {
        run(|b, err| {
            let x = at(b, 0, 4, DType::Uint8, V4);
            let scale = at(b, 64, 4, DType::Float, SCALAR);
            let y = at(b, y_at, 16, DType::Float, V4);
            tcast_dequantize_linear(&x, &scale, null(), &y, null(), err)
        })
    };
    accepted(dq(128));
    refused(dq(0), "x buffer", "y buffer");
    refused(dq(50), "scale buffer", "y buffer");
}

#[test]
fn mx_quantize() {
    // MXFP8: x FLOAT [32] at 0..128, y FLOAT8E4M3FN [32], scale FLOAT8E8M0 [1].
    let mx = |y_at: usize, scale_at: usize| {
        run(|b, err| {
            let x = at(b, 0, 128, DType::Float, V32);
            let y = at(b, y_at, 32, DType::Float8E4M3Fn, V32);
            let scale = at(b, scale_at, 1, DType::Float8E8M0, ONE);
            tcast_mx_quantize(&x, &y, &scale, null(), null(), err)
        })
    };
    accepted(mx(128, 160));
    refused(mx(100, 160), "x buffer", "y buffer");
    refused(mx(128, 127), "x buffer", "scale buffer");
    refused(mx(128, 159), "y buffer", "scale buffer");

    // NVFP4: x FLOAT [16] at 0..64, y FLOAT4E2M1 [16] (8 bytes), scale FLOAT8E4M3FN [1],
    // global_scale FLOAT [].
    let nv = |global_at: usize| {
        run(|b, err| {
            let x = at(b, 0, 64, DType::Float, V16);
            let y = at(b, 64, 8, DType::Float4E2M1, V16);
            let scale = at(b, 72, 1, DType::Float8E4M3Fn, ONE);
            let global = at(b, global_at, 4, DType::Float, SCALAR);
            tcast_mx_quantize(&x, &y, &scale, &global, null(), err)
        })
    };
    accepted(nv(76));
    refused(nv(60), "x buffer", "global_scale buffer");
    refused(nv(70), "y buffer", "global_scale buffer");
    refused(nv(72), "scale buffer", "global_scale buffer");
}

#[test]
fn mx_dequantize() {
    // x FLOAT8E4M3FN [32] at 0..32, scale FLOAT8E8M0 [1] at 32, y FLOAT [32].
    let dq = |y_at: usize, global: bool| {
        run(|b, err| {
            let x = at(b, 0, 32, DType::Float8E4M3Fn, V32);
            let scale = at(b, 32, 1, DType::Float8E8M0, ONE);
            let g = at(b, 36, 4, DType::Float, SCALAR);
            let y = at(b, y_at, 128, DType::Float, V32);
            let g = if global {
                &g as *const tcast_tensor
            } else {
                null()
            };
            tcast_mx_dequantize(&x, &scale, g, &y, null(), err)
        })
    };
    accepted(dq(64, false));
    refused(dq(16, false), "x buffer", "y buffer");
    refused(dq(32, false), "scale buffer", "y buffer");
    // A global_scale (which MX refuses, in the core) is checked for overlap first.
    refused(dq(33, true), "global_scale buffer", "y buffer");
}

#[test]
fn mx_repack() {
    // ONNX (FLOAT4E2M1 [32] at 0..16, FLOAT8E8M0 [1] at 16) to gpt-oss (UINT8 [1, 16],
    // UINT8 [1]).
    let repack = |to_at: usize, to_scales_at: usize| {
        run(|b, err| {
            let from = at(b, 0, 16, DType::Float4E2M1, V32);
            let from_scales = at(b, 16, 1, DType::Float8E8M0, ONE);
            let to = at(b, to_at, 16, DType::Uint8, NB_16);
            let to_scales = at(b, to_scales_at, 1, DType::Uint8, ONE);
            tcast_mx_repack(0, &from, &from_scales, 1, &to, &to_scales, null(), err)
        })
    };
    accepted(repack(32, 48));
    refused(repack(8, 48), "from buffer", "to buffer");
    refused(repack(32, 16), "from_scales buffer", "to_scales buffer");
    refused(repack(32, 47), "to buffer", "to_scales buffer");
}

#[test]
fn cast_and_its_plan() {
    // input FLOAT [4] at 0..16, output FLOAT16 [4] (8 bytes).
    let pair = |b: *mut u8, out_at: usize| {
        (
            at(b, 0, 16, DType::Float, V4),
            at(b, out_at, 8, DType::Float16, V4),
        )
    };
    accepted(run(|b, err| {
        let (i, o) = pair(b, 16);
        tcast_cast(&i, &o, null(), err)
    }));
    refused(
        run(|b, err| {
            let (i, o) = pair(b, 12);
            tcast_cast(&i, &o, null(), err)
        }),
        "input buffer",
        "output buffer",
    );
    refused(
        run(|b, err| {
            let (i, o) = pair(b, 0);
            tcast_cast_sub_byte(&i, &o, null(), 1, err)
        }),
        "input buffer",
        "output buffer",
    );
    let mut plan = std::ptr::null_mut();
    let mut err = blank_error();
    let made = tcast_cast_plan_create(
        DType::Float.code(),
        DType::Float16.code(),
        null(),
        &mut plan,
        &mut err,
    );
    assert_eq!(made, Status::Ok.code(), "{}", message(&err));
    refused(
        run(|b, err| {
            let (i, o) = pair(b, 4);
            tcast_cast_plan_run(plan, &i, &o, null(), err)
        }),
        "input buffer",
        "output buffer",
    );
    tcast_cast_plan_free(plan);
}

#[test]
fn cast_to_strings() {
    // input INT8 [4] at 0..4, output STRING [4] at 64 (views), arena of 32 bytes.
    let format = |out_at: usize, arena_at: usize| {
        run(|b, err| {
            let i = at(b, 0, 4, DType::Int8, V4);
            let o = at(b, out_at, 4 * 16, DType::String, V4);
            let mut arena = tcast_string_arena {
                data: b.wrapping_add(arena_at).cast(),
                capacity: 32,
                used: 0,
            };
            tcast_cast_to_strings(&i, &o, &mut arena, null(), err)
        })
    };
    accepted(format(64, 256));
    refused(format(0, 256), "input buffer", "output buffer");
    refused(format(64, 2), "input buffer", "arena");
    refused(format(64, 100), "output buffer", "arena");
}

#[test]
fn expand() {
    // input FLOAT [1] at 0..4 broadcast to FLOAT [4].
    let ex = |out_at: usize| {
        run(|b, err| {
            let i = at(b, 0, 4, DType::Float, ONE);
            let o = at(b, out_at, 16, DType::Float, V4);
            tcast_expand(&i, &o, err)
        })
    };
    accepted(ex(16));
    refused(ex(0), "input buffer", "output buffer");
}

/// numpy's text answers whose `buf` holds the call's own input texts: the answer is
/// computed before the output is viewed, so it is written whole, as if the texts had
/// been copied first (no view of `buf` exists while they are read; Miri checks that).
/// A `needed` inside `buf`'s bytes is refused.
#[test]
fn np_text_answers_over_their_inputs() {
    use super::np::{tcast_np_min_scalar_type_pyint, tcast_np_promote_types};
    use std::ffi::{c_char, CStr};
    let mut buf = [0u8; 64];
    buf[..5].copy_from_slice(b"int8\0");
    let b = buf.as_mut_ptr().cast::<c_char>();
    let mut needed = 0u64;
    let mut err = blank_error();
    let status = tcast_np_promote_types(b, c"uint8".as_ptr(), b, 64, &mut needed, &mut err);
    assert_eq!(status, Status::Ok.code(), "{}", message(&err));
    // SAFETY: the call wrote a NUL-terminated text into `buf`.
    let text = unsafe { CStr::from_ptr(buf.as_ptr().cast()) };
    assert_eq!(text.to_str().unwrap(), "int16");
    assert_eq!(needed, 6);

    buf[..4].copy_from_slice(b"300\0");
    let b = buf.as_mut_ptr().cast::<c_char>();
    let status = tcast_np_min_scalar_type_pyint(b, b, 64, &mut needed, &mut err);
    assert_eq!(status, Status::Ok.code(), "{}", message(&err));
    // SAFETY: as above.
    let text = unsafe { CStr::from_ptr(buf.as_ptr().cast()) };
    assert_eq!(text.to_str().unwrap(), "uint16");

    // `needed` at bytes 8..16 of a 64-byte `buf`.
    let mut words = [0u64; 8];
    let base = words.as_mut_ptr();
    let status = tcast_np_promote_types(
        c"int8".as_ptr(),
        c"uint8".as_ptr(),
        base.cast(),
        64,
        base.wrapping_add(1),
        &mut err,
    );
    assert_eq!(status, Status::InvalidArgument.code());
    assert!(
        message(&err).starts_with("needed overlaps buf ("),
        "{}",
        message(&err)
    );
    assert_eq!(words, [0; 8]);
}
