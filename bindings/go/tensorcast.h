/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * tensorcast: exact, fast dtype conversions for tensors (ONNX Cast, Expand, Bitcast,
 * numpy casting rules) behind a C ABI.
 *
 * Conventions: every fallible function returns a tcast_status (TCAST_OK == 0) and takes
 * a tcast_error* last (may be NULL), filled on failure with the status, an element index
 * (or -1) and a message; tcast_cast_options_init, which only fills a struct, returns
 * its status alone. Inputs are never written; outputs are caller-allocated and
 * contiguous. All functions are thread-safe and reentrant. Multi-byte elements are in
 * host byte order; buffers need no alignment.
 *
 * When several things are wrong, the status is that of the first failed check in this
 * order, for every function: NULL pointers; dtype codes, then the dtypes as a pair (that
 * must agree, or that the operation takes); option and argument values (and the numpy
 * casting level they ask for); shapes; buffer and capacity sizes; overlap of input and
 * output, judged on the byte ranges the shapes describe. A text argument that is not
 * UTF-8 is TCAST_ERR_PARSE.
 *
 * Numeric casts, Expand, Bitcast and the shape and query functions allocate no heap
 * memory when they succeed (an error message may).
 */

#ifndef TENSORCAST_H
#define TENSORCAST_H

/* Generated from the Rust sources by `bash scripts/generate.sh` (cbindgen and the
 * enumeration tables in src/): do not edit. */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

/* =======================================================================================
 * Status and errors
 *
 * Every fallible function returns a tcast_status and fills the caller's tcast_error, when
 * not NULL, with the details.
 * ======================================================================================= */

/**
 * A status code: `TCAST_OK` (0) or one of the `TCAST_ERR_*` values.
 */
typedef int32_t tcast_status;

/*
 * The tcast_status values: TCAST_OK, or the TCAST_ERR_* code of what failed
 * (tcast_status_name gives the name of each).
 */

/** Success. */
#define TCAST_OK 0
/** A required pointer was NULL. */
#define TCAST_ERR_NULL_ARGUMENT 1
/** Unknown dtype code or name. */
#define TCAST_ERR_INVALID_DTYPE 2
/** Valid dtypes the operation does not accept. */
#define TCAST_ERR_UNSUPPORTED 3
/**
 * Negative dimension, rank above TCAST_MAX_NDIM, element or byte count overflow, bad
 * strides, or an output shape that is not what the operation produces.
 */
#define TCAST_ERR_INVALID_SHAPE 4
/** A broadcast or bitcast shape rule was violated. */
#define TCAST_ERR_INCOMPATIBLE_SHAPES 5
/** `data_bytes`, an arena or an output capacity is smaller than needed. */
#define TCAST_ERR_BUFFER_TOO_SMALL 6
/** A string element or a dtype spec could not be parsed. */
#define TCAST_ERR_PARSE 7
/** A bad option or enum value, or overlapping input and output buffers. */
#define TCAST_ERR_INVALID_ARGUMENT 8
/** The cast is not allowed at the requested numpy casting level. */
#define TCAST_ERR_CASTING 9
/**
 * A temporary the operation needs could not be allocated (never an abort of the host).
 */
#define TCAST_ERR_OUT_OF_MEMORY 10
/** A bug: a panic was caught at the boundary. */
#define TCAST_ERR_INTERNAL 99

/**
 * Bytes of `tcast_error.message`, its terminating NUL included.
 */
#define TCAST_ERROR_MESSAGE_BYTES 256

/**
 * Details of a failure, written into the caller's struct (never a thread-local).
 */
typedef struct tcast_error {
  /**
   * The status the call returned.
   */
  int32_t status;
  /**
   * The element the error is about, or -1.
   */
  int64_t index;
  /**
   * What was wrong, NUL-terminated UTF-8 (cut at a character boundary if long).
   */
  char message[TCAST_ERROR_MESSAGE_BYTES];
} tcast_error;

/**
 * The name of a status code ("TCAST_ERR_PARSE"), or "unknown" for a value that is not
 * one. The string is static. Thread-safe.
 */
const char *tcast_status_name(tcast_status status);

/* =======================================================================================
 * Dtypes
 *
 * Element types, their names and widths, and the ONNX Cast schemas that list them.
 * ======================================================================================= */

/**
 * A dtype: an ONNX TensorProto.DataType code, or a TensorFlow quantized type (100-104).
 */
typedef int32_t tcast_dtype;

/*
 * The tcast_dtype values: ONNX TensorProto.DataType codes, and TensorFlow's quantized
 * types at 100-104. tcast_dtype_name, tcast_dtype_bits and tcast_dtype_from_name give
 * their names and widths.
 */

/** ONNX's UNDEFINED: not a dtype; functions treat it as an unknown code. */
#define TCAST_DTYPE_UNDEFINED 0
/** IEEE 754 binary32. */
#define TCAST_DTYPE_FLOAT 1
/** 8-bit unsigned integer. */
#define TCAST_DTYPE_UINT8 2
/** 8-bit two's complement integer. */
#define TCAST_DTYPE_INT8 3
/** 16-bit unsigned integer. */
#define TCAST_DTYPE_UINT16 4
/** 16-bit two's complement integer. */
#define TCAST_DTYPE_INT16 5
/** 32-bit two's complement integer. */
#define TCAST_DTYPE_INT32 6
/** 64-bit two's complement integer. */
#define TCAST_DTYPE_INT64 7
/** Text: each element is a tcast_string view (bytes and length). */
#define TCAST_DTYPE_STRING 8
/** One byte, 0 or 1. */
#define TCAST_DTYPE_BOOL 9
/** IEEE 754 binary16. */
#define TCAST_DTYPE_FLOAT16 10
/** IEEE 754 binary64. */
#define TCAST_DTYPE_DOUBLE 11
/** 32-bit unsigned integer. */
#define TCAST_DTYPE_UINT32 12
/** 64-bit unsigned integer. */
#define TCAST_DTYPE_UINT64 13
/** Two FLOATs, real part first. */
#define TCAST_DTYPE_COMPLEX64 14
/** Two DOUBLEs, real part first. */
#define TCAST_DTYPE_COMPLEX128 15
/** bfloat16: the sign, exponent and top 7 mantissa bits of a FLOAT. */
#define TCAST_DTYPE_BFLOAT16 16
/** float8 E4M3: no infinities, one NaN pattern per sign. */
#define TCAST_DTYPE_FLOAT8E4M3FN 17
/** float8 E4M3: no infinities, no -0, one NaN (0x80). */
#define TCAST_DTYPE_FLOAT8E4M3FNUZ 18
/** float8 E5M2, with infinities and NaNs (the top byte of a FLOAT16). */
#define TCAST_DTYPE_FLOAT8E5M2 19
/** float8 E5M2: no infinities, no -0, one NaN (0x80). */
#define TCAST_DTYPE_FLOAT8E5M2FNUZ 20
/** 4-bit unsigned integer, packed two per byte (element 0 in the low bits). */
#define TCAST_DTYPE_UINT4 21
/** 4-bit two's complement integer, packed two per byte (element 0 in the low bits). */
#define TCAST_DTYPE_INT4 22
/** float4 E2M1 (no infinities or NaNs), packed two per byte. */
#define TCAST_DTYPE_FLOAT4E2M1 23
/** float8 E8M0: a power of two 2^-127 .. 2^127, or NaN (0xFF); no sign, no zero. */
#define TCAST_DTYPE_FLOAT8E8M0 24
/** 2-bit unsigned integer, packed four per byte (element 0 in the low bits). */
#define TCAST_DTYPE_UINT2 25
/** 2-bit two's complement integer, packed four per byte (element 0 in the low bits). */
#define TCAST_DTYPE_INT2 26
/** float6 E2M3 (no infinities or NaNs), packed four per three bytes. */
#define TCAST_DTYPE_FLOAT6E2M3 27
/** float6 E3M2 (no infinities or NaNs), packed four per three bytes. */
#define TCAST_DTYPE_FLOAT6E3M2 28
/** TensorFlow's quantized qint8: stored and cast as INT8. */
#define TCAST_DTYPE_QINT8 100
/** TensorFlow's quantized quint8: stored and cast as UINT8. */
#define TCAST_DTYPE_QUINT8 101
/** TensorFlow's quantized qint16: stored and cast as INT16. */
#define TCAST_DTYPE_QINT16 102
/** TensorFlow's quantized quint16: stored and cast as UINT16. */
#define TCAST_DTYPE_QUINT16 103
/** TensorFlow's quantized qint32: stored and cast as INT32. */
#define TCAST_DTYPE_QINT32 104

