/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * DLPack interop: tcast_dtype_from_dlpack, tcast_dtype_to_dlpack and the TCAST_DLPACK_*
 * type codes, against the DLDataTypeCode values of dlpack.h 1.1.
 *
 * - the code constants' values;
 * - every DLPack (code, bits) with a tensorcast dtype, both ways, and every dtype both
 *   ways: the dtypes without a DLPack code (STRING, the TF quantized types) are refused;
 * - refusals: vector lanes, codes and bit widths with no dtype, unknown dtype codes,
 *   NULL outputs;
 * - the README's recipe for describing a DLTensor as a tcast_tensor (byte_offset,
 *   strides in elements, packed sub-byte data), run through tcast_cast.
 *
 * This file does not include dlpack.h: it lays out the few DLPack structs it needs
 * itself, under its own names.
 */
#include <stdlib.h>

#include "tc_check.h"
#include "tc_dtypes.h"
#include "tc_util.h"

/* dlpack.h 1.1's DLDataType, DLDevice and DLTensor, field for field. */
typedef struct {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
} dlpack_dtype;

typedef struct {
  int32_t device_type; /* 1 is kDLCPU */
  int32_t device_id;
} dlpack_device;

typedef struct {
  void *data;
  dlpack_device device;
  int32_t ndim;
  dlpack_dtype dtype;
  int64_t *shape;
  int64_t *strides; /* in elements */
  uint64_t byte_offset;
} dlpack_tensor;

/* ------------------------------------------------------------------ the type table */

static void test_code_values(void) {
  CHECK_EQ_INT(TCAST_DLPACK_INT, 0);
  CHECK_EQ_INT(TCAST_DLPACK_UINT, 1);
  CHECK_EQ_INT(TCAST_DLPACK_FLOAT, 2);
  CHECK_EQ_INT(TCAST_DLPACK_OPAQUE_HANDLE, 3);
  CHECK_EQ_INT(TCAST_DLPACK_BFLOAT, 4);
  CHECK_EQ_INT(TCAST_DLPACK_COMPLEX, 5);
  CHECK_EQ_INT(TCAST_DLPACK_BOOL, 6);
  CHECK_EQ_INT(TCAST_DLPACK_FLOAT8_E3M4, 7);
  CHECK_EQ_INT(TCAST_DLPACK_FLOAT8_E4M3, 8);
  CHECK_EQ_INT(TCAST_DLPACK_FLOAT8_E4M3B11FNUZ, 9);
  CHECK_EQ_INT(TCAST_DLPACK_FLOAT8_E4M3FN, 10);
  CHECK_EQ_INT(TCAST_DLPACK_FLOAT8_E4M3FNUZ, 11);
  CHECK_EQ_INT(TCAST_DLPACK_FLOAT8_E5M2, 12);
  CHECK_EQ_INT(TCAST_DLPACK_FLOAT8_E5M2FNUZ, 13);
  CHECK_EQ_INT(TCAST_DLPACK_FLOAT8_E8M0FNU, 14);
  CHECK_EQ_INT(TCAST_DLPACK_FLOAT6_E2M3FN, 15);
  CHECK_EQ_INT(TCAST_DLPACK_FLOAT6_E3M2FN, 16);
  CHECK_EQ_INT(TCAST_DLPACK_FLOAT4_E2M1FN, 17);
}

