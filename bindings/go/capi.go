// SPDX-License-Identifier: MIT OR Apache-2.0

package tensorcast

// This file is the whole cgo boundary: every call into the C library goes through it.
//
// The cgo pointer-passing rules say that Go memory handed to C must not itself contain
// Go pointers, and that Go code must not store Go pointers in C memory. A tcast_tensor,
// a tcast_string and a tcast_string_arena all hold pointers, so none of them is built
// in Go. Instead the small C functions below (gotc_*) take every buffer as a separate
// argument — byte and int64 slices, which hold no pointers — and assemble the C structs
// on the C stack (or, for arrays of tcast_string views, in memory they malloc and free
// before returning). The library only uses the pointers during the call, which is what
// the rules allow.

/*
#include <stdint.h>
#include <stdlib.h>
#include "tensorcast.h"

// Returned by a shim whose malloc failed; not a tcast_status value.
#define GOTC_NO_MEMORY (-1)

static tcast_tensor gotc_tensor(void *data, uint64_t bytes, const int64_t *shape,
                                const int64_t *strides, int32_t ndim, int32_t dtype) {
  tcast_tensor t;
  t.data = data;
  t.data_bytes = bytes;
  t.shape = shape;
  t.strides = strides;
  t.ndim = ndim;
  t.dtype = dtype;
  return t;
}

static tcast_status gotc_cast(void *in_data, uint64_t in_bytes, const int64_t *in_shape,
                              const int64_t *in_strides, int32_t in_ndim, int32_t in_dtype,
                              void *out_data, uint64_t out_bytes, const int64_t *out_shape,
                              const int64_t *out_strides, int32_t out_ndim, int32_t out_dtype,
                              const tcast_cast_options *options, tcast_error *err) {
  tcast_tensor in = gotc_tensor(in_data, in_bytes, in_shape, in_strides, in_ndim, in_dtype);
  tcast_tensor out = gotc_tensor(out_data, out_bytes, out_shape, out_strides, out_ndim, out_dtype);
  return tcast_cast(&in, &out, options, err);
}

// A cast's options as plain values (with_options 0: NULL, the library's defaults); the
// struct is built here, on the C stack.
typedef struct gotc_opts {
  int32_t with_options, saturate, round_mode, string_format, casting, threads;
} gotc_opts;

// The struct for o (with_options != 0), from the library's defaults.
static tcast_cast_options gotc_options(gotc_opts o) {
  tcast_cast_options options;
  tcast_cast_options_init(&options, sizeof options);
  options.saturate = o.saturate;
  options.round_mode = o.round_mode;
  options.string_format = o.string_format;
  options.casting = o.casting;
  options.threads = o.threads;
  return options;
}

static tcast_status gotc_cast_with(tcast_tensor *in, tcast_tensor *out, gotc_opts o,
                                   tcast_error *err) {
  if (!o.with_options) {
    return tcast_cast(in, out, NULL, err);
  }
  tcast_cast_options options = gotc_options(o);
  return tcast_cast(in, out, &options, err);
}

// A cast whose arguments are all values or pointers to pointer-free memory (bytes,
// int64 shapes, the error struct), so that cgo checks none of them. `err` may be NULL:
// the Go side passes NULL first and calls again with an error struct only when the cast
// failed (a failed cast fails the same way again), so a successful cast needs no memory
// from Go at all.
static tcast_status gotc_cast2(unsigned char *in_data, uint64_t in_bytes, const int64_t *in_shape,
                               const int64_t *in_strides, int32_t in_ndim, int32_t in_dtype,
                               unsigned char *out_data, uint64_t out_bytes,
                               const int64_t *out_shape, const int64_t *out_strides,
                               int32_t out_ndim, int32_t out_dtype, gotc_opts o,
                               tcast_error *err) {
  tcast_tensor in = gotc_tensor(in_data, in_bytes, in_shape, in_strides, in_ndim, in_dtype);
  tcast_tensor out = gotc_tensor(out_data, out_bytes, out_shape, out_strides, out_ndim, out_dtype);
  return gotc_cast_with(&in, &out, o, err);
}

// gotc_cast2 of n and m contiguous elements (1-D), the shapes made here.
static tcast_status gotc_cast_flat(unsigned char *in_data, uint64_t in_bytes, int64_t n,
                                   int32_t in_dtype, unsigned char *out_data, uint64_t out_bytes,
                                   int64_t m, int32_t out_dtype, gotc_opts o, tcast_error *err) {
  tcast_tensor in = gotc_tensor(in_data, in_bytes, &n, NULL, 1, in_dtype);
  tcast_tensor out = gotc_tensor(out_data, out_bytes, &m, NULL, 1, out_dtype);
  return gotc_cast_with(&in, &out, o, err);
}

// gotc_cast2 through tcast_cast_sub_byte, the call's sub-byte tensors held as `layout`
// (a TCAST_SUB_BYTE_* value, which the library checks). `err` may be NULL, as for
// gotc_cast2.
static tcast_status gotc_cast_sub_byte(unsigned char *in_data, uint64_t in_bytes,
                                       const int64_t *in_shape, const int64_t *in_strides,
                                       int32_t in_ndim, int32_t in_dtype, unsigned char *out_data,
                                       uint64_t out_bytes, const int64_t *out_shape,
                                       const int64_t *out_strides, int32_t out_ndim,
                                       int32_t out_dtype, gotc_opts o, int32_t layout,
                                       tcast_error *err) {
  tcast_tensor in = gotc_tensor(in_data, in_bytes, in_shape, in_strides, in_ndim, in_dtype);
  tcast_tensor out = gotc_tensor(out_data, out_bytes, out_shape, out_strides, out_ndim, out_dtype);
  if (!o.with_options) {
    return tcast_cast_sub_byte(&in, &out, NULL, layout, err);
  }
  tcast_cast_options options = gotc_options(o);
  return tcast_cast_sub_byte(&in, &out, &options, layout, err);
}

// A prepared cast's plan from options as plain values (with_options 0: NULL).
static tcast_status gotc_plan_create(int32_t from, int32_t to, gotc_opts o,
                                     tcast_cast_plan **plan, tcast_error *err) {
  if (!o.with_options) {
    return tcast_cast_plan_create(from, to, NULL, plan, err);
  }
  tcast_cast_options options = gotc_options(o);
  return tcast_cast_plan_create(from, to, &options, plan, err);
}

// A plan's run over two descriptors built here; no executor (the plan's options decide).
// The plan comes as an integer (cPlan says why).
// `err` may be NULL, as for gotc_cast2.
static tcast_status gotc_plan_run(uintptr_t plan, unsigned char *in_data,
                                  uint64_t in_bytes, const int64_t *in_shape,
                                  const int64_t *in_strides, int32_t in_ndim, int32_t in_dtype,
                                  unsigned char *out_data, uint64_t out_bytes,
                                  const int64_t *out_shape, const int64_t *out_strides,
                                  int32_t out_ndim, int32_t out_dtype, tcast_error *err) {
  tcast_tensor in = gotc_tensor(in_data, in_bytes, in_shape, in_strides, in_ndim, in_dtype);
  tcast_tensor out = gotc_tensor(out_data, out_bytes, out_shape, out_strides, out_ndim, out_dtype);
  return tcast_cast_plan_run((const tcast_cast_plan *)plan, &in, &out, NULL, err);
}

// gotc_plan_run of n and m contiguous elements (1-D), the shapes made here.
static tcast_status gotc_plan_run_flat(uintptr_t plan, unsigned char *in_data,
                                       uint64_t in_bytes, int64_t n, int32_t in_dtype,
                                       unsigned char *out_data, uint64_t out_bytes, int64_t m,
                                       int32_t out_dtype, tcast_error *err) {
  tcast_tensor in = gotc_tensor(in_data, in_bytes, &n, NULL, 1, in_dtype);
  tcast_tensor out = gotc_tensor(out_data, out_bytes, &m, NULL, 1, out_dtype);
  return tcast_cast_plan_run((const tcast_cast_plan *)plan, &in, &out, NULL, err);
}

// tcast_expand_ex over two descriptors built here, the options from their values
// (with_options 0: NULL).
static tcast_status gotc_expand_ex(void *in_data, uint64_t in_bytes, const int64_t *in_shape,
                                   const int64_t *in_strides, int32_t in_ndim, int32_t in_dtype,
                                   void *out_data, uint64_t out_bytes, const int64_t *out_shape,
                                   const int64_t *out_strides, int32_t out_ndim, int32_t out_dtype,
                                   gotc_opts o, tcast_error *err) {
  tcast_tensor in = gotc_tensor(in_data, in_bytes, in_shape, in_strides, in_ndim, in_dtype);
  tcast_tensor out = gotc_tensor(out_data, out_bytes, out_shape, out_strides, out_ndim, out_dtype);
  if (!o.with_options) {
    return tcast_expand_ex(&in, &out, NULL, err);
  }
  tcast_cast_options options = gotc_options(o);
  return tcast_expand_ex(&in, &out, &options, err);
}

// QuantizeLinear (quantize != 0) or DequantizeLinear over four flat descriptors; a
// zero point with has_zp == 0 is NULL. The options are built here from their values.
static tcast_status gotc_qdq(int quantize, void *x_data, uint64_t x_bytes, const int64_t *x_shape,
                             int32_t x_ndim, int32_t x_dtype, void *s_data, uint64_t s_bytes,
                             const int64_t *s_shape, int32_t s_ndim, int32_t s_dtype, int has_zp,
                             void *z_data, uint64_t z_bytes, const int64_t *z_shape, int32_t z_ndim,
                             int32_t z_dtype, void *y_data, uint64_t y_bytes, const int64_t *y_shape,
                             int32_t y_ndim, int32_t y_dtype, int32_t saturate, int64_t axis,
                             int64_t block_size, int32_t precision, tcast_error *err) {
  tcast_tensor x = gotc_tensor(x_data, x_bytes, x_shape, NULL, x_ndim, x_dtype);
  tcast_tensor s = gotc_tensor(s_data, s_bytes, s_shape, NULL, s_ndim, s_dtype);
  tcast_tensor z = gotc_tensor(z_data, z_bytes, z_shape, NULL, z_ndim, z_dtype);
  tcast_tensor y = gotc_tensor(y_data, y_bytes, y_shape, NULL, y_ndim, y_dtype);
  tcast_qdq_options o;
  tcast_status st = tcast_qdq_options_init(&o, sizeof o);
  if (st != TCAST_OK) return st;
  o.saturate = saturate;
  o.axis = axis;
  o.block_size = block_size;
  o.precision = precision;
  const tcast_tensor *zp = has_zp ? &z : NULL;
  return quantize ? tcast_quantize_linear(&x, &s, zp, &y, &o, err)
                  : tcast_dequantize_linear(&x, &s, zp, &y, &o, err);
}

// MX quantize (op 0: x, y, scale, global) or dequantize (op 1: x, scale, global, y)
// over four flat descriptors, named here a (x), b (y or scale), c (scale or y) and g
// (global_scale, NULL when has_g == 0). The options are built here from their values.
static tcast_status gotc_mx(int op, void *a_data, uint64_t a_bytes, const int64_t *a_shape,
                            int32_t a_ndim, int32_t a_dtype, void *b_data, uint64_t b_bytes,
                            const int64_t *b_shape, int32_t b_ndim, int32_t b_dtype,
                            void *c_data, uint64_t c_bytes, const int64_t *c_shape,
                            int32_t c_ndim, int32_t c_dtype, int has_g, void *g_data,
                            uint64_t g_bytes, const int64_t *g_shape, int32_t g_ndim,
                            int32_t g_dtype, int32_t scale_rule, int64_t axis,
                            int64_t block_size, tcast_error *err) {
  tcast_tensor a = gotc_tensor(a_data, a_bytes, a_shape, NULL, a_ndim, a_dtype);
  tcast_tensor b = gotc_tensor(b_data, b_bytes, b_shape, NULL, b_ndim, b_dtype);
  tcast_tensor c = gotc_tensor(c_data, c_bytes, c_shape, NULL, c_ndim, c_dtype);
  tcast_tensor g = gotc_tensor(g_data, g_bytes, g_shape, NULL, g_ndim, g_dtype);
  tcast_mx_options o;
  tcast_status st = tcast_mx_options_init(&o, sizeof o);
  if (st != TCAST_OK) return st;
  o.scale_rule = scale_rule;
  o.axis = axis;
  o.block_size = block_size;
  const tcast_tensor *gp = has_g ? &g : NULL;
  return op == 0 ? tcast_mx_quantize(&a, &b, &c, gp, &o, err)
                 : tcast_mx_dequantize(&a, &b, gp, &c, &o, err);
}

// MXFP4 repack over four flat descriptors; a scales tensor with has_* == 0 is NULL.
static tcast_status gotc_mx_repack(int32_t from_layout, void *f_data, uint64_t f_bytes,
                                   const int64_t *f_shape, int32_t f_ndim, int32_t f_dtype,
                                   int has_fs, void *fs_data, uint64_t fs_bytes,
                                   const int64_t *fs_shape, int32_t fs_ndim, int32_t fs_dtype,
                                   int32_t to_layout, void *t_data, uint64_t t_bytes,
                                   const int64_t *t_shape, int32_t t_ndim, int32_t t_dtype,
                                   int has_ts, void *ts_data, uint64_t ts_bytes,
                                   const int64_t *ts_shape, int32_t ts_ndim, int32_t ts_dtype,
                                   tcast_error *err) {
  tcast_tensor f = gotc_tensor(f_data, f_bytes, f_shape, NULL, f_ndim, f_dtype);
  tcast_tensor fs = gotc_tensor(fs_data, fs_bytes, fs_shape, NULL, fs_ndim, fs_dtype);
  tcast_tensor t = gotc_tensor(t_data, t_bytes, t_shape, NULL, t_ndim, t_dtype);
  tcast_tensor ts = gotc_tensor(ts_data, ts_bytes, ts_shape, NULL, ts_ndim, ts_dtype);
  return tcast_mx_repack(from_layout, &f, has_fs ? &fs : NULL, to_layout, &t,
                         has_ts ? &ts : NULL, NULL, err);
}

// Allocates n string views (NULL with *ok = 1 for n == 0; *ok = 0 when malloc fails).
static tcast_string *gotc_alloc_views(uint64_t n, int *ok) {
  *ok = 1;
  if (n == 0) return NULL;
  if (n > SIZE_MAX / sizeof(tcast_string)) {
    *ok = 0;
    return NULL;
  }
  tcast_string *views = (tcast_string *)malloc((size_t)n * sizeof(tcast_string));
  if (views == NULL) *ok = 0;
  return views;
}

// Parses n strings into a numeric output. Element i is the bytes
// blob[offsets[i] .. offsets[i+1]); blob holds at least one byte.
static tcast_status gotc_parse(const char *blob, const uint64_t *offsets, uint64_t n,
                               const int64_t *shape, int32_t ndim, void *out_data,
                               uint64_t out_bytes, int32_t out_dtype,
                               const tcast_cast_options *options, tcast_error *err) {
  int ok;
  tcast_string *views = gotc_alloc_views(n, &ok);
  if (!ok) return GOTC_NO_MEMORY;
  for (uint64_t i = 0; i < n; i++) {
    views[i].data = blob + offsets[i];
    views[i].len = offsets[i + 1] - offsets[i];
  }
  tcast_tensor in = gotc_tensor(views, n * sizeof(tcast_string), shape, NULL, ndim,
                                TCAST_DTYPE_STRING);
  tcast_tensor out = gotc_tensor(out_data, out_bytes, shape, NULL, ndim, out_dtype);
  tcast_status status = tcast_cast(&in, &out, options, err);
  free(views);
  return status;
}

// Formats the n elements of a numeric input into arena. On success spans[2i] and
// spans[2i+1] are element i's offset in the arena and its length, and *used is the
// number of arena bytes written.
static tcast_status gotc_format(void *in_data, uint64_t in_bytes, const int64_t *shape,
                                const int64_t *strides, int32_t ndim, int32_t dtype,
                                uint64_t n, char *arena, uint64_t arena_capacity,
                                uint64_t *spans, uint64_t *used,
                                const tcast_cast_options *options, tcast_error *err) {
  int ok;
  tcast_string *views = gotc_alloc_views(n, &ok);
  if (!ok) return GOTC_NO_MEMORY;
  tcast_tensor in = gotc_tensor(in_data, in_bytes, shape, strides, ndim, dtype);
  tcast_tensor out = gotc_tensor(views, n * sizeof(tcast_string), shape, NULL, ndim,
                                 TCAST_DTYPE_STRING);
  tcast_string_arena a;
  a.data = arena;
  a.capacity = arena_capacity;
  a.used = 0;
  tcast_status status = tcast_cast_to_strings(&in, &out, &a, options, err);
  if (status == TCAST_OK) {
    for (uint64_t i = 0; i < n; i++) {
      spans[2 * i] = views[i].len == 0 ? 0 : (uint64_t)(views[i].data - arena);
      spans[2 * i + 1] = views[i].len;
    }
    *used = a.used;
  }
  free(views);
  return status;
}

// Bitcasts without copying; reports the view's rank, its byte count and where its data
// starts relative to the input's (0 by the contract).
static tcast_status gotc_bitcast(void *data, uint64_t bytes, const int64_t *shape,
                                 const int64_t *strides, int32_t ndim, int32_t dtype,
                                 int32_t to, int32_t rules, int64_t *shape_storage,
                                 int32_t shape_capacity, int32_t *view_ndim,
                                 uint64_t *view_bytes, int64_t *view_offset,
                                 tcast_error *err) {
  tcast_tensor in = gotc_tensor(data, bytes, shape, strides, ndim, dtype);
  tcast_tensor view;
  tcast_status status = tcast_bitcast(&in, to, rules, &view, shape_storage, shape_capacity, err);
  if (status == TCAST_OK) {
    *view_ndim = view.ndim;
    *view_bytes = view.data_bytes;
    *view_offset = (data == NULL || view.data == NULL) ? 0
                   : (int64_t)((const char *)view.data - (const char *)data);
  }
  return status;
}
*/
import "C"