/**
 * The dtype's name ("FLOAT", "QINT8"), a static string; NULL for an unknown code
 * (UNDEFINED included).
 */
const char *tcast_dtype_name(tcast_dtype dtype);

/**
 * Bits per element: 32 for FLOAT, 4 for INT4, 6 for FLOAT6*, 8 for BOOL,
 * 8 * sizeof(tcast_string) for STRING; 0 for an unknown code.
 */
uint32_t tcast_dtype_bits(tcast_dtype dtype);

/**
 * Looks a dtype up by name, ignoring ASCII case: the ONNX names as Cast-1 takes them
 * ("FLOAT", "INT64", "FLOAT16", ...) and the aliases float32, float64, float16, half,
 * bfloat16, int8 ... uint64, bool, string, complex64, complex128, qint8 ... qint32 and
 * ml_dtypes' names of the low-precision types (float8_e4m3fn, int4, ...).
 * Errors: NULL_ARGUMENT (name or out NULL), PARSE (a name that is not UTF-8),
 * INVALID_DTYPE (no such name).
 */
tcast_status tcast_dtype_from_name(const char *name, tcast_dtype *out, struct tcast_error *err);

/**
 * 1 if the ONNX Cast schema in force at `opset` lists both dtypes, else 0. Cast has
 * versions 1, 6, 9, 13, 19, 21, 23, 24, 25 and 28; each stays in force until the next,
 * so opsets above 28 are answered with Cast-28. Complex and the TF quantized types are
 * never listed; opsets below 1 and unknown codes give 0.
 */
int32_t tcast_onnx_cast_supported(tcast_dtype from, tcast_dtype to, int32_t opset);

/* =======================================================================================
 * Tensors
 *
 * How a caller describes a tensor: data, byte count, shape, optional strides, dtype.
 * ======================================================================================= */

/**
 * The largest rank a tensor may have.
 */
#define TCAST_MAX_NDIM 64

/**
 * A tensor as the caller describes it. Inputs are never written.
 */
typedef struct tcast_tensor {
  /**
   * The first element; may be NULL only if the tensor has no elements.
   */
  void *data;
  /**
   * Bytes the caller guarantees at `data`; checked against the shape.
   */
  uint64_t data_bytes;
  /**
   * `ndim` extents, each >= 0; may be NULL when `ndim` is 0.
   */
  const int64_t *shape;
  /**
   * Optional strides in elements, each >= 0; NULL means C-contiguous. Inputs only
   * (an output's strides, if given, must describe the contiguous layout); not allowed
   * for sub-byte dtypes.
   */
  const int64_t *strides;
  /**
   * 0 ..= TCAST_MAX_NDIM; 0 is a scalar of one element.
   */
  int32_t ndim;
  /**
   * The element type.
   */
  tcast_dtype dtype;
} tcast_tensor;

/**
 * `data` for an input whose buffer is const, without a cast (-Wcast-qual stays quiet):
 * `in.data = TCAST_CONST_DATA(values);`. Inputs are never written. The field stays
 * `void *` (docs/c-api.md section 11: a field's type is part of the ABI).
 */
#define TCAST_CONST_DATA(p) ((void *)(uintptr_t)(const void *)(p))

/**
 * The bytes a C-contiguous tensor of `dtype` and `shape` occupies, sub-byte types
 * packed (INT4: 2 per byte, INT2: 4 per byte, FLOAT6: 4 per 3 bytes).
 * Errors: NULL_ARGUMENT, INVALID_DTYPE, INVALID_SHAPE (negative dim, ndim outside
 * 0..=TCAST_MAX_NDIM, or a count that overflows 64 bits).
 */
tcast_status tcast_tensor_bytes(tcast_dtype dtype,
                                const int64_t *shape,
                                int32_t ndim,
                                uint64_t *out_bytes,
                                struct tcast_error *err);

/* =======================================================================================
 * Cast
 *
 * ONNX Cast between tensors (tcast_cast), its options, and numpy's casting levels for
 * tensorcast dtypes (tcast_can_cast).
 * ======================================================================================= */

/*
 * tcast_cast_options.round_mode: how FLOAT8E8M0 targets round (ONNX Cast's round_mode).
 */

/** `round_mode` "up" (the ONNX default): FLOAT8E8M0 targets only. */
#define TCAST_ROUND_UP 0
/** `round_mode` "down". */
#define TCAST_ROUND_DOWN 1
/** `round_mode` "nearest" (ties up). */
#define TCAST_ROUND_NEAREST 2

/*
 * tcast_cast_options.string_format: how numbers are written as text
 * (tcast_cast_to_strings).
 */

/** Shortest round-trip text in numpy's str() layout (the default). */
#define TCAST_FORMAT_SHORTEST 0
/** C's "%.8g" ("%.17g" for DOUBLE). */
#define TCAST_FORMAT_PRINTF_8G 1

/*
 * numpy casting levels, strictest first: tcast_cast_options.casting, the casting
 * arguments of tcast_can_cast and tcast_np_*, and the level tcast_np_casting_level
 * reports.
 */

/** numpy's 'no': only identical dtypes. */
#define TCAST_CASTING_NO 0
/** numpy's 'equiv': identical dtypes up to byte order. */
#define TCAST_CASTING_EQUIV 1
/** numpy's 'safe': only casts that keep every value. */
#define TCAST_CASTING_SAFE 2
/** numpy's 'same_kind': safe casts and casts within a kind, such as DOUBLE to FLOAT. */
#define TCAST_CASTING_SAME_KIND 3
/**
 * numpy's 'unsafe': any cast (the default of tcast_cast_options, which then checks
 * nothing).
 */
#define TCAST_CASTING_UNSAFE 4
/**
 * The level `tcast_np_casting_level` reports when no casting level allows the cast; never
 * an argument.
 */
#define TCAST_CASTING_NEVER 5

/**
 * One task of a call: the executor calls it with the `task_ctx` it was given and each
 * task index in `[0, n_tasks)`.
 */
typedef void (*tcast_task_fn)(void *task_ctx, uint64_t task_index);

/**
 * A host's thread pool (docs/c-api.md section 9).
 */
typedef struct tcast_executor {
  /**
   * Passed back to `parallel_for` as is.
   */
  void *ctx;
  /**
   * Must run `task(task_ctx, i)` exactly once for every i in [0, n_tasks), on any
   * threads in any order, and return only when all have finished. Tasks do not
   * block on each other: running them one after another on the calling thread is a
   * valid executor.
   */
  void (*parallel_for)(void *ctx, uint64_t n_tasks, tcast_task_fn task, void *task_ctx);
} tcast_executor;

/**
 * Options of a cast. Start from `tcast_cast_options_init(&opts, sizeof opts)` (the
 * defaults for the caller's size) and change fields.
 */
