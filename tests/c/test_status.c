/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Status codes, their names, the version, and the tcast_error conventions of
 * docs/c-api.md sections 1-2: err may be NULL; messages are NUL-terminated UTF-8 of at most
 * 255 bytes; success leaves status 0 and index -1.
 */
#include <stddef.h>
#include <stdlib.h>

#include "tc_check.h"

/* A well-formed UTF-8 sequence of `len` bytes (no overlongs, surrogates or > U+10FFFF). */
static int utf8_valid(const unsigned char *s, size_t len) {
  size_t i = 0;
  while (i < len) {
    unsigned char c = s[i];
    size_t need;
    uint32_t cp;
    if (c < 0x80) {
      i++;
      continue;
    } else if (c >= 0xC2 && c <= 0xDF) {
      need = 1;
      cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      need = 2;
      cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      need = 3;
      cp = c & 0x07;
    } else {
      return 0;
    }
    if (i + need >= len) { /* the sequence runs past the end */
      return 0;
    }
    for (size_t k = 1; k <= need; k++) {
      if ((s[i + k] & 0xC0) != 0x80) {
        return 0;
      }
      cp = (cp << 6) | (s[i + k] & 0x3F);
    }
    if ((need == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
        (need == 3 && (cp < 0x10000 || cp > 0x10FFFF))) {
      return 0;
    }
    i += need + 1;
  }
  return 1;
}

/* The message is terminated within the buffer, at most 255 bytes and valid UTF-8. */
static void check_message_well_formed(const tcast_error *err, const char *what) {
  const char *nul = memchr(err->message, '\0', TCAST_ERROR_MESSAGE_BYTES);
  CHECK_MSG(nul != NULL, "%s: message is not NUL-terminated", what);
  if (nul != NULL) {
    size_t len = (size_t)(nul - err->message);
    CHECK_MSG(len <= TCAST_ERROR_MESSAGE_BYTES - 1, "%s: message is %zu bytes", what, len);
    CHECK_MSG(utf8_valid((const unsigned char *)err->message, len),
              "%s: message is not valid UTF-8", what);
  }
}

static void test_status_codes(void) {
  CHECK_EQ_INT(TCAST_OK, 0);
  CHECK_EQ_INT(TCAST_ERR_NULL_ARGUMENT, 1);
  CHECK_EQ_INT(TCAST_ERR_INVALID_DTYPE, 2);
  CHECK_EQ_INT(TCAST_ERR_UNSUPPORTED, 3);
  CHECK_EQ_INT(TCAST_ERR_INVALID_SHAPE, 4);
  CHECK_EQ_INT(TCAST_ERR_INCOMPATIBLE_SHAPES, 5);
  CHECK_EQ_INT(TCAST_ERR_BUFFER_TOO_SMALL, 6);
  CHECK_EQ_INT(TCAST_ERR_PARSE, 7);
  CHECK_EQ_INT(TCAST_ERR_INVALID_ARGUMENT, 8);
  CHECK_EQ_INT(TCAST_ERR_CASTING, 9);
  CHECK_EQ_INT(TCAST_ERR_OUT_OF_MEMORY, 10);
  CHECK_EQ_INT(TCAST_ERR_INTERNAL, 99);
  CHECK_EQ_INT(TCAST_ERROR_MESSAGE_BYTES, 256);
  CHECK_EQ_INT(sizeof(tcast_status), 4);
}

static void test_status_names(void) {
  static const struct {
    tcast_status status;
    const char *name;
  } names[] = {
      {TCAST_OK, "TCAST_OK"},
      {TCAST_ERR_NULL_ARGUMENT, "TCAST_ERR_NULL_ARGUMENT"},
      {TCAST_ERR_INVALID_DTYPE, "TCAST_ERR_INVALID_DTYPE"},
      {TCAST_ERR_UNSUPPORTED, "TCAST_ERR_UNSUPPORTED"},
      {TCAST_ERR_INVALID_SHAPE, "TCAST_ERR_INVALID_SHAPE"},
      {TCAST_ERR_INCOMPATIBLE_SHAPES, "TCAST_ERR_INCOMPATIBLE_SHAPES"},
      {TCAST_ERR_BUFFER_TOO_SMALL, "TCAST_ERR_BUFFER_TOO_SMALL"},
      {TCAST_ERR_PARSE, "TCAST_ERR_PARSE"},
      {TCAST_ERR_INVALID_ARGUMENT, "TCAST_ERR_INVALID_ARGUMENT"},
      {TCAST_ERR_CASTING, "TCAST_ERR_CASTING"},
      {TCAST_ERR_OUT_OF_MEMORY, "TCAST_ERR_OUT_OF_MEMORY"},
      {TCAST_ERR_INTERNAL, "TCAST_ERR_INTERNAL"},
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    CHECK_EQ_STR(tcast_status_name(names[i].status), names[i].name);
  }
  /* The strings are static: the same pointer every time. */
  CHECK(tcast_status_name(TCAST_ERR_PARSE) == tcast_status_name(TCAST_ERR_PARSE));

  static const tcast_status unknown[] = {11, 12, 50, 98, 100, 101, 255, -1, -99,
                                         INT32_MIN, INT32_MAX};
  for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
    CHECK_EQ_STR(tcast_status_name(unknown[i]), "unknown");
  }
}