import (
	"bytes"
	"math"
	"strings"
	"unsafe"
)

// goNoMemory mirrors GOTC_NO_MEMORY.
const goNoMemory = -1

// cTensor is a Tensor's fields in C types, each passed to a shim as its own argument.
type cTensor struct {
	data    unsafe.Pointer
	bytes   C.uint64_t
	shape   *C.int64_t
	strides *C.int64_t
	ndim    C.int32_t
	dtype   C.int32_t
}

func bytesPtr(b []byte) unsafe.Pointer {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Pointer(&b[0])
}

func int64Ptr(s []int64) *C.int64_t {
	if len(s) == 0 {
		return nil
	}
	return (*C.int64_t)(unsafe.Pointer(&s[0]))
}

// rank converts a shape's length to the C rank, refusing ranks the library refuses
// (which also keeps the int32 conversion exact).
func rank(shape []int64, what string) (C.int32_t, error) {
	if len(shape) > MaxNDim {
		return 0, newError(ErrInvalidShape, "%s has rank %d, above MaxNDim (%d)", what, len(shape), MaxNDim)
	}
	return C.int32_t(len(shape)), nil
}

func describe(t Tensor, what string) (cTensor, error) {
	if len(t.Shape) > MaxNDim {
		// The label is built only here: a successful call formats nothing.
		return cTensor{}, newError(ErrInvalidShape, "%s shape has rank %d, above MaxNDim (%d)", what, len(t.Shape), MaxNDim)
	}
	ndim := C.int32_t(len(t.Shape))
	if t.Strides != nil && len(t.Strides) != len(t.Shape) {
		return cTensor{}, newError(ErrInvalidShape, "%s has %d strides for a shape of rank %d", what, len(t.Strides), len(t.Shape))
	}
	return cTensor{
		data:    bytesPtr(t.Data),
		bytes:   C.uint64_t(len(t.Data)),
		shape:   int64Ptr(t.Shape),
		strides: int64Ptr(t.Strides),
		ndim:    ndim,
		dtype:   C.int32_t(t.DType),
	}, nil
}

