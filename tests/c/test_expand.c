/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Expand (docs/semantics-expand-bitcast.md "Expand", docs/c-api.md sections 4 and 6):
 *  - tcast_expand_shape: the page's broadcast examples, the incompatible pairs and their
 *    messages, negative extents and lengths, ranks above TCAST_MAX_NDIM, NULL arguments,
 *    out_capacity (too small: *out_ndim still says the rank, nothing written past the
 *    capacity; negative: refused);
 *  - tcast_expand: the ONNX test vectors, every element width checked element by element
 *    against a reference written here, STRING views, packed INT4 / FLOAT6E2M3 with odd
 *    inner extents (bit-exact, unused high bits 0), strided inputs (transposed, padded,
 *    stride 0), scalars, empty outputs, and every documented error (output shape not
 *    the broadcast, dtype mismatch, incompatible shapes, short buffers, overlap, NULLs).
 *
 * Output buffers are followed by canary bytes, and inputs are compared with a copy after
 * each call: nothing may be written past an output or into an input.
 */
#include <stdlib.h>

#include "tc_check.h"
#include "tc_util.h"

#define CANARY 0xCD
#define CANARY_BYTES 64
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ---------------------------------------------------------------- helpers */

/* A buffer of `size` bytes, all CANARY, followed by CANARY_BYTES more CANARY bytes. */
static unsigned char *canary_buffer(size_t size) {
  unsigned char *p = xmalloc(size + CANARY_BYTES);
  memset(p, CANARY, size + CANARY_BYTES);
  return p;
}

/* Whether bytes [from, to) of p still hold the canary. */
static int canary_intact(const unsigned char *p, size_t from, size_t to) {
  for (size_t i = from; i < to; i++) {
    if (p[i] != CANARY) {
      return 0;
    }
  }
  return 1;
}

static int64_t product(const int64_t *dims, int n) {
  int64_t p = 1;
  for (int i = 0; i < n; i++) {
    p *= dims[i];
  }
  return p;
}

static void shape_text(char *buf, size_t cap, const int64_t *dims, int n) {
  size_t used = (size_t)snprintf(buf, cap, "[");
  for (int i = 0; i < n && used < cap; i++) {
    used += (size_t)snprintf(buf + used, cap - used, i ? ",%" PRId64 : "%" PRId64, dims[i]);
  }
  if (used < cap) {
    snprintf(buf + used, cap - used, "]");
  }
}

/*
 * The reference: output element i (row-major over out_dims) is the input element whose
 * index along each input axis is the output index, or 0 where the input extent is 1;
 * input axes align with the output's last ones. `strides` in elements (NULL: C order).
 * Writes es-byte elements into `out`.
 */
static void reference_expand(const unsigned char *in, size_t es, const int64_t *in_dims,
                             int in_n, const int64_t *strides, const int64_t *out_dims,
                             int out_n, unsigned char *out) {
  int64_t own[TCAST_MAX_NDIM];
  if (strides == NULL) {
    int64_t step = 1;
    for (int a = in_n - 1; a >= 0; a--) {
      own[a] = step;
      step *= in_dims[a];
    }
    strides = own;
  }
  int64_t total = product(out_dims, out_n);
  int lead = out_n - in_n;
  for (int64_t i = 0; i < total; i++) {
    int64_t rem = i, at = 0;
    for (int a = out_n - 1; a >= 0; a--) {
      int64_t idx = rem % out_dims[a];
      rem /= out_dims[a];
      if (a >= lead && in_dims[a - lead] != 1) {
        at += idx * strides[a - lead];
      }
    }
    memcpy(out + (size_t)i * es, in + (size_t)at * es, es);
  }
}

/* Packs `n` codes of `bits` bits into a little-end-first bit stream (docs/c-api.md 4). */
static void pack_bits(const uint8_t *codes, size_t n, int bits, unsigned char *out,
                      size_t out_bytes) {
  memset(out, 0, out_bytes);
  for (size_t i = 0; i < n; i++) {
    for (int b = 0; b < bits; b++) {
      size_t bit = i * (size_t)bits + (size_t)b;
      if ((codes[i] >> b) & 1) {
        out[bit / 8] |= (unsigned char)(1u << (bit % 8));
      }
    }
  }
}

/* ---------------------------------------------------------------- tcast_expand_shape */

/* Runs tcast_expand_shape and checks a success with the wanted shape. */
static void expect_shape(const int64_t *in, int in_n, const int64_t *shape, int shape_n,
                         const int64_t *want, int want_n, int line) {
  int64_t out[TCAST_MAX_NDIM + 2];
  int32_t ndim = -99;
  for (size_t i = 0; i < COUNT_OF(out); i++) {
    out[i] = -4242;
  }
  tc_reset_err();
  tcast_status st =
      tcast_expand_shape(in, in_n, shape, shape_n, out, TCAST_MAX_NDIM, &ndim, TC_ERR);
  tc_check_status(st, TCAST_OK, "tcast_expand_shape", __FILE__, line);
  if (st != TCAST_OK) {
    return;
  }
  CHECK_MSG(ndim == want_n, "line %d: rank %d, expected %d", line, (int)ndim, want_n);
  if (ndim != want_n) {
    return;
  }
  char got_text[256], want_text[256];
  shape_text(got_text, sizeof got_text, out, want_n);
  shape_text(want_text, sizeof want_text, want, want_n);
  CHECK_MSG(memcmp(out, want, sizeof(int64_t) * (size_t)want_n) == 0,
            "line %d: shape %s, expected %s", line, got_text, want_text);
  CHECK_MSG(out[want_n] == -4242, "line %d: out_shape[%d] written past the rank", line,
            want_n);
}

#define EXPECT_SHAPE(in, shape, want)                                                   \
  expect_shape((in), (int)COUNT_OF(in), (shape), (int)COUNT_OF(shape), (want),          \
               (int)COUNT_OF(want), __LINE__)