typedef struct tcast_cast_options {
  /**
   * sizeof(tcast_cast_options) as the caller compiled it; fields past it take their
   * defaults; a size below this first layout's (24) is TCAST_ERR_INVALID_ARGUMENT.
   */
  uint32_t struct_size;
  /**
   * 1 (default) or 0: float8 targets only (FLOAT8E8M0 included), ignored for others.
   * With 0, FLOAT8E8M0 gives NaN (0xFF) for 0, negatives, infinities and any value
   * above 2^127 or below 2^-127, in every round mode.
   */
  int32_t saturate;
  /**
   * TCAST_ROUND_*: FLOAT8E8M0 targets only.
   */
  int32_t round_mode;
  /**
   * TCAST_FORMAT_*: numeric -> STRING.
   */
  int32_t string_format;
  /**
   * TCAST_CASTING_*: below UNSAFE, refuse (TCAST_ERR_CASTING) the casts numpy would
   * not allow at this level, as `tcast_can_cast` answers; UNSAFE (the default) checks
   * nothing, so even pairs numpy has no cast for (STRING -> INT4) work.
   */
  int32_t casting;
  /**
   * 0 or 1: the calling thread only (default); n > 1: up to n tasks, results
   * bit-identical to one thread. Without an executor the library starts threads of
   * its own, only when each has enough work to repay its start.
   */
  int32_t threads;
  /**
   * NULL (default): the library's own threads when `threads` > 1. Otherwise the
   * host's executor: the call splits its work into at most `threads` tasks, calls
   * `parallel_for` once and starts no thread (docs/c-api.md section 9).
   */
  const struct tcast_executor *executor;
} tcast_cast_options;

/**
 * Fills `*opts` with the default options for a struct of `size` bytes, the caller's
 * `sizeof(tcast_cast_options)`: `struct_size` = `size`, each field the library knows
 * that lies within `size` its default, and any further byte up to `size` zero (fields
 * this library does not know, which it never reads). A program built against an older,
 * smaller struct gets its prefix filled and nothing past it written. The way to start
 * a tcast_cast_options: `tcast_cast_options_init(&opts, sizeof opts)`, then change
 * fields. Returns its status only (it has no message to give).
 * Errors: NULL_ARGUMENT (`opts` NULL), INVALID_ARGUMENT (`size` below the first layout,
 * 24 bytes, or above UINT32_MAX); nothing is written then.
 */
tcast_status tcast_cast_options_init(struct tcast_cast_options *opts, size_t size);

/**
 * The default options, with `struct_size` set to this header's size. Deprecated in the
 * docs: it returns the struct by value, at the size of the header the library was built
 * with, so it cannot grow with the struct; use tcast_cast_options_init.
 */
struct tcast_cast_options tcast_cast_options_default(void);

/**
 * Casts `input` into `output`, element by element (ONNX Cast; complex as tf.cast and
 * numpy's astype). `output->shape` must equal `input->shape`; `output->dtype` is the
 * target; input and output buffers must not overlap. `options` may be NULL (defaults).
 * Float -> integer truncates and saturates (NaN -> 0), integer -> integer wraps, and
 * float conversions round once to nearest even. INT4/UINT4/INT2/UINT2 take floats
 * rounded to the nearest even integer and keep the low bits (NaN, inf -> 0). FLOAT4E2M1
 * and FLOAT6 always saturate and keep -0; they write +NaN as -0 (0x8, 0x20) and -NaN as
 * +0, as onnx's reference (ml_dtypes) does. A STRING input is parsed (each view's
 * bytes, trimmed of C's whitespace: space, \t, \n, \v, \f, \r; "inf"/"nan" in any
 * case; decimal or scientific; an integer text exactly, converted as a float of that
 * value: 8- to 64-bit integers saturate, "300" -> INT8 127, and INT4/UINT4/INT2/UINT2
 * keep the low bits, "20" -> UINT4 4, "-5" -> UINT4 11), failing with TCAST_ERR_PARSE
 * and `err->index` at the first bad element; STRING -> STRING copies the views.
 * Numeric -> STRING needs an arena: use tcast_cast_to_strings. Sub-byte dtypes are
 * packed (docs/c-api.md section 4; tcast_cast_sub_byte takes them one per byte);
 * `saturate` applies to float8 targets and `round_mode` to FLOAT8E8M0. Thread-safe;
 * allocates nothing on success, STRING parsing included (threads > 1 without an
 * executor may start threads: docs/c-api.md section 9).
 * `options->casting` below UNSAFE refuses the casts that `tcast_can_cast` refuses at
 * that level (numpy's rules, with ml_dtypes' for the ML types).
 * Errors: NULL_ARGUMENT, INVALID_DTYPE, UNSUPPORTED (complex <-> STRING, numeric ->
 * STRING), CASTING (refused at `options->casting`, numpy's message), INVALID_SHAPE,
 * BUFFER_TOO_SMALL, PARSE, INVALID_ARGUMENT (bad option, overlapping buffers).
 */
tcast_status tcast_cast(const struct tcast_tensor *input,
                        const struct tcast_tensor *output,
                        const struct tcast_cast_options *options,
                        struct tcast_error *err);

/**
 * An opaque prepared cast (from `tcast_cast_plan_create`, freed with
 * `tcast_cast_plan_free`): a dtype pair and options checked, and the kernel chosen,
 * once. Immutable: one plan may be used from many threads at once.
 */
typedef struct tcast_cast_plan tcast_cast_plan;

/**
 * Prepares the cast of tensors of dtype `from` into tensors of dtype `to` with
 * `options` (NULL: the defaults), as tcast_cast would make it, and writes the plan to
 * `*plan` (NULL on failure). Everything tcast_cast checks of the pair and the options is
 * checked here, with tcast_cast's errors; the options are copied (an executor they name
 * must stay valid until the plan is freed). Free the plan with tcast_cast_plan_free.
 * Errors: NULL_ARGUMENT (`plan`), INVALID_DTYPE, UNSUPPORTED, INVALID_ARGUMENT (a bad
 * option), CASTING.
 */
tcast_status tcast_cast_plan_create(tcast_dtype from,
                                    tcast_dtype to,
                                    const struct tcast_cast_options *options,
                                    struct tcast_cast_plan **plan,
                                    struct tcast_error *err);

/**
 * Casts `input` into `output` as tcast_cast does with the plan's options: the same
 * results, errors and rules (shapes equal, no overlap, packed sub-byte dtypes), for
 * tensors of the plan's dtypes; a tensor of another dtype is INVALID_DTYPE. `executor`,
 * when not NULL, runs this call's tasks in place of the options' executor (a host whose
 * thread pool is known per call: docs/c-api.md section 9); the options' `threads` still
 * bounds them. A call on contiguous tensors of numeric dtypes that are not packed,
 * which runs on the calling thread, costs only the checks of the two tensors and the
 * kernel.
 * Errors: those of tcast_cast; NULL_ARGUMENT also for `plan`.
 */
tcast_status tcast_cast_plan_run(const struct tcast_cast_plan *plan,
                                 const struct tcast_tensor *input,
                                 const struct tcast_tensor *output,
                                 const struct tcast_executor *executor,
                                 struct tcast_error *err);

/**
 * Frees a plan from tcast_cast_plan_create. NULL is a no-op.
 */
void tcast_cast_plan_free(struct tcast_cast_plan *plan);

/*
 * The sub_byte_layout argument of tcast_cast_sub_byte: how the sub-byte tensors of the
 * call hold their elements.
 */

/** Packed, element 0 in the lowest bits (docs/c-api.md section 4; the default). */
#define TCAST_SUB_BYTE_PACKED 0
/**
 * One element per byte, its code in the low bits, as ml_dtypes stores int4, float4_e2m1fn
 * and the others: read with the high bits ignored, written with them 0; the tensor's
 * bytes are its element count, and an input may have strides (in elements, which are
 * bytes).
 */
#define TCAST_SUB_BYTE_UNPACKED 1

