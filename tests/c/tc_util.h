/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Helpers shared by the C tests: bit views of floats, the host's byte order, a
 * deterministic generator, a checked malloc and a tensor descriptor builder. */
#ifndef TC_UTIL_H
#define TC_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc_check.h"
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

/* Quick mode: TCAST_TEST_QUICK=1, which scripts/test-cross.sh sets for the runs under an
 * emulator (docs/architecture.md, "Tests around it"). A heavy test then does the same
 * checks on smaller inputs; native runs leave it unset and do all of the work. */
static inline int tc_quick(void) {
  const char *value = getenv("TCAST_TEST_QUICK");
  return value != NULL && strcmp(value, "1") == 0;
}

/* 1 on a big-endian host (s390x), 0 on a little-endian one. Every multi-byte element is
 * in the host's byte order (docs/c-api.md section 4), so a test that looks at the bytes
 * of an element asks this rather than assuming little-endian. */
static inline int tc_big_endian(void) {
  const uint16_t probe = 1;
  unsigned char first;
  memcpy(&first, &probe, 1);
  return first == 0;
}

/* Byte k (in memory order) of an element of `size` bytes (at most 8) whose value is
 * `bits`. */
static inline unsigned tc_elem_byte(uint64_t bits, size_t size, size_t k) {
  size_t significance = tc_big_endian() ? size - 1 - k : k;
  return (unsigned)(bits >> (8 * significance)) & 0xFFu;
}

/* The value of the element of `size` bytes (at most 8) at `p`, zero-extended. */
static inline uint64_t tc_load_bits(const void *p, size_t size) {
  const unsigned char *bytes = p;
  uint64_t bits = 0;
  for (size_t k = 0; k < size; k++) {
    bits |= (uint64_t)bytes[k] << (8 * (tc_big_endian() ? size - 1 - k : k));
  }
  return bits;
}

/* Writes the low `size` bytes (at most 8) of `bits` at `p` as one element. */
static inline void tc_store_bits(void *p, uint64_t bits, size_t size) {
  unsigned char *bytes = p;
  for (size_t k = 0; k < size; k++) {
    bytes[k] = (unsigned char)tc_elem_byte(bits, size, k);
  }
}

/* Where byte k of a little-endian listing of elements of `size` bytes (as the examples
 * of TensorFlow, numpy and ONNX were written, on little-endian hosts) is in this host's
 * memory: the same element, the byte of the same significance. */
static inline size_t tc_le_index(size_t k, size_t size) {
  size_t in_element = k % size;
  return k - in_element + (tc_big_endian() ? size - 1 - in_element : in_element);
}

/* Copies a value of `n` bytes written least significant byte first into `dst` in the
 * host's byte order. */
static inline void tc_from_le(void *dst, const unsigned char *le, size_t n) {
  unsigned char *out = dst;
  for (size_t k = 0; k < n; k++) {
    out[k] = le[tc_big_endian() ? n - 1 - k : k];
  }
}

/* A numpy dtype text written for a little-endian host (a spec, numpy's answer, a
 * message), as the same text for this host: on a big-endian host '<' and '>' trade
 * places. numpy treats the two byte orders alike but for which one is native, so there
 * the answer to the mirrored spec is the mirrored answer. The mapping is its own
 * inverse: apply it once to each spec and expectation, never to its own result. Returns
 * `text` itself on a little-endian host (and for NULL); otherwise a copy that stays
 * valid for the next 15 calls. */
static inline const char *tc_np_host_order(const char *text) {
  enum { RING = 16 };
  static char *ring[RING];
  static int next;
  if (text == NULL || !tc_big_endian()) {
    return text;
  }
  size_t n = strlen(text);
  char *copy = malloc(n + 1);
  if (copy == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  for (size_t k = 0; k <= n; k++) {
    copy[k] = text[k] == '<' ? '>' : text[k] == '>' ? '<' : text[k];
  }
  free(ring[next]);
  ring[next] = copy;
  next = (next + 1) % RING;
  return copy;
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
  t.data = TCAST_CONST_DATA(data);
  t.data_bytes = bytes;
  t.shape = shape;
  t.strides = NULL;
  t.ndim = ndim;
  t.dtype = dtype;
  return t;
}

/* Casts `n` contiguous elements of `from` at `src` into `dst` as `to`, through private
 * heap copies: the input copy must come back unchanged, the output (filled with 0xFF
 * first) must not be written past (canary bytes follow it), and a packed output's unused
 * high bits must come back 0. Failures are reported at `line`. Returns 1 when the cast
 * succeeded and behaved. */
#define TC_GUARD_BYTES 32
#define TC_CANARY 0xCD
static inline int tc_cast_checked(tcast_dtype from, const void *src, tcast_dtype to, void *dst,
                                  int64_t n, const tcast_cast_options *options, int line) {
  const int64_t shape[1] = {n};
  uint64_t in64 = 0, out64 = 0;
  tcast_tensor_bytes(from, shape, 1, &in64, NULL);
  tcast_tensor_bytes(to, shape, 1, &out64, NULL);
  size_t in_bytes = (size_t)in64, out_bytes = (size_t)out64;
  unsigned char *in = xmalloc(in_bytes);
  unsigned char *in_copy = xmalloc(in_bytes);
  unsigned char *out = xmalloc(out_bytes + TC_GUARD_BYTES);
  memcpy(in, src, in_bytes);
  memcpy(in_copy, src, in_bytes);
  memset(out, 0xFF, out_bytes);
  memset(out + out_bytes, TC_CANARY, TC_GUARD_BYTES);
  tcast_tensor ti = tensor(in, in_bytes, shape, 1, from);
  tcast_tensor tout = tensor(out, out_bytes, shape, 1, to);
  tc_reset_err();
  tcast_status status = tcast_cast(&ti, &tout, options, TC_ERR);
  int ok = 1;
  if (status != TCAST_OK) {
    tc_fail(__FILE__, line, "cast %s -> %s of %lld elements failed: %s: %s",
            tcast_dtype_name(from), tcast_dtype_name(to), (long long)n,
            tcast_status_name(status), tc_err.message);
    ok = 0;
  }
  if (memcmp(in, in_copy, in_bytes) != 0) {
    tc_fail(__FILE__, line, "cast %s -> %s wrote to its input", tcast_dtype_name(from),
            tcast_dtype_name(to));
    ok = 0;
  }
  for (size_t i = out_bytes; i < out_bytes + TC_GUARD_BYTES; i++) {
    if (out[i] != TC_CANARY) {
      tc_fail(__FILE__, line, "cast %s -> %s wrote past its output", tcast_dtype_name(from),
              tcast_dtype_name(to));
      ok = 0;
      break;
    }
  }
  uint32_t bits = tcast_dtype_bits(to);
  size_t used = (size_t)n * bits % 8;
  if (status == TCAST_OK && bits < 8 && used != 0 && (out[out_bytes - 1] >> used) != 0) {
    tc_fail(__FILE__, line, "cast %s -> %s of %lld elements: last byte 0x%02x has unused bits set",
            tcast_dtype_name(from), tcast_dtype_name(to), (long long)n, out[out_bytes - 1]);
    ok = 0;
  }
  memcpy(dst, out, out_bytes);
  free(in);
  free(in_copy);
  free(out);
  return ok;
}

#endif