static void test_shape_examples(void) {
  static const int64_t s31[] = {3, 1}, s11[] = {1, 1}, s4[] = {4}, s34[] = {3, 4};
  static const int64_t s216[] = {2, 1, 6}, s236[] = {2, 3, 6}, s23[] = {2, 3};
  static const int64_t s1[] = {1}, s0[] = {0};
  int64_t out[4];
  int32_t ndim;

  EXPECT_SHAPE(s31, s11, s31);
  EXPECT_SHAPE(s31, s4, s34);
  EXPECT_SHAPE(s31, s216, s236);
  EXPECT_SHAPE(s31, s34, s34);
  EXPECT_SHAPE(s1, s0, s0);
  /* 1 vs 0 gives 0 the other way round too. */
  EXPECT_SHAPE(s0, s1, s0);

  /* [3,1] with []: [3,1] (a NULL or non-NULL empty shape alike). */
  ndim = -1;
  CHECK_STATUS(tcast_expand_shape(s31, 2, NULL, 0, out, 4, &ndim, TC_ERR), TCAST_OK);
  CHECK_EQ_INT(ndim, 2);
  CHECK(out[0] == 3 && out[1] == 1);
  ndim = -1;
  CHECK_STATUS(tcast_expand_shape(s31, 2, s4, 0, out, 4, &ndim, TC_ERR), TCAST_OK);
  CHECK_EQ_INT(ndim, 2);
  CHECK(out[0] == 3 && out[1] == 1);

  /* A scalar input fills the shape. */
  ndim = -1;
  CHECK_STATUS(tcast_expand_shape(NULL, 0, s23, 2, out, 4, &ndim, TC_ERR), TCAST_OK);
  CHECK_EQ_INT(ndim, 2);
  CHECK(out[0] == 2 && out[1] == 3);

  /* [] with []: rank 0, and out_shape may be NULL with capacity 0. */
  ndim = -1;
  CHECK_STATUS(tcast_expand_shape(NULL, 0, NULL, 0, NULL, 0, &ndim, TC_ERR), TCAST_OK);
  CHECK_EQ_INT(ndim, 0);
  out[0] = -7;
  ndim = -1;
  CHECK_STATUS(tcast_expand_shape(NULL, 0, NULL, 0, out, 4, &ndim, TC_ERR), TCAST_OK);
  CHECK_EQ_INT(ndim, 0);
  CHECK_EQ_INT(out[0], -7);

  /* Longer and shorter shapes, zeros, equal shapes, err NULL. */
  {
    static const int64_t a[] = {5, 1, 3}, b[] = {7, 1, 4, 1}, want[] = {7, 5, 4, 3};
    EXPECT_SHAPE(a, b, want);
    EXPECT_SHAPE(b, a, want);
  }
  {
    static const int64_t a[] = {1, 0, 1}, b[] = {4, 1, 1, 6}, want[] = {4, 1, 0, 6};
    EXPECT_SHAPE(a, b, want);
  }
  {
    static const int64_t a[] = {2, 3, 5};
    EXPECT_SHAPE(a, a, a);
  }
  ndim = -1;
  CHECK_EQ_INT(tcast_expand_shape(s31, 2, s4, 1, out, 4, &ndim, NULL), TCAST_OK);
  CHECK_EQ_INT(ndim, 2);
  CHECK(out[0] == 3 && out[1] == 4);

  /* Exactly TCAST_MAX_NDIM is allowed. */
  {
    int64_t big[TCAST_MAX_NDIM], res[TCAST_MAX_NDIM];
    for (int i = 0; i < TCAST_MAX_NDIM; i++) {
      big[i] = 1;
    }
    big[0] = 2;
    ndim = -1;
    CHECK_STATUS(tcast_expand_shape(big, TCAST_MAX_NDIM, s4, 1, res, TCAST_MAX_NDIM, &ndim,
                                    TC_ERR),
                 TCAST_OK);
    CHECK_EQ_INT(ndim, TCAST_MAX_NDIM);
    CHECK_EQ_INT(res[0], 2);
    CHECK_EQ_INT(res[TCAST_MAX_NDIM - 1], 4);
  }
}

static void expect_incompatible(const int64_t *in, int in_n, const int64_t *shape,
                                int shape_n, const char *in_text, const char *shape_text_,
                                const char *dimension, int line) {
  int64_t out[8];
  int32_t ndim;
  tc_reset_err();
  tc_check_status(tcast_expand_shape(in, in_n, shape, shape_n, out, 8, &ndim, TC_ERR),
                  TCAST_ERR_INCOMPATIBLE_SHAPES, "tcast_expand_shape", __FILE__, line);
  CHECK_MSG(strstr(tc_err.message, in_text) != NULL && strstr(tc_err.message, shape_text_) &&
                strstr(tc_err.message, dimension) != NULL,
            "line %d: message \"%s\" lacks %s, %s or \"%s\"", line, tc_err.message, in_text,
            shape_text_, dimension);
  CHECK_EQ_INT(tc_err.index, -1);
}

