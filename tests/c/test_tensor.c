/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Tensor descriptors and cast options as tcast_cast validates them (docs/c-api.md sections 4
 * and 5, section 8's guarantees): NULLs, dtypes, shapes, strides, buffer sizes, overlap,
 * option values, and the dtypes this version refuses.
 */
#include <stddef.h>
#include <stdlib.h>

#include "tc_check.h"
#include "tc_dtypes.h"
#include "tc_util.h"

#define GUARD_BYTES 64
#define GUARD_BYTE 0xCD

/* A heap buffer of `size` bytes followed by GUARD_BYTES canary bytes. */
typedef struct {
  unsigned char *data;
  size_t size;
} guarded;

static guarded guarded_new(size_t size) {
  guarded g;
  g.size = size;
  g.data = malloc(size + GUARD_BYTES);
  if (g.data == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  memset(g.data, GUARD_BYTE, size + GUARD_BYTES);
  return g;
}

/* Whether bytes [from, size + GUARD_BYTES) still hold the canary. */
static int guarded_untouched_from(const guarded *g, size_t from) {
  for (size_t i = from; i < g->size + GUARD_BYTES; i++) {
    if (g->data[i] != GUARD_BYTE) {
      return 0;
    }
  }
  return 1;
}

static const int64_t S23[] = {2, 3};
static const int64_t S32[] = {3, 2};
static const int64_t S6[] = {6};

/* Six floats and room for six doubles: the well-formed pair most tests start from. */
static float g_src[6] = {1.5f, -2.0f, 3.25f, 0.0f, 100.0f, -0.5f};
static double g_dst[6];

static tcast_tensor good_input(void) {
  return tensor(g_src, sizeof g_src, S23, 2, TCAST_DTYPE_FLOAT);
}

static tcast_tensor good_output(void) {
  return tensor(g_dst, sizeof g_dst, S23, 2, TCAST_DTYPE_DOUBLE);
}

static int good_output_correct(void) {
  for (int i = 0; i < 6; i++) {
    if (g_dst[i] != (double)g_src[i]) {
      return 0;
    }
  }
  return 1;
}

static void test_struct_layout(void) {
  if (sizeof(void *) == 8) {
    CHECK_EQ_INT(sizeof(tcast_tensor), 40);
    CHECK_EQ_INT(offsetof(tcast_tensor, data_bytes), 8);
    CHECK_EQ_INT(offsetof(tcast_tensor, shape), 16);
    CHECK_EQ_INT(offsetof(tcast_tensor, strides), 24);
    CHECK_EQ_INT(offsetof(tcast_tensor, ndim), 32);
    CHECK_EQ_INT(offsetof(tcast_tensor, dtype), 36);
    CHECK_EQ_INT(sizeof(tcast_string), 16);
    /* The first layout (24 bytes) and the executor added after it. */
    CHECK_EQ_INT(offsetof(tcast_cast_options, executor), 24);
    CHECK_EQ_INT(sizeof(tcast_cast_options), 32);
  }
  CHECK_EQ_INT(TCAST_MAX_NDIM, 64);
}

static void test_null_descriptors(void) {
  tcast_tensor in = good_input(), out = good_output();
  CHECK_STATUS(tcast_cast(NULL, &out, NULL, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "input");
  CHECK_STATUS(tcast_cast(&in, NULL, NULL, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "output");
  CHECK_STATUS(tcast_cast(NULL, NULL, NULL, TC_ERR), TCAST_ERR_NULL_ARGUMENT);

  /* A shape pointer may only be NULL for a scalar. */
  in.shape = NULL;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "input shape");
  in = good_input();
  out.shape = NULL;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "output shape");
}

static void test_dtype_codes(void) {
  static const tcast_dtype bad[] = {77, 0, TC_FIRST_FREE_CODE, 99, 105, -1, INT32_MAX};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char code[16];
    snprintf(code, sizeof code, "%d", (int)bad[i]);
    tcast_tensor in = good_input(), out = good_output();
    in.dtype = bad[i];
    CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_DTYPE);
    CHECK_MSG_CONTAINS(TC_ERR, "input dtype");
    CHECK_MSG_CONTAINS(TC_ERR, code);
    in = good_input();
    out.dtype = bad[i];
    CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_DTYPE);
    CHECK_MSG_CONTAINS(TC_ERR, "output dtype");
    CHECK_MSG_CONTAINS(TC_ERR, code);
  }
}

