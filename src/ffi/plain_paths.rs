// SPDX-License-Identifier: MIT OR Apache-2.0
//! The differential test of the exports' plain paths (tcast_cast, tcast_expand_ex):
//! random calls, valid and not, through the export and through its general path alone
//! give the same status, index, message and output bytes.

use super::guard::test_support::{blank_error, message};
use super::types::{
    tcast_cast_options, tcast_error, tcast_executor, tcast_status, tcast_task_fn, tcast_tensor,
};
use crate::error::Error;
use crate::testutil::{samples, Rng};
use std::ffi::c_void;

/// Which operation the random calls are shaped for.
#[derive(Copy, Clone, PartialEq)]
pub(crate) enum Kind {
    /// Equal shapes, mostly: a cast.
    Cast,
    /// An input shape that broadcasts to the output's, mostly, and one dtype.
    Expand,
}

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
    options: Option<tcast_cast_options>,
}

/// An executor that runs every task on the calling thread.
unsafe extern "C" fn inline_executor(
    _ctx: *mut c_void,
    n_tasks: u64,
    task: tcast_task_fn,
    task_ctx: *mut c_void,
) {
    for i in 0..n_tasks {
        // SAFETY: the task and its context as the library handed them over.
        unsafe { task(task_ctx, i) };
    }
}

/// The executors a random options struct points to: a working one and one without
/// `parallel_for`.
static EXECUTORS: [ExecutorCell; 2] = [
    ExecutorCell(tcast_executor {
        ctx: std::ptr::null_mut(),
        parallel_for: Some(inline_executor),
    }),
    ExecutorCell(tcast_executor {
        ctx: std::ptr::null_mut(),
        parallel_for: None,
    }),
];

/// A tcast_executor that is never written, shareable between test threads.
struct ExecutorCell(tcast_executor);

// SAFETY: the executors are never written and their `ctx` is NULL.
unsafe impl Sync for ExecutorCell {}

/// Options with the defaults or a random mix of valid and invalid values in each field
/// (struct_size, saturate, round_mode, string_format, casting, threads, executor).
fn random_options(rng: &mut Rng) -> tcast_cast_options {
    let mut options = super::tcast_cast_options_default();
    if rng.below(3) == 0 {
        return options;
    }
    let mut pick = |values: &[i32]| values[rng.below(values.len() as u64) as usize];
    options.saturate = pick(&[0, 1, 1, 0, 2, -1]);
    options.round_mode = pick(&[0, 1, 2, 0, 3, -1]);
    options.string_format = pick(&[0, 1, 0, 2]);
    options.casting = pick(&[4, 4, 0, 1, 2, 3, 5, -1]);
    options.threads = pick(&[0, 1, 2, 4, 0, 1, -1]);
    options.executor = match pick(&[0, 0, 1, 2]) {
        0 => std::ptr::null(),
        k => &EXECUTORS[k as usize - 1].0,
    };
    if pick(&[0, 0, 0, 0, 0, 1]) == 1 {
        options.struct_size = pick(&[0, 16, 24, 32]) as u32;
    }
    options
}

fn random_case(rng: &mut Rng, kind: Kind) -> Case {
    // Numeric, packed, low-precision and bad codes; STRING only for Expand, which
    // copies the views without reading them (random bytes are not views).
    const CODES: [i32; 14] = [1, 10, 11, 6, 7, 9, 16, 14, 2, 22, 17, 0, 100, 8];
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
    let rank = rng.below(4) as i32 - i32::from(rng.below(30) == 0);
    let (mut input, mut in_rank) = (shape, rank);
    if kind == Kind::Expand && rank > 0 {
        // Drop leading dims now and then, and broadcast some of the others.
        let drop = if rng.below(3) == 0 {
            pick(rng, rank as usize + 1)
        } else {
            0
        };
        in_rank = rank - drop as i32;
        input = [1; 3];
        for (k, d) in input[..in_rank as usize].iter_mut().enumerate() {
            *d = if rng.below(3) == 0 {
                1
            } else {
                shape[k + drop]
            };
        }
    }
    if rng.below(8) == 0 {
        input[pick(rng, 3)] = EXTENTS[pick(rng, 7)];
    }
    if rng.below(10) == 0 {
        in_rank = rng.below(4) as i32;
    }
    let bytes = |rng: &mut Rng| match rng.below(4) {
        0 => rng.below(512),
        _ => 512,
    };
    let codes = if kind == Kind::Cast { 13 } else { 14 };
    let from = CODES[pick(rng, codes)];
    let to = if kind == Kind::Expand && rng.below(8) != 0 {
        from
    } else {
        CODES[pick(rng, codes)]
    };
    Case {
        shapes: [input, shape],
        strides: [1, 1, 1],
        ranks: [in_rank, rank],
        dtypes: [from, to],
        bytes: [bytes(rng), bytes(rng)],
        null: if rng.below(16) == 0 {
            1 + rng.below(4)
        } else {
            0
        },
        strided: rng.below(10) == 0,
        overlap: rng.below(12) == 0,
        options: (rng.below(3) == 0).then(|| random_options(rng)),
    }
}