static void test_shape_errors(void) {
  static const int64_t s01[] = {0, 1}, s34[] = {3, 4}, s32[] = {3, 2}, s43[] = {4, 3};
  static const int64_t s23[] = {2, 3}, s24[] = {2, 4}, s53[] = {5, 3}, s214[] = {2, 1, 4};
  static const int64_t s2[] = {2}, s3[] = {3}, s02[] = {0, 2};
  int64_t out[8];
  int32_t ndim;

  /* The result's dimensions are numbered from the left of the broadcast shape. */
  expect_incompatible(s01, 2, s34, 2, "[0,1]", "[3,4]", "dimension 0", __LINE__);
  expect_incompatible(s32, 2, s43, 2, "[3,2]", "[4,3]", "dimension", __LINE__);
  expect_incompatible(s23, 2, s24, 2, "[2,3]", "[2,4]", "dimension 1", __LINE__);
  expect_incompatible(s53, 2, s214, 3, "[5,3]", "[2,1,4]", "dimension 2", __LINE__);
  expect_incompatible(s2, 1, s3, 1, "[2]", "[3]", "dimension 0", __LINE__);
  expect_incompatible(s3, 1, s02, 2, "[3]", "[0,2]", "dimension 1", __LINE__);

  /* Negative extents. */
  {
    static const int64_t neg[] = {3, -1}, neg2[] = {-5};
    CHECK_STATUS(tcast_expand_shape(s34, 2, neg, 2, out, 8, &ndim, TC_ERR),
                 TCAST_ERR_INVALID_SHAPE);
    CHECK_MSG_CONTAINS(TC_ERR, "-1");
    CHECK_STATUS(tcast_expand_shape(neg, 2, s34, 2, out, 8, &ndim, TC_ERR),
                 TCAST_ERR_INVALID_SHAPE);
    CHECK_MSG_CONTAINS(TC_ERR, "-1");
    CHECK_MSG_CONTAINS(TC_ERR, "input");
    CHECK_STATUS(tcast_expand_shape(NULL, 0, neg2, 1, out, 8, &ndim, TC_ERR),
                 TCAST_ERR_INVALID_SHAPE);
    CHECK_MSG_CONTAINS(TC_ERR, "-5");
  }

  /* Negative lengths and ranks above TCAST_MAX_NDIM. */
  {
    int64_t big[TCAST_MAX_NDIM + 1];
    for (int i = 0; i <= TCAST_MAX_NDIM; i++) {
      big[i] = 1;
    }
    CHECK_STATUS(tcast_expand_shape(big, TCAST_MAX_NDIM + 1, s34, 2, out, 8, &ndim, TC_ERR),
                 TCAST_ERR_INVALID_SHAPE);
    CHECK_MSG_CONTAINS(TC_ERR, "65");
    CHECK_STATUS(tcast_expand_shape(s34, 2, big, TCAST_MAX_NDIM + 1, out, 8, &ndim, TC_ERR),
                 TCAST_ERR_INVALID_SHAPE);
    CHECK_MSG_CONTAINS(TC_ERR, "65");
    CHECK_STATUS(tcast_expand_shape(s34, -1, s34, 2, out, 8, &ndim, TC_ERR),
                 TCAST_ERR_INVALID_SHAPE);
    CHECK_STATUS(tcast_expand_shape(s34, 2, s34, -3, out, 8, &ndim, TC_ERR),
                 TCAST_ERR_INVALID_SHAPE);
    CHECK_STATUS(tcast_expand_shape(s34, 2, s34, INT32_MIN, out, 8, &ndim, TC_ERR),
                 TCAST_ERR_INVALID_SHAPE);
  }

  /* NULL arguments. */
  CHECK_STATUS(tcast_expand_shape(s34, 2, s34, 2, out, 8, NULL, TC_ERR),
               TCAST_ERR_NULL_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "out_ndim");
  CHECK_STATUS(tcast_expand_shape(s34, 2, NULL, 2, out, 8, &ndim, TC_ERR),
               TCAST_ERR_NULL_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "shape");
  CHECK_STATUS(tcast_expand_shape(NULL, 2, s34, 2, out, 8, &ndim, TC_ERR),
               TCAST_ERR_NULL_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "input");
  CHECK_STATUS(tcast_expand_shape(s34, 2, s34, 2, NULL, 8, &ndim, TC_ERR),
               TCAST_ERR_NULL_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "out_shape");
  CHECK_EQ_INT(tcast_expand_shape(s34, 2, s34, 2, out, 8, NULL, NULL), TCAST_ERR_NULL_ARGUMENT);

  /* out_capacity below the rank: BUFFER_TOO_SMALL, *out_ndim holds the rank, nothing is
     written past the capacity. */
  {
    static const int64_t s31[] = {3, 1}, s216[] = {2, 1, 6};
    int64_t res[6];
    for (int cap = 0; cap < 3; cap++) {
      for (int i = 0; i < 6; i++) {
        res[i] = -4242;
      }
      ndim = -1;
      CHECK_STATUS(tcast_expand_shape(s31, 2, s216, 3, res, cap, &ndim, TC_ERR),
                   TCAST_ERR_BUFFER_TOO_SMALL);
      CHECK_EQ_INT(ndim, 3);
      CHECK_MSG_CONTAINS(TC_ERR, "3");
      for (int i = cap; i < 6; i++) {
        CHECK_MSG(res[i] == -4242, "capacity %d: out_shape[%d] was written (%" PRId64 ")",
                  cap, i, res[i]);
      }
    }
    /* Asking for the rank with no buffer at all. */
    ndim = -1;
    CHECK_STATUS(tcast_expand_shape(s31, 2, s216, 3, NULL, 0, &ndim, TC_ERR),
                 TCAST_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_INT(ndim, 3);
    /* The exact capacity works. */
    ndim = -1;
    CHECK_STATUS(tcast_expand_shape(s31, 2, s216, 3, res, 3, &ndim, TC_ERR), TCAST_OK);
    CHECK_EQ_INT(ndim, 3);
    CHECK(res[0] == 2 && res[1] == 3 && res[2] == 6 && res[3] == -4242);
  }

  /* A negative out_capacity. */
  CHECK_STATUS(tcast_expand_shape(s34, 2, s34, 2, out, -1, &ndim, TC_ERR),
               TCAST_ERR_INVALID_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "out_capacity");
  CHECK_STATUS(tcast_expand_shape(s34, 2, s34, 2, out, INT32_MIN, &ndim, TC_ERR),
               TCAST_ERR_INVALID_ARGUMENT);
}

/* ---------------------------------------------------------------- tcast_expand */

/*
 * Expands `in` (es-byte elements, optional strides) to out_dims with tcast_expand and
 * compares every output element with the reference; the output buffer is exact-sized
 * with a canary after it, and the input is checked unchanged.
 */
static void expect_expand(tcast_dtype dtype, const void *in, size_t in_bytes,
                          const int64_t *in_dims, int in_n, const int64_t *strides,
                          const int64_t *out_dims, int out_n, const char *what) {
  size_t es = tcast_dtype_bits(dtype) / 8;
  size_t count = (size_t)product(out_dims, out_n);
  size_t out_bytes = count * es;
  unsigned char *out = canary_buffer(out_bytes);
  unsigned char *want = xmalloc(out_bytes);
  unsigned char *copy = xmalloc(in_bytes);
  memcpy(copy, in, in_bytes);
  reference_expand(in, es, in_dims, in_n, strides, out_dims, out_n, want);

  tcast_tensor ti = tensor(in, in_bytes, in_dims, in_n, dtype);
  ti.strides = strides;
  tcast_tensor to = tensor(out, out_bytes, out_dims, out_n, dtype);
  tc_reset_err();
  tcast_status st = tcast_expand(&ti, &to, TC_ERR);
  tc_check_status(st, TCAST_OK, what, __FILE__, __LINE__);
  if (st == TCAST_OK) {
    size_t bad = 0;
    for (size_t i = 0; i < count; i++) {
      if (memcmp(out + i * es, want + i * es, es) != 0) {
        if (bad++ < 4) {
          tc_fail(__FILE__, __LINE__, "%s (%s): element %zu differs (first byte 0x%02x, "
                  "expected 0x%02x)", what, tcast_dtype_name(dtype), i, out[i * es],
                  want[i * es]);
        }
      }
    }
    if (bad == 0) {
      tc_pass();
    }
  }
  CHECK_MSG(canary_intact(out, out_bytes, out_bytes + CANARY_BYTES),
            "%s (%s): written past the output", what, tcast_dtype_name(dtype));
  CHECK_MSG(memcmp(copy, in, in_bytes) == 0, "%s (%s): the input was written", what,
            tcast_dtype_name(dtype));
  free(out);
  free(want);
  free(copy);
}

static void test_onnx_vectors(void) {
  static const float data[3] = {1.0f, 2.0f, 3.0f};
  static const int64_t s31[] = {3, 1}, s236[] = {2, 3, 6}, s34[] = {3, 4};
  float out[36];
  int64_t shape[3];
  int32_t ndim;

  /* shape [2,1,6]: tcast_expand_shape gives (2,3,6), then the values. */
  static const int64_t s216[] = {2, 1, 6};
  CHECK_STATUS(tcast_expand_shape(s31, 2, s216, 3, shape, 3, &ndim, TC_ERR), TCAST_OK);
  CHECK(ndim == 3 && shape[0] == 2 && shape[1] == 3 && shape[2] == 6);
  tcast_tensor ti = tensor(data, sizeof data, s31, 2, TCAST_DTYPE_FLOAT);
  tcast_tensor to = tensor(out, sizeof out, s236, 3, TCAST_DTYPE_FLOAT);
  memset(out, 0, sizeof out);
  CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_OK);
  int ok = 1;
  for (int i = 0; i < 36; i++) {
    /* (i / 6) % 3 is the row of the 3x1 input. */
    if (out[i] != data[(i / 6) % 3]) {
      ok = 0;
      tc_fail(__FILE__, __LINE__, "[2,3,6] element %d is %g, expected %g", i, out[i],
              data[(i / 6) % 3]);
    }
  }
  CHECK(ok);

  /* shape [3,4]. */
  static const int64_t s34in[] = {3, 4};
  CHECK_STATUS(tcast_expand_shape(s31, 2, s34in, 2, shape, 3, &ndim, TC_ERR), TCAST_OK);
  CHECK(ndim == 2 && shape[0] == 3 && shape[1] == 4);
  to = tensor(out, 12 * sizeof(float), s34, 2, TCAST_DTYPE_FLOAT);
  memset(out, 0, sizeof out);
  CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_OK);
  static const float want34[12] = {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3};
  CHECK(memcmp(out, want34, sizeof want34) == 0);
  CHECK(out[12] == 0.0f);
}

