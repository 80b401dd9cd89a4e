/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * What tcast_cast computes (docs/semantics-cast.md sections 1-3): the documented examples,
 * exhaustive and random comparisons with exact reference conversions written here,
 * strided inputs, threads, empty tensors and scalars.
 */
#include <math.h> /* isnan only: no libm needed */
#include <stdlib.h>

#include "tc_check.h"
#include "tc_util.h"

/* Each example also runs replicated this many times, so that vector kernels see it. */
#define REPLICAS 67

/* ---------------------------------------------------------------- random values */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rng_next(void) { return xorshift64star(&rng_state); }

typedef struct {
  float re, im;
} c64;
typedef struct {
  double re, im;
} c128;

/* ---------------------------------------------------------------- running casts */

/* Casts through tc_cast_checked (see tc_util.h) with default options and `threads`. */
static int cast_n(tcast_dtype from, const void *src, tcast_dtype to, void *dst, int64_t n,
                  int32_t threads, int line) {
  tcast_cast_options options;
  tcast_cast_options_init(&options, sizeof options);
  options.threads = threads;
  return tc_cast_checked(from, src, to, dst, n, &options, line);
}

static void hex_bytes(char *buf, const void *p, size_t n) {
  const unsigned char *b = p;
  /* The most significant byte first, as a number. */
  for (size_t i = 0; i < n; i++) {
    sprintf(buf + 2 * i, "%02x", b[tc_big_endian() ? i : n - 1 - i]);
  }
}

/*
 * One element `src` of `from` must become exactly the bytes `expected` of `to`: alone,
 * and as every element of a REPLICAS-long vector.
 */
static void expect_cast(tcast_dtype from, const void *src, tcast_dtype to,
                        const void *expected, const char *what, int line) {
  size_t es = dtype_size(from), ds = dtype_size(to);
  unsigned char got[16];
  unsigned char *many_src = xmalloc(REPLICAS * es);
  unsigned char *many_dst = xmalloc(REPLICAS * ds);
  for (int i = 0; i < REPLICAS; i++) {
    memcpy(many_src + i * es, src, es);
  }
  if (cast_n(from, src, to, got, 1, 0, line)) {
    if (memcmp(got, expected, ds) == 0) {
      tc_pass();
    } else {
      char g[40], e[40], s[40];
      hex_bytes(g, got, ds);
      hex_bytes(e, expected, ds);
      hex_bytes(s, src, es);
      tc_fail(__FILE__, line, "%s: %s 0x%s -> %s gave 0x%s, expected 0x%s", what,
              tcast_dtype_name(from), s, tcast_dtype_name(to), g, e);
    }
  }
  if (cast_n(from, many_src, to, many_dst, REPLICAS, 0, line)) {
    int same = 1;
    for (int i = 0; i < REPLICAS; i++) {
      same &= memcmp(many_dst + i * ds, expected, ds) == 0;
    }
    CHECK_MSG(same, "line %d: %s: replicated %s -> %s differs from the expected value", line,
              what, tcast_dtype_name(from), tcast_dtype_name(to));
  }
  free(many_src);
  free(many_dst);
}

#define EXPECT(from, ctype_in, value_in, to, ctype_out, value_out)                          \
  do {                                                                                      \
    ctype_in in_ = (value_in);                                                              \
    ctype_out out_ = (value_out);                                                           \
    expect_cast((from), &in_, (to), &out_, #value_in " -> " #value_out, __LINE__);          \
  } while (0)

/* Float16 / bfloat16 / float32 / float64 given by bit pattern. */
#define F32B(bits) f32_from(bits)
#define F64B(bits) f64_from(bits)

/* ---------------------------------------------------------------- exact references */

/*
 * Rounds (-1)^sign * s * 2^(e - (sbits - 1)), with s normalised (bit sbits-1 set), to the
 * IEEE-style binary format with E exponent bits and M mantissa bits: to nearest, ties to
 * even, gradual underflow, overflow to infinity. Returns the bit pattern.
 */
static uint64_t ref_round(int sign, int e, uint64_t s, int sbits, int E, int M) {
  const int bias = (1 << (E - 1)) - 1;
  const int emin = 1 - bias, emax = bias;
  const uint64_t sign_bit = (uint64_t)sign << (E + M);
  if (e > emax) {
    return sign_bit | ((uint64_t)((1 << E) - 1) << M);
  }
  int shift = sbits - 1 - M;
  if (e < emin) {
    shift += emin - e;
  }
  uint64_t q;
  if (shift >= 64) {
    q = 0; /* below half the smallest subnormal */
  } else if (shift <= 0) {
    q = s << -shift;
  } else {
    uint64_t rem = s & ((UINT64_C(1) << shift) - 1), half = UINT64_C(1) << (shift - 1);
    q = s >> shift;
    if (rem > half || (rem == half && (q & 1))) {
      q++;
    }
  }
  if (e >= emin) {
    /* A carry out of the mantissa steps the exponent, up to infinity: still right. */
    return sign_bit | (((uint64_t)(e + bias) << M) + q - (UINT64_C(1) << M));
  }
  return sign_bit | q; /* q == 2^M is the smallest normal: also right */
}

/* Splits a finite nonzero value of a binary format into sign, exponent, normalised s. */
static void split(uint64_t bits, int E, int M, int *sign, int *e, uint64_t *s) {
  const int bias = (1 << (E - 1)) - 1;
  uint64_t exp = (bits >> M) & ((UINT64_C(1) << E) - 1);
  *sign = (int)((bits >> (E + M)) & 1);
  *s = bits & ((UINT64_C(1) << M) - 1);
  if (exp == 0) {
    *e = 1 - bias;
    while (!(*s & (UINT64_C(1) << M))) {
      *s <<= 1;
      (*e)--;
    }
  } else {
    *e = (int)exp - bias;
    *s |= UINT64_C(1) << M;
  }
}

typedef struct {
  tcast_dtype dtype;
  int E, M;
} float_format;

static const float_format FMT_F16 = {TCAST_DTYPE_FLOAT16, 5, 10};
static const float_format FMT_BF16 = {TCAST_DTYPE_BFLOAT16, 8, 7};
static const float_format FMT_F32 = {TCAST_DTYPE_FLOAT, 8, 23};
static const float_format FMT_F64 = {TCAST_DTYPE_DOUBLE, 11, 52};

static uint64_t fmt_exp_mask(float_format f) {
  return ((UINT64_C(1) << f.E) - 1) << f.M;
}

static int fmt_is_nan(float_format f, uint64_t bits) {
  return (bits & fmt_exp_mask(f)) == fmt_exp_mask(f) && (bits & ((UINT64_C(1) << f.M) - 1));
}

static int fmt_sign(float_format f, uint64_t bits) { return (int)((bits >> (f.E + f.M)) & 1); }

/* The exact conversion of a non-NaN value from one float format to another. */
static uint64_t ref_convert(float_format from, uint64_t bits, float_format to) {
  int sign = fmt_sign(from, bits);
  uint64_t magnitude = bits & ~(UINT64_C(1) << (from.E + from.M));
  if (magnitude == 0) {
    return (uint64_t)sign << (to.E + to.M);
  }
  if ((magnitude & fmt_exp_mask(from)) == fmt_exp_mask(from)) {
    return ((uint64_t)sign << (to.E + to.M)) | fmt_exp_mask(to); /* infinity */
  }
  int e;
  uint64_t s;
  split(bits, from.E, from.M, &sign, &e, &s);
  return ref_round(sign, e, s, from.M + 1, to.E, to.M);
}

/* The exact conversion of an integer (given as sign and magnitude) to a float format. */
static uint64_t ref_from_int(int negative, uint64_t magnitude, float_format to) {
  if (magnitude == 0) {
    return 0;
  }
  int top = 63;
  while (!(magnitude >> top)) {
    top--;
  }
  return ref_round(negative, top, magnitude, top + 1, to.E, to.M);
}

/*
 * Checks `got` (the library's conversion of `src` from `from` to `to`), element by
 * element, against ref_convert; NaN must stay NaN with its sign and become quiet.
 */
static void compare_float_conversions(float_format from, const void *src, float_format to,
                                      const void *got, size_t n, const char *what, int line) {
  size_t fs = (size_t)(from.E + from.M + 1) / 8, ts = (size_t)(to.E + to.M + 1) / 8;
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t x = tc_load_bits((const unsigned char *)src + i * fs, fs);
    uint64_t y = tc_load_bits((const unsigned char *)got + i * ts, ts);
    int ok;
    if (fmt_is_nan(from, x)) {
      ok = fmt_is_nan(to, y) && fmt_sign(to, y) == fmt_sign(from, x) &&
           (y & (UINT64_C(1) << (to.M - 1)));
    } else {
      ok = y == ref_convert(from, x, to);
    }
    if (!ok && ++bad <= 10) {
      tc_fail(__FILE__, line,
              "%s: element %zu: %s 0x%" PRIx64 " -> %s gave 0x%" PRIx64 ", expected 0x%" PRIx64,
              what, i, tcast_dtype_name(from.dtype), x, tcast_dtype_name(to.dtype), y,
              fmt_is_nan(from, x) ? UINT64_C(0) : ref_convert(from, x, to));
    }
  }
  if (bad == 0) {
    tc_pass();
  } else if (bad > 10) {
    tc_fail(__FILE__, line, "%s: %zu of %zu elements wrong", what, bad, n);
  }
}

/* ---------------------------------------------------------------- section 2 examples */