static const struct {
  uint8_t code;
  uint8_t bits;
  tcast_dtype dtype;
} MAPPED[] = {
    {TCAST_DLPACK_INT, 2, TCAST_DTYPE_INT2},
    {TCAST_DLPACK_INT, 4, TCAST_DTYPE_INT4},
    {TCAST_DLPACK_INT, 8, TCAST_DTYPE_INT8},
    {TCAST_DLPACK_INT, 16, TCAST_DTYPE_INT16},
    {TCAST_DLPACK_INT, 32, TCAST_DTYPE_INT32},
    {TCAST_DLPACK_INT, 64, TCAST_DTYPE_INT64},
    {TCAST_DLPACK_UINT, 2, TCAST_DTYPE_UINT2},
    {TCAST_DLPACK_UINT, 4, TCAST_DTYPE_UINT4},
    {TCAST_DLPACK_UINT, 8, TCAST_DTYPE_UINT8},
    {TCAST_DLPACK_UINT, 16, TCAST_DTYPE_UINT16},
    {TCAST_DLPACK_UINT, 32, TCAST_DTYPE_UINT32},
    {TCAST_DLPACK_UINT, 64, TCAST_DTYPE_UINT64},
    {TCAST_DLPACK_FLOAT, 16, TCAST_DTYPE_FLOAT16},
    {TCAST_DLPACK_FLOAT, 32, TCAST_DTYPE_FLOAT},
    {TCAST_DLPACK_FLOAT, 64, TCAST_DTYPE_DOUBLE},
    {TCAST_DLPACK_BFLOAT, 16, TCAST_DTYPE_BFLOAT16},
    {TCAST_DLPACK_COMPLEX, 64, TCAST_DTYPE_COMPLEX64},
    {TCAST_DLPACK_COMPLEX, 128, TCAST_DTYPE_COMPLEX128},
    {TCAST_DLPACK_BOOL, 8, TCAST_DTYPE_BOOL},
    {TCAST_DLPACK_FLOAT8_E4M3FN, 8, TCAST_DTYPE_FLOAT8E4M3FN},
    {TCAST_DLPACK_FLOAT8_E4M3FNUZ, 8, TCAST_DTYPE_FLOAT8E4M3FNUZ},
    {TCAST_DLPACK_FLOAT8_E5M2, 8, TCAST_DTYPE_FLOAT8E5M2},
    {TCAST_DLPACK_FLOAT8_E5M2FNUZ, 8, TCAST_DTYPE_FLOAT8E5M2FNUZ},
    {TCAST_DLPACK_FLOAT8_E8M0FNU, 8, TCAST_DTYPE_FLOAT8E8M0},
    {TCAST_DLPACK_FLOAT6_E2M3FN, 6, TCAST_DTYPE_FLOAT6E2M3},
    {TCAST_DLPACK_FLOAT6_E3M2FN, 6, TCAST_DTYPE_FLOAT6E3M2},
    {TCAST_DLPACK_FLOAT4_E2M1FN, 4, TCAST_DTYPE_FLOAT4E2M1},
};
#define N_MAPPED ((int)(sizeof MAPPED / sizeof MAPPED[0]))

static const tcast_dtype NO_DLPACK_CODE[] = {TCAST_DTYPE_STRING,  TCAST_DTYPE_QINT8,
                                             TCAST_DTYPE_QUINT8,  TCAST_DTYPE_QINT16,
                                             TCAST_DTYPE_QUINT16, TCAST_DTYPE_QINT32};
#define N_NO_DLPACK_CODE ((int)(sizeof NO_DLPACK_CODE / sizeof NO_DLPACK_CODE[0]))