// castOptions converts CastOptions (nil: the library's defaults) into the values the
// shims take.
func castOptions(o *CastOptions) (C.gotc_opts, error) {
	var v C.gotc_opts
	if o == nil {
		return v, nil
	}
	var opts C.tcast_cast_options
	if err := fillOptions(&opts, o); err != nil {
		return v, err
	}
	v.with_options = 1
	v.saturate, v.round_mode, v.string_format = opts.saturate, opts.round_mode, opts.string_format
	v.casting, v.threads = opts.casting, opts.threads
	return v, nil
}

// castError calls `cast` with a NULL error struct, and only if that failed calls it again
// with one to get the details: a successful cast hands cgo no Go memory to keep (which
// would be an allocation per call), and a failed cast fails the same way again.
func castError(cast func(err *C.tcast_error) C.tcast_status) error {
	if status := cast(nil); status == C.TCAST_OK {
		return nil
	}
	e := newCError()
	return toError(cast(&e), &e)
}

// bytePtr is a buffer's first byte as a pointer cgo does not need to check (bytes hold
// no pointers); nil for an empty buffer.
func bytePtr(b []byte) *C.uchar {
	if len(b) == 0 {
		return nil
	}
	return (*C.uchar)(unsafe.Pointer(&b[0]))
}

func newCError() C.tcast_error {
	var e C.tcast_error
	e.index = -1
	return e
}