static void test_version(void) {
  char expected[64];
  snprintf(expected, sizeof expected, "%d.%d.%d", TCAST_VERSION_MAJOR, TCAST_VERSION_MINOR,
           TCAST_VERSION_PATCH);
  CHECK_EQ_STR(tcast_version(), expected);
  CHECK(tcast_version() == tcast_version());
}

/* Every fallible function accepts err == NULL, on failure and on success. */
static void test_null_err(void) {
  tcast_dtype dtype = -5;
  CHECK_EQ_INT(tcast_dtype_from_name(NULL, &dtype, NULL), TCAST_ERR_NULL_ARGUMENT);
  CHECK_EQ_INT(tcast_dtype_from_name("float", NULL, NULL), TCAST_ERR_NULL_ARGUMENT);
  CHECK_EQ_INT(tcast_dtype_from_name("flaot", &dtype, NULL), TCAST_ERR_INVALID_DTYPE);
  CHECK_EQ_INT(tcast_dtype_from_name("float", &dtype, NULL), TCAST_OK);
  CHECK_EQ_INT(dtype, TCAST_DTYPE_FLOAT);

  uint64_t bytes = 0;
  const int64_t shape[2] = {2, 3};
  const int64_t negative[2] = {2, -3};
  CHECK_EQ_INT(tcast_tensor_bytes(TCAST_DTYPE_FLOAT, shape, 2, &bytes, NULL), TCAST_OK);
  CHECK_EQ_HEX(bytes, 24);
  CHECK_EQ_INT(tcast_tensor_bytes(TCAST_DTYPE_FLOAT, shape, 2, NULL, NULL),
               TCAST_ERR_NULL_ARGUMENT);
  CHECK_EQ_INT(tcast_tensor_bytes(TCAST_DTYPE_FLOAT, negative, 2, &bytes, NULL),
               TCAST_ERR_INVALID_SHAPE);
  CHECK_EQ_INT(tcast_tensor_bytes(77, shape, 2, &bytes, NULL), TCAST_ERR_INVALID_DTYPE);

  CHECK_EQ_INT(tcast_cast(NULL, NULL, NULL, NULL), TCAST_ERR_NULL_ARGUMENT);
  float src[6] = {1, 2, 3, 4, 5, 6};
  double dst[6] = {0};
  tcast_tensor in = {src, sizeof src, shape, NULL, 2, TCAST_DTYPE_FLOAT};
  tcast_tensor out = {dst, sizeof dst, shape, NULL, 2, TCAST_DTYPE_DOUBLE};
  CHECK_EQ_INT(tcast_cast(&in, &out, NULL, NULL), TCAST_OK);
  CHECK(dst[5] == 6.0);
  out.data_bytes = 8;
  CHECK_EQ_INT(tcast_cast(&in, &out, NULL, NULL), TCAST_ERR_BUFFER_TOO_SMALL);
  tcast_cast_options options = tcast_cast_options_default();
  options.threads = -1;
  out.data_bytes = sizeof dst;
  CHECK_EQ_INT(tcast_cast(&in, &out, &options, NULL), TCAST_ERR_INVALID_ARGUMENT);
}

/* Success writes status 0 and index -1 over whatever the struct held. */
static void test_success_resets_err(void) {
  tcast_error err;
  tcast_dtype dtype;
  memset(&err, 0x5A, sizeof err);
  CHECK_EQ_INT(tcast_dtype_from_name("INT64", &dtype, &err), TCAST_OK);
  CHECK_EQ_INT(err.status, 0);
  CHECK_EQ_INT(err.index, -1);
  check_message_well_formed(&err, "tcast_dtype_from_name success");

  uint64_t bytes;
  memset(&err, 0x5A, sizeof err);
  CHECK_EQ_INT(tcast_tensor_bytes(TCAST_DTYPE_INT4, NULL, 0, &bytes, &err), TCAST_OK);
  CHECK_EQ_INT(err.status, 0);
  CHECK_EQ_INT(err.index, -1);
  check_message_well_formed(&err, "tcast_tensor_bytes success");

  /* A failure followed by a success: nothing of the failure remains in status/index. */
  CHECK_EQ_INT(tcast_dtype_from_name("nope", &dtype, &err), TCAST_ERR_INVALID_DTYPE);
  CHECK_EQ_INT(err.status, TCAST_ERR_INVALID_DTYPE);
  CHECK_EQ_INT(err.index, -1);
  int16_t src = -7;
  int64_t dst = 0;
  tcast_tensor in = {&src, sizeof src, NULL, NULL, 0, TCAST_DTYPE_INT16};
  tcast_tensor out = {&dst, sizeof dst, NULL, NULL, 0, TCAST_DTYPE_INT64};
  CHECK_EQ_INT(tcast_cast(&in, &out, NULL, &err), TCAST_OK);
  CHECK_EQ_INT(err.status, 0);
  CHECK_EQ_INT(err.index, -1);
  CHECK_EQ_INT(dst, -7);
  check_message_well_formed(&err, "tcast_cast success");
}