/**
 * tcast_cast with the sub-byte tensors of the call (INT4, UINT4, FLOAT4E2M1, INT2, UINT2,
 * FLOAT6E2M3, FLOAT6E3M2; input and output alike) held as `sub_byte_layout` says:
 * TCAST_SUB_BYTE_PACKED is tcast_cast; with TCAST_SUB_BYTE_UNPACKED each element has a
 * byte of its own, as ml_dtypes' arrays hold them: its code in the low bits, read with
 * the high bits ignored (0xF1 as INT4 is 1) and written with them 0 (INT4 -1 is 0x0F,
 * FLOAT4E2M1 -1.0 is 0x0A). Such a tensor spans its element count in bytes (what
 * tcast_tensor_bytes gives for UINT8 and the shape), which `data_bytes` is checked
 * against, and an input may have strides, in elements (which are bytes). Other dtypes
 * are the same either way. Results are those of tcast_cast, on any number of threads.
 * Errors: as tcast_cast, and INVALID_ARGUMENT for a `sub_byte_layout` other than the
 * two (checked with the options).
 */
tcast_status tcast_cast_sub_byte(const struct tcast_tensor *input,
                                 const struct tcast_tensor *output,
                                 const struct tcast_cast_options *options,
                                 int32_t sub_byte_layout,
                                 struct tcast_error *err);

/**
 * `numpy.can_cast` on tensorcast dtypes, as numpy 2.4 with ml_dtypes 0.6 answers it:
 * numpy's names for the classic types, ml_dtypes' registered casts for the ML types,
 * STRING as numpy's unsized `U`, the TF quantized types as their storage integers.
 * `*result` is 1 or 0. The `casting` option of `tcast_cast` uses the same answer.
 * Errors: NULL_ARGUMENT, INVALID_DTYPE, INVALID_ARGUMENT (casting outside 0..4).
 */
tcast_status tcast_can_cast(tcast_dtype from,
                            tcast_dtype to,
                            int32_t casting,
                            int32_t *result,
                            struct tcast_error *err);

/* =======================================================================================
 * Strings
 *
 * STRING elements are views; numbers are formatted into a caller's arena.
 * ======================================================================================= */

/**
 * One STRING element: `len` bytes at `data`, not NUL-terminated.
 */
typedef struct tcast_string {
  /**
   * The first byte; may be NULL only when `len` is 0.
   */
  const char *data;
  /**
   * Bytes at `data`.
   */
  uint64_t len;
} tcast_string;

/**
 * Caller-owned memory that formatted text is appended to.
 */
typedef struct tcast_string_arena {
  /**
   * The arena's first byte; may be NULL only when `capacity` is 0.
   */
  char *data;
  /**
   * Bytes at `data`.
   */
  uint64_t capacity;
  /**
   * Bytes already in use; text is appended here and `used` advances on success.
   */
  uint64_t used;
} tcast_string_arena;

/**
 * The longest text one element of `dtype` can format to, in any format; an arena of
 * n * this many bytes always suffices. 0 for STRING, complex and unknown codes.
 */
uint64_t tcast_string_max_bytes(tcast_dtype dtype);

/**
 * Formats each element of a numeric `input` as text appended to `arena`, and points the
 * STRING `output` (same shape, contiguous) at the texts. `options` may be NULL
 * (TCAST_FORMAT_SHORTEST; `string_format` chooses TCAST_FORMAT_PRINTF_8G).
 * Integers are written in decimal, BOOL as "True"/"False", NaN and infinities as "NaN",
 * "INF", "-INF". An arena of n * tcast_string_max_bytes(dtype) free bytes always
 * suffices; when the free bytes run out the call fails with BUFFER_TOO_SMALL, the bytes
 * needed in the message, and `arena->used` unchanged. The input, the output and the
 * arena must not overlap. The low-precision and packed dtypes format their values too.
 * Errors: NULL_ARGUMENT, INVALID_DTYPE, UNSUPPORTED (complex input, STRING input, an
 * output that is not STRING), CASTING (refused at `options.casting`), INVALID_SHAPE,
 * BUFFER_TOO_SMALL, INVALID_ARGUMENT.
 */
tcast_status tcast_cast_to_strings(const struct tcast_tensor *input,
                                   const struct tcast_tensor *output,
                                   struct tcast_string_arena *arena,
                                   const struct tcast_cast_options *options,
                                   struct tcast_error *err);

/* =======================================================================================
 * Expand
 *
 * ONNX Expand: numpy broadcasting of a tensor to a shape.
 * ======================================================================================= */

/**
 * The shape Expand produces: the numpy broadcast of `input_shape` with `shape`,
 * aligned on the right (equal extents stay, a 1 takes the other extent, 0 included).
 * Writes the rank to `*out_ndim` and the extents to `out_shape[0 .. rank)`.
 * Errors: NULL_ARGUMENT (a shape NULL with a non-zero length, out_ndim NULL, out_shape
 * NULL with out_capacity > 0), INVALID_SHAPE (a negative extent or length, rank above
 * TCAST_MAX_NDIM), INCOMPATIBLE_SHAPES (both shapes and the dimension in the message),
 * BUFFER_TOO_SMALL (out_capacity below the rank; `*out_ndim` is still set to the rank),
 * INVALID_ARGUMENT (negative out_capacity).
 */
tcast_status tcast_expand_shape(const int64_t *input_shape,
                                int32_t input_ndim,
                                const int64_t *shape,
                                int32_t shape_len,
                                int64_t *out_shape,
                                int32_t out_capacity,
                                int32_t *out_ndim,
                                struct tcast_error *err);

/**
 * Expands `input` into `output`: `output->dtype` must equal `input->dtype` and
 * `output->shape` must be the broadcast of `input->shape` with it (what
 * tcast_expand_shape gives). Every dtype: STRING copies the views, packed dtypes are
 * expanded bit-exactly. Strided inputs (stride 0 included) work; the output is
 * contiguous and must not overlap the input. An empty output succeeds, writing nothing.
 * Errors: NULL_ARGUMENT, INVALID_DTYPE, INVALID_SHAPE (including an output shape that
 * is not the broadcast), INCOMPATIBLE_SHAPES, BUFFER_TOO_SMALL, INVALID_ARGUMENT
 * (different dtypes, overlapping buffers).
 */
tcast_status tcast_expand(const struct tcast_tensor *input,
                          const struct tcast_tensor *output,
                          struct tcast_error *err);

/**
 * tcast_expand with options: `threads` and `executor` split a large expansion into
 * tasks (docs/c-api.md section 9); the other fields are checked and otherwise
 * ignored. `options` may be NULL (the calling thread only).
 * Errors: as tcast_expand, and INVALID_ARGUMENT for a bad option.
 */
tcast_status tcast_expand_ex(const struct tcast_tensor *input,
                             const struct tcast_tensor *output,
                             const struct tcast_cast_options *options,
                             struct tcast_error *err);

/* =======================================================================================
 * QuantizeLinear and DequantizeLinear
 *
 * ONNX QuantizeLinear / DequantizeLinear (opsets 10-25): per-tensor, per-axis and blocked
 * scales, integer, float8, float4 and float6 elements, rounded once from the exact value.
 * ======================================================================================= */

/**
 * Options of tcast_quantize_linear and tcast_dequantize_linear: ONNX's attributes.
 * Start from `tcast_qdq_options_init(&opts, sizeof opts)` (the defaults for the caller's
 * size) and change fields; NULL options are the defaults.
 */