static void test_bad_shapes(void) {
  tcast_tensor in = good_input(), out = good_output();

  const int64_t negative[] = {2, -3};
  in.shape = negative;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);
  CHECK_MSG_CONTAINS(TC_ERR, "input shape[1]");
  CHECK_MSG_CONTAINS(TC_ERR, "-3");
  in = good_input();
  out.shape = negative;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);
  CHECK_MSG_CONTAINS(TC_ERR, "output shape[1]");
  out = good_output();

  /* A negative extent is refused even when another extent is 0. */
  const int64_t zero_and_negative[] = {0, -1};
  in.shape = zero_and_negative;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);
  in = good_input();

  int64_t ones[TCAST_MAX_NDIM + 1];
  for (int i = 0; i <= TCAST_MAX_NDIM; i++) {
    ones[i] = 1;
  }
  in.shape = ones;
  in.ndim = TCAST_MAX_NDIM + 1;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);
  CHECK_MSG_CONTAINS(TC_ERR, "ndim");
  in.ndim = -1;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);
  CHECK_MSG_CONTAINS(TC_ERR, "ndim");
  in.ndim = INT32_MIN;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);
  in = good_input();
  out.shape = ones;
  out.ndim = 1000;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);
  CHECK_MSG_CONTAINS(TC_ERR, "output");

  /* 64 dimensions is allowed. */
  float one = 2.5f;
  double one_out = 0;
  in = tensor(&one, sizeof one, ones, TCAST_MAX_NDIM, TCAST_DTYPE_FLOAT);
  out = tensor(&one_out, sizeof one_out, ones, TCAST_MAX_NDIM, TCAST_DTYPE_DOUBLE);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_OK);
  CHECK(one_out == 2.5);
}

static void test_overflowing_shapes(void) {
  static float word;
  static double wide;
  const int64_t count_overflow[] = {INT64_C(1) << 32, INT64_C(1) << 32};
  const int64_t byte_overflow[] = {INT64_C(1) << 31, INT64_C(1) << 31};
  const int64_t huge_bool[] = {INT64_MAX, INT64_MAX, 2};

  tcast_tensor in = tensor(&word, UINT64_MAX, count_overflow, 2, TCAST_DTYPE_FLOAT);
  tcast_tensor out = tensor(&wide, UINT64_MAX, count_overflow, 2, TCAST_DTYPE_DOUBLE);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);
  CHECK_MSG_CONTAINS(TC_ERR, "overflow");

  in = tensor(&wide, UINT64_MAX, byte_overflow, 2, TCAST_DTYPE_DOUBLE);
  out = tensor(&word, UINT64_MAX, byte_overflow, 2, TCAST_DTYPE_FLOAT);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);
  CHECK_MSG_CONTAINS(TC_ERR, "overflow");

  /* The output alone overflowing is caught as well. */
  const int64_t s1[] = {1};
  in = tensor(&word, sizeof word, s1, 1, TCAST_DTYPE_FLOAT);
  out = tensor(&wide, UINT64_MAX, huge_bool, 3, TCAST_DTYPE_BOOL);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);
  CHECK_MSG_CONTAINS(TC_ERR, "output");

  /* Strides whose span overflows. */
  const int64_t s22[] = {2, 2};
  const int64_t huge_strides[] = {INT64_C(1) << 62, 1};
  in = tensor(&word, UINT64_MAX, s22, 2, TCAST_DTYPE_FLOAT);
  in.strides = huge_strides;
  out = tensor(&wide, 4 * sizeof wide, s22, 2, TCAST_DTYPE_DOUBLE);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);

  /* 2^61 floats fit in 64 bits of bytes but in no address space: refused either as a
     shape or as a buffer nobody can have, never attempted. */
  const int64_t unaddressable[] = {INT64_C(1) << 61};
  in = tensor(&word, UINT64_MAX, unaddressable, 1, TCAST_DTYPE_FLOAT);
  out = tensor(&wide, UINT64_MAX, unaddressable, 1, TCAST_DTYPE_FLOAT16);
  tc_reset_err();
  tcast_status st = tcast_cast(&in, &out, NULL, TC_ERR);
  CHECK_MSG(st == TCAST_ERR_INVALID_SHAPE || st == TCAST_ERR_BUFFER_TOO_SMALL,
            "2^61-element cast gave %s: %s", tcast_status_name(st), tc_err.message);
}

