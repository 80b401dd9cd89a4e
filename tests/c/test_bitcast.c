/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Bitcast (docs/c-api.md section 6, docs/semantics-expand-bitcast.md "Bitcast"): tcast_bitcast_shape
 * and tcast_bitcast under TCAST_BITCAST_TF, TCAST_BITCAST_ONNX and TCAST_BITCAST_NUMPY_VIEW.
 *
 * - the page's examples and TensorFlow's own test cases: shapes, the bytes seen through
 *   the view, the exact TF error text;
 * - the view descriptor: same data pointer and data_bytes, strides NULL, dtype = to,
 *   shape = shape_storage;
 * - the TF rules over every pair of the 19 TF dtypes and a set of shapes, against a table
 *   this file computes from the rules as the page states them; dtypes TF refuses;
 * - the ONNX rules over every pair of dtypes (equal bit widths only, STRING never);
 * - the numpy view rules: the page's examples, the 0-d, divisibility and last-axis
 *   refusals, strided inputs (refused as the view has no strides), refused dtypes;
 * - argument errors: NULLs, capacities, rules and dtype codes, short buffers, rank limits.
 */
#include <limits.h>
#include <stdlib.h>

#include "tc_check.h"
#include "tc_dtypes.h"
#include "tc_util.h"

#define CAP (TCAST_MAX_NDIM + 2)
#define STORAGE_SENTINEL (-999)

/* ------------------------------------------------------------------ dtype tables */

typedef struct {
  tcast_dtype code;
  const char *name;
  int32_t bits; /* per element; 0 for STRING (a tcast_string view) */
} dtype_row;

/* Every dtype code of docs/c-api.md section 3, with its width as the page states it. */
static const dtype_row ALL_DTYPES[] = {
    {TCAST_DTYPE_FLOAT, "FLOAT", 32},
    {TCAST_DTYPE_UINT8, "UINT8", 8},
    {TCAST_DTYPE_INT8, "INT8", 8},
    {TCAST_DTYPE_UINT16, "UINT16", 16},
    {TCAST_DTYPE_INT16, "INT16", 16},
    {TCAST_DTYPE_INT32, "INT32", 32},
    {TCAST_DTYPE_INT64, "INT64", 64},
    {TCAST_DTYPE_STRING, "STRING", 0},
    {TCAST_DTYPE_BOOL, "BOOL", 8},
    {TCAST_DTYPE_FLOAT16, "FLOAT16", 16},
    {TCAST_DTYPE_DOUBLE, "DOUBLE", 64},
    {TCAST_DTYPE_UINT32, "UINT32", 32},
    {TCAST_DTYPE_UINT64, "UINT64", 64},
    {TCAST_DTYPE_COMPLEX64, "COMPLEX64", 64},
    {TCAST_DTYPE_COMPLEX128, "COMPLEX128", 128},
    {TCAST_DTYPE_BFLOAT16, "BFLOAT16", 16},
    {TCAST_DTYPE_FLOAT8E4M3FN, "FLOAT8E4M3FN", 8},
    {TCAST_DTYPE_FLOAT8E4M3FNUZ, "FLOAT8E4M3FNUZ", 8},
    {TCAST_DTYPE_FLOAT8E5M2, "FLOAT8E5M2", 8},
    {TCAST_DTYPE_FLOAT8E5M2FNUZ, "FLOAT8E5M2FNUZ", 8},
    {TCAST_DTYPE_UINT4, "UINT4", 4},
    {TCAST_DTYPE_INT4, "INT4", 4},
    {TCAST_DTYPE_FLOAT4E2M1, "FLOAT4E2M1", 4},
    {TCAST_DTYPE_FLOAT8E8M0, "FLOAT8E8M0", 8},
    {TCAST_DTYPE_UINT2, "UINT2", 2},
    {TCAST_DTYPE_INT2, "INT2", 2},
    {TCAST_DTYPE_FLOAT6E2M3, "FLOAT6E2M3", 6},
    {TCAST_DTYPE_FLOAT6E3M2, "FLOAT6E3M2", 6},
    {TCAST_DTYPE_QINT8, "QINT8", 8},
    {TCAST_DTYPE_QUINT8, "QUINT8", 8},
    {TCAST_DTYPE_QINT16, "QINT16", 16},
    {TCAST_DTYPE_QUINT16, "QUINT16", 16},
    {TCAST_DTYPE_QINT32, "QINT32", 32},
};
#define N_ALL ((int)(sizeof ALL_DTYPES / sizeof ALL_DTYPES[0]))

/* The 19 dtypes tf.bitcast takes (the page's list), with their sizes in bytes. */
static const struct {
  tcast_dtype code;
  const char *name;
  int64_t bytes;
} TF_DTYPES[] = {
    {TCAST_DTYPE_BFLOAT16, "BFLOAT16", 2},   {TCAST_DTYPE_FLOAT16, "FLOAT16", 2},
    {TCAST_DTYPE_FLOAT, "FLOAT", 4},         {TCAST_DTYPE_DOUBLE, "DOUBLE", 8},
    {TCAST_DTYPE_INT64, "INT64", 8},         {TCAST_DTYPE_INT32, "INT32", 4},
    {TCAST_DTYPE_UINT8, "UINT8", 1},         {TCAST_DTYPE_UINT16, "UINT16", 2},
    {TCAST_DTYPE_UINT32, "UINT32", 4},       {TCAST_DTYPE_UINT64, "UINT64", 8},
    {TCAST_DTYPE_INT8, "INT8", 1},           {TCAST_DTYPE_INT16, "INT16", 2},
    {TCAST_DTYPE_COMPLEX64, "COMPLEX64", 8}, {TCAST_DTYPE_COMPLEX128, "COMPLEX128", 16},
    {TCAST_DTYPE_QINT8, "QINT8", 1},         {TCAST_DTYPE_QUINT8, "QUINT8", 1},
    {TCAST_DTYPE_QINT16, "QINT16", 2},       {TCAST_DTYPE_QUINT16, "QUINT16", 2},
    {TCAST_DTYPE_QINT32, "QINT32", 4},
};
#define N_TF ((int)(sizeof TF_DTYPES / sizeof TF_DTYPES[0]))

static int is_packed_bits(int32_t bits) { return bits > 0 && bits < 8; }

/* Bytes a contiguous tensor of `count` elements of `bits` bits takes (packed). */
static uint64_t packed_bytes(uint64_t count, int32_t bits) {
  if (bits == 0) {
    return count * (uint64_t)sizeof(tcast_string);
  }
  return (count * (uint64_t)bits + 7) / 8;
}

static uint64_t element_count(const int64_t *dims, int32_t ndim) {
  uint64_t n = 1;
  for (int32_t i = 0; i < ndim; i++) {
    n *= (uint64_t)dims[i];
  }
  return n;
}

/* "[d0,d1,...]", the form the library's messages use. */
static void shape_text(char *out, size_t cap, const int64_t *dims, int32_t ndim) {
  size_t used = 0;
  used += (size_t)snprintf(out + used, cap - used, "[");
  for (int32_t i = 0; i < ndim && used < cap; i++) {
    used += (size_t)snprintf(out + used, cap - used, i ? ",%" PRId64 : "%" PRId64, dims[i]);
  }
  if (used < cap) {
    snprintf(out + used, cap - used, "]");
  }
}

/* Whether `word` occurs in `text` delimited by characters that cannot be part of a name. */
static int has_word(const char *text, const char *word) {
  size_t n = strlen(word);
  for (const char *p = strstr(text, word); p != NULL; p = strstr(p + 1, word)) {
    char before = p == text ? ' ' : p[-1];
    char after = p[n];
    int name_char_before = (before >= 'A' && before <= 'Z') || (before >= '0' && before <= '9') ||
                           before == '_';
    int name_char_after = (after >= 'A' && after <= 'Z') || (after >= '0' && after <= '9') ||
                          after == '_';
    if (!name_char_before && !name_char_after) {
      return 1;
    }
  }
  return 0;
}

/* ------------------------------------------------------------------ call helpers */

/* The last successful view and its storage, for the byte checks that follow a case. */
static tcast_tensor g_view;
static int64_t g_storage[CAP];

/*
 * tcast_bitcast(in, to, rules) with storage for CAP dims. Checks the status (and the err
 * struct's consistency); on success the whole view descriptor against `shape`/`ndim` (the
 * shape is not checked when ndim < 0); on failure the message, exactly when `message` is
 * given. Returns 1 when the status matched.
 */