static void test_float_narrowing_examples(void) {
  /* Round once from the exact f64 value, never through f32. */
  EXPECT(TCAST_DTYPE_DOUBLE, double, 1.00048828125 + 1e-12, TCAST_DTYPE_FLOAT16, uint16_t,
         0x3c01);
  EXPECT(TCAST_DTYPE_DOUBLE, double, 65519.99999, TCAST_DTYPE_FLOAT16, uint16_t, 0x7bff);
  EXPECT(TCAST_DTYPE_DOUBLE, double, 1.00048828125, TCAST_DTYPE_FLOAT16, uint16_t, 0x3c00);
  EXPECT(TCAST_DTYPE_DOUBLE, double, 1.00146484375, TCAST_DTYPE_FLOAT16, uint16_t, 0x3c02);
  EXPECT(TCAST_DTYPE_DOUBLE, double, 65520.0, TCAST_DTYPE_FLOAT16, uint16_t, 0x7c00);
  EXPECT(TCAST_DTYPE_DOUBLE, double, -65520.0, TCAST_DTYPE_FLOAT16, uint16_t, 0xfc00);
  EXPECT(TCAST_DTYPE_DOUBLE, double, 1e300, TCAST_DTYPE_FLOAT16, uint16_t, 0x7c00);
  EXPECT(TCAST_DTYPE_DOUBLE, double, -0.0, TCAST_DTYPE_FLOAT16, uint16_t, 0x8000);
  EXPECT(TCAST_DTYPE_DOUBLE, double, 0x1p-24, TCAST_DTYPE_FLOAT16, uint16_t, 0x0001);
  EXPECT(TCAST_DTYPE_DOUBLE, double, 0x1p-25, TCAST_DTYPE_FLOAT16, uint16_t, 0x0000);
  EXPECT(TCAST_DTYPE_DOUBLE, double, 0x1p-25 + 0x1p-60, TCAST_DTYPE_FLOAT16,
         uint16_t, 0x0001);
  EXPECT(TCAST_DTYPE_DOUBLE, double, F64B(0x7ff8000000000000ull), TCAST_DTYPE_FLOAT16,
         uint16_t, 0x7e00);
  EXPECT(TCAST_DTYPE_DOUBLE, double, F64B(0xfff8000000000000ull), TCAST_DTYPE_FLOAT16,
         uint16_t, 0xfe00);
  /* 1 + 2^-8 + 2^-30 is above the bfloat16 tie; through f32 it would be the tie. */
  EXPECT(TCAST_DTYPE_DOUBLE, double, 1.0 + 0x1p-8 + 0x1p-30, TCAST_DTYPE_BFLOAT16,
         uint16_t, 0x3f81);
  EXPECT(TCAST_DTYPE_DOUBLE, double, 1.0 + 0x1p-8, TCAST_DTYPE_BFLOAT16, uint16_t,
         0x3f80);
  EXPECT(TCAST_DTYPE_DOUBLE, double, F64B(0x7ff8000000000000ull), TCAST_DTYPE_BFLOAT16,
         uint16_t, 0x7fc0);
  EXPECT(TCAST_DTYPE_DOUBLE, double, 1e300, TCAST_DTYPE_BFLOAT16, uint16_t, 0x7f80);
  EXPECT(TCAST_DTYPE_DOUBLE, double, 1e300, TCAST_DTYPE_FLOAT, uint32_t, 0x7f800000);
  EXPECT(TCAST_DTYPE_DOUBLE, double, 0.1, TCAST_DTYPE_FLOAT, uint32_t, 0x3dcccccd);

  /* f32 -> bf16 rounds to nearest even; it never truncates. */
  EXPECT(TCAST_DTYPE_FLOAT, float, F32B(0x3f808000), TCAST_DTYPE_BFLOAT16, uint16_t, 0x3f80);
  EXPECT(TCAST_DTYPE_FLOAT, float, F32B(0x3f818000), TCAST_DTYPE_BFLOAT16, uint16_t, 0x3f82);
  EXPECT(TCAST_DTYPE_FLOAT, float, F32B(0x7f7fffff), TCAST_DTYPE_BFLOAT16, uint16_t, 0x7f80);
  EXPECT(TCAST_DTYPE_FLOAT, float, F32B(0xff7fffff), TCAST_DTYPE_BFLOAT16, uint16_t, 0xff80);
  EXPECT(TCAST_DTYPE_FLOAT, float, F32B(0x3f808001), TCAST_DTYPE_BFLOAT16, uint16_t, 0x3f81);
  EXPECT(TCAST_DTYPE_FLOAT, float, F32B(0x3f80ffff), TCAST_DTYPE_BFLOAT16, uint16_t, 0x3f81);
  EXPECT(TCAST_DTYPE_FLOAT, float, F32B(0x00018000), TCAST_DTYPE_BFLOAT16, uint16_t, 0x0002);

  /* NaN keeps its sign and becomes quiet. */
  EXPECT(TCAST_DTYPE_FLOAT, float, F32B(0x7fc00000), TCAST_DTYPE_FLOAT16, uint16_t, 0x7e00);
  EXPECT(TCAST_DTYPE_FLOAT, float, F32B(0xffc00000), TCAST_DTYPE_FLOAT16, uint16_t, 0xfe00);
  EXPECT(TCAST_DTYPE_FLOAT, float, F32B(0x7fc00000), TCAST_DTYPE_BFLOAT16, uint16_t, 0x7fc0);
  EXPECT(TCAST_DTYPE_FLOAT, float, F32B(0xffc00000), TCAST_DTYPE_BFLOAT16, uint16_t, 0xffc0);
  {
    /* A signalling NaN: any quiet NaN of the same sign will do. */
    const uint32_t snans[] = {0x7f800001, 0xff800001, 0x7fa00000};
    for (size_t i = 0; i < sizeof snans / sizeof snans[0]; i++) {
      uint16_t h = 0, b = 0;
      float x = f32_from(snans[i]);
      if (cast_n(TCAST_DTYPE_FLOAT, &x, TCAST_DTYPE_FLOAT16, &h, 1, 0, __LINE__)) {
        CHECK_MSG((h & 0x7e00) == 0x7e00 && (h >> 15) == (snans[i] >> 31),
                  "sNaN 0x%08x -> f16 0x%04x is not a quiet NaN of that sign", snans[i], h);
      }
      if (cast_n(TCAST_DTYPE_FLOAT, &x, TCAST_DTYPE_BFLOAT16, &b, 1, 0, __LINE__)) {
        CHECK_MSG((b & 0x7fc0) == 0x7fc0 && (b >> 15) == (snans[i] >> 31),
                  "sNaN 0x%08x -> bf16 0x%04x is not a quiet NaN of that sign", snans[i], b);
      }
    }
  }

  /* Subnormals are kept on both sides. */
  EXPECT(TCAST_DTYPE_FLOAT, float, 0x1p-24f, TCAST_DTYPE_FLOAT16, uint16_t, 0x0001);
  EXPECT(TCAST_DTYPE_FLOAT, float, -0x1p-24f, TCAST_DTYPE_FLOAT16, uint16_t, 0x8001);
  EXPECT(TCAST_DTYPE_FLOAT, float, 0x3p-26f, TCAST_DTYPE_FLOAT16, uint16_t, 0x0001);
  EXPECT(TCAST_DTYPE_FLOAT, float, 0x1p-15f, TCAST_DTYPE_FLOAT16, uint16_t, 0x0200);
  EXPECT(TCAST_DTYPE_FLOAT, float, 1e-8f, TCAST_DTYPE_FLOAT16, uint16_t, 0x0000);
  EXPECT(TCAST_DTYPE_FLOAT16, uint16_t, 0x0001, TCAST_DTYPE_FLOAT, uint32_t, 0x33800000);
  EXPECT(TCAST_DTYPE_FLOAT16, uint16_t, 0x83ff, TCAST_DTYPE_DOUBLE, uint64_t,
         f64_bits(-0x3ffp-24));
  EXPECT(TCAST_DTYPE_FLOAT, float, F32B(0x00000001), TCAST_DTYPE_DOUBLE, uint64_t,
         f64_bits(0x1p-149));
  EXPECT(TCAST_DTYPE_BFLOAT16, uint16_t, 0x0001, TCAST_DTYPE_FLOAT, uint32_t, 0x00010000);

  EXPECT(TCAST_DTYPE_FLOAT, float, 65504.0f, TCAST_DTYPE_FLOAT16, uint16_t, 0x7bff);
  EXPECT(TCAST_DTYPE_FLOAT, float, 65520.0f, TCAST_DTYPE_FLOAT16, uint16_t, 0x7c00);
  EXPECT(TCAST_DTYPE_FLOAT, float, F32B(0xff800000), TCAST_DTYPE_FLOAT16, uint16_t, 0xfc00);
  EXPECT(TCAST_DTYPE_FLOAT16, uint16_t, 0x7c00, TCAST_DTYPE_BFLOAT16, uint16_t, 0x7f80);
  EXPECT(TCAST_DTYPE_BFLOAT16, uint16_t, 0x4780, TCAST_DTYPE_FLOAT16, uint16_t, 0x7c00);
}

static void test_integer_to_float_examples(void) {
  EXPECT(TCAST_DTYPE_INT64, int64_t, (INT64_C(1) << 24) + 1, TCAST_DTYPE_FLOAT, float,
         16777216.0f);
  EXPECT(TCAST_DTYPE_INT64, int64_t, (INT64_C(1) << 24) + 3, TCAST_DTYPE_FLOAT, float,
         16777220.0f);
  EXPECT(TCAST_DTYPE_INT32, int32_t, 70000, TCAST_DTYPE_FLOAT16, uint16_t, 0x7c00);
  EXPECT(TCAST_DTYPE_INT32, int32_t, -70000, TCAST_DTYPE_FLOAT16, uint16_t, 0xfc00);
  EXPECT(TCAST_DTYPE_INT32, int32_t, 65519, TCAST_DTYPE_FLOAT16, uint16_t, 0x7bff);
  EXPECT(TCAST_DTYPE_INT32, int32_t, 65520, TCAST_DTYPE_FLOAT16, uint16_t, 0x7c00);
  EXPECT(TCAST_DTYPE_INT32, int32_t, 2049, TCAST_DTYPE_FLOAT16, uint16_t, 0x6800);
  EXPECT(TCAST_DTYPE_INT32, int32_t, 2051, TCAST_DTYPE_FLOAT16, uint16_t, 0x6802);
  EXPECT(TCAST_DTYPE_INT32, int32_t, 257, TCAST_DTYPE_BFLOAT16, uint16_t, 0x4380);
  EXPECT(TCAST_DTYPE_UINT8, uint8_t, 255, TCAST_DTYPE_BFLOAT16, uint16_t, 0x437f);
  EXPECT(TCAST_DTYPE_UINT64, uint64_t, UINT64_MAX, TCAST_DTYPE_FLOAT, uint32_t, 0x5f800000);
  EXPECT(TCAST_DTYPE_UINT64, uint64_t, UINT64_MAX, TCAST_DTYPE_DOUBLE, double, 18446744073709551616.0);
  EXPECT(TCAST_DTYPE_INT64, int64_t, INT64_MIN, TCAST_DTYPE_DOUBLE, double, -9223372036854775808.0);
  EXPECT(TCAST_DTYPE_INT64, int64_t, (INT64_C(1) << 53) + 1, TCAST_DTYPE_DOUBLE, double,
         9007199254740992.0);
  EXPECT(TCAST_DTYPE_UINT64, uint64_t, UINT64_MAX, TCAST_DTYPE_FLOAT16, uint16_t, 0x7c00);
  EXPECT(TCAST_DTYPE_INT64, int64_t, INT64_MIN, TCAST_DTYPE_BFLOAT16, uint16_t, 0xdf00);
  EXPECT(TCAST_DTYPE_INT8, int8_t, -128, TCAST_DTYPE_FLOAT16, uint16_t, 0xd800);
}

