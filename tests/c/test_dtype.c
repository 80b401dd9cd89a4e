/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Dtype codes, names, widths, name lookup, tensor byte counts and the ONNX Cast schema
 * table (docs/c-api.md section 3, docs/semantics-cast.md section 1).
 */
#include <ctype.h>

#include "tc_check.h"
#include "tc_dtypes.h"

#define STRING_BITS (8u * (uint32_t)sizeof(tcast_string))

static const struct {
  tcast_dtype code;
  const char *name;
  uint32_t bits;
  /* The first ONNX Cast version whose schema lists the type; 0 if none does. */
  int32_t onnx_since;
} DTYPES[] = {
    {TCAST_DTYPE_FLOAT, "FLOAT", 32, 1},
    {TCAST_DTYPE_UINT8, "UINT8", 8, 1},
    {TCAST_DTYPE_INT8, "INT8", 8, 1},
    {TCAST_DTYPE_UINT16, "UINT16", 16, 1},
    {TCAST_DTYPE_INT16, "INT16", 16, 1},
    {TCAST_DTYPE_INT32, "INT32", 32, 1},
    {TCAST_DTYPE_INT64, "INT64", 64, 1},
    {TCAST_DTYPE_STRING, "STRING", 0 /* STRING_BITS, not a constant expression */, 9},
    {TCAST_DTYPE_BOOL, "BOOL", 8, 1},
    {TCAST_DTYPE_FLOAT16, "FLOAT16", 16, 1},
    {TCAST_DTYPE_DOUBLE, "DOUBLE", 64, 1},
    {TCAST_DTYPE_UINT32, "UINT32", 32, 1},
    {TCAST_DTYPE_UINT64, "UINT64", 64, 1},
    {TCAST_DTYPE_COMPLEX64, "COMPLEX64", 64, 0},
    {TCAST_DTYPE_COMPLEX128, "COMPLEX128", 128, 0},
    {TCAST_DTYPE_BFLOAT16, "BFLOAT16", 16, 13},
    {TCAST_DTYPE_FLOAT8E4M3FN, "FLOAT8E4M3FN", 8, 19},
    {TCAST_DTYPE_FLOAT8E4M3FNUZ, "FLOAT8E4M3FNUZ", 8, 19},
    {TCAST_DTYPE_FLOAT8E5M2, "FLOAT8E5M2", 8, 19},
    {TCAST_DTYPE_FLOAT8E5M2FNUZ, "FLOAT8E5M2FNUZ", 8, 19},
    {TCAST_DTYPE_UINT4, "UINT4", 4, 21},
    {TCAST_DTYPE_INT4, "INT4", 4, 21},
    {TCAST_DTYPE_FLOAT4E2M1, "FLOAT4E2M1", 4, 23},
    {TCAST_DTYPE_FLOAT8E8M0, "FLOAT8E8M0", 8, 24},
    {TCAST_DTYPE_UINT2, "UINT2", 2, 25},
    {TCAST_DTYPE_INT2, "INT2", 2, 25},
    {TCAST_DTYPE_FLOAT6E2M3, "FLOAT6E2M3", 6, 28},
    {TCAST_DTYPE_FLOAT6E3M2, "FLOAT6E3M2", 6, 28},
    {TCAST_DTYPE_QINT8, "QINT8", 8, 0},
    {TCAST_DTYPE_QUINT8, "QUINT8", 8, 0},
    {TCAST_DTYPE_QINT16, "QINT16", 16, 0},
    {TCAST_DTYPE_QUINT16, "QUINT16", 16, 0},
    {TCAST_DTYPE_QINT32, "QINT32", 32, 0},
};
#define N_DTYPES ((int)(sizeof DTYPES / sizeof DTYPES[0]))

/* Codes that are no dtype's (generated from the registry: tc_dtypes.h), and one more. */
#define NOT_DTYPES TC_NOT_DTYPES
#define N_NOT_DTYPES TC_NOT_DTYPE_COUNT