static void test_every_width(void) {
  static const tcast_dtype dtypes[] = {
      TCAST_DTYPE_BOOL,         TCAST_DTYPE_INT8,       TCAST_DTYPE_UINT8,
      TCAST_DTYPE_QINT8,        TCAST_DTYPE_QUINT8,     TCAST_DTYPE_FLOAT8E4M3FN,
      TCAST_DTYPE_FLOAT8E4M3FNUZ, TCAST_DTYPE_FLOAT8E5M2, TCAST_DTYPE_FLOAT8E5M2FNUZ,
      TCAST_DTYPE_FLOAT8E8M0,   TCAST_DTYPE_FLOAT16,    TCAST_DTYPE_BFLOAT16,
      TCAST_DTYPE_INT16,        TCAST_DTYPE_UINT16,     TCAST_DTYPE_QINT16,
      TCAST_DTYPE_QUINT16,      TCAST_DTYPE_FLOAT,      TCAST_DTYPE_INT32,
      TCAST_DTYPE_UINT32,       TCAST_DTYPE_QINT32,     TCAST_DTYPE_DOUBLE,
      TCAST_DTYPE_INT64,        TCAST_DTYPE_UINT64,     TCAST_DTYPE_COMPLEX64,
      TCAST_DTYPE_COMPLEX128,
  };
  /* Input [2,1,3] -> [2,2,4,3] (a new leading axis, a broadcast middle axis), and
     [3] -> [5,3], [1] -> [7], [2,1] -> [2,9]. */
  static const int64_t in_a[] = {2, 1, 3}, out_a[] = {2, 2, 4, 3};
  static const int64_t in_b[] = {3}, out_b[] = {5, 3};
  static const int64_t in_c[] = {1}, out_c[] = {7};
  static const int64_t in_d[] = {2, 1}, out_d[] = {2, 9};
  unsigned char in[6 * 16];

  for (size_t d = 0; d < COUNT_OF(dtypes); d++) {
    tcast_dtype dt = dtypes[d];
    size_t es = tcast_dtype_bits(dt) / 8;
    CHECK_MSG(es >= 1 && es <= 16, "%s has %zu bytes", tcast_dtype_name(dt), es);
    /* Every byte of every element distinct (BOOL: 0 and 1 only). */
    for (size_t i = 0; i < sizeof in; i++) {
      in[i] = dt == TCAST_DTYPE_BOOL ? (unsigned char)((i * 5 + 1) % 3 == 0)
                                     : (unsigned char)(i * 37 + 11);
    }
    expect_expand(dt, in, 6 * es, in_a, 3, NULL, out_a, 4, "[2,1,3] -> [2,2,4,3]");
    expect_expand(dt, in, 3 * es, in_b, 1, NULL, out_b, 2, "[3] -> [5,3]");
    expect_expand(dt, in, 1 * es, in_c, 1, NULL, out_c, 1, "[1] -> [7]");
    expect_expand(dt, in, 2 * es, in_d, 2, NULL, out_d, 2, "[2,1] -> [2,9]");
    /* A scalar input fills; [] -> [] copies the one element. */
    expect_expand(dt, in + es, es, NULL, 0, NULL, out_b, 2, "[] -> [5,3]");
    expect_expand(dt, in + es, es, NULL, 0, NULL, NULL, 0, "[] -> []");
    /* The same shape is a copy. */
    expect_expand(dt, in, 6 * es, in_a, 3, NULL, in_a, 3, "[2,1,3] -> [2,1,3]");
  }

  /* Typed spot checks on a few widths. */
  {
    static const int64_t s2[] = {2}, s32[] = {3, 2};
    static const uint8_t b[2] = {1, 0};
    uint8_t bo[6];
    tcast_tensor ti = tensor(b, 2, s2, 1, TCAST_DTYPE_BOOL);
    tcast_tensor to = tensor(bo, 6, s32, 2, TCAST_DTYPE_BOOL);
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_OK);
    CHECK(bo[0] == 1 && bo[1] == 0 && bo[2] == 1 && bo[3] == 0 && bo[4] == 1 && bo[5] == 0);

    static const uint16_t h[2] = {0x3c00, 0xfc00}; /* 1.0, -inf */
    uint16_t ho[6];
    ti = tensor(h, 4, s2, 1, TCAST_DTYPE_FLOAT16);
    to = tensor(ho, 12, s32, 2, TCAST_DTYPE_FLOAT16);
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_OK);
    for (int i = 0; i < 6; i++) {
      CHECK_EQ_HEX(ho[i], h[i % 2]);
    }

    static const double c[4] = {1.5, -2.5, 3.25, -0.0}; /* two COMPLEX128 */
    double co[12];
    ti = tensor(c, sizeof c, s2, 1, TCAST_DTYPE_COMPLEX128);
    to = tensor(co, sizeof co, s32, 2, TCAST_DTYPE_COMPLEX128);
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_OK);
    CHECK(memcmp(co, c, sizeof c) == 0 && memcmp(co + 4, c, sizeof c) == 0 &&
          memcmp(co + 8, c, sizeof c) == 0);

    static const int32_t q[2] = {INT32_MIN, 123456789};
    int32_t qo[6];
    ti = tensor(q, sizeof q, s2, 1, TCAST_DTYPE_QINT32);
    to = tensor(qo, sizeof qo, s32, 2, TCAST_DTYPE_QINT32);
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_OK);
    for (int i = 0; i < 6; i++) {
      CHECK_EQ_INT(qo[i], q[i % 2]);
    }
  }
}