static void test_integer_wrap_examples(void) {
  EXPECT(TCAST_DTYPE_INT16, int16_t, 200, TCAST_DTYPE_INT8, int8_t, -56);
  EXPECT(TCAST_DTYPE_INT32, int32_t, -1, TCAST_DTYPE_UINT8, uint8_t, 255);
  EXPECT(TCAST_DTYPE_UINT16, uint16_t, 65535, TCAST_DTYPE_INT16, int16_t, -1);
  EXPECT(TCAST_DTYPE_INT64, int64_t, INT64_C(0x123456789), TCAST_DTYPE_INT32, int32_t,
         0x23456789);
  EXPECT(TCAST_DTYPE_INT64, int64_t, -1, TCAST_DTYPE_UINT64, uint64_t, UINT64_MAX);
  EXPECT(TCAST_DTYPE_UINT32, uint32_t, 0x80000000u, TCAST_DTYPE_INT32, int32_t, INT32_MIN);
  EXPECT(TCAST_DTYPE_INT8, int8_t, -1, TCAST_DTYPE_UINT16, uint16_t, 65535);
  EXPECT(TCAST_DTYPE_INT8, int8_t, -1, TCAST_DTYPE_UINT64, uint64_t, UINT64_MAX);
  EXPECT(TCAST_DTYPE_UINT8, uint8_t, 200, TCAST_DTYPE_INT64, int64_t, 200);
  EXPECT(TCAST_DTYPE_UINT64, uint64_t, UINT64_MAX, TCAST_DTYPE_INT64, int64_t, -1);
  EXPECT(TCAST_DTYPE_INT32, int32_t, 65536 + 7, TCAST_DTYPE_UINT16, uint16_t, 7);
}

static void test_float_to_integer_examples(void) {
  const float nan = f32_from(0x7fc00000);
  EXPECT(TCAST_DTYPE_FLOAT, float, 1e10f, TCAST_DTYPE_INT32, int32_t, INT32_MAX);
  EXPECT(TCAST_DTYPE_FLOAT, float, -1e10f, TCAST_DTYPE_INT32, int32_t, INT32_MIN);
  EXPECT(TCAST_DTYPE_FLOAT, float, nan, TCAST_DTYPE_INT32, int32_t, 0);
  EXPECT(TCAST_DTYPE_FLOAT, float, -nan, TCAST_DTYPE_INT64, int64_t, 0);
  EXPECT(TCAST_DTYPE_FLOAT, float, nan, TCAST_DTYPE_UINT8, uint8_t, 0);
  EXPECT(TCAST_DTYPE_FLOAT, float, 300.7f, TCAST_DTYPE_UINT8, uint8_t, 255);
  EXPECT(TCAST_DTYPE_FLOAT, float, -3.9f, TCAST_DTYPE_INT8, int8_t, -3);
  EXPECT(TCAST_DTYPE_FLOAT, float, -1.0f, TCAST_DTYPE_UINT8, uint8_t, 0);
  EXPECT(TCAST_DTYPE_FLOAT, float, 2.9f, TCAST_DTYPE_INT32, int32_t, 2);
  EXPECT(TCAST_DTYPE_FLOAT, float, -0.5f, TCAST_DTYPE_INT16, int16_t, 0);
  EXPECT(TCAST_DTYPE_FLOAT, float, 127.9f, TCAST_DTYPE_INT8, int8_t, 127);
  EXPECT(TCAST_DTYPE_FLOAT, float, 128.0f, TCAST_DTYPE_INT8, int8_t, 127);
  EXPECT(TCAST_DTYPE_FLOAT, float, -129.0f, TCAST_DTYPE_INT8, int8_t, -128);
  EXPECT(TCAST_DTYPE_FLOAT, float, 65536.0f, TCAST_DTYPE_UINT16, uint16_t, 65535);
  EXPECT(TCAST_DTYPE_FLOAT, float, F32B(0x7f800000), TCAST_DTYPE_INT64, int64_t, INT64_MAX);
  EXPECT(TCAST_DTYPE_FLOAT, float, F32B(0xff800000), TCAST_DTYPE_INT64, int64_t, INT64_MIN);
  EXPECT(TCAST_DTYPE_FLOAT, float, F32B(0xff800000), TCAST_DTYPE_UINT64, uint64_t, 0);
  EXPECT(TCAST_DTYPE_FLOAT, float, 2147483520.0f, TCAST_DTYPE_INT32, int32_t, 2147483520);
  EXPECT(TCAST_DTYPE_FLOAT, float, 2147483648.0f, TCAST_DTYPE_INT32, int32_t, INT32_MAX);
  EXPECT(TCAST_DTYPE_FLOAT, float, 4294967040.0f, TCAST_DTYPE_UINT32, uint32_t, 4294967040u);
  EXPECT(TCAST_DTYPE_DOUBLE, double, 1e19, TCAST_DTYPE_UINT64, uint64_t,
         UINT64_C(10000000000000000000));
  EXPECT(TCAST_DTYPE_DOUBLE, double, 18446744073709551616.0, TCAST_DTYPE_UINT64, uint64_t,
         UINT64_MAX);
  EXPECT(TCAST_DTYPE_DOUBLE, double, -9223372036854775808.0, TCAST_DTYPE_INT64, int64_t,
         INT64_MIN);
  EXPECT(TCAST_DTYPE_DOUBLE, double, 9223372036854775808.0, TCAST_DTYPE_INT64, int64_t,
         INT64_MAX);
  EXPECT(TCAST_DTYPE_DOUBLE, double, -2147483648.9, TCAST_DTYPE_INT32, int32_t, INT32_MIN);
  EXPECT(TCAST_DTYPE_FLOAT16, uint16_t, 0x7c00, TCAST_DTYPE_INT16, int16_t, INT16_MAX);
  EXPECT(TCAST_DTYPE_FLOAT16, uint16_t, 0x7bff, TCAST_DTYPE_UINT16, uint16_t, 65504);
  EXPECT(TCAST_DTYPE_FLOAT16, uint16_t, 0x7e00, TCAST_DTYPE_INT8, int8_t, 0);
  EXPECT(TCAST_DTYPE_FLOAT16, uint16_t, 0xc4cd /* -4.8 */, TCAST_DTYPE_INT32, int32_t, -4);
  EXPECT(TCAST_DTYPE_BFLOAT16, uint16_t, 0x4f80 /* 2^32 */, TCAST_DTYPE_INT32, int32_t,
         INT32_MAX);
  EXPECT(TCAST_DTYPE_BFLOAT16, uint16_t, 0x4f80, TCAST_DTYPE_UINT64, uint64_t,
         UINT64_C(4294967296));
}

static void test_bool_rules(void) {
  const float nan = f32_from(0x7fc00000);
  EXPECT(TCAST_DTYPE_FLOAT, float, 0.0f, TCAST_DTYPE_BOOL, uint8_t, 0);
  EXPECT(TCAST_DTYPE_FLOAT, float, -0.0f, TCAST_DTYPE_BOOL, uint8_t, 0);
  EXPECT(TCAST_DTYPE_FLOAT, float, nan, TCAST_DTYPE_BOOL, uint8_t, 1);
  EXPECT(TCAST_DTYPE_FLOAT, float, 2.0f, TCAST_DTYPE_BOOL, uint8_t, 1);
  EXPECT(TCAST_DTYPE_FLOAT, float, 0.25f, TCAST_DTYPE_BOOL, uint8_t, 1);
  EXPECT(TCAST_DTYPE_FLOAT, float, F32B(0x00000001), TCAST_DTYPE_BOOL, uint8_t, 1);
  EXPECT(TCAST_DTYPE_FLOAT, float, F32B(0xff800000), TCAST_DTYPE_BOOL, uint8_t, 1);
  EXPECT(TCAST_DTYPE_DOUBLE, double, -0.0, TCAST_DTYPE_BOOL, uint8_t, 0);
  EXPECT(TCAST_DTYPE_DOUBLE, double, 1e-300, TCAST_DTYPE_BOOL, uint8_t, 1);
  EXPECT(TCAST_DTYPE_FLOAT16, uint16_t, 0x8000, TCAST_DTYPE_BOOL, uint8_t, 0);
  EXPECT(TCAST_DTYPE_FLOAT16, uint16_t, 0x7e00, TCAST_DTYPE_BOOL, uint8_t, 1);
  EXPECT(TCAST_DTYPE_BFLOAT16, uint16_t, 0x8000, TCAST_DTYPE_BOOL, uint8_t, 0);
  EXPECT(TCAST_DTYPE_BFLOAT16, uint16_t, 0x0001, TCAST_DTYPE_BOOL, uint8_t, 1);
  EXPECT(TCAST_DTYPE_INT32, int32_t, 0, TCAST_DTYPE_BOOL, uint8_t, 0);
  EXPECT(TCAST_DTYPE_INT32, int32_t, 256, TCAST_DTYPE_BOOL, uint8_t, 1);
  EXPECT(TCAST_DTYPE_INT8, int8_t, -1, TCAST_DTYPE_BOOL, uint8_t, 1);
  EXPECT(TCAST_DTYPE_UINT64, uint64_t, UINT64_C(1) << 63, TCAST_DTYPE_BOOL, uint8_t, 1);

  EXPECT(TCAST_DTYPE_BOOL, uint8_t, 1, TCAST_DTYPE_FLOAT, float, 1.0f);
  EXPECT(TCAST_DTYPE_BOOL, uint8_t, 0, TCAST_DTYPE_FLOAT, uint32_t, 0x00000000);
  EXPECT(TCAST_DTYPE_BOOL, uint8_t, 1, TCAST_DTYPE_DOUBLE, double, 1.0);
  EXPECT(TCAST_DTYPE_BOOL, uint8_t, 1, TCAST_DTYPE_FLOAT16, uint16_t, 0x3c00);
  EXPECT(TCAST_DTYPE_BOOL, uint8_t, 1, TCAST_DTYPE_BFLOAT16, uint16_t, 0x3f80);
  EXPECT(TCAST_DTYPE_BOOL, uint8_t, 1, TCAST_DTYPE_INT64, int64_t, 1);
  EXPECT(TCAST_DTYPE_BOOL, uint8_t, 0, TCAST_DTYPE_INT64, int64_t, 0);
  EXPECT(TCAST_DTYPE_BOOL, uint8_t, 1, TCAST_DTYPE_UINT8, uint8_t, 1);
  EXPECT(TCAST_DTYPE_BOOL, uint8_t, 1, TCAST_DTYPE_BOOL, uint8_t, 1);
  EXPECT(TCAST_DTYPE_BOOL, uint8_t, 0, TCAST_DTYPE_BOOL, uint8_t, 0);
}