typedef struct tcast_qdq_options {
  /**
   * sizeof(tcast_qdq_options) as the caller compiled it; fields past it take their
   * defaults; a size below this first layout's (32) is TCAST_ERR_INVALID_ARGUMENT.
   */
  uint32_t struct_size;
  /**
   * 1 (default) or 0: float8 element types only (QuantizeLinear): out-of-range
   * values give the largest finite value, or infinity (E5M2) / NaN (the others).
   */
  int32_t saturate;
  /**
   * The quantization axis of per-axis and blocked scales, in `[-rank, rank-1]`;
   * ONNX's default 1; ignored for a per-tensor scale.
   */
  int64_t axis;
  /**
   * 0 (default): the scale's shape says per-tensor (`[]` or `[1]`) or per-axis (`[D]`);
   * > 0: blocked along `axis`, the scale of x's shape with ceil(D / block_size) there.
   */
  int64_t block_size;
  /**
   * QuantizeLinear only. 0 (default): x / scale is not rounded before the one
   * rounding to the element type. TCAST_DTYPE_FLOAT, _FLOAT16, _BFLOAT16 or _DOUBLE:
   * ONNX's `precision`: x, scale and their quotient rounded to that type first (pass
   * the scale's dtype for ONNX 23+'s default). DequantizeLinear needs 0.
   */
  int32_t precision;
  /**
   * Reserved, 0.
   */
  int32_t reserved;
} tcast_qdq_options;

/**
 * Fills `*opts` with the default options for a struct of `size` bytes, the caller's
 * `sizeof(tcast_qdq_options)`: `struct_size` = `size`, each field the library knows
 * that lies within `size` its default (saturate 1, axis 1, block_size 0, precision 0),
 * any further byte up to `size` zero. Returns its status only.
 * Errors: NULL_ARGUMENT (`opts` NULL), INVALID_ARGUMENT (`size` below the first layout,
 * 32 bytes, or above UINT32_MAX); nothing is written then.
 */
tcast_status tcast_qdq_options_init(struct tcast_qdq_options *opts, size_t size);

/**
 * ONNX QuantizeLinear (opsets 10 to 25): `y = saturate(round(x / scale) + zero_point)`
 * into `y->dtype` (INT2, UINT2, INT4, UINT4, INT8, UINT8, INT16, UINT16, the four
 * FLOAT8 types, FLOAT4E2M1, and FLOAT6E2M3/E3M2 as an extension), from x FLOAT,
 * FLOAT16, BFLOAT16 or INT32, with a FLOAT, FLOAT16, BFLOAT16, FLOAT8E8M0 or INT32
 * scale: per-tensor (scale shape `[]` or `[1]`), per-axis (`[D]` along `options->axis`) or
 * blocked (`options->block_size` > 0). `zero_point` may be NULL (0); otherwise it has
 * y's dtype and the scale's shape, and for float element types must be all zeros.
 * x / scale is rounded once, to nearest even, from its exact value (unless
 * `options->precision`); integers saturate, NaN gives the zero point; float8 types
 * saturate per `options->saturate`. y has x's shape and does not overlap the inputs.
 * `options` may be NULL (defaults). docs/semantics-quantize.md has every rule.
 * Errors: NULL_ARGUMENT, INVALID_DTYPE, UNSUPPORTED (a dtype the operator does not
 * take), INVALID_SHAPE (y's shape, the scale's or zero point's shape for the
 * granularity), BUFFER_TOO_SMALL, INVALID_ARGUMENT (axis out of range, negative
 * block_size, bad option, zero point dtype, a non-zero float zero point with its
 * element index, overlapping buffers).
 */
tcast_status tcast_quantize_linear(const struct tcast_tensor *x,
                                   const struct tcast_tensor *scale,
                                   const struct tcast_tensor *zero_point,
                                   const struct tcast_tensor *y,
                                   const struct tcast_qdq_options *options,
                                   struct tcast_error *err);

/**
 * ONNX DequantizeLinear (opsets 10 to 25): `y = (x - zero_point) * scale`, rounded
 * once to nearest even into `y->dtype` (FLOAT, FLOAT16 or BFLOAT16; ONNX's
 * `output_dtype`), from x of a quantized type (as tcast_quantize_linear's y) or INT32,
 * with a FLOAT, FLOAT16, BFLOAT16 or FLOAT8E8M0 scale, per-tensor, per-axis or blocked
 * as for tcast_quantize_linear. `zero_point` may be NULL; otherwise it has x's dtype
 * and the scale's shape (all zeros for float element types). `options->precision`
 * must be 0. `options` may be NULL (defaults).
 * Errors: as tcast_quantize_linear.
 */
tcast_status tcast_dequantize_linear(const struct tcast_tensor *x,
                                     const struct tcast_tensor *scale,
                                     const struct tcast_tensor *zero_point,
                                     const struct tcast_tensor *y,
                                     const struct tcast_qdq_options *options,
                                     struct tcast_error *err);

/* =======================================================================================
 * MX and NVFP4 block quantization
 *
 * MXFP8/MXFP6/MXFP4/MXINT8 and NVFP4 with the block scales computed from the data (OCP
 * FLOOR, CEIL, EVEN, RCEIL rules), the inverse, and the MXFP4 layouts of ONNX, gpt-oss
 * and ggml converted bit for bit.
 * ======================================================================================= */

/*
 * tcast_mx_options.scale_rule: how an MX block's FLOAT8E8M0 scale follows from its
 * largest magnitude amax (docs/semantics-mx.md).
 */

/** OCP MX v1.0 (and torchao's FLOOR), the default: e = floor(log2(amax)) - emax. */
#define TCAST_MX_SCALE_FLOOR 0
/** torchao's CEIL: e = ceil(log2(amax)) - emax. */
#define TCAST_MX_SCALE_CEIL 1
/**
 * torchao's EVEN: amax rounded to the element's mantissa width first (half away from
 * zero), then floor: e = floor(log2(round(amax))) - emax.
 */
#define TCAST_MX_SCALE_EVEN 2
/** cuBLAS / torchao's RCEIL: e = ceil(log2(amax / max)), the scale rounded up. */
#define TCAST_MX_SCALE_RCEIL 3

/*
 * The from_layout and to_layout arguments of tcast_mx_repack: an MXFP4 storage layout
 * (docs/semantics-mx.md, "Layouts").
 */

/** ONNX: FLOAT4E2M1 data [..., 32 nb] and a FLOAT8E8M0 scale tensor [..., nb]. */
#define TCAST_MX_LAYOUT_ONNX 0
/** gpt-oss: UINT8 blocks [..., nb, 16] and UINT8 scales [..., nb]. */
#define TCAST_MX_LAYOUT_GPT_OSS 1
/** llama.cpp's block_mxfp4: UINT8 [..., nb, 17], the scale inside (no scale tensor). */
#define TCAST_MX_LAYOUT_GGML 2

/**
 * Options of tcast_mx_quantize, tcast_mx_dequantize and tcast_mx_repack. Start from
 * `tcast_mx_options_init(&opts, sizeof opts)` and change fields; NULL options are the
 * defaults.
 */
typedef struct tcast_mx_options {
  /**
   * sizeof(tcast_mx_options) as the caller compiled it; fields past it take their
   * defaults; a size below this first layout's (32) is TCAST_ERR_INVALID_ARGUMENT.
   */
  uint32_t struct_size;
  /**
   * MX scale rule, a TCAST_MX_SCALE_* constant (docs/semantics-mx.md):
   * TCAST_MX_SCALE_FLOOR (0, the default; OCP MX v1.0), _CEIL (1), _EVEN (2) or
   * _RCEIL (3, cuBLAS). NVFP4 ignores it.
   */
  int32_t scale_rule;
  /**
   * The axis the blocks run along, in `[-rank, rank-1]`; default -1 (the last).
   */
  int64_t axis;
  /**
   * Values per block; 0 (default): 32 for MX, 16 for NVFP4.
   */
  int64_t block_size;
  /**
   * Reserved, 0.
   */
  int32_t reserved0;
  /**
   * Reserved, 0.
   */
  int32_t reserved1;
} tcast_mx_options;

/**
 * Fills `*opts` with the default options for a struct of `size` bytes, the caller's
 * `sizeof(tcast_mx_options)`: `struct_size` = `size`, each field the library knows
 * that lies within `size` its default (scale_rule 0 FLOOR, axis -1, block_size 0),
 * any further byte up to `size` zero. Returns its status only.
 * Errors: NULL_ARGUMENT (`opts` NULL), INVALID_ARGUMENT (`size` below the first layout,
 * 32 bytes, or above UINT32_MAX); nothing is written then.
 */
