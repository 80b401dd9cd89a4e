// SPDX-License-Identifier: MIT OR Apache-2.0
//! The shape functions against references written from docs/semantics-expand-bitcast.md:
//! tcast_expand_shape (numpy broadcasting) and tcast_bitcast_shape under the three rule
//! sets (tf.bitcast, ONNX BitCast, numpy's view). Same status, and on success the same
//! shape.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tensorcast::ffi::{
    tcast_bitcast_shape, tcast_error, tcast_expand_shape, TCAST_ERROR_MESSAGE_BYTES,
};
use tensorcast::{DType, Status};

const EXTENTS: [i64; 8] = [0, 1, 1, 2, 3, 4, 8, -1];
const CODES: [i32; 31] = [
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 19, 21, 22, 23, 24, 25, 27, 100,
    101, 102, 103, 104, 0, 77,
];
/// tf.bitcast's 19 dtypes.
const TF: [DType; 19] = [
    DType::Bfloat16,
    DType::Float16,
    DType::Float,
    DType::Double,
    DType::Int64,
    DType::Int32,
    DType::Uint8,
    DType::Uint16,
    DType::Uint32,
    DType::Uint64,
    DType::Int8,
    DType::Int16,
    DType::Complex64,
    DType::Complex128,
    DType::Qint8,
    DType::Quint8,
    DType::Qint16,
    DType::Quint16,
    DType::Qint32,
];

type Outcome = Result<Vec<i64>, Status>;

fn blank() -> tcast_error {
    tcast_error {
        status: -1,
        index: -1,
        message: [0; TCAST_ERROR_MESSAGE_BYTES],
    }
}

fn status_of(code: i32) -> Status {
    [
        Status::NullArgument,
        Status::InvalidDtype,
        Status::Unsupported,
        Status::InvalidShape,
        Status::IncompatibleShapes,
        Status::BufferTooSmall,
        Status::Parse,
        Status::InvalidArgument,
        Status::Casting,
        Status::OutOfMemory,
    ]
    .into_iter()
    .find(|s| s.code() == code)
    .unwrap_or_else(|| panic!("status {code} is not one the shape functions return"))
}

/// What a shape function answered: the shape it wrote, or its status.
fn outcome(status: i32, out: &[i64], ndim: i32) -> Outcome {
    if status == 0 {
        Ok(out[..ndim as usize].to_vec())
    } else {
        Err(status_of(status))
    }
}

fn expand_reference(a: &[i64], b: &[i64]) -> Outcome {
    if a.iter().chain(b).any(|&d| d < 0) {
        return Err(Status::InvalidShape);
    }
    let rank = a.len().max(b.len());
    let at = |s: &[i64], k: usize| {
        if k + s.len() >= rank {
            s[k + s.len() - rank]
        } else {
            1
        }
    };
    (0..rank)
        .map(|k| match (at(a, k), at(b, k)) {
            (x, y) if x == y || y == 1 => Ok(x),
            (1, y) => Ok(y),
            _ => Err(Status::IncompatibleShapes),
        })
        .collect()
}

fn bitcast_reference(from: i32, dims: &[i64], to: i32, rules: i32) -> Outcome {
    let (Some(a), Some(b)) = (DType::from_code(from), DType::from_code(to)) else {
        return Err(Status::InvalidDtype);
    };
    if !(0..=2).contains(&rules) {
        return Err(Status::InvalidArgument);
    }
    let (sa, sb) = (u64::from(a.bits()), u64::from(b.bits()));
    let accepted = match rules {
        0 => TF.contains(&a) && TF.contains(&b),
        1 => a != DType::String && b != DType::String,
        _ => a != DType::String && b != DType::String && sa % 8 == 0 && sb % 8 == 0,
    };
    if !accepted || (rules == 1 && sa != sb) {
        return Err(Status::Unsupported);
    }
    if dims.iter().any(|&d| d < 0) {
        return Err(Status::InvalidShape);
    }
    let mut out = dims.to_vec();
    if sa == sb {
        return Ok(out);
    }
    match rules {
        0 if sa > sb => out.push((sa / sb) as i64),
        0 => match out.pop() {
            Some(last) if last as u64 == sb / sa => {}
            _ => return Err(Status::IncompatibleShapes),
        },
        _ => {
            let Some(last) = out.last_mut() else {
                return Err(Status::IncompatibleShapes);
            };
            let bytes = *last as u64 * sa / 8;
            if !bytes.is_multiple_of(sb / 8) {
                return Err(Status::IncompatibleShapes);
            }
            *last = (bytes / (sb / 8)) as i64;
        }
    }
    Ok(out)
}

fn shape(data: &mut &[u8]) -> Vec<i64> {
    let Some((&n, rest)) = data.split_first() else {
        return Vec::new();
    };
    let rank = (n % 6) as usize;
    let take = rank.min(rest.len());
    let dims = rest[..take]
        .iter()
        .map(|&b| EXTENTS[b as usize % EXTENTS.len()])
        .collect();
    *data = &rest[take..];
    dims
}

fuzz_target!(|data: &[u8]| {
    let Some((&op, mut rest)) = data.split_first() else {
        return;
    };
    let mut out = [0i64; 16];
    let mut ndim = -1;
    let mut err = blank();
    if op % 2 == 0 {
        let (a, b) = (shape(&mut rest), shape(&mut rest));
        let status = tcast_expand_shape(
            a.as_ptr(),
            a.len() as i32,
            b.as_ptr(),
            b.len() as i32,
            out.as_mut_ptr(),
            16,
            &mut ndim,
            &mut err,
        );
        let got = outcome(status, &out, ndim);
        assert_eq!(
            got,
            expand_reference(&a, &b),
            "expand_shape {a:?} with {b:?}"
        );
    } else {
        let byte = |k: usize| rest.get(k).copied().unwrap_or(0);
        let (from, to) = (
            CODES[byte(0) as usize % CODES.len()],
            CODES[byte(1) as usize % CODES.len()],
        );
        let rules = i32::from(byte(2) % 4);
        let mut tail = rest.get(3..).unwrap_or(&[]);
        let dims = shape(&mut tail);
        let status = tcast_bitcast_shape(
            from,
            dims.as_ptr(),
            dims.len() as i32,
            to,
            rules,
            out.as_mut_ptr(),
            16,
            &mut ndim,
            &mut err,
        );
        let got = outcome(status, &out, ndim);
        assert_eq!(
            got,
            bitcast_reference(from, &dims, to, rules),
            "bitcast_shape {from} {dims:?} -> {to} under rules {rules}"
        );
    }
});