// toError converts a status and the error struct the library filled into a Go error.
func toError(status C.tcast_status, e *C.tcast_error) error {
	if status == C.TCAST_OK {
		return nil
	}
	if status == goNoMemory {
		return newError(ErrOutOfMemory, "the Go binding could not allocate C memory for string views")
	}
	msg := (*[C.TCAST_ERROR_MESSAGE_BYTES]byte)(unsafe.Pointer(&e.message[0]))[:]
	if i := bytes.IndexByte(msg, 0); i >= 0 {
		msg = msg[:i]
	}
	return &Error{Status: Status(status), Index: int64(e.index), Message: string(msg)}
}

func statusName(s Status) string {
	return C.GoString(C.tcast_status_name(C.tcast_status(s)))
}

func libraryVersion() string {
	return C.GoString(C.tcast_version())
}

func cpuInfo() (string, error) {
	return textResult(func(buf *C.char, capacity C.uint64_t, needed *C.uint64_t, e *C.tcast_error) C.tcast_status {
		return C.tcast_cpu_info(buf, capacity, needed, e)
	})
}

func dtypeName(d DType) (string, bool) {
	p := C.tcast_dtype_name(C.tcast_dtype(d))
	if p == nil {
		return "", false
	}
	return C.GoString(p), true
}

func dtypeBits(d DType) int {
	return int(C.tcast_dtype_bits(C.tcast_dtype(d)))
}

func dtypeFromName(name string) (DType, error) {
	if strings.IndexByte(name, 0) >= 0 {
		// C would see only the text before the NUL, and might find a dtype by it.
		return Undefined, newError(ErrInvalidDType, "dtype name %q contains a NUL byte", name)
	}
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var out C.tcast_dtype
	e := newCError()
	if err := toError(C.tcast_dtype_from_name(cname, &out, &e), &e); err != nil {
		return Undefined, err
	}
	return DType(out), nil
}

func dtypeFromDLPack(t DLPackType) (DType, error) {
	var out C.tcast_dtype
	e := newCError()
	status := C.tcast_dtype_from_dlpack(C.uint8_t(t.Code), C.uint8_t(t.Bits), C.uint16_t(t.Lanes), &out, &e)
	if err := toError(status, &e); err != nil {
		return Undefined, err
	}
	return DType(out), nil
}

func dtypeToDLPack(d DType) (DLPackType, error) {
	var code, bits C.uint8_t
	var lanes C.uint16_t
	e := newCError()
	if err := toError(C.tcast_dtype_to_dlpack(C.tcast_dtype(d), &code, &bits, &lanes, &e), &e); err != nil {
		return DLPackType{}, err
	}
	return DLPackType{Code: DLPackCode(code), Bits: uint8(bits), Lanes: uint16(lanes)}, nil
}

func tensorBytes(d DType, shape []int64) (uint64, error) {
	ndim, err := rank(shape, "shape")
	if err != nil {
		return 0, err
	}
	var out C.uint64_t
	e := newCError()
	if err := toError(C.tcast_tensor_bytes(C.tcast_dtype(d), int64Ptr(shape), ndim, &out, &e), &e); err != nil {
		return 0, err
	}
	return uint64(out), nil
}

func onnxCastSupported(from, to DType, opset int) bool {
	if opset > math.MaxInt32 {
		opset = math.MaxInt32
	} else if opset < math.MinInt32 {
		opset = math.MinInt32
	}
	return C.tcast_onnx_cast_supported(C.tcast_dtype(from), C.tcast_dtype(to), C.int32_t(opset)) == 1
}

func stringMaxBytes(d DType) uint64 {
	return uint64(C.tcast_string_max_bytes(C.tcast_dtype(d)))
}

// defaultOptions is the library's defaults for this package's struct size
// (tcast_cast_options_init, docs/c-api.md section 5), fetched once: a cast then makes a
// single cgo call.
var defaultOptions = initOptions()

func initOptions() C.tcast_cast_options {
	var o C.tcast_cast_options
	if status := C.tcast_cast_options_init(&o, C.size_t(unsafe.Sizeof(o))); status != C.TCAST_OK {
		panic("tensorcast: tcast_cast_options_init failed with status " + statusName(Status(status)))
	}
	return o
}

// cOptions converts CastOptions into a new C struct (nil options: NULL, the library's
// defaults, at no cost).
func cOptions(o *CastOptions) (*C.tcast_cast_options, error) {
	if o == nil {
		return nil, nil
	}
	opts := new(C.tcast_cast_options)
	if err := fillOptions(opts, o); err != nil {
		return nil, err
	}
	return opts, nil
}

