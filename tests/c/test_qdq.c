/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * QuantizeLinear / DequantizeLinear (docs/semantics-quantize.md, docs/c-api.md 12):
 *  - tcast_qdq_options_init: the defaults, an older prefix, NULL and short sizes;
 *  - MXFP4 (FLOAT4E2M1 with FLOAT8E8M0 scales, block_size 32) both ways: every FLOAT4
 *    code of a block against its table value times the block's power of two, packed two
 *    per byte, the unused high nibble 0;
 *  - UINT8 per-axis with zero points, INT4 per-tensor with ties to even, FLOAT8E4M3FN
 *    saturate on and off, x / scale rounded once (a case a FLOAT quotient gets wrong);
 *  - errors name the argument: scale shape, zero point dtype, axis, options.
 */
#include <math.h>

#include "tc_check.h"
#include "tc_util.h"

/* FLOAT4E2M1 values by code (OCP MX v1.0, table 5). */
static const float FP4[16] = {0.0f, 0.5f,  1.0f,  1.5f,  2.0f,  3.0f,  4.0f,  6.0f,
                              -0.0f, -0.5f, -1.0f, -1.5f, -2.0f, -3.0f, -4.0f, -6.0f};

static void test_options_init(void) {
  tcast_qdq_options o;
  memset(&o, 0xA5, sizeof o);
  CHECK_EQ_INT(tcast_qdq_options_init(&o, sizeof o), TCAST_OK);
  CHECK_EQ_INT(o.struct_size, sizeof o);
  CHECK_EQ_INT(o.saturate, 1);
  CHECK_EQ_INT(o.axis, 1);
  CHECK_EQ_INT(o.block_size, 0);
  CHECK_EQ_INT(o.precision, 0);
  CHECK_EQ_INT(tcast_qdq_options_init(NULL, sizeof o), TCAST_ERR_NULL_ARGUMENT);
  CHECK_EQ_INT(tcast_qdq_options_init(&o, 16), TCAST_ERR_INVALID_ARGUMENT);
  /* a larger struct: the bytes past the known fields are zeroed */
  unsigned char big[sizeof o + 8];
  memset(big, 0xA5, sizeof big);
  CHECK_EQ_INT(tcast_qdq_options_init((tcast_qdq_options *)(void *)big, sizeof big), TCAST_OK);
  int zero = 1;
  for (size_t i = sizeof o; i < sizeof big; i++) zero &= big[i] == 0;
  CHECK(zero);
}

static void test_mxfp4(void) {
  /* x: 2 rows of 40 FLOAT4 values (blocks of 32 and 8 along axis 1) */
  enum { R = 2, C = 40, NB = 2 };
  uint8_t codes[R * C];
  for (int i = 0; i < R * C; i++) codes[i] = (uint8_t)((i * 7 + i / 16) % 16);
  uint8_t packed[R * C / 2];
  for (int i = 0; i < R * C / 2; i++) packed[i] = (uint8_t)(codes[2 * i] | codes[2 * i + 1] << 4);
  const uint8_t scales[R * NB] = {127, 130, 0, 250}; /* 1, 8, 2^-127, 2^123 */
  int64_t xs[2] = {R, C}, ss[2] = {R, NB};
  float y[R * C];
  tcast_tensor x = tensor(packed, sizeof packed, xs, 2, TCAST_DTYPE_FLOAT4E2M1);
  tcast_tensor s = tensor(scales, sizeof scales, ss, 2, TCAST_DTYPE_FLOAT8E8M0);
  tcast_tensor ty = tensor(y, sizeof y, xs, 2, TCAST_DTYPE_FLOAT);
  tcast_qdq_options o;
  tcast_qdq_options_init(&o, sizeof o);
  o.axis = 1;
  o.block_size = 32;
  CHECK_STATUS(tcast_dequantize_linear(&x, &s, NULL, &ty, &o, TC_ERR), TCAST_OK);
  int good = 1;
  for (int i = 0; i < R * C; i++) {
    int r = i / C, b = (i % C) / 32;
    float want = FP4[codes[i]] * ldexpf(1.0f, scales[r * NB + b] - 127);
    if (memcmp(&want, &y[i], 4) != 0) {
      good = 0;
      fprintf(stderr, "element %d: got %g want %g\n", i, (double)y[i], (double)want);
    }
  }
  CHECK(good);
  /* and back: the values divide exactly, so every code comes back (-0 stays -0) */
  uint8_t back[R * C / 2 + 1];
  memset(back, 0xCD, sizeof back);
  tcast_tensor tb = tensor(back, sizeof back - 1, xs, 2, TCAST_DTYPE_FLOAT4E2M1);
  tcast_tensor ty_in = tensor(y, sizeof y, xs, 2, TCAST_DTYPE_FLOAT);
  CHECK_STATUS(tcast_quantize_linear(&ty_in, &s, NULL, &tb, &o, TC_ERR), TCAST_OK);
  CHECK(memcmp(back, packed, sizeof packed) == 0);
  CHECK_EQ_HEX(back[sizeof back - 1], 0xCD);
}