static void test_complex_rules(void) {
  const float nan = f32_from(0x7fc00000);
  /* real -> complex: imaginary part 0 */
  EXPECT(TCAST_DTYPE_FLOAT, float, 2.5f, TCAST_DTYPE_COMPLEX64, c64, ((c64){2.5f, 0.0f}));
  EXPECT(TCAST_DTYPE_INT32, int32_t, -7, TCAST_DTYPE_COMPLEX128, c128, ((c128){-7.0, 0.0}));
  EXPECT(TCAST_DTYPE_DOUBLE, double, 0.1, TCAST_DTYPE_COMPLEX64, c64, ((c64){0.1f, 0.0f}));
  EXPECT(TCAST_DTYPE_BOOL, uint8_t, 1, TCAST_DTYPE_COMPLEX64, c64, ((c64){1.0f, 0.0f}));
  EXPECT(TCAST_DTYPE_FLOAT16, uint16_t, 0x3e00, TCAST_DTYPE_COMPLEX128, c128,
         ((c128){1.5, 0.0}));
  {
    float x = nan;
    c64 z;
    if (cast_n(TCAST_DTYPE_FLOAT, &x, TCAST_DTYPE_COMPLEX64, &z, 1, 0, __LINE__)) {
      CHECK(isnan(z.re) && f32_bits(z.im) == 0);
    }
  }
  /* complex -> real: the real part */
  EXPECT(TCAST_DTYPE_COMPLEX128, c128, ((c128){3.7, 9.0}), TCAST_DTYPE_INT32, int32_t, 3);
  EXPECT(TCAST_DTYPE_COMPLEX128, c128, ((c128){-3.7, 9.0}), TCAST_DTYPE_INT32, int32_t, -3);
  EXPECT(TCAST_DTYPE_COMPLEX64, c64, ((c64){1.0f, 9.0f}), TCAST_DTYPE_FLOAT16, uint16_t,
         0x3c00);
  EXPECT(TCAST_DTYPE_COMPLEX128, c128, ((c128){1e300, 5.0}), TCAST_DTYPE_FLOAT, uint32_t,
         0x7f800000);
  EXPECT(TCAST_DTYPE_COMPLEX128, c128, ((c128){0.1, -1.0}), TCAST_DTYPE_DOUBLE, double, 0.1);
  EXPECT(TCAST_DTYPE_COMPLEX64, c64, ((c64){300.5f, 0.0f}), TCAST_DTYPE_UINT8, uint8_t, 255);
  /* complex -> BOOL: nonzero if either part is */
  EXPECT(TCAST_DTYPE_COMPLEX64, c64, ((c64){0.0f, 1.0f}), TCAST_DTYPE_BOOL, uint8_t, 1);
  EXPECT(TCAST_DTYPE_COMPLEX64, c64, ((c64){0.0f, 0.0f}), TCAST_DTYPE_BOOL, uint8_t, 0);
  EXPECT(TCAST_DTYPE_COMPLEX64, c64, ((c64){-0.0f, -0.0f}), TCAST_DTYPE_BOOL, uint8_t, 0);
  EXPECT(TCAST_DTYPE_COMPLEX64, c64, ((c64){2.0f, 0.0f}), TCAST_DTYPE_BOOL, uint8_t, 1);
  EXPECT(TCAST_DTYPE_COMPLEX128, c128, ((c128){0.0, -1e-300}), TCAST_DTYPE_BOOL, uint8_t, 1);
  /* complex -> complex: each part as a float cast */
  EXPECT(TCAST_DTYPE_COMPLEX64, c64, ((c64){1.5f, -2.25f}), TCAST_DTYPE_COMPLEX128, c128,
         ((c128){1.5, -2.25}));
  /* (float) first: where FLT_EVAL_METHOD is 1 (s390x), a float constant may carry double
     precision, which only a conversion to float (or an assignment) drops. */
  EXPECT(TCAST_DTYPE_COMPLEX64, c64, ((c64){0.1f, 3e38f}), TCAST_DTYPE_COMPLEX128, c128,
         ((c128){(double)(float)0.1f, (double)(float)3e38f}));
  EXPECT(TCAST_DTYPE_COMPLEX128, c128, ((c128){0.1, 1e300}), TCAST_DTYPE_COMPLEX64, c64,
         ((c64){0.1f, F32B(0x7f800000)}));
  EXPECT(TCAST_DTYPE_COMPLEX128, c128, ((c128){-1e-50, 1.0 + 0x1p-24}),
         TCAST_DTYPE_COMPLEX64, c64, ((c64){-0.0f, 1.0f}));
}

static void test_quantized_as_storage(void) {
  EXPECT(TCAST_DTYPE_QINT8, int8_t, -5, TCAST_DTYPE_FLOAT, float, -5.0f);
  EXPECT(TCAST_DTYPE_FLOAT, float, 3.7f, TCAST_DTYPE_QUINT8, uint8_t, 3);
  EXPECT(TCAST_DTYPE_FLOAT, float, -3.7f, TCAST_DTYPE_QUINT8, uint8_t, 0);
  EXPECT(TCAST_DTYPE_FLOAT, float, 1e6f, TCAST_DTYPE_QINT16, int16_t, INT16_MAX);
  EXPECT(TCAST_DTYPE_QINT32, int32_t, INT32_MIN, TCAST_DTYPE_INT64, int64_t, INT32_MIN);
  EXPECT(TCAST_DTYPE_QUINT16, uint16_t, 65535, TCAST_DTYPE_INT32, int32_t, 65535);
  EXPECT(TCAST_DTYPE_QINT16, int16_t, -1, TCAST_DTYPE_QUINT16, uint16_t, 65535);
  EXPECT(TCAST_DTYPE_INT16, int16_t, 300, TCAST_DTYPE_QINT8, int8_t, 44);
  EXPECT(TCAST_DTYPE_QUINT8, uint8_t, 200, TCAST_DTYPE_QINT8, int8_t, -56);
  EXPECT(TCAST_DTYPE_QINT8, int8_t, -128, TCAST_DTYPE_FLOAT16, uint16_t, 0xd800);
  EXPECT(TCAST_DTYPE_QINT32, int32_t, 3, TCAST_DTYPE_COMPLEX64, c64, ((c64){3.0f, 0.0f}));
  EXPECT(TCAST_DTYPE_QINT8, int8_t, 0, TCAST_DTYPE_BOOL, uint8_t, 0);
  EXPECT(TCAST_DTYPE_QUINT16, uint16_t, 2, TCAST_DTYPE_BOOL, uint8_t, 1);
}

/* A same-dtype cast is a byte copy: NaN payloads survive, for every numeric dtype. */
static void test_same_dtype_copies(void) {
  EXPECT(TCAST_DTYPE_FLOAT, uint32_t, 0x7f800001, TCAST_DTYPE_FLOAT, uint32_t, 0x7f800001);
  EXPECT(TCAST_DTYPE_FLOAT, uint32_t, 0xffbfffff, TCAST_DTYPE_FLOAT, uint32_t, 0xffbfffff);
  EXPECT(TCAST_DTYPE_DOUBLE, uint64_t, 0x7ff0000000000001ull, TCAST_DTYPE_DOUBLE, uint64_t,
         0x7ff0000000000001ull);
  EXPECT(TCAST_DTYPE_FLOAT16, uint16_t, 0x7c01, TCAST_DTYPE_FLOAT16, uint16_t, 0x7c01);
  EXPECT(TCAST_DTYPE_BFLOAT16, uint16_t, 0xff81, TCAST_DTYPE_BFLOAT16, uint16_t, 0xff81);
  EXPECT(TCAST_DTYPE_COMPLEX64, uint64_t, 0x7f800001ff800002ull, TCAST_DTYPE_COMPLEX64,
         uint64_t, 0x7f800001ff800002ull);

  static const tcast_dtype numeric[] = {
      TCAST_DTYPE_FLOAT,  TCAST_DTYPE_UINT8,   TCAST_DTYPE_INT8,       TCAST_DTYPE_UINT16,
      TCAST_DTYPE_INT16,  TCAST_DTYPE_INT32,   TCAST_DTYPE_INT64,      TCAST_DTYPE_FLOAT16,
      TCAST_DTYPE_DOUBLE, TCAST_DTYPE_UINT32,  TCAST_DTYPE_UINT64,     TCAST_DTYPE_COMPLEX64,
      TCAST_DTYPE_COMPLEX128, TCAST_DTYPE_BFLOAT16, TCAST_DTYPE_QINT8, TCAST_DTYPE_QUINT8,
      TCAST_DTYPE_QINT16, TCAST_DTYPE_QUINT16, TCAST_DTYPE_QINT32,
  };
  enum { N = 1000 };
  for (size_t d = 0; d < sizeof numeric / sizeof numeric[0]; d++) {
    size_t bytes = N * dtype_size(numeric[d]);
    unsigned char *src = xmalloc(bytes), *dst = xmalloc(bytes);
    for (size_t i = 0; i < bytes; i++) {
      src[i] = (unsigned char)rng_next();
    }
    if (cast_n(numeric[d], src, numeric[d], dst, N, 0, __LINE__)) {
      CHECK_MSG(memcmp(src, dst, bytes) == 0, "%s -> %s is not a byte copy",
                tcast_dtype_name(numeric[d]), tcast_dtype_name(numeric[d]));
    }
    free(src);
    free(dst);
  }
  /* BOOL holds 0 and 1. */
  uint8_t bools[N], bools_out[N];
  for (int i = 0; i < N; i++) {
    bools[i] = (uint8_t)(rng_next() & 1);
  }
  if (cast_n(TCAST_DTYPE_BOOL, bools, TCAST_DTYPE_BOOL, bools_out, N, 0, __LINE__)) {
    CHECK(memcmp(bools, bools_out, N) == 0);
  }
}

