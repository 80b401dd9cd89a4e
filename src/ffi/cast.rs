//! Cast: the default options and `tcast_cast`.

use super::args::{cast_operands, plain_cast_operands, LayoutBuf};
use super::guard::guard;
use super::types::{tcast_cast_options, tcast_error, tcast_status, tcast_tensor};
use crate::cast::{cast_checked, check_pair, run_contiguous, CastOptions};

/// The default options, with `struct_size` set.
#[no_mangle]
pub extern "C" fn tcast_cast_options_default() -> tcast_cast_options {
    let d = CastOptions::default();
    tcast_cast_options {
        struct_size: std::mem::size_of::<tcast_cast_options>() as u32,
        saturate: i32::from(d.saturate),
        round_mode: d.round_mode as i32,
        string_format: d.string_format as i32,
        casting: d.casting as i32,
        threads: d.threads as i32,
        executor: std::ptr::null(),
    }
}

/// Casts `input` into `output`, element by element (ONNX Cast; complex as tf.cast and
/// numpy's astype). `output->shape` must equal `input->shape`; `output->dtype` is the
/// target; input and output buffers must not overlap. `options` may be NULL (defaults).
/// Float -> integer truncates and saturates (NaN -> 0), integer -> integer wraps, and
/// float conversions round once to nearest even. INT4/UINT4/INT2/UINT2 take floats
/// rounded to the nearest even integer and keep the low bits (NaN, inf -> 0). FLOAT4E2M1
/// and FLOAT6 always saturate and keep -0; they write +NaN as -0 (0x8, 0x20) and -NaN as
/// +0, as onnx's reference (ml_dtypes) does. A STRING input is parsed (each view's
/// bytes, trimmed of C's whitespace: space, \t, \n, \v, \f, \r; "inf"/"nan" in any
/// case; decimal or scientific; an integer text exactly, converted as a float of that
/// value: 8- to 64-bit integers saturate, "300" -> INT8 127, and INT4/UINT4/INT2/UINT2
/// keep the low bits, "20" -> UINT4 4, "-5" -> UINT4 11), failing with TCAST_ERR_PARSE
/// and `err->index` at the first bad element; STRING -> STRING copies the views.
/// Numeric -> STRING needs an arena: use tcast_cast_to_strings. Sub-byte dtypes are
/// packed (docs/c-api.md section 4); `saturate` applies to float8 targets and `round_mode` to
/// FLOAT8E8M0. Thread-safe; allocates nothing on success, STRING parsing included
/// (threads > 1 without an executor may start threads: docs/c-api.md section 9).
/// `options->casting` below UNSAFE refuses the casts that `tcast_can_cast` refuses at
/// that level (numpy's rules, with ml_dtypes' for the ML types).
/// Errors: NULL_ARGUMENT, INVALID_DTYPE, UNSUPPORTED (complex <-> STRING, numeric ->
/// STRING), CASTING (refused at `options->casting`, numpy's message), INVALID_SHAPE,
/// BUFFER_TOO_SMALL, PARSE, INVALID_ARGUMENT (bad option, overlapping buffers).
#[no_mangle]
pub extern "C" fn tcast_cast(
    input: *const tcast_tensor,
    output: *const tcast_tensor,
    options: *const tcast_cast_options,
    err: *mut tcast_error,
) -> tcast_status {
    guard(err, || {
        // SAFETY: each pointer is NULL or valid per the C API contract (docs/c-api.md
        // sections 1, 4 and 5).
        if let Some((kernel, src, dst)) = unsafe { plain_cast_operands(input, output, options) } {
            run_contiguous(kernel, src, dst);
            return Ok(());
        }
        // SAFETY: as above.
        unsafe { cast_in_general(input, output, options) }
    })
}