static int view_case(int line, const char *what, const tcast_tensor *in, tcast_dtype to,
                     int32_t rules, tcast_status expected, const int64_t *shape, int32_t ndim,
                     const char *message) {
  memset(&g_view, 0x5A, sizeof g_view);
  for (int i = 0; i < CAP; i++) {
    g_storage[i] = STORAGE_SENTINEL;
  }
  tc_reset_err();
  tcast_status got = tcast_bitcast(in, to, rules, &g_view, g_storage, CAP, TC_ERR);
  tc_check_status(got, expected, what, __FILE__, line);
  if (got != expected) {
    return 0;
  }
  if (expected != TCAST_OK) {
    if (message != NULL) {
      CHECK_MSG(strcmp(tc_err.message, message) == 0, "line %d: %s: message \"%s\", expected \"%s\"",
                line, what, tc_err.message, message);
    }
    return 1;
  }
  CHECK_MSG(g_view.data == in->data, "line %d: %s: view.data %p, input data %p", line, what,
            g_view.data, in->data);
  CHECK_MSG(g_view.data_bytes == in->data_bytes,
            "line %d: %s: view.data_bytes %" PRIu64 ", input %" PRIu64, line, what,
            g_view.data_bytes, in->data_bytes);
  CHECK_MSG(g_view.strides == NULL, "line %d: %s: view.strides is not NULL", line, what);
  CHECK_MSG(g_view.dtype == to, "line %d: %s: view.dtype %d, expected %d", line, what,
            (int)g_view.dtype, (int)to);
  CHECK_MSG(g_view.shape == g_storage, "line %d: %s: view.shape is not shape_storage", line,
            what);
  if (ndim < 0) {
    return 1; /* the caller checks no shape */
  }
  CHECK_MSG(g_view.ndim == ndim, "line %d: %s: view.ndim %d, expected %d", line, what,
            (int)g_view.ndim, (int)ndim);
  if (g_view.ndim == ndim) {
    int same = 1;
    for (int32_t i = 0; i < ndim; i++) {
      same &= g_storage[i] == shape[i];
    }
    char got_text[512], exp_text[512];
    shape_text(got_text, sizeof got_text, g_storage, ndim);
    shape_text(exp_text, sizeof exp_text, shape, ndim);
    CHECK_MSG(same, "line %d: %s: view shape %s, expected %s", line, what, got_text, exp_text);
  }
  return 1;
}

/* tcast_bitcast_shape with room for CAP dims; the same checks as view_case. */
static int shape_case(int line, const char *what, tcast_dtype from, const int64_t *in_shape,
                      int32_t in_ndim, tcast_dtype to, int32_t rules, tcast_status expected,
                      const int64_t *shape, int32_t ndim, const char *message) {
  int64_t out[CAP];
  for (int i = 0; i < CAP; i++) {
    out[i] = STORAGE_SENTINEL;
  }
  int32_t out_ndim = -5;
  tc_reset_err();
  tcast_status got =
      tcast_bitcast_shape(from, in_shape, in_ndim, to, rules, out, CAP, &out_ndim, TC_ERR);
  tc_check_status(got, expected, what, __FILE__, line);
  if (got != expected) {
    return 0;
  }
  if (expected != TCAST_OK) {
    if (message != NULL) {
      CHECK_MSG(strcmp(tc_err.message, message) == 0, "line %d: %s: message \"%s\", expected \"%s\"",
                line, what, tc_err.message, message);
    }
    return 1;
  }
  if (ndim < 0) {
    return 1; /* the caller checks no shape */
  }
  CHECK_MSG(out_ndim == ndim, "line %d: %s: out_ndim %d, expected %d", line, what, (int)out_ndim,
            (int)ndim);
  if (out_ndim == ndim) {
    int same = 1;
    for (int32_t i = 0; i < ndim; i++) {
      same &= out[i] == shape[i];
    }
    char got_text[512], exp_text[512];
    shape_text(got_text, sizeof got_text, out, ndim);
    shape_text(exp_text, sizeof exp_text, shape, ndim);
    CHECK_MSG(same, "line %d: %s: out_shape %s, expected %s", line, what, got_text, exp_text);
  }
  return 1;
}

/* Both entry points on a contiguous input over `data`. */
static int both_cases(int line, const char *what, void *data, uint64_t data_bytes, tcast_dtype from,
                      const int64_t *in_shape, int32_t in_ndim, tcast_dtype to, int32_t rules,
                      tcast_status expected, const int64_t *shape, int32_t ndim,
                      const char *message) {
  tcast_tensor in = tensor(data, data_bytes, in_shape, in_ndim, from);
  int a = shape_case(line, what, from, in_shape, in_ndim, to, rules, expected, shape, ndim, message);
  int b = view_case(line, what, &in, to, rules, expected, shape, ndim, message);
  return a && b;
}

#define VIEW_CASE(...) view_case(__LINE__, __VA_ARGS__)
#define SHAPE_CASE(...) shape_case(__LINE__, __VA_ARGS__)
#define BOTH(...) both_cases(__LINE__, __VA_ARGS__)

/* Byte k of the view (its data read as raw bytes). */
static unsigned char view_byte(size_t k) { return ((const unsigned char *)g_view.data)[k]; }

static uint64_t view_u64(size_t i) {
  uint64_t v;
  memcpy(&v, (const unsigned char *)g_view.data + 8 * i, 8);
  return v;
}

static uint32_t view_u32(size_t i) {
  uint32_t v;
  memcpy(&v, (const unsigned char *)g_view.data + 4 * i, 4);
  return v;
}

/* ------------------------------------------------------------------ the page's examples */

static void test_seed_examples(void) {
  /* uint32 0xffffffff -> uint8 [255,255,255,255], shape [4] */
  uint32_t all_ones = 0xffffffffu;
  const int64_t four[] = {4};
  if (BOTH("u32 scalar -> u8", &all_ones, 4, TCAST_DTYPE_UINT32, NULL, 0, TCAST_DTYPE_UINT8,
           TCAST_BITCAST_TF, TCAST_OK, four, 1, NULL)) {
    for (size_t k = 0; k < 4; k++) {
      CHECK_EQ_INT(view_byte(k), 255);
    }
  }

  /* float32 [0,1,1] -> uint8 [[0,0,0,0],[0,0,128,63],[0,0,128,63]], shape [3,4] */
  float f3[3] = {0.0f, 1.0f, 1.0f};
  const int64_t s3[] = {3};
  const int64_t s34[] = {3, 4};
  static const unsigned char expected[3][4] = {{0, 0, 0, 0}, {0, 0, 128, 63}, {0, 0, 128, 63}};
  if (BOTH("f32 [0,1,1] -> u8", f3, sizeof f3, TCAST_DTYPE_FLOAT, s3, 1, TCAST_DTYPE_UINT8,
           TCAST_BITCAST_TF, TCAST_OK, s34, 2, NULL)) {
    for (size_t i = 0; i < 3; i++) {
      for (size_t j = 0; j < 4; j++) {
        unsigned want = expected[i][tc_le_index(j, 4)];
        CHECK_MSG(view_byte(i * 4 + j) == want, "view[%zu][%zu] is %u, expected %u", i, j,
                  view_byte(i * 4 + j), want);
      }
    }
  }
  /* the input was not written */
  CHECK(f3[0] == 0.0f && f3[1] == 1.0f && f3[2] == 1.0f);

  /* float32 [1,2,3] -> complex128 fails with TF 1.15's text */
  float f123[3] = {1.0f, 2.0f, 3.0f};
  BOTH("f32 [1,2,3] -> c128", f123, sizeof f123, TCAST_DTYPE_FLOAT, s3, 1,
       TCAST_DTYPE_COMPLEX128, TCAST_BITCAST_TF, TCAST_ERR_INCOMPATIBLE_SHAPES, NULL, 0,
       "Cannot bitcast from FLOAT to COMPLEX128: shape [3]");
  CHECK_EQ_INT(tc_err.index, -1);
}

/* 64-bit patterns of a few doubles (IEEE 754 binary64), written out by hand. */
static const struct {
  double value;
  uint64_t bits;
} DOUBLE_BITS[] = {
    {1.0, 0x3FF0000000000000ull},  {-2.0, 0xC000000000000000ull}, {0.5, 0x3FE0000000000000ull},
    {3.0, 0x4008000000000000ull},  {0.0, 0x0000000000000000ull},  {-0.0, 0x8000000000000000ull},
    {0.25, 0x3FD0000000000000ull}, {10.0, 0x4024000000000000ull}, {-1.5, 0xBFF8000000000000ull},
    {2.0, 0x4000000000000000ull},  {100.0, 0x4059000000000000ull}, {-0.75, 0xBFE8000000000000ull},
};

