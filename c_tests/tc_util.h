/* Helpers shared by the C tests: bit views of floats, a deterministic generator, a
 * checked malloc and a tensor descriptor builder. */
#ifndef TC_UTIL_H
#define TC_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorcast.h"

static inline uint32_t f32_bits(float f) {
  uint32_t b;
  memcpy(&b, &f, sizeof b);
  return b;
}

static inline float f32_from(uint32_t b) {
  float f;
  memcpy(&f, &b, sizeof f);
  return f;
}

static inline uint64_t f64_bits(double d) {
  uint64_t b;
  memcpy(&b, &d, sizeof b);
  return b;
}

static inline double f64_from(uint64_t b) {
  double d;
  memcpy(&d, &b, sizeof d);
  return d;
}

/* xorshift64*: deterministic, so a failure reproduces. */
static inline uint64_t xorshift64star(uint64_t *state) {
  *state ^= *state >> 12;
  *state ^= *state << 25;
  *state ^= *state >> 27;
  return *state * 0x2545F4914F6CDD1Dull;
}

static inline size_t dtype_size(tcast_dtype dtype) { return tcast_dtype_bits(dtype) / 8; }

static inline void *xmalloc(size_t n) {
  void *p = malloc(n == 0 ? 1 : n);
  if (p == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  return p;
}

/* A C-contiguous tensor descriptor (inputs are never written, so a const buffer is
 * fine for them). */
static inline tcast_tensor tensor(const void *data, uint64_t bytes, const int64_t *shape,
                                  int32_t ndim, tcast_dtype dtype) {
  tcast_tensor t;
  t.data = (void *)data;
  t.data_bytes = bytes;
  t.shape = shape;
  t.strides = NULL;
  t.ndim = ndim;
  t.dtype = dtype;
  return t;
}

#endif
