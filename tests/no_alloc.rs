// SPDX-License-Identifier: MIT OR Apache-2.0
//! docs/c-api.md section 1: no heap allocation on the success path of a numeric cast, Expand,
//! Bitcast or any shape or query function. A counting global allocator counts the
//! allocations made on this test's own thread while a call runs (the harness's other
//! threads are not counted), over every numeric dtype pair and the element counts 1, 7,
//! 32, 33 and 1000 (whole vector steps, tails and both).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ffi::c_char;
use std::ptr;

use tensorcast::ffi::tcast_cast_sub_byte;
use tensorcast::ffi::tcast_error;
use tensorcast::ffi::tcast_string_max_bytes;
use tensorcast::ffi::tcast_tensor;
use tensorcast::ffi::{tcast_bitcast, tcast_bitcast_shape};
use tensorcast::ffi::{
    tcast_can_cast, tcast_np_can_cast, tcast_np_casting_from_name, tcast_np_casting_level,
    tcast_np_dtype, tcast_np_dtype_free, tcast_np_dtype_parse, tcast_np_dtype_str,
};
use tensorcast::ffi::{tcast_cast, tcast_cast_options, tcast_cast_options_default};
use tensorcast::ffi::{
    tcast_cast_to_strings, tcast_executor, tcast_expand_ex, tcast_string, tcast_string_arena,
    tcast_task_fn,
};
use tensorcast::ffi::{
    tcast_dtype_bits, tcast_dtype_from_name, tcast_dtype_name, tcast_onnx_cast_supported,
    tcast_tensor_bytes,
};
use tensorcast::ffi::{tcast_dtype_from_dlpack, tcast_dtype_to_dlpack};
use tensorcast::ffi::{tcast_expand, tcast_expand_shape};
use tensorcast::ffi::{tcast_status_name, tcast_version};
use tensorcast::{DType, Status, SubByteLayout};

struct Counting;

thread_local! {
    /// Allocations made on this thread while `ARMED` is set.
    static COUNT: Cell<u64> = const { Cell::new(0) };
    static ARMED: Cell<bool> = const { Cell::new(false) };
}

fn note_allocation() {
    // `try_with`: the thread-locals may be gone while a thread shuts down.
    let _ = ARMED.try_with(|armed| {
        if armed.get() {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        }
    });
}