static void test_tensorflow_cases(void) {
  /* float64 [3,2] -> int8 gives [3,2,8]; the bytes are each double's, in the host's byte
     order (least significant first on a little-endian host) */
  double d32[6];
  for (int i = 0; i < 6; i++) {
    d32[i] = DOUBLE_BITS[i].value;
  }
  const int64_t s32[] = {3, 2}, s328[] = {3, 2, 8};
  if (BOTH("f64 [3,2] -> i8", d32, sizeof d32, TCAST_DTYPE_DOUBLE, s32, 2, TCAST_DTYPE_INT8,
           TCAST_BITCAST_TF, TCAST_OK, s328, 3, NULL)) {
    for (size_t e = 0; e < 6; e++) {
      for (size_t k = 0; k < 8; k++) {
        unsigned want = tc_elem_byte(DOUBLE_BITS[e].bits, 8, k);
        CHECK_MSG(view_byte(e * 8 + k) == want, "f64->i8 view[%zu][%zu][%zu] is %u, expected %u",
                  e / 2, e % 2, k, view_byte(e * 8 + k), want);
      }
    }
  }

  /* int8 arange(16) [4,4] -> int32 gives [4] */
  int8_t ar[16];
  for (int i = 0; i < 16; i++) {
    ar[i] = (int8_t)i;
  }
  const int64_t s44[] = {4, 4}, s4[] = {4};
  if (BOTH("i8 arange(16) [4,4] -> i32", ar, sizeof ar, TCAST_DTYPE_INT8, s44, 2, TCAST_DTYPE_INT32,
           TCAST_BITCAST_TF, TCAST_OK, s4, 1, NULL)) {
    /* TF's values are a little-endian host's; a big-endian one reads the bytes the other
       way round */
    int big = tc_big_endian();
    CHECK_EQ_HEX(view_u32(0), big ? 0x00010203u : 0x03020100u);
    CHECK_EQ_HEX(view_u32(1), big ? 0x04050607u : 0x07060504u);
    CHECK_EQ_HEX(view_u32(2), big ? 0x08090A0Bu : 0x0B0A0908u);
    CHECK_EQ_HEX(view_u32(3), big ? 0x0C0D0E0Fu : 0x0F0E0D0Cu);
  }

  /* float64 [3,4] -> int64 gives [3,4], each element the double's bit pattern */
  double d34[12];
  for (int i = 0; i < 12; i++) {
    d34[i] = DOUBLE_BITS[i].value;
  }
  const int64_t s34[] = {3, 4};
  if (BOTH("f64 [3,4] -> i64", d34, sizeof d34, TCAST_DTYPE_DOUBLE, s34, 2, TCAST_DTYPE_INT64,
           TCAST_BITCAST_TF, TCAST_OK, s34, 2, NULL)) {
    for (size_t i = 0; i < 12; i++) {
      CHECK_EQ_HEX(view_u64(i), DOUBLE_BITS[i].bits);
    }
  }

  /* int8 [1,1] -> int32 fails */
  int8_t one_byte = 7;
  const int64_t s11[] = {1, 1};
  BOTH("i8 [1,1] -> i32", &one_byte, 1, TCAST_DTYPE_INT8, s11, 2, TCAST_DTYPE_INT32,
       TCAST_BITCAST_TF, TCAST_ERR_INCOMPATIBLE_SHAPES, NULL, 0,
       "Cannot bitcast from INT8 to INT32: shape [1,1]");

  /* int32 scalar -> int8 gives [4] */
  int32_t i32 = 0x04030201;
  if (BOTH("i32 scalar -> i8", &i32, 4, TCAST_DTYPE_INT32, NULL, 0, TCAST_DTYPE_INT8,
           TCAST_BITCAST_TF, TCAST_OK, s4, 1, NULL)) {
    for (size_t k = 0; k < 4; k++) {
      CHECK_EQ_INT(view_byte(k), tc_elem_byte(0x04030201u, 4, k));
    }
  }

  /* uint16 [3,4] -> quint16 gives [3,4] */
  uint16_t u16[12];
  for (int i = 0; i < 12; i++) {
    u16[i] = (uint16_t)(0x1111u * (unsigned)i + 3u);
  }
  if (BOTH("u16 [3,4] -> quint16", u16, sizeof u16, TCAST_DTYPE_UINT16, s34, 2,
           TCAST_DTYPE_QUINT16, TCAST_BITCAST_TF, TCAST_OK, s34, 2, NULL)) {
    for (size_t i = 0; i < 12; i++) {
      uint16_t v;
      memcpy(&v, (const unsigned char *)g_view.data + 2 * i, 2);
      CHECK_EQ_HEX(v, (uint16_t)(0x1111u * (unsigned)i + 3u));
    }
  }

  /* int64 [3,4] -> uint64 gives [3,4] */
  int64_t i64[12];
  for (int i = 0; i < 12; i++) {
    i64[i] = (int64_t)i - 6;
  }
  if (BOTH("i64 [3,4] -> u64", i64, sizeof i64, TCAST_DTYPE_INT64, s34, 2, TCAST_DTYPE_UINT64,
           TCAST_BITCAST_TF, TCAST_OK, s34, 2, NULL)) {
    CHECK_EQ_HEX(view_u64(0), 0xFFFFFFFFFFFFFFFAull);
    CHECK_EQ_HEX(view_u64(5), 0xFFFFFFFFFFFFFFFFull);
    CHECK_EQ_HEX(view_u64(6), 0);
    CHECK_EQ_HEX(view_u64(11), 5);
  }

  /* uint8 [8] of ones -> uint64 gives the scalar 72340172838076673 */
  uint8_t ones[8];
  memset(ones, 1, sizeof ones);
  const int64_t s8[] = {8};
  if (BOTH("u8 [8] ones -> u64", ones, 8, TCAST_DTYPE_UINT8, s8, 1, TCAST_DTYPE_UINT64,
           TCAST_BITCAST_TF, TCAST_OK, NULL, 0, NULL)) {
    CHECK_EQ_HEX(view_u64(0), 72340172838076673ull);
  }

  /* uint64 scalar 1 -> uint8 [1,0,0,0,0,0,0,0] */
  uint64_t u64_one = 1;
  if (BOTH("u64 scalar 1 -> u8", &u64_one, 8, TCAST_DTYPE_UINT64, NULL, 0, TCAST_DTYPE_UINT8,
           TCAST_BITCAST_TF, TCAST_OK, s8, 1, NULL)) {
    for (size_t k = 0; k < 8; k++) {
      CHECK_EQ_INT(view_byte(k), tc_elem_byte(1, 8, k));
    }
  }

  /* complex128 [4,5] -> int8 [4,5,16] */
  double c45[40];
  for (int i = 0; i < 40; i++) {
    c45[i] = DOUBLE_BITS[i % 12].value;
  }
  const int64_t s45[] = {4, 5}, s4516[] = {4, 5, 16};
  if (BOTH("c128 [4,5] -> i8", c45, sizeof c45, TCAST_DTYPE_COMPLEX128, s45, 2, TCAST_DTYPE_INT8,
           TCAST_BITCAST_TF, TCAST_OK, s4516, 3, NULL)) {
    int all = 1;
    for (size_t e = 0; e < 20; e++) {
      for (size_t k = 0; k < 16; k++) {
        size_t part = 2 * e + k / 8; /* real, then imaginary */
        unsigned want = tc_elem_byte(DOUBLE_BITS[part % 12].bits, 8, k % 8);
        all &= view_byte(e * 16 + k) == want;
      }
    }
    CHECK_MSG(all, "c128 [4,5] -> i8: the view's bytes are not the complex values' bytes");
  }

  /* The page's in > out / in < out edge cases. */
  int32_t i32buf[4] = {0, 0, 0, 0};
  const int64_t s0[] = {0}, s04[] = {0, 4}, s40[] = {4, 0}, s30[] = {3, 0};
  const int64_t s0_4[] = {0, 4}, s3_0_4[] = {3, 0, 4};
  BOTH("i32 [0] -> i8", i32buf, 0, TCAST_DTYPE_INT32, s0, 1, TCAST_DTYPE_INT8, TCAST_BITCAST_TF,
       TCAST_OK, s0_4, 2, NULL);
  BOTH("i32 [3,0] -> i8", i32buf, 0, TCAST_DTYPE_INT32, s30, 2, TCAST_DTYPE_INT8,
       TCAST_BITCAST_TF, TCAST_OK, s3_0_4, 3, NULL);
  BOTH("i8 [0,4] -> i32", i32buf, 0, TCAST_DTYPE_INT8, s04, 2, TCAST_DTYPE_INT32,
       TCAST_BITCAST_TF, TCAST_OK, s0, 1, NULL);
  BOTH("i8 [4,0] -> i32", i32buf, 0, TCAST_DTYPE_INT8, s40, 2, TCAST_DTYPE_INT32,
       TCAST_BITCAST_TF, TCAST_ERR_INCOMPATIBLE_SHAPES, NULL, 0,
       "Cannot bitcast from INT8 to INT32: shape [4,0]");
  BOTH("i8 [0] -> i32", i32buf, 0, TCAST_DTYPE_INT8, s0, 1, TCAST_DTYPE_INT32, TCAST_BITCAST_TF,
       TCAST_ERR_INCOMPATIBLE_SHAPES, NULL, 0, "Cannot bitcast from INT8 to INT32: shape [0]");
  BOTH("i8 scalar -> i32", i32buf, 1, TCAST_DTYPE_INT8, NULL, 0, TCAST_DTYPE_INT32,
       TCAST_BITCAST_TF, TCAST_ERR_INCOMPATIBLE_SHAPES, NULL, 0,
       "Cannot bitcast from INT8 to INT32: shape []");
  /* a multiple of the ratio is not enough */
  const int64_t s8b[] = {8};
  BOTH("i8 [8] -> i32", i32buf, 8, TCAST_DTYPE_INT8, s8b, 1, TCAST_DTYPE_INT32, TCAST_BITCAST_TF,
       TCAST_ERR_INCOMPATIBLE_SHAPES, NULL, 0, "Cannot bitcast from INT8 to INT32: shape [8]");

  /* An empty input may have NULL data: the view keeps it. */
  tcast_tensor empty = tensor(NULL, 0, s0, 1, TCAST_DTYPE_INT32);
  if (VIEW_CASE("NULL-data [0] i32 -> i8", &empty, TCAST_DTYPE_INT8, TCAST_BITCAST_TF, TCAST_OK,
                s0_4, 2, NULL)) {
    CHECK(g_view.data == NULL);
    CHECK_EQ_INT(g_view.data_bytes, 0);
  }
}

/* ------------------------------------------------------------------ TF rules, every pair */

static unsigned char g_big[1024];