tcast_status tcast_mx_options_init(struct tcast_mx_options *opts, size_t size);

/**
 * MX or NVFP4 quantization with the scales computed from x (docs/semantics-mx.md):
 * x FLOAT, FLOAT16 or BFLOAT16; y of x's shape, FLOAT8E4M3FN, FLOAT8E5M2 (MXFP8),
 * FLOAT6E2M3, FLOAT6E3M2 (MXFP6), FLOAT4E2M1 (MXFP4) or INT8 (MXINT8, the code times
 * 2^-6); `scale` x's shape with ceil(D / block_size) along `options->axis`: FLOAT8E8M0
 * (MX, block_size default 32, `options->scale_rule`) or FLOAT8E4M3FN (NVFP4: y
 * FLOAT4E2M1, block_size default 16), then `global_scale` is a FLOAT `[]` or `[1]`
 * receiving amax(x) / (6 * 448); NULL for MX. Elements are x / scale rounded once to
 * nearest even, saturating; a block holding NaN or an infinity gets a NaN scale (0xFF /
 * 0x7F) and zero elements. No output overlaps another or x. `options` may be NULL.
 * Errors: NULL_ARGUMENT, INVALID_DTYPE, UNSUPPORTED (a dtype the operation does not
 * take), INVALID_SHAPE (y's, scale's or global_scale's shape), BUFFER_TOO_SMALL,
 * INVALID_ARGUMENT (axis, block_size, scale_rule, reserved fields, global_scale given
 * for MX or missing for NVFP4, overlapping buffers).
 */
tcast_status tcast_mx_quantize(const struct tcast_tensor *x,
                               const struct tcast_tensor *y,
                               const struct tcast_tensor *scale,
                               const struct tcast_tensor *global_scale,
                               const struct tcast_mx_options *options,
                               struct tcast_error *err);

/**
 * The inverse of tcast_mx_quantize: y (FLOAT, FLOAT16 or BFLOAT16, x's shape) = the
 * element's value times its block's scale (times `global_scale`, a FLOAT `[]` or `[1]`,
 * for NVFP4; NULL for MX), rounded once to nearest even. A NaN scale (E8M0 0xFF,
 * E4M3FN 0x7F) gives NaN. Shapes and options as tcast_mx_quantize (`scale_rule` is
 * not used). y does not overlap the inputs.
 * Errors: as tcast_mx_quantize.
 */
tcast_status tcast_mx_dequantize(const struct tcast_tensor *x,
                                 const struct tcast_tensor *scale,
                                 const struct tcast_tensor *global_scale,
                                 const struct tcast_tensor *y,
                                 const struct tcast_mx_options *options,
                                 struct tcast_error *err);

/**
 * Converts MXFP4 data between layouts by moving nibbles and bytes (no value is
 * decoded; docs/semantics-mx.md "Layouts"). `from_layout` / `to_layout`, TCAST_MX_LAYOUT_*
 * constants: _ONNX (data FLOAT4E2M1 `[..., 32 nb]`, scales FLOAT8E8M0 `[..., nb]`),
 * _GPT_OSS (data UINT8 `[..., nb, 16]`, scales UINT8 `[..., nb]`), _GGML (`block_mxfp4`:
 * data UINT8 `[..., nb, 17]`, scales NULL). The leading dims and nb must agree; outputs do not
 * overlap the inputs. `options` may be NULL (no field is used yet).
 * Errors: NULL_ARGUMENT, INVALID_DTYPE, UNSUPPORTED (a dtype other than the layout's),
 * INVALID_SHAPE, BUFFER_TOO_SMALL, INVALID_ARGUMENT (a layout code, a scales tensor
 * given for ggml, overlapping buffers, options).
 */
tcast_status tcast_mx_repack(int32_t from_layout,
                             const struct tcast_tensor *from,
                             const struct tcast_tensor *from_scales,
                             int32_t to_layout,
                             const struct tcast_tensor *to,
                             const struct tcast_tensor *to_scales,
                             const struct tcast_mx_options *options,
                             struct tcast_error *err);

/* =======================================================================================
 * Bitcast
 *
 * A view of a tensor's bytes as another dtype, without copying.
 * ======================================================================================= */

/*
 * The rules argument of tcast_bitcast_shape and tcast_bitcast: which library's bitcast
 * the view follows.
 */

/**
 * tf.bitcast: equal sizes keep the shape; a larger input type appends a dimension of the
 * size ratio; a smaller one needs a last dimension equal to the ratio, dropped.
 */
#define TCAST_BITCAST_TF 0
/** ONNX BitCast-26: equal bit widths (BOOL and the packed types included), same shape. */
#define TCAST_BITCAST_ONNX 1
/** numpy's ndarray.view(dtype): byte-sized dtypes; the last axis is rescaled. */
#define TCAST_BITCAST_NUMPY_VIEW 2

/**
 * The shape of a contiguous tensor of `from` and `shape` viewed as `to` under `rules`
 * (TCAST_BITCAST_*). Writes the rank to `*out_ndim` and the extents to `out_shape`.
 * Errors: NULL_ARGUMENT, INVALID_DTYPE, INVALID_ARGUMENT (unknown rules, negative
 * capacity), INVALID_SHAPE, UNSUPPORTED (a dtype the rules refuse, with the allowed
 * list for TF, or unequal widths for ONNX), INCOMPATIBLE_SHAPES (the shape rule:
 * `Cannot bitcast from FLOAT to COMPLEX128: shape [3]` for TF, numpy's wording for
 * NUMPY_VIEW), BUFFER_TOO_SMALL (out_capacity below the rank; `*out_ndim` is set).
 */
tcast_status tcast_bitcast_shape(tcast_dtype from,
                                 const int64_t *shape,
                                 int32_t ndim,
                                 tcast_dtype to,
                                 int32_t rules,
                                 int64_t *out_shape,
                                 int32_t out_capacity,
                                 int32_t *out_ndim,
                                 struct tcast_error *err);

/**
 * Views `input`'s bytes as dtype `to` under `rules` (TCAST_BITCAST_*), without copying:
 * `view->data == input->data`, `view->data_bytes == input->data_bytes`, `view->dtype =
 * to`, `view->shape = shape_storage` (its rank in `view->ndim`), `view->strides = NULL`.
 * The input is validated like any tensor; as the view has no strides, a non-contiguous
 * input is refused (after the rules' own checks) with UNSUPPORTED. Constant time.
 * Errors: as tcast_bitcast_shape, plus BUFFER_TOO_SMALL for a short `data_bytes` or a
 * `shape_capacity` below the view's rank.
 */
tcast_status tcast_bitcast(const struct tcast_tensor *input,
                           tcast_dtype to,
                           int32_t rules,
                           struct tcast_tensor *view,
                           int64_t *shape_storage,
                           int32_t shape_capacity,
                           struct tcast_error *err);

/* =======================================================================================
 * numpy dtypes and casting rules
 *
 * numpy's dtype specs, can_cast (numpy 1.22 or numpy 2 rules), promote_types and
 * min_scalar_type.
 * ======================================================================================= */

/*
 * The rules argument of the tcast_np_* functions: which numpy's casting rules to
 * reproduce.
 */

/**
 * numpy 1.x as documented for 1.22: value-based scalars, structured casts by field name.
 */
#define TCAST_NUMPY_1 1
/** numpy >= 2 (NEP 50): Python scalars refused, structured casts by field position. */
#define TCAST_NUMPY_2 2

/**
 * An opaque parsed numpy dtype (from `tcast_np_dtype_parse`, freed with
 * `tcast_np_dtype_free`). Immutable: one handle may be used from many threads.
 */
