/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * MX / NVFP4 block quantization and MXFP4 layouts (docs/semantics-mx.md, docs/c-api.md 13):
 *  - tcast_mx_options_init: the defaults, NULL and short sizes;
 *  - MXFP4 quantize of a hand-worked block (amax 6 -> OCP FLOOR scale 2^(2-2) = 1, CEIL
 *    2^(3-2) = 2, RCEIL ceil(log2(6/6)) = 0), a block with NaN (scale 0xFF), a zero
 *    block (scale 2^-127), then dequantize back;
 *  - NVFP4: the global scale amax / 2688 and a block scale;
 *  - the ggml block of OCP values 0.5 and 1.0 repacked to ONNX order;
 *  - errors name the argument.
 */
#include <math.h>

#include "tc_check.h"
#include "tc_util.h"

static void test_options_init(void) {
  tcast_mx_options o;
  memset(&o, 0xA5, sizeof o);
  CHECK_EQ_INT(tcast_mx_options_init(&o, sizeof o), TCAST_OK);
  CHECK_EQ_INT(o.struct_size, sizeof o);
  CHECK_EQ_INT(o.scale_rule, TCAST_MX_SCALE_FLOOR);
  CHECK_EQ_INT(o.axis, -1);
  CHECK_EQ_INT(o.block_size, 0);
  CHECK_EQ_INT(tcast_mx_options_init(NULL, sizeof o), TCAST_ERR_NULL_ARGUMENT);
  CHECK_EQ_INT(tcast_mx_options_init(&o, 16), TCAST_ERR_INVALID_ARGUMENT);
}

static void test_mxfp4(void) {
  enum { B = 3, N = 32 * B };
  float x[N];
  static const float v[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
  for (int i = 0; i < 32; i++) x[i] = (i % 2 ? -1.0f : 1.0f) * v[i % 8]; /* amax 6 */
  for (int i = 32; i < 64; i++) x[i] = 1.0f;
  x[40] = NAN;
  for (int i = 64; i < 96; i++) x[i] = 0.0f;
  int64_t xs[1] = {N}, ss[1] = {B};
  uint8_t y[N / 2], s[B];
  tcast_tensor tx = tensor(x, sizeof x, xs, 1, TCAST_DTYPE_FLOAT);
  tcast_tensor ty = tensor(y, sizeof y, xs, 1, TCAST_DTYPE_FLOAT4E2M1);
  tcast_tensor ts = tensor(s, sizeof s, ss, 1, TCAST_DTYPE_FLOAT8E8M0);
  CHECK_STATUS(tcast_mx_quantize(&tx, &ty, &ts, NULL, NULL, TC_ERR), TCAST_OK);
  CHECK_EQ_INT(s[0], 127); /* floor(log2 6) - 2 = 0 */
  CHECK_EQ_INT(s[1], 255); /* NaN in the block */
  CHECK_EQ_INT(s[2], 0);   /* a zero block: 2^-127 */
  /* x[1] = -0.5 -> code 0x9 (high nibble of byte 0), x[2] = 1.0 -> 0x2 */
  CHECK_EQ_INT(y[0], 0x90);
  CHECK_EQ_INT(y[1] & 0x0f, 0x2);
  float back[N];
  tcast_tensor tb = tensor(back, sizeof back, xs, 1, TCAST_DTYPE_FLOAT);
  tcast_tensor ty_in = tensor(y, sizeof y, xs, 1, TCAST_DTYPE_FLOAT4E2M1);
  tcast_tensor ts_in = tensor(s, sizeof s, ss, 1, TCAST_DTYPE_FLOAT8E8M0);
  CHECK_STATUS(tcast_mx_dequantize(&ty_in, &ts_in, NULL, &tb, NULL, TC_ERR), TCAST_OK);
  int good = 1;
  for (int i = 0; i < 32; i++) good &= back[i] == x[i]; /* every x is an E2M1 value */
  CHECK(good);
  CHECK(isnan(back[32]));
  CHECK_EQ_INT(back[64] == 0.0f, 1);
  tcast_mx_options o;
  tcast_mx_options_init(&o, sizeof o);
  o.scale_rule = TCAST_MX_SCALE_CEIL;
  CHECK_STATUS(tcast_mx_quantize(&tx, &ty, &ts, NULL, &o, TC_ERR), TCAST_OK);
  CHECK_EQ_INT(s[0], 128);
  o.scale_rule = TCAST_MX_SCALE_RCEIL;
  CHECK_STATUS(tcast_mx_quantize(&tx, &ty, &ts, NULL, &o, TC_ERR), TCAST_OK);
  CHECK_EQ_INT(s[0], 127);
}

static void test_nvfp4(void) {
  float x[16];
  for (int i = 0; i < 16; i++) x[i] = (float)i * 168.0f; /* amax 2520 */
  int64_t xs[1] = {16}, ss[1] = {1};
  uint8_t y[8], s[1];
  float g = 0.0f;
  tcast_tensor tx = tensor(x, sizeof x, xs, 1, TCAST_DTYPE_FLOAT);
  tcast_tensor ty = tensor(y, sizeof y, xs, 1, TCAST_DTYPE_FLOAT4E2M1);
  tcast_tensor ts = tensor(s, sizeof s, ss, 1, TCAST_DTYPE_FLOAT8E4M3FN);
  tcast_tensor tg = tensor(&g, sizeof g, NULL, 0, TCAST_DTYPE_FLOAT);
  CHECK_STATUS(tcast_mx_quantize(&tx, &ty, &ts, &tg, NULL, TC_ERR), TCAST_OK);
  CHECK(g == (float)(2520.0 / 2688.0));
  CHECK_EQ_INT(s[0], 0x7e); /* 2520 / 6 / g = 448: E4M3FN's largest */
  /* x[15] = 2520 = 6 * 448 * g -> E2M1 6 (code 7) */
  CHECK_EQ_INT(y[7] >> 4, 0x7);
  CHECK_STATUS(tcast_mx_quantize(&tx, &ty, &ts, NULL, NULL, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "global_scale");
}

static void test_repack(void) {
  uint8_t ggml[17] = {128, 0x21};
  int64_t gs[2] = {1, 17}, os[1] = {32}, ss[1] = {1};
  uint8_t onnx[16], sc[1];
  tcast_tensor tg = tensor(ggml, sizeof ggml, gs, 2, TCAST_DTYPE_UINT8);
  tcast_tensor to = tensor(onnx, sizeof onnx, os, 1, TCAST_DTYPE_FLOAT4E2M1);
  tcast_tensor ts = tensor(sc, sizeof sc, ss, 1, TCAST_DTYPE_FLOAT8E8M0);
  CHECK_STATUS(tcast_mx_repack(TCAST_MX_LAYOUT_GGML, &tg, NULL, TCAST_MX_LAYOUT_ONNX, &to, &ts,
                               NULL, TC_ERR),
               TCAST_OK);
  CHECK_EQ_INT(sc[0], 128);
  CHECK_EQ_INT(onnx[0], 0x01); /* element 0: ggml low nibble of qs[0] */
  CHECK_EQ_INT(onnx[8], 0x02); /* element 16: ggml high nibble of qs[0] */
  CHECK_STATUS(tcast_mx_repack(5, &tg, NULL, 0, &to, &ts, NULL, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "from_layout is 5");
  /* The message lists the layout constants (one wording for every enumeration). */
  CHECK_MSG_CONTAINS(TC_ERR, "2 (TCAST_MX_LAYOUT_GGML)");
}

int main(void) {
  test_options_init();
  test_mxfp4();
  test_nvfp4();
  test_repack();
  return tc_summary();
}
