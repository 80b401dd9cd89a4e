/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The low-precision formats through tcast_cast (docs/semantics-cast.md sections 4-7, docs/c-api.md
 * sections 4-5): FLOAT8E4M3FN, FLOAT8E4M3FNUZ, FLOAT8E5M2, FLOAT8E5M2FNUZ (saturate),
 * FLOAT8E8M0 (round_mode), FLOAT4E2M1, FLOAT6E2M3, FLOAT6E3M2, INT4, UINT4, INT2, UINT2.
 *
 * - packing: round trips with odd element counts, tcast_tensor_bytes, zero padding bits,
 *   one byte short, strides refused;
 * - the page's test vectors and hand-computed cases;
 * - decoding every code, checked against a decoder written here from the format tables;
 * - encoding boundaries (every value, every midpoint, one ulp either side) and random
 *   values, casts between two low-precision types, DOUBLE / INT64 / UINT64 sources,
 *   STRING in and out, and threads.
 *
 * The reference encoder below rounds by searching the format's own value table (no bit
 * tricks shared with the library): nearest value, ties to the even code, then the
 * page's overflow, NaN and zero rules.
 */
#include <stdlib.h>

#include "tc_check.h"
#include "tc_util.h"

#define GUARD_BYTES 32
#define CANARY 0xCD
/* Vectors also run replicated this many times, so that the vector kernels see them. */
#define REPLICAS 67

/* ---------------------------------------------------------------- bits and numbers */

static int f64_is_nan(double d) {
  uint64_t b = f64_bits(d);
  return (b & UINT64_C(0x7ff0000000000000)) == UINT64_C(0x7ff0000000000000) &&
         (b & UINT64_C(0x000fffffffffffff)) != 0;
}

static int f64_is_inf(double d) {
  return (f64_bits(d) & UINT64_C(0x7fffffffffffffff)) == UINT64_C(0x7ff0000000000000);
}

static int f64_sign(double d) { return (int)(f64_bits(d) >> 63); }

static double f64_abs(double d) { return f64_from(f64_bits(d) & UINT64_C(0x7fffffffffffffff)); }

/* 2^k exactly, for -1074 <= k <= 1023. */
static double pow2(int k) {
  if (k >= -1022) {
    return f64_from((uint64_t)(k + 1023) << 52);
  }
  return f64_from(UINT64_C(1) << (k + 1074));
}

static double nan_with_sign(int sign) {
  return f64_from(UINT64_C(0x7ff8000000000000) | ((uint64_t)sign << 63));
}

static float f32_nan(int sign) { return f32_from(0x7fc00000u | ((uint32_t)sign << 31)); }

static float f32_inf(int sign) { return f32_from(0x7f800000u | ((uint32_t)sign << 31)); }

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;

static uint64_t rng_next(void) { return xorshift64star(&rng_state); }

/* A uniform double in [0, 1). */
static double rng_unit(void) { return (double)(rng_next() >> 11) * 0x1p-53; }

/* ---------------------------------------------------------------- the formats */

enum kind { K_IEEE, K_FN, K_FNUZ, K_FP4, K_FP6, K_E8M0, K_INT, K_UINT };

typedef struct {
  tcast_dtype dtype;
  int bits;
  enum kind kind;
  int E, M, bias;       /* float formats */
  unsigned max_code;    /* the largest finite magnitude code (float formats) */
  double max_value;     /* the page's maximum, checked against the decoder */
} lowfmt;

/* From the tables of docs/semantics-cast.md sections 4-7. */
static const lowfmt FORMATS[] = {
    {TCAST_DTYPE_FLOAT8E4M3FN, 8, K_FN, 4, 3, 7, 0x7e, 448.0},
    {TCAST_DTYPE_FLOAT8E4M3FNUZ, 8, K_FNUZ, 4, 3, 8, 0x7f, 240.0},
    {TCAST_DTYPE_FLOAT8E5M2, 8, K_IEEE, 5, 2, 15, 0x7b, 57344.0},
    {TCAST_DTYPE_FLOAT8E5M2FNUZ, 8, K_FNUZ, 5, 2, 16, 0x7f, 57344.0},
    {TCAST_DTYPE_FLOAT8E8M0, 8, K_E8M0, 8, 0, 127, 0xfe, 0x1p127},
    {TCAST_DTYPE_FLOAT4E2M1, 4, K_FP4, 2, 1, 1, 0x7, 6.0},
    {TCAST_DTYPE_FLOAT6E2M3, 6, K_FP6, 2, 3, 1, 0x1f, 7.5},
    {TCAST_DTYPE_FLOAT6E3M2, 6, K_FP6, 3, 2, 3, 0x1f, 28.0},
    {TCAST_DTYPE_INT4, 4, K_INT, 0, 0, 0, 0, 7.0},
    {TCAST_DTYPE_UINT4, 4, K_UINT, 0, 0, 0, 0, 15.0},
    {TCAST_DTYPE_INT2, 2, K_INT, 0, 0, 0, 0, 1.0},
    {TCAST_DTYPE_UINT2, 2, K_UINT, 0, 0, 0, 0, 3.0},
};
#define N_FORMATS ((int)(sizeof FORMATS / sizeof FORMATS[0]))

static const lowfmt *format_of(tcast_dtype dtype) {
  for (int i = 0; i < N_FORMATS; i++) {
    if (FORMATS[i].dtype == dtype) {
      return &FORMATS[i];
    }
  }
  fprintf(stderr, "no low-precision format %d\n", (int)dtype);
  exit(2);
}

static int is_float_kind(enum kind k) {
  return k == K_IEEE || k == K_FN || k == K_FNUZ || k == K_FP4 || k == K_FP6;
}

static int is_float8(const lowfmt *f) {
  return f->kind == K_IEEE || f->kind == K_FN || f->kind == K_FNUZ;
}

/*
 * The value of magnitude bits `mag` of a float format by the page's formula, for mag up
 * to max_code + 1 (the value just past the maximum, which rounding can reach): e != 0
 * gives 2^(e-bias) (1 + m/2^M), e == 0 gives 2^(1-bias) m/2^M.
 */
static double magnitude_value(const lowfmt *f, unsigned mag) {
  unsigned e = mag >> f->M, m = mag & ((1u << f->M) - 1);
  if (e == 0) {
    return (double)m * pow2(1 - f->bias - f->M);
  }
  return (double)((1u << f->M) + m) * pow2((int)e - f->bias - f->M);
}

/* magnitude_value for every mag in [0, max_code + 1], per float format. */
static double value_table[N_FORMATS][0x81];

static void build_value_tables(void) {
  for (int i = 0; i < N_FORMATS; i++) {
    if (is_float_kind(FORMATS[i].kind)) {
      for (unsigned c = 0; c <= FORMATS[i].max_code + 1; c++) {
        value_table[i][c] = magnitude_value(&FORMATS[i], c);
      }
    }
  }
}

static const double *values_of(const lowfmt *f) { return value_table[f - FORMATS]; }

/* The exact value of a code; NaN codes give a NaN with the code's sign bit. */
static double ref_value(const lowfmt *f, unsigned code) {
  switch (f->kind) {
  case K_INT: {
    int v = (int)code;
    return v >= 1 << (f->bits - 1) ? v - (1 << f->bits) : v;
  }
  case K_UINT:
    return (double)code;
  case K_E8M0:
    return code == 0xff ? nan_with_sign(0) : pow2((int)code - 127);
  default:
    break;
  }
  int mbits = f->E + f->M;
  int sign = (int)(code >> mbits) & 1;
  unsigned mag = code & ((1u << mbits) - 1);
  unsigned e = mag >> f->M, m = mag & ((1u << f->M) - 1);
  unsigned emax = (1u << f->E) - 1;
  if ((f->kind == K_FN && mag == (1u << mbits) - 1) || (f->kind == K_FNUZ && code == 0x80) ||
      (f->kind == K_IEEE && e == emax && m != 0)) {
    return nan_with_sign(sign);
  }
  if (f->kind == K_IEEE && e == emax) {
    return sign ? -f64_from(UINT64_C(0x7ff0000000000000)) : f64_from(UINT64_C(0x7ff0000000000000));
  }
  double v = magnitude_value(f, mag);
  return sign ? -v : v;
}

/* Nearest-even integer of x, keeping the low 8 bits (NaN, infinities and |x| >= 2^63,
   whose low bits are all 0, give 0). */
static unsigned ref_int_low_bits(double x) {
  if (f64_is_nan(x) || f64_is_inf(x) || f64_abs(x) >= 0x1p63) {
    return 0;
  }
  int64_t t = (int64_t)x; /* toward zero */
  double frac = x - (double)t;
  if (frac > 0.5 || (frac == 0.5 && (t & 1))) {
    t++;
  } else if (frac < -0.5 || (frac == -0.5 && (t & 1))) {
    t--;
  }
  return (unsigned)((uint64_t)t & 0xff);
}

/* floor(log2(x)) of a positive finite double. */
static int floor_log2(double x) {
  uint64_t b = f64_bits(x);
  int e = (int)((b >> 52) & 0x7ff);
  if (e != 0) {
    return e - 1023;
  }
  uint64_t m = b & UINT64_C(0x000fffffffffffff);
  int top = 51;
  while (!(m >> top)) {
    top--;
  }
  return top - 1074;
}

static unsigned ref_e8m0(double x, int saturate, int mode) {
  if (f64_is_nan(x)) {
    return 0xff;
  }
  if (f64_sign(x) || x == 0.0) {
    return saturate ? 0x00 : 0xff; /* negatives (-inf too), -0 and 0 */
  }
  if (x > 0x1p127) {
    return saturate ? 0xfe : 0xff; /* +inf too */
  }
  if (x < 0x1p-127) {
    return saturate ? 0x00 : 0xff; /* Cast-24: x < E8M0_MIN -> NaN unless saturating */
  }
  int k = floor_log2(x);
  int r = k;
  if (mode == TCAST_ROUND_UP && x != pow2(k)) {
    r++;
  } else if (mode == TCAST_ROUND_NEAREST && x >= 1.5 * pow2(k)) {
    r++;
  }
  return (unsigned)(r + 127); /* 2^-127 <= x <= 2^127 keeps 0 <= r + 127 <= 254 */
}