static void test_tf_table(void) {
  /* scalar, [0], [4,0], [0,4], then [k] and [2,k] for k in 1,2,4,8,16,3 */
  int64_t shapes[16][2];
  int32_t ranks[16];
  int n = 0;
  ranks[n] = 0;
  n++;
  shapes[n][0] = 0;
  ranks[n++] = 1;
  shapes[n][0] = 4;
  shapes[n][1] = 0;
  ranks[n++] = 2;
  shapes[n][0] = 0;
  shapes[n][1] = 4;
  ranks[n++] = 2;
  static const int64_t KS[] = {1, 2, 4, 8, 16, 3};
  for (int i = 0; i < 6; i++) {
    shapes[n][0] = KS[i];
    ranks[n++] = 1;
    shapes[n][0] = 2;
    shapes[n][1] = KS[i];
    ranks[n++] = 2;
  }

  for (size_t i = 0; i < sizeof g_big; i++) {
    g_big[i] = (unsigned char)(i * 7 + 1);
  }

  int cases = 0, ok_cases = 0, err_cases = 0;
  for (int a = 0; a < N_TF; a++) {
    for (int b = 0; b < N_TF; b++) {
      for (int s = 0; s < n; s++) {
        const int64_t *dims = shapes[s];
        int32_t rank = ranks[s];
        int64_t in = TF_DTYPES[a].bytes, out = TF_DTYPES[b].bytes;

        /* The rule, as the page states it. */
        int64_t want[4];
        int32_t want_rank = 0;
        int ok;
        if (in == out) {
          for (int32_t i = 0; i < rank; i++) {
            want[i] = dims[i];
          }
          want_rank = rank;
          ok = 1;
        } else if (in > out) {
          for (int32_t i = 0; i < rank; i++) {
            want[i] = dims[i];
          }
          want[rank] = in / out;
          want_rank = rank + 1;
          ok = 1;
        } else {
          ok = rank >= 1 && dims[rank - 1] == out / in;
          if (ok) {
            for (int32_t i = 0; i + 1 < rank; i++) {
              want[i] = dims[i];
            }
            want_rank = rank - 1;
          }
        }
        char dims_text[64], message[160], what[200];
        shape_text(dims_text, sizeof dims_text, dims, rank);
        snprintf(message, sizeof message, "Cannot bitcast from %s to %s: shape %s",
                 TF_DTYPES[a].name, TF_DTYPES[b].name, dims_text);
        snprintf(what, sizeof what, "TF %s %s -> %s", TF_DTYPES[a].name, dims_text,
                 TF_DTYPES[b].name);

        uint64_t bytes = element_count(dims, rank) * (uint64_t)in;
        /* some slack past the tensor in a third of the cases: view.data_bytes keeps it */
        uint64_t given = bytes + (uint64_t)((a + b + s) % 3) * 5;
        BOTH(what, g_big, given, TF_DTYPES[a].code, dims, rank, TF_DTYPES[b].code,
             TCAST_BITCAST_TF, ok ? TCAST_OK : TCAST_ERR_INCOMPATIBLE_SHAPES, want, want_rank,
             ok ? NULL : message);
        cases++;
        ok ? ok_cases++ : err_cases++;
      }
    }
  }
  CHECK_EQ_INT(cases, 19 * 19 * 16);
  /* both outcomes are well represented */
  CHECK(ok_cases > 1000 && err_cases > 1000);
}

static void test_tf_refused_dtypes(void) {
  static const tcast_dtype REFUSED[] = {TCAST_DTYPE_BOOL, TCAST_DTYPE_STRING,
                                        TCAST_DTYPE_FLOAT8E4M3FN, TCAST_DTYPE_INT4};
  static const char *const REFUSED_NAMES[] = {"BOOL", "STRING", "FLOAT8E4M3FN", "INT4"};
  const int64_t s4[] = {4};
  unsigned char buf[4 * 16];
  memset(buf, 0, sizeof buf);
  for (int r = 0; r < 4; r++) {
    for (int side = 0; side < 2; side++) {
      for (int t = 0; t < N_TF; t += 3) {
        tcast_dtype from = side == 0 ? REFUSED[r] : TF_DTYPES[t].code;
        tcast_dtype to = side == 0 ? TF_DTYPES[t].code : REFUSED[r];
        char what[128];
        snprintf(what, sizeof what, "TF %s -> %s", side == 0 ? REFUSED_NAMES[r] : TF_DTYPES[t].name,
                 side == 0 ? TF_DTYPES[t].name : REFUSED_NAMES[r]);
        if (!BOTH(what, buf, sizeof buf, from, s4, 1, to, TCAST_BITCAST_TF, TCAST_ERR_UNSUPPORTED,
                  NULL, 0, NULL)) {
          continue;
        }
        /* the message names the refused type and lists every allowed one */
        CHECK_MSG(has_word(tc_err.message, REFUSED_NAMES[r]), "%s: \"%s\" does not name %s", what,
                  tc_err.message, REFUSED_NAMES[r]);
        for (int k = 0; k < N_TF; k++) {
          CHECK_MSG(has_word(tc_err.message, TF_DTYPES[k].name),
                    "%s: \"%s\" does not list %s", what, tc_err.message, TF_DTYPES[k].name);
        }
      }
    }
  }
  /* Every other non-TF dtype is refused too (shape function only). */
  for (int i = 0; i < N_ALL; i++) {
    int in_tf = 0;
    for (int k = 0; k < N_TF; k++) {
      in_tf |= TF_DTYPES[k].code == ALL_DTYPES[i].code;
    }
    char what[128];
    snprintf(what, sizeof what, "TF %s -> INT8 and back", ALL_DTYPES[i].name);
    SHAPE_CASE(what, ALL_DTYPES[i].code, s4, 1, TCAST_DTYPE_INT8, TCAST_BITCAST_TF,
               in_tf ? TCAST_OK : TCAST_ERR_UNSUPPORTED, NULL, -1, NULL);
    SHAPE_CASE(what, TCAST_DTYPE_INT8, s4, 1, ALL_DTYPES[i].code, TCAST_BITCAST_TF,
               /* INT8 [4] -> a wider type needs a last dimension of exactly its size */
               in_tf ? (ALL_DTYPES[i].bits == 8 || ALL_DTYPES[i].bits == 32
                            ? TCAST_OK
                            : TCAST_ERR_INCOMPATIBLE_SHAPES)
                     : TCAST_ERR_UNSUPPORTED,
               NULL, -1, NULL);
  }
  /* an unsupported pair is refused even when the shape would not fit either */
  const int64_t s3[] = {3};
  SHAPE_CASE("TF BOOL [3] -> INT32", TCAST_DTYPE_BOOL, s3, 1, TCAST_DTYPE_INT32, TCAST_BITCAST_TF,
             TCAST_ERR_UNSUPPORTED, NULL, 0, NULL);
}

/* ------------------------------------------------------------------ ONNX */