/// The case's descriptors over `input` and `out` (NULLs, strides and overlap as the case
/// says).
fn descriptors(case: &Case, input: &[u8], out: &mut [u8]) -> [tcast_tensor; 2] {
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
    [
        descriptor(0, input.as_ptr() as *mut u8),
        descriptor(1, out_ptr),
    ]
}

/// Runs `call` on the case with its output in `out`; returns the status, the error
/// and the output bytes.
fn run(
    case: &Case,
    input: &[u8],
    out: &mut [u8],
    call: &dyn Fn(
        *const tcast_tensor,
        *const tcast_tensor,
        *const tcast_cast_options,
        *mut tcast_error,
    ) -> tcast_status,
) -> (tcast_status, i64, String, Vec<u8>) {
    let [a, b] = descriptors(case, input, out);
    let mut err = blank_error();
    let status = call(
        if case.null == 1 { std::ptr::null() } else { &a },
        if case.null == 2 { std::ptr::null() } else { &b },
        case.options.as_ref().map_or(std::ptr::null(), |o| o),
        &mut err,
    );
    (status, err.index, message(&err), out.to_vec())
}

/// Random calls of `kind` through `export` and through `general` (the export's path
/// without its plain shortcut) agree in status, index, message and output bytes, and
/// leave the input alone; more than 100 of them took the plain path (`is_plain` of
/// the descriptors and options of a call without NULLs, strides or overlap), and more
/// than 100 calls with options succeeded. Returns how many plain calls had options.
pub(crate) fn check_paths_agree(
    kind: Kind,
    export: extern "C" fn(
        *const tcast_tensor,
        *const tcast_tensor,
        *const tcast_cast_options,
        *mut tcast_error,
    ) -> tcast_status,
    general: impl Fn(
        *const tcast_tensor,
        *const tcast_tensor,
        *const tcast_cast_options,
    ) -> Result<(), Error>,
    is_plain: impl Fn(*const tcast_tensor, *const tcast_tensor, *const tcast_cast_options) -> bool,
) -> usize {
    let mut rng = Rng(0x5eed_cafe_f00d_1234);
    let (mut plain_calls, mut with_options, mut plain_with_options) = (0, 0, 0);
    for _ in 0..samples(100_000) {
        let case = random_case(&mut rng, kind);
        let input: Vec<u8> = (0..512).map(|_| rng.below(256) as u8).collect();
        let before = input.clone();
        let (mut a, mut b) = (vec![0x5Au8; 512], vec![0x5Au8; 512]);
        let fast = run(&case, &input, &mut a, &|i, o, opt, e| export(i, o, opt, e));
        let general = run(&case, &input, &mut b, &|i, o, opt, e| {
            super::guard::guard(e, || general(i, o, opt))
        });
        assert_eq!(fast, general, "shapes {:?} ranks {:?} dtypes {:?} bytes {:?} null {} strided {} overlap {} options {:?}",
            case.shapes, case.ranks, case.dtypes, case.bytes, case.null, case.strided, case.overlap, case.options.map(|o| (o.struct_size, o.saturate, o.round_mode, o.string_format, o.casting, o.threads, o.executor)));
        assert_eq!(input, before, "the input was written");
        let simple = case.null == 0 && !case.overlap && !case.strided;
        if fast.0 == 0 && case.options.is_some() {
            with_options += 1;
        }
        if fast.0 == 0 && simple {
            let [i, o] = descriptors(&case, &input, &mut a);
            let options = case.options.as_ref().map_or(std::ptr::null(), |o| o);
            if is_plain(&i, &o, options) {
                plain_calls += 1;
                plain_with_options += usize::from(case.options.is_some());
            }
        }
    }
    assert!(
        plain_calls > 100,
        "only {plain_calls} calls took the plain path"
    );
    assert!(
        with_options > 100,
        "only {with_options} calls with options succeeded"
    );
    plain_with_options
}