static void test_null_data(void) {
  tcast_tensor in = good_input(), out = good_output();
  in.data = NULL;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "input data");
  in = good_input();
  out.data = NULL;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "output data");
  /* A scalar has one element, so it needs data too. */
  in = tensor(NULL, 4, NULL, 0, TCAST_DTYPE_FLOAT);
  out = good_output();
  out.shape = NULL;
  out.ndim = 0;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_NULL_ARGUMENT);

  /* No elements: NULL data and zero bytes are fine on both sides. */
  const int64_t s0[] = {0};
  const int64_t s30[] = {3, 0};
  in = tensor(NULL, 0, s0, 1, TCAST_DTYPE_FLOAT);
  out = tensor(NULL, 0, s0, 1, TCAST_DTYPE_INT8);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_OK);
  in = tensor(NULL, 0, s30, 2, TCAST_DTYPE_DOUBLE);
  out = tensor(NULL, 0, s30, 2, TCAST_DTYPE_COMPLEX64);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_OK);
}

static void test_buffer_too_small(void) {
  tcast_tensor in = good_input(), out = good_output();
  in.data_bytes = 23;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_BUFFER_TOO_SMALL);
  CHECK_MSG_CONTAINS(TC_ERR, "input");
  CHECK_MSG_CONTAINS(TC_ERR, "23");
  CHECK_MSG_CONTAINS(TC_ERR, "24");
  in.data_bytes = 0;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_BUFFER_TOO_SMALL);

  /* A short output: nothing is written, in particular nothing past data_bytes. */
  for (uint64_t have = 0; have < 48; have += 47) {
    guarded g = guarded_new(48);
    in = good_input();
    out = tensor(g.data, have, S23, 2, TCAST_DTYPE_DOUBLE);
    CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_BUFFER_TOO_SMALL);
    CHECK_MSG_CONTAINS(TC_ERR, "output");
    CHECK_MSG_CONTAINS(TC_ERR, "48");
    CHECK_MSG(guarded_untouched_from(&g, (size_t)have),
              "bytes past output data_bytes %d were written", (int)have);
    free(g.data);
  }

  /* A strided input must hold the span its strides reach: [3,4] with strides {1,3}
     reaches element 2 + 3*3 = 11, so 12 floats. */
  const int64_t s34[] = {3, 4};
  const int64_t transposed[] = {1, 3};
  float *src = malloc(12 * sizeof(float));
  double dst[12];
  for (int i = 0; i < 12; i++) {
    src[i] = (float)i;
  }
  in = tensor(src, 11 * sizeof(float), s34, 2, TCAST_DTYPE_FLOAT);
  in.strides = transposed;
  out = tensor(dst, sizeof dst, s34, 2, TCAST_DTYPE_DOUBLE);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_BUFFER_TOO_SMALL);
  in.data_bytes = 12 * sizeof(float);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_OK);
  CHECK(dst[1] == 3.0 && dst[4] == 1.0 && dst[11] == 11.0);
  free(src);

  /* A stride-0 broadcast needs one element only. */
  const int64_t s1000[] = {1000};
  const int64_t zero_stride[] = {0};
  float *single = malloc(sizeof(float));
  single[0] = -4.0f;
  int16_t *wide = malloc(1000 * sizeof(int16_t));
  in = tensor(single, sizeof(float), s1000, 1, TCAST_DTYPE_FLOAT);
  in.strides = zero_stride;
  out = tensor(wide, 1000 * sizeof(int16_t), s1000, 1, TCAST_DTYPE_INT16);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_OK);
  CHECK(wide[0] == -4 && wide[999] == -4);
  free(single);
  free(wide);

  /* An output larger than needed: only the tensor's bytes are written. */
  guarded g = guarded_new(48);
  in = good_input();
  out = tensor(g.data, 48 + GUARD_BYTES, S23, 2, TCAST_DTYPE_DOUBLE);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_OK);
  CHECK(guarded_untouched_from(&g, 48));
  double first;
  memcpy(&first, g.data, sizeof first);
  CHECK(first == 1.5);
  free(g.data);
}