// SAFETY: every method forwards to the system allocator with the same arguments; the
// counting touches only const-initialised thread-locals, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        // SAFETY: forwarded from the caller's contract.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        // SAFETY: forwarded from the caller's contract.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_allocation();
        // SAFETY: forwarded from the caller's contract.
        unsafe { System.realloc(p, layout, new_size) }
    }
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        // SAFETY: forwarded from the caller's contract.
        unsafe { System.dealloc(p, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Runs `call` and returns what it returned and how many allocations it made.
fn counted<T>(call: impl FnOnce() -> T) -> (T, u64) {
    COUNT.with(|c| c.set(0));
    ARMED.with(|a| a.set(true));
    let out = call();
    ARMED.with(|a| a.set(false));
    (out, COUNT.with(Cell::get))
}

fn blank_error() -> tcast_error {
    tcast_error {
        status: -1,
        index: -1,
        message: [0; 256],
    }
}

fn message(err: &tcast_error) -> String {
    let bytes: Vec<u8> = err
        .message
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c.to_ne_bytes()[0])
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

fn numeric_dtypes() -> Vec<DType> {
    DType::all().filter(|&d| d != DType::String).collect()
}

fn tensor(
    data: *mut u8,
    bytes: usize,
    shape: &[i64],
    strides: *const i64,
    dtype: DType,
) -> tcast_tensor {
    tcast_tensor {
        data: data.cast(),
        data_bytes: bytes as u64,
        shape: shape.as_ptr(),
        strides,
        ndim: shape.len() as i32,
        dtype: dtype.code(),
    }
}

fn bytes_of(dtype: DType, n: usize) -> usize {
    dtype.bytes_for(n as u64).unwrap() as usize
}

/// Every numeric pair, every count, default options (NULL) and explicit ones.
#[test]
fn numeric_casts_allocate_nothing() {
    let dtypes = numeric_dtypes();
    let mut explicit = tcast_cast_options_default();
    explicit.saturate = 0;
    explicit.round_mode = 2;
    let option_sets: [*const tcast_cast_options; 2] = [ptr::null(), &explicit];
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut checked = 0;
    for &from in &dtypes {
        for &to in &dtypes {
            for n in [1usize, 7, 32, 33, 1000] {
                let mut input: Vec<u8> = (0..bytes_of(from, n))
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        seed as u8
                    })
                    .collect();
                let mut output = vec![0u8; bytes_of(to, n)];
                let shape = [n as i64];
                let src = tensor(input.as_mut_ptr(), input.len(), &shape, ptr::null(), from);
                let dst = tensor(output.as_mut_ptr(), output.len(), &shape, ptr::null(), to);
                for options in option_sets {
                    let mut err = blank_error();
                    let (status, allocations) =
                        counted(|| tcast_cast(&src, &dst, options, &mut err));
                    assert_eq!(
                        status,
                        Status::Ok.code(),
                        "{from} -> {to} n={n}: {}",
                        message(&err)
                    );
                    assert_eq!(
                        allocations, 0,
                        "{from} -> {to} n={n}: {allocations} allocations"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, dtypes.len() * dtypes.len() * 5 * 2);
}

/// Sub-byte tensors held one element per byte, input or output or both, contiguous (in
/// blocks, and past them) and a strided input: the widening and narrowing go through the
/// stack.
#[test]
fn unpacked_sub_byte_casts_allocate_nothing() {
    let dtypes = numeric_dtypes();
    let unpacked_bytes = |d: DType, n: usize| if d.is_packed() { n } else { bytes_of(d, n) };
    let mut checked = 0;
    for &from in &dtypes {
        for &to in &dtypes {
            if !from.is_packed() && !to.is_packed() {
                continue;
            }
            for (n, stride) in [(1usize, 1i64), (33, 1), (5000, 1), (1000, 3)] {
                let span = (n - 1) * stride as usize + 1;
                let mut input = vec![0xa7u8; unpacked_bytes(from, span)];
                let mut output = vec![0u8; unpacked_bytes(to, n)];
                let shape = [n as i64];
                let strides = [stride];
                let strides = if stride == 1 {
                    ptr::null()
                } else {
                    strides.as_ptr()
                };
                let src = tensor(input.as_mut_ptr(), input.len(), &shape, strides, from);
                let dst = tensor(output.as_mut_ptr(), output.len(), &shape, ptr::null(), to);
                let mut err = blank_error();
                let unpacked = SubByteLayout::Unpacked.code();
                let (status, allocations) =
                    counted(|| tcast_cast_sub_byte(&src, &dst, ptr::null(), unpacked, &mut err));
                assert_eq!(
                    status,
                    Status::Ok.code(),
                    "{from} -> {to} n={n}: {}",
                    message(&err)
                );
                assert_eq!(allocations, 0, "{from} -> {to} n={n}: {allocations}");
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

/// Strided inputs (a transposed view and a broadcast zero stride) of the byte-sized
/// dtypes: the gather path.
#[test]
fn strided_casts_allocate_nothing() {
    let dtypes: Vec<DType> = numeric_dtypes()
        .into_iter()
        .filter(|d| !d.is_packed())
        .collect();
    for &from in &dtypes {
        for &to in &dtypes {
            for (shape, strides) in [
                ([3i64, 5], [1i64, 3]),
                ([4, 1000], [0, 1]),
                ([33, 2], [2, 0]),
            ] {
                let span = 1 + (shape[0] - 1) * strides[0] + (shape[1] - 1) * strides[1];
                let n = (shape[0] * shape[1]) as usize;
                let mut input = vec![0x3cu8; bytes_of(from, span as usize)];
                let mut output = vec![0u8; bytes_of(to, n)];
                let src = tensor(
                    input.as_mut_ptr(),
                    input.len(),
                    &shape,
                    strides.as_ptr(),
                    from,
                );
                let dst = tensor(output.as_mut_ptr(), output.len(), &shape, ptr::null(), to);
                let mut err = blank_error();
                let (status, allocations) =
                    counted(|| tcast_cast(&src, &dst, ptr::null(), &mut err));
                assert_eq!(
                    status,
                    Status::Ok.code(),
                    "{from} -> {to} {shape:?}/{strides:?}: {}",
                    message(&err)
                );
                assert_eq!(allocations, 0, "{from} -> {to} {shape:?}/{strides:?}");
            }
        }
    }
}

#[test]
fn expand_and_its_shape_allocate_nothing() {
    for dtype in numeric_dtypes() {
        for (in_shape, out_shape) in [
            (vec![1i64], vec![7i64]),
            (vec![3, 1], vec![2, 3, 33]),
            (vec![1, 5], vec![1000, 5]),
            (vec![], vec![4, 4]),
        ] {
            let n_in: i64 = in_shape.iter().product();
            let n_out: i64 = out_shape.iter().product();
            let mut input = vec![0x5au8; bytes_of(dtype, n_in as usize)];
            let mut output = vec![0u8; bytes_of(dtype, n_out as usize)];
            let src = tensor(
                input.as_mut_ptr(),
                input.len(),
                &in_shape,
                ptr::null(),
                dtype,
            );
            let dst = tensor(
                output.as_mut_ptr(),
                output.len(),
                &out_shape,
                ptr::null(),
                dtype,
            );
            let mut err = blank_error();
            let (status, allocations) = counted(|| tcast_expand(&src, &dst, &mut err));
            assert_eq!(
                status,
                Status::Ok.code(),
                "{dtype} {in_shape:?} -> {out_shape:?}: {}",
                message(&err)
            );
            assert_eq!(
                allocations, 0,
                "expand {dtype} {in_shape:?} -> {out_shape:?}"
            );

            let mut result = [0i64; 64];
            let mut rank = 0i32;
            let (status, allocations) = counted(|| {
                tcast_expand_shape(
                    in_shape.as_ptr(),
                    in_shape.len() as i32,
                    out_shape.as_ptr(),
                    out_shape.len() as i32,
                    result.as_mut_ptr(),
                    64,
                    &mut rank,
                    &mut err,
                )
            });
            assert_eq!(
                (status, allocations),
                (Status::Ok.code(), 0),
                "expand_shape {in_shape:?}"
            );
        }
    }
}

#[test]
fn bitcast_and_its_shape_allocate_nothing() {
    let dtypes = numeric_dtypes();
    let mut done = 0;
    for &from in &dtypes {
        for &to in &dtypes {
            for rules in 0..3 {
                let shape = [2i64, 8];
                let mut data = vec![0u8; bytes_of(from, 16)];
                let mut result = [0i64; 64];
                let mut rank = 0i32;
                let mut err = blank_error();
                let (status, allocations) = counted(|| {
                    tcast_bitcast_shape(
                        from.code(),
                        shape.as_ptr(),
                        2,
                        to.code(),
                        rules,
                        result.as_mut_ptr(),
                        64,
                        &mut rank,
                        &mut err,
                    )
                });
                if status != Status::Ok.code() {
                    continue; // a pair these rules refuse: errors may allocate
                }
                assert_eq!(allocations, 0, "bitcast_shape {from} -> {to} rules {rules}");
                let src = tensor(data.as_mut_ptr(), data.len(), &shape, ptr::null(), from);
                let mut view = src;
                let mut storage = [0i64; 64];
                let (status, allocations) = counted(|| {
                    tcast_bitcast(
                        &src,
                        to.code(),
                        rules,
                        &mut view,
                        storage.as_mut_ptr(),
                        64,
                        &mut err,
                    )
                });
                assert_eq!(
                    status,
                    Status::Ok.code(),
                    "bitcast {from} -> {to}: {}",
                    message(&err)
                );
                assert_eq!(allocations, 0, "bitcast {from} -> {to} rules {rules}");
                done += 1;
            }
        }
    }
    assert!(done > 100, "only {done} bitcasts succeeded");
}

#[test]
fn queries_allocate_nothing() {
    let mut err = blank_error();
    let dtypes = numeric_dtypes();
    for &from in &dtypes {
        let shape = [3i64, 0, 5];
        let mut bytes = 0u64;
        let (status, allocations) =
            counted(|| tcast_tensor_bytes(from.code(), shape.as_ptr(), 3, &mut bytes, &mut err));
        assert_eq!(
            (status, allocations),
            (Status::Ok.code(), 0),
            "tensor_bytes {from}"
        );
        let name = format!("{}\0", from.name());
        let mut code = 0;
        let (status, allocations) =
            counted(|| tcast_dtype_from_name(name.as_ptr().cast::<c_char>(), &mut code, &mut err));
        assert_eq!(
            (status, allocations, code),
            (Status::Ok.code(), 0, from.code()),
            "from_name {from}"
        );
        let ((), allocations) = counted(|| {
            tcast_dtype_name(from.code());
            tcast_dtype_bits(from.code());
            tcast_string_max_bytes(from.code());
            tcast_status_name(3);
            tcast_version();
        });
        assert_eq!(allocations, 0, "name/bits {from}");
        let (mut code, mut bits, mut lanes, mut back) = (0u8, 0u8, 0u16, 0);
        let (status, allocations) = counted(|| {
            tcast_dtype_to_dlpack(from.code(), &mut code, &mut bits, &mut lanes, &mut err)
        });
        // The TF quantized types have no DLPack code: an error, which may allocate.
        if status == Status::Ok.code() {
            assert_eq!(allocations, 0, "to_dlpack {from}");
            let (status, allocations) =
                counted(|| tcast_dtype_from_dlpack(code, bits, lanes, &mut back, &mut err));
            assert_eq!(
                (status, allocations, back),
                (Status::Ok.code(), 0, from.code()),
                "from_dlpack {from}"
            );
        }
        for &to in &dtypes {
            let mut result = -1;
            let (status, allocations) = counted(|| {
                tcast_onnx_cast_supported(from.code(), to.code(), 28);
                tcast_can_cast(from.code(), to.code(), 2, &mut result, &mut err)
            });
            assert_eq!(
                (status, allocations),
                (Status::Ok.code(), 0),
                "can_cast {from} -> {to}"
            );
        }
    }
}

/// The numpy queries on parsed handles (parsing makes the handle, which allocates by
/// design; the queries on it do not).
#[test]
fn numpy_handle_queries_allocate_nothing() {
    let specs = [
        "<i4", "f8", "S10", "<U3", "M8[ns]", "m8[s]", "?", "O", "V8", "c16", "i4,f8", "(2,)i4",
    ];
    let mut err = blank_error();
    let mut handles: Vec<*mut tcast_np_dtype> = Vec::new();
    for spec in specs {
        let text = format!("{spec}\0");
        let mut h = ptr::null_mut();
        assert_eq!(
            tcast_np_dtype_parse(text.as_ptr().cast(), &mut h, &mut err),
            Status::Ok.code()
        );
        handles.push(h);
    }
    let mut casting = 0;
    let (status, allocations) =
        counted(|| tcast_np_casting_from_name(c"same_kind".as_ptr(), &mut casting, &mut err));
    assert_eq!((status, allocations), (Status::Ok.code(), 0));
    for &a in &handles {
        for &b in &handles {
            for rules in [1, 2] {
                let (mut level, mut result) = (0, 0);
                let (status, allocations) = counted(|| {
                    let s = tcast_np_casting_level(a, b, rules, &mut level, &mut err);
                    if s != Status::Ok.code() {
                        return s;
                    }
                    tcast_np_can_cast(a, b, casting, rules, &mut result, &mut err)
                });
                assert_eq!(
                    (status, allocations),
                    (Status::Ok.code(), 0),
                    "{}",
                    message(&err)
                );
            }
        }
        let mut buf = [0 as c_char; 128];
        let (status, allocations) = counted(|| {
            tcast_np_dtype_str(
                a,
                buf.as_mut_ptr(),
                buf.len() as u64,
                std::ptr::null_mut(),
                &mut err,
            )
        });
        assert_eq!(status, Status::Ok.code(), "{}", message(&err));
        let _ = allocations; // str() of a struct may format; not a promise of the API
    }
    for h in handles {
        tcast_np_dtype_free(h);
    }
}

/// Runs every task on the calling thread, where the counter sees their allocations.
unsafe extern "C" fn inline_for(
    _ctx: *mut std::ffi::c_void,
    n: u64,
    task: tcast_task_fn,
    task_ctx: *mut std::ffi::c_void,
) {
    for i in 0..n {
        // SAFETY: each index once, as the executor contract says.
        unsafe { task(task_ctx, i) };
    }
}

/// Sizes far above the task thresholds and the streaming-store threshold, on one thread
/// and split into tasks on a host executor (run inline so the counter sees the tasks):
/// numeric casts, Expand, and the string casts both ways.
#[test]
fn large_calls_and_executor_tasks_allocate_nothing() {
    let executor = tcast_executor {
        ctx: ptr::null_mut(),
        parallel_for: Some(inline_for),
    };
    let mut with_executor = tcast_cast_options_default();
    with_executor.threads = 4;
    with_executor.executor = &executor;
    let option_sets: [*const tcast_cast_options; 2] = [ptr::null(), &with_executor];
    let n = 1usize << 22;
    let src: Vec<f32> = (0..n).map(|i| (i % 1000) as f32 * 0.25 - 100.0).collect();
    let shape = [n as i64];
    for to in [
        DType::Float16,
        DType::Double,
        DType::Float8E4M3Fn,
        DType::Int4,
    ] {
        let mut dst = vec![0u8; bytes_of(to, n)];
        let input = tensor(
            src.as_ptr() as *mut u8,
            n * 4,
            &shape,
            ptr::null(),
            DType::Float,
        );
        let output = tensor(dst.as_mut_ptr(), dst.len(), &shape, ptr::null(), to);
        for options in option_sets {
            let mut err = blank_error();
            let (status, count) = counted(|| tcast_cast(&input, &output, options, &mut err));
            assert_eq!(status, 0, "FLOAT -> {to}: {}", message(&err));
            assert_eq!(count, 0, "FLOAT -> {to} of {n} allocated {count} times");
        }
    }

    let (in_shape, out_shape) = ([1i64, 4099], [3i64, 400, 4099]);
    let mut grid = vec![0f32; 3 * 400 * 4099];
    let input = tensor(
        src.as_ptr() as *mut u8,
        4099 * 4,
        &in_shape,
        ptr::null(),
        DType::Float,
    );
    let output = tensor(
        grid.as_mut_ptr().cast(),
        grid.len() * 4,
        &out_shape,
        ptr::null(),
        DType::Float,
    );
    for options in option_sets {
        let mut err = blank_error();
        let (status, count) = counted(|| tcast_expand_ex(&input, &output, options, &mut err));
        assert_eq!(status, 0, "expand: {}", message(&err));
        assert_eq!(count, 0, "expand allocated {count} times");
    }

    let m = 40_000usize;
    let values: Vec<f64> = (0..m).map(|i| i as f64 * 1.37 - 9000.0).collect();
    let text_shape = [m as i64];
    let mut arena = vec![0u8; m * tcast_string_max_bytes(DType::Double.code()) as usize];
    let mut views = vec![
        tcast_string {
            data: ptr::null(),
            len: 0
        };
        m
    ];
    let mut back = vec![0f64; m];
    for options in option_sets {
        let mut a = tcast_string_arena {
            data: arena.as_mut_ptr().cast(),
            capacity: arena.len() as u64,
            used: 0,
        };
        let numbers = tensor(
            values.as_ptr() as *mut u8,
            m * 8,
            &text_shape,
            ptr::null(),
            DType::Double,
        );
        let texts = tensor(
            views.as_mut_ptr().cast(),
            m * 16,
            &text_shape,
            ptr::null(),
            DType::String,
        );
        let mut err = blank_error();
        let (status, count) =
            counted(|| tcast_cast_to_strings(&numbers, &texts, &mut a, options, &mut err));
        assert_eq!(status, 0, "DOUBLE -> STRING: {}", message(&err));
        assert_eq!(count, 0, "DOUBLE -> STRING allocated {count} times");
        let parsed = tensor(
            back.as_mut_ptr().cast(),
            m * 8,
            &text_shape,
            ptr::null(),
            DType::Double,
        );
        let (status, count) = counted(|| tcast_cast(&texts, &parsed, options, &mut err));
        assert_eq!(status, 0, "STRING -> DOUBLE: {}", message(&err));
        assert_eq!(count, 0, "STRING -> DOUBLE allocated {count} times");
        assert_eq!(back, values);
    }
}
