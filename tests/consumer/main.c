/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * A consumer of the installed library: casts a few float32 values to float16 and back,
 * checks the bits and the values, and prints them. Exits nonzero on any mismatch.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <tensorcast.h>

#define N 4

int main(void) {
  const float values[N] = {1.0f, -2.5f, 0.1f, 65504.0f};
  const uint16_t f16_expected[N] = {0x3c00, 0xc100, 0x2e66, 0x7bff};
  const float back_expected[N] = {1.0f, -2.5f, 0.0999755859375f, 65504.0f};
  uint16_t f16[N];
  float back[N];
  const int64_t shape[1] = {N};
  tcast_tensor in = {(void *)values, sizeof values, shape, NULL, 1, TCAST_DTYPE_FLOAT};
  tcast_tensor half = {f16, sizeof f16, shape, NULL, 1, TCAST_DTYPE_FLOAT16};
  tcast_tensor out = {back, sizeof back, shape, NULL, 1, TCAST_DTYPE_FLOAT};
  tcast_error err;

  if (tcast_cast(&in, &half, NULL, &err) != TCAST_OK ||
      tcast_cast(&half, &out, NULL, &err) != TCAST_OK) {
    fprintf(stderr, "tcast_cast failed: %s: %s\n", tcast_status_name(err.status), err.message);
    return 1;
  }
  /* The library found at run time is the one the header describes. */
  char header_version[32];
  snprintf(header_version, sizeof header_version, "%d.%d.%d", TCAST_VERSION_MAJOR,
           TCAST_VERSION_MINOR, TCAST_VERSION_PATCH);
  int failed = strcmp(tcast_version(), header_version) != 0;
  if (failed) {
    fprintf(stderr, "library version %s, header version %s\n", tcast_version(), header_version);
  }
  for (int i = 0; i < N; i++) {
    int ok = f16[i] == f16_expected[i] && back[i] == back_expected[i];
    printf("%-10g -> f16 0x%04x -> %-14.10g %s\n", (double)values[i], f16[i], (double)back[i],
           ok ? "ok" : "WRONG");
    failed |= !ok;
  }
  printf("tensorcast %s: %s\n", tcast_version(), failed ? "FAILED" : "f32 -> f16 -> f32 ok");
  return failed;
}