static void test_shape_mismatch(void) {
  tcast_tensor in = good_input(), out = good_output();
  out.shape = S32;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);
  CHECK_MSG_CONTAINS(TC_ERR, "[2,3]");
  CHECK_MSG_CONTAINS(TC_ERR, "[3,2]");

  out.shape = S6;
  out.ndim = 1;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);
  CHECK_MSG_CONTAINS(TC_ERR, "[2,3]");
  CHECK_MSG_CONTAINS(TC_ERR, "[6]");

  /* A scalar and a one-element vector are different shapes. */
  const int64_t s1[] = {1};
  float x = 1.0f;
  double y = 0;
  in = tensor(&x, sizeof x, NULL, 0, TCAST_DTYPE_FLOAT);
  out = tensor(&y, sizeof y, s1, 1, TCAST_DTYPE_DOUBLE);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);
  CHECK_MSG_CONTAINS(TC_ERR, "[]");
  CHECK_MSG_CONTAINS(TC_ERR, "[1]");

  /* Two empty shapes that differ. */
  const int64_t s0[] = {0};
  const int64_t s00[] = {0, 0};
  in = tensor(NULL, 0, s0, 1, TCAST_DTYPE_FLOAT);
  out = tensor(NULL, 0, s00, 2, TCAST_DTYPE_DOUBLE);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);
}