// fillOptions writes o into opts, starting from the library's own defaults so that
// fields added to the struct later keep their defaults.
func fillOptions(opts *C.tcast_cast_options, o *CastOptions) error {
	*opts = defaultOptions
	if o.NoSaturate {
		opts.saturate = 0
	}
	opts.round_mode = C.int32_t(o.RoundMode)
	opts.string_format = C.int32_t(o.StringFormat)
	if o.Casting != CastingDefault {
		level, ok := o.Casting.toC()
		if !ok {
			return newError(ErrInvalidArgument, "Casting = %v has no C level", o.Casting)
		}
		opts.casting = C.int32_t(level)
	}
	if o.Threads > math.MaxInt32 || o.Threads < math.MinInt32 {
		return newError(ErrInvalidArgument, "Threads = %d does not fit in an int32", o.Threads)
	}
	opts.threads = C.int32_t(o.Threads)
	return nil
}

// describeCall describes a call's input and output tensors and converts its options,
// in that order (the first error wins).
func describeCall(src, dst Tensor, opts *CastOptions) (in, out cTensor, o C.gotc_opts, err error) {
	if in, err = describe(src, "input"); err != nil {
		return
	}
	if out, err = describe(dst, "output"); err != nil {
		return
	}
	o, err = castOptions(opts)
	return
}

func castTensor(src, dst Tensor, opts *CastOptions) error {
	in, out, o, err := describeCall(src, dst, opts)
	if err != nil {
		return err
	}
	inData, outData := bytePtr(src.Data), bytePtr(dst.Data)
	return castError(func(e *C.tcast_error) C.tcast_status {
		return C.gotc_cast2(inData, in.bytes, in.shape, in.strides, in.ndim, in.dtype,
			outData, out.bytes, out.shape, out.strides, out.ndim, out.dtype, o, e)
	})
}

// castTensorSubByte is castTensor through tcast_cast_sub_byte, with no allocation on
// success (castError).
func castTensorSubByte(src, dst Tensor, opts *CastOptions, layout SubByteLayout) error {
	in, out, o, err := describeCall(src, dst, opts)
	if err != nil {
		return err
	}
	inData, outData := bytePtr(src.Data), bytePtr(dst.Data)
	return castError(func(e *C.tcast_error) C.tcast_status {
		return C.gotc_cast_sub_byte(inData, in.bytes, in.shape, in.strides, in.ndim, in.dtype,
			outData, out.bytes, out.shape, out.strides, out.ndim, out.dtype, o, C.int32_t(layout), e)
	})
}

// castFlat casts n contiguous elements of srcType into m of dstType (1-D; the library
// refuses n != m), with no allocation on success.
func castFlat(src []byte, srcType DType, n int64, dst []byte, dstType DType, m int64, opts *CastOptions) error {
	o, err := castOptions(opts)
	if err != nil {
		return err
	}
	inData, outData := bytePtr(src), bytePtr(dst)
	return castError(func(e *C.tcast_error) C.tcast_status {
		return C.gotc_cast_flat(inData, C.uint64_t(len(src)), C.int64_t(n), C.int32_t(srcType),
			outData, C.uint64_t(len(dst)), C.int64_t(m), C.int32_t(dstType), o, e)
	})
}

// castPlanCreate makes a plan (tcast_cast_plan_create); the options cross as values.
func castPlanCreate(from, to DType, opts *CastOptions) (*C.tcast_cast_plan, error) {
	o, err := castOptions(opts)
	if err != nil {
		return nil, err
	}
	var h *C.tcast_cast_plan
	e := newCError()
	if err := toError(C.gotc_plan_create(C.int32_t(from), C.int32_t(to), o, &h, &e), &e); err != nil {
		return nil, err
	}
	if h == nil {
		return nil, newError(ErrInternal, "tcast_cast_plan_create succeeded without a plan")
	}
	return h, nil
}

func castPlanFree(h *C.tcast_cast_plan) { C.tcast_cast_plan_free(h) }

// cPlan passes a plan to the run shims as an integer: a pointer argument of an opaque C
// type gets cgo's pointer check (cgo cannot see that it holds no Go pointers), which
// costs an allocation per call. The plan is C memory, so the integer keeps it valid.
func cPlan(h *C.tcast_cast_plan) C.uintptr_t { return C.uintptr_t(uintptr(unsafe.Pointer(h))) }

// castPlanRun runs a plan on two tensors, with no allocation on success (castError).
func castPlanRun(h *C.tcast_cast_plan, src, dst Tensor) error {
	in, err := describe(src, "input")
	if err != nil {
		return err
	}
	out, err := describe(dst, "output")
	if err != nil {
		return err
	}
	inData, outData := bytePtr(src.Data), bytePtr(dst.Data)
	return castError(func(e *C.tcast_error) C.tcast_status {
		return C.gotc_plan_run(cPlan(h), inData, in.bytes, in.shape, in.strides, in.ndim, in.dtype,
			outData, out.bytes, out.shape, out.strides, out.ndim, out.dtype, e)
	})
}

// castPlanRunFlat runs a plan on n contiguous elements of srcType and m of dstType (1-D;
// the library refuses n != m and dtypes that are not the plan's).
func castPlanRunFlat(h *C.tcast_cast_plan, src []byte, srcType DType, n int64, dst []byte, dstType DType, m int64) error {
	inData, outData := bytePtr(src), bytePtr(dst)
	return castError(func(e *C.tcast_error) C.tcast_status {
		return C.gotc_plan_run_flat(cPlan(h), inData, C.uint64_t(len(src)), C.int64_t(n), C.int32_t(srcType),
			outData, C.uint64_t(len(dst)), C.int64_t(m), C.int32_t(dstType), e)
	})
}

func expandTensor(src, dst Tensor) error {
	return expandTensorWith(src, dst, nil)
}

// expandTensorWith is tcast_expand_ex with opts (nil: NULL, which is tcast_expand).
func expandTensorWith(src, dst Tensor, opts *CastOptions) error {
	in, out, o, err := describeCall(src, dst, opts)
	if err != nil {
		return err
	}
	e := newCError()
	status := C.gotc_expand_ex(in.data, in.bytes, in.shape, in.strides, in.ndim, in.dtype,
		out.data, out.bytes, out.shape, out.strides, out.ndim, out.dtype, o, &e)
	return toError(status, &e)
}

// parseStrings parses src (a tensor of the given shape, len(src) elements) into dst.
// The texts are copied once into a single Go byte slice; C builds the views on it.
func parseStrings(src []string, shape []int64, dst []byte, to DType, opts *CastOptions) error {
	ndim, err := rank(shape, "shape")
	if err != nil {
		return err
	}
	copts, err := cOptions(opts)
	if err != nil {
		return err
	}
	total := 0
	for _, s := range src {
		total += len(s)
	}
	blob := make([]byte, 0, total+1) // never empty, so its address is never nil
	offsets := make([]uint64, len(src)+1)
	for i, s := range src {
		blob = append(blob, s...)
		offsets[i+1] = uint64(len(blob))
	}
	blob = append(blob, 0)
	e := newCError()
	status := C.gotc_parse((*C.char)(unsafe.Pointer(&blob[0])), (*C.uint64_t)(unsafe.Pointer(&offsets[0])),
		C.uint64_t(len(src)), int64Ptr(shape), ndim, bytesPtr(dst), C.uint64_t(len(dst)), C.int32_t(to), copts, &e)
	return toError(status, &e)
}