static void test_both_ways(void) {
  for (int i = 0; i < N_MAPPED; i++) {
    tcast_dtype dtype = -1;
    CHECK_STATUS(tcast_dtype_from_dlpack(MAPPED[i].code, MAPPED[i].bits, 1, &dtype, TC_ERR),
                 TCAST_OK);
    CHECK_MSG(dtype == MAPPED[i].dtype, "DLPack (%d, %d) gave %s, expected %s",
              (int)MAPPED[i].code, (int)MAPPED[i].bits, tcast_dtype_name(dtype),
              tcast_dtype_name(MAPPED[i].dtype));
    /* DLPack's bit width is the dtype's own. */
    CHECK_EQ_INT(tcast_dtype_bits(MAPPED[i].dtype), MAPPED[i].bits);

    uint8_t code = 0xEE, bits = 0xEE;
    uint16_t lanes = 0xEEEE;
    CHECK_STATUS(tcast_dtype_to_dlpack(MAPPED[i].dtype, &code, &bits, &lanes, TC_ERR), TCAST_OK);
    CHECK_EQ_INT(code, MAPPED[i].code);
    CHECK_EQ_INT(bits, MAPPED[i].bits);
    CHECK_EQ_INT(lanes, 1);
  }

  /* Every dtype code is either in the table above or has no DLPack code. */
  int mapped = 0, refused = 0;
  for (tcast_dtype dtype = 1; dtype <= 104; dtype++) {
    if (tcast_dtype_name(dtype) == NULL) {
      continue;
    }
    uint8_t code = 0, bits = 0;
    uint16_t lanes = 0;
    tc_reset_err();
    tcast_status status = tcast_dtype_to_dlpack(dtype, &code, &bits, &lanes, TC_ERR);
    if (status == TCAST_OK) {
      mapped++;
      tcast_dtype back = -1;
      CHECK_STATUS(tcast_dtype_from_dlpack(code, bits, lanes, &back, TC_ERR), TCAST_OK);
      CHECK_EQ_INT(back, dtype);
    } else {
      refused++;
      CHECK_EQ_INT(status, TCAST_ERR_UNSUPPORTED);
      CHECK_MSG_CONTAINS(TC_ERR, tcast_dtype_name(dtype));
    }
  }
  CHECK_EQ_INT(mapped, N_MAPPED);
  CHECK_EQ_INT(refused, N_NO_DLPACK_CODE);
  for (int i = 0; i < N_NO_DLPACK_CODE; i++) {
    uint8_t code = 0, bits = 0;
    uint16_t lanes = 0;
    CHECK_STATUS(tcast_dtype_to_dlpack(NO_DLPACK_CODE[i], &code, &bits, &lanes, TC_ERR),
                 TCAST_ERR_UNSUPPORTED);
    CHECK_MSG_CONTAINS(TC_ERR, tcast_dtype_name(NO_DLPACK_CODE[i]));
  }
}

