// SPDX-License-Identifier: MIT OR Apache-2.0
//! tcast_cast through the C ABI with fuzzed descriptors: dtype codes (valid, invalid,
//! STRING excluded: its elements are pointers), ranks, extents, strides, `data_bytes`
//! claims no larger than the real buffers, overlapping or NULL buffers, and options of
//! any value. Properties: the status is one of the documented ones (never INTERNAL), the
//! input is unchanged, nothing is written outside the output's `data_bytes` (guard bytes
//! on both sides), a failure fills `err` consistently; and a strided cast that succeeds
//! gives the bytes of the same cast of a contiguous copy of the elements it reads.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::ptr;
use tensorcast::ffi::{
    tcast_cast, tcast_cast_options, tcast_cast_options_default, tcast_error, tcast_tensor,
    TCAST_ERROR_MESSAGE_BYTES,
};
use tensorcast::{DType, Status};

const BUF: usize = 256;
const GUARD: usize = 32;
/// Every numeric code, two unknown ones (STRING, 8, is left out).
const CODES: [i32; 29] = [
    1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
    28, 0, 200,
];
const EXTENTS: [i64; 8] = [0, 1, 2, 3, 4, 7, 1 << 40, -1];

/// Reads the fuzz input as parameters, byte by byte (0 once it runs out).
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        let Some((&b, rest)) = self.0.split_first() else {
            return 0;
        };
        self.0 = rest;
        b
    }
    fn pick<T: Copy>(&mut self, from: &[T]) -> T {
        from[self.byte() as usize % from.len()]
    }
}

fn blank() -> tcast_error {
    tcast_error {
        status: -1,
        index: -7,
        message: [1; TCAST_ERROR_MESSAGE_BYTES],
    }
}

struct Call {
    input: tcast_tensor,
    output: tcast_tensor,
    options: Option<tcast_cast_options>,
}

fn run(call: &Call, err: &mut tcast_error) -> i32 {
    let options = call.options.as_ref().map_or(ptr::null(), |o| o as *const _);
    tcast_cast(&call.input, &call.output, options, err)
}

fuzz_target!(|data: &[u8]| {
    let mut p = Bytes(data);
    let from = p.pick(&CODES);
    let to = if p.byte() % 4 == 0 {
        p.pick(&CODES)
    } else {
        from
    };
    let rank = (p.byte() % 5) as usize;
    let ranks = [rank as i32, rank as i32, -1, 65];
    let ndim_in = if p.byte() % 16 == 0 {
        p.pick(&ranks)
    } else {
        rank as i32
    };
    let ndim_out = if p.byte() % 16 == 0 {
        p.pick(&ranks)
    } else {
        rank as i32
    };
    let mut shape = [0i64; 4];
    for d in &mut shape[..rank] {
        *d = if p.byte() % 16 == 0 {
            p.pick(&EXTENTS)
        } else {
            1 + i64::from(p.byte() % 4)
        };
    }
    let mut out_shape = shape;
    if rank > 0 && p.byte() % 16 == 0 {
        out_shape[p.byte() as usize % rank] = p.pick(&EXTENTS);
    }
    let strided = p.byte() % 3 == 0;
    let mut strides = [0i64; 4];
    for s in &mut strides[..rank] {
        *s = if p.byte() % 16 == 0 {
            -1
        } else {
            i64::from(p.byte() % 9)
        };
    }
    let in_claim = (p.byte() as usize * 2).min(BUF) as u64;
    let out_claim = (p.byte() as usize * 2).min(BUF) as u64;
    let mode = p.byte();
    let options = (p.byte() % 3 != 0).then(|| {
        let mut o = tcast_cast_options_default();
        o.saturate = i32::from(p.byte() % 3);
        o.round_mode = i32::from(p.byte() % 4);
        o.string_format = i32::from(p.byte() % 3);
        o.casting = i32::from(p.byte() % 7) - 1;
        o.threads = i32::from(p.byte() % 3);
        if p.byte() % 8 == 0 {
            o.struct_size = u32::from(p.byte());
        }
        o
    });

    let mut input = [0u8; BUF];
    for b in input.iter_mut() {
        *b = p.byte();
    }
    let original = input;
    let mut out = [0xCDu8; BUF + 2 * GUARD];
    let out_ptr = if mode % 16 == 1 {
        input.as_mut_ptr() // overlapping the input
    } else {
        out[GUARD..].as_mut_ptr()
    };
    let call = Call {
        input: tcast_tensor {
            data: if mode % 16 == 2 {
                ptr::null_mut()
            } else {
                input.as_mut_ptr().cast()
            },
            data_bytes: in_claim,
            shape: shape.as_ptr(),
            strides: if strided {
                strides.as_ptr()
            } else {
                ptr::null()
            },
            ndim: ndim_in,
            dtype: from,
        },
        output: tcast_tensor {
            data: if mode % 16 == 3 {
                ptr::null_mut()
            } else {
                out_ptr.cast()
            },
            data_bytes: out_claim,
            shape: out_shape.as_ptr(),
            strides: ptr::null(),
            ndim: ndim_out,
            dtype: to,
        },
        options,
    };
    let mut err = blank();
    let status = run(&call, &mut err);
    assert!(
        (0..=10).contains(&status),
        "status {status}: {:?}",
        String::from_utf8_lossy(&err.message.map(|c| c as u8))
    );
    assert_eq!(err.status, status, "err.status");
    let message_len = err
        .message
        .iter()
        .position(|&c| c == 0)
        .expect("a NUL-terminated message");
    assert_eq!(
        message_len == 0,
        status == 0,
        "a message exactly when the call failed"
    );
    if mode % 16 == 1 {
        return; // the input was also the output
    }
    assert_eq!(input, original, "the input was written");
    assert!(
        out[..GUARD].iter().all(|&b| b == 0xCD),
        "written before the output"
    );
    let written = GUARD + out_claim as usize;
    assert!(
        out[written..].iter().all(|&b| b == 0xCD),
        "written past data_bytes"
    );
    if status != Status::Ok.code() || !strided || ndim_in != rank as i32 {
        return;
    }

    // The strided read against a contiguous copy of the same elements.
    let source = DType::from_code(from).expect("a cast that succeeded has a known input");
    let size = (source.bits() / 8) as usize;
    // An empty tensor may have huge extents beside its 0 ([2^40, 2^40, 0] succeeds).
    let count = if shape[..rank].contains(&0) {
        0
    } else {
        shape[..rank].iter().map(|&d| d as usize).product()
    };
    let mut gathered = vec![0u8; count * size];
    for (k, slot) in gathered.chunks_exact_mut(size.max(1)).enumerate() {
        let (mut rest, mut offset) = (k, 0usize);
        for axis in (0..rank).rev() {
            let extent = shape[axis] as usize;
            offset += (rest % extent) * strides[axis] as usize;
            rest /= extent;
        }
        slot.copy_from_slice(&input[offset * size..][..size]);
    }
    let mut expected = [0xCDu8; BUF];
    let contiguous = Call {
        input: tcast_tensor {
            data: gathered.as_mut_ptr().cast(),
            data_bytes: gathered.len() as u64,
            strides: ptr::null(),
            ..call.input
        },
        output: tcast_tensor {
            data: expected.as_mut_ptr().cast(),
            ..call.output
        },
        options: call.options,
    };
    let mut err = blank();
    assert_eq!(
        run(&contiguous, &mut err),
        0,
        "the contiguous cast of a strided success failed"
    );
    assert_eq!(
        &out[GUARD..written],
        &expected[..out_claim as usize],
        "strided and contiguous casts differ"
    );
});