/* A larger case, so the doubling copies and the merged levels run past small sizes. */
static void test_larger(void) {
  static const int64_t in_dims[] = {1, 37, 1, 5}, out_dims[] = {3, 7, 37, 130, 5};
  static const int64_t col[] = {1000, 1}, big[] = {1000, 1000};
  size_t n = 37 * 5;
  double *in = xmalloc(n * sizeof *in);
  for (size_t i = 0; i < n; i++) {
    in[i] = (double)i * 0.5 - 7.0;
  }
  expect_expand(TCAST_DTYPE_DOUBLE, in, n * sizeof *in, in_dims, 4, NULL, out_dims, 5,
                "[1,37,1,5] -> [3,7,37,130,5]");
  /* A column broadcast over a long row, and a row over many rows. */
  float *f = xmalloc(1000 * sizeof *f);
  for (int i = 0; i < 1000; i++) {
    f[i] = (float)i;
  }
  expect_expand(TCAST_DTYPE_FLOAT, f, 1000 * sizeof *f, col, 2, NULL, big, 2,
                "[1000,1] -> [1000,1000]");
  static const int64_t row[] = {1, 1000};
  expect_expand(TCAST_DTYPE_FLOAT, f, 1000 * sizeof *f, row, 2, NULL, big, 2,
                "[1,1000] -> [1000,1000]");
  /* Past 16 MiB of output (the streaming-store path): one element, and a short row. */
  static const int64_t one[] = {1}, many[] = {4200000}, row3[] = {3}, rows[] = {1400001, 3};
  expect_expand(TCAST_DTYPE_FLOAT, f + 7, sizeof(float), one, 1, NULL, many, 1,
                "[1] -> [4200000]");
  expect_expand(TCAST_DTYPE_FLOAT, f + 1, 3 * sizeof(float), row3, 1, NULL, rows, 2,
                "[3] -> [1400001,3]");
  free(in);
  free(f);
}

static void test_strings(void) {
  static const char *texts[] = {"a", "bb", "", "dddd"};
  tcast_string in[4];
  for (int i = 0; i < 4; i++) {
    in[i].data = texts[i];
    in[i].len = strlen(texts[i]);
  }
  in[2].data = NULL; /* an empty view may be NULL */
  static const int64_t s41[] = {4, 1}, s2_43[] = {2, 4, 3};
  tcast_string out[24];
  unsigned char before[sizeof in];
  memcpy(before, in, sizeof in);
  memset(out, 0, sizeof out);
  tcast_tensor ti = tensor(in, sizeof in, s41, 2, TCAST_DTYPE_STRING);
  tcast_tensor to = tensor(out, sizeof out, s2_43, 3, TCAST_DTYPE_STRING);
  CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_OK);
  int ok = 1;
  for (int i = 0; i < 24; i++) {
    int src = (i / 3) % 4;
    if (out[i].data != in[src].data || out[i].len != in[src].len) {
      ok = 0;
      tc_fail(__FILE__, __LINE__, "STRING element %d: view (%p, %" PRIu64 "), expected (%p, %"
              PRIu64 ")", i, (const void *)out[i].data, out[i].len, (const void *)in[src].data,
              in[src].len);
    }
  }
  CHECK(ok);
  CHECK(memcmp(before, in, sizeof in) == 0);

  /* Through the generic reference too (views are 16-byte elements), strided. */
  static const int64_t s2[] = {2}, st[] = {2}, s32[] = {3, 2};
  expect_expand(TCAST_DTYPE_STRING, in, sizeof in, s2, 1, st, s32, 2, "STRING strided");
}

/* Packed types: the input codes packed here, the output compared with the reference
   expansion of the codes, packed here; the output buffer starts all 0xFF (then canary). */
static void expect_packed(tcast_dtype dtype, int bits, const uint8_t *codes,
                          const int64_t *in_dims, int in_n, const int64_t *out_dims, int out_n,
                          const char *what) {
  size_t n_in = (size_t)product(in_dims, in_n);
  size_t n_out = (size_t)product(out_dims, out_n);
  uint64_t in_bytes = 0, out_bytes = 0;
  CHECK_STATUS(tcast_tensor_bytes(dtype, in_dims, in_n, &in_bytes, TC_ERR), TCAST_OK);
  CHECK_STATUS(tcast_tensor_bytes(dtype, out_dims, out_n, &out_bytes, TC_ERR), TCAST_OK);
  CHECK_EQ_INT(in_bytes, (n_in * (size_t)bits + 7) / 8);
  CHECK_EQ_INT(out_bytes, (n_out * (size_t)bits + 7) / 8);
  unsigned char *in = xmalloc(in_bytes);
  pack_bits(codes, n_in, bits, in, in_bytes);
  uint8_t *want_codes = xmalloc(n_out);
  reference_expand(codes, 1, in_dims, in_n, NULL, out_dims, out_n, want_codes);
  unsigned char *want = xmalloc(out_bytes);
  pack_bits(want_codes, n_out, bits, want, out_bytes);
  unsigned char *out = canary_buffer(out_bytes);
  memset(out, 0xFF, out_bytes);

  tcast_tensor ti = tensor(in, in_bytes, in_dims, in_n, dtype);
  tcast_tensor to = tensor(out, out_bytes, out_dims, out_n, dtype);
  tc_reset_err();
  tc_check_status(tcast_expand(&ti, &to, TC_ERR), TCAST_OK, what, __FILE__, __LINE__);
  int same = memcmp(out, want, out_bytes) == 0;
  CHECK_MSG(same, "%s %s: packed output differs", tcast_dtype_name(dtype), what);
  if (!same) {
    for (size_t i = 0; i < out_bytes; i++) {
      if (out[i] != want[i]) {
        fprintf(stderr, "  byte %zu: 0x%02x, expected 0x%02x\n", i, out[i], want[i]);
      }
    }
  }
  /* The unused high bits of the last byte are 0. */
  size_t used_bits = n_out * (size_t)bits % 8;
  if (used_bits != 0) {
    CHECK_MSG((out[out_bytes - 1] >> used_bits) == 0,
              "%s %s: unused high bits of the last byte are 0x%02x", tcast_dtype_name(dtype),
              what, out[out_bytes - 1]);
  }
  CHECK_MSG(canary_intact(out, out_bytes, out_bytes + CANARY_BYTES),
            "%s %s: written past the output", tcast_dtype_name(dtype), what);
  free(in);
  free(want_codes);
  free(want);
  free(out);
}