/* ---------------------------------------------------------------- exhaustive 16-bit */

static void test_exhaustive_16bit_sources(void) {
  enum { N = 65536 };
  uint16_t *codes = xmalloc(N * sizeof *codes);
  for (uint32_t i = 0; i < N; i++) {
    codes[i] = (uint16_t)i;
  }
  const float_format sources[] = {FMT_F16, FMT_BF16};
  const float_format targets[] = {FMT_F16, FMT_BF16, FMT_F32, FMT_F64};
  uint64_t *out = xmalloc(N * sizeof(uint64_t));
  for (size_t s = 0; s < 2; s++) {
    for (size_t t = 0; t < 4; t++) {
      if (sources[s].dtype == targets[t].dtype) {
        continue;
      }
      char what[64];
      snprintf(what, sizeof what, "all %s codes", tcast_dtype_name(sources[s].dtype));
      if (cast_n(sources[s].dtype, codes, targets[t].dtype, out, N, 0, __LINE__)) {
        compare_float_conversions(sources[s], codes, targets[t], out, N, what, __LINE__);
      }
    }
  }
  free(codes);
  free(out);
}

/* The value of a finite f16/bf16 code as a double (exact). */
static double decode_16(float_format f, uint16_t code) {
  return f.dtype == TCAST_DTYPE_BFLOAT16 ? (double)f32_from((uint32_t)code << 16)
                                         : f64_from(ref_convert(FMT_F16, code, FMT_F64));
}

/* Float -> integer by the reference rule: truncate, saturate, NaN -> 0. */
static int64_t ref_to_signed(double v, int64_t lo, int64_t hi) {
  if (isnan(v)) {
    return 0;
  }
  if (v >= (double)hi + 1.0) {
    return hi;
  }
  if (v <= (double)lo - 1.0) {
    return lo;
  }
  return (int64_t)v;
}

static uint64_t ref_to_unsigned(double v, uint64_t hi) {
  if (isnan(v) || v <= -1.0) {
    return 0;
  }
  if (v >= (double)hi + 1.0) {
    return hi;
  }
  return (uint64_t)v;
}

typedef struct {
  tcast_dtype dtype;
  int is_signed;
  int64_t lo;
  uint64_t hi;
} int_target;

static const int_target INT_TARGETS[] = {
    {TCAST_DTYPE_INT8, 1, INT8_MIN, INT8_MAX},     {TCAST_DTYPE_UINT8, 0, 0, UINT8_MAX},
    {TCAST_DTYPE_INT16, 1, INT16_MIN, INT16_MAX},  {TCAST_DTYPE_UINT16, 0, 0, UINT16_MAX},
    {TCAST_DTYPE_INT32, 1, INT32_MIN, INT32_MAX},  {TCAST_DTYPE_UINT32, 0, 0, UINT32_MAX},
    {TCAST_DTYPE_INT64, 1, INT64_MIN, INT64_MAX},  {TCAST_DTYPE_UINT64, 0, 0, UINT64_MAX},
    {TCAST_DTYPE_QINT8, 1, INT8_MIN, INT8_MAX},    {TCAST_DTYPE_QUINT16, 0, 0, UINT16_MAX},
};
#define N_INT_TARGETS (sizeof INT_TARGETS / sizeof INT_TARGETS[0])

/* The low `size` bytes (at most 8) of `bits`. */
static uint64_t low_bytes(uint64_t bits, size_t size) {
  return size < 8 ? bits & ((UINT64_C(1) << (8 * size)) - 1) : bits;
}

/* Float -> integer by the reference rule, as the target's bytes. */
static uint64_t ref_float_to_int(double v, const int_target *t) {
  size_t size = dtype_size(t->dtype);
  uint64_t r = t->is_signed ? (uint64_t)ref_to_signed(v, t->lo, (int64_t)t->hi)
                            : ref_to_unsigned(v, t->hi);
  return size < 8 ? r & ((UINT64_C(1) << (8 * size)) - 1) : r;
}

/* Every f16 and bf16 code to every integer type and to BOOL. */
static void test_exhaustive_16bit_to_integers(void) {
  enum { N = 65536 };
  uint16_t *codes = xmalloc(N * sizeof *codes);
  for (uint32_t i = 0; i < N; i++) {
    codes[i] = (uint16_t)i;
  }
  unsigned char *out = xmalloc((size_t)N * 8);
  const float_format sources[] = {FMT_F16, FMT_BF16};
  for (size_t s = 0; s < 2; s++) {
    for (size_t t = 0; t < N_INT_TARGETS; t++) {
      size_t size = dtype_size(INT_TARGETS[t].dtype);
      if (!cast_n(sources[s].dtype, codes, INT_TARGETS[t].dtype, out, N, 0, __LINE__)) {
        continue;
      }
      size_t bad = 0;
      for (uint32_t i = 0; i < N; i++) {
        double v = fmt_is_nan(sources[s], i) ? f64_from(0x7ff8000000000000ull)
                                             : decode_16(sources[s], (uint16_t)i);
        uint64_t expected = ref_float_to_int(v, &INT_TARGETS[t]);
        uint64_t got = tc_load_bits(out + i * size, size);
        if (got != expected && ++bad <= 5) {
          tc_fail(__FILE__, __LINE__, "%s 0x%04x -> %s gave 0x%" PRIx64 ", expected 0x%" PRIx64,
                  tcast_dtype_name(sources[s].dtype), i, tcast_dtype_name(INT_TARGETS[t].dtype),
                  got, expected);
        }
      }
      CHECK_MSG(bad == 0, "all %s codes -> %s: %zu wrong", tcast_dtype_name(sources[s].dtype),
                tcast_dtype_name(INT_TARGETS[t].dtype), bad);
    }
    if (cast_n(sources[s].dtype, codes, TCAST_DTYPE_BOOL, out, N, 0, __LINE__)) {
      size_t bad = 0;
      for (uint32_t i = 0; i < N; i++) {
        bad += out[i] != ((i & 0x7fff) != 0); /* only the two zeros are false */
      }
      CHECK_MSG(bad == 0, "all %s codes -> BOOL: %zu wrong", tcast_dtype_name(sources[s].dtype),
                bad);
    }
  }
  free(codes);
  free(out);
}

/* Every value of the 8- and 16-bit integer types to every numeric type. */
static void test_exhaustive_small_integers(void) {
  static const struct {
    tcast_dtype dtype;
    int is_signed;
    size_t size;
  } sources[] = {
      {TCAST_DTYPE_INT8, 1, 1},   {TCAST_DTYPE_UINT8, 0, 1},  {TCAST_DTYPE_INT16, 1, 2},
      {TCAST_DTYPE_UINT16, 0, 2}, {TCAST_DTYPE_QUINT8, 0, 1}, {TCAST_DTYPE_QINT16, 1, 2},
  };
  const float_format floats[] = {FMT_F16, FMT_BF16, FMT_F32, FMT_F64};
  unsigned char *src = xmalloc(65536 * 2);
  unsigned char *out = xmalloc(65536 * 16);
  int64_t *values = xmalloc(65536 * sizeof *values);
  for (size_t s = 0; s < sizeof sources / sizeof sources[0]; s++) {
    size_t n = (size_t)1 << (8 * sources[s].size);
    for (size_t i = 0; i < n; i++) {
      uint16_t raw = (uint16_t)i;
      tc_store_bits(src + i * sources[s].size, raw, sources[s].size);
      values[i] = sources[s].is_signed
                      ? (sources[s].size == 1 ? (int64_t)(int8_t)raw : (int64_t)(int16_t)raw)
                      : (int64_t)i;
    }
    const char *from = tcast_dtype_name(sources[s].dtype);
    /* Integers: sign- or zero-extend, then keep the low bytes. */
    for (size_t t = 0; t < N_INT_TARGETS; t++) {
      size_t size = dtype_size(INT_TARGETS[t].dtype);
      if (cast_n(sources[s].dtype, src, INT_TARGETS[t].dtype, out, (int64_t)n, 0, __LINE__)) {
        size_t bad = 0;
        for (size_t i = 0; i < n; i++) {
          bad += tc_load_bits(out + i * size, size) != low_bytes((uint64_t)values[i], size);
        }
        CHECK_MSG(bad == 0, "all %s -> %s: %zu wrong", from,
                  tcast_dtype_name(INT_TARGETS[t].dtype), bad);
      }
    }
    /* Floats: rounded once. */
    for (size_t t = 0; t < 4; t++) {
      size_t size = dtype_size(floats[t].dtype);
      if (cast_n(sources[s].dtype, src, floats[t].dtype, out, (int64_t)n, 0, __LINE__)) {
        size_t bad = 0;
        for (size_t i = 0; i < n; i++) {
          uint64_t magnitude = values[i] < 0 ? (uint64_t)-values[i] : (uint64_t)values[i];
          bad += tc_load_bits(out + i * size, size) !=
                 ref_from_int(values[i] < 0, magnitude, floats[t]);
        }
        CHECK_MSG(bad == 0, "all %s -> %s: %zu wrong", from, tcast_dtype_name(floats[t].dtype),
                  bad);
      }
    }
    /* BOOL and complex. */
    if (cast_n(sources[s].dtype, src, TCAST_DTYPE_BOOL, out, (int64_t)n, 0, __LINE__)) {
      size_t bad = 0;
      for (size_t i = 0; i < n; i++) {
        bad += out[i] != (values[i] != 0);
      }
      CHECK_MSG(bad == 0, "all %s -> BOOL: %zu wrong", from, bad);
    }
    if (cast_n(sources[s].dtype, src, TCAST_DTYPE_COMPLEX128, out, (int64_t)n, 0, __LINE__)) {
      size_t bad = 0;
      for (size_t i = 0; i < n; i++) {
        c128 z;
        memcpy(&z, out + i * sizeof z, sizeof z);
        bad += z.re != (double)values[i] || f64_bits(z.im) != 0;
      }
      CHECK_MSG(bad == 0, "all %s -> COMPLEX128: %zu wrong", from, bad);
    }
  }
  free(src);
  free(out);
  free(values);
}