/// tcast_cast without its plain path: every call reads its arguments as
/// [`cast_operands`] does.
///
/// # Safety
/// Each pointer is NULL or valid per the C API contract (docs/c-api.md sections 1, 4 and 5).
unsafe fn cast_in_general(
    input: *const tcast_tensor,
    output: *const tcast_tensor,
    options: *const tcast_cast_options,
) -> Result<(), crate::error::Error> {
    let (mut in_buf, mut out_buf) = (LayoutBuf::new(), LayoutBuf::new());
    let bufs = (&mut in_buf, &mut out_buf);
    let (src, mut dst, options) =
        // SAFETY: forwarded from this function's contract.
        unsafe { cast_operands(input, output, options, check_pair, None, bufs) }?;
    cast_checked(&src, &mut dst, &options.options, options.workers())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffi::guard::test_support::{blank_error, message};
    use crate::testutil::{samples, Rng};

    /// One random call: descriptors over `input` and `output` (or NULL, or overlapping),
    /// with shapes, strides, byte counts, dtype codes and options chosen to hit both the
    /// plain path and every way out of it.
    struct Case {
        shapes: [[i64; 3]; 2],
        strides: [i64; 3],
        ranks: [i32; 2],
        dtypes: [i32; 2],
        bytes: [u64; 2],
        null: u64,
        strided: bool,
        overlap: bool,
        with_options: bool,
    }

    fn random_case(rng: &mut Rng) -> Case {
        // No STRING: random bytes are not views.
        const CODES: [i32; 13] = [1, 10, 11, 6, 7, 9, 16, 14, 2, 22, 17, 0, 100];
        const EXTENTS: [i64; 8] = [-1, 0, 1, 2, 3, 5, 8, 1 << 62];
        let pick = |rng: &mut Rng, n: usize| rng.below(n as u64) as usize;
        let mut shape = [0i64; 3];
        for d in &mut shape {
            let index = if rng.below(20) == 0 {
                pick(rng, 8)
            } else {
                1 + pick(rng, 5)
            };
            *d = EXTENTS[index];
        }
        let mut other = shape;
        if rng.below(8) == 0 {
            other[pick(rng, 3)] = EXTENTS[pick(rng, 7)];
        }
        let rank = rng.below(4) as i32 - i32::from(rng.below(30) == 0);
        let other_rank = if rng.below(10) == 0 {
            rng.below(4) as i32
        } else {
            rank
        };
        let bytes = |rng: &mut Rng| match rng.below(4) {
            0 => rng.below(512),
            _ => 512,
        };
        Case {
            shapes: [shape, other],
            strides: [1, 1, 1],
            ranks: [rank, other_rank],
            dtypes: [CODES[pick(rng, 13)], CODES[pick(rng, 13)]],
            bytes: [bytes(rng), bytes(rng)],
            null: if rng.below(16) == 0 {
                1 + rng.below(4)
            } else {
                0
            },
            strided: rng.below(10) == 0,
            overlap: rng.below(12) == 0,
            with_options: rng.below(6) == 0,
        }
    }

    /// Runs `call` on the case with its output in `out`; returns the status, the error
    /// and the output bytes.
    fn run(
        case: &Case,
        input: &[u8],
        out: &mut [u8],
        call: impl Fn(
            *const tcast_tensor,
            *const tcast_tensor,
            *const tcast_cast_options,
            *mut tcast_error,
        ) -> tcast_status,
    ) -> (tcast_status, i64, String, Vec<u8>) {
        let options = tcast_cast_options_default();
        let out_ptr = if case.overlap {
            input.as_ptr() as *mut u8
        } else {
            out.as_mut_ptr()
        };
        let descriptor = |k: usize, data: *mut u8| tcast_tensor {
            data: if case.null == 3 + k as u64 {
                std::ptr::null_mut()
            } else {
                data.cast()
            },
            data_bytes: case.bytes[k],
            shape: if case.null == 4 && k == 0 {
                std::ptr::null()
            } else {
                case.shapes[k].as_ptr()
            },
            strides: if case.strided && k == 0 {
                case.strides.as_ptr()
            } else {
                std::ptr::null()
            },
            ndim: case.ranks[k],
            dtype: case.dtypes[k],
        };
        let (a, b) = (
            descriptor(0, input.as_ptr() as *mut u8),
            descriptor(1, out_ptr),
        );
        let mut err = blank_error();
        let status = call(
            if case.null == 1 { std::ptr::null() } else { &a },
            if case.null == 2 { std::ptr::null() } else { &b },
            if case.with_options {
                &options
            } else {
                std::ptr::null()
            },
            &mut err,
        );
        (status, err.index, message(&err), out.to_vec())
    }

    /// Whether the case's descriptors (as `run` builds them when nothing is NULL or
    /// overlapping) are of the plain path's kind.
    fn takes_plain_path(case: &Case, input: &[u8], out: &mut [u8]) -> bool {
        if case.null != 0 || case.overlap || case.strided || case.with_options {
            return false;
        }
        let descriptor = |k: usize, data: *mut u8| tcast_tensor {
            data: data.cast(),
            data_bytes: case.bytes[k],
            shape: case.shapes[k].as_ptr(),
            strides: std::ptr::null(),
            ndim: case.ranks[k],
            dtype: case.dtypes[k],
        };
        let (a, b) = (
            descriptor(0, input.as_ptr() as *mut u8),
            descriptor(1, out.as_mut_ptr()),
        );
        // SAFETY: the descriptors point at live buffers of at least their stated sizes.
        unsafe { plain_cast_operands(&a, &b, std::ptr::null()) }.is_some()
    }

    /// The plain path of tcast_cast changes no outcome: on random calls (valid and not),
    /// tcast_cast and the general path alone give the same status, index, message and
    /// output bytes, and leave the input alone.
    #[test]
    fn plain_and_general_paths_agree() {
        let mut rng = Rng(0x5eed_cafe_f00d_1234);
        let mut plain_calls = 0;
        for _ in 0..samples(100_000) {
            let case = random_case(&mut rng);
            let input: Vec<u8> = (0..512).map(|_| rng.below(256) as u8).collect();
            let before = input.clone();
            let (mut a, mut b) = (vec![0x5Au8; 512], vec![0x5Au8; 512]);
            let fast = run(&case, &input, &mut a, |i, o, opt, e| {
                tcast_cast(i, o, opt, e)
            });
            let general = run(&case, &input, &mut b, |i, o, opt, e| {
                // SAFETY: the descriptors point at live buffers of their stated sizes.
                crate::ffi::guard::guard(e, || unsafe { cast_in_general(i, o, opt) })
            });
            assert_eq!(fast, general, "shapes {:?} ranks {:?} dtypes {:?} bytes {:?} null {} strided {} overlap {} options {}",
                case.shapes, case.ranks, case.dtypes, case.bytes, case.null, case.strided, case.overlap, case.with_options);
            assert_eq!(input, before, "the input was written");
            if fast.0 == 0 && takes_plain_path(&case, &input, &mut a) {
                plain_calls += 1;
            }
        }
        assert!(
            plain_calls > 100,
            "only {plain_calls} calls took the plain path"
        );
    }
}