static void test_packed(void) {
  static const uint8_t codes4[] = {0x1, 0xF, 0x8, 0x7, 0x0, 0xA, 0x3, 0xC, 0x5};
  static const uint8_t codes6[] = {0x01, 0x3F, 0x20, 0x15, 0x2A, 0x00, 0x1F, 0x30, 0x0C};
  static const int64_t s31[] = {3, 1}, s35[] = {3, 5};
  static const int64_t s13[] = {1, 3}, s53[] = {5, 3};
  static const int64_t s3[] = {3}, s33[] = {3, 3}, s1[] = {1}, s7[] = {7};
  static const int64_t s311[] = {3, 1, 1}, s2_3_3_5[] = {2, 3, 3, 5};
  static const int64_t s1_9[] = {1, 9}, s3_9[] = {3, 9}, s19[] = {1, 9};
  static const struct {
    tcast_dtype dtype;
    int bits;
    const uint8_t *codes;
  } types[] = {
      {TCAST_DTYPE_INT4, 4, codes4},
      {TCAST_DTYPE_UINT4, 4, codes4},
      {TCAST_DTYPE_FLOAT4E2M1, 4, codes4},
      {TCAST_DTYPE_FLOAT6E2M3, 6, codes6},
      {TCAST_DTYPE_FLOAT6E3M2, 6, codes6},
  };
  for (size_t t = 0; t < COUNT_OF(types); t++) {
    tcast_dtype dt = types[t].dtype;
    int bits = types[t].bits;
    const uint8_t *c = types[t].codes;
    expect_packed(dt, bits, c, s31, 2, s35, 2, "[3,1] -> [3,5]");
    expect_packed(dt, bits, c, s13, 2, s53, 2, "[1,3] -> [5,3]");
    expect_packed(dt, bits, c, s3, 1, s33, 2, "[3] -> [3,3]");
    expect_packed(dt, bits, c, s1, 1, s7, 1, "[1] -> [7]");
    expect_packed(dt, bits, c, NULL, 0, s7, 1, "[] -> [7]");
    expect_packed(dt, bits, c, s311, 3, s2_3_3_5, 4, "[3,1,1] -> [2,3,3,5]");
    expect_packed(dt, bits, c, s1_9, 2, s3_9, 2, "[1,9] -> [3,9]");
    expect_packed(dt, bits, c, s19, 2, s19, 2, "[1,9] -> [1,9]");
  }
  /* INT2 / UINT2 too (four per byte). */
  static const uint8_t codes2[] = {1, 3, 2, 0, 3};
  static const int64_t s5[] = {5}, s35b[] = {3, 5}, s51[] = {5, 1}, s57[] = {5, 7};
  expect_packed(TCAST_DTYPE_INT2, 2, codes2, s5, 1, s35b, 2, "[5] -> [3,5]");
  expect_packed(TCAST_DTYPE_UINT2, 2, codes2, s51, 2, s57, 2, "[5,1] -> [5,7]");
}

static void test_strided(void) {
  /* m is a 3x4 int32 matrix 0..11. */
  int32_t m[12];
  for (int i = 0; i < 12; i++) {
    m[i] = 100 + i;
  }
  /* Its transpose, [4,3] with strides [1,4], expanded to [2,4,3]. */
  static const int64_t t_dims[] = {4, 3}, t_str[] = {1, 4}, t_out[] = {2, 4, 3};
  expect_expand(TCAST_DTYPE_INT32, m, sizeof m, t_dims, 2, t_str, t_out, 3,
                "transposed [4,3]");
  {
    /* Typed check of the transpose: out[k][i][j] = m[j][i]. */
    int32_t out[24];
    tcast_tensor ti = tensor(m, sizeof m, t_dims, 2, TCAST_DTYPE_INT32);
    ti.strides = t_str;
    tcast_tensor to = tensor(out, sizeof out, t_out, 3, TCAST_DTYPE_INT32);
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_OK);
    int ok = 1;
    for (int k = 0; k < 2; k++) {
      for (int i = 0; i < 4; i++) {
        for (int j = 0; j < 3; j++) {
          ok &= out[k * 12 + i * 3 + j] == m[j * 4 + i];
        }
      }
    }
    CHECK(ok);
  }
  /* A transposed column: the transpose's [4,1] slice (strides [1,4]) to [4,6]. */
  static const int64_t c_dims[] = {4, 1}, c_out[] = {4, 6};
  expect_expand(TCAST_DTYPE_INT32, m, sizeof m, c_dims, 2, t_str, c_out, 2,
                "transposed column");
  /* Every other column: [3,2] with strides [4,2], to [2,3,2]. */
  static const int64_t p_dims[] = {3, 2}, p_str[] = {4, 2}, p_out[] = {2, 3, 2};
  expect_expand(TCAST_DTYPE_INT32, m, sizeof m, p_dims, 2, p_str, p_out, 3,
                "every other column");
  /* Stride 0: one row repeated as [3,4] (strides [0,1]), expanded to [2,3,4]. */
  static const int64_t z_dims[] = {3, 4}, z_str[] = {0, 1}, z_out[] = {2, 3, 4};
  expect_expand(TCAST_DTYPE_INT32, m, 4 * sizeof(int32_t), z_dims, 2, z_str, z_out, 3,
                "stride 0 rows");
  /* Stride 0 on the inner axis: [3,4] strides [4,0], every row one value. */
  static const int64_t zi_str[] = {4, 0};
  expect_expand(TCAST_DTYPE_INT32, m, sizeof m, z_dims, 2, zi_str, z_out, 3,
                "stride 0 columns");
  /* All strides 0: one element seen as [3,4]. */
  static const int64_t za_str[] = {0, 0};
  expect_expand(TCAST_DTYPE_INT32, m + 5, sizeof(int32_t), z_dims, 2, za_str, z_out, 3,
                "all strides 0");
  /* An extent-1 axis with an arbitrary stride. */
  static const int64_t o_dims[] = {3, 1}, o_str[] = {4, 7}, o_out[] = {3, 5};
  expect_expand(TCAST_DTYPE_INT32, m, sizeof m, o_dims, 2, o_str, o_out, 2,
                "extent-1 axis with stride 7");
  /* A strided input of 16-byte and 2-byte elements. */
  {
    double c[16];
    for (int i = 0; i < 16; i++) {
      c[i] = i;
    }
    static const int64_t d[] = {2, 2}, s[] = {1, 4}, o[] = {3, 2, 2};
    expect_expand(TCAST_DTYPE_COMPLEX128, c, sizeof c, d, 2, s, o, 3, "complex transposed");
    uint16_t h[12];
    for (int i = 0; i < 12; i++) {
      h[i] = (uint16_t)(0x3c00 + i);
    }
    static const int64_t hd[] = {2, 1, 3}, hs[] = {1, 1, 4}, ho[] = {2, 5, 3};
    expect_expand(TCAST_DTYPE_FLOAT16, h, sizeof h, hd, 3, hs, ho, 3, "float16 strided");
  }
  /* The input's data_bytes only needs to cover the span of the strided elements. */
  {
    static const int64_t d[] = {2}, s[] = {3}, o[] = {2, 2};
    int8_t b[4] = {1, 2, 3, 4}, out[4];
    tcast_tensor ti = tensor(b, 4, d, 1, TCAST_DTYPE_INT8);
    ti.strides = s;
    tcast_tensor to = tensor(out, 4, o, 2, TCAST_DTYPE_INT8);
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_OK);
    CHECK(out[0] == 1 && out[1] == 4 && out[2] == 1 && out[3] == 4);
    ti.data_bytes = 3;
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_ERR_BUFFER_TOO_SMALL);
  }
}