/* ---------------------------------------------------------------- random comparisons */

/* Random f32 patterns: a quarter anything, the rest with exponents near f16's range. */
static uint32_t random_f32_bits(void) {
  uint64_t r = rng_next();
  if ((r & 3) == 0) {
    return (uint32_t)(r >> 32);
  }
  uint32_t exp = 127 - 30 + (uint32_t)((r >> 2) % 50); /* 2^-30 .. 2^19 */
  uint32_t man = (uint32_t)(r >> 8) & 0x7fffff;
  if ((r & 12) == 0) {
    man &= ~UINT32_C(0x1fff); /* exactly representable in f16 (or a tie after shifting) */
    man |= (uint32_t)((r >> 40) & 1) << 12;
  }
  return (uint32_t)((r >> 63) << 31) | exp << 23 | man;
}

static uint64_t random_f64_bits(void) {
  uint64_t r = rng_next();
  if ((r & 3) == 0) {
    return rng_next();
  }
  uint64_t exp = 1023 - 140 + (r >> 2) % 280; /* 2^-140 .. 2^139: both f16 and bf16 edges */
  uint64_t man = rng_next() & ((UINT64_C(1) << 52) - 1);
  if ((r & 12) == 0) {
    /* An exact value or an exact tie for f16 (bit 41), bf16 (bit 44) or f32 (bit 28). */
    static const int tie_bit[3] = {41, 44, 28};
    int k = tie_bit[(r >> 4) % 3];
    man &= ~((UINT64_C(2) << k) - 1);
    man |= ((r >> 20) & 1) << k;
  }
  return (r >> 63) << 63 | exp << 52 | man;
}

static void test_random_float_narrowing(void) {
  enum { N = 200003 };
  uint32_t *f32 = xmalloc(N * sizeof *f32);
  uint64_t *f64 = xmalloc(N * sizeof *f64);
  uint16_t *out16 = xmalloc(N * sizeof *out16);
  uint32_t *out32 = xmalloc(N * sizeof *out32);
  for (size_t i = 0; i < N; i++) {
    f32[i] = random_f32_bits();
    f64[i] = random_f64_bits();
  }
  if (cast_n(TCAST_DTYPE_FLOAT, f32, TCAST_DTYPE_FLOAT16, out16, N, 0, __LINE__)) {
    compare_float_conversions(FMT_F32, f32, FMT_F16, out16, N, "random f32", __LINE__);
  }
  if (cast_n(TCAST_DTYPE_FLOAT, f32, TCAST_DTYPE_BFLOAT16, out16, N, 0, __LINE__)) {
    compare_float_conversions(FMT_F32, f32, FMT_BF16, out16, N, "random f32", __LINE__);
  }
  if (cast_n(TCAST_DTYPE_DOUBLE, f64, TCAST_DTYPE_FLOAT16, out16, N, 0, __LINE__)) {
    compare_float_conversions(FMT_F64, f64, FMT_F16, out16, N, "random f64", __LINE__);
  }
  if (cast_n(TCAST_DTYPE_DOUBLE, f64, TCAST_DTYPE_BFLOAT16, out16, N, 0, __LINE__)) {
    compare_float_conversions(FMT_F64, f64, FMT_BF16, out16, N, "random f64", __LINE__);
  }
  if (cast_n(TCAST_DTYPE_DOUBLE, f64, TCAST_DTYPE_FLOAT, out32, N, 0, __LINE__)) {
    compare_float_conversions(FMT_F64, f64, FMT_F32, out32, N, "random f64", __LINE__);
  }
  free(f32);
  free(f64);
  free(out16);
  free(out32);
}

static void test_random_float_to_integer(void) {
  enum { N = 100003 };
  uint32_t *src = xmalloc(N * sizeof *src);
  for (size_t i = 0; i < N; i++) {
    uint64_t r = rng_next();
    /* Exponents around the integer ranges: 2^-2 .. 2^68, both signs, plus NaN/inf. */
    src[i] = (r & 7) == 0 ? (uint32_t)(r >> 32)
                          : (uint32_t)((r >> 63) << 31) |
                                (uint32_t)(125 + (r >> 3) % 70) << 23 |
                                ((uint32_t)(r >> 16) & 0x7fffff);
  }
  unsigned char *out = xmalloc(N * 8);
  for (size_t t = 0; t < N_INT_TARGETS; t++) {
    size_t size = dtype_size(INT_TARGETS[t].dtype);
    if (!cast_n(TCAST_DTYPE_FLOAT, src, INT_TARGETS[t].dtype, out, N, 0, __LINE__)) {
      continue;
    }
    size_t bad = 0;
    for (size_t i = 0; i < N; i++) {
      double v = (double)f32_from(src[i]);
      uint64_t got = tc_load_bits(out + i * size, size);
      uint64_t expected = ref_float_to_int(v, &INT_TARGETS[t]);
      if (got != expected && ++bad <= 5) {
        tc_fail(__FILE__, __LINE__, "f32 0x%08x (%g) -> %s gave 0x%" PRIx64 ", expected 0x%" PRIx64,
                src[i], v, tcast_dtype_name(INT_TARGETS[t].dtype), got, expected);
      }
    }
    CHECK_MSG(bad == 0, "f32 -> %s: %zu of %d wrong", tcast_dtype_name(INT_TARGETS[t].dtype),
              bad, N);
  }
  free(src);
  free(out);
}

static void test_random_integer_conversions(void) {
  enum { N = 100003 };
  int64_t *src = xmalloc(N * sizeof *src);
  for (size_t i = 0; i < N; i++) {
    uint64_t r = rng_next();
    /* Magnitudes of every width, so that each target rounds or wraps somewhere. */
    uint64_t magnitude = r >> (rng_next() % 64);
    src[i] = (int64_t)((r & 1) ? 0 - magnitude : magnitude);
  }
  unsigned char *out = xmalloc(N * 8);

  /* Wrapping to narrower integers keeps the low bits. */
  static const tcast_dtype narrow[] = {TCAST_DTYPE_INT8,   TCAST_DTYPE_UINT8,
                                       TCAST_DTYPE_INT16,  TCAST_DTYPE_UINT16,
                                       TCAST_DTYPE_INT32,  TCAST_DTYPE_UINT32,
                                       TCAST_DTYPE_UINT64, TCAST_DTYPE_QINT8};
  for (size_t t = 0; t < sizeof narrow / sizeof narrow[0]; t++) {
    size_t size = dtype_size(narrow[t]);
    if (cast_n(TCAST_DTYPE_INT64, src, narrow[t], out, N, 0, __LINE__)) {
      size_t bad = 0;
      for (size_t i = 0; i < N; i++) {
        bad += tc_load_bits(out + i * size, size) != low_bytes((uint64_t)src[i], size);
      }
      CHECK_MSG(bad == 0, "INT64 -> %s: %zu of %d wrong", tcast_dtype_name(narrow[t]), bad, N);
    }
  }

  /* To floats: rounded once, to nearest even. */
  const float_format floats[] = {FMT_F16, FMT_BF16, FMT_F32, FMT_F64};
  for (int as_unsigned = 0; as_unsigned <= 1; as_unsigned++) {
    tcast_dtype from = as_unsigned ? TCAST_DTYPE_UINT64 : TCAST_DTYPE_INT64;
    for (size_t t = 0; t < 4; t++) {
      size_t size = dtype_size(floats[t].dtype);
      if (!cast_n(from, src, floats[t].dtype, out, N, 0, __LINE__)) {
        continue;
      }
      size_t bad = 0;
      for (size_t i = 0; i < N; i++) {
        int negative = !as_unsigned && src[i] < 0;
        uint64_t magnitude = negative ? 0 - (uint64_t)src[i] : (uint64_t)src[i];
        uint64_t expected = ref_from_int(negative, magnitude, floats[t]);
        uint64_t got = tc_load_bits(out + i * size, size);
        if (got != expected && ++bad <= 5) {
          tc_fail(__FILE__, __LINE__, "%s %" PRId64 " -> %s gave 0x%" PRIx64 ", expected 0x%" PRIx64,
                  tcast_dtype_name(from), src[i], tcast_dtype_name(floats[t].dtype), got,
                  expected);
        }
      }
      CHECK_MSG(bad == 0, "%s -> %s: %zu of %d wrong", tcast_dtype_name(from),
                tcast_dtype_name(floats[t].dtype), bad, N);
    }
  }
  free(src);
  free(out);
}

/* ---------------------------------------------------------------- threads */

static void test_threads_bit_identical(void) {
  enum { N = (1 << 20) + 77 };
  uint32_t *f32 = xmalloc(N * sizeof *f32);
  uint64_t *f64 = xmalloc(N * sizeof *f64);
  for (size_t i = 0; i < N; i++) {
    f32[i] = random_f32_bits();
    f64[i] = random_f64_bits();
  }
  static const struct {
    tcast_dtype from, to;
  } pairs[] = {
      {TCAST_DTYPE_FLOAT, TCAST_DTYPE_FLOAT16},
      {TCAST_DTYPE_DOUBLE, TCAST_DTYPE_BFLOAT16},
      {TCAST_DTYPE_FLOAT, TCAST_DTYPE_INT8},
      {TCAST_DTYPE_DOUBLE, TCAST_DTYPE_COMPLEX64},
  };
  unsigned char *one = xmalloc((size_t)N * 8), *four = xmalloc((size_t)N * 8);
  for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
    const void *src = pairs[p].from == TCAST_DTYPE_FLOAT ? (const void *)f32 : (const void *)f64;
    size_t out_bytes = (size_t)N * dtype_size(pairs[p].to);
    memset(one, 0x11, out_bytes);
    memset(four, 0x22, out_bytes);
    int ok = cast_n(pairs[p].from, src, pairs[p].to, one, N, 1, __LINE__);
    ok &= cast_n(pairs[p].from, src, pairs[p].to, four, N, 4, __LINE__);
    if (ok) {
      CHECK_MSG(memcmp(one, four, out_bytes) == 0, "%s -> %s: threads 4 differs from threads 1",
                tcast_dtype_name(pairs[p].from), tcast_dtype_name(pairs[p].to));
    }
    if (ok && pairs[p].to == TCAST_DTYPE_FLOAT16) {
      compare_float_conversions(FMT_F32, f32, FMT_F16, four, N, "threads 4", __LINE__);
    }
  }
  free(one);
  free(four);
  free(f32);
  free(f64);
}