static void test_onnx(void) {
  const int64_t s23[] = {2, 3}, s3[] = {3}, s05[] = {0, 5};
  const int64_t *shapes[] = {NULL, s3, s23, s05};
  const int32_t ranks[] = {0, 1, 2, 2};
  memset(g_big, 0x3C, sizeof g_big);
  int ok_pairs = 0;
  for (int a = 0; a < N_ALL; a++) {
    for (int b = 0; b < N_ALL; b++) {
      const dtype_row *from = &ALL_DTYPES[a], *to = &ALL_DTYPES[b];
      int string = from->code == TCAST_DTYPE_STRING || to->code == TCAST_DTYPE_STRING;
      int ok = !string && from->bits == to->bits;
      ok_pairs += ok;
      for (int s = 0; s < 4; s++) {
        char dims_text[32], what[128];
        shape_text(dims_text, sizeof dims_text, shapes[s], ranks[s]);
        snprintf(what, sizeof what, "ONNX %s %s -> %s", from->name, dims_text, to->name);
        uint64_t bytes = packed_bytes(element_count(shapes[s], ranks[s]), from->bits);
        BOTH(what, g_big, bytes, from->code, shapes[s], ranks[s], to->code, TCAST_BITCAST_ONNX,
             ok ? TCAST_OK : TCAST_ERR_UNSUPPORTED, shapes[s], ranks[s], NULL);
      }
    }
  }
  /* the equal-width groups: 8 bits (10 types), 16 (6), 32 (4), 64 (4), 4 (3), 2 (2), 6 (2),
     128 (1) */
  CHECK_EQ_INT(ok_pairs, 10 * 10 + 6 * 6 + 4 * 4 + 4 * 4 + 3 * 3 + 2 * 2 + 2 * 2 + 1);

  /* The pairs the brief singles out, with the bytes seen through the view. */
  unsigned char bytes[4] = {0x00, 0x01, 0x7F, 0xFF};
  const int64_t s4[] = {4}, s8[] = {8};
  if (BOTH("ONNX UINT8 -> BOOL", bytes, 4, TCAST_DTYPE_UINT8, s4, 1, TCAST_DTYPE_BOOL,
           TCAST_BITCAST_ONNX, TCAST_OK, s4, 1, NULL)) {
    CHECK(memcmp(g_view.data, bytes, 4) == 0);
  }
  tcast_tensor short_bool = tensor(bytes, 2, s4, 1, TCAST_DTYPE_BOOL); /* [4] needs 4 bytes */
  VIEW_CASE("ONNX short BOOL -> INT8", &short_bool, TCAST_DTYPE_INT8, TCAST_BITCAST_ONNX,
            TCAST_ERR_BUFFER_TOO_SMALL, NULL, 0, NULL);
  BOTH("ONNX BOOL -> INT8", bytes, 4, TCAST_DTYPE_BOOL, s4, 1, TCAST_DTYPE_INT8,
       TCAST_BITCAST_ONNX, TCAST_OK, s4, 1, NULL);
  /* packed: 8 int4 in 4 bytes are 8 uint4 / float4 in the same 4 bytes */
  BOTH("ONNX INT4 -> UINT4", bytes, 4, TCAST_DTYPE_INT4, s8, 1, TCAST_DTYPE_UINT4,
       TCAST_BITCAST_ONNX, TCAST_OK, s8, 1, NULL);
  BOTH("ONNX UINT4 -> FLOAT4E2M1", bytes, 4, TCAST_DTYPE_UINT4, s8, 1, TCAST_DTYPE_FLOAT4E2M1,
       TCAST_BITCAST_ONNX, TCAST_OK, s8, 1, NULL);
  BOTH("ONNX INT2 -> UINT2", bytes, 2, TCAST_DTYPE_INT2, s8, 1, TCAST_DTYPE_UINT2,
       TCAST_BITCAST_ONNX, TCAST_OK, s8, 1, NULL);
  BOTH("ONNX FLOAT6E2M3 -> FLOAT6E3M2", bytes, 3, TCAST_DTYPE_FLOAT6E2M3, s4, 1,
       TCAST_DTYPE_FLOAT6E3M2, TCAST_BITCAST_ONNX, TCAST_OK, s4, 1, NULL);
  BOTH("ONNX FLOAT8E5M2 -> FLOAT8E8M0", bytes, 4, TCAST_DTYPE_FLOAT8E5M2, s4, 1,
       TCAST_DTYPE_FLOAT8E8M0, TCAST_BITCAST_ONNX, TCAST_OK, s4, 1, NULL);
  BOTH("ONNX QINT32 -> FLOAT", bytes, 4, TCAST_DTYPE_QINT32, NULL, 0, TCAST_DTYPE_FLOAT,
       TCAST_BITCAST_ONNX, TCAST_OK, NULL, 0, NULL);
  /* unequal widths: the message gives both */
  if (BOTH("ONNX FLOAT -> DOUBLE", bytes, 4, TCAST_DTYPE_FLOAT, NULL, 0, TCAST_DTYPE_DOUBLE,
           TCAST_BITCAST_ONNX, TCAST_ERR_UNSUPPORTED, NULL, 0, NULL)) {
    CHECK_MSG_CONTAINS(TC_ERR, "FLOAT");
    CHECK_MSG_CONTAINS(TC_ERR, "DOUBLE");
  }
  tcast_string strs[2];
  memset(strs, 0, sizeof strs);
  const int64_t s2[] = {2};
  if (BOTH("ONNX STRING -> STRING", strs, sizeof strs, TCAST_DTYPE_STRING, s2, 1,
           TCAST_DTYPE_STRING, TCAST_BITCAST_ONNX, TCAST_ERR_UNSUPPORTED, NULL, 0, NULL)) {
    CHECK_MSG_CONTAINS(TC_ERR, "STRING");
  }
  /* A strided input (equal widths) is refused: the view carries no strides. */
  float f6[6] = {1, 2, 3, 4, 5, 6};
  const int64_t st[] = {1, 2};
  tcast_tensor strided = tensor(f6, sizeof f6, s23, 2, TCAST_DTYPE_FLOAT);
  strided.strides = st;
  const int64_t s23b[] = {2, 3};
  strided.shape = s23b;
  if (VIEW_CASE("ONNX strided FLOAT -> INT32", &strided, TCAST_DTYPE_INT32, TCAST_BITCAST_ONNX,
                TCAST_ERR_UNSUPPORTED, NULL, 0, NULL)) {
    CHECK_MSG_CONTAINS(TC_ERR, "strides");
  }
}

/* ------------------------------------------------------------------ numpy view */

static const char *const NP_ZERO_D =
    "Changing the dtype of a 0d array is only supported if the itemsize is unchanged";
static const char *const NP_DIVISOR =
    "When changing to a larger dtype, its size must be a divisor of the total size in bytes of "
    "the last axis of the array";
static const char *const NP_LAST_AXIS =
    "To change to a dtype of a different size, the last axis must be contiguous";

static void check_prefix(const char *what, const char *prefix) {
  CHECK_MSG(strncmp(tc_err.message, prefix, strlen(prefix)) == 0,
            "%s: message \"%s\" does not start with numpy's \"%s\"", what, tc_err.message, prefix);
}

