// SPDX-License-Identifier: MIT OR Apache-2.0
//! Bitcast cost for a tiny and a huge tensor: the call never touches the data, so both
//! take the same time. The 1G-element buffer is allocated zeroed and never read, so the
//! system does not even map its pages. `cargo bench --bench bitcast`.

use std::hint::black_box;
use std::time::Instant;
use tensorcast::ffi::{tcast_bitcast, tcast_error, tcast_tensor};
use tensorcast::{BitcastRules, DType, Status};

fn per_call_ns(data: &mut [u8], dtype: i32, count: i64, to: i32, rules: i32) -> f64 {
    let shape = [count];
    let input = tcast_tensor {
        data: data.as_mut_ptr().cast(),
        data_bytes: data.len() as u64,
        shape: shape.as_ptr(),
        strides: std::ptr::null(),
        ndim: 1,
        dtype,
    };
    let mut view = input;
    let mut storage = [0i64; 4];
    let mut err = tcast_error {
        status: 0,
        index: -1,
        message: [0; 256],
    };
    let calls = 2_000_000;
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let t = Instant::now();
        for _ in 0..calls {
            let status = tcast_bitcast(
                black_box(&input),
                to,
                rules,
                &mut view,
                storage.as_mut_ptr(),
                4,
                &mut err,
            );
            assert_eq!(status, Status::Ok.code());
            black_box(&view);
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e9 / calls as f64);
    }
    assert_eq!(view.data, input.data);
    best
}

fn main() {
    let mut small = [0u8; 64];
    let mut huge = vec![0u8; 1 << 30];
    println!("bitcast cost per call (ns), 1 thread");
    println!("{:<40} {:>12} {:>12}", "case", "16 elements", "1G elements");
    for (name, dtype, size, to, rules) in [
        (
            "UINT8 -> UINT32 (numpy view)",
            DType::Uint8.code(),
            1usize,
            DType::Uint32.code(),
            BitcastRules::NumpyView.code(),
        ),
        (
            "FLOAT -> UINT8 (tf, appends a dim)",
            DType::Float.code(),
            4,
            DType::Uint8.code(),
            BitcastRules::Tf.code(),
        ),
    ] {
        let few = per_call_ns(&mut small[..16 * size], dtype, 16, to, rules);
        let count = (1usize << 30) / size;
        let many = per_call_ns(&mut huge[..count * size], dtype, count as i64, to, rules);
        println!("{name:<40} {few:>12.1} {many:>12.1}");
    }
}