/* ---------------------------------------------------------------- strided inputs */

/* Casts a strided FLOAT input into a contiguous DOUBLE output of the same shape. */
static int strided_to_double(const float *data, uint64_t data_bytes, const int64_t *shape,
                             const int64_t *strides, int32_t ndim, double *out, uint64_t count,
                             int32_t threads, int line) {
  tcast_tensor in = tensor(data, data_bytes, shape, ndim, TCAST_DTYPE_FLOAT);
  in.strides = strides;
  tcast_tensor o = tensor(out, count * sizeof(double), shape, ndim, TCAST_DTYPE_DOUBLE);
  tcast_cast_options options;
  tcast_cast_options_init(&options, sizeof options);
  options.threads = threads;
  tc_reset_err();
  tcast_status status = tcast_cast(&in, &o, &options, TC_ERR);
  if (status != TCAST_OK) {
    tc_fail(__FILE__, line, "strided cast failed: %s: %s", tcast_status_name(status),
            tc_err.message);
    return 0;
  }
  tc_pass();
  return 1;
}

static void test_strided_inputs(void) {
  /* A 4x3 row-major matrix read as its 3x4 transpose. */
  {
    float m[12];
    for (int i = 0; i < 12; i++) {
      m[i] = (float)i + 0.5f;
    }
    const int64_t shape[] = {3, 4}, strides[] = {1, 3};
    double out[12];
    if (strided_to_double(m, sizeof m, shape, strides, 2, out, 12, 0, __LINE__)) {
      int ok = 1;
      for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 4; j++) {
          ok &= out[i * 4 + j] == (double)m[j * 3 + i];
        }
      }
      CHECK_MSG(ok, "transposed 3x4 read wrong");
    }
    /* The same view copied without a dtype change. */
    float copy[12];
    tcast_tensor in = tensor(m, sizeof m, shape, 2, TCAST_DTYPE_FLOAT);
    in.strides = strides;
    tcast_tensor o = tensor(copy, sizeof copy, shape, 2, TCAST_DTYPE_FLOAT);
    CHECK_STATUS(tcast_cast(&in, &o, NULL, TC_ERR), TCAST_OK);
    CHECK(copy[1] == m[3] && copy[4] == m[1] && copy[11] == m[11]);
  }
  /* Stride-0 broadcasts: a row repeated, and each element repeated along a row. */
  {
    float v[5] = {1, 2, 3, 4, 5};
    const int64_t shape[] = {3, 5};
    const int64_t rows[] = {0, 1}, cols[] = {1, 0};
    double out[15];
    if (strided_to_double(v, sizeof v, shape, rows, 2, out, 15, 0, __LINE__)) {
      int ok = 1;
      for (int i = 0; i < 15; i++) {
        ok &= out[i] == (double)v[i % 5];
      }
      CHECK_MSG(ok, "stride {0,1} broadcast wrong");
    }
    if (strided_to_double(v, 3 * sizeof(float), shape, cols, 2, out, 15, 0, __LINE__)) {
      int ok = 1;
      for (int i = 0; i < 15; i++) {
        ok &= out[i] == (double)v[i / 5];
      }
      CHECK_MSG(ok, "stride {1,0} broadcast wrong");
    }
    const int64_t all_shape[] = {2, 2, 2}, all_zero[] = {0, 0, 0};
    if (strided_to_double(v, sizeof(float), all_shape, all_zero, 3, out, 8, 0, __LINE__)) {
      int ok = 1;
      for (int i = 0; i < 8; i++) {
        ok &= out[i] == 1.0;
      }
      CHECK_MSG(ok, "stride {0,0,0} broadcast wrong");
    }
  }
  /* A strided 3-D view: element (i,j,k) at 40i + 7j + 2k. */
  {
    enum { SPAN = 1 * 40 + 2 * 7 + 3 * 2 + 1 };
    float *data = xmalloc(SPAN * sizeof(float));
    for (int n = 0; n < SPAN; n++) {
      data[n] = (float)n;
    }
    const int64_t shape[] = {2, 3, 4}, strides[] = {40, 7, 2};
    double out[24];
    if (strided_to_double(data, SPAN * sizeof(float), shape, strides, 3, out, 24, 0,
                          __LINE__)) {
      int ok = 1;
      for (int i = 0; i < 2; i++) {
        for (int j = 0; j < 3; j++) {
          for (int k = 0; k < 4; k++) {
            ok &= out[(i * 3 + j) * 4 + k] == (double)(i * 40 + j * 7 + k * 2);
          }
        }
      }
      CHECK_MSG(ok, "strided 3-D view read wrong");
    }
    /* The same with integer types and an inner dimension of 1. */
    int16_t *ints = xmalloc(SPAN * sizeof(int16_t));
    for (int n = 0; n < SPAN; n++) {
      ints[n] = (int16_t)(n - 30);
    }
    const int64_t shape4[] = {2, 3, 4, 1}, strides4[] = {40, 7, 2, 1000};
    int64_t wide[24];
    tcast_tensor in = tensor(ints, SPAN * sizeof(int16_t), shape4, 4, TCAST_DTYPE_INT16);
    in.strides = strides4;
    tcast_tensor o = tensor(wide, sizeof wide, shape4, 4, TCAST_DTYPE_INT64);
    CHECK_STATUS(tcast_cast(&in, &o, NULL, TC_ERR), TCAST_OK);
    CHECK(wide[0] == -30 && wide[5] == 7 + 2 - 30 && wide[23] == 40 + 14 + 6 - 30);
    free(data);
    free(ints);
  }
  /* Long rows with a stride: more elements than any small gather buffer holds. */
  {
    enum { ROWS = 2, COLS = 3000, SPAN = 1 + 2 * (COLS - 1) + 1 };
    float *data = xmalloc(SPAN * sizeof(float));
    for (int n = 0; n < SPAN; n++) {
      data[n] = (float)n * 0.25f;
    }
    const int64_t shape[] = {ROWS, COLS}, strides[] = {1, 2};
    double *out = xmalloc(ROWS * COLS * sizeof(double));
    if (strided_to_double(data, SPAN * sizeof(float), shape, strides, 2, out, ROWS * COLS, 0,
                          __LINE__)) {
      int ok = 1;
      for (int i = 0; i < ROWS; i++) {
        for (int j = 0; j < COLS; j++) {
          ok &= out[i * COLS + j] == (double)data[i + 2 * j];
        }
      }
      CHECK_MSG(ok, "long strided rows read wrong");
    }
    free(data);
    free(out);
  }
  /* A big transposed view on 4 threads: the same as on one, and right. */
  {
    /* Stored R x C, read as C x R; the thread shares start in the middle of rows. */
    enum { R = 1103, C = 1000 };
    float *data = xmalloc((size_t)R * C * sizeof(float));
    for (size_t n = 0; n < (size_t)R * C; n++) {
      data[n] = (float)(n % 100003) - 50000.0f;
    }
    const int64_t shape[] = {C, R}, strides[] = {1, C};
    double *one = xmalloc((size_t)R * C * sizeof(double));
    double *four = xmalloc((size_t)R * C * sizeof(double));
    int ok = strided_to_double(data, (uint64_t)R * C * sizeof(float), shape, strides, 2, one,
                               (uint64_t)R * C, 1, __LINE__);
    ok &= strided_to_double(data, (uint64_t)R * C * sizeof(float), shape, strides, 2, four,
                            (uint64_t)R * C, 4, __LINE__);
    if (ok) {
      CHECK(memcmp(one, four, (size_t)R * C * sizeof(double)) == 0);
      int right = 1;
      for (size_t i = 0; i < C; i++) {
        for (size_t j = 0; j < R; j++) {
          right &= four[i * R + j] == (double)data[j * C + i];
        }
      }
      CHECK_MSG(right, "transposed %dx%d view on 4 threads read wrong", C, R);
    }
    free(data);
    free(one);
    free(four);
  }
  /* A big stride-0 broadcast on 4 threads: row i is element i repeated. */
  {
    enum { ROWS = 1200, COLS = 1000 };
    float *column = xmalloc(ROWS * sizeof(float));
    for (int i = 0; i < ROWS; i++) {
      column[i] = (float)i - 600.5f;
    }
    const int64_t shape[] = {ROWS, COLS}, strides[] = {1, 0};
    double *out = xmalloc((size_t)ROWS * COLS * sizeof(double));
    if (strided_to_double(column, ROWS * sizeof(float), shape, strides, 2, out,
                          (uint64_t)ROWS * COLS, 4, __LINE__)) {
      int right = 1;
      for (size_t n = 0; n < (size_t)ROWS * COLS; n++) {
        right &= out[n] == (double)column[n / COLS];
      }
      CHECK_MSG(right, "broadcast {1,0} on 4 threads read wrong");
    }
    free(column);
    free(out);
  }
}

/* ---------------------------------------------------------------- shapes */

static void test_empty_and_scalar(void) {
  const int64_t s0[] = {0}, s30[] = {3, 0}, s030[] = {0, 3, 0};
  float f = 1.0f;
  uint16_t h = 0xABCD;
  tcast_tensor in = tensor(&f, sizeof f, s0, 1, TCAST_DTYPE_FLOAT);
  tcast_tensor out = tensor(&h, sizeof h, s0, 1, TCAST_DTYPE_FLOAT16);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_OK);
  CHECK_EQ_HEX(h, 0xABCD); /* nothing written */
  in.shape = out.shape = s30;
  in.ndim = out.ndim = 2;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_OK);
  CHECK_EQ_HEX(h, 0xABCD);
  in.shape = out.shape = s030;
  in.ndim = out.ndim = 3;
  in.data = out.data = NULL;
  in.data_bytes = out.data_bytes = 0;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_OK);
  /* Empty with strides, and with threads. */
  const int64_t strides[] = {5, 0, 9};
  in.strides = strides;
  tcast_cast_options options = tcast_cast_options_default();
  options.threads = 4;
  CHECK_STATUS(tcast_cast(&in, &out, &options, TC_ERR), TCAST_OK);

  /* Scalars: ndim 0, shape NULL or ignored. */
  double d = -2.75;
  int16_t i16 = 99;
  in = tensor(&d, sizeof d, NULL, 0, TCAST_DTYPE_DOUBLE);
  out = tensor(&i16, sizeof i16, NULL, 0, TCAST_DTYPE_INT16);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_OK);
  CHECK_EQ_INT(i16, -2);
  const int64_t ignored[] = {-5};
  uint16_t half_out = 0;
  in = tensor(&f, sizeof f, ignored, 0, TCAST_DTYPE_FLOAT);
  out = tensor(&half_out, sizeof half_out, ignored, 0, TCAST_DTYPE_FLOAT16);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_OK);
  CHECK_EQ_HEX(half_out, 0x3c00);
  c64 z = {0};
  in = tensor(&d, sizeof d, NULL, 0, TCAST_DTYPE_DOUBLE);
  out = tensor(&z, sizeof z, NULL, 0, TCAST_DTYPE_COMPLEX64);
  CHECK_STATUS(tcast_cast(&in, &out, &options, TC_ERR), TCAST_OK);
  CHECK(z.re == -2.75f && z.im == 0.0f);
}