/* Failures fill err: status as returned, index -1 where no element applies. */
static void test_failure_fills_err(void) {
  tcast_dtype dtype;
  CHECK_STATUS(tcast_dtype_from_name(NULL, &dtype, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
  CHECK_EQ_INT(tc_err.status, TCAST_ERR_NULL_ARGUMENT);
  CHECK_EQ_INT(tc_err.index, -1);
  CHECK_MSG_CONTAINS(TC_ERR, "name");
  check_message_well_formed(TC_ERR, "NULL name");

  CHECK_STATUS(tcast_cast(NULL, NULL, NULL, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
  CHECK_EQ_INT(tc_err.index, -1);
  CHECK_MSG_CONTAINS(TC_ERR, "input");
}

/* Long messages are cut to 255 bytes plus the NUL, at a character boundary. */
static void test_long_messages(void) {
  tcast_dtype dtype;

  char ascii[1001];
  memset(ascii, 'x', 1000);
  ascii[1000] = '\0';
  CHECK_STATUS(tcast_dtype_from_name(ascii, &dtype, TC_ERR), TCAST_ERR_INVALID_DTYPE);
  check_message_well_formed(TC_ERR, "1000-byte name");
  CHECK_EQ_INT(strlen(tc_err.message), TCAST_ERROR_MESSAGE_BYTES - 1);

  /* 400 two-byte characters: wherever byte 255 falls, no character may be split. */
  for (int shift = 0; shift < 2; shift++) {
    char utf8[1 + 800 + 1];
    size_t n = 0;
    if (shift) {
      utf8[n++] = 'a';
    }
    for (int i = 0; i < 400; i++) {
      utf8[n++] = (char)0xC3; /* U+00E9 */
      utf8[n++] = (char)0xA9;
    }
    utf8[n] = '\0';
    CHECK_STATUS(tcast_dtype_from_name(utf8, &dtype, TC_ERR), TCAST_ERR_INVALID_DTYPE);
    check_message_well_formed(TC_ERR, "multi-byte name");
    CHECK(strlen(tc_err.message) >= TCAST_ERROR_MESSAGE_BYTES - 4);
  }

  /* A name that is not UTF-8 is a text the function cannot read (docs/c-api.md section 1:
   * TCAST_ERR_PARSE) and still gives a UTF-8 message. */
  CHECK_STATUS(tcast_dtype_from_name("fl\xff\xfe" "at", &dtype, TC_ERR),
               TCAST_ERR_PARSE);
  check_message_well_formed(TC_ERR, "invalid UTF-8 name");

  /* A 64-dimension shape with a negative last extent makes a long shape message. */
  int64_t shape[TCAST_MAX_NDIM];
  for (int i = 0; i < TCAST_MAX_NDIM; i++) {
    shape[i] = 1000000000000LL;
  }
  shape[TCAST_MAX_NDIM - 1] = -1;
  uint64_t bytes;
  CHECK_STATUS(tcast_tensor_bytes(TCAST_DTYPE_FLOAT, shape, TCAST_MAX_NDIM, &bytes, TC_ERR),
               TCAST_ERR_INVALID_SHAPE);
  check_message_well_formed(TC_ERR, "64-dimension shape");
  CHECK_EQ_INT(strlen(tc_err.message), TCAST_ERROR_MESSAGE_BYTES - 1);
  CHECK_EQ_INT(tc_err.index, -1);
}

static void test_error_struct_layout(void) {
  /* The ABI other languages marshal: int32 status, int64 index, 256 chars. */
  CHECK_EQ_INT(offsetof(tcast_error, status), 0);
  CHECK_EQ_INT(offsetof(tcast_error, index), 8);
  CHECK_EQ_INT(offsetof(tcast_error, message), 16);
  CHECK_EQ_INT(sizeof(((tcast_error *)0)->message), TCAST_ERROR_MESSAGE_BYTES);
  CHECK_EQ_INT(sizeof(tcast_error), 16 + TCAST_ERROR_MESSAGE_BYTES);
}

int main(void) {
  test_status_codes();
  test_status_names();
  test_version();
  test_null_err();
  test_success_resets_err();
  test_failure_fills_err();
  test_long_messages();
  test_error_struct_layout();
  return tc_summary();
}
