/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Loads a libtensorcast the way NativeLibraryResolver loads the NuGet package's
 * runtimes/<rid>/native/libtensorcast.so, by its full path (dlopen, RTLD_NOW), and calls
 * it: the version, two casts, an error with its message, and the CPU line, whose arch
 * must be ARCH (Rust's name: x86_64, aarch64, s390x). scripts/build-cross-lib.sh builds it
 * with the target's cross compiler and runs it under qemu-user, to show that the library
 * it built runs on that CPU.
 *
 *   native-load PATH ARCH     exit 0 when every check holds, 1 otherwise
 */
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tensorcast.h"

#define STR2(x) #x
#define STR(x) STR2(x)
#define HEADER_VERSION STR(TCAST_VERSION_MAJOR) "." STR(TCAST_VERSION_MINOR) "." STR(TCAST_VERSION_PATCH)

static int failures;

static void check(int ok, const char *what) {
  printf("%s: %s\n", ok ? "ok" : "FAIL", what);
  if (!ok)
    failures++;
}

/* dlsym's result as a function pointer of the header's type (POSIX guarantees the
 * conversion; ISO C has none, hence the copy). */
#define LOOKUP(handle, name, out)                                          \
  do {                                                                     \
    void *symbol_ = dlsym((handle), #name);                                \
    if (!symbol_) {                                                        \
      fprintf(stderr, "FAIL: no symbol %s: %s\n", #name, dlerror());      \
      return 1;                                                            \
    }                                                                      \
    memcpy(&(out), &symbol_, sizeof(out));                                 \
  } while (0)

static tcast_tensor tensor(void *data, uint64_t bytes, const int64_t *shape, tcast_dtype dtype) {
  tcast_tensor t;
  memset(&t, 0, sizeof t);
  t.data = data;
  t.data_bytes = bytes;
  t.shape = shape;
  t.ndim = 1;
  t.dtype = dtype;
  return t;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s PATH ARCH\n", argv[0]);
    return 2;
  }
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "FAIL: dlopen %s: %s\n", argv[1], dlerror());
    return 1;
  }
  __typeof__(&tcast_version) version;
  __typeof__(&tcast_cast) cast;
  __typeof__(&tcast_status_name) status_name;
  __typeof__(&tcast_cpu_info) cpu_info;
  LOOKUP(lib, tcast_version, version);
  LOOKUP(lib, tcast_cast, cast);
  LOOKUP(lib, tcast_status_name, status_name);
  LOOKUP(lib, tcast_cpu_info, cpu_info);

  const char *v = version();
  printf("tcast_version: %s (header %s)\n", v, HEADER_VERSION);
  check(strcmp(v, HEADER_VERSION) == 0, "the version is the header's");

  /* FLOAT -> FLOAT16: exact, rounded, largest finite, overflow to infinity. */
  float f32[4] = {1.0f, -2.5f, 65504.0f, 1e6f};
  uint16_t f16[4] = {0};
  int64_t shape4[1] = {4};
  tcast_tensor in = tensor(f32, sizeof f32, shape4, TCAST_DTYPE_FLOAT);
  tcast_tensor out = tensor(f16, sizeof f16, shape4, TCAST_DTYPE_FLOAT16);
  tcast_error err;
  memset(&err, 0, sizeof err);
  tcast_status status = cast(&in, &out, NULL, &err);
  printf("FLOAT -> FLOAT16: %s, %#06x %#06x %#06x %#06x\n", status_name(status), f16[0], f16[1],
         f16[2], f16[3]);
  check(status == TCAST_OK && f16[0] == 0x3C00 && f16[1] == 0xC100 && f16[2] == 0x7BFF &&
            f16[3] == 0x7C00,
        "FLOAT -> FLOAT16 bits");

  /* FLOAT -> INT32: truncation, saturation, NaN -> 0. */
  float f32b[4] = {1.5f, -2.5f, 3e10f, NAN};
  int32_t i32[4] = {0};
  in = tensor(f32b, sizeof f32b, shape4, TCAST_DTYPE_FLOAT);
  out = tensor(i32, sizeof i32, shape4, TCAST_DTYPE_INT32);
  status = cast(&in, &out, NULL, &err);
  printf("FLOAT -> INT32: %s, %d %d %d %d\n", status_name(status), (int)i32[0], (int)i32[1],
         (int)i32[2], (int)i32[3]);
  check(status == TCAST_OK && i32[0] == 1 && i32[1] == -2 && i32[2] == INT32_MAX && i32[3] == 0,
        "FLOAT -> INT32 values");

  /* An output too small for its shape: BUFFER_TOO_SMALL with a message. */
  out = tensor(i32, sizeof i32 - 1, shape4, TCAST_DTYPE_INT32);
  memset(&err, 0, sizeof err);
  status = cast(&in, &out, NULL, &err);
  printf("short output: %s: %s\n", status_name(status), err.message);
  check(status == TCAST_ERR_BUFFER_TOO_SMALL && err.status == status && err.message[0] != '\0',
        "a short output is TCAST_ERR_BUFFER_TOO_SMALL, with a message");

  char line[256];
  status = cpu_info(line, sizeof line, NULL, &err);
  printf("tcast_cpu_info: %s\n", status == TCAST_OK ? line : status_name(status));
  char expected[64];
  snprintf(expected, sizeof expected, "arch=%s ", argv[2]);
  check(status == TCAST_OK && strncmp(line, expected, strlen(expected)) == 0,
        "the library runs its code for this CPU");

  dlclose(lib);
  return failures == 0 ? 0 : 1;
}