// formatTensor formats the n elements of src as text, for op (named in errors).
func formatTensor(op string, src Tensor, n int, opts *CastOptions) ([]string, error) {
	in, err := describe(src, "input")
	if err != nil {
		return nil, err
	}
	copts, err := cOptions(opts)
	if err != nil {
		return nil, err
	}
	perElement := stringMaxBytes(src.DType)
	if perElement == 0 {
		perElement = 1 // unknown or unformattable dtypes: let the library name the problem
	}
	if n > 0 && perElement > uint64(math.MaxInt)/uint64(n) {
		return nil, newError(ErrInvalidShape, "%s: %d elements of %v need more text than a Go slice can hold", op, n, src.DType)
	}
	if err := checkAlloc(op, formatBytes(uint64(n), perElement)); err != nil {
		return nil, err
	}
	arena := make([]byte, uint64(n)*perElement)
	spans := make([]uint64, 2*n+1) // never empty, so its address is never nil
	var used C.uint64_t
	e := newCError()
	status := C.gotc_format(in.data, in.bytes, in.shape, in.strides, in.ndim, in.dtype,
		C.uint64_t(n), (*C.char)(bytesPtr(arena)), C.uint64_t(len(arena)),
		(*C.uint64_t)(unsafe.Pointer(&spans[0])), &used, copts, &e)
	if err := toError(status, &e); err != nil {
		return nil, err
	}
	// One string holds all the text; the elements are substrings of it.
	text := string(arena[:used])
	out := make([]string, n)
	for i := range out {
		off, length := spans[2*i], spans[2*i+1]
		if off+length > uint64(len(text)) {
			return nil, newError(ErrInternal, "element %d's text lies outside the arena's used bytes", i)
		}
		out[i] = text[off : off+length]
	}
	return out, nil
}

// formatBytes is the memory formatTensor allocates for n elements of at most perElement
// bytes of text: the arena and the string the text is copied into, the spans, the C
// views (malloc'd, but from the same machine) and the result's string headers. A sum
// that overflows is the largest size.
func formatBytes(n, perElement uint64) uint64 {
	text, ok1 := mulSize(n, perElement)
	perView := 2*8 + uint64(C.sizeof_tcast_string) + stringHeaderBytes
	views, ok2 := mulSize(n, perView)
	total, ok3 := mulSize(text, 2)
	total, ok4 := addSize(total, views)
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return ^uint64(0)
	}
	return total
}

// shapeResult is where a *_shape function writes its result.
type shapeResult [MaxNDim]int64

func (r *shapeResult) ptr() *C.int64_t { return (*C.int64_t)(unsafe.Pointer(&r[0])) }

func expandShape(inShape, shape []int64) ([]int64, error) {
	inNdim, err := rank(inShape, "input shape")
	if err != nil {
		return nil, err
	}
	shapeLen, err := rank(shape, "shape")
	if err != nil {
		return nil, err
	}
	var out shapeResult
	var outNdim C.int32_t
	e := newCError()
	status := C.tcast_expand_shape(int64Ptr(inShape), inNdim, int64Ptr(shape), shapeLen,
		out.ptr(), MaxNDim, &outNdim, &e)
	if err := toError(status, &e); err != nil {
		return nil, err
	}
	return append([]int64{}, out[:outNdim]...), nil
}

func bitcastShape(from, to DType, shape []int64, rules BitcastRules) ([]int64, error) {
	ndim, err := rank(shape, "shape")
	if err != nil {
		return nil, err
	}
	var out shapeResult
	var outNdim C.int32_t
	e := newCError()
	status := C.tcast_bitcast_shape(C.tcast_dtype(from), int64Ptr(shape), ndim, C.tcast_dtype(to),
		C.int32_t(rules), out.ptr(), MaxNDim, &outNdim, &e)
	if err := toError(status, &e); err != nil {
		return nil, err
	}
	return append([]int64{}, out[:outNdim]...), nil
}

func bitcastTensor(src Tensor, to DType, rules BitcastRules) (Tensor, error) {
	in, err := describe(src, "input")
	if err != nil {
		return Tensor{}, err
	}
	var out shapeResult
	var outNdim C.int32_t
	var viewBytes C.uint64_t
	var viewOffset C.int64_t
	e := newCError()
	status := C.gotc_bitcast(in.data, in.bytes, in.shape, in.strides, in.ndim, in.dtype,
		C.int32_t(to), C.int32_t(rules), out.ptr(), MaxNDim, &outNdim, &viewBytes, &viewOffset, &e)
	if err := toError(status, &e); err != nil {
		return Tensor{}, err
	}
	start, length := int64(viewOffset), uint64(viewBytes)
	if start < 0 || uint64(start) > uint64(len(src.Data)) || length > uint64(len(src.Data))-uint64(start) {
		return Tensor{}, newError(ErrInternal, "the bitcast view (offset %d, %d bytes) lies outside the input's %d bytes", start, length, len(src.Data))
	}
	return Tensor{
		Data:  src.Data[start : uint64(start)+length : uint64(start)+length],
		DType: to,
		Shape: append([]int64{}, out[:outNdim]...),
	}, nil
}

// ---- numpy casting rules (docs/c-api.md section 7) ----------------------------------------
//
// Text crosses as NUL-terminated Go byte slices (cText), which hold no Go pointers, and
// results come back in Go byte slices the library writes into. A parsed dtype is a C
// pointer (*C.tcast_np_dtype) kept in a Go struct, which the rules allow; no Go pointer
// is ever stored in C memory.

// cText returns s as NUL-terminated bytes for a const char* argument. C would stop at an
// embedded NUL and see a different text, so that is refused with the given status.
func cText(s, what string, status Status) ([]byte, error) {
	if strings.IndexByte(s, 0) >= 0 {
		return nil, newError(status, "%s %q contains a NUL byte", what, s)
	}
	b := make([]byte, len(s)+1)
	copy(b, s)
	return b, nil
}

func charPtr(b []byte) *C.char { return (*C.char)(unsafe.Pointer(&b[0])) }