/// Random calls of tcast_cast and of a plan made for the call's dtypes and options
/// (tcast_cast_plan_create, tcast_cast_plan_run) agree: where the plan is made, in
/// status, index, message and output bytes, whatever is wrong with the tensors; where it
/// is not, tcast_cast on the same (non-NULL) descriptors fails with the same status. A
/// plan's run with a tensor of another dtype is INVALID_DTYPE, naming both. Returns how
/// many runs succeeded on the plan's plain path.
pub(crate) fn check_plans_agree() -> usize {
    use super::plan::{tcast_cast_plan_create, tcast_cast_plan_free, tcast_cast_plan_run};
    let mut rng = Rng(0x91a2_b3c4_d5e6_f708);
    let (mut made, mut plain_runs) = (0, 0);
    for _ in 0..samples(50_000) {
        let case = random_case(&mut rng, Kind::Cast);
        let input: Vec<u8> = (0..512).map(|_| rng.below(256) as u8).collect();
        let options = case.options.as_ref().map_or(std::ptr::null(), |o| o);
        let mut plan = std::ptr::NonNull::<super::plan::tcast_cast_plan>::dangling().as_ptr();
        let mut err = blank_error();
        let status =
            tcast_cast_plan_create(case.dtypes[0], case.dtypes[1], options, &mut plan, &mut err);
        let (mut a, mut b) = (vec![0x5Au8; 512], vec![0x5Au8; 512]);
        let direct = run(&case, &input, &mut a, &|i, o, opt, e| {
            super::tcast_cast(i, o, opt, e)
        });
        if status != 0 {
            assert!(plan.is_null(), "a failed create left a plan");
            if case.null == 0 {
                assert_eq!(
                    direct.0,
                    status,
                    "dtypes {:?}: tcast_cast says {}, the plan {}",
                    case.dtypes,
                    direct.2,
                    message(&err)
                );
            }
            continue;
        }
        made += 1;
        let planned = run(&case, &input, &mut b, &|i, o, _, e| {
            tcast_cast_plan_run(plan, i, o, std::ptr::null(), e)
        });
        assert_eq!(
            planned, direct,
            "shapes {:?} ranks {:?} dtypes {:?} bytes {:?} null {} strided {} overlap {}",
            case.shapes, case.ranks, case.dtypes, case.bytes, case.null, case.strided, case.overlap
        );
        if direct.0 == 0 && case.null == 0 && !case.overlap && !case.strided {
            // SAFETY: the plan is live; reading its plain half is what a run does.
            plain_runs += usize::from(unsafe { (*plan).has_plain_path() });
        }
        if case.null == 0 {
            // Another dtype than the plan's, on either side.
            let [mut i, mut o] = descriptors(&case, &input, &mut b);
            let other = |code: i32| if code == 1 { 11 } else { 1 };
            if rng.below(2) == 0 {
                i.dtype = other(case.dtypes[0]);
            } else {
                o.dtype = other(case.dtypes[1]);
            }
            let mut err = blank_error();
            let invalid = Error::InvalidDtype(String::new()).status() as i32;
            assert_eq!(
                tcast_cast_plan_run(plan, &i, &o, std::ptr::null(), &mut err),
                invalid
            );
            assert!(
                message(&err).contains("is not the plan's"),
                "{}",
                message(&err)
            );
            // A per-call executor without parallel_for is refused, however small the call.
            let [i, o] = descriptors(&case, &input, &mut b);
            let status = tcast_cast_plan_run(plan, &i, &o, &EXECUTORS[1].0, &mut err);
            assert_eq!(
                status,
                Error::InvalidArgument(String::new()).status() as i32
            );
            assert!(
                message(&err).contains("parallel_for is NULL"),
                "{}",
                message(&err)
            );
        }
        tcast_cast_plan_free(plan);
    }
    assert!(made > 1000, "only {made} plans were made");
    assert!(
        plain_runs > 100,
        "only {plain_runs} runs took the plain path"
    );
    plain_runs
}