static void test_numpy_view(void) {
  /* the page's examples */
  int32_t i3[3] = {0x04030201, -1, 0x00AB00CD};
  const int64_t s3[] = {3}, s12[] = {12};
  if (BOTH("NP i32[3] -> u8", i3, sizeof i3, TCAST_DTYPE_INT32, s3, 1, TCAST_DTYPE_UINT8,
           TCAST_BITCAST_NUMPY_VIEW, TCAST_OK, s12, 1, NULL)) {
    /* numpy's answer on a little-endian host */
    static const unsigned char want[12] = {1, 2, 3, 4, 255, 255, 255, 255, 0xCD, 0, 0xAB, 0};
    for (size_t k = 0; k < 12; k++) {
      CHECK_EQ_INT(view_byte(k), want[tc_le_index(k, 4)]);
    }
  }
  int8_t i16[16];
  for (int i = 0; i < 16; i++) {
    i16[i] = (int8_t)(i * 17);
  }
  const int64_t s28[] = {2, 8}, s22[] = {2, 2};
  if (BOTH("NP i8[2,8] -> i32", i16, sizeof i16, TCAST_DTYPE_INT8, s28, 2, TCAST_DTYPE_INT32,
           TCAST_BITCAST_NUMPY_VIEW, TCAST_OK, s22, 2, NULL)) {
    for (size_t i = 0; i < 4; i++) {
      uint32_t want = 0; /* the four bytes, most significant first */
      for (int j = 0; j < 4; j++) {
        int k = tc_big_endian() ? j : 3 - j;
        want = (want << 8) | (uint8_t)(int8_t)((4 * (int)i + k) * 17);
      }
      CHECK_EQ_HEX(view_u32(i), want);
    }
  }
  const int64_t s04[] = {0, 4}, s01[] = {0, 1}, s40[] = {4, 0};
  BOTH("NP i8[0,4] -> i32", i16, 0, TCAST_DTYPE_INT8, s04, 2, TCAST_DTYPE_INT32,
       TCAST_BITCAST_NUMPY_VIEW, TCAST_OK, s01, 2, NULL);
  BOTH("NP i8[4,0] -> i32", i16, 0, TCAST_DTYPE_INT8, s40, 2, TCAST_DTYPE_INT32,
       TCAST_BITCAST_NUMPY_VIEW, TCAST_OK, s40, 2, NULL);
  /* larger to smaller on an empty last axis */
  BOTH("NP i32[4,0] -> i8", i16, 0, TCAST_DTYPE_INT32, s40, 2, TCAST_DTYPE_INT8,
       TCAST_BITCAST_NUMPY_VIEW, TCAST_OK, s40, 2, NULL);
  /* equal sizes keep any shape, the 0-d one included */
  BOTH("NP i8 scalar -> u8", i16, 1, TCAST_DTYPE_INT8, NULL, 0, TCAST_DTYPE_UINT8,
       TCAST_BITCAST_NUMPY_VIEW, TCAST_OK, NULL, 0, NULL);
  BOTH("NP f32 scalar -> i32", i16, 4, TCAST_DTYPE_FLOAT, NULL, 0, TCAST_DTYPE_INT32,
       TCAST_BITCAST_NUMPY_VIEW, TCAST_OK, NULL, 0, NULL);
  BOTH("NP bool[3] -> i8", i16, 3, TCAST_DTYPE_BOOL, s3, 1, TCAST_DTYPE_INT8,
       TCAST_BITCAST_NUMPY_VIEW, TCAST_OK, s3, 1, NULL);
  /* float8 is byte-sized: allowed */
  const int64_t s4[] = {4}, s1[] = {1};
  BOTH("NP FLOAT8E5M2[4] -> u32", i16, 4, TCAST_DTYPE_FLOAT8E5M2, s4, 1, TCAST_DTYPE_UINT32,
       TCAST_BITCAST_NUMPY_VIEW, TCAST_OK, s1, 1, NULL);
  /* a last axis of a multiple of the new size is fine (unlike TF) */
  const int64_t s8[] = {8}, s2[] = {2};
  BOTH("NP i8[8] -> i32", i16, 8, TCAST_DTYPE_INT8, s8, 1, TCAST_DTYPE_INT32,
       TCAST_BITCAST_NUMPY_VIEW, TCAST_OK, s2, 1, NULL);

  /* 0-d: the itemsize cannot change */
  if (BOTH("NP i8 scalar -> i32", i16, 1, TCAST_DTYPE_INT8, NULL, 0, TCAST_DTYPE_INT32,
           TCAST_BITCAST_NUMPY_VIEW, TCAST_ERR_INCOMPATIBLE_SHAPES, NULL, 0, NULL)) {
    check_prefix("NP i8 scalar -> i32", NP_ZERO_D);
  }
  if (BOTH("NP f64 scalar -> f32", i16, 8, TCAST_DTYPE_DOUBLE, NULL, 0, TCAST_DTYPE_FLOAT,
           TCAST_BITCAST_NUMPY_VIEW, TCAST_ERR_INCOMPATIBLE_SHAPES, NULL, 0, NULL)) {
    check_prefix("NP f64 scalar -> f32", NP_ZERO_D);
  }
  /* divisibility */
  if (BOTH("NP i8[3] -> i32", i16, 3, TCAST_DTYPE_INT8, s3, 1, TCAST_DTYPE_INT32,
           TCAST_BITCAST_NUMPY_VIEW, TCAST_ERR_INCOMPATIBLE_SHAPES, NULL, 0, NULL)) {
    check_prefix("NP i8[3] -> i32", NP_DIVISOR);
  }
  const int64_t s23[] = {2, 3};
  if (BOTH("NP i32[2,3] -> c128", i16, 24, TCAST_DTYPE_INT32, s23, 2, TCAST_DTYPE_COMPLEX128,
           TCAST_BITCAST_NUMPY_VIEW, TCAST_ERR_INCOMPATIBLE_SHAPES, NULL, 0, NULL)) {
    check_prefix("NP i32[2,3] -> c128", NP_DIVISOR);
  }

  /* A strided input whose last axis is not contiguous: numpy's refusal. */
  int8_t grid[24];
  for (int i = 0; i < 24; i++) {
    grid[i] = (int8_t)i;
  }
  const int64_t sh34[] = {3, 4}, st_every2[] = {8, 2}; /* x[:, ::2] of a [3,8] int8 array */
  tcast_tensor every2 = tensor(grid, sizeof grid, sh34, 2, TCAST_DTYPE_INT8);
  every2.strides = st_every2;
  if (VIEW_CASE("NP i8[3,8][:, ::2] -> i16", &every2, TCAST_DTYPE_INT16, TCAST_BITCAST_NUMPY_VIEW,
                TCAST_ERR_INCOMPATIBLE_SHAPES, NULL, 0, NULL)) {
    check_prefix("NP i8[3,8][:, ::2] -> i16", NP_LAST_AXIS);
  }
  /* a transposed [4,3] (shape [3,4], strides [1,3]) */
  const int64_t st_t[] = {1, 3};
  tcast_tensor transposed = tensor(grid, 12, sh34, 2, TCAST_DTYPE_INT8);
  transposed.strides = st_t;
  if (VIEW_CASE("NP i8 transposed -> i32", &transposed, TCAST_DTYPE_INT32,
                TCAST_BITCAST_NUMPY_VIEW, TCAST_ERR_INCOMPATIBLE_SHAPES, NULL, 0, NULL)) {
    check_prefix("NP i8 transposed -> i32", NP_LAST_AXIS);
  }
  /* The rule checks come before the strides refusal: 0-d and divisibility too. */
  const int64_t sh33[] = {3, 3}, st33[] = {8, 1};
  tcast_tensor rows = tensor(grid, sizeof grid, sh33, 2, TCAST_DTYPE_INT8);
  rows.strides = st33;
  if (VIEW_CASE("NP i8[3,8][:, :3] -> i16", &rows, TCAST_DTYPE_INT16, TCAST_BITCAST_NUMPY_VIEW,
                TCAST_ERR_INCOMPATIBLE_SHAPES, NULL, 0, NULL)) {
    check_prefix("NP i8[3,8][:, :3] -> i16", NP_DIVISOR);
  }

  /* Strided inputs numpy would view fine: refused as UNSUPPORTED (no strides in a view). */
  const int64_t st_rows[] = {8, 1}; /* x[:, :4] of a [3,8] int8 array */
  tcast_tensor first4 = tensor(grid, sizeof grid, sh34, 2, TCAST_DTYPE_INT8);
  first4.strides = st_rows;
  if (VIEW_CASE("NP i8[3,8][:, :4] -> i32", &first4, TCAST_DTYPE_INT32, TCAST_BITCAST_NUMPY_VIEW,
                TCAST_ERR_UNSUPPORTED, NULL, 0, NULL)) {
    CHECK_MSG_CONTAINS(TC_ERR, "contiguous");
  }
  /* same itemsize, last axis strided: numpy views it, we cannot */
  VIEW_CASE("NP i8[3,8][:, ::2] -> u8", &every2, TCAST_DTYPE_UINT8, TCAST_BITCAST_NUMPY_VIEW,
            TCAST_ERR_UNSUPPORTED, NULL, 0, NULL);
  VIEW_CASE("NP i8 transposed -> bool", &transposed, TCAST_DTYPE_BOOL, TCAST_BITCAST_NUMPY_VIEW,
            TCAST_ERR_UNSUPPORTED, NULL, 0, NULL);
  /* a last axis of extent 1 with any stride passes numpy's check; the outer one is strided */
  const int64_t sh41[] = {4, 1}, st41[] = {4, 7};
  tcast_tensor column8 = tensor(grid, 13, sh41, 2, TCAST_DTYPE_INT8);
  column8.strides = st41;
  VIEW_CASE("NP i8[4,1] strides [4,7] -> i8", &column8, TCAST_DTYPE_UINT8,
            TCAST_BITCAST_NUMPY_VIEW, TCAST_ERR_UNSUPPORTED, NULL, 0, NULL);
  /* the same rules under TF: the rule first, then the strides */
  VIEW_CASE("TF i8[3,8][:, :4] -> i32", &first4, TCAST_DTYPE_INT32, TCAST_BITCAST_TF,
            TCAST_ERR_UNSUPPORTED, NULL, 0, NULL);
  VIEW_CASE("TF i8[3,8][:, :3] -> i32", &rows, TCAST_DTYPE_INT32, TCAST_BITCAST_TF,
            TCAST_ERR_INCOMPATIBLE_SHAPES, NULL, 0, "Cannot bitcast from INT8 to INT32: shape [3,3]");

  /* Strides that spell out the C-contiguous layout are no strides at all. */
  const int64_t st_c[] = {4, 1}, s31[] = {3, 1};
  tcast_tensor spelled = tensor(grid, 12, sh34, 2, TCAST_DTYPE_INT8);
  spelled.strides = st_c;
  VIEW_CASE("NP i8[3,4] strides [4,1] -> i32", &spelled, TCAST_DTYPE_INT32,
            TCAST_BITCAST_NUMPY_VIEW, TCAST_OK, s31, 2, NULL);
  /* so are any strides of an empty tensor (numpy skips its check for size 0) */
  const int64_t st_e[] = {1, 2};
  tcast_tensor empty = tensor(grid, 0, s04, 2, TCAST_DTYPE_INT8);
  empty.strides = st_e;
  VIEW_CASE("NP i8[0,4] strides [1,2] -> i32", &empty, TCAST_DTYPE_INT32,
            TCAST_BITCAST_NUMPY_VIEW, TCAST_OK, s01, 2, NULL);

  /* Refused dtypes: STRING and the sub-byte types, on either side. */
  for (int i = 0; i < N_ALL; i++) {
    const dtype_row *d = &ALL_DTYPES[i];
    int refused = d->bits == 0 || is_packed_bits(d->bits);
    char what[96];
    snprintf(what, sizeof what, "NP %s [4] <-> INT8", d->name);
    SHAPE_CASE(what, d->code, s4, 1, TCAST_DTYPE_INT8, TCAST_BITCAST_NUMPY_VIEW,
               refused ? TCAST_ERR_UNSUPPORTED : TCAST_OK, NULL, -1, NULL);
    if (refused) {
      CHECK_MSG(has_word(tc_err.message, d->name), "%s: \"%s\" does not name %s", what,
                tc_err.message, d->name);
    }
    SHAPE_CASE(what, TCAST_DTYPE_INT8, s4, 1, d->code, TCAST_BITCAST_NUMPY_VIEW,
               refused ? TCAST_ERR_UNSUPPORTED
                       : ((4 % (d->bits / 8)) == 0 ? TCAST_OK : TCAST_ERR_INCOMPATIBLE_SHAPES),
               NULL, -1, NULL);
    /* through tcast_bitcast, with a real buffer of the input type */
    if (refused) {
      tcast_tensor in = tensor(g_big, packed_bytes(4, d->bits), s4, 1, d->code);
      VIEW_CASE(what, &in, TCAST_DTYPE_UINT8, TCAST_BITCAST_NUMPY_VIEW, TCAST_ERR_UNSUPPORTED,
                NULL, 0, NULL);
    }
  }
  /* equal packed widths are still refused (numpy has no such dtypes) */
  SHAPE_CASE("NP INT4 -> UINT4", TCAST_DTYPE_INT4, s4, 1, TCAST_DTYPE_UINT4,
             TCAST_BITCAST_NUMPY_VIEW, TCAST_ERR_UNSUPPORTED, NULL, 0, NULL);
}

/* The numpy rule over every pair of byte-sized dtypes and a set of shapes. */
static void test_numpy_table(void) {
  static const int64_t SHAPES[][3] = {{0}, {0}, {4, 0}, {0, 4}, {1}, {2}, {3}, {4},
                                      {8}, {16}, {2, 16}, {3, 6}, {2, 2, 8}, {5, 1}, {1, 5}, {24}};
  static const int32_t RANKS[] = {0, 1, 2, 2, 1, 1, 1, 1, 1, 1, 2, 2, 3, 2, 2, 1};
  const int n_shapes = (int)(sizeof RANKS / sizeof RANKS[0]);
  int cases = 0;
  for (int a = 0; a < N_ALL; a++) {
    for (int b = 0; b < N_ALL; b++) {
      const dtype_row *from = &ALL_DTYPES[a], *to = &ALL_DTYPES[b];
      if (from->bits == 0 || to->bits == 0 || is_packed_bits(from->bits) ||
          is_packed_bits(to->bits)) {
        continue;
      }
      int64_t in = from->bits / 8, out = to->bits / 8;
      for (int s = 0; s < n_shapes; s++) {
        const int64_t *dims = SHAPES[s];
        int32_t rank = RANKS[s];
        int64_t want[3] = {0, 0, 0};
        const char *prefix = NULL;
        for (int32_t i = 0; i < rank; i++) {
          want[i] = dims[i];
        }
        if (in != out) {
          if (rank == 0) {
            prefix = NP_ZERO_D;
          } else if ((dims[rank - 1] * in) % out != 0) {
            prefix = NP_DIVISOR;
          } else {
            want[rank - 1] = dims[rank - 1] * in / out;
          }
        }
        char dims_text[32], what[128];
        shape_text(dims_text, sizeof dims_text, dims, rank);
        snprintf(what, sizeof what, "NP %s %s -> %s", from->name, dims_text, to->name);
        uint64_t bytes = element_count(dims, rank) * (uint64_t)in;
        if (BOTH(what, g_big, bytes, from->code, dims, rank, to->code, TCAST_BITCAST_NUMPY_VIEW,
                 prefix ? TCAST_ERR_INCOMPATIBLE_SHAPES : TCAST_OK, want, rank, NULL) &&
            prefix != NULL) {
          check_prefix(what, prefix);
        }
        cases++;
      }
    }
  }
  /* 25 byte-sized dtypes: all but STRING and the 7 packed ones */
  CHECK_EQ_INT(cases, 25 * 25 * n_shapes);
}