typedef struct tcast_np_dtype tcast_np_dtype;

/**
 * Parses a numpy dtype spec (`"<i4"`, `"S5"`, `"M8[ns]"`, `"i4,(2,)f8"`, `"float64"`)
 * into a new handle at `*out` (NULL on failure). The spec ends at its NUL, so numpy's
 * `'\x00'` (type number 0, bool) cannot be passed: `""` is refused as numpy refuses
 * `''`. Accepts what numpy 1.22 or numpy 2 accepts; a spelling only one of them knows is refused by the queries under the other's
 * rules, and the sizes numpy wraps through a C int (`'S-1'` in numpy 1, a struct larger
 * than 2**31 - 1 bytes) are refused under both.
 * Errors: NULL_ARGUMENT, PARSE with numpy's message for every spec numpy refuses, its
 * TypeErrors and ValueErrors alike (`data type 'abc' not understood`, `Invalid datetime
 * metadata string "[s"`, `divisor (7) is not a multiple of a lower-unit ...`), and for
 * a spec that is not UTF-8; OUT_OF_MEMORY when the dtype (a struct of a huge spec, say)
 * cannot be allocated. Linear in the spec's length.
 */
tcast_status tcast_np_dtype_parse(const char *spec,
                                  struct tcast_np_dtype **out,
                                  struct tcast_error *err);

/**
 * Frees a handle from `tcast_np_dtype_parse`. NULL is a no-op.
 */
void tcast_np_dtype_free(struct tcast_np_dtype *dtype);

/**
 * Writes Python's `str(numpy.dtype(spec))` for the handle (numpy 2's reading where the
 * versions differ, e.g. `'f8,'`): `"int32"`, `">i4"`, `"|S5"`, `"<U3"`, `"datetime64[ns]"`,
 * `"[('f0', '<i4'), ('f1', '<f8')]"`, `"('<i4', (2,))"`, written straight into `buf`
 * (nothing is allocated). Text outputs: see docs/c-api.md section 7 (`needed`, when not
 * NULL, gets the bytes the text takes with its NUL; `buf` NULL with `capacity` 0 only
 * asks for that). Errors: NULL_ARGUMENT, BUFFER_TOO_SMALL (the bytes needed, NUL
 * included, in the message and in `*needed`).
 */
tcast_status tcast_np_dtype_str(const struct tcast_np_dtype *dtype,
                                char *buf,
                                uint64_t capacity,
                                uint64_t *needed,
                                struct tcast_error *err);

/**
 * The casting level named `name`: exactly "no", "equiv", "safe", "same_kind" or
 * "unsafe" (0..4). Errors: NULL_ARGUMENT, INVALID_ARGUMENT with numpy 2's message.
 */
tcast_status tcast_np_casting_from_name(const char *name,
                                        int32_t *casting,
                                        struct tcast_error *err);

/**
 * The lowest casting level (0 no .. 4 unsafe) at which numpy casts `from` to `to`, or
 * TCAST_CASTING_NEVER (5) when none does. An unsized S/U/V target means "that kind, sized
 * for the source", as in `numpy.can_cast`. Errors: NULL_ARGUMENT, INVALID_ARGUMENT (bad
 * rules), PARSE (a spelling these rules refuse, with numpy's message).
 */
tcast_status tcast_np_casting_level(const struct tcast_np_dtype *from,
                                    const struct tcast_np_dtype *to,
                                    int32_t rules,
                                    int32_t *level,
                                    struct tcast_error *err);

/**
 * `numpy.can_cast(from, to, casting)` on handles: `*result` is 1 or 0. Errors as
 * `tcast_np_casting_level`, plus INVALID_ARGUMENT for a casting outside 0..4.
 */
tcast_status tcast_np_can_cast(const struct tcast_np_dtype *from,
                               const struct tcast_np_dtype *to,
                               int32_t casting,
                               int32_t rules,
                               int32_t *result,
                               struct tcast_error *err);

/**
 * `numpy.can_cast(from, to, casting)` on spec strings and a casting name. Errors:
 * NULL_ARGUMENT; PARSE for a bad `to` (the parser's message) or a bad `from` (numpy's
 * `did not understand one of the types; 'None' not accepted`, the parser's message after
 * it); INVALID_ARGUMENT for a bad casting name (numpy's message for these rules);
 * OUT_OF_MEMORY when a spec's dtype cannot be allocated.
 */
tcast_status tcast_np_can_cast_str(const char *from,
                                   const char *to,
                                   const char *casting,
                                   int32_t rules,
                                   int32_t *result,
                                   struct tcast_error *err);

/**
 * `numpy.can_cast(int(decimal), to, casting)`: a Python int of any size, given as
 * decimal text (an optional sign, digits). Under TCAST_NUMPY_1, numpy 1.22's value-based
 * rule; under TCAST_NUMPY_2, UNSUPPORTED with numpy 2's TypeError text. Errors:
 * NULL_ARGUMENT, PARSE (bad decimal or `to`), INVALID_ARGUMENT (casting, rules).
 */
tcast_status tcast_np_can_cast_pyint(const char *decimal,
                                     const char *to,
                                     int32_t casting,
                                     int32_t rules,
                                     int32_t *result,
                                     struct tcast_error *err);

/**
 * `numpy.can_cast(float(value), to, casting)`; rules and errors as for pyint.
 */
tcast_status tcast_np_can_cast_pyfloat(double value,
                                       const char *to,
                                       int32_t casting,
                                       int32_t rules,
                                       int32_t *result,
                                       struct tcast_error *err);

/**
 * `numpy.can_cast(complex(re, im), to, casting)`; rules and errors as for pyint.
 */
tcast_status tcast_np_can_cast_pycomplex(double re,
                                         double im,
                                         const char *to,
                                         int32_t casting,
                                         int32_t rules,
                                         int32_t *result,
                                         struct tcast_error *err);

/**
 * `numpy.can_cast(bool(value), to, casting)` (value 0 or non-zero); rules and errors as
 * for pyint.
 */
tcast_status tcast_np_can_cast_pybool(int32_t value,
                                      const char *to,
                                      int32_t casting,
                                      int32_t rules,
                                      int32_t *result,
                                      struct tcast_error *err);

/**
 * `numpy.can_cast(x, to, casting)` for a numpy scalar (`is_array` 0) or a 0-d array
 * (`is_array` 1) of `dtype`, whose value is `value_bytes` bytes at `value` in that
 * dtype's byte order (`value_bytes` must equal the dtype's itemsize). Under
 * TCAST_NUMPY_1 the value decides for numeric dtypes (numpy 1.22); under TCAST_NUMPY_2
 * only the dtype does. Errors: NULL_ARGUMENT, PARSE, INVALID_ARGUMENT (casting, rules,
 * is_array, a value_bytes that is not the itemsize).
 */
tcast_status tcast_np_can_cast_scalar(const char *dtype,
                                      const void *value,
                                      uint64_t value_bytes,
                                      int32_t is_array,
                                      const char *to,
                                      int32_t casting,
                                      int32_t rules,
                                      int32_t *result,
                                      struct tcast_error *err);

/**
 * Writes `str(numpy.promote_types(a, b))` into `buf` (native byte order, numpy 2's
 * reading of the specs). Errors: NULL_ARGUMENT, PARSE, UNSUPPORTED (no common dtype,
 * e.g. datetime64 and int32), BUFFER_TOO_SMALL, OUT_OF_MEMORY (the specs' or the
 * result's dtype cannot be allocated). `needed` as in tcast_np_dtype_str.
 */
tcast_status tcast_np_promote_types(const char *a,
                                    const char *b,
                                    char *buf,
                                    uint64_t capacity,
                                    uint64_t *needed,
                                    struct tcast_error *err);