static uint32_t expected_bits(int row) {
  return DTYPES[row].code == TCAST_DTYPE_STRING ? STRING_BITS : DTYPES[row].bits;
}

static void test_codes(void) {
  /* The codes are ONNX TensorProto.DataType's: 1..28 in order, then 100..104. */
  CHECK_EQ_INT(TCAST_DTYPE_UNDEFINED, 0);
  CHECK_EQ_INT(N_DTYPES, 33);
  for (int i = 0; i < N_DTYPES; i++) {
    CHECK_EQ_INT(DTYPES[i].code, i < 28 ? i + 1 : 100 + (i - 28));
  }
  CHECK_EQ_INT(sizeof(tcast_dtype), 4);
}

static void test_names_and_bits(void) {
  for (int i = 0; i < N_DTYPES; i++) {
    CHECK_EQ_STR(tcast_dtype_name(DTYPES[i].code), DTYPES[i].name);
    CHECK_EQ_HEX(tcast_dtype_bits(DTYPES[i].code), expected_bits(i));
  }
  CHECK_EQ_HEX(tcast_dtype_bits(TCAST_DTYPE_STRING), 8 * sizeof(tcast_string));
  for (int i = 0; i < N_NOT_DTYPES; i++) {
    CHECK_MSG(tcast_dtype_name(NOT_DTYPES[i]) == NULL, "tcast_dtype_name(%d) is not NULL",
              (int)NOT_DTYPES[i]);
    CHECK_EQ_HEX(tcast_dtype_bits(NOT_DTYPES[i]), 0);
  }
}

static void expect_name(const char *name, tcast_dtype expected) {
  tcast_dtype got = -1;
  CHECK_STATUS(tcast_dtype_from_name(name, &got, TC_ERR), TCAST_OK);
  CHECK_MSG(got == expected, "tcast_dtype_from_name(\"%s\") gave %d, expected %d", name,
            (int)got, (int)expected);
}

static void test_from_name(void) {
  /* Every ONNX name, as written, in lower case and in mixed case. */
  for (int i = 0; i < N_DTYPES; i++) {
    char lower[32], mixed[32];
    size_t n = strlen(DTYPES[i].name);
    for (size_t k = 0; k <= n; k++) {
      char c = DTYPES[i].name[k];
      lower[k] = (char)tolower((unsigned char)c);
      mixed[k] = k % 2 ? lower[k] : c;
    }
    expect_name(DTYPES[i].name, DTYPES[i].code);
    expect_name(lower, DTYPES[i].code);
    expect_name(mixed, DTYPES[i].code);
  }
  expect_name("FLOAT", TCAST_DTYPE_FLOAT);
  expect_name("float", TCAST_DTYPE_FLOAT);
  expect_name("Float16", TCAST_DTYPE_FLOAT16);
  expect_name("BFLOAT16", TCAST_DTYPE_BFLOAT16);
  expect_name("int64", TCAST_DTYPE_INT64);
  expect_name("QINT8", TCAST_DTYPE_QINT8);

  /* Aliases. */
  static const struct {
    const char *name;
    tcast_dtype code;
  } aliases[] = {
      {"float32", TCAST_DTYPE_FLOAT},
      {"FLOAT32", TCAST_DTYPE_FLOAT},
      {"float64", TCAST_DTYPE_DOUBLE},
      {"Float64", TCAST_DTYPE_DOUBLE},
      {"double", TCAST_DTYPE_DOUBLE},
      {"float16", TCAST_DTYPE_FLOAT16},
      {"half", TCAST_DTYPE_FLOAT16},
      {"HALF", TCAST_DTYPE_FLOAT16},
      {"bfloat16", TCAST_DTYPE_BFLOAT16},
      {"int8", TCAST_DTYPE_INT8},
      {"uint8", TCAST_DTYPE_UINT8},
      {"int16", TCAST_DTYPE_INT16},
      {"uint16", TCAST_DTYPE_UINT16},
      {"int32", TCAST_DTYPE_INT32},
      {"uint32", TCAST_DTYPE_UINT32},
      {"int64", TCAST_DTYPE_INT64},
      {"uint64", TCAST_DTYPE_UINT64},
      {"bool", TCAST_DTYPE_BOOL},
      {"string", TCAST_DTYPE_STRING},
      {"complex64", TCAST_DTYPE_COMPLEX64},
      {"complex128", TCAST_DTYPE_COMPLEX128},
      {"qint8", TCAST_DTYPE_QINT8},
      {"quint8", TCAST_DTYPE_QUINT8},
      {"qint16", TCAST_DTYPE_QINT16},
      {"quint16", TCAST_DTYPE_QUINT16},
      {"qint32", TCAST_DTYPE_QINT32},
      {"float8_e4m3fn", TCAST_DTYPE_FLOAT8E4M3FN},
      {"float8_e4m3fnuz", TCAST_DTYPE_FLOAT8E4M3FNUZ},
      {"float8_e5m2", TCAST_DTYPE_FLOAT8E5M2},
      {"float8_e5m2fnuz", TCAST_DTYPE_FLOAT8E5M2FNUZ},
      {"FLOAT8_E4M3FN", TCAST_DTYPE_FLOAT8E4M3FN},
      {"int4", TCAST_DTYPE_INT4},
      {"uint4", TCAST_DTYPE_UINT4},
      {"int2", TCAST_DTYPE_INT2},
      {"uint2", TCAST_DTYPE_UINT2},
  };
  for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
    expect_name(aliases[i].name, aliases[i].code);
  }
}