// textResult runs call with growing buffers until the text fits (BUFFER_TOO_SMALL means
// "try again with more room") and returns the text without its NUL.
// textResult runs a call that writes text: a first try with 64 bytes, and if the text
// needs more, a second with exactly the bytes the library reported.
func textResult(call func(buf *C.char, capacity C.uint64_t, needed *C.uint64_t, e *C.tcast_error) C.tcast_status) (string, error) {
	size := C.uint64_t(64)
	for attempt := 0; ; attempt++ {
		buf := make([]byte, size)
		e := newCError()
		var needed C.uint64_t
		status := call(charPtr(buf), size, &needed, &e)
		if status == C.TCAST_ERR_BUFFER_TOO_SMALL && attempt == 0 && needed > size && needed <= 1<<30 {
			size = needed
			continue
		}
		if err := toError(status, &e); err != nil {
			return "", err
		}
		i := bytes.IndexByte(buf, 0)
		if i < 0 || C.uint64_t(i)+1 != needed {
			return "", newError(ErrInternal, "the library wrote text that does not match the %d bytes it reported", uint64(needed))
		}
		return string(buf[:i]), nil
	}
}

func npDTypeParse(spec string) (*C.tcast_np_dtype, error) {
	cspec, err := cText(spec, "dtype spec", ErrParse)
	if err != nil {
		return nil, err
	}
	var h *C.tcast_np_dtype
	e := newCError()
	if err := toError(C.tcast_np_dtype_parse(charPtr(cspec), &h, &e), &e); err != nil {
		return nil, err
	}
	if h == nil {
		return nil, newError(ErrInternal, "tcast_np_dtype_parse succeeded without a handle")
	}
	return h, nil
}

func npDTypeFree(h *C.tcast_np_dtype) { C.tcast_np_dtype_free(h) }

func npDTypeStr(h *C.tcast_np_dtype) (string, error) {
	return textResult(func(buf *C.char, capacity C.uint64_t, needed *C.uint64_t, e *C.tcast_error) C.tcast_status {
		return C.tcast_np_dtype_str(h, buf, capacity, needed, e)
	})
}

func npCastingFromName(name string) (int32, error) {
	cname, err := cText(name, "casting name", ErrInvalidArgument)
	if err != nil {
		return 0, err
	}
	var level C.int32_t
	e := newCError()
	if err := toError(C.tcast_np_casting_from_name(charPtr(cname), &level, &e), &e); err != nil {
		return 0, err
	}
	return int32(level), nil
}

func npCastingLevel(from, to *C.tcast_np_dtype, rules NumpyRules) (int32, error) {
	var level C.int32_t
	e := newCError()
	if err := toError(C.tcast_np_casting_level(from, to, C.int32_t(rules), &level, &e), &e); err != nil {
		return 0, err
	}
	return int32(level), nil
}

// boolResult converts a library int32_t result (1 or 0) after a successful call.
func boolResult(status C.tcast_status, e *C.tcast_error, result C.int32_t) (bool, error) {
	if err := toError(status, e); err != nil {
		return false, err
	}
	return result != 0, nil
}

func npCanCast(from, to *C.tcast_np_dtype, casting C.int32_t, rules NumpyRules) (bool, error) {
	var result C.int32_t
	e := newCError()
	status := C.tcast_np_can_cast(from, to, casting, C.int32_t(rules), &result, &e)
	return boolResult(status, &e, result)
}

func npCanCastStr(from, to, casting string, rules NumpyRules) (bool, error) {
	cfrom, err := cText(from, "from", ErrParse)
	if err != nil {
		return false, err
	}
	cto, err := cText(to, "to", ErrParse)
	if err != nil {
		return false, err
	}
	ccasting, err := cText(casting, "casting", ErrInvalidArgument)
	if err != nil {
		return false, err
	}
	var result C.int32_t
	e := newCError()
	status := C.tcast_np_can_cast_str(charPtr(cfrom), charPtr(cto), charPtr(ccasting),
		C.int32_t(rules), &result, &e)
	return boolResult(status, &e, result)
}

// npValueCast is the part the value-based can_cast functions share: the target spec,
// the level and the rules; call makes the one C call.
func npValueCast(to string, casting C.int32_t, rules NumpyRules,
	call func(to *C.char, casting, rules C.int32_t, result *C.int32_t, e *C.tcast_error) C.tcast_status) (bool, error) {
	cto, err := cText(to, "to", ErrParse)
	if err != nil {
		return false, err
	}
	var result C.int32_t
	e := newCError()
	status := call(charPtr(cto), casting, C.int32_t(rules), &result, &e)
	return boolResult(status, &e, result)
}

func npCanCastPyInt(decimal, to string, casting C.int32_t, rules NumpyRules) (bool, error) {
	cdec, err := cText(decimal, "decimal", ErrParse)
	if err != nil {
		return false, err
	}
	return npValueCast(to, casting, rules, func(to *C.char, casting, rules C.int32_t, result *C.int32_t, e *C.tcast_error) C.tcast_status {
		return C.tcast_np_can_cast_pyint(charPtr(cdec), to, casting, rules, result, e)
	})
}

func npCanCastPyFloat(value float64, to string, casting C.int32_t, rules NumpyRules) (bool, error) {
	return npValueCast(to, casting, rules, func(to *C.char, casting, rules C.int32_t, result *C.int32_t, e *C.tcast_error) C.tcast_status {
		return C.tcast_np_can_cast_pyfloat(C.double(value), to, casting, rules, result, e)
	})
}

func npCanCastPyComplex(value complex128, to string, casting C.int32_t, rules NumpyRules) (bool, error) {
	return npValueCast(to, casting, rules, func(to *C.char, casting, rules C.int32_t, result *C.int32_t, e *C.tcast_error) C.tcast_status {
		return C.tcast_np_can_cast_pycomplex(C.double(real(value)), C.double(imag(value)), to, casting, rules, result, e)
	})
}

func npCanCastPyBool(value bool, to string, casting C.int32_t, rules NumpyRules) (bool, error) {
	v := C.int32_t(0)
	if value {
		v = 1
	}
	return npValueCast(to, casting, rules, func(to *C.char, casting, rules C.int32_t, result *C.int32_t, e *C.tcast_error) C.tcast_status {
		return C.tcast_np_can_cast_pybool(v, to, casting, rules, result, e)
	})
}

func npCanCastScalar(dtype string, value []byte, isArray bool, to string, casting C.int32_t, rules NumpyRules) (bool, error) {
	cdtype, err := cText(dtype, "dtype spec", ErrParse)
	if err != nil {
		return false, err
	}
	// An empty value (a zero-sized dtype) is still passed as a valid pointer, with 0 bytes.
	data := value
	if len(data) == 0 {
		data = make([]byte, 1)
	}
	arr := C.int32_t(0)
	if isArray {
		arr = 1
	}
	return npValueCast(to, casting, rules, func(to *C.char, casting, rules C.int32_t, result *C.int32_t, e *C.tcast_error) C.tcast_status {
		return C.tcast_np_can_cast_scalar(charPtr(cdtype), unsafe.Pointer(&data[0]), C.uint64_t(len(value)),
			arr, to, casting, rules, result, e)
	})
}