/* The code of the exact value x in format f under the page's rules. */
static unsigned ref_encode(const lowfmt *f, double x, int saturate, int mode) {
  if (f->kind == K_INT || f->kind == K_UINT) {
    return ref_int_low_bits(x) & ((1u << f->bits) - 1);
  }
  if (f->kind == K_E8M0) {
    return ref_e8m0(x, saturate, mode);
  }
  const int mbits = f->E + f->M;
  const int sign = f64_sign(x);
  const unsigned sign_bit = (unsigned)sign << mbits;
  const unsigned max = f->max_code;
  if (f64_is_nan(x)) {
    switch (f->kind) {
    case K_IEEE:
      return 0x7e | sign_bit;
    case K_FN:
      return 0x7f | sign_bit;
    case K_FNUZ:
      return 0x80;
    default:
      /* FLOAT4E2M1 (onnx >= 1.19 test data) and FLOAT6 (the onnx 1.23 reference), as
         ml_dtypes: +NaN -> -0, -NaN -> +0 */
      return sign ? 0 : 1u << mbits;
    }
  }
  const double *v = values_of(f);
  double a = f64_abs(x);
  unsigned r;
  if (a >= v[max + 1]) {
    r = max + 1; /* infinities too */
  } else {
    unsigned lo = 0, hi = max + 1; /* v[lo] <= a < v[hi] */
    while (hi - lo > 1) {
      unsigned mid = (lo + hi) / 2;
      if (v[mid] <= a) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    double half = (v[lo] + v[hi]) / 2; /* exact: a few significant bits */
    r = a < half ? lo : a > half ? hi : (lo % 2 == 0 ? lo : hi);
  }
  if (r > max) {
    switch (f->kind) {
    case K_IEEE:
      return (saturate ? max : 0x7c) | sign_bit;
    case K_FN:
      return (saturate ? max : 0x7f) | sign_bit;
    case K_FNUZ:
      return saturate ? max | sign_bit : 0x80;
    default:
      return max | sign_bit; /* FLOAT4 and FLOAT6 always saturate */
    }
  }
  if (r == 0 && f->kind == K_FNUZ) {
    return 0; /* no -0 */
  }
  return r | sign_bit;
}

/* ---------------------------------------------------------------- packing, written here */

static size_t packed_size(int bits, size_t n) { return (n * (size_t)bits + 7) / 8; }

/* Element i occupies bits [i*bits, (i+1)*bits) of one little-endian bit stream. */
static void pack_codes(int bits, const uint8_t *codes, size_t n, uint8_t *out) {
  memset(out, 0, packed_size(bits, n));
  for (size_t i = 0; i < n; i++) {
    for (int b = 0; b < bits; b++) {
      if ((codes[i] >> b) & 1) {
        size_t at = i * (size_t)bits + (size_t)b;
        out[at / 8] |= (uint8_t)(1u << (at % 8));
      }
    }
  }
}

static unsigned code_at(int bits, const uint8_t *data, size_t i) {
  unsigned c = 0;
  for (int b = 0; b < bits; b++) {
    size_t at = i * (size_t)bits + (size_t)b;
    c |= (unsigned)((data[at / 8] >> (at % 8)) & 1) << b;
  }
  return c;
}

/* ---------------------------------------------------------------- running casts */

static tcast_cast_options options(int saturate, int round_mode, int threads) {
  tcast_cast_options o = tcast_cast_options_default();
  o.saturate = saturate;
  o.round_mode = round_mode;
  o.threads = threads;
  return o;
}

/* Casts through tc_cast_checked (see tc_util.h) with these options. */
static int run_cast(tcast_dtype from, const void *src, tcast_dtype to, void *dst, int64_t n,
                    int saturate, int round_mode, int threads, int line) {
  tcast_cast_options o = options(saturate, round_mode, threads);
  return tc_cast_checked(from, src, to, dst, n, &o, line);
}

static void describe_source(char *buf, size_t cap, tcast_dtype from, const void *src, size_t i) {
  switch (from) {
  case TCAST_DTYPE_FLOAT: {
    float x;
    memcpy(&x, (const unsigned char *)src + 4 * i, 4);
    snprintf(buf, cap, "FLOAT %.9g (0x%08" PRIx32 ")", (double)x, f32_bits(x));
    break;
  }
  case TCAST_DTYPE_DOUBLE: {
    double x;
    memcpy(&x, (const unsigned char *)src + 8 * i, 8);
    snprintf(buf, cap, "DOUBLE %.17g (0x%016" PRIx64 ")", x, f64_bits(x));
    break;
  }
  case TCAST_DTYPE_FLOAT16:
  case TCAST_DTYPE_BFLOAT16: {
    uint16_t h;
    memcpy(&h, (const unsigned char *)src + 2 * i, 2);
    snprintf(buf, cap, "%s 0x%04x", tcast_dtype_name(from), h);
    break;
  }
  default: {
    uint32_t bits = tcast_dtype_bits(from);
    if (bits <= 8) {
      snprintf(buf, cap, "%s code 0x%02x", tcast_dtype_name(from),
               code_at((int)bits, src, i));
    } else {
      snprintf(buf, cap, "%s element %zu", tcast_dtype_name(from), i);
    }
  }
  }
}

/*
 * Casts n elements of `from` to the low-precision `to` and compares every code with
 * `expected` (one per element); at most 8 mismatches are printed. With `replicate`, the
 * input also runs repeated REPLICAS times.
 */
static void expect_codes(tcast_dtype from, const void *src, int64_t n, tcast_dtype to,
                         int saturate, int round_mode, const uint8_t *expected, int replicate,
                         const char *what, int line) {
  int bits = (int)tcast_dtype_bits(to);
  int reps_list[2] = {1, REPLICAS};
  for (int r = 0; r < (replicate ? 2 : 1); r++) {
    int reps = reps_list[r];
    size_t total = (size_t)n * (size_t)reps;
    size_t es = tcast_dtype_bits(from) / 8;
    unsigned char *in;
    if (es == 0) { /* a packed source: repeat its codes */
      int sb = (int)tcast_dtype_bits(from);
      uint8_t *codes = xmalloc(total);
      for (size_t i = 0; i < total; i++) {
        codes[i] = (uint8_t)code_at(sb, src, i % (size_t)n);
      }
      in = xmalloc(packed_size(sb, total));
      pack_codes(sb, codes, total, in);
      free(codes);
    } else {
      in = xmalloc(total * es);
      for (int k = 0; k < reps; k++) {
        memcpy(in + (size_t)k * (size_t)n * es, src, (size_t)n * es);
      }
    }
    uint8_t *out = xmalloc(packed_size(bits, total));
    if (run_cast(from, in, to, out, (int64_t)total, saturate, round_mode, 0, line)) {
      size_t bad = 0;
      for (size_t i = 0; i < total; i++) {
        unsigned got = code_at(bits, out, i), want = expected[i % (size_t)n];
        if (got != want && ++bad <= 8) {
          char s[96];
          describe_source(s, sizeof s, from, in, i);
          tc_fail(__FILE__, line,
                  "%s: element %zu of %zu: %s -> %s (saturate %d, round_mode %d) gave 0x%02x, "
                  "expected 0x%02x",
                  what, i, total, s, tcast_dtype_name(to), saturate, round_mode, got, want);
        }
      }
      if (bad == 0) {
        tc_pass();
      } else if (bad > 8) {
        tc_fail(__FILE__, line, "%s: %zu of %zu codes wrong", what, bad, total);
      }
    }
    free(in);
    free(out);
  }
}

/* Like expect_codes with each expected code from the reference encoder on value[i]. */
static void expect_reference(tcast_dtype from, const void *src, const double *value,
                             int64_t n, tcast_dtype to, int saturate, int round_mode,
                             const char *what, int line) {
  const lowfmt *f = format_of(to);
  uint8_t *expected = xmalloc((size_t)n);
  for (int64_t i = 0; i < n; i++) {
    expected[i] = (uint8_t)ref_encode(f, value[i], saturate, round_mode);
  }
  expect_codes(from, src, n, to, saturate, round_mode, expected, 0, what, line);
  free(expected);
}

static size_t parse_hex(const char *hex, uint8_t *out) {
  size_t n = strlen(hex) / 2;
  for (size_t i = 0; i < n; i++) {
    unsigned v;
    sscanf(hex + 2 * i, "%2x", &v);
    out[i] = (uint8_t)v;
  }
  return n;
}

/*
 * The bytes of casting n FLOAT values must be exactly `hex` (memory order, as the page
 * writes them); the codes also hold replicated.
 */
static void expect_hex(const float *src, int64_t n, tcast_dtype to, int saturate,
                       int round_mode, const char *hex, int line) {
  uint8_t want[64], got[64], codes[128];
  size_t want_bytes = parse_hex(hex, want);
  int bits = (int)tcast_dtype_bits(to);
  CHECK_MSG(want_bytes == packed_size(bits, (size_t)n),
            "line %d: %s: %zu bytes given for %lld elements", line, hex, want_bytes, (long long)n);
  if (run_cast(TCAST_DTYPE_FLOAT, src, to, got, n, saturate, round_mode, 0, line)) {
    if (memcmp(got, want, want_bytes) == 0) {
      tc_pass();
    } else {
      char g[130];
      for (size_t i = 0; i < want_bytes; i++) {
        sprintf(g + 2 * i, "%02x", got[i]);
      }
      tc_fail(__FILE__, line, "FLOAT -> %s (saturate %d, round_mode %d) gave %s, expected %s",
              tcast_dtype_name(to), saturate, round_mode, g, hex);
    }
  }
  for (int64_t i = 0; i < n; i++) {
    codes[i] = (uint8_t)code_at(bits, want, (size_t)i);
  }
  expect_codes(TCAST_DTYPE_FLOAT, src, n, to, saturate, round_mode, codes, 1, hex, line);
}

/* One element: `src` of `from` must give exactly the code `want`, alone and replicated. */
static void expect_one(tcast_dtype from, const void *src, tcast_dtype to, int saturate,
                       int round_mode, unsigned want, const char *what, int line) {
  uint8_t w = (uint8_t)want;
  expect_codes(from, src, 1, to, saturate, round_mode, &w, 1, what, line);
}

#define EXPECT_F32(x, to, sat, mode, want)                                                  \
  do {                                                                                      \
    float in_ = (x);                                                                        \
    expect_one(TCAST_DTYPE_FLOAT, &in_, (to), (sat), (mode), (want), #x " -> " #want,       \
               __LINE__);                                                                   \
  } while (0)

#define EXPECT_F64(x, to, sat, mode, want)                                                  \
  do {                                                                                      \
    double in_ = (x);                                                                       \
    expect_one(TCAST_DTYPE_DOUBLE, &in_, (to), (sat), (mode), (want), #x " -> " #want,      \
               __LINE__);                                                                   \
  } while (0)

#define EXPECT_I64(x, to, sat, mode, want)                                                  \
  do {                                                                                      \
    int64_t in_ = (x);                                                                      \
    expect_one(TCAST_DTYPE_INT64, &in_, (to), (sat), (mode), (want), #x " -> " #want,       \
               __LINE__);                                                                   \
  } while (0)

#define EXPECT_U64(x, to, sat, mode, want)                                                  \
  do {                                                                                      \
    uint64_t in_ = (x);                                                                     \
    expect_one(TCAST_DTYPE_UINT64, &in_, (to), (sat), (mode), (want), #x " -> " #want,      \
               __LINE__);                                                                   \
  } while (0)

/* A decoded FLOAT matches the reference value: equal bits, or NaN of the same sign that
   is quiet. */
static int same_f32(float got, double want) {
  if (f64_is_nan(want)) {
    uint32_t b = f32_bits(got);
    return (b & 0x7fc00000u) == 0x7fc00000u && (int)(b >> 31) == f64_sign(want);
  }
  return f32_bits(got) == f32_bits((float)want);
}

static int same_f64(double got, double want) {
  if (f64_is_nan(want)) {
    uint64_t b = f64_bits(got);
    return (b & UINT64_C(0x7ff8000000000000)) == UINT64_C(0x7ff8000000000000) &&
           f64_sign(got) == f64_sign(want);
  }
  return f64_bits(got) == f64_bits(want);
}

/* ---------------------------------------------------------------- the reference itself */

static void test_reference_tables(void) {
  for (int i = 0; i < N_FORMATS; i++) {
    const lowfmt *f = &FORMATS[i];
    if (!is_float_kind(f->kind)) {
      continue;
    }
    CHECK_MSG(values_of(f)[f->max_code] == f->max_value, "%s: max code 0x%02x is %g, page says %g",
              tcast_dtype_name(f->dtype), f->max_code, values_of(f)[f->max_code], f->max_value);
    for (unsigned c = 0; c <= f->max_code; c++) {
      if (!(values_of(f)[c] < values_of(f)[c + 1])) {
        tc_fail(__FILE__, __LINE__, "%s: the value table is not increasing at 0x%02x",
                tcast_dtype_name(f->dtype), c);
      }
    }
  }
  /* The page's overflow thresholds follow from the tables. */
  const lowfmt *e4 = format_of(TCAST_DTYPE_FLOAT8E4M3FN);
  CHECK_EQ_HEX(ref_encode(e4, 464.0, 1, 0), 0x7e);
  CHECK_EQ_HEX(ref_encode(e4, 464.0, 0, 0), 0x7e);
  CHECK_EQ_HEX(ref_encode(e4, 464.0000001, 0, 0), 0x7f);
  CHECK_EQ_HEX(ref_encode(format_of(TCAST_DTYPE_FLOAT8E4M3FNUZ), 248.0, 0, 0), 0x80);
  CHECK_EQ_HEX(ref_encode(format_of(TCAST_DTYPE_FLOAT8E4M3FNUZ), 247.99, 0, 0), 0x7f);
  CHECK_EQ_HEX(ref_encode(format_of(TCAST_DTYPE_FLOAT8E5M2), 61440.0, 0, 0), 0x7c);
  CHECK_EQ_HEX(ref_encode(format_of(TCAST_DTYPE_FLOAT8E5M2FNUZ), 61440.0, 0, 0), 0x80);
  CHECK_EQ_HEX(ref_encode(format_of(TCAST_DTYPE_FLOAT8E5M2FNUZ), 61439.9, 0, 0), 0x7f);
  CHECK(f32_bits((float)ref_value(format_of(TCAST_DTYPE_FLOAT8E8M0), 0)) == 0x00400000u);
}

/* ---------------------------------------------------------------- packing */

static const tcast_dtype PACKED[] = {TCAST_DTYPE_INT4,       TCAST_DTYPE_UINT4,
                                     TCAST_DTYPE_FLOAT4E2M1, TCAST_DTYPE_INT2,
                                     TCAST_DTYPE_UINT2,      TCAST_DTYPE_FLOAT6E2M3,
                                     TCAST_DTYPE_FLOAT6E3M2};
#define N_PACKED ((int)(sizeof PACKED / sizeof PACKED[0]))
static const int64_t ODD_COUNTS[] = {1, 3, 5, 7, 31, 33, 1001};
#define N_ODD ((int)(sizeof ODD_COUNTS / sizeof ODD_COUNTS[0]))

static void test_tensor_bytes(void) {
  for (int p = 0; p < N_PACKED; p++) {
    tcast_dtype dt = PACKED[p];
    int bits = (int)tcast_dtype_bits(dt);
    CHECK_EQ_INT(bits, format_of(dt)->bits);
    for (int k = 0; k < N_ODD; k++) {
      int64_t n = ODD_COUNTS[k];
      uint64_t got = 0;
      CHECK_STATUS(tcast_tensor_bytes(dt, &n, 1, &got, TC_ERR), TCAST_OK);
      CHECK_MSG(got == packed_size(bits, (size_t)n),
                "tcast_tensor_bytes(%s, [%lld]) = %" PRIu64 ", expected %zu",
                tcast_dtype_name(dt), (long long)n, got, packed_size(bits, (size_t)n));
      /* Packing runs over the whole tensor, not row by row. */
      const int64_t shape2[2] = {3, n};
      CHECK_STATUS(tcast_tensor_bytes(dt, shape2, 2, &got, TC_ERR), TCAST_OK);
      CHECK_MSG(got == packed_size(bits, 3 * (size_t)n), "tcast_tensor_bytes(%s, [3, %lld]) = %"
                PRIu64, tcast_dtype_name(dt), (long long)n, got);
    }
    uint64_t got = 99;
    CHECK_STATUS(tcast_tensor_bytes(dt, NULL, 0, &got, TC_ERR), TCAST_OK);
    CHECK_EQ_INT(got, 1); /* a scalar is one element: one byte */
    const int64_t empty = 0;
    CHECK_STATUS(tcast_tensor_bytes(dt, &empty, 1, &got, TC_ERR), TCAST_OK);
    CHECK_EQ_INT(got, 0);
  }
}

static void test_packing_round_trips(void) {
  for (int p = 0; p < N_PACKED; p++) {
    tcast_dtype dt = PACKED[p];
    const lowfmt *f = format_of(dt);
    int bits = f->bits;
    unsigned ncodes = 1u << bits;
    for (int k = 0; k < N_ODD; k++) {
      int64_t n = ODD_COUNTS[k];
      size_t nb = packed_size(bits, (size_t)n);
      float *x = xmalloc((size_t)n * sizeof(float));
      float *back = xmalloc((size_t)n * sizeof(float));
      uint8_t *want_codes = xmalloc((size_t)n);
      uint8_t *want_packed = xmalloc(nb);
      uint8_t *got = xmalloc(nb);
      for (int64_t i = 0; i < n; i++) {
        unsigned c = (unsigned)(i * 7 + 3) % ncodes;
        x[i] = (float)ref_value(f, c);
        want_codes[i] = (uint8_t)ref_encode(f, x[i], 1, 0); /* c itself, -0 included */
      }
      pack_codes(bits, want_codes, (size_t)n, want_packed);
      if (run_cast(TCAST_DTYPE_FLOAT, x, dt, got, n, 1, 0, 0, __LINE__)) {
        CHECK_MSG(memcmp(got, want_packed, nb) == 0,
                  "FLOAT -> %s, %lld elements: packed bytes differ", tcast_dtype_name(dt),
                  (long long)n);
      }
      if (run_cast(dt, want_packed, TCAST_DTYPE_FLOAT, back, n, 1, 0, 0, __LINE__)) {
        int64_t bad = -1;
        for (int64_t i = 0; i < n && bad < 0; i++) {
          if (!same_f32(back[i], ref_value(f, want_codes[i]))) {
            bad = i;
          }
        }
        CHECK_MSG(bad < 0, "%s -> FLOAT, %lld elements: element %lld is %g, expected %g",
                  tcast_dtype_name(dt), (long long)n, (long long)bad,
                  bad < 0 ? 0.0 : (double)back[bad],
                  bad < 0 ? 0.0 : ref_value(f, want_codes[bad]));
      }

      /* One byte short, on the packed output and on the packed input. */
      {
        const int64_t shape[1] = {n};
        uint8_t *small = xmalloc(nb - 1 + GUARD_BYTES);
        memset(small, CANARY, nb - 1 + GUARD_BYTES);
        tcast_tensor ti = tensor(x, (uint64_t)n * 4, shape, 1, TCAST_DTYPE_FLOAT);
        tcast_tensor to = tensor(small, nb - 1, shape, 1, dt);
        CHECK_STATUS(tcast_cast(&ti, &to, NULL, TC_ERR), TCAST_ERR_BUFFER_TOO_SMALL);
        int clean = 1;
        for (size_t i = nb - 1; i < nb - 1 + GUARD_BYTES; i++) {
          clean &= small[i] == CANARY;
        }
        CHECK_MSG(clean, "FLOAT -> %s, %lld elements, data_bytes one short: wrote past the buffer",
                  tcast_dtype_name(dt), (long long)n);

        float *out = xmalloc((size_t)n * 4 + GUARD_BYTES);
        memset(out, CANARY, (size_t)n * 4 + GUARD_BYTES);
        memcpy(small, want_packed, nb - 1);
        tcast_tensor pi = tensor(small, nb - 1, shape, 1, dt);
        tcast_tensor po = tensor(out, (uint64_t)n * 4, shape, 1, TCAST_DTYPE_FLOAT);
        CHECK_STATUS(tcast_cast(&pi, &po, NULL, TC_ERR), TCAST_ERR_BUFFER_TOO_SMALL);
        clean = 1;
        for (size_t i = (size_t)n * 4; i < (size_t)n * 4 + GUARD_BYTES; i++) {
          clean &= ((unsigned char *)out)[i] == CANARY;
        }
        CHECK(clean);
        free(out);
        free(small);
      }

      /* Strides on a packed tensor, input or output, are refused. */
      {
        const int64_t shape[1] = {n};
        const int64_t unit[1] = {1};
        const int64_t two[1] = {2};
        float *out = xmalloc((size_t)n * 4);
        tcast_tensor pi = tensor(want_packed, nb, shape, 1, dt);
        tcast_tensor po = tensor(out, (uint64_t)n * 4, shape, 1, TCAST_DTYPE_FLOAT);
        pi.strides = unit;
        CHECK_STATUS(tcast_cast(&pi, &po, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);
        pi.strides = two;
        CHECK_STATUS(tcast_cast(&pi, &po, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);
        tcast_tensor fi = tensor(x, (uint64_t)n * 4, shape, 1, TCAST_DTYPE_FLOAT);
        tcast_tensor pout = tensor(got, nb, shape, 1, dt);
        pout.strides = unit;
        CHECK_STATUS(tcast_cast(&fi, &pout, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);
        free(out);
      }

      /* A strided FLOAT input into a packed output is fine: every other element. */
      {
        const int64_t shape[1] = {n};
        const int64_t two[1] = {2};
        float *spread = xmalloc((size_t)n * 2 * sizeof(float));
        for (int64_t i = 0; i < n; i++) {
          spread[2 * i] = x[i];
          spread[2 * i + 1] = f32_nan(1);
        }
        memset(got, 0xFF, nb);
        tcast_tensor fi = tensor(spread, ((uint64_t)n * 2 - 1) * 4, shape, 1, TCAST_DTYPE_FLOAT);
        fi.strides = two;
        tcast_tensor pout = tensor(got, nb, shape, 1, dt);
        CHECK_STATUS(tcast_cast(&fi, &pout, NULL, TC_ERR), TCAST_OK);
        CHECK_MSG(memcmp(got, want_packed, nb) == 0,
                  "strided FLOAT -> %s, %lld elements: packed bytes differ", tcast_dtype_name(dt),
                  (long long)n);
        free(spread);
      }
      free(x);
      free(back);
      free(want_codes);
      free(want_packed);
      free(got);
    }
  }
}

/* ---------------------------------------------------------------- the page's vectors */

static void test_float8_vector(void) {
  const float inf = f32_inf(0);
  const float v[15] = {0.47892547f, 0.48033667f, 0.49968487f, 0.81910545f, 0.47031248f,
                       0.7229038f,  1e6f,        1e-7f,       f32_nan(0),  inf,
                       inf,         -inf,        -1e-7f,      1e-7f,       -1e6f};
  expect_hex(v, 15, TCAST_DTYPE_FLOAT8E4M3FN, 1, 0, "2f2f30352f347e007f7e7efe8000fe", __LINE__);
  expect_hex(v, 15, TCAST_DTYPE_FLOAT8E4M3FN, 0, 0, "2f2f30352f347f007f7f7fff8000ff", __LINE__);
  expect_hex(v, 15, TCAST_DTYPE_FLOAT8E4M3FNUZ, 1, 0, "3737383d373c7f00807f7fff0000ff", __LINE__);
  expect_hex(v, 15, TCAST_DTYPE_FLOAT8E4M3FNUZ, 0, 0, "3737383d373c800080808080000080", __LINE__);
  expect_hex(v, 15, TCAST_DTYPE_FLOAT8E5M2, 1, 0, "3838383b383a7b007e7b7bfb8000fb", __LINE__);
  expect_hex(v, 15, TCAST_DTYPE_FLOAT8E5M2, 0, 0, "3838383b383a7c007e7c7cfc8000fc", __LINE__);
  expect_hex(v, 15, TCAST_DTYPE_FLOAT8E5M2FNUZ, 1, 0, "3c3c3c3f3c3e7f00807f7fff0000ff", __LINE__);
  expect_hex(v, 15, TCAST_DTYPE_FLOAT8E5M2FNUZ, 0, 0, "3c3c3c3f3c3e800080808080000080", __LINE__);
  /* The same vector as DOUBLE gives the same bytes (every value is an f32). */
  for (int sat = 0; sat <= 1; sat++) {
    for (int i = 0; i < 4; i++) {
      const lowfmt *f = &FORMATS[i];
      double d[15];
      for (int k = 0; k < 15; k++) {
        d[k] = (double)v[k];
      }
      expect_reference(TCAST_DTYPE_DOUBLE, d, d, 15, f->dtype, sat, 0, "float8 vector as DOUBLE",
                       __LINE__);
      expect_reference(TCAST_DTYPE_FLOAT, v, d, 15, f->dtype, sat, 0, "float8 vector (reference)",
                       __LINE__);
    }
  }
  /* -NaN keeps its sign where the format has one. */
  EXPECT_F32(f32_nan(1), TCAST_DTYPE_FLOAT8E4M3FN, 1, 0, 0xff);
  EXPECT_F32(f32_nan(1), TCAST_DTYPE_FLOAT8E5M2, 1, 0, 0xfe);
  EXPECT_F32(f32_nan(1), TCAST_DTYPE_FLOAT8E5M2, 0, 0, 0xfe);
  EXPECT_F32(f32_nan(1), TCAST_DTYPE_FLOAT8E4M3FNUZ, 1, 0, 0x80);
  EXPECT_F32(f32_nan(1), TCAST_DTYPE_FLOAT8E5M2FNUZ, 0, 0, 0x80);
  /* -0: kept for FN and E5M2, +0 for FNUZ. */
  EXPECT_F32(-0.0f, TCAST_DTYPE_FLOAT8E4M3FN, 1, 0, 0x80);
  EXPECT_F32(-0.0f, TCAST_DTYPE_FLOAT8E5M2, 1, 0, 0x80);
  EXPECT_F32(-0.0f, TCAST_DTYPE_FLOAT8E4M3FNUZ, 1, 0, 0x00);
  EXPECT_F32(-0.0f, TCAST_DTYPE_FLOAT8E5M2FNUZ, 0, 0, 0x00);
  /* Overflow thresholds (ties to even at the top). */
  EXPECT_F32(464.0f, TCAST_DTYPE_FLOAT8E4M3FN, 0, 0, 0x7e);
  EXPECT_F32(464.00003f, TCAST_DTYPE_FLOAT8E4M3FN, 0, 0, 0x7f);
  EXPECT_F32(-464.00003f, TCAST_DTYPE_FLOAT8E4M3FN, 0, 0, 0xff);
  EXPECT_F32(464.00003f, TCAST_DTYPE_FLOAT8E4M3FN, 1, 0, 0x7e);
  EXPECT_F32(247.99998f, TCAST_DTYPE_FLOAT8E4M3FNUZ, 0, 0, 0x7f);
  EXPECT_F32(248.0f, TCAST_DTYPE_FLOAT8E4M3FNUZ, 0, 0, 0x80);
  EXPECT_F32(-248.0f, TCAST_DTYPE_FLOAT8E4M3FNUZ, 1, 0, 0xff);
  EXPECT_F32(61439.996f, TCAST_DTYPE_FLOAT8E5M2, 0, 0, 0x7b);
  EXPECT_F32(61440.0f, TCAST_DTYPE_FLOAT8E5M2, 0, 0, 0x7c);
  EXPECT_F32(-61440.0f, TCAST_DTYPE_FLOAT8E5M2, 0, 0, 0xfc);
  EXPECT_F32(61440.0f, TCAST_DTYPE_FLOAT8E5M2FNUZ, 0, 0, 0x80);
  EXPECT_F32(61440.0f, TCAST_DTYPE_FLOAT8E5M2FNUZ, 1, 0, 0x7f);
  /* Gradual underflow: half the smallest subnormal is a tie to 0. */
  EXPECT_F32(0x1p-10f, TCAST_DTYPE_FLOAT8E4M3FN, 1, 0, 0x00);
  EXPECT_F32(0x1.000002p-10f, TCAST_DTYPE_FLOAT8E4M3FN, 1, 0, 0x01);
  EXPECT_F32(-0x1.8p-9f, TCAST_DTYPE_FLOAT8E4M3FN, 1, 0, 0x82);
  EXPECT_F32(-0x1p-11f, TCAST_DTYPE_FLOAT8E4M3FNUZ, 1, 0, 0x00);
  EXPECT_F32(-0x1p-18f, TCAST_DTYPE_FLOAT8E5M2FNUZ, 1, 0, 0x00);
  EXPECT_F32(-0x1.000002p-18f, TCAST_DTYPE_FLOAT8E5M2FNUZ, 1, 0, 0x81);
}

static void test_e8m0_vectors(void) {
  const tcast_dtype E8 = TCAST_DTYPE_FLOAT8E8M0;
  const float v[8] = {0.0f, 0.124f, 0.25f, 0.5f, 1.1f, 2.0f, 4.0f, 8.0f};
  expect_hex(v, 8, E8, 1, TCAST_ROUND_UP, "007c7d7e80808182", __LINE__);
  /* Hand-computed: down floors (0.124 -> 2^-4, 1.1 -> 1), nearest ties up at 1.5 * 2^k. */
  expect_hex(v, 8, E8, 1, TCAST_ROUND_DOWN, "007b7d7e7f808182", __LINE__);
  expect_hex(v, 8, E8, 1, TCAST_ROUND_NEAREST, "007c7d7e7f808182", __LINE__);
  /* Without saturate 0 is 0xFF. */
  expect_hex(v, 8, E8, 0, TCAST_ROUND_UP, "ff7c7d7e80808182", __LINE__);

  const float ties[] = {1.5f, 0.75f, 3.0f, 0x1.8p-100f, 1.4999999f, 0.74999994f, 1.5000001f};
  expect_hex(ties, 7, E8, 1, TCAST_ROUND_NEAREST, "807f811c7f7e80", __LINE__);
  expect_hex(ties, 7, E8, 1, TCAST_ROUND_UP, "807f811c807f80", __LINE__);
  expect_hex(ties, 7, E8, 1, TCAST_ROUND_DOWN, "7f7e801b7f7e7f", __LINE__);

  for (int mode = 0; mode <= 2; mode++) {
    /* saturate = 0: 0, -0, negatives, infinities, NaN and anything above 2^127 -> 0xFF. */
    EXPECT_F32(0.0f, E8, 0, mode, 0xff);
    EXPECT_F32(-0.0f, E8, 0, mode, 0xff);
    EXPECT_F32(-1.0f, E8, 0, mode, 0xff);
    EXPECT_F32(-0x1p-140f, E8, 0, mode, 0xff);
    EXPECT_F32(f32_inf(0), E8, 0, mode, 0xff);
    EXPECT_F32(f32_inf(1), E8, 0, mode, 0xff);
    EXPECT_F32(f32_nan(0), E8, 0, mode, 0xff);
    EXPECT_F32(f32_nan(1), E8, 0, mode, 0xff);
    EXPECT_F32(f32_from(0x7f000001), E8, 0, mode, 0xff);
    EXPECT_F32(f32_from(0x7f7fffff), E8, 0, mode, 0xff);
    EXPECT_F32(0x1p127f, E8, 0, mode, 0xfe);
    EXPECT_F32(1.0f, E8, 0, mode, 0x7f);
    /* saturate = 1: 0, -0 and negatives -> 0x00, NaN -> 0xFF, +inf and above -> 0xFE. */
    EXPECT_F32(0.0f, E8, 1, mode, 0x00);
    EXPECT_F32(-0.0f, E8, 1, mode, 0x00);
    EXPECT_F32(-1.0f, E8, 1, mode, 0x00);
    EXPECT_F32(f32_inf(1), E8, 1, mode, 0x00);
    EXPECT_F32(f32_nan(0), E8, 1, mode, 0xff);
    EXPECT_F32(f32_nan(1), E8, 1, mode, 0xff);
    EXPECT_F32(f32_inf(0), E8, 1, mode, 0xfe);
    EXPECT_F32(f32_from(0x7f000001), E8, 1, mode, 0xfe);
    EXPECT_F32(f32_from(0x7f7fffff), E8, 1, mode, 0xfe);
    EXPECT_F32(0x1p127f, E8, 1, mode, 0xfe);
    /* 2^-127 is code 0 exactly; below it saturate = 1 gives code 0 as well, and
       saturate = 0 NaN (Cast-24's "x < E8M0_MIN -> NaN"), from every source. */
    EXPECT_F32(0x1p-127f, E8, 1, mode, 0x00);
    EXPECT_F32(0x1p-127f, E8, 0, mode, 0x00);
    EXPECT_F32(0x1p-149f, E8, 1, mode, 0x00);
    EXPECT_F32(0x1p-149f, E8, 0, mode, 0xff);
    EXPECT_F32(0x1p-128f, E8, 0, mode, 0xff);
    EXPECT_F32(0x1.8p-128f, E8, 0, mode, 0xff);
    EXPECT_F32(0x1.fffff8p-128f, E8, 0, mode, 0xff); /* the largest f32 below 2^-127 */
    EXPECT_F64(0x1.fffffffffffffp-128, E8, 0, mode, 0xff);
    EXPECT_F64(0x1p-1074, E8, 0, mode, 0xff);
    EXPECT_F64(0x1.fffffffffffffp-128, E8, 1, mode, 0x00);
    EXPECT_F64(0x1p-127, E8, 0, mode, 0x00);
    {
      const uint16_t bf16_below[3] = {0x0001, 0x0020, 0x003f}; /* 2^-133, 2^-128, ... */
      const uint8_t nan3[3] = {0xff, 0xff, 0xff}, zero3[3] = {0, 0, 0};
      expect_codes(TCAST_DTYPE_BFLOAT16, bf16_below, 3, E8, 0, mode, nan3, 1,
                   "BFLOAT16 below 2^-127, saturate 0", __LINE__);
      expect_codes(TCAST_DTYPE_BFLOAT16, bf16_below, 3, E8, 1, mode, zero3, 1,
                   "BFLOAT16 below 2^-127, saturate 1", __LINE__);
    }
    EXPECT_F32(0x1p-126f, E8, 1, mode, 0x01);
  }
  /* The f32 subnormal binade [2^-127, 2^-126). */
  EXPECT_F32(0x1.4p-127f, E8, 1, TCAST_ROUND_UP, 0x01);
  EXPECT_F32(0x1.4p-127f, E8, 1, TCAST_ROUND_DOWN, 0x00);
  EXPECT_F32(0x1.4p-127f, E8, 1, TCAST_ROUND_NEAREST, 0x00);
  EXPECT_F32(0x1.8p-127f, E8, 1, TCAST_ROUND_NEAREST, 0x01);
  EXPECT_F32(0x1.7ffffcp-127f, E8, 1, TCAST_ROUND_NEAREST, 0x00);
  EXPECT_F32(0x1p-128f, E8, 1, TCAST_ROUND_UP, 0x00);
  EXPECT_F32(0x1.8p-128f, E8, 1, TCAST_ROUND_NEAREST, 0x00);
}

static void test_small_format_vectors(void) {
  const float inf = f32_inf(0);
  const float v4[15] = {0.48f, 0.25f, 1.05f, -3.5f, -8.0f, 9.0f, 1e6f, 1e-7f,
                        f32_nan(0), inf, inf, -inf, -4.0f, 0.01f, -0.0f};
  expect_hex(v4, 15, TCAST_DTYPE_FLOAT4E2M1, 1, 0, "01e27f0778f70e08", __LINE__);
  /* saturate does not apply to FLOAT4E2M1 */
  expect_hex(v4, 15, TCAST_DTYPE_FLOAT4E2M1, 0, 0, "01e27f0778f70e08", __LINE__);
  /* Nearest even: 0.25 -> 0, 0.75 -> 1, 2.5 -> 2, 3.5 -> 4, 5 -> 4, 1.25 -> 1; -NaN -> 0x0. */
  const float r4[8] = {0.25f, 0.75f, 2.5f, 3.5f, 5.0f, -5.0f, f32_nan(1), 1.25f};
  expect_hex(r4, 8, TCAST_DTYPE_FLOAT4E2M1, 1, 0, "2064e620", __LINE__);

  float ints[25];
  for (int i = 0; i < 25; i++) {
    ints[i] = (float)(i - 9);
  }
  expect_hex(ints, 25, TCAST_DTYPE_INT4, 1, 0, "87a9cbed0f21436587a9cbed0f", __LINE__);
  expect_hex(ints, 25, TCAST_DTYPE_UINT4, 1, 0, "87a9cbed0f21436587a9cbed0f", __LINE__);
  {
    float small[7];
    for (int i = 0; i < 7; i++) {
      small[i] = (float)(i - 3);
    }
    expect_hex(small, 7, TCAST_DTYPE_INT2, 1, 0, "3939", __LINE__);
    expect_hex(small, 7, TCAST_DTYPE_UINT2, 1, 0, "3939", __LINE__);
    int8_t small8[7];
    int32_t small32[7];
    int64_t small64[7];
    uint8_t c2[7];
    for (int i = 0; i < 7; i++) {
      small8[i] = (int8_t)(i - 3);
      small32[i] = i - 3;
      small64[i] = i - 3;
      c2[i] = (uint8_t)((i - 3) & 3);
    }
    expect_codes(TCAST_DTYPE_INT8, small8, 7, TCAST_DTYPE_INT2, 1, 0, c2, 1,
                 "INT8 -3..3", __LINE__);
    expect_codes(TCAST_DTYPE_INT32, small32, 7, TCAST_DTYPE_UINT2, 1, 0, c2, 1,
                 "INT32 -3..3", __LINE__);
    expect_codes(TCAST_DTYPE_INT64, small64, 7, TCAST_DTYPE_INT2, 1, 0, c2, 1,
                 "INT64 -3..3", __LINE__);
  }
  {
    int16_t i16[25];
    uint8_t c4[25];
    for (int i = 0; i < 25; i++) {
      i16[i] = (int16_t)(i - 9);
      c4[i] = (uint8_t)((i - 9) & 15);
    }
    expect_codes(TCAST_DTYPE_INT16, i16, 25, TCAST_DTYPE_INT4, 1, 0, c4, 1,
                 "INT16 -9..15", __LINE__);
    expect_codes(TCAST_DTYPE_INT16, i16, 25, TCAST_DTYPE_UINT4, 1, 0, c4, 1,
                 "INT16 -9..15", __LINE__);
  }
  /* Floats to the integer formats: nearest even, then the low bits; NaN/inf -> 0. */
  {
    const float fx[12] = {2.5f, -2.5f, 3.5f, 1.5f, -0.5f, 0.5000001f, 7.6f, -8.6f,
                          f32_nan(0), inf, -inf, 1e10f};
    const uint8_t c4[12] = {2, 14, 4, 2, 0, 1, 8, 7, 0, 0, 0, 0 /* 1e10 = 0x2540BE400 */};
    const uint8_t c2[12] = {2, 2, 0, 2, 0, 1, 0, 3, 0, 0, 0, 0};
    expect_codes(TCAST_DTYPE_FLOAT, fx, 12, TCAST_DTYPE_INT4, 1, 0, c4, 1,
                 "FLOAT -> INT4", __LINE__);
    expect_codes(TCAST_DTYPE_FLOAT, fx, 12, TCAST_DTYPE_UINT4, 1, 0, c4, 1,
                 "FLOAT -> UINT4", __LINE__);
    expect_codes(TCAST_DTYPE_FLOAT, fx, 12, TCAST_DTYPE_INT2, 1, 0, c2, 1,
                 "FLOAT -> INT2", __LINE__);
    expect_codes(TCAST_DTYPE_FLOAT, fx, 12, TCAST_DTYPE_UINT2, 1, 0, c2, 1,
                 "FLOAT -> UINT2", __LINE__);
  }

  /* FLOAT6E2M3: max 7.5 (0x1f); smallest subnormal 0.125. */
  {
    /* -0 and negatives rounding to 0 keep the sign (0x20); +NaN -> 0x20, -NaN -> 0x00. */
    const float x[16] = {7.5f,  7.75f, 8.0f,  100.0f, inf,    -inf,   f32_nan(0), f32_nan(1),
                         -0.0f, -0.01f, 0.0625f, 0.1875f, 1.0625f, 1.1875f, -7.5f,  0.0625001f};
    const uint8_t c[16] = {0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x3f, 0x20, 0x00,
                           0x20, 0x20, 0x00, 0x02, 0x08, 0x0a, 0x3f, 0x01};
    expect_codes(TCAST_DTYPE_FLOAT, x, 16, TCAST_DTYPE_FLOAT6E2M3, 1, 0, c, 1, "FLOAT6E2M3 cases",
                 __LINE__);
    expect_codes(TCAST_DTYPE_FLOAT, x, 16, TCAST_DTYPE_FLOAT6E2M3, 0, 0, c, 1,
                 "FLOAT6E2M3 cases, saturate 0 ignored", __LINE__);
    uint8_t packed[12];
    pack_codes(6, c, 16, packed);
    char hex[25];
    for (int i = 0; i < 12; i++) {
      sprintf(hex + 2 * i, "%02x", packed[i]);
    }
    expect_hex(x, 16, TCAST_DTYPE_FLOAT6E2M3, 1, 0, hex, __LINE__);
  }
  /* FLOAT6E3M2: max 28 (0x1f); 30 is the tie to 32: overflow, saturated. */
  {
    const float x[14] = {28.0f, 30.0f, 26.0f, 1e9f, -inf, f32_nan(0), f32_nan(1), -0.0f,
                         -0.03125f, 0.03125f, 0.09375f, 0.0625f, 27.0f, -1e-30f};
    const uint8_t c[14] = {0x1f, 0x1f, 0x1e, 0x1f, 0x3f, 0x20, 0x00, 0x20,
                           0x20, 0x00, 0x02, 0x01, 0x1f, 0x20};
    expect_codes(TCAST_DTYPE_FLOAT, x, 14, TCAST_DTYPE_FLOAT6E3M2, 1, 0, c, 1, "FLOAT6E3M2 cases",
                 __LINE__);
  }
  /* A known FLOAT6 layout: codes 0x3f, 0, 0, 0x01 -> 3f 00 04 (element 0 lowest). */
  {
    const float x[4] = {-28.0f, 0.0f, 0.0f, 0.0625f};
    expect_hex(x, 4, TCAST_DTYPE_FLOAT6E3M2, 1, 0, "3f0004", __LINE__);
    const float y[5] = {-28.0f, 0.0f, 0.0f, 0.0625f, 28.0f};
    expect_hex(y, 5, TCAST_DTYPE_FLOAT6E3M2, 1, 0, "3f00041f", __LINE__);
  }
}

/* ---------------------------------------------------------------- decoding every code */

static void test_decode_every_code(void) {
  for (int i = 0; i < N_FORMATS; i++) {
    const lowfmt *f = &FORMATS[i];
    unsigned ncodes = 1u << f->bits;
    uint8_t codes[256], packed[256];
    float got[256];
    double got64[256];
    for (unsigned c = 0; c < ncodes; c++) {
      codes[c] = (uint8_t)c;
    }
    pack_codes(f->bits, codes, ncodes, packed);
    if (run_cast(f->dtype, packed, TCAST_DTYPE_FLOAT, got, ncodes, 1, 0, 0, __LINE__)) {
      for (unsigned c = 0; c < ncodes; c++) {
        CHECK_MSG(same_f32(got[c], ref_value(f, c)),
                  "%s code 0x%02x -> FLOAT gave %.9g (0x%08" PRIx32 "), expected %.9g",
                  tcast_dtype_name(f->dtype), c, (double)got[c], f32_bits(got[c]), ref_value(f, c));
      }
    }
    if (run_cast(f->dtype, packed, TCAST_DTYPE_DOUBLE, got64, ncodes, 1, 0, 0, __LINE__)) {
      for (unsigned c = 0; c < ncodes; c++) {
        CHECK_MSG(same_f64(got64[c], ref_value(f, c)),
                  "%s code 0x%02x -> DOUBLE gave %.17g, expected %.17g",
                  tcast_dtype_name(f->dtype), c, got64[c], ref_value(f, c));
      }
    }
    /* One at a time: the scalar paths (8-bit codes only; packed codes are one group). */
    if (f->bits == 8) {
      int bad = 0;
      for (unsigned c = 0; c < ncodes; c++) {
        uint8_t one = (uint8_t)c;
        float x = 0;
        if (run_cast(f->dtype, &one, TCAST_DTYPE_FLOAT, &x, 1, 1, 0, 0, __LINE__) &&
            !same_f32(x, ref_value(f, c)) && ++bad <= 4) {
          tc_fail(__FILE__, __LINE__, "%s code 0x%02x alone -> FLOAT gave 0x%08" PRIx32,
                  tcast_dtype_name(f->dtype), c, f32_bits(x));
        }
      }
      CHECK(bad == 0);
    }
  }
  /* The page's decoding notes, spelled out. */
  {
    uint8_t c = 0x80;
    float x = 0;
    run_cast(TCAST_DTYPE_FLOAT8E4M3FNUZ, &c, TCAST_DTYPE_FLOAT, &x, 1, 1, 0, 0, __LINE__);
    CHECK_MSG((f32_bits(x) & 0xffc00000u) == 0xffc00000u, "E4M3FNUZ 0x80 -> 0x%08" PRIx32
              ", expected a negative quiet NaN", f32_bits(x));
    run_cast(TCAST_DTYPE_FLOAT8E5M2FNUZ, &c, TCAST_DTYPE_FLOAT, &x, 1, 1, 0, 0, __LINE__);
    CHECK((f32_bits(x) & 0xffc00000u) == 0xffc00000u);
    c = 0x00;
    run_cast(TCAST_DTYPE_FLOAT8E8M0, &c, TCAST_DTYPE_FLOAT, &x, 1, 1, 0, 0, __LINE__);
    CHECK_EQ_HEX(f32_bits(x), 0x00400000);
    c = 0xff;
    run_cast(TCAST_DTYPE_FLOAT8E8M0, &c, TCAST_DTYPE_FLOAT, &x, 1, 1, 0, 0, __LINE__);
    CHECK((f32_bits(x) & 0x7fc00000u) == 0x7fc00000u);
    c = 0x80;
    run_cast(TCAST_DTYPE_FLOAT8E4M3FN, &c, TCAST_DTYPE_FLOAT, &x, 1, 1, 0, 0, __LINE__);
    CHECK_EQ_HEX(f32_bits(x), 0x80000000);
    c = 0x7e;
    run_cast(TCAST_DTYPE_FLOAT8E4M3FN, &c, TCAST_DTYPE_FLOAT, &x, 1, 1, 0, 0, __LINE__);
    CHECK(x == 448.0f);
    c = 0xfc;
    run_cast(TCAST_DTYPE_FLOAT8E5M2, &c, TCAST_DTYPE_FLOAT, &x, 1, 1, 0, 0, __LINE__);
    CHECK_EQ_HEX(f32_bits(x), 0xff800000);
    /* E8M0 to FLOAT16: code 0 is 0, codes from 0x8F on are inf. */
    uint8_t e[4] = {0x00, 0x8e, 0x8f, 0xfe};
    uint16_t h[4];
    if (run_cast(TCAST_DTYPE_FLOAT8E8M0, e, TCAST_DTYPE_FLOAT16, h, 4, 1, 0, 0, __LINE__)) {
      CHECK_EQ_HEX(h[0], 0x0000);
      CHECK_EQ_HEX(h[1], 0x7800); /* 2^15 */
      CHECK_EQ_HEX(h[2], 0x7c00);
      CHECK_EQ_HEX(h[3], 0x7c00);
    }
  }
}

/* ---------------------------------------------------------------- boundaries and random */

/* Option sets that make a difference for a format. */
static int option_sets(const lowfmt *f, int sat[6], int mode[6]) {
  if (is_float8(f)) {
    sat[0] = 1, mode[0] = 0, sat[1] = 0, mode[1] = 0;
    return 2;
  }
  if (f->kind == K_E8M0) {
    for (int i = 0; i < 6; i++) {
      sat[i] = i / 3 == 0, mode[i] = i % 3;
    }
    return 6;
  }
  sat[0] = 1, mode[0] = 0;
  return 1;
}

/*
 * Boundary values of a float format as doubles: every value, the midpoints between
 * neighbours, and values just either side of both (an f32 ulp and a relative 2^-40, the
 * latter not an f32), both signs; plus zeros, tiny values, specials.
 */
static size_t boundary_values(const lowfmt *f, double *out) {
  size_t n = 0;
  if (f->kind == K_E8M0) {
    for (int k = -130; k <= 128; k++) {
      const double p = pow2(k);
      const double pts[4] = {p, 1.5 * p, 1.1 * p, 1.9 * p};
      for (int j = 0; j < 4; j++) {
        out[n++] = pts[j];
        out[n++] = pts[j] * (1 + 0x1p-40);
        out[n++] = pts[j] * (1 - 0x1p-40);
        out[n++] = pts[j] * (1 + 0x1p-23);
        out[n++] = pts[j] * (1 - 0x1p-24);
      }
    }
  } else {
    const double *v = values_of(f);
    for (unsigned c = 0; c <= f->max_code; c++) {
      const double mid = (v[c] + v[c + 1]) / 2;
      const double pts[2] = {v[c], mid};
      for (int j = 0; j < 2; j++) {
        out[n++] = pts[j];
        out[n++] = pts[j] * (1 + 0x1p-40);
        out[n++] = pts[j] * (1 - 0x1p-40);
        out[n++] = pts[j] * (1 + 0x1p-23);
        out[n++] = pts[j] * (1 - 0x1p-24);
      }
    }
    out[n++] = v[f->max_code + 1];
    out[n++] = v[f->max_code + 1] * 4;
    out[n++] = v[1] / 4;
    out[n++] = v[1] / 2 * (1 + 0x1p-40);
  }
  out[n++] = 0x1p-149;
  out[n++] = 1e-300;
  out[n++] = 1e300;
  out[n++] = 3.4e38;
  size_t half = n;
  for (size_t i = 0; i < half; i++) {
    out[n++] = -out[i];
  }
  out[n++] = 0.0;
  out[n++] = -0.0;
  out[n++] = f64_from(UINT64_C(0x7ff0000000000000));
  out[n++] = f64_from(UINT64_C(0xfff0000000000000));
  out[n++] = nan_with_sign(0);
  out[n++] = nan_with_sign(1);
  return n;
}

static void test_boundaries_and_random(void) {
  enum { MAX_VALUES = 16384, N_RANDOM = 1500 };
  double *d = xmalloc(MAX_VALUES * sizeof(double));
  double *dv = xmalloc(MAX_VALUES * sizeof(double));
  float *x = xmalloc(MAX_VALUES * sizeof(float));
  for (int i = 0; i < N_FORMATS; i++) {
    const lowfmt *f = &FORMATS[i];
    int sat[6], mode[6];
    int nopt = option_sets(f, sat, mode);
    size_t n;
    if (f->kind == K_INT || f->kind == K_UINT) {
      n = 0;
      for (int k = -80; k <= 80; k++) {
        d[n++] = k / 4.0;
        d[n++] = k / 4.0 + 0x1p-30;
        d[n++] = k / 4.0 - 0x1p-30;
      }
      const double big[] = {0x1p31, 0x1p31 + 3, -0x1p31 - 5, 0x1p52 + 1, 0x1p63, -0x1p63,
                            0x1p62 + 0x1p20 + 7, 1e19, -1e19, 1e300};
      for (size_t k = 0; k < sizeof big / sizeof big[0]; k++) {
        d[n++] = big[k];
      }
      d[n++] = -0.0;
      d[n++] = f64_from(UINT64_C(0x7ff0000000000000));
      d[n++] = f64_from(UINT64_C(0xfff0000000000000));
      d[n++] = nan_with_sign(0);
      d[n++] = nan_with_sign(1);
    } else {
      n = boundary_values(f, d);
    }
    /* random values over the format's range (and beyond), then random f32 bit patterns */
    double top = f->kind == K_E8M0 ? 0x1p127 : f->max_value * 1.1;
    for (int k = 0; k < N_RANDOM && n < MAX_VALUES; k++) {
      double r;
      if (k % 3 == 0) {
        r = f32_from((uint32_t)(rng_next() >> 32));
      } else if (f->kind == K_E8M0) {
        r = pow2((int)(rng_next() % 260) - 130) * (1 + rng_unit());
      } else {
        r = (2 * rng_unit() - 1) * top;
      }
      d[n++] = r;
    }
    /* FLOAT source: the values rounded to f32 (reference on the f32 value). */
    for (size_t k = 0; k < n; k++) {
      x[k] = (float)d[k];
      dv[k] = (double)x[k];
    }
    for (int o = 0; o < nopt; o++) {
      expect_reference(TCAST_DTYPE_FLOAT, x, dv, (int64_t)n, f->dtype, sat[o], mode[o],
                       "FLOAT boundaries and random", __LINE__);
      expect_reference(TCAST_DTYPE_DOUBLE, d, d, (int64_t)n, f->dtype, sat[o], mode[o],
                       "DOUBLE boundaries and random", __LINE__);
      /* the f32 values also one by one: the scalar tail */
      if (o == 0) {
        expect_reference(TCAST_DTYPE_FLOAT, x, dv, 31, f->dtype, sat[o], mode[o],
                         "FLOAT boundaries (tail only)", __LINE__);
      }
    }
  }
  free(d);
  free(dv);
  free(x);
}

/* Every FLOAT16 and BFLOAT16 value with a step, to every format under every option. */
static double f16_value(uint16_t h) {
  int sign = h >> 15, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  double v;
  if (e == 0x1f) {
    double inf = f64_from(UINT64_C(0x7ff0000000000000));
    return m ? nan_with_sign(sign) : (sign ? -inf : inf);
  }
  v = e == 0 ? m * pow2(-24) : (1024 + m) * pow2(e - 25);
  return sign ? -v : v;
}

static void test_half_sources(void) {
  enum { STEP = 23 };
  size_t n = 0;
  uint16_t *h = xmalloc((65536 / STEP + 1) * sizeof(uint16_t));
  uint16_t *b = xmalloc((65536 / STEP + 1) * sizeof(uint16_t));
  double *hv = xmalloc((65536 / STEP + 1) * sizeof(double));
  double *bv = xmalloc((65536 / STEP + 1) * sizeof(double));
  for (uint32_t c = 0; c < 65536; c += STEP) {
    h[n] = (uint16_t)c;
    b[n] = (uint16_t)c;
    hv[n] = f16_value((uint16_t)c);
    bv[n] = (double)f32_from(c << 16);
    n++;
  }
  for (int i = 0; i < N_FORMATS; i++) {
    const lowfmt *f = &FORMATS[i];
    int sat[6], mode[6];
    int nopt = option_sets(f, sat, mode);
    for (int o = 0; o < nopt; o++) {
      expect_reference(TCAST_DTYPE_FLOAT16, h, hv, (int64_t)n, f->dtype, sat[o], mode[o],
                       "FLOAT16 values", __LINE__);
      expect_reference(TCAST_DTYPE_BFLOAT16, b, bv, (int64_t)n, f->dtype, sat[o], mode[o],
                       "BFLOAT16 values", __LINE__);
    }
  }
  free(h);
  free(b);
  free(hv);
  free(bv);
}

/* ---------------------------------------------------------------- format to format */

static void test_low_to_low(void) {
  for (int s = 0; s < N_FORMATS; s++) {
    const lowfmt *from = &FORMATS[s];
    unsigned ncodes = 1u << from->bits;
    uint8_t codes[256], packed[256];
    double value[256];
    for (unsigned c = 0; c < ncodes; c++) {
      codes[c] = (uint8_t)c;
      value[c] = ref_value(from, c);
    }
    pack_codes(from->bits, codes, ncodes, packed);
    for (int t = 0; t < N_FORMATS; t++) {
      const lowfmt *to = &FORMATS[t];
      int sat[6], mode[6];
      int nopt = option_sets(to, sat, mode);
      for (int o = 0; o < nopt; o++) {
        char what[96];
        snprintf(what, sizeof what, "%s -> %s, every code", tcast_dtype_name(from->dtype),
                 tcast_dtype_name(to->dtype));
        if (from == to) {
          /* a same-dtype cast is a byte copy (E5M2 keeps its NaN codes 0x7d, 0xff, ...) */
          expect_codes(from->dtype, packed, ncodes, to->dtype, sat[o], mode[o], codes, 0, what,
                       __LINE__);
        } else {
          expect_reference(from->dtype, packed, value, ncodes, to->dtype, sat[o], mode[o], what,
                           __LINE__);
        }
      }
    }
  }
  /* A few spelled out. */
  {
    const uint8_t e5[8] = {0x60 /* 512: E4M3FN overflow */, 0x5f /* 448 */, 0x7c /* inf */,
                           0xfd /* -NaN */, 0x01 /* 2^-16 */, 0x5d /* 320 */, 0x80 /* -0 */,
                           0xe0 /* -512 */};
    const uint8_t sat1[8] = {0x7e, 0x7e, 0x7e, 0xff, 0x00, 0x7a, 0x80, 0xfe};
    const uint8_t sat0[8] = {0x7f, 0x7e, 0x7f, 0xff, 0x00, 0x7a, 0x80, 0xff};
    expect_codes(TCAST_DTYPE_FLOAT8E5M2, e5, 8, TCAST_DTYPE_FLOAT8E4M3FN, 1, 0, sat1, 1,
                 "E5M2 -> E4M3FN saturate", __LINE__);
    expect_codes(TCAST_DTYPE_FLOAT8E5M2, e5, 8, TCAST_DTYPE_FLOAT8E4M3FN, 0, 0, sat0, 1,
                 "E5M2 -> E4M3FN no saturate", __LINE__);
    const uint8_t e4[5] = {0x7e /* 448 */, 0x42 /* 2.5 -> 2 */, 0x46 /* 3.5 -> 4 */,
                           0xb8 /* -1 */, 0x7f /* NaN -> 0 */};
    uint8_t packed4[3];
    const uint8_t i4[5] = {0x0, 0x2, 0x4, 0xf, 0x0};
    pack_codes(4, i4, 5, packed4);
    expect_codes(TCAST_DTYPE_FLOAT8E4M3FN, e4, 5, TCAST_DTYPE_INT4, 1, 0, i4, 1,
                 "E4M3FN -> INT4", __LINE__);
    const uint8_t u2[5] = {0x0, 0x2, 0x0, 0x3, 0x0};
    expect_codes(TCAST_DTYPE_INT4, packed4, 5, TCAST_DTYPE_UINT2, 1, 0, u2, 1, "INT4 -> UINT2",
                 __LINE__);
    const uint8_t f4[4] = {0x7 /* 6 */, 0x8 /* -0 */, 0x1 /* 0.5 */, 0xd /* -3 */};
    uint8_t packedf4[2];
    pack_codes(4, f4, 4, packedf4);
    const uint8_t f6[4] = {0x16 /* 6 = 1.5 * 2^2 */, 0x20 /* -0 stays -0 */, 0x08 /* 0.5 */,
                           0x32 /* -3 */};
    expect_codes(TCAST_DTYPE_FLOAT4E2M1, packedf4, 4, TCAST_DTYPE_FLOAT6E3M2, 1, 0, f6, 1,
                 "FLOAT4E2M1 -> FLOAT6E3M2", __LINE__);
  }
}

/* ---------------------------------------------------------------- wide sources */

static void test_wide_sources(void) {
  const tcast_dtype E4 = TCAST_DTYPE_FLOAT8E4M3FN, E8 = TCAST_DTYPE_FLOAT8E8M0;
  /* Rounded once from the exact double (through f32 these would be 448 / 464). */
  EXPECT_F64(448.00000000001, E4, 1, 0, 0x7e);
  EXPECT_F64(448.00000000001, E4, 0, 0, 0x7e);
  EXPECT_F64(464.0, E4, 0, 0, 0x7e);
  EXPECT_F64(464.0000000001, E4, 1, 0, 0x7e);
  EXPECT_F64(464.0000000001, E4, 0, 0, 0x7f);
  EXPECT_F64(-464.0000000001, E4, 0, 0, 0xff);
  EXPECT_F64(463.9999999999, E4, 0, 0, 0x7e);
  EXPECT_F64(247.9999999999, TCAST_DTYPE_FLOAT8E4M3FNUZ, 0, 0, 0x7f);
  EXPECT_F64(61439.99999999, TCAST_DTYPE_FLOAT8E5M2, 0, 0, 0x7b);
  EXPECT_F64(1.0625 + 1e-12, E4, 1, 0, 0x39); /* just above the 1 / 1.125 tie */
  EXPECT_F64(1.0625, E4, 1, 0, 0x38);
  EXPECT_F64(1.1875 - 1e-12, E4, 1, 0, 0x39);
  EXPECT_F64(0x1p-10 + 0x1p-60, E4, 1, 0, 0x01);
  EXPECT_F64(1.5 + 1e-15, TCAST_DTYPE_FLOAT4E2M1, 1, 0, 0x3);
  EXPECT_F64(1.25 + 1e-15, TCAST_DTYPE_FLOAT4E2M1, 1, 0, 0x3);
  EXPECT_F64(1.25, TCAST_DTYPE_FLOAT4E2M1, 1, 0, 0x2);
  EXPECT_F64(7.75 - 1e-14, TCAST_DTYPE_FLOAT6E2M3, 1, 0, 0x1f);
  EXPECT_F64(1.0625 + 1e-14, TCAST_DTYPE_FLOAT6E2M3, 1, 0, 0x09);
  EXPECT_F64(1.0 + 0x1p-40, E8, 1, TCAST_ROUND_UP, 0x80);
  EXPECT_F64(1.0 + 0x1p-40, E8, 1, TCAST_ROUND_DOWN, 0x7f);
  EXPECT_F64(1.5 - 0x1p-40, E8, 1, TCAST_ROUND_NEAREST, 0x7f);
  EXPECT_F64(0x1p127 * (1 + 0x1p-40), E8, 1, TCAST_ROUND_DOWN, 0xfe);
  EXPECT_F64(0x1p127 * (1 + 0x1p-40), E8, 0, TCAST_ROUND_DOWN, 0xff);
  EXPECT_F64(1e300, E8, 1, TCAST_ROUND_UP, 0xfe);
  EXPECT_F64(1e-300, E8, 1, TCAST_ROUND_UP, 0x00);
  EXPECT_F64(1e-300, E8, 0, TCAST_ROUND_UP, 0xff); /* below 2^-127, not saturating: NaN */
  EXPECT_F64(2.5 + 1e-12, TCAST_DTYPE_INT4, 1, 0, 0x3);
  EXPECT_F64(-2.5, TCAST_DTYPE_INT4, 1, 0, 0xe);
  EXPECT_F64(4503599627370497.0 /* 2^52 + 1 */, TCAST_DTYPE_UINT4, 1, 0, 0x1);

  /* INT64 / UINT64 into E8M0 with up: the sticky bit must survive (2^62 + 1 is not a
     double). */
  EXPECT_I64(INT64_C(1) << 62, E8, 1, TCAST_ROUND_UP, 0xbd);
  EXPECT_I64((INT64_C(1) << 62) + 1, E8, 1, TCAST_ROUND_UP, 0xbe);
  EXPECT_I64((INT64_C(1) << 62) + 1, E8, 1, TCAST_ROUND_DOWN, 0xbd);
  EXPECT_I64(INT64_MAX, E8, 1, TCAST_ROUND_UP, 0xbe);
  EXPECT_I64(INT64_MAX, E8, 1, TCAST_ROUND_DOWN, 0xbd);
  EXPECT_I64(INT64_MAX, E8, 1, TCAST_ROUND_NEAREST, 0xbe);
  EXPECT_I64(INT64_C(3) << 60, E8, 1, TCAST_ROUND_NEAREST, 0xbd);
  EXPECT_I64((INT64_C(3) << 60) - 1, E8, 1, TCAST_ROUND_NEAREST, 0xbc);
  EXPECT_I64((INT64_C(1) << 40) + 1, E8, 1, TCAST_ROUND_UP, 0xa8);
  EXPECT_I64(INT64_C(1) << 40, E8, 1, TCAST_ROUND_UP, 0xa7);
  EXPECT_I64(INT64_MIN, E8, 1, TCAST_ROUND_UP, 0x00);
  EXPECT_I64(INT64_MIN, E8, 0, TCAST_ROUND_UP, 0xff);
  EXPECT_I64(0, E8, 1, TCAST_ROUND_UP, 0x00);
  EXPECT_I64(1, E8, 0, TCAST_ROUND_UP, 0x7f);
  EXPECT_U64(UINT64_MAX, E8, 1, TCAST_ROUND_UP, 0xbf);
  EXPECT_U64(UINT64_MAX, E8, 1, TCAST_ROUND_DOWN, 0xbe);
  EXPECT_U64((UINT64_C(1) << 63) + 1, E8, 1, TCAST_ROUND_UP, 0xbf);
  /* INT64 into the float8 formats: 464 + tiny is not representable that way, but large
     integers one past a tie are. */
  EXPECT_I64(INT64_C(1) << 62, E4, 1, 0, 0x7e);
  EXPECT_I64(INT64_C(1) << 62, E4, 0, 0, 0x7f);
  EXPECT_I64(-(INT64_C(1) << 62), TCAST_DTYPE_FLOAT8E5M2, 0, 0, 0xfc);
  EXPECT_I64(464, E4, 0, 0, 0x7e);
  EXPECT_I64(465, E4, 0, 0, 0x7f);
  EXPECT_I64(-7, TCAST_DTYPE_FLOAT4E2M1, 1, 0, 0xf);
  EXPECT_I64(5, TCAST_DTYPE_FLOAT4E2M1, 1, 0, 0x6);
  EXPECT_I64(INT64_C(0x123456789abcdef7), TCAST_DTYPE_INT4, 1, 0, 0x7);
  EXPECT_I64(INT64_C(0x123456789abcdef6), TCAST_DTYPE_INT2, 1, 0, 0x2);
  EXPECT_U64(UINT64_MAX, TCAST_DTYPE_UINT4, 1, 0, 0xf);
  {
    /* INT32 sources: exactly rounded too (2^24 + 1 is not an f32). */
    int32_t v = (1 << 24) + 1;
    expect_one(TCAST_DTYPE_INT32, &v, E8, 1, TCAST_ROUND_UP, 0x98, "INT32 2^24+1 -> E8M0 up",
               __LINE__);
    expect_one(TCAST_DTYPE_INT32, &v, E8, 1, TCAST_ROUND_DOWN, 0x97, "INT32 2^24+1 -> E8M0 down",
               __LINE__);
    uint32_t u = 0xffffffffu;
    expect_one(TCAST_DTYPE_UINT32, &u, E8, 1, TCAST_ROUND_DOWN, 0x9e, "UINT32 max -> E8M0 down",
               __LINE__);
  }
}

/* ---------------------------------------------------------------- strings */

static tcast_string view_str(const char *s) {
  tcast_string v;
  v.data = s;
  v.len = strlen(s);
  return v;
}

static void test_strings(void) {
  const char *texts[] = {"448", "464", "465", " -INF", "nan", "-NaN", "1e-10", "-1e-10",
                         "0.0029296875", "0.00292968750001", "0.0029296874999", "-0",
                         "1.0625", "1.06250000000001", "1e400"};
  const uint8_t sat1[] = {0x7e, 0x7e, 0x7e, 0xfe, 0x7f, 0xff, 0x00, 0x80,
                          0x02, 0x02, 0x01, 0x80, 0x38, 0x39, 0x7e};
  const uint8_t sat0[] = {0x7e, 0x7e, 0x7f, 0xff, 0x7f, 0xff, 0x00, 0x80,
                          0x02, 0x02, 0x01, 0x80, 0x38, 0x39, 0x7f};
  enum { N = sizeof texts / sizeof texts[0] };
  tcast_string views[N];
  for (int i = 0; i < N; i++) {
    views[i] = view_str(texts[i]);
  }
  expect_codes(TCAST_DTYPE_STRING, views, N, TCAST_DTYPE_FLOAT8E4M3FN, 1, 0, sat1, 0,
               "STRING -> FLOAT8E4M3FN saturate", __LINE__);
  expect_codes(TCAST_DTYPE_STRING, views, N, TCAST_DTYPE_FLOAT8E4M3FN, 0, 0, sat0, 0,
               "STRING -> FLOAT8E4M3FN no saturate", __LINE__);
  {
    tcast_string bad[2] = {view_str("1.0"), view_str("1.0x")};
    uint8_t out[2];
    const int64_t shape[1] = {2};
    tcast_tensor ti = tensor(bad, sizeof bad, shape, 1, TCAST_DTYPE_STRING);
    tcast_tensor to = tensor(out, 2, shape, 1, TCAST_DTYPE_FLOAT8E4M3FN);
    CHECK_STATUS(tcast_cast(&ti, &to, NULL, TC_ERR), TCAST_ERR_PARSE);
    CHECK_EQ_INT(tc_err.index, 1);
  }

  /* STRING -> INT4/UINT4/INT2/UINT2: an integer text converts as the float of its value
     does (docs/semantics-cast.md 8): round, then keep the low bits, however long the text
     ("20" -> UINT4 4 and "-5" -> UINT4 11 are the page's examples; 2^64 + 1 ends in
     ...0001; the last four digits of a decimal decide its low four bits: 7891 = 16 * 493
     + 3). Fractions and exponents go through DOUBLE: 2.5 -> 2, -2.5 -> -2, 1e3 = 1000 ->
     low bits 8; "1e400" (inf) and "nan" -> 0. */
  {
    const char *ints[] = {"20", "-5", "-9", "8", " 7 ", "-1", "18446744073709551616",
                          "18446744073709551617", "-18446744073709551617",
                          "123456789012345678901234567890123456789012345678901234567891",
                          "2.5", "-2.5", "1e3", "1e400", "nan", "-100000000000000000000"};
    /* the value modulo 16 of each text above */
    const uint8_t mod16[] = {4, 11, 7, 8, 7, 15, 0, 1, 15, 3, 2, 14, 8, 0, 0, 0};
    enum { K = sizeof ints / sizeof ints[0] };
    tcast_string iv[K];
    uint8_t c4[K], c2[K];
    for (int i = 0; i < K; i++) {
      iv[i] = view_str(ints[i]);
      c4[i] = mod16[i];
      c2[i] = mod16[i] & 3;
    }
    expect_codes(TCAST_DTYPE_STRING, iv, K, TCAST_DTYPE_INT4, 1, 0, c4, 0, "STRING -> INT4",
                 __LINE__);
    expect_codes(TCAST_DTYPE_STRING, iv, K, TCAST_DTYPE_UINT4, 1, 0, c4, 0, "STRING -> UINT4",
                 __LINE__);
    expect_codes(TCAST_DTYPE_STRING, iv, K, TCAST_DTYPE_INT2, 1, 0, c2, 0, "STRING -> INT2",
                 __LINE__);
    expect_codes(TCAST_DTYPE_STRING, iv, K, TCAST_DTYPE_UINT2, 1, 0, c2, 0, "STRING -> UINT2",
                 __LINE__);
  }
  /* STRING -> FLOAT8E8M0 with saturate = 0: below 2^-127 is NaN in every round mode. */
  {
    tcast_string ev[3] = {view_str("1e-39"), view_str("5e-39"),
                          view_str("5.877471754111438e-39") /* 2^-127 */};
    const uint8_t nan_nan_min[3] = {0xff, 0xff, 0x00}, sat[3] = {0x00, 0x00, 0x00};
    for (int mode = 0; mode <= 2; mode++) {
      expect_codes(TCAST_DTYPE_STRING, ev, 3, TCAST_DTYPE_FLOAT8E8M0, 0, mode, nan_nan_min, 0,
                   "STRING -> FLOAT8E8M0 saturate 0", __LINE__);
      expect_codes(TCAST_DTYPE_STRING, ev, 3, TCAST_DTYPE_FLOAT8E8M0, 1, mode, sat, 0,
                   "STRING -> FLOAT8E8M0 saturate 1", __LINE__);
    }
  }
  /* STRING -> FLOAT6: "-0" and tiny negatives keep the sign; +NaN -> 0x20, -NaN -> 0. */
  {
    tcast_string fv[5] = {view_str("-0"), view_str("-1e-30"), view_str("nan"),
                          view_str("-nan"), view_str("0")};
    const uint8_t want[5] = {0x20, 0x20, 0x20, 0x00, 0x00};
    expect_codes(TCAST_DTYPE_STRING, fv, 5, TCAST_DTYPE_FLOAT6E2M3, 1, 0, want, 0,
                 "STRING -> FLOAT6E2M3", __LINE__);
    expect_codes(TCAST_DTYPE_STRING, fv, 5, TCAST_DTYPE_FLOAT6E3M2, 1, 0, want, 0,
                 "STRING -> FLOAT6E3M2", __LINE__);
  }

  /* FLOAT8E4M3FN -> STRING: the shortest digits that read back in E4M3FN. */
  {
    const uint8_t codes[] = {0x38, 0x80, 0x7f, 0xff, 0x30, 0x34, 0xb0, 0x01, 0x00, 0x50};
    const char *want[] = {"1.0", "-0.0", "NaN", "NaN", "0.5", "0.75", "-0.5", "0.002", "0.0",
                          "8.0"};
    enum { M = sizeof codes / sizeof codes[0] };
    tcast_string out[M];
    char arena_buf[M * 64];
    const int64_t shape[1] = {M};
    uint64_t per = tcast_string_max_bytes(TCAST_DTYPE_FLOAT8E4M3FN);
    CHECK(per > 0 && per * M <= sizeof arena_buf);
    tcast_string_arena arena = {arena_buf, M * per, 0};
    tcast_tensor ti = tensor(codes, M, shape, 1, TCAST_DTYPE_FLOAT8E4M3FN);
    tcast_tensor to = tensor(out, sizeof out, shape, 1, TCAST_DTYPE_STRING);
    CHECK_STATUS(tcast_cast_to_strings(&ti, &to, &arena, NULL, TC_ERR), TCAST_OK);
    if (tc_err.status == TCAST_OK) {
      for (int i = 0; i < M; i++) {
        int same = out[i].len == strlen(want[i]) && memcmp(out[i].data, want[i], out[i].len) == 0;
        CHECK_MSG(same, "E4M3FN 0x%02x -> \"%.*s\", expected \"%s\"", codes[i], (int)out[i].len,
                  out[i].data, want[i]);
      }

    }
    /* tcast_cast refuses a numeric -> STRING output */
    CHECK_STATUS(tcast_cast(&ti, &to, NULL, TC_ERR), TCAST_ERR_UNSUPPORTED);
  }
  /* Every E4M3FN code round trips through text. */
  {
    uint8_t codes[256];
    tcast_string out[256];
    uint64_t per = tcast_string_max_bytes(TCAST_DTYPE_FLOAT8E4M3FN);
    char *arena_buf = xmalloc(256 * per);
    for (int c = 0; c < 256; c++) {
      codes[c] = (uint8_t)c;
    }
    const int64_t shape[1] = {256};
    tcast_string_arena arena = {arena_buf, 256 * per, 0};
    tcast_tensor ti = tensor(codes, 256, shape, 1, TCAST_DTYPE_FLOAT8E4M3FN);
    tcast_tensor to = tensor(out, sizeof out, shape, 1, TCAST_DTYPE_STRING);
    CHECK_STATUS(tcast_cast_to_strings(&ti, &to, &arena, NULL, TC_ERR), TCAST_OK);
    uint8_t want[256];
    for (int c = 0; c < 256; c++) {
      want[c] = c == 0xff ? 0x7f : (uint8_t)c; /* -NaN is written "NaN", which reads as +NaN */
    }
    expect_codes(TCAST_DTYPE_STRING, out, 256, TCAST_DTYPE_FLOAT8E4M3FN, 1, 0, want, 0,
                 "every E4M3FN code -> STRING -> E4M3FN", __LINE__);
    free(arena_buf);
  }
}

/* ---------------------------------------------------------------- threads */

static void test_threads(void) {
  enum { N = 300001 };
  float *x = xmalloc(N * sizeof(float));
  for (int i = 0; i < N; i++) {
    uint64_t r = rng_next();
    if (r % 1000 == 0) {
      x[i] = f32_nan((int)(r >> 40) & 1);
    } else if (r % 1000 == 1) {
      x[i] = f32_inf((int)(r >> 40) & 1);
    } else if (r % 4 == 0) {
      x[i] = (float)((int)(r >> 32) % 80) / 8.0f; /* exact ties for both formats */
    } else {
      x[i] = (float)((2 * rng_unit() - 1) * 10.0);
    }
  }
  const tcast_dtype targets[2] = {TCAST_DTYPE_INT4, TCAST_DTYPE_FLOAT6E2M3};
  for (int t = 0; t < 2; t++) {
    const lowfmt *f = format_of(targets[t]);
    size_t nb = packed_size(f->bits, N);
    uint8_t *one = xmalloc(nb), *three = xmalloc(nb);
    int ok1 = run_cast(TCAST_DTYPE_FLOAT, x, f->dtype, one, N, 1, 0, 1, __LINE__);
    int ok3 = run_cast(TCAST_DTYPE_FLOAT, x, f->dtype, three, N, 1, 0, 3, __LINE__);
    if (ok1 && ok3) {
      CHECK_MSG(memcmp(one, three, nb) == 0, "FLOAT -> %s of %d elements: threads = 3 differs "
                "from threads = 1", tcast_dtype_name(f->dtype), N);
      size_t bad = 0;
      for (size_t i = 0; i < N; i++) {
        unsigned want = ref_encode(f, x[i], 1, 0);
        if (code_at(f->bits, one, i) != want && ++bad <= 5) {
          tc_fail(__FILE__, __LINE__, "FLOAT %.9g -> %s (element %zu) gave 0x%02x, expected 0x%02x",
                  (double)x[i], tcast_dtype_name(f->dtype), i, code_at(f->bits, one, i), want);
        }
      }
      CHECK(bad == 0);
    }
    /* and back, unpacking on three threads */
    float *b1 = xmalloc(N * sizeof(float)), *b3 = xmalloc(N * sizeof(float));
    ok1 = run_cast(f->dtype, one, TCAST_DTYPE_FLOAT, b1, N, 1, 0, 1, __LINE__);
    ok3 = run_cast(f->dtype, one, TCAST_DTYPE_FLOAT, b3, N, 1, 0, 3, __LINE__);
    if (ok1 && ok3) {
      CHECK(memcmp(b1, b3, N * sizeof(float)) == 0);
      size_t bad = 0;
      for (size_t i = 0; i < N; i++) {
        bad += !same_f32(b1[i], ref_value(f, code_at(f->bits, one, i)));
      }
      CHECK_MSG(bad == 0, "%s -> FLOAT: %zu of %d values wrong", tcast_dtype_name(f->dtype),
                bad, N);
    }
    free(b1);
    free(b3);
    free(one);
    free(three);
  }
  free(x);
}

/* ---------------------------------------------------------------- one element per byte */

/* tcast_cast_sub_byte with TCAST_SUB_BYTE_UNPACKED: ml_dtypes' storage, one element per
 * byte, its code in the low bits. Every byte of every sub-byte dtype reads as the value
 * of its low bits; FLOAT -> each dtype writes the reference codes with the high bits 0
 * (on one thread and on three); the tensor's bytes are its element count (one short is
 * refused, naming the size, with nothing written past the buffer); inputs may be
 * strided; a value of sub_byte_layout other than the two is refused, after the NULL
 * pointers. */
static void test_unpacked_layout(void) {
  tcast_cast_options o;
  CHECK_STATUS(tcast_cast_options_init(&o, sizeof o), TCAST_OK);
  for (int p = 0; p < N_PACKED; p++) {
    tcast_dtype dt = PACKED[p];
    const lowfmt *f = format_of(dt);
    unsigned mask = (1u << f->bits) - 1;
    /* Every byte in, read as its low bits. */
    {
      uint8_t bytes[256];
      float back[256];
      const int64_t shape[1] = {256};
      for (int i = 0; i < 256; i++) {
        bytes[i] = (uint8_t)i;
      }
      tcast_tensor ui = tensor(bytes, sizeof bytes, shape, 1, dt);
      tcast_tensor fo = tensor(back, sizeof back, shape, 1, TCAST_DTYPE_FLOAT);
      CHECK_STATUS(tcast_cast_sub_byte(&ui, &fo, &o, TCAST_SUB_BYTE_UNPACKED, TC_ERR), TCAST_OK);
      int bad = -1;
      for (int i = 0; i < 256 && bad < 0; i++) {
        if (!same_f32(back[i], ref_value(f, (unsigned)i & mask))) {
          bad = i;
        }
      }
      CHECK_MSG(bad < 0, "%s unpacked byte 0x%02x -> FLOAT: %g, expected %g",
                tcast_dtype_name(dt), bad < 0 ? 0 : bad, bad < 0 ? 0.0 : (double)back[bad],
                bad < 0 ? 0.0 : ref_value(f, (unsigned)bad & mask));
      /* Every other byte, through strides of 2. */
      const int64_t half[1] = {128};
      const int64_t two[1] = {2};
      ui = tensor(bytes + 1, 255, half, 1, dt);
      ui.strides = two;
      fo = tensor(back, 128 * sizeof(float), half, 1, TCAST_DTYPE_FLOAT);
      CHECK_STATUS(tcast_cast_sub_byte(&ui, &fo, &o, TCAST_SUB_BYTE_UNPACKED, TC_ERR), TCAST_OK);
      bad = -1;
      for (int i = 0; i < 128 && bad < 0; i++) {
        if (!same_f32(back[i], ref_value(f, (unsigned)(2 * i + 1) & mask))) {
          bad = i;
        }
      }
      CHECK_MSG(bad < 0, "%s unpacked, stride 2 -> FLOAT: element %d differs",
                tcast_dtype_name(dt), bad);
    }
    /* FLOAT out: the reference codes, high bits 0, threads 1 and 3 alike. */
    for (int k = 0; k < N_ODD; k++) {
      int64_t n = ODD_COUNTS[k] * (tc_quick() ? 31 : 331);
      const int64_t shape[1] = {n};
      float *x = xmalloc((size_t)n * sizeof(float));
      uint8_t *got = xmalloc((size_t)n + GUARD_BYTES);
      uint8_t *got3 = xmalloc((size_t)n);
      for (int64_t i = 0; i < n; i++) {
        x[i] = (float)((2 * rng_unit() - 1) * 16.0);
      }
      memset(got, CANARY, (size_t)n + GUARD_BYTES);
      tcast_tensor fi = tensor(x, (uint64_t)n * 4, shape, 1, TCAST_DTYPE_FLOAT);
      tcast_tensor uo = tensor(got, (uint64_t)n, shape, 1, dt);
      o.threads = 1;
      CHECK_STATUS(tcast_cast_sub_byte(&fi, &uo, &o, TCAST_SUB_BYTE_UNPACKED, TC_ERR), TCAST_OK);
      int64_t bad = -1;
      for (int64_t i = 0; i < n && bad < 0; i++) {
        if (got[i] != ref_encode(f, x[i], 1, 0)) {
          bad = i;
        }
      }
      CHECK_MSG(bad < 0, "FLOAT %.9g -> %s unpacked (element %lld of %lld): 0x%02x, expected 0x%02x",
                bad < 0 ? 0.0 : (double)x[bad], tcast_dtype_name(dt), (long long)bad,
                (long long)n, bad < 0 ? 0u : got[bad], bad < 0 ? 0u : ref_encode(f, x[bad], 1, 0));
      o.threads = 3;
      uo.data = got3;
      CHECK_STATUS(tcast_cast_sub_byte(&fi, &uo, &o, TCAST_SUB_BYTE_UNPACKED, TC_ERR), TCAST_OK);
      CHECK_MSG(memcmp(got, got3, (size_t)n) == 0, "FLOAT -> %s unpacked, %lld elements: "
                "threads = 3 differs from threads = 1", tcast_dtype_name(dt), (long long)n);
      o.threads = 0;
      /* One byte short: refused, naming the bytes needed, nothing written past it. */
      char needs[64];
      snprintf(needs, sizeof needs, "needs %lld bytes", (long long)n);
      memset(got, CANARY, (size_t)n + GUARD_BYTES);
      uo = tensor(got, (uint64_t)n - 1, shape, 1, dt);
      CHECK_STATUS(tcast_cast_sub_byte(&fi, &uo, &o, TCAST_SUB_BYTE_UNPACKED, TC_ERR),
                   TCAST_ERR_BUFFER_TOO_SMALL);
      CHECK_MSG(strstr(tc_err.message, needs) != NULL, "message \"%s\" lacks \"%s\"",
                tc_err.message, needs);
      int clean = 1;
      for (int64_t i = n - 1; i < n + GUARD_BYTES; i++) {
        clean &= got[i] == CANARY;
      }
      CHECK(clean);
      /* The packed size, enough for tcast_cast, is short unpacked as an input too. */
      tcast_tensor ui = tensor(got, packed_size(f->bits, (size_t)n), shape, 1, dt);
      tcast_tensor fo = tensor(x, (uint64_t)n * 4, shape, 1, TCAST_DTYPE_FLOAT);
      CHECK_STATUS(tcast_cast_sub_byte(&ui, &fo, &o, TCAST_SUB_BYTE_UNPACKED, TC_ERR),
                   TCAST_ERR_BUFFER_TOO_SMALL);
      free(x);
      free(got);
      free(got3);
    }
  }
  /* ml_dtypes' bytes for -1: int4 0x0F, int2 0x03, float4_e2m1fn 0x0A, float6_e2m3fn 0x28. */
  {
    const float minus_one[4] = {-1.0f, -1.0f, -1.0f, -1.0f};
    const tcast_dtype to[4] = {TCAST_DTYPE_INT4, TCAST_DTYPE_INT2, TCAST_DTYPE_FLOAT4E2M1,
                               TCAST_DTYPE_FLOAT6E2M3};
    const unsigned want[4] = {0x0f, 0x03, 0x0a, 0x28};
    const int64_t one[1] = {1};
    for (int i = 0; i < 4; i++) {
      uint8_t byte = 0xff;
      tcast_tensor fi = tensor(&minus_one[i], 4, one, 1, TCAST_DTYPE_FLOAT);
      tcast_tensor uo = tensor(&byte, 1, one, 1, to[i]);
      CHECK_STATUS(tcast_cast_sub_byte(&fi, &uo, NULL, TCAST_SUB_BYTE_UNPACKED, TC_ERR), TCAST_OK);
      CHECK_EQ_HEX(byte, want[i]);
      /* TCAST_SUB_BYTE_PACKED is tcast_cast: one packed byte, the high bits 0. */
      byte = 0xff;
      CHECK_STATUS(tcast_cast_sub_byte(&fi, &uo, NULL, TCAST_SUB_BYTE_PACKED, TC_ERR), TCAST_OK);
      CHECK_EQ_HEX(byte, want[i]);
    }
  }
  /* Bad values of sub_byte_layout, after NULL pointers and dtypes. */
  {
    float x[2] = {1.0f, 2.0f};
    uint8_t out[2];
    const int64_t shape[1] = {2};
    tcast_tensor fi = tensor(x, sizeof x, shape, 1, TCAST_DTYPE_FLOAT);
    tcast_tensor uo = tensor(out, sizeof out, shape, 1, TCAST_DTYPE_UINT4);
    CHECK_STATUS(tcast_cast_sub_byte(&fi, &uo, NULL, 2, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
    CHECK_MSG(strstr(tc_err.message, "sub_byte_layout is 2") != NULL, "message: %s",
              tc_err.message);
    CHECK_STATUS(tcast_cast_sub_byte(&fi, &uo, NULL, -1, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
    /* A cast the plain path would take checks the value too. */
    tcast_tensor bo = tensor(out, sizeof out, shape, 1, TCAST_DTYPE_UINT8);
    CHECK_STATUS(tcast_cast_sub_byte(&fi, &bo, NULL, 7, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(tcast_cast_sub_byte(&fi, &bo, NULL, TCAST_SUB_BYTE_UNPACKED, TC_ERR), TCAST_OK);
    CHECK_STATUS(tcast_cast_sub_byte(NULL, &uo, NULL, 2, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
    uo.dtype = 999;
    CHECK_STATUS(tcast_cast_sub_byte(&fi, &uo, NULL, 2, TC_ERR), TCAST_ERR_INVALID_DTYPE);
  }
}

/* ---------------------------------------------------------------- options */

static void test_options(void) {
  float x[3] = {1.0f, 2.0f, 3.0f};
  uint8_t out[3];
  const int64_t shape[1] = {3};
  tcast_tensor ti = tensor(x, sizeof x, shape, 1, TCAST_DTYPE_FLOAT);
  tcast_tensor to = tensor(out, 3, shape, 1, TCAST_DTYPE_FLOAT8E8M0);
  tcast_cast_options o = options(1, 3, 0);
  CHECK_STATUS(tcast_cast(&ti, &to, &o, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
  o = options(1, -1, 0);
  CHECK_STATUS(tcast_cast(&ti, &to, &o, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
  o = options(2, 0, 0);
  CHECK_STATUS(tcast_cast(&ti, &to, &o, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
  to.dtype = TCAST_DTYPE_FLOAT8E4M3FN;
  CHECK_STATUS(tcast_cast(&ti, &to, &o, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
  /* defaults: saturate 1, round_mode up */
  tcast_cast_options d = tcast_cast_options_default();
  CHECK_EQ_INT(d.saturate, 1);
  CHECK_EQ_INT(d.round_mode, TCAST_ROUND_UP);
  float big[2] = {1000.0f, 1.1f};
  tcast_tensor bi = tensor(big, sizeof big, shape, 1, TCAST_DTYPE_FLOAT);
  const int64_t two[1] = {2};
  bi.shape = two;
  to.shape = two;
  to.dtype = TCAST_DTYPE_FLOAT8E4M3FN;
  CHECK_STATUS(tcast_cast(&bi, &to, NULL, TC_ERR), TCAST_OK);
  CHECK_EQ_HEX(out[0], 0x7e);
  to.dtype = TCAST_DTYPE_FLOAT8E8M0;
  CHECK_STATUS(tcast_cast(&bi, &to, NULL, TC_ERR), TCAST_OK);
  CHECK_EQ_HEX(out[1], 0x80);
}

int main(void) {
  build_value_tables();
  test_reference_tables();
  test_tensor_bytes();
  test_packing_round_trips();
  test_float8_vector();
  test_e8m0_vectors();
  test_small_format_vectors();
  test_decode_every_code();
  test_boundaries_and_random();
  test_half_sources();
  test_low_to_low();
  test_wide_sources();
  test_strings();
  test_threads();
  test_unpacked_layout();
  test_options();
  return tc_summary();
}