/**
 * Writes `str(numpy.min_scalar_type(int(decimal)))`: `"uint8"` for 128, `"int16"` for
 * -129, `"object"` beyond 64 bits. `needed` as in tcast_np_dtype_str. Errors:
 * NULL_ARGUMENT, PARSE, BUFFER_TOO_SMALL.
 */
tcast_status tcast_np_min_scalar_type_pyint(const char *decimal,
                                            char *buf,
                                            uint64_t capacity,
                                            uint64_t *needed,
                                            struct tcast_error *err);

/**
 * Writes `str(numpy.min_scalar_type(float(value)))`: float16, float32 or float64.
 * `needed` as in tcast_np_dtype_str. Errors: NULL_ARGUMENT, BUFFER_TOO_SMALL.
 */
tcast_status tcast_np_min_scalar_type_pyfloat(double value,
                                              char *buf,
                                              uint64_t capacity,
                                              uint64_t *needed,
                                              struct tcast_error *err);

/**
 * Writes `str(numpy.min_scalar_type(complex(re, im)))`: complex64 or complex128.
 * `needed` as in tcast_np_dtype_str. Errors: NULL_ARGUMENT, BUFFER_TOO_SMALL.
 */
tcast_status tcast_np_min_scalar_type_pycomplex(double re,
                                                double im,
                                                char *buf,
                                                uint64_t capacity,
                                                uint64_t *needed,
                                                struct tcast_error *err);

/* =======================================================================================
 * DLPack
 *
 * A DLPack DLDataType (code, bits, lanes) to a tensorcast dtype and back.
 * ======================================================================================= */

/*
 * DLPack 1.1's type codes (DLDataType.code), for tcast_dtype_from_dlpack and
 * tcast_dtype_to_dlpack. The header does not include dlpack.h and defines no DL* name, so
 * that both headers can be included together.
 */

/** DLPack type code kDLInt (signed integers: 2, 4, 8, 16, 32, 64 bits). */
#define TCAST_DLPACK_INT 0
/** DLPack type code kDLUInt (unsigned integers: 2, 4, 8, 16, 32, 64 bits). */
#define TCAST_DLPACK_UINT 1
/** DLPack type code kDLFloat (IEEE floats: 16, 32, 64 bits). */
#define TCAST_DLPACK_FLOAT 2
/** DLPack type code kDLOpaqueHandle (no tensorcast dtype). */
#define TCAST_DLPACK_OPAQUE_HANDLE 3
/** DLPack type code kDLBfloat (16 bits). */
#define TCAST_DLPACK_BFLOAT 4
/** DLPack type code kDLComplex (64 and 128 bits). */
#define TCAST_DLPACK_COMPLEX 5
/** DLPack type code kDLBool (8 bits). */
#define TCAST_DLPACK_BOOL 6
/** DLPack type code kDLFloat8_e3m4 (no tensorcast dtype). */
#define TCAST_DLPACK_FLOAT8_E3M4 7
/** DLPack type code kDLFloat8_e4m3 (no tensorcast dtype). */
#define TCAST_DLPACK_FLOAT8_E4M3 8
/** DLPack type code kDLFloat8_e4m3b11fnuz (no tensorcast dtype). */
#define TCAST_DLPACK_FLOAT8_E4M3B11FNUZ 9
/** DLPack type code kDLFloat8_e4m3fn: FLOAT8E4M3FN. */
#define TCAST_DLPACK_FLOAT8_E4M3FN 10
/** DLPack type code kDLFloat8_e4m3fnuz: FLOAT8E4M3FNUZ. */
#define TCAST_DLPACK_FLOAT8_E4M3FNUZ 11
/** DLPack type code kDLFloat8_e5m2: FLOAT8E5M2. */
#define TCAST_DLPACK_FLOAT8_E5M2 12
/** DLPack type code kDLFloat8_e5m2fnuz: FLOAT8E5M2FNUZ. */
#define TCAST_DLPACK_FLOAT8_E5M2FNUZ 13
/** DLPack type code kDLFloat8_e8m0fnu: FLOAT8E8M0. */
#define TCAST_DLPACK_FLOAT8_E8M0FNU 14
/** DLPack type code kDLFloat6_e2m3fn: FLOAT6E2M3 (6 bits). */
#define TCAST_DLPACK_FLOAT6_E2M3FN 15
/** DLPack type code kDLFloat6_e3m2fn: FLOAT6E3M2 (6 bits). */
#define TCAST_DLPACK_FLOAT6_E3M2FN 16
/** DLPack type code kDLFloat4_e2m1fn: FLOAT4E2M1 (4 bits). */
#define TCAST_DLPACK_FLOAT4_E2M1FN 17

/**
 * The tensorcast dtype of a DLPack `DLDataType` given as its three fields: kDLInt and
 * kDLUInt with 2, 4, 8, 16, 32 or 64 bits, kDLFloat 16/32/64, kDLBfloat 16, kDLComplex
 * 64/128, kDLBool 8, and the DLPack 1.1 float8 (e4m3fn, e4m3fnuz, e5m2, e5m2fnuz,
 * e8m0fnu), float6 and float4 codes. DLPack packs sub-byte types as tensorcast does
 * (element 0 in the lowest bits), unless the producer flags them as padded.
 * Errors: NULL_ARGUMENT (out NULL), UNSUPPORTED (lanes not 1, or a code and bits with
 * no tensorcast dtype; the message names them).
 */
tcast_status tcast_dtype_from_dlpack(uint8_t code,
                                     uint8_t bits,
                                     uint16_t lanes,
                                     tcast_dtype *out,
                                     struct tcast_error *err);

/**
 * The DLPack `DLDataType` fields of `dtype` (lanes is always 1): the inverse of
 * `tcast_dtype_from_dlpack`.
 * Errors: NULL_ARGUMENT (code, bits or lanes NULL), INVALID_DTYPE (unknown dtype code),
 * UNSUPPORTED (STRING and the TF quantized types, which DLPack has no code for).
 */
tcast_status tcast_dtype_to_dlpack(tcast_dtype dtype,
                                   uint8_t *code,
                                   uint8_t *bits,
                                   uint16_t *lanes,
                                   struct tcast_error *err);

/* =======================================================================================
 * Version and diagnostics
 *
 * The header's version and the library's, and what the library found on this CPU (the
 * library prints nothing: a host asks).
 * ======================================================================================= */

/**
 * Major version; equals Cargo.toml's (a test checks).
 */
#define TCAST_VERSION_MAJOR 0

/**
 * Minor version; equals Cargo.toml's (a test checks).
 */
#define TCAST_VERSION_MINOR 1

/**
 * Patch version; equals Cargo.toml's (a test checks).
 */
#define TCAST_VERSION_PATCH 0

/**
 * The library version as "MAJOR.MINOR.PATCH" (a static string), the same as the
 * TCAST_VERSION_* macros of the header it was built with.
 */
const char *tcast_version(void);

/**
 * Writes one line saying what the library runs on this CPU: the architecture, the SIMD
 * kernel families in use (`portable` when none), those `TCAST_DISABLE_CPU_FEATURES`
 * withdrew, and the names in that variable that no family knows, quoted, every byte
 * that is not printable ASCII (and `"`, `\`) written `\xNN`; `none` for an empty list:
 * `arch=x86_64 kernels=sse2,erms withdrawn=avx2 unknown="avx3","\xff"`. The variable is
 * read once per process, at the first call that needs the CPU's features; this call
 * reports that reading. Text outputs: see docs/c-api.md section 7 (`needed`, when not
 * NULL, gets the bytes the text takes with its NUL; `buf` NULL with `capacity` 0 only
 * asks for that). Errors: NULL_ARGUMENT, BUFFER_TOO_SMALL (the bytes needed, NUL
 * included, in the message and in `*needed`).
 */
tcast_status tcast_cpu_info(char *buf,
                            uint64_t capacity,
                            uint64_t *needed,
                            struct tcast_error *err);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORCAST_H */