static void test_empty(void) {
  static const int64_t in01[] = {0, 1}, out05[] = {0, 5}, in1[] = {1}, out0[] = {0};
  static const int64_t in30[] = {3, 0}, out230[] = {2, 3, 0};
  unsigned char *out = canary_buffer(16);
  float one = 1.0f;

  /* [0,1] -> [0,5]: success, nothing written (with a NULL input, and with data). */
  tcast_tensor ti = tensor(NULL, 0, in01, 2, TCAST_DTYPE_FLOAT);
  tcast_tensor to = tensor(out, 16, out05, 2, TCAST_DTYPE_FLOAT);
  CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_OK);
  CHECK(canary_intact(out, 0, 16 + CANARY_BYTES));
  ti.data = &one;
  ti.data_bytes = sizeof one;
  to.data_bytes = 0;
  CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_OK);
  CHECK(canary_intact(out, 0, 16 + CANARY_BYTES));
  /* A NULL output buffer is fine for an empty output. */
  to.data = NULL;
  CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_OK);

  /* [1] -> [0]: a non-empty input, an empty output. */
  ti = tensor(&one, sizeof one, in1, 1, TCAST_DTYPE_FLOAT);
  to = tensor(out, 16, out0, 1, TCAST_DTYPE_FLOAT);
  CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_OK);
  CHECK(canary_intact(out, 0, 16 + CANARY_BYTES));

  /* [3,0] -> [2,3,0], packed and STRING alike. */
  ti = tensor(NULL, 0, in30, 2, TCAST_DTYPE_INT4);
  to = tensor(out, 16, out230, 3, TCAST_DTYPE_INT4);
  CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_OK);
  ti.dtype = to.dtype = TCAST_DTYPE_STRING;
  CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_OK);
  CHECK(canary_intact(out, 0, 16 + CANARY_BYTES));

  /* [0,1] -> [3,4] is not a broadcast. */
  static const int64_t out34[] = {3, 4};
  ti = tensor(NULL, 0, in01, 2, TCAST_DTYPE_FLOAT);
  float big[12];
  to = tensor(big, sizeof big, out34, 2, TCAST_DTYPE_FLOAT);
  CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_ERR_INCOMPATIBLE_SHAPES);
  free(out);
}

