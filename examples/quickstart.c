/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * tensorcast quickstart: cast a small float32 tensor to float16 and bfloat16 and back,
 * and print what each value became.
 *
 * Build and run it with `bash scripts/quickstart.sh` (CMake, in build/cmake), or by hand
 * against the library that command leaves in target/release (with the link named after
 * its SONAME, libtensorcast.so.0, which a plain `cargo build` does not make):
 *   cc -Iinclude examples/quickstart.c -Ltarget/release -ltensorcast \
 *      -Wl,-rpath,$PWD/target/release -o quickstart
 */
#include <stdint.h>
#include <stdio.h>

#include "tensorcast.h"

#define N 6

/* Casts the 1-D tensor `src` of `from` into `dst` of `to`. Prints the error on failure. */
static int cast_1d(const void *src, uint64_t src_bytes, tcast_dtype from, void *dst,
                   uint64_t dst_bytes, tcast_dtype to) {
  const int64_t shape[1] = {N};
  tcast_tensor input = {
      .data = TCAST_CONST_DATA(src), .data_bytes = src_bytes, .shape = shape, .ndim = 1,
      .dtype = from};
  tcast_tensor output = {
      .data = dst, .data_bytes = dst_bytes, .shape = shape, .ndim = 1, .dtype = to};
  tcast_error err;
  tcast_status status = tcast_cast(&input, &output, NULL, &err);
  if (status != TCAST_OK) {
    fprintf(stderr, "tcast_cast %s -> %s failed: %s: %s\n", tcast_dtype_name(from),
            tcast_dtype_name(to), tcast_status_name(status), err.message);
    return 0;
  }
  return 1;
}

int main(void) {
  const float values[N] = {1.0f, 0.1f, -2.5f, 65504.0f, 1e-8f, 3.14159f};
  uint16_t f16[N], bf16[N];
  float from_f16[N], from_bf16[N];

  if (!cast_1d(values, sizeof values, TCAST_DTYPE_FLOAT, f16, sizeof f16,
               TCAST_DTYPE_FLOAT16) ||
      !cast_1d(values, sizeof values, TCAST_DTYPE_FLOAT, bf16, sizeof bf16,
               TCAST_DTYPE_BFLOAT16) ||
      !cast_1d(f16, sizeof f16, TCAST_DTYPE_FLOAT16, from_f16, sizeof from_f16,
               TCAST_DTYPE_FLOAT) ||
      !cast_1d(bf16, sizeof bf16, TCAST_DTYPE_BFLOAT16, from_bf16, sizeof from_bf16,
               TCAST_DTYPE_FLOAT)) {
    return 1;
  }

  printf("tensorcast %s: float32 -> float16 / bfloat16 -> float32\n\n", tcast_version());
  printf("%14s | %8s %14s | %8s %14s\n", "float32", "f16", "back", "bf16", "back");
  printf("---------------+-------------------------+-------------------------\n");
  for (int i = 0; i < N; i++) {
    printf("%14.9g |   0x%04x %14.9g |   0x%04x %14.9g\n", (double)values[i], (unsigned)f16[i],
           (double)from_f16[i], (unsigned)bf16[i], (double)from_bf16[i]);
  }
  return 0;
}
