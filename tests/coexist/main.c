/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * One C program, two Rust static libraries built by different rustc versions:
 * libtensorcast.a and tests/coexist's staticlib. Uses both (a cast and a refused cast
 * with its formatted message from tensorcast; a Vec, formatting and a caught panic from
 * the other) and checks every result. scripts/test-abi.sh links it in both orders.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <tensorcast.h>

int64_t coexist_run(uint32_t n, char *out, size_t capacity);

int main(void) {
  const float values[2] = {1.0f, 65504.0f};
  uint16_t f16[2] = {0, 0};
  const int64_t shape[1] = {2};
  tcast_tensor in = {(void *)values, sizeof values, shape, NULL, 1, TCAST_DTYPE_FLOAT};
  tcast_tensor half = {f16, sizeof f16, shape, NULL, 1, TCAST_DTYPE_FLOAT16};
  tcast_tensor bad = {f16, sizeof f16, shape, NULL, 1, 12345};
  tcast_error err;
  int failed = 0;

  if (tcast_cast(&in, &half, NULL, &err) != TCAST_OK || f16[0] != 0x3c00 || f16[1] != 0x7bff) {
    fprintf(stderr, "tcast_cast: %s: %s\n", tcast_status_name(err.status), err.message);
    failed = 1;
  }
  if (tcast_cast(&in, &bad, NULL, &err) != TCAST_ERR_INVALID_DTYPE ||
      strstr(err.message, "12345") == NULL) {
    fprintf(stderr, "a bad dtype: status %d, message \"%s\"\n", err.status, err.message);
    failed = 1;
  }

  char text[128];
  const char *expected = "sum=55 caught=boom after 10 values";
  int64_t len = coexist_run(10, text, sizeof text);
  if (len != (int64_t)strlen(expected) || strcmp(text, expected) != 0) {
    fprintf(stderr, "coexist_run: %lld, \"%s\"\n", (long long)len, len >= 0 ? text : "");
    failed = 1;
  }

  printf("tensorcast %s: 0x%04x 0x%04x, refused: %s\n", tcast_version(), f16[0], f16[1],
         err.message);
  printf("the other Rust library: %s\n", len >= 0 ? text : "(failed)");
  printf("%s\n", failed ? "FAILED" : "both libraries ok");
  return failed;
}