static void test_expand_errors(void) {
  static const int64_t s31[] = {3, 1}, s34[] = {3, 4}, s13[] = {1, 3}, s3[] = {3};
  static const int64_t s314[] = {3, 1, 4}, s2[] = {2};
  static const float in[3] = {1, 2, 3};
  float out[12];

  /* The output shape is not the broadcast of the two. */
  {
    const int64_t *bad[] = {s13, s3, s314};
    const int32_t bad_n[] = {2, 1, 3};
    const char *bad_text[] = {"[1,3]", "[3]", "[3,1,4]"};
    for (int i = 0; i < 3; i++) {
      unsigned char *o = canary_buffer(64);
      tcast_tensor ti = tensor(in, sizeof in, s31, 2, TCAST_DTYPE_FLOAT);
      tcast_tensor to = tensor(o, 64, bad[i], bad_n[i], TCAST_DTYPE_FLOAT);
      CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_ERR_INVALID_SHAPE);
      CHECK_MSG_CONTAINS(TC_ERR, bad_text[i]);
      CHECK_MSG_CONTAINS(TC_ERR, "[3,1]");
      free(o);
    }
  }

  /* Output dtype != input dtype: both named. */
  {
    tcast_tensor ti = tensor(in, sizeof in, s31, 2, TCAST_DTYPE_FLOAT);
    tcast_tensor to = tensor(out, sizeof out, s34, 2, TCAST_DTYPE_INT32);
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
    CHECK_MSG_CONTAINS(TC_ERR, "FLOAT");
    CHECK_MSG_CONTAINS(TC_ERR, "INT32");
    to.dtype = TCAST_DTYPE_DOUBLE;
    double dout[12];
    to.data = dout;
    to.data_bytes = sizeof dout;
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
    CHECK_MSG_CONTAINS(TC_ERR, "DOUBLE");
  }

  /* Incompatible shapes: [2] into [3]. */
  {
    tcast_tensor ti = tensor(in, 2 * sizeof(float), s2, 1, TCAST_DTYPE_FLOAT);
    tcast_tensor to = tensor(out, 3 * sizeof(float), s3, 1, TCAST_DTYPE_FLOAT);
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_ERR_INCOMPATIBLE_SHAPES);
    CHECK_MSG_CONTAINS(TC_ERR, "[2]");
    CHECK_MSG_CONTAINS(TC_ERR, "[3]");
  }

  /* A short output buffer: nothing written past it (nor into it, here). */
  {
    unsigned char *o = canary_buffer(47);
    tcast_tensor ti = tensor(in, sizeof in, s31, 2, TCAST_DTYPE_FLOAT);
    tcast_tensor to = tensor(o, 47, s34, 2, TCAST_DTYPE_FLOAT);
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_ERR_BUFFER_TOO_SMALL);
    CHECK_MSG_CONTAINS(TC_ERR, "47");
    CHECK_MSG_CONTAINS(TC_ERR, "48");
    CHECK(canary_intact(o, 47, 47 + CANARY_BYTES));
    to.data_bytes = 0;
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_ERR_BUFFER_TOO_SMALL);
    CHECK(canary_intact(o, 0, 47 + CANARY_BYTES));
    free(o);
    /* A short packed output (15 INT4 need 8 bytes). */
    static const int64_t s35[] = {3, 5};
    uint8_t p[2] = {0x21, 0x03};
    o = canary_buffer(7);
    ti = tensor(p, 2, s31, 2, TCAST_DTYPE_INT4);
    to = tensor(o, 7, s35, 2, TCAST_DTYPE_INT4);
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_ERR_BUFFER_TOO_SMALL);
    CHECK(canary_intact(o, 7, 7 + CANARY_BYTES));
    free(o);
  }

  /* A short input buffer. */
  {
    tcast_tensor ti = tensor(in, sizeof in - 1, s31, 2, TCAST_DTYPE_FLOAT);
    tcast_tensor to = tensor(out, sizeof out, s34, 2, TCAST_DTYPE_FLOAT);
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_ERR_BUFFER_TOO_SMALL);
    CHECK_MSG_CONTAINS(TC_ERR, "input");
  }

  /* Overlapping buffers: the same buffer, and a partial overlap. */
  {
    float buf[16] = {1, 2, 3};
    tcast_tensor ti = tensor(buf, 3 * sizeof(float), s31, 2, TCAST_DTYPE_FLOAT);
    tcast_tensor to = tensor(buf, 12 * sizeof(float), s34, 2, TCAST_DTYPE_FLOAT);
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
    CHECK_MSG_CONTAINS(TC_ERR, "overlap");
    to.data = buf + 2;
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
    ti.data = buf + 11;
    to.data = buf;
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
    /* Adjacent is fine. */
    ti.data = buf + 12;
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_OK);
    /* A strided input whose span reaches into the output. */
    static const int64_t s2b[] = {2}, st[] = {5}, o2[] = {3, 2};
    ti = tensor(buf, 16 * sizeof(float), s2b, 1, TCAST_DTYPE_FLOAT);
    ti.strides = st;
    to = tensor(buf + 4, 6 * sizeof(float), o2, 2, TCAST_DTYPE_FLOAT);
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
  }

  /* NULLs. */
  {
    tcast_tensor ti = tensor(in, sizeof in, s31, 2, TCAST_DTYPE_FLOAT);
    tcast_tensor to = tensor(out, sizeof out, s34, 2, TCAST_DTYPE_FLOAT);
    CHECK_STATUS(tcast_expand(NULL, &to, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
    CHECK_MSG_CONTAINS(TC_ERR, "input");
    CHECK_STATUS(tcast_expand(&ti, NULL, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
    CHECK_MSG_CONTAINS(TC_ERR, "output");
    CHECK_STATUS(tcast_expand(NULL, NULL, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(tcast_expand(NULL, NULL, NULL), TCAST_ERR_NULL_ARGUMENT);
    ti.data = NULL;
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
    CHECK_MSG_CONTAINS(TC_ERR, "input data");
    ti.data = TCAST_CONST_DATA(in);
    to.data = NULL;
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
    CHECK_MSG_CONTAINS(TC_ERR, "output data");
    to.data = out;
    ti.shape = NULL;
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
    ti.shape = s31;
    to.shape = NULL;
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
  }

  /* Bad descriptors: unknown dtype, negative extent, rank above the limit, output
     strides, strides on a packed input. */
  {
    tcast_tensor ti = tensor(in, sizeof in, s31, 2, 77);
    tcast_tensor to = tensor(out, sizeof out, s34, 2, 77);
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_ERR_INVALID_DTYPE);
    ti.dtype = TCAST_DTYPE_FLOAT;
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_ERR_INVALID_DTYPE);
    to.dtype = TCAST_DTYPE_FLOAT;

    static const int64_t neg[] = {3, -4};
    to.shape = neg;
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_ERR_INVALID_SHAPE);
    CHECK_MSG_CONTAINS(TC_ERR, "-4");
    to.shape = s34;

    int64_t ones[TCAST_MAX_NDIM + 1];
    for (int i = 0; i <= TCAST_MAX_NDIM; i++) {
      ones[i] = 1;
    }
    to.shape = ones;
    to.ndim = TCAST_MAX_NDIM + 1;
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_ERR_INVALID_SHAPE);
    /* Rank exactly TCAST_MAX_NDIM works. */
    to.ndim = TCAST_MAX_NDIM;
    ti = tensor(in, sizeof(float), NULL, 0, TCAST_DTYPE_FLOAT);
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_OK);
    CHECK(out[0] == 1.0f);
    ti = tensor(in, sizeof in, s31, 2, TCAST_DTYPE_FLOAT);
    to = tensor(out, sizeof out, s34, 2, TCAST_DTYPE_FLOAT);

    static const int64_t ostr[] = {1, 3};
    to.strides = ostr;
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_ERR_INVALID_SHAPE);
    to.strides = NULL;

    static const int64_t pstr[] = {1, 1};
    uint8_t p[2] = {0x21, 0x03};
    uint8_t po[8];
    static const int64_t s35[] = {3, 5};
    ti = tensor(p, 2, s31, 2, TCAST_DTYPE_INT4);
    ti.strides = pstr;
    to = tensor(po, 8, s35, 2, TCAST_DTYPE_INT4);
    CHECK_STATUS(tcast_expand(&ti, &to, TC_ERR), TCAST_ERR_INVALID_SHAPE);
  }
}

int main(void) {
  test_shape_examples();
  test_shape_errors();
  test_onnx_vectors();
  test_every_width();
  test_larger();
  test_strings();
  test_packed();
  test_strided();
  test_empty();
  test_expand_errors();
  return tc_summary();
}