static void test_refusals(void) {
  tcast_dtype dtype = 42;
  /* Vector types. */
  CHECK_STATUS(tcast_dtype_from_dlpack(TCAST_DLPACK_FLOAT, 32, 4, &dtype, TC_ERR),
               TCAST_ERR_UNSUPPORTED);
  CHECK_MSG_CONTAINS(TC_ERR, "lanes is 4");
  CHECK_STATUS(tcast_dtype_from_dlpack(TCAST_DLPACK_FLOAT, 32, 0, &dtype, TC_ERR),
               TCAST_ERR_UNSUPPORTED);
  CHECK_MSG_CONTAINS(TC_ERR, "lanes is 0");
  CHECK_EQ_INT(dtype, 42);

  /* Codes and widths without a dtype; the message names both. */
  static const struct {
    uint8_t code, bits;
    const char *needle;
  } none[] = {
      {TCAST_DLPACK_FLOAT, 8, "code 2 (kDLFloat) with bits 8"},
      {TCAST_DLPACK_INT, 1, "code 0 (kDLInt) with bits 1"},
      {TCAST_DLPACK_UINT, 128, "code 1 (kDLUInt) with bits 128"},
      {TCAST_DLPACK_BFLOAT, 32, "code 4 (kDLBfloat) with bits 32"},
      {TCAST_DLPACK_COMPLEX, 32, "code 5 (kDLComplex) with bits 32"},
      {TCAST_DLPACK_BOOL, 1, "code 6 (kDLBool) with bits 1"},
      {TCAST_DLPACK_OPAQUE_HANDLE, 64, "code 3 (kDLOpaqueHandle) with bits 64"},
      {TCAST_DLPACK_FLOAT8_E4M3FN, 16, "code 10 (kDLFloat8_e4m3fn) with bits 16"},
      {TCAST_DLPACK_FLOAT6_E2M3FN, 8, "code 15 (kDLFloat6_e2m3fn) with bits 8"},
      {TCAST_DLPACK_FLOAT4_E2M1FN, 8, "code 17 (kDLFloat4_e2m1fn) with bits 8"},
      {18, 8, "code 18 (not a DLPack 1.1 code) with bits 8"},
      {255, 32, "code 255 (not a DLPack 1.1 code) with bits 32"},
  };
  for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
    CHECK_STATUS(tcast_dtype_from_dlpack(none[i].code, none[i].bits, 1, &dtype, TC_ERR),
                 TCAST_ERR_UNSUPPORTED);
    CHECK_MSG_CONTAINS(TC_ERR, none[i].needle);
    CHECK_EQ_INT(tc_err.index, -1);
  }
  /* Every DLPack code that no dtype has (tc_dtypes.h, from the registry). */
  for (size_t i = 0; i < TC_DLPACK_NO_DTYPE_COUNT; i++) {
    CHECK_STATUS(tcast_dtype_from_dlpack(TC_DLPACK_NO_DTYPE[i].code, 8, 1, &dtype, TC_ERR),
                 TCAST_ERR_UNSUPPORTED);
    CHECK_MSG_CONTAINS(TC_ERR, TC_DLPACK_NO_DTYPE[i].needle);
  }
  CHECK(TC_DLPACK_NO_DTYPE_COUNT >= 1);
  CHECK_EQ_INT(dtype, 42);

  /* NULL outputs, unknown dtype codes, and a NULL err. */
  uint8_t code = 0, bits = 0;
  uint16_t lanes = 0;
  CHECK_STATUS(tcast_dtype_from_dlpack(TCAST_DLPACK_FLOAT, 32, 1, NULL, TC_ERR),
               TCAST_ERR_NULL_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "out");
  CHECK_STATUS(tcast_dtype_to_dlpack(TCAST_DTYPE_FLOAT, NULL, &bits, &lanes, TC_ERR),
               TCAST_ERR_NULL_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "code");
  CHECK_STATUS(tcast_dtype_to_dlpack(TCAST_DTYPE_FLOAT, &code, NULL, &lanes, TC_ERR),
               TCAST_ERR_NULL_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "bits");
  CHECK_STATUS(tcast_dtype_to_dlpack(TCAST_DTYPE_FLOAT, &code, &bits, NULL, TC_ERR),
               TCAST_ERR_NULL_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "lanes");
  for (size_t i = 0; i < TC_NOT_DTYPE_COUNT; i++) {
    CHECK_STATUS(tcast_dtype_to_dlpack(TC_NOT_DTYPES[i], &code, &bits, &lanes, TC_ERR),
                 TCAST_ERR_INVALID_DTYPE);
  }
  CHECK_EQ_INT(tcast_dtype_from_dlpack(TCAST_DLPACK_FLOAT, 64, 1, &dtype, NULL), TCAST_OK);
  CHECK_EQ_INT(dtype, TCAST_DTYPE_DOUBLE);
  CHECK_EQ_INT(tcast_dtype_from_dlpack(TCAST_DLPACK_FLOAT, 64, 2, &dtype, NULL),
               TCAST_ERR_UNSUPPORTED);
  CHECK_EQ_INT(tcast_dtype_to_dlpack(TCAST_DTYPE_STRING, &code, &bits, &lanes, NULL),
               TCAST_ERR_UNSUPPORTED);
}

/* ------------------------------------------------------------------ a DLTensor */

/* The README's recipe, word for word but for the struct's name: a tcast_tensor viewing
 * the CPU tensor `dl`. Strided tensors can be inputs only. */
static tcast_status tensor_from_dlpack(const dlpack_tensor *dl, tcast_tensor *t,
                                       tcast_error *err) {
  tcast_status status = tcast_dtype_from_dlpack(dl->dtype.code, dl->dtype.bits,
                                                dl->dtype.lanes, &t->dtype, err);
  if (status != TCAST_OK) {
    return status;
  }
  t->data = dl->data == NULL ? NULL : (char *)dl->data + dl->byte_offset;
  t->shape = dl->shape;
  t->ndim = dl->ndim;
  t->strides = NULL; /* C-contiguous */
  status = tcast_tensor_bytes(t->dtype, dl->shape, dl->ndim, &t->data_bytes, err);
  if (status != TCAST_OK || dl->strides == NULL) {
    return status;
  }
  /* Both count strides in elements. Unless they describe the C-contiguous layout, keep
   * them, and data_bytes becomes the span from the first element to the last. */
  int64_t contiguous_stride = 1, last = 0;
  int contiguous = 1, empty = 0;
  for (int32_t i = dl->ndim - 1; i >= 0; i--) {
    if (dl->shape[i] != 1 && dl->strides[i] != contiguous_stride) {
      contiguous = 0;
    }
    contiguous_stride *= dl->shape[i];
    last += (dl->shape[i] - 1) * dl->strides[i];
    empty |= dl->shape[i] == 0;
  }
  if (!contiguous && !empty) {
    t->strides = dl->strides;
    t->data_bytes = (uint64_t)(last + 1) * (tcast_dtype_bits(t->dtype) / 8);
  }
  return TCAST_OK;
}