/* ------------------------------------------------------------------ argument errors */

static void test_errors(void) {
  float f3[3] = {1, 2, 3};
  const int64_t s3[] = {3}, s34[] = {3, 4};
  tcast_tensor in = tensor(f3, sizeof f3, s3, 1, TCAST_DTYPE_FLOAT);
  tcast_tensor view;
  int64_t storage[4];
  int64_t out[4];
  int32_t out_ndim = -5;

  /* NULL pointers */
  CHECK_STATUS(tcast_bitcast(NULL, TCAST_DTYPE_UINT8, TCAST_BITCAST_TF, &view, storage, 4, TC_ERR),
               TCAST_ERR_NULL_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "input");
  CHECK_STATUS(tcast_bitcast(&in, TCAST_DTYPE_UINT8, TCAST_BITCAST_TF, NULL, storage, 4, TC_ERR),
               TCAST_ERR_NULL_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "view");
  CHECK_STATUS(tcast_bitcast(&in, TCAST_DTYPE_UINT8, TCAST_BITCAST_TF, &view, NULL, 4, TC_ERR),
               TCAST_ERR_NULL_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "shape_storage");
  CHECK_STATUS(tcast_bitcast_shape(TCAST_DTYPE_FLOAT, s3, 1, TCAST_DTYPE_UINT8, TCAST_BITCAST_TF,
                                   out, 4, NULL, TC_ERR),
               TCAST_ERR_NULL_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "out_ndim");
  CHECK_STATUS(tcast_bitcast_shape(TCAST_DTYPE_FLOAT, s3, 1, TCAST_DTYPE_UINT8, TCAST_BITCAST_TF,
                                   NULL, 4, &out_ndim, TC_ERR),
               TCAST_ERR_NULL_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "out_shape");
  CHECK_STATUS(tcast_bitcast_shape(TCAST_DTYPE_FLOAT, NULL, 1, TCAST_DTYPE_UINT8, TCAST_BITCAST_TF,
                                   out, 4, &out_ndim, TC_ERR),
               TCAST_ERR_NULL_ARGUMENT);
  tcast_tensor no_shape = tensor(f3, sizeof f3, NULL, 1, TCAST_DTYPE_FLOAT);
  CHECK_STATUS(
      tcast_bitcast(&no_shape, TCAST_DTYPE_UINT8, TCAST_BITCAST_TF, &view, storage, 4, TC_ERR),
      TCAST_ERR_NULL_ARGUMENT);
  tcast_tensor no_data = tensor(NULL, sizeof f3, s3, 1, TCAST_DTYPE_FLOAT);
  CHECK_STATUS(
      tcast_bitcast(&no_data, TCAST_DTYPE_UINT8, TCAST_BITCAST_TF, &view, storage, 4, TC_ERR),
      TCAST_ERR_NULL_ARGUMENT);

  /* NULL storage with capacity 0 is fine for a scalar view, not for a rank-1 one */
  float scalar = 1.0f;
  tcast_tensor sc = tensor(&scalar, 4, NULL, 0, TCAST_DTYPE_FLOAT);
  CHECK_STATUS(tcast_bitcast(&sc, TCAST_DTYPE_INT32, TCAST_BITCAST_TF, &view, NULL, 0, TC_ERR),
               TCAST_OK);
  CHECK(view.ndim == 0 && view.shape == NULL && view.data == &scalar && view.strides == NULL);
  CHECK_STATUS(tcast_bitcast(&sc, TCAST_DTYPE_UINT8, TCAST_BITCAST_TF, &view, NULL, 0, TC_ERR),
               TCAST_ERR_BUFFER_TOO_SMALL);
  const int64_t s8[] = {8};
  CHECK_STATUS(tcast_bitcast_shape(TCAST_DTYPE_UINT8, s8, 1, TCAST_DTYPE_UINT64, TCAST_BITCAST_TF,
                                   NULL, 0, &out_ndim, TC_ERR),
               TCAST_OK);
  CHECK_EQ_INT(out_ndim, 0);

  /* capacities: too small, exact, negative */
  CHECK_STATUS(tcast_bitcast(&in, TCAST_DTYPE_UINT8, TCAST_BITCAST_TF, &view, storage, 1, TC_ERR),
               TCAST_ERR_BUFFER_TOO_SMALL);
  CHECK_MSG_CONTAINS(TC_ERR, "shape_capacity");
  CHECK_STATUS(tcast_bitcast(&in, TCAST_DTYPE_UINT8, TCAST_BITCAST_TF, &view, storage, 2, TC_ERR),
               TCAST_OK);
  CHECK(view.ndim == 2 && storage[0] == 3 && storage[1] == 4);
  out_ndim = -5;
  CHECK_STATUS(tcast_bitcast_shape(TCAST_DTYPE_FLOAT, s3, 1, TCAST_DTYPE_UINT8, TCAST_BITCAST_TF,
                                   out, 1, &out_ndim, TC_ERR),
               TCAST_ERR_BUFFER_TOO_SMALL);
  CHECK_EQ_INT(out_ndim, 2); /* the header: *out_ndim is set */
  CHECK_MSG_CONTAINS(TC_ERR, "out_capacity");
  CHECK_STATUS(tcast_bitcast_shape(TCAST_DTYPE_FLOAT, s3, 1, TCAST_DTYPE_UINT8, TCAST_BITCAST_TF,
                                   out, 2, &out_ndim, TC_ERR),
               TCAST_OK);
  CHECK(out_ndim == 2 && out[0] == 3 && out[1] == 4);
  static const int32_t NEGATIVE[] = {-1, -64, INT32_MIN};
  for (int i = 0; i < 3; i++) {
    CHECK_STATUS(tcast_bitcast(&in, TCAST_DTYPE_UINT8, TCAST_BITCAST_TF, &view, storage,
                               NEGATIVE[i], TC_ERR),
                 TCAST_ERR_INVALID_ARGUMENT);
    CHECK_MSG_CONTAINS(TC_ERR, "shape_capacity");
    CHECK_STATUS(tcast_bitcast_shape(TCAST_DTYPE_FLOAT, s3, 1, TCAST_DTYPE_UINT8, TCAST_BITCAST_TF,
                                     out, NEGATIVE[i], &out_ndim, TC_ERR),
                 TCAST_ERR_INVALID_ARGUMENT);
    CHECK_MSG_CONTAINS(TC_ERR, "out_capacity");
  }

  /* unknown rules */
  static const int32_t BAD_RULES[] = {3, -1, 100, INT32_MAX, INT32_MIN};
  for (int i = 0; i < 5; i++) {
    CHECK_STATUS(
        tcast_bitcast(&in, TCAST_DTYPE_UINT8, BAD_RULES[i], &view, storage, 4, TC_ERR),
        TCAST_ERR_INVALID_ARGUMENT);
    CHECK_MSG_CONTAINS(TC_ERR, "rules");
    CHECK_STATUS(tcast_bitcast_shape(TCAST_DTYPE_FLOAT, s3, 1, TCAST_DTYPE_UINT8, BAD_RULES[i], out,
                                     4, &out_ndim, TC_ERR),
                 TCAST_ERR_INVALID_ARGUMENT);
    CHECK_MSG_CONTAINS(TC_ERR, "rules");
  }

  /* unknown dtype codes, on either side, under every rule set */
  static const int32_t BAD_CODES[] = {0,  -1,  TC_FIRST_FREE_CODE, 50, 99, 105, 255,
                                      INT32_MAX, INT32_MIN};
  for (int r = 0; r < 3; r++) {
    for (int i = 0; i < 9; i++) {
      CHECK_STATUS(tcast_bitcast(&in, BAD_CODES[i], r, &view, storage, 4, TC_ERR),
                   TCAST_ERR_INVALID_DTYPE);
      tcast_tensor bad = in;
      bad.dtype = BAD_CODES[i];
      CHECK_STATUS(tcast_bitcast(&bad, TCAST_DTYPE_UINT8, r, &view, storage, 4, TC_ERR),
                   TCAST_ERR_INVALID_DTYPE);
      CHECK_STATUS(tcast_bitcast_shape(BAD_CODES[i], s3, 1, TCAST_DTYPE_UINT8, r, out, 4,
                                       &out_ndim, TC_ERR),
                   TCAST_ERR_INVALID_DTYPE);
      CHECK_STATUS(tcast_bitcast_shape(TCAST_DTYPE_FLOAT, s3, 1, BAD_CODES[i], r, out, 4,
                                       &out_ndim, TC_ERR),
                   TCAST_ERR_INVALID_DTYPE);
    }
  }

  /* short data_bytes */
  for (int r = 0; r < 3; r++) {
    tcast_tensor shorter = in;
    shorter.data_bytes = sizeof f3 - 1;
    CHECK_STATUS(tcast_bitcast(&shorter, TCAST_DTYPE_INT32, r, &view, storage, 4, TC_ERR),
                 TCAST_ERR_BUFFER_TOO_SMALL);
    CHECK_MSG_CONTAINS(TC_ERR, "data_bytes");
  }
  tcast_tensor shorter = tensor(f3, 0, s34, 2, TCAST_DTYPE_UINT8);
  shorter.data_bytes = 11;
  CHECK_STATUS(tcast_bitcast(&shorter, TCAST_DTYPE_UINT8, TCAST_BITCAST_TF, &view, storage, 4,
                             TC_ERR),
               TCAST_ERR_BUFFER_TOO_SMALL);

  /* shapes: negative dims, bad ranks */
  const int64_t neg[] = {3, -1};
  CHECK_STATUS(tcast_bitcast_shape(TCAST_DTYPE_FLOAT, neg, 2, TCAST_DTYPE_UINT8, TCAST_BITCAST_TF,
                                   out, 4, &out_ndim, TC_ERR),
               TCAST_ERR_INVALID_SHAPE);
  tcast_tensor negt = tensor(f3, sizeof f3, neg, 2, TCAST_DTYPE_FLOAT);
  CHECK_STATUS(tcast_bitcast(&negt, TCAST_DTYPE_INT32, TCAST_BITCAST_ONNX, &view, storage, 4,
                             TC_ERR),
               TCAST_ERR_INVALID_SHAPE);
  CHECK_STATUS(tcast_bitcast_shape(TCAST_DTYPE_FLOAT, s3, -1, TCAST_DTYPE_UINT8, TCAST_BITCAST_TF,
                                   out, 4, &out_ndim, TC_ERR),
               TCAST_ERR_INVALID_SHAPE);
  int64_t ones65[65];
  for (int i = 0; i < 65; i++) {
    ones65[i] = 1;
  }
  CHECK_STATUS(tcast_bitcast_shape(TCAST_DTYPE_FLOAT, ones65, 65, TCAST_DTYPE_INT32,
                                   TCAST_BITCAST_ONNX, out, 4, &out_ndim, TC_ERR),
               TCAST_ERR_INVALID_SHAPE);
  tcast_tensor rank65 = tensor(f3, sizeof f3, ones65, 65, TCAST_DTYPE_FLOAT);
  CHECK_STATUS(tcast_bitcast(&rank65, TCAST_DTYPE_INT32, TCAST_BITCAST_ONNX, &view, storage, 4,
                             TC_ERR),
               TCAST_ERR_INVALID_SHAPE);
  /* element or byte counts that overflow 64 bits */
  const int64_t huge_bytes[] = {INT64_MAX / 8 + 1};
  const int64_t huge_count[] = {(int64_t)1 << 40, (int64_t)1 << 40};
  for (int r = 0; r < 3; r++) {
    CHECK_STATUS(tcast_bitcast_shape(TCAST_DTYPE_DOUBLE, huge_bytes, 1, TCAST_DTYPE_INT64, r, out,
                                     4, &out_ndim, TC_ERR),
                 TCAST_ERR_INVALID_SHAPE);
    CHECK_STATUS(tcast_bitcast_shape(TCAST_DTYPE_UINT8, huge_count, 2, TCAST_DTYPE_INT8, r, out, 4,
                                     &out_ndim, TC_ERR),
                 TCAST_ERR_INVALID_SHAPE);
    tcast_tensor huge = tensor(f3, sizeof f3, huge_count, 2, TCAST_DTYPE_UINT8);
    CHECK_STATUS(tcast_bitcast(&huge, TCAST_DTYPE_INT8, r, &view, storage, 4, TC_ERR),
                 TCAST_ERR_INVALID_SHAPE);
  }
  /* strides are not allowed for packed dtypes */
  const int64_t s4[] = {4}, st1[] = {1};
  tcast_tensor packed_strided = tensor(f3, 2, s4, 1, TCAST_DTYPE_INT4);
  packed_strided.strides = st1;
  CHECK_STATUS(tcast_bitcast(&packed_strided, TCAST_DTYPE_UINT4, TCAST_BITCAST_ONNX, &view,
                             storage, 4, TC_ERR),
               TCAST_ERR_INVALID_SHAPE);

  /* err may be NULL */
  CHECK_EQ_INT(tcast_bitcast(&in, TCAST_DTYPE_UINT8, TCAST_BITCAST_TF, &view, storage, 4, NULL),
               TCAST_OK);
  CHECK_EQ_INT(tcast_bitcast(&in, TCAST_DTYPE_COMPLEX128, TCAST_BITCAST_TF, &view, storage, 4,
                             NULL),
               TCAST_ERR_INCOMPATIBLE_SHAPES);
  CHECK_EQ_INT(tcast_bitcast_shape(TCAST_DTYPE_FLOAT, s3, 1, TCAST_DTYPE_UINT8, 7, out, 4,
                                   &out_ndim, NULL),
               TCAST_ERR_INVALID_ARGUMENT);

  /* the input descriptor and its arrays are not written */
  CHECK(in.data == f3 && in.data_bytes == sizeof f3 && in.shape == s3 && in.strides == NULL &&
        in.ndim == 1 && in.dtype == TCAST_DTYPE_FLOAT);
  CHECK(s3[0] == 3 && f3[0] == 1 && f3[1] == 2 && f3[2] == 3);
}