static void test_strides(void) {
  tcast_tensor in, out;

  /* Output strides must describe the contiguous layout. */
  const int64_t column_major[] = {1, 2};
  in = good_input();
  out = good_output();
  out.strides = column_major;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);
  CHECK_MSG_CONTAINS(TC_ERR, "output");
  /* Row padding: refused even with room for the padded layout. */
  const int64_t padded[] = {4, 1};
  double padded_out[7];
  out.data = padded_out;
  out.data_bytes = sizeof padded_out;
  out.strides = padded;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);
  /* ... and when the buffer fits only the contiguous layout, the shape error still
     wins over a size error (a larger buffer would not help). */
  out = good_output();
  out.strides = padded;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);
  CHECK_MSG_CONTAINS(TC_ERR, "not C-contiguous");
  const int64_t broadcast[] = {0, 1};
  out = good_output();
  out.strides = broadcast;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);

  const int64_t contiguous[] = {3, 1};
  memset(g_dst, 0, sizeof g_dst);
  out.strides = contiguous;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_OK);
  CHECK(good_output_correct());
  /* Contiguous strides on the input are accepted too. */
  memset(g_dst, 0, sizeof g_dst);
  in.strides = contiguous;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_OK);
  CHECK(good_output_correct());

  /* The stride of an extent-1 dimension does not matter. */
  const int64_t s13[] = {1, 3};
  const int64_t any_outer[] = {99, 1};
  float row[3] = {7.0f, 8.0f, 9.0f};
  double row_out[3] = {0};
  in = tensor(row, sizeof row, s13, 2, TCAST_DTYPE_FLOAT);
  out = tensor(row_out, sizeof row_out, s13, 2, TCAST_DTYPE_DOUBLE);
  out.strides = any_outer;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_OK);
  CHECK(row_out[0] == 7.0 && row_out[2] == 9.0);

  /* Negative strides. */
  const int64_t negative[] = {-3, 1};
  in = good_input();
  out = good_output();
  in.strides = negative;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);
  CHECK_MSG_CONTAINS(TC_ERR, "input strides[0]");
  CHECK_MSG_CONTAINS(TC_ERR, "-3");
  const int64_t negative_inner[] = {3, -1};
  in.strides = negative_inner;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);
  in = good_input();
  out.strides = negative;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);
  CHECK_MSG_CONTAINS(TC_ERR, "output strides");

  /* Strides are not allowed on packed (sub-byte) dtypes. */
  static const tcast_dtype packed[] = {TCAST_DTYPE_INT4, TCAST_DTYPE_UINT4,
                                       TCAST_DTYPE_FLOAT4E2M1, TCAST_DTYPE_INT2,
                                       TCAST_DTYPE_UINT2, TCAST_DTYPE_FLOAT6E2M3,
                                       TCAST_DTYPE_FLOAT6E3M2};
  const int64_t s4[] = {4};
  const int64_t every_other[] = {2};
  unsigned char bytes[8] = {0};
  float floats[4] = {0};
  for (size_t i = 0; i < sizeof packed / sizeof packed[0]; i++) {
    in = tensor(bytes, sizeof bytes, s4, 1, packed[i]);
    in.strides = every_other;
    out = tensor(floats, sizeof floats, s4, 1, TCAST_DTYPE_FLOAT);
    CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);
    CHECK_MSG_CONTAINS(TC_ERR, tcast_dtype_name(packed[i]));
    in = tensor(floats, sizeof floats, s4, 1, TCAST_DTYPE_FLOAT);
    out = tensor(bytes, sizeof bytes, s4, 1, packed[i]);
    out.strides = every_other;
    CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);
    /* Even strides that describe the packed contiguous layout: NULL is the only form. */
    const int64_t unit[] = {1};
    out.strides = unit;
    CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);
    CHECK_MSG_CONTAINS(TC_ERR, "not allowed for the packed dtype");
  }
}

static void test_overlap(void) {
  unsigned char *buf = malloc(64);
  memset(buf, 0, 64);
  const int64_t s4[] = {4};

  /* In place. */
  tcast_tensor in = tensor(buf, 16, s4, 1, TCAST_DTYPE_FLOAT);
  tcast_tensor out = tensor(buf, 16, s4, 1, TCAST_DTYPE_INT32);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "overlap");
  out.dtype = TCAST_DTYPE_FLOAT;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);

  /* Partial overlap either way round. */
  out = tensor(buf + 15, 32, s4, 1, TCAST_DTYPE_DOUBLE);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
  in = tensor(buf + 8, 16, s4, 1, TCAST_DTYPE_FLOAT);
  out = tensor(buf + 1, 8, s4, 1, TCAST_DTYPE_INT16);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);

  /* A strided input whose span covers the output. */
  const int64_t every_fourth[] = {4};
  in = tensor(buf, 64, s4, 1, TCAST_DTYPE_FLOAT);
  in.strides = every_fourth;
  out = tensor(buf + 20, 4, s4, 1, TCAST_DTYPE_UINT8);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);

  /* Adjacent is not overlapping. */
  in = tensor(buf, 16, s4, 1, TCAST_DTYPE_FLOAT);
  out = tensor(buf + 16, 32, s4, 1, TCAST_DTYPE_DOUBLE);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_OK);
  in = tensor(buf + 8, 8, s4, 1, TCAST_DTYPE_INT16);
  out = tensor(buf, 8, s4, 1, TCAST_DTYPE_UINT16);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_OK);

  /* Empty tensors overlap nothing. */
  const int64_t s0[] = {0};
  in = tensor(buf, 0, s0, 1, TCAST_DTYPE_FLOAT);
  out = tensor(buf, 0, s0, 1, TCAST_DTYPE_DOUBLE);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_OK);
  free(buf);
}