static void test_dltensor_recipe(void) {
  /* A 3x2 float32 view, transposed (strides {1, 3}), of a 2x3 array that sits 16 bytes
   * into its allocation (byte_offset). */
  float storage[4 + 6] = {-1, -1, -1, -1, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.5f};
  int64_t shape[2] = {3, 2}, strides[2] = {1, 3};
  dlpack_tensor dl = {storage, {1, 0}, 2, {TCAST_DLPACK_FLOAT, 32, 1}, shape, strides,
                      4 * sizeof(float)};
  tcast_tensor in;
  CHECK_STATUS(tensor_from_dlpack(&dl, &in, TC_ERR), TCAST_OK);
  CHECK(in.data == (void *)&storage[4]);
  CHECK(in.strides == strides);
  CHECK_EQ_INT(in.data_bytes, 6 * sizeof(float));
  CHECK_EQ_INT(in.dtype, TCAST_DTYPE_FLOAT);

  /* Into a contiguous float16 DLTensor. */
  uint16_t f16[6] = {0};
  int64_t out_strides[2] = {2, 1};
  dlpack_tensor dl_out = {f16, {1, 0}, 2, {TCAST_DLPACK_FLOAT, 16, 1}, shape, out_strides, 0};
  tcast_tensor out;
  CHECK_STATUS(tensor_from_dlpack(&dl_out, &out, TC_ERR), TCAST_OK);
  CHECK(out.strides == NULL);
  CHECK_EQ_INT(out.data_bytes, sizeof f16);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_OK);
  /* Row i of the transposed view is column i of the 2x3 array. */
  static const uint16_t expected[6] = {0x3c00, 0x4400, 0x4000, 0x4500, 0x4200, 0x4680};
  for (int i = 0; i < 6; i++) {
    CHECK_EQ_HEX(f16[i], expected[i]);
  }

  /* Packed INT4, C-contiguous strides given: passed as NULL, as packed dtypes need. */
  uint8_t packed[2] = {0x21, 0x0f}; /* 1, 2, -1 */
  int64_t shape3[1] = {3}, stride1[1] = {1};
  dlpack_tensor dl_int4 = {packed, {1, 0}, 1, {TCAST_DLPACK_INT, 4, 1}, shape3, stride1, 0};
  CHECK_STATUS(tensor_from_dlpack(&dl_int4, &in, TC_ERR), TCAST_OK);
  CHECK(in.strides == NULL);
  CHECK_EQ_INT(in.data_bytes, 2);
  int32_t ints[3] = {0};
  out = tensor(ints, sizeof ints, shape3, 1, TCAST_DTYPE_INT32);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_OK);
  CHECK_EQ_INT(ints[0], 1);
  CHECK_EQ_INT(ints[1], 2);
  CHECK_EQ_INT(ints[2], -1);

  /* An empty tensor with a NULL data pointer, and a vector dtype refused. */
  int64_t shape0[2] = {0, 5}, strides0[2] = {5, 1};
  dlpack_tensor dl_empty = {NULL, {1, 0}, 2, {TCAST_DLPACK_FLOAT, 64, 1}, shape0, strides0, 0};
  CHECK_STATUS(tensor_from_dlpack(&dl_empty, &in, TC_ERR), TCAST_OK);
  CHECK(in.data == NULL);
  CHECK_EQ_INT(in.data_bytes, 0);
  dlpack_tensor dl_vec = {storage, {1, 0}, 2, {TCAST_DLPACK_FLOAT, 32, 2}, shape, strides, 0};
  CHECK_STATUS(tensor_from_dlpack(&dl_vec, &in, TC_ERR), TCAST_ERR_UNSUPPORTED);
}

int main(void) {
  test_code_values();
  test_both_ways();
  test_refusals();
  test_dltensor_recipe();
  return tc_summary();
}