static void test_integers(void) {
  /* UINT8 per-axis (axis 0) with zero points: x [3, 2] */
  const float xv[6] = {-1.0f, 300.0f, 2.5f, 3.5f, NAN, -INFINITY};
  const float sv[3] = {1.0f, 1.0f, 0.5f};
  const uint8_t zp[3] = {10, 0, 128};
  int64_t xs[2] = {3, 2}, ss[1] = {3};
  uint8_t y[6];
  tcast_tensor x = tensor(xv, sizeof xv, xs, 2, TCAST_DTYPE_FLOAT);
  tcast_tensor s = tensor(sv, sizeof sv, ss, 1, TCAST_DTYPE_FLOAT);
  tcast_tensor z = tensor(zp, sizeof zp, ss, 1, TCAST_DTYPE_UINT8);
  tcast_tensor ty = tensor(y, sizeof y, xs, 2, TCAST_DTYPE_UINT8);
  tcast_qdq_options o;
  tcast_qdq_options_init(&o, sizeof o);
  o.axis = 0;
  CHECK_STATUS(tcast_quantize_linear(&x, &s, &z, &ty, &o, TC_ERR), TCAST_OK);
  /* -1+10, 300 saturates, 2.5 -> 2 (even), 3.5 -> 4, NaN -> zero point, -inf -> 0 */
  const uint8_t want[6] = {9, 255, 2, 4, 128, 0};
  CHECK(memcmp(y, want, 6) == 0);
  /* INT4 per-tensor (scale []), packed, ties to even, odd count */
  const float x4[5] = {0.5f, 1.5f, -2.5f, 100.0f, -7.5f};
  const float one = 1.0f;
  int64_t s5[1] = {5};
  uint8_t y4[3];
  tcast_tensor t4 = tensor(x4, sizeof x4, s5, 1, TCAST_DTYPE_FLOAT);
  tcast_tensor sc = tensor(&one, 4, NULL, 0, TCAST_DTYPE_FLOAT);
  tcast_tensor ty4 = tensor(y4, sizeof y4, s5, 1, TCAST_DTYPE_INT4);
  CHECK_STATUS(tcast_quantize_linear(&t4, &sc, NULL, &ty4, NULL, TC_ERR), TCAST_OK);
  /* 0, 2, -2 (0xE), 7, -8 (0x8) */
  CHECK_EQ_HEX(y4[0], 0x20);
  CHECK_EQ_HEX(y4[1], 0x7E);
  CHECK_EQ_HEX(y4[2], 0x08);
  /* DequantizeLinear INT8 with a zero point into FLOAT16: (-128 - 127) * 1 = -255 */
  const int8_t q[2] = {-128, 127};
  const int8_t zq = 127;
  const uint16_t s16 = 0x3C00; /* 1.0 */
  int64_t s2[1] = {2};
  uint16_t h[2];
  tcast_tensor tq = tensor(q, 2, s2, 1, TCAST_DTYPE_INT8);
  tcast_tensor tz = tensor(&zq, 1, NULL, 0, TCAST_DTYPE_INT8);
  tcast_tensor ts = tensor(&s16, 2, NULL, 0, TCAST_DTYPE_FLOAT16);
  tcast_tensor th = tensor(h, sizeof h, s2, 1, TCAST_DTYPE_FLOAT16);
  CHECK_STATUS(tcast_dequantize_linear(&tq, &ts, &tz, &th, NULL, TC_ERR), TCAST_OK);
  CHECK_EQ_HEX(h[0], 0xDBF8); /* -255 */
  CHECK_EQ_HEX(h[1], 0x0000);
}