/* A caller compiled against a newer header whose options struct has more fields. */
typedef struct {
  tcast_cast_options base;
  int32_t future[4];
} options_v2;

static void expect_option_error(tcast_cast_options options, const char *field) {
  tcast_tensor in = good_input(), out = good_output();
  CHECK_STATUS(tcast_cast(&in, &out, &options, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, field);
}

static void expect_option_ok(tcast_cast_options options) {
  tcast_tensor in = good_input(), out = good_output();
  memset(g_dst, 0, sizeof g_dst);
  CHECK_STATUS(tcast_cast(&in, &out, &options, TC_ERR), TCAST_OK);
  CHECK(good_output_correct());
}

static void test_options(void) {
  const tcast_cast_options d = tcast_cast_options_default();
  CHECK_EQ_INT(d.struct_size, sizeof(tcast_cast_options));
  CHECK_EQ_INT(d.saturate, 1);
  CHECK_EQ_INT(d.round_mode, TCAST_ROUND_UP);
  CHECK_EQ_INT(d.string_format, TCAST_FORMAT_SHORTEST);
  CHECK_EQ_INT(d.casting, TCAST_CASTING_UNSAFE);
  CHECK_EQ_INT(d.threads, 0);
  CHECK_EQ_INT(TCAST_ROUND_UP, 0);
  CHECK_EQ_INT(TCAST_ROUND_DOWN, 1);
  CHECK_EQ_INT(TCAST_ROUND_NEAREST, 2);
  CHECK_EQ_INT(TCAST_FORMAT_PRINTF_8G, 1);
  CHECK_EQ_INT(TCAST_CASTING_NO, 0);
  CHECK_EQ_INT(TCAST_CASTING_SAME_KIND, 3);

  /* NULL means the defaults. */
  tcast_tensor in = good_input(), out = good_output();
  memset(g_dst, 0, sizeof g_dst);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_OK);
  CHECK(good_output_correct());
  expect_option_ok(d);

  tcast_cast_options o;
  static const uint32_t too_small[] = {0, 1, 4, 20, 23};
  for (size_t i = 0; i < sizeof too_small / sizeof too_small[0]; i++) {
    o = d;
    o.struct_size = too_small[i];
    expect_option_error(o, "struct_size");
  }
  o = d;
  o.struct_size = 24;
  expect_option_ok(o);

  /* A larger struct from a newer caller: the fields this version knows are read. */
  options_v2 v2;
  memset(&v2, 0, sizeof v2);
  v2.base = d;
  v2.base.struct_size = sizeof v2;
  v2.base.threads = 2;
  in = good_input();
  out = good_output();
  memset(g_dst, 0, sizeof g_dst);
  CHECK_STATUS(tcast_cast(&in, &out, &v2.base, TC_ERR), TCAST_OK);
  CHECK(good_output_correct());
  v2.base.saturate = 7;
  CHECK_STATUS(tcast_cast(&in, &out, &v2.base, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);

  static const int32_t bad_saturate[] = {2, -1, 255};
  for (size_t i = 0; i < sizeof bad_saturate / sizeof bad_saturate[0]; i++) {
    o = d;
    o.saturate = bad_saturate[i];
    expect_option_error(o, "saturate");
  }
  o = d;
  o.saturate = 0; /* ignored for a non-float8 target */
  expect_option_ok(o);

  static const int32_t bad_round[] = {3, -1, 100};
  for (size_t i = 0; i < sizeof bad_round / sizeof bad_round[0]; i++) {
    o = d;
    o.round_mode = bad_round[i];
    expect_option_error(o, "round_mode");
  }
  for (int32_t mode = TCAST_ROUND_UP; mode <= TCAST_ROUND_NEAREST; mode++) {
    o = d;
    o.round_mode = mode; /* ignored for a non-FLOAT8E8M0 target */
    expect_option_ok(o);
  }

  static const int32_t bad_format[] = {2, -1};
  for (size_t i = 0; i < sizeof bad_format / sizeof bad_format[0]; i++) {
    o = d;
    o.string_format = bad_format[i];
    expect_option_error(o, "string_format");
  }
  o = d;
  o.string_format = TCAST_FORMAT_PRINTF_8G;
  expect_option_ok(o);

  static const int32_t bad_casting[] = {5, -1, 42};
  for (size_t i = 0; i < sizeof bad_casting / sizeof bad_casting[0]; i++) {
    o = d;
    o.casting = bad_casting[i];
    expect_option_error(o, "casting");
  }
  /* FLOAT -> DOUBLE is numpy's 'safe': refused at no and equiv, allowed from safe on. */
  for (int32_t level = TCAST_CASTING_NO; level <= TCAST_CASTING_EQUIV; level++) {
    o = d;
    o.casting = level;
    in = good_input();
    out = good_output();
    CHECK_STATUS(tcast_cast(&in, &out, &o, TC_ERR), TCAST_ERR_CASTING);
    CHECK_MSG_CONTAINS(TC_ERR, "Cannot cast array data from dtype('float32') to "
                               "dtype('float64') according to the rule");
    CHECK_MSG_CONTAINS(TC_ERR, level == TCAST_CASTING_NO ? "'no'" : "'equiv'");
  }
  for (int32_t level = TCAST_CASTING_SAFE; level <= TCAST_CASTING_SAME_KIND; level++) {
    o = d;
    o.casting = level;
    expect_option_ok(o);
  }
  o = d;
  o.casting = TCAST_CASTING_UNSAFE;
  expect_option_ok(o);

  static const int32_t bad_threads[] = {-1, -8, INT32_MIN};
  for (size_t i = 0; i < sizeof bad_threads / sizeof bad_threads[0]; i++) {
    o = d;
    o.threads = bad_threads[i];
    expect_option_error(o, "threads");
  }
  static const int32_t good_threads[] = {0, 1, 2, 4, 1000};
  for (size_t i = 0; i < sizeof good_threads / sizeof good_threads[0]; i++) {
    o = d;
    o.threads = good_threads[i];
    expect_option_ok(o);
  }
}

/* Every dtype pair casts, but complex has no text form, and numeric -> STRING needs an
   arena (tcast_cast_to_strings), so tcast_cast refuses both. */
static void test_unsupported_dtypes(void) {
  const int64_t s4[] = {4};
  static const char text[] = "1.5";
  tcast_string strings[4];
  for (int i = 0; i < 4; i++) {
    strings[i].data = text;
    strings[i].len = 3;
  }
  unsigned char numeric_in[64] = {0};
  unsigned char numeric_out[64];

  /* STRING: complex has no text form, and numeric -> STRING needs an arena
     (tcast_cast_to_strings), so tcast_cast refuses both. */
  tcast_tensor in = tensor(strings, sizeof strings, s4, 1, TCAST_DTYPE_STRING);
  tcast_tensor out = tensor(numeric_out, sizeof numeric_out, s4, 1, TCAST_DTYPE_COMPLEX64);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_UNSUPPORTED);
  CHECK_MSG_CONTAINS(TC_ERR, "COMPLEX64");
  in = tensor(numeric_in, sizeof numeric_in, s4, 1, TCAST_DTYPE_FLOAT);
  out = tensor(strings, sizeof strings, s4, 1, TCAST_DTYPE_STRING);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_UNSUPPORTED);
  CHECK_MSG_CONTAINS(TC_ERR, "tcast_cast_to_strings");
}

int main(void) {
  test_struct_layout();
  test_null_descriptors();
  test_dtype_codes();
  test_bad_shapes();
  test_overflowing_shapes();
  test_null_data();
  test_buffer_too_small();
  test_shape_mismatch();
  test_strides();
  test_overlap();
  test_options();
  test_unsupported_dtypes();
  return tc_summary();
}