func npPromoteTypes(a, b string) (string, error) {
	ca, err := cText(a, "dtype spec", ErrParse)
	if err != nil {
		return "", err
	}
	cb, err := cText(b, "dtype spec", ErrParse)
	if err != nil {
		return "", err
	}
	return textResult(func(buf *C.char, capacity C.uint64_t, needed *C.uint64_t, e *C.tcast_error) C.tcast_status {
		return C.tcast_np_promote_types(charPtr(ca), charPtr(cb), buf, capacity, needed, e)
	})
}

func npMinScalarTypePyInt(decimal string) (string, error) {
	cdec, err := cText(decimal, "decimal", ErrParse)
	if err != nil {
		return "", err
	}
	return textResult(func(buf *C.char, capacity C.uint64_t, needed *C.uint64_t, e *C.tcast_error) C.tcast_status {
		return C.tcast_np_min_scalar_type_pyint(charPtr(cdec), buf, capacity, needed, e)
	})
}

func npMinScalarTypePyFloat(value float64) (string, error) {
	return textResult(func(buf *C.char, capacity C.uint64_t, needed *C.uint64_t, e *C.tcast_error) C.tcast_status {
		return C.tcast_np_min_scalar_type_pyfloat(C.double(value), buf, capacity, needed, e)
	})
}

func npMinScalarTypePyComplex(value complex128) (string, error) {
	return textResult(func(buf *C.char, capacity C.uint64_t, needed *C.uint64_t, e *C.tcast_error) C.tcast_status {
		return C.tcast_np_min_scalar_type_pycomplex(C.double(real(value)), C.double(imag(value)), buf, capacity, needed, e)
	})
}

func dtypeCanCast(from, to DType, casting C.int32_t) (bool, error) {
	var result C.int32_t
	e := newCError()
	status := C.tcast_can_cast(C.tcast_dtype(from), C.tcast_dtype(to), casting, &result, &e)
	return boolResult(status, &e, result)
}

// qdqTensors runs QuantizeLinear (quantize) or DequantizeLinear on contiguous tensors.
func qdqTensors(quantize bool, x, scale Tensor, zeroPoint *Tensor, y Tensor, o QdqOptions) error {
	xt, err := describe(x, "x")
	if err != nil {
		return err
	}
	st, err := describe(scale, "scale")
	if err != nil {
		return err
	}
	yt, err := describe(y, "y")
	if err != nil {
		return err
	}
	var zt cTensor
	hasZp := C.int(0)
	if zeroPoint != nil {
		if zt, err = describe(*zeroPoint, "zero_point"); err != nil {
			return err
		}
		hasZp = 1
	}
	q := C.int(0)
	if quantize {
		q = 1
	}
	sat := C.int32_t(1)
	if o.NoSaturate {
		sat = 0
	}
	e := newCError()
	status := C.gotc_qdq(q, xt.data, xt.bytes, xt.shape, xt.ndim, xt.dtype,
		st.data, st.bytes, st.shape, st.ndim, st.dtype, hasZp,
		zt.data, zt.bytes, zt.shape, zt.ndim, zt.dtype,
		yt.data, yt.bytes, yt.shape, yt.ndim, yt.dtype,
		sat, C.int64_t(o.Axis), C.int64_t(o.BlockSize), C.int32_t(o.Precision), &e)
	return toError(status, &e)
}

// describeOptional describes t, or gives a zero descriptor and 0 for nil.
func describeOptional(t *Tensor, what string) (cTensor, C.int, error) {
	if t == nil {
		return cTensor{}, 0, nil
	}
	ct, err := describe(*t, what)
	return ct, 1, err
}

// mxTensors runs MX quantize (a x, b y, c scale) or dequantize (a x, b scale, c y) on
// contiguous tensors; global is NVFP4's global_scale or nil.
func mxTensors(quantize bool, a, b, c Tensor, global *Tensor, names [3]string, o MxOptions) error {
	at, err := describe(a, names[0])
	if err != nil {
		return err
	}
	bt, err := describe(b, names[1])
	if err != nil {
		return err
	}
	ct, err := describe(c, names[2])
	if err != nil {
		return err
	}
	gt, hasG, err := describeOptional(global, "global_scale")
	if err != nil {
		return err
	}
	op := C.int(1)
	if quantize {
		op = 0
	}
	e := newCError()
	status := C.gotc_mx(op, at.data, at.bytes, at.shape, at.ndim, at.dtype,
		bt.data, bt.bytes, bt.shape, bt.ndim, bt.dtype,
		ct.data, ct.bytes, ct.shape, ct.ndim, ct.dtype,
		hasG, gt.data, gt.bytes, gt.shape, gt.ndim, gt.dtype,
		C.int32_t(o.ScaleRule), C.int64_t(o.Axis), C.int64_t(o.BlockSize), &e)
	return toError(status, &e)
}

// mxRepack runs tcast_mx_repack on contiguous tensors; nil scales are NULL.
func mxRepack(fromLayout MxLayout, from Tensor, fromScales *Tensor, toLayout MxLayout, to Tensor, toScales *Tensor) error {
	ft, err := describe(from, "from")
	if err != nil {
		return err
	}
	fst, hasFs, err := describeOptional(fromScales, "from_scales")
	if err != nil {
		return err
	}
	tt, err := describe(to, "to")
	if err != nil {
		return err
	}
	tst, hasTs, err := describeOptional(toScales, "to_scales")
	if err != nil {
		return err
	}
	e := newCError()
	status := C.gotc_mx_repack(C.int32_t(fromLayout), ft.data, ft.bytes, ft.shape, ft.ndim, ft.dtype,
		hasFs, fst.data, fst.bytes, fst.shape, fst.ndim, fst.dtype,
		C.int32_t(toLayout), tt.data, tt.bytes, tt.shape, tt.ndim, tt.dtype,
		hasTs, tst.data, tst.bytes, tst.shape, tst.ndim, tst.dtype, &e)
	return toError(status, &e)
}

// mxLibraryDefaults is what tcast_mx_options_init fills, as MxOptions (for the tests).
func mxLibraryDefaults() (MxOptions, error) {
	var o C.tcast_mx_options
	if status := C.tcast_mx_options_init(&o, C.size_t(unsafe.Sizeof(o))); status != C.TCAST_OK {
		return MxOptions{}, newError(Status(status), "tcast_mx_options_init refused %d bytes", unsafe.Sizeof(o))
	}
	return MxOptions{ScaleRule: MxScaleRule(o.scale_rule), Axis: int64(o.axis), BlockSize: int64(o.block_size)}, nil
}