static void test_from_name_errors(void) {
  tcast_dtype got = 42;
  CHECK_STATUS(tcast_dtype_from_name("flaot", &got, TC_ERR), TCAST_ERR_INVALID_DTYPE);
  CHECK_MSG_CONTAINS(TC_ERR, "\"flaot\"");
  CHECK_EQ_INT(tc_err.index, -1);
  CHECK_STATUS(tcast_dtype_from_name("", &got, TC_ERR), TCAST_ERR_INVALID_DTYPE);
  CHECK_MSG_CONTAINS(TC_ERR, "\"\"");
  CHECK_STATUS(tcast_dtype_from_name("UNDEFINED", &got, TC_ERR), TCAST_ERR_INVALID_DTYPE);
  CHECK_STATUS(tcast_dtype_from_name("float 32", &got, TC_ERR), TCAST_ERR_INVALID_DTYPE);
  CHECK_STATUS(tcast_dtype_from_name("int", &got, TC_ERR), TCAST_ERR_INVALID_DTYPE);
  CHECK_STATUS(tcast_dtype_from_name("FLOAT\n", &got, TC_ERR), TCAST_ERR_INVALID_DTYPE);

  CHECK_STATUS(tcast_dtype_from_name(NULL, &got, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "name");
  CHECK_STATUS(tcast_dtype_from_name("float", NULL, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "out");
  CHECK_STATUS(tcast_dtype_from_name(NULL, NULL, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
}

/* tcast_tensor_bytes succeeds with `expected` bytes. */
static void expect_bytes(tcast_dtype dtype, const int64_t *shape, int32_t ndim,
                         uint64_t expected, int line) {
  uint64_t got = 0xDEADBEEF;
  tc_reset_err();
  tcast_status status = tcast_tensor_bytes(dtype, shape, ndim, &got, TC_ERR);
  CHECK_MSG(status == TCAST_OK && got == expected,
            "line %d: tcast_tensor_bytes(%s, ndim %d) gave status %d and %" PRIu64
            " bytes, expected %" PRIu64 " (%s)",
            line, tcast_dtype_name(dtype), (int)ndim, (int)status, got, expected,
            tc_err.message);
}

static void test_tensor_bytes(void) {
  /* Scalars: one element, rounded up to a whole byte. */
  for (int i = 0; i < N_DTYPES; i++) {
    expect_bytes(DTYPES[i].code, NULL, 0, (expected_bits(i) + 7) / 8, __LINE__);
  }
  expect_bytes(TCAST_DTYPE_STRING, NULL, 0, sizeof(tcast_string), __LINE__);

  const int64_t s23[] = {2, 3};
  expect_bytes(TCAST_DTYPE_FLOAT, s23, 2, 24, __LINE__);
  expect_bytes(TCAST_DTYPE_DOUBLE, s23, 2, 48, __LINE__);
  expect_bytes(TCAST_DTYPE_BOOL, s23, 2, 6, __LINE__);
  expect_bytes(TCAST_DTYPE_COMPLEX128, s23, 2, 96, __LINE__);
  expect_bytes(TCAST_DTYPE_STRING, s23, 2, 6 * sizeof(tcast_string), __LINE__);
  expect_bytes(TCAST_DTYPE_QINT16, s23, 2, 12, __LINE__);

  const int64_t s3[] = {3}, s4[] = {4}, s5[] = {5}, s1[] = {1};
  expect_bytes(TCAST_DTYPE_INT4, s3, 1, 2, __LINE__);
  expect_bytes(TCAST_DTYPE_UINT4, s4, 1, 2, __LINE__);
  expect_bytes(TCAST_DTYPE_FLOAT4E2M1, s5, 1, 3, __LINE__);
  expect_bytes(TCAST_DTYPE_INT2, s5, 1, 2, __LINE__);
  expect_bytes(TCAST_DTYPE_UINT2, s4, 1, 1, __LINE__);
  expect_bytes(TCAST_DTYPE_FLOAT6E2M3, s4, 1, 3, __LINE__);
  expect_bytes(TCAST_DTYPE_FLOAT6E2M3, s5, 1, 4, __LINE__);
  expect_bytes(TCAST_DTYPE_FLOAT6E3M2, s1, 1, 1, __LINE__);
  expect_bytes(TCAST_DTYPE_FLOAT8E5M2, s5, 1, 5, __LINE__);
  /* Packing applies to the whole tensor, not per row: [3,3] INT4 is 9 nibbles. */
  const int64_t s33[] = {3, 3};
  expect_bytes(TCAST_DTYPE_INT4, s33, 2, 5, __LINE__);

  /* Zero extents: no bytes, whatever the other extents (no overflow either). */
  const int64_t s0[] = {0}, s30[] = {3, 0}, s0big[] = {0, INT64_MAX, INT64_MAX};
  expect_bytes(TCAST_DTYPE_FLOAT, s0, 1, 0, __LINE__);
  expect_bytes(TCAST_DTYPE_DOUBLE, s30, 2, 0, __LINE__);
  expect_bytes(TCAST_DTYPE_INT4, s30, 2, 0, __LINE__);
  expect_bytes(TCAST_DTYPE_FLOAT, s0big, 3, 0, __LINE__);

  /* NULL shape is fine for a scalar; 64 dimensions of 1 are one element. */
  int64_t ones[TCAST_MAX_NDIM];
  for (int i = 0; i < TCAST_MAX_NDIM; i++) {
    ones[i] = 1;
  }
  expect_bytes(TCAST_DTYPE_FLOAT, ones, TCAST_MAX_NDIM, 4, __LINE__);
  const int64_t dummy[] = {7};
  expect_bytes(TCAST_DTYPE_FLOAT, dummy, 0, 4, __LINE__); /* ndim 0 ignores the shape */

  /* The largest byte counts that fit: no overflow in the intermediate bit count. */
  const int64_t big_double[] = {(INT64_C(1) << 61) - 1};
  expect_bytes(TCAST_DTYPE_DOUBLE, big_double, 1, UINT64_MAX - 7, __LINE__);
  const int64_t big_int4[] = {INT64_MAX, 2};
  expect_bytes(TCAST_DTYPE_INT4, big_int4, 2, (uint64_t)INT64_MAX, __LINE__);
}

static void test_tensor_bytes_errors(void) {
  uint64_t bytes;
  CHECK_STATUS(tcast_tensor_bytes(TCAST_DTYPE_FLOAT, NULL, 2, &bytes, TC_ERR),
               TCAST_ERR_NULL_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "shape");

  const int64_t s23[] = {2, 3};
  CHECK_STATUS(tcast_tensor_bytes(TCAST_DTYPE_FLOAT, s23, 2, NULL, TC_ERR),
               TCAST_ERR_NULL_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "out_bytes");

  CHECK_STATUS(tcast_tensor_bytes(TCAST_DTYPE_UNDEFINED, s23, 2, &bytes, TC_ERR),
               TCAST_ERR_INVALID_DTYPE);
  CHECK_STATUS(tcast_tensor_bytes(77, s23, 2, &bytes, TC_ERR), TCAST_ERR_INVALID_DTYPE);
  CHECK_MSG_CONTAINS(TC_ERR, "77");

  const int64_t negative[] = {2, -3, 4};
  CHECK_STATUS(tcast_tensor_bytes(TCAST_DTYPE_FLOAT, negative, 3, &bytes, TC_ERR),
               TCAST_ERR_INVALID_SHAPE);
  CHECK_MSG_CONTAINS(TC_ERR, "[1]");
  CHECK_MSG_CONTAINS(TC_ERR, "-3");
  const int64_t most_negative[] = {INT64_MIN};
  CHECK_STATUS(tcast_tensor_bytes(TCAST_DTYPE_FLOAT, most_negative, 1, &bytes, TC_ERR),
               TCAST_ERR_INVALID_SHAPE);
  CHECK_MSG_CONTAINS(TC_ERR, "[0]");

  int64_t ones[TCAST_MAX_NDIM + 1];
  for (int i = 0; i <= TCAST_MAX_NDIM; i++) {
    ones[i] = 1;
  }
  CHECK_STATUS(tcast_tensor_bytes(TCAST_DTYPE_FLOAT, ones, TCAST_MAX_NDIM + 1, &bytes, TC_ERR),
               TCAST_ERR_INVALID_SHAPE);
  CHECK_MSG_CONTAINS(TC_ERR, "65");
  CHECK_STATUS(tcast_tensor_bytes(TCAST_DTYPE_FLOAT, ones, -1, &bytes, TC_ERR),
               TCAST_ERR_INVALID_SHAPE);
  CHECK_MSG_CONTAINS(TC_ERR, "-1");
  CHECK_STATUS(tcast_tensor_bytes(TCAST_DTYPE_FLOAT, NULL, INT32_MIN, &bytes, TC_ERR),
               TCAST_ERR_INVALID_SHAPE);

  /* Element count 2^64 overflows. */
  const int64_t count_overflow[] = {INT64_C(1) << 32, INT64_C(1) << 32};
  CHECK_STATUS(tcast_tensor_bytes(TCAST_DTYPE_FLOAT, count_overflow, 2, &bytes, TC_ERR),
               TCAST_ERR_INVALID_SHAPE);
  CHECK_MSG_CONTAINS(TC_ERR, "overflow");
  const int64_t count_overflow_bool[] = {INT64_MAX, INT64_MAX};
  CHECK_STATUS(tcast_tensor_bytes(TCAST_DTYPE_BOOL, count_overflow_bool, 2, &bytes, TC_ERR),
               TCAST_ERR_INVALID_SHAPE);
  /* 2^62 elements fit, 2^65 bytes do not. */
  const int64_t bytes_overflow[] = {INT64_C(1) << 31, INT64_C(1) << 31};
  CHECK_STATUS(tcast_tensor_bytes(TCAST_DTYPE_DOUBLE, bytes_overflow, 2, &bytes, TC_ERR),
               TCAST_ERR_INVALID_SHAPE);
  CHECK_MSG_CONTAINS(TC_ERR, "overflow");
  const int64_t just_over[] = {INT64_C(1) << 61};
  CHECK_STATUS(tcast_tensor_bytes(TCAST_DTYPE_DOUBLE, just_over, 1, &bytes, TC_ERR),
               TCAST_ERR_INVALID_SHAPE);
  const int64_t c128_over[] = {INT64_C(1) << 60};
  CHECK_STATUS(tcast_tensor_bytes(TCAST_DTYPE_COMPLEX128, c128_over, 1, &bytes, TC_ERR),
               TCAST_ERR_INVALID_SHAPE);
}

/* The Cast schema versions and the types each adds (docs/semantics-cast.md section 1). */
static int32_t schema_in_force(int32_t opset) {
  static const int32_t versions[] = {28, 25, 24, 23, 21, 19, 13, 9, 6, 1};
  for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++) {
    if (opset >= versions[i]) {
      return versions[i];
    }
  }
  return 0;
}

/* Whether the schema of Cast-`version` lists `dtype` (version 0: no schema). */
static int schema_lists(int32_t version, tcast_dtype dtype) {
  int32_t since;
  switch (dtype) {
    case TCAST_DTYPE_FLOAT:
    case TCAST_DTYPE_UINT8:
    case TCAST_DTYPE_INT8:
    case TCAST_DTYPE_UINT16:
    case TCAST_DTYPE_INT16:
    case TCAST_DTYPE_INT32:
    case TCAST_DTYPE_INT64:
    case TCAST_DTYPE_BOOL:
    case TCAST_DTYPE_FLOAT16:
    case TCAST_DTYPE_DOUBLE:
    case TCAST_DTYPE_UINT32:
    case TCAST_DTYPE_UINT64:
      since = 1;
      break;
    case TCAST_DTYPE_STRING:
      since = 9;
      break;
    case TCAST_DTYPE_BFLOAT16:
      since = 13;
      break;
    case TCAST_DTYPE_FLOAT8E4M3FN:
    case TCAST_DTYPE_FLOAT8E4M3FNUZ:
    case TCAST_DTYPE_FLOAT8E5M2:
    case TCAST_DTYPE_FLOAT8E5M2FNUZ:
      since = 19;
      break;
    case TCAST_DTYPE_INT4:
    case TCAST_DTYPE_UINT4:
      since = 21;
      break;
    case TCAST_DTYPE_FLOAT4E2M1:
      since = 23;
      break;
    case TCAST_DTYPE_FLOAT8E8M0:
      since = 24;
      break;
    case TCAST_DTYPE_INT2:
    case TCAST_DTYPE_UINT2:
      since = 25;
      break;
    case TCAST_DTYPE_FLOAT6E2M3:
    case TCAST_DTYPE_FLOAT6E3M2:
      since = 28;
      break;
    default: /* complex, the TF quantized types, and codes that are not dtypes */
      return 0;
  }
  return version != 0 && version >= since;
}

static void test_onnx_cast_supported(void) {
  CHECK_EQ_INT(schema_in_force(8), 6);
  CHECK_EQ_INT(schema_in_force(30), 28);

  /* The table above agrees with the registry's own "since" column. */
  for (int i = 0; i < N_DTYPES; i++) {
    int32_t first = 0;
    for (int32_t v = 1; v <= 28 && first == 0; v++) {
      if (schema_lists(schema_in_force(v), DTYPES[i].code)) {
        first = v;
      }
    }
    CHECK_MSG(first == DTYPES[i].onnx_since, "%s first listed at %d, table says %d",
              DTYPES[i].name, (int)first, (int)DTYPES[i].onnx_since);
  }

  tcast_dtype codes[N_DTYPES + N_NOT_DTYPES];
  for (int i = 0; i < N_DTYPES; i++) {
    codes[i] = DTYPES[i].code;
  }
  for (int i = 0; i < N_NOT_DTYPES; i++) {
    codes[N_DTYPES + i] = NOT_DTYPES[i];
  }
  const int n_codes = N_DTYPES + N_NOT_DTYPES;
  int mismatches = 0;
  for (int32_t opset = 0; opset <= 30; opset++) {
    int32_t version = schema_in_force(opset);
    for (int a = 0; a < n_codes; a++) {
      for (int b = 0; b < n_codes; b++) {
        int expected = schema_lists(version, codes[a]) && schema_lists(version, codes[b]);
        int got = tcast_onnx_cast_supported(codes[a], codes[b], opset);
        if (got != expected) {
          if (++mismatches <= 20) {
            tc_fail(__FILE__, __LINE__,
                    "tcast_onnx_cast_supported(%d, %d, opset %d) is %d, expected %d",
                    (int)codes[a], (int)codes[b], (int)opset, got, expected);
          }
        } else {
          tc_pass();
        }
      }
    }
  }
  if (mismatches > 20) {
    tc_fail(__FILE__, __LINE__, "... %d mismatches in all", mismatches);
  }

  /* Spot checks, and opsets far outside 0..30. */
  CHECK_EQ_INT(tcast_onnx_cast_supported(TCAST_DTYPE_FLOAT, TCAST_DTYPE_FLOAT16, 1), 1);
  CHECK_EQ_INT(tcast_onnx_cast_supported(TCAST_DTYPE_FLOAT, TCAST_DTYPE_STRING, 8), 0);
  CHECK_EQ_INT(tcast_onnx_cast_supported(TCAST_DTYPE_STRING, TCAST_DTYPE_FLOAT, 9), 1);
  CHECK_EQ_INT(tcast_onnx_cast_supported(TCAST_DTYPE_BFLOAT16, TCAST_DTYPE_FLOAT, 12), 0);
  CHECK_EQ_INT(tcast_onnx_cast_supported(TCAST_DTYPE_BFLOAT16, TCAST_DTYPE_FLOAT, 13), 1);
  CHECK_EQ_INT(tcast_onnx_cast_supported(TCAST_DTYPE_FLOAT, TCAST_DTYPE_FLOAT6E3M2, 27), 0);
  CHECK_EQ_INT(tcast_onnx_cast_supported(TCAST_DTYPE_FLOAT, TCAST_DTYPE_FLOAT6E3M2, 28), 1);
  CHECK_EQ_INT(tcast_onnx_cast_supported(TCAST_DTYPE_FLOAT, TCAST_DTYPE_COMPLEX64, 28), 0);
  CHECK_EQ_INT(tcast_onnx_cast_supported(TCAST_DTYPE_QINT8, TCAST_DTYPE_INT8, 28), 0);
  CHECK_EQ_INT(tcast_onnx_cast_supported(TCAST_DTYPE_FLOAT, TCAST_DTYPE_DOUBLE, 0), 0);
  CHECK_EQ_INT(tcast_onnx_cast_supported(TCAST_DTYPE_FLOAT, TCAST_DTYPE_DOUBLE, -1), 0);
  CHECK_EQ_INT(tcast_onnx_cast_supported(TCAST_DTYPE_FLOAT, TCAST_DTYPE_DOUBLE, INT32_MIN), 0);
  CHECK_EQ_INT(tcast_onnx_cast_supported(TCAST_DTYPE_FLOAT, TCAST_DTYPE_INT2, 1000), 1);
  CHECK_EQ_INT(tcast_onnx_cast_supported(TCAST_DTYPE_FLOAT6E2M3, TCAST_DTYPE_INT2, INT32_MAX),
               1);
  CHECK_EQ_INT(tcast_onnx_cast_supported(TCAST_DTYPE_COMPLEX128, TCAST_DTYPE_FLOAT, INT32_MAX),
               0);
}

int main(void) {
  test_codes();
  test_names_and_bits();
  test_from_name();
  test_from_name_errors();
  test_tensor_bytes();
  test_tensor_bytes_errors();
  test_onnx_cast_supported();
  return tc_summary();
}