/* Unaligned buffers are fine (docs/c-api.md section 4). */
static void test_unaligned_buffers(void) {
  enum { N = 101 };
  unsigned char *src = xmalloc(N * sizeof(double) + 1);
  unsigned char *dst = xmalloc(N * sizeof(float) + 3);
  for (int i = 0; i < N; i++) {
    double v = i * 1.5 - 20.0;
    memcpy(src + 1 + i * sizeof v, &v, sizeof v);
  }
  const int64_t shape[] = {N};
  tcast_tensor in = tensor(src + 1, N * sizeof(double), shape, 1, TCAST_DTYPE_DOUBLE);
  tcast_tensor out = tensor(dst + 3, N * sizeof(float), shape, 1, TCAST_DTYPE_FLOAT);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_OK);
  int ok = 1;
  for (int i = 0; i < N; i++) {
    float f;
    memcpy(&f, dst + 3 + i * sizeof f, sizeof f);
    ok &= f == (float)(i * 1.5 - 20.0);
  }
  CHECK_MSG(ok, "unaligned double -> float wrong");
  free(src);
  free(dst);
}

/* tcast_cast_options_init fills the defaults for the caller's struct size (docs/c-api.md
   sections 5 and 11): this header's struct, the first 24-byte layout of a program built
   before `executor` (nothing past it written), and refuses NULL and a smaller size. */
typedef struct {
  uint32_t struct_size;
  int32_t saturate, round_mode, string_format, casting, threads;
} options_v1;

static void test_options_init(void) {
  tcast_cast_options options, by_value = tcast_cast_options_default();
  unsigned char bytes[sizeof(options_v1) + 8];
  options_v1 old;
  memset(&options, 0x5a, sizeof options);
  CHECK_STATUS(tcast_cast_options_init(&options, sizeof options), TCAST_OK);
  CHECK_EQ_INT(options.struct_size, (int)sizeof options);
  CHECK(memcmp(&options, &by_value, sizeof options) == 0);
  CHECK(options.executor == NULL);

  /* An older caller's struct: its prefix filled, the bytes after it untouched. */
  memset(bytes, 0x5a, sizeof bytes);
  CHECK_STATUS(tcast_cast_options_init((tcast_cast_options *)(void *)bytes, sizeof old),
               TCAST_OK);
  memcpy(&old, bytes, sizeof old);
  CHECK_EQ_INT(old.struct_size, (int)sizeof old);
  CHECK(old.saturate == 1 && old.round_mode == TCAST_ROUND_UP &&
        old.string_format == TCAST_FORMAT_SHORTEST && old.casting == TCAST_CASTING_UNSAFE &&
        old.threads == by_value.threads);
  for (size_t i = sizeof old; i < sizeof bytes; i++) CHECK_EQ_INT(bytes[i], 0x5a);
  {
    /* A cast takes those options. */
    const float in[2] = {1.5f, -2.0f};
    uint16_t out[2] = {0, 0};
    const int64_t shape[1] = {2};
    tcast_tensor input = tensor(in, sizeof in, shape, 1, TCAST_DTYPE_FLOAT);
    tcast_tensor output = tensor(out, sizeof out, shape, 1, TCAST_DTYPE_FLOAT16);
    CHECK_STATUS(tcast_cast(&input, &output, (const tcast_cast_options *)(void *)&old, TC_ERR),
                 TCAST_OK);
    CHECK_EQ_HEX(out[0], 0x3e00);
    CHECK_EQ_HEX(out[1], 0xc000);
  }

  /* Refused, nothing written. */
  memset(bytes, 0x5a, sizeof bytes);
  CHECK_STATUS(tcast_cast_options_init((tcast_cast_options *)(void *)bytes, sizeof old - 1),
               TCAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(tcast_cast_options_init((tcast_cast_options *)(void *)bytes, 0),
               TCAST_ERR_INVALID_ARGUMENT);
  for (size_t i = 0; i < sizeof bytes; i++) CHECK_EQ_INT(bytes[i], 0x5a);
  CHECK_STATUS(tcast_cast_options_init(NULL, sizeof options), TCAST_ERR_NULL_ARGUMENT);
}

/* A prepared cast (tcast_cast_plan_*) gives tcast_cast's bytes for every pair of a few
 * dtypes over the same random inputs, contiguous and strided, with options; refuses a
 * tensor of another dtype and what tcast_cast refuses; create leaves NULL on failure. */
static void test_cast_plans(void) {
  static const tcast_dtype dtypes[] = {TCAST_DTYPE_FLOAT, TCAST_DTYPE_FLOAT16,
                                       TCAST_DTYPE_BFLOAT16, TCAST_DTYPE_INT8,
                                       TCAST_DTYPE_UINT4, TCAST_DTYPE_FLOAT8E4M3FN,
                                       TCAST_DTYPE_DOUBLE, TCAST_DTYPE_BOOL};
  enum { N = 37 };
  uint8_t src[N * 8], a[N * 8], b[N * 8];
  int64_t shape[1] = {N}, half[1] = {(N + 1) / 2}, stride[1] = {2};
  size_t i, j, k;
  for (k = 0; k < sizeof src; k++) src[k] = (uint8_t)rng_next();
  for (i = 0; i < sizeof dtypes / sizeof *dtypes; i++) {
    for (j = 0; j < sizeof dtypes / sizeof *dtypes; j++) {
      tcast_cast_options opts;
      tcast_cast_plan *plan = NULL;
      tcast_tensor in = {src, sizeof src, shape, NULL, 1, dtypes[i]};
      tcast_tensor out = {a, sizeof a, shape, NULL, 1, dtypes[j]};
      tcast_tensor out_b = {b, sizeof b, shape, NULL, 1, dtypes[j]};
      tcast_cast_options_init(&opts, sizeof opts);
      opts.saturate = (int32_t)((i + j) & 1);
      CHECK_STATUS(tcast_cast_plan_create(dtypes[i], dtypes[j], &opts, &plan, TC_ERR), TCAST_OK);
      memset(a, 0x5A, sizeof a);
      memset(b, 0x5A, sizeof b);
      CHECK_STATUS(tcast_cast(&in, &out, &opts, TC_ERR), TCAST_OK);
      CHECK_STATUS(tcast_cast_plan_run(plan, &in, &out_b, NULL, TC_ERR), TCAST_OK);
      CHECK(memcmp(a, b, sizeof a) == 0);
      if (dtypes[i] != TCAST_DTYPE_UINT4) { /* a packed dtype takes no strides */
        in.shape = half;
        in.strides = stride;
        out.shape = out_b.shape = half;
        memset(a, 0x5A, sizeof a);
        memset(b, 0x5A, sizeof b);
        CHECK_STATUS(tcast_cast(&in, &out, &opts, TC_ERR), TCAST_OK);
        CHECK_STATUS(tcast_cast_plan_run(plan, &in, &out_b, NULL, TC_ERR), TCAST_OK);
        CHECK(memcmp(a, b, sizeof a) == 0);
      }
      in.dtype = dtypes[(i + 1) % (sizeof dtypes / sizeof *dtypes)];
      CHECK_STATUS(tcast_cast_plan_run(plan, &in, &out_b, NULL, TC_ERR), TCAST_ERR_INVALID_DTYPE);
      in.dtype = dtypes[i];
      out_b.data_bytes = 1;
      CHECK_STATUS(tcast_cast_plan_run(plan, &in, &out_b, NULL, TC_ERR),
                   tcast_cast(&in, &out_b, &opts, NULL));
      tcast_cast_plan_free(plan);
    }
  }
  {
    tcast_cast_plan *plan = (tcast_cast_plan *)&shape; /* overwritten with NULL */
    tcast_cast_options opts;
    tcast_cast_options_init(&opts, sizeof opts);
    opts.casting = TCAST_CASTING_SAFE;
    CHECK_STATUS(tcast_cast_plan_create(TCAST_DTYPE_FLOAT, TCAST_DTYPE_INT8, &opts, &plan, TC_ERR),
                 TCAST_ERR_CASTING);
    CHECK(plan == NULL);
    CHECK_STATUS(tcast_cast_plan_create(TCAST_DTYPE_FLOAT, 99, NULL, &plan, TC_ERR),
                 TCAST_ERR_INVALID_DTYPE);
    CHECK_STATUS(tcast_cast_plan_create(TCAST_DTYPE_FLOAT, TCAST_DTYPE_INT8, NULL, NULL, TC_ERR),
                 TCAST_ERR_NULL_ARGUMENT);
    CHECK_STATUS(tcast_cast_plan_run(NULL, NULL, NULL, NULL, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
    tcast_cast_plan_free(NULL);
  }
}

int main(void) {
  test_options_init();
  test_cast_plans();
  test_float_narrowing_examples();
  test_integer_to_float_examples();
  test_integer_wrap_examples();
  test_float_to_integer_examples();
  test_bool_rules();
  test_complex_rules();
  test_quantized_as_storage();
  test_same_dtype_copies();
  test_exhaustive_16bit_sources();
  test_exhaustive_16bit_to_integers();
  test_exhaustive_small_integers();
  test_random_float_narrowing();
  test_random_float_to_integer();
  test_random_integer_conversions();
  test_threads_bit_identical();
  test_strided_inputs();
  test_empty_and_scalar();
  test_unaligned_buffers();
  return tc_summary();
}