/* ------------------------------------------------------------------ rank limits */

static void test_rank_limits(void) {
  int64_t dims[TCAST_MAX_NDIM];
  for (int i = 0; i < TCAST_MAX_NDIM; i++) {
    dims[i] = 1;
  }
  double one = 1.0;
  tcast_tensor in = tensor(&one, 8, dims, TCAST_MAX_NDIM, TCAST_DTYPE_DOUBLE);
  tcast_tensor view;
  int64_t storage[CAP];
  int32_t out_ndim = -5;

  /* TF, in > out: rank 65 would be needed */
  CHECK_STATUS(tcast_bitcast(&in, TCAST_DTYPE_UINT8, TCAST_BITCAST_TF, &view, storage, CAP, TC_ERR),
               TCAST_ERR_INVALID_SHAPE);
  CHECK_STATUS(tcast_bitcast_shape(TCAST_DTYPE_DOUBLE, dims, TCAST_MAX_NDIM, TCAST_DTYPE_INT8,
                                   TCAST_BITCAST_TF, storage, CAP, &out_ndim, TC_ERR),
               TCAST_ERR_INVALID_SHAPE);
  /* one below the limit is fine: rank 63 -> 64 */
  int64_t want[TCAST_MAX_NDIM];
  for (int i = 0; i < TCAST_MAX_NDIM; i++) {
    want[i] = 1;
  }
  want[TCAST_MAX_NDIM - 1] = 8;
  tcast_tensor in63 = in;
  in63.ndim = TCAST_MAX_NDIM - 1;
  VIEW_CASE("TF rank 63 f64 -> u8", &in63, TCAST_DTYPE_UINT8, TCAST_BITCAST_TF, TCAST_OK, want,
            TCAST_MAX_NDIM, NULL);
  /* rank 64 with equal sizes, and under ONNX / numpy */
  VIEW_CASE("TF rank 64 f64 -> i64", &in, TCAST_DTYPE_INT64, TCAST_BITCAST_TF, TCAST_OK, dims,
            TCAST_MAX_NDIM, NULL);
  VIEW_CASE("ONNX rank 64 f64 -> u64", &in, TCAST_DTYPE_UINT64, TCAST_BITCAST_ONNX, TCAST_OK, dims,
            TCAST_MAX_NDIM, NULL);
  VIEW_CASE("NP rank 64 f64 -> u8", &in, TCAST_DTYPE_UINT8, TCAST_BITCAST_NUMPY_VIEW, TCAST_OK,
            want, TCAST_MAX_NDIM, NULL);
  /* TF, in < out from rank 64: the last dimension is dropped */
  uint8_t bytes8[8] = {0};
  int64_t dims8[TCAST_MAX_NDIM];
  for (int i = 0; i < TCAST_MAX_NDIM; i++) {
    dims8[i] = i == TCAST_MAX_NDIM - 1 ? 8 : 1;
  }
  tcast_tensor in8 = tensor(bytes8, 8, dims8, TCAST_MAX_NDIM, TCAST_DTYPE_UINT8);
  VIEW_CASE("TF rank 64 u8 -> f64", &in8, TCAST_DTYPE_DOUBLE, TCAST_BITCAST_TF, TCAST_OK, dims,
            TCAST_MAX_NDIM - 1, NULL);
}

int main(void) {
  /* the names this file uses are the library's */
  for (int i = 0; i < N_ALL; i++) {
    CHECK_EQ_STR(tcast_dtype_name(ALL_DTYPES[i].code), ALL_DTYPES[i].name);
  }
  test_seed_examples();
  test_tensorflow_cases();
  test_tf_table();
  test_tf_refused_dtypes();
  test_onnx();
  test_numpy_view();
  test_numpy_table();
  test_errors();
  test_rank_limits();
  return tc_summary();
}