static void test_float8(void) {
  const float xv[3] = {500.0f, -1e9f, 0.3f};
  int64_t s3[1] = {3};
  const float one = 1.0f;
  uint8_t y[3];
  tcast_tensor x = tensor(xv, sizeof xv, s3, 1, TCAST_DTYPE_FLOAT);
  tcast_tensor s = tensor(&one, 4, NULL, 0, TCAST_DTYPE_FLOAT);
  tcast_tensor ty = tensor(y, 3, s3, 1, TCAST_DTYPE_FLOAT8E4M3FN);
  CHECK_STATUS(tcast_quantize_linear(&x, &s, NULL, &ty, NULL, TC_ERR), TCAST_OK);
  CHECK_EQ_HEX(y[0], 0x7E); /* 448 */
  CHECK_EQ_HEX(y[1], 0xFE);
  CHECK_EQ_HEX(y[2], 0x2A); /* 0.3 -> 0.3125 */
  tcast_qdq_options o;
  tcast_qdq_options_init(&o, sizeof o);
  o.saturate = 0;
  CHECK_STATUS(tcast_quantize_linear(&x, &s, NULL, &ty, &o, TC_ERR), TCAST_OK);
  CHECK_EQ_HEX(y[0], 0x7F); /* NaN */
  CHECK_EQ_HEX(y[1], 0xFF);
}

static void test_one_rounding(void) {
  /* 1.5 * 3 = 4.5 is a tie; x = 4.5 * s rounded to FLOAT is just above the tie, and
     FLOAT(x / s) lands on 4.5 (which would give 4): exact x / s gives 5. */
  const float s = 1.1f;
  const float xv = 4.5f * s; /* rounded product */
  CHECK((double)xv > 4.5 * (double)s || (double)xv < 4.5 * (double)s);
  uint8_t y;
  int64_t one[1] = {1};
  tcast_tensor x = tensor(&xv, 4, one, 1, TCAST_DTYPE_FLOAT);
  tcast_tensor ts = tensor(&s, 4, NULL, 0, TCAST_DTYPE_FLOAT);
  tcast_tensor ty = tensor(&y, 1, one, 1, TCAST_DTYPE_UINT8);
  CHECK_STATUS(tcast_quantize_linear(&x, &ts, NULL, &ty, NULL, TC_ERR), TCAST_OK);
  int want = (double)xv > 4.5 * (double)s ? 5 : 4;
  CHECK_EQ_INT(y, want);
}

static void test_errors(void) {
  const float xv[6] = {0};
  int64_t xs[2] = {2, 3}, bad[1] = {2}, ok[1] = {3};
  const float sv[3] = {1, 1, 1};
  uint8_t y[6];
  tcast_tensor x = tensor(xv, sizeof xv, xs, 2, TCAST_DTYPE_FLOAT);
  tcast_tensor s = tensor(sv, 8, bad, 1, TCAST_DTYPE_FLOAT);
  tcast_tensor ty = tensor(y, 6, xs, 2, TCAST_DTYPE_UINT8);
  CHECK_STATUS(tcast_quantize_linear(&x, &s, NULL, &ty, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);
  CHECK_MSG_CONTAINS(TC_ERR, "scale shape [2]");
  tcast_tensor s3 = tensor(sv, 12, ok, 1, TCAST_DTYPE_FLOAT);
  const int8_t zp[3] = {0};
  tcast_tensor z = tensor(zp, 3, ok, 1, TCAST_DTYPE_INT8);
  CHECK_STATUS(tcast_quantize_linear(&x, &s3, &z, &ty, NULL, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "zero_point dtype INT8 must be the quantized type UINT8");
  tcast_qdq_options o;
  tcast_qdq_options_init(&o, sizeof o);
  o.axis = -3;
  CHECK_STATUS(tcast_quantize_linear(&x, &s3, NULL, &ty, &o, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "axis -3 is outside [-2, 1]");
  o.axis = 1;
  o.saturate = 2;
  CHECK_STATUS(tcast_quantize_linear(&x, &s3, NULL, &ty, &o, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "options->saturate is 2");
  CHECK_STATUS(tcast_quantize_linear(NULL, &s3, NULL, &ty, NULL, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
  tcast_tensor into_x = tensor(xv, 6, xs, 2, TCAST_DTYPE_UINT8); /* y over x's bytes */
  CHECK_STATUS(tcast_quantize_linear(&x, &s3, NULL, &into_x, NULL, TC_ERR),
               TCAST_ERR_INVALID_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "overlap");
}

int main(void) {
  test_options_init();
  test_mxfp4();
  test_integers();
  test_float8();
  test_one_rounding();
  test_errors();
  return tc_summary();
}
