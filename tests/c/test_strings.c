/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * STRING casts (docs/semantics-cast.md section 8, docs/c-api.md sections 4-5):
 *  - STRING -> numeric through tcast_cast: accepted and refused texts for every numeric
 *    target, error index and message, NULL views, strided STRING inputs, STRING -> STRING;
 *  - numeric -> STRING through tcast_cast_to_strings: the arena contract and every error
 *    it documents;
 *  - the two text formats: the documented TCAST_FORMAT_SHORTEST examples, and
 *    TCAST_FORMAT_PRINTF_8G against this C library's own snprintf on a few hundred
 *    thousand values;
 *  - round trips: every FLOAT16 and BFLOAT16 code, and random FLOAT / DOUBLE values,
 *    formatted (shortest) and parsed back give the same bits.
 *
 * The random loops are sized so that the program also finishes quickly under valgrind.
 */
#include <math.h>   /* isnan, isinf, INFINITY, NAN: macros only, no libm needed */
#include <stdlib.h> /* strtod, strtof (reference parsers, correctly rounded in glibc) */

#include "tc_check.h"
#include "tc_util.h"

#define CANARY 0xCD
#define CANARY_BYTES 64
#define LIT(s) (s), (sizeof(s) - 1) /* a literal's bytes and length, NULs included */

/* ---------------------------------------------------------------- small helpers */

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;

static uint64_t rng_next(void) { return xorshift64star(&rng_state); }

/* xorshift64*: deterministic, so that a failure reproduces. */
static uint64_t rng_below(uint64_t n) { return rng_next() % n; }

static tcast_string view_of(const char *bytes, size_t len) {
  tcast_string v;
  v.data = bytes;
  v.len = len;
  return v;
}

static tcast_string view_str(const char *s) { return view_of(s, strlen(s)); }

/* A text for a failure message: printable ASCII as is, other bytes as \xNN. */
static void printable(char *buf, size_t cap, const char *text, uint64_t len) {
  size_t o = 0;
  for (uint64_t i = 0; i < len && o + 5 < cap; i++) {
    unsigned char c = (unsigned char)text[i];
    if (c >= 0x20 && c < 0x7f) {
      buf[o++] = (char)c;
    } else {
      o += (size_t)snprintf(buf + o, cap - o, "\\x%02x", c);
    }
  }
  buf[o] = '\0';
}

static int view_is(tcast_string v, const char *expected) {
  size_t n = strlen(expected);
  return v.len == n && (n == 0 || (v.data != NULL && memcmp(v.data, expected, n) == 0));
}

/* ---------------------------------------------------------------- reference numbers */

/* The value of a FLOAT16 code, exactly. */
static double f16_value(uint16_t h) {
  int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double v;
  if (exp == 0x1f) {
    v = mant ? (double)NAN : (double)INFINITY;
  } else if (exp == 0) {
    v = (double)mant * (1.0 / 16777216.0); /* mant * 2^-24 */
  } else {
    /* (1024 + mant) * 2^(exp - 25), the power of two built from its bits */
    v = (double)(1024 + mant) * f64_from((uint64_t)(exp - 25 + 1023) << 52);
  }
  return sign ? -v : v;
}

static int f16_is_nan(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }
static int bf16_is_nan(uint16_t b) { return (b & 0x7f80) == 0x7f80 && (b & 0x7f); }
static float bf16_value(uint16_t b) { return f32_from((uint32_t)b << 16); }

/*
 * Rounds a double to the binary format with E exponent bits and M mantissa bits: to
 * nearest, ties to even, subnormals kept, overflow to infinity; NaN becomes a quiet NaN
 * of the same sign. (For the 16-bit targets, which parse to f64 and then round once.)
 */
static uint32_t round_double_to(double x, int E, int M) {
  uint64_t b = f64_bits(x);
  uint32_t sign = (uint32_t)(b >> 63) << (E + M);
  int exp = (int)((b >> 52) & 0x7ff);
  uint64_t frac = b & ((UINT64_C(1) << 52) - 1);
  uint32_t exp_mask = ((UINT32_C(1) << E) - 1) << M;
  const int bias = (1 << (E - 1)) - 1, emin = 1 - bias, emax = bias;
  if (exp == 0x7ff) {
    return sign | exp_mask | (frac ? UINT32_C(1) << (M - 1) : 0);
  }
  if (exp == 0) {
    return sign; /* zero, or a double subnormal: far below half the target's smallest step */
  }
  int e = exp - 1023;
  if (e > emax) {
    return sign | exp_mask;
  }
  uint64_t s = frac | (UINT64_C(1) << 52); /* x = s * 2^(e - 52) */
  int step = (e < emin ? emin : e) - M;     /* the target's quantum is 2^step */
  int shift = step - (e - 52);
  uint64_t q;
  if (shift >= 64) {
    q = 0;
  } else {
    uint64_t rem = s & ((UINT64_C(1) << shift) - 1), half = UINT64_C(1) << (shift - 1);
    q = s >> shift;
    if (rem > half || (rem == half && (q & 1))) {
      q++;
    }
  }
  if (e < emin) {
    return sign | (uint32_t)q; /* q == 2^M is the smallest normal: the encoding agrees */
  }
  /* A carry out of the mantissa steps the exponent, up to infinity: still right. */
  return sign | (uint32_t)(((uint64_t)(e + bias) << M) + q - (UINT64_C(1) << M));
}

static uint16_t ref_f16(double x) { return (uint16_t)round_double_to(x, 5, 10); }
static uint16_t ref_bf16(double x) { return (uint16_t)round_double_to(x, 8, 7); }

/* ---------------------------------------------------------------- parsing: helpers */

/* Parses n contiguous views into n elements of `to` at `out` (tcast_cast, TC_ERR). */
static tcast_status parse_views(const tcast_string *views, int64_t n, tcast_dtype to,
                                void *out) {
  const int64_t shape[1] = {n};
  tcast_tensor in = tensor(views, (uint64_t)n * sizeof(tcast_string), shape, 1,
                           TCAST_DTYPE_STRING);
  tcast_tensor o = tensor(out, (uint64_t)n * dtype_size(to), shape, 1, to);
  return tcast_cast(&in, &o, NULL, TC_ERR);
}

static const tcast_dtype NUMERIC_TARGETS[] = {
    TCAST_DTYPE_INT8,    TCAST_DTYPE_UINT8,   TCAST_DTYPE_INT16,   TCAST_DTYPE_UINT16,
    TCAST_DTYPE_INT32,   TCAST_DTYPE_UINT32,  TCAST_DTYPE_INT64,   TCAST_DTYPE_UINT64,
    TCAST_DTYPE_FLOAT16, TCAST_DTYPE_BFLOAT16, TCAST_DTYPE_FLOAT,  TCAST_DTYPE_DOUBLE,
    TCAST_DTYPE_BOOL,    TCAST_DTYPE_QINT8,   TCAST_DTYPE_QUINT8,  TCAST_DTYPE_QINT16,
    TCAST_DTYPE_QUINT16, TCAST_DTYPE_QINT32,
};
#define N_NUMERIC_TARGETS (sizeof NUMERIC_TARGETS / sizeof NUMERIC_TARGETS[0])

/* ---------------------------------------------------------------- parsing: floats */

typedef struct {
  const char *text;
  double f64;
  float f32;
} float_case;

static const float_case FLOAT_ACCEPTED[] = {
    {"3.14", 3.14, 3.14f},
    {" 2.5 ", 2.5, 2.5f},
    {"\t\n1e-5\r ", 1e-5, 1e-5f},
    /* all six isspace characters are trimmed, \v and \f included */
    {"\v1.5", 1.5, 1.5f},
    {"\f\v -2.5\v\f\r\n\t ", -2.5, -2.5f},
    {"1e-5", 1e-5, 1e-5f},
    {"1E8", 1e8, 1e8f},
    {"+INF", INFINITY, INFINITY},
    {"INF", INFINITY, INFINITY},
    {"-Infinity", -INFINITY, -INFINITY},
    {"infinity", INFINITY, INFINITY},
    {"-inf", -INFINITY, -INFINITY},
    {".5", 0.5, 0.5f},
    {"5.", 5.0, 5.0f},
    {"-0", -0.0, -0.0f},
    {"+0.0", 0.0, 0.0f},
    {"0.1", 0.1, 0.1f},
    {"-1.5e+3", -1500.0, -1500.0f},
    {"1e400", INFINITY, INFINITY},
    {"-1e400", -INFINITY, -INFINITY},
    {"1e-400", 0.0, 0.0f},
    {"1e39", 1e39, INFINITY},
    {"3.4028235e38", 3.4028235e38, 3.4028235e38f},
    {"1.4e-45", 1.4e-45, 1.4e-45f},
    {"4.9406564584124654e-324", 4.9406564584124654e-324, 0.0f},
    {"123456789012345678901234567890", 123456789012345678901234567890.0,
     123456789012345678901234567890.0f},
    /* Just above the midpoint between 1 and the next float: correctly rounded it is
       1 + 2^-23; through double first it would be the tie, rounded to 1. */
    {"1.00000005960464477539062500001", 1.0000000596046448, 1.00000012f},
    {"0.000000000000000000000000000000000000000000001", 1e-45, 1.4e-45f},
};

static const char *const NAN_TEXTS[] = {"nan", "NaN", "-nan", "+NAN", " nan "};

static void test_parse_float_targets(void) {
  const size_t n = sizeof FLOAT_ACCEPTED / sizeof FLOAT_ACCEPTED[0];
  tcast_string views[sizeof FLOAT_ACCEPTED / sizeof FLOAT_ACCEPTED[0]];
  float f32s[sizeof FLOAT_ACCEPTED / sizeof FLOAT_ACCEPTED[0]];
  double f64s[sizeof FLOAT_ACCEPTED / sizeof FLOAT_ACCEPTED[0]];
  for (size_t i = 0; i < n; i++) {
    views[i] = view_str(FLOAT_ACCEPTED[i].text);
  }
  CHECK_STATUS(parse_views(views, (int64_t)n, TCAST_DTYPE_FLOAT, f32s), TCAST_OK);
  CHECK_STATUS(parse_views(views, (int64_t)n, TCAST_DTYPE_DOUBLE, f64s), TCAST_OK);
  for (size_t i = 0; i < n; i++) {
    const float_case *c = &FLOAT_ACCEPTED[i];
    CHECK_MSG(f32_bits(f32s[i]) == f32_bits(c->f32),
              "\"%s\" -> FLOAT gave 0x%08x, expected 0x%08x", c->text, f32_bits(f32s[i]),
              f32_bits(c->f32));
    CHECK_MSG(f64_bits(f64s[i]) == f64_bits(c->f64),
              "\"%s\" -> DOUBLE gave 0x%016" PRIx64 ", expected 0x%016" PRIx64, c->text,
              f64_bits(f64s[i]), f64_bits(c->f64));
    /* The C library's correctly rounded parsers agree with the table. */
    CHECK_MSG(f32_bits(strtof(c->text, NULL)) == f32_bits(c->f32), "table row \"%s\" (f32)",
              c->text);
    CHECK_MSG(f64_bits(strtod(c->text, NULL)) == f64_bits(c->f64), "table row \"%s\" (f64)",
              c->text);
  }

  /* NaN spellings, to every float target. */
  for (size_t i = 0; i < sizeof NAN_TEXTS / sizeof NAN_TEXTS[0]; i++) {
    tcast_string v = view_str(NAN_TEXTS[i]);
    float f = 0;
    double d = 0;
    uint16_t h = 0, b = 0;
    CHECK_STATUS(parse_views(&v, 1, TCAST_DTYPE_FLOAT, &f), TCAST_OK);
    CHECK_STATUS(parse_views(&v, 1, TCAST_DTYPE_DOUBLE, &d), TCAST_OK);
    CHECK_STATUS(parse_views(&v, 1, TCAST_DTYPE_FLOAT16, &h), TCAST_OK);
    CHECK_STATUS(parse_views(&v, 1, TCAST_DTYPE_BFLOAT16, &b), TCAST_OK);
    CHECK_MSG(isnan(f) && isnan(d) && f16_is_nan(h) && bf16_is_nan(b),
              "\"%s\" did not parse to NaN everywhere (f32 0x%08x, f64 0x%016" PRIx64
              ", f16 0x%04x, bf16 0x%04x)",
              NAN_TEXTS[i], f32_bits(f), f64_bits(d), h, b);
  }
}

typedef struct {
  const char *text;
  uint16_t f16, bf16;
} half_case;

static const half_case HALF_ACCEPTED[] = {
    {"1", 0x3c00, 0x3f80},
    {"-2.5", 0xc100, 0xc020},
    {"0.1", 0x2e66, 0x3dcd},
    {"-0", 0x8000, 0x8000},
    {"65504", 0x7bff, 0x4780},
    {"65520", 0x7c00, 0x4780},
    {"65519.99999", 0x7bff, 0x4780},
    {"1.000488281251", 0x3c01, 0x3f80},
    /* Below double's resolution above the f16 tie 1 + 2^-11: parsed to f64 first (the
       tie), then rounded to even. */
    {"1.00048828125000000000001", 0x3c00, 0x3f80},
    {"5.9604644775390625e-08", 0x0001, 0x3380},
    {"1e-8", 0x0000, 0x322c},
    {"1e10", 0x7c00, 0x5015},
    {"-inf", 0xfc00, 0xff80},
    {"3.3895313892515355e38", 0x7c00, 0x7f7f},
    {"3.4e38", 0x7c00, 0x7f80},
};

static void test_parse_half_targets(void) {
  const size_t n = sizeof HALF_ACCEPTED / sizeof HALF_ACCEPTED[0];
  tcast_string views[sizeof HALF_ACCEPTED / sizeof HALF_ACCEPTED[0]];
  uint16_t h[sizeof HALF_ACCEPTED / sizeof HALF_ACCEPTED[0]];
  uint16_t b[sizeof HALF_ACCEPTED / sizeof HALF_ACCEPTED[0]];
  for (size_t i = 0; i < n; i++) {
    views[i] = view_str(HALF_ACCEPTED[i].text);
  }
  CHECK_STATUS(parse_views(views, (int64_t)n, TCAST_DTYPE_FLOAT16, h), TCAST_OK);
  CHECK_STATUS(parse_views(views, (int64_t)n, TCAST_DTYPE_BFLOAT16, b), TCAST_OK);
  for (size_t i = 0; i < n; i++) {
    const half_case *c = &HALF_ACCEPTED[i];
    CHECK_MSG(h[i] == c->f16, "\"%s\" -> FLOAT16 gave 0x%04x, expected 0x%04x", c->text, h[i],
              c->f16);
    CHECK_MSG(b[i] == c->bf16, "\"%s\" -> BFLOAT16 gave 0x%04x, expected 0x%04x", c->text,
              b[i], c->bf16);
    /* the table agrees with the reference rounding of strtod's double */
    double d = strtod(c->text, NULL);
    CHECK_MSG(ref_f16(d) == c->f16 && ref_bf16(d) == c->bf16, "table row \"%s\"", c->text);
  }
}

/* ---------------------------------------------------------------- parsing: integers */

/* A text's mathematical meaning for the integer targets, before saturation. */
typedef struct {
  const char *text;
  int negative;
  uint64_t magnitude; /* after truncation toward zero; NaN is 0 */
  int beyond_64_bits; /* the magnitude does not even fit 64 bits (saturates everywhere) */
} int_case;

static const int_case INT_ACCEPTED[] = {
    {"42", 0, 42, 0},
    {" -7 ", 1, 7, 0},
    {"+5", 0, 5, 0},
    {"007", 0, 7, 0},
    {"-0", 0, 0, 0},
    {"1e2", 0, 100, 0},
    {"2.75", 0, 2, 0},
    {"-2.75", 1, 2, 0},
    {"100.5", 0, 100, 0},
    {"-0.9", 0, 0, 0},
    {"300", 0, 300, 0},
    {"-300", 1, 300, 0},
    {"70000", 0, 70000, 0},
    {"-70000", 1, 70000, 0},
    {"nan", 0, 0, 0},
    {"-NaN", 0, 0, 0},
    {"inf", 0, 0, 1},
    {"-inf", 1, 0, 1},
    {"1e19", 0, UINT64_C(10000000000000000000), 0},
    {"2147483648", 0, UINT64_C(2147483648), 0},
    {"-2147483649", 1, UINT64_C(2147483649), 0},
    {"9223372036854775807", 0, UINT64_C(9223372036854775807), 0},
    {"-9223372036854775808", 1, UINT64_C(9223372036854775808), 0},
    {"9223372036854775808", 0, UINT64_C(9223372036854775808), 0},
    {"18446744073709551615", 0, UINT64_MAX, 0},
    {"18446744073709551616", 0, 0, 1},
    {"-99999999999999999999999999999", 1, 0, 1},
    {"1e30", 0, 0, 1},
    {"\v-7\f", 1, 7, 0},
};

/* The saturated value of a case in a target of `bits` bits, as the target's bytes. */
static uint64_t saturate(const int_case *c, int bits, int is_signed) {
  uint64_t mask = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
  if (is_signed) {
    uint64_t max = (UINT64_C(1) << (bits - 1)) - 1, min_magnitude = max + 1;
    if (c->negative) {
      return (c->beyond_64_bits || c->magnitude >= min_magnitude)
                 ? min_magnitude & mask /* two's complement of the minimum */
                 : (0 - c->magnitude) & mask;
    }
    return (c->beyond_64_bits || c->magnitude > max) ? max : c->magnitude;
  }
  if (c->negative) {
    return 0;
  }
  return (c->beyond_64_bits || c->magnitude > mask) ? mask : c->magnitude;
}

static void test_parse_integer_targets(void) {
  static const struct {
    tcast_dtype dtype;
    int bits, is_signed;
  } targets[] = {
      {TCAST_DTYPE_INT8, 8, 1},    {TCAST_DTYPE_UINT8, 8, 0},    {TCAST_DTYPE_INT16, 16, 1},
      {TCAST_DTYPE_UINT16, 16, 0}, {TCAST_DTYPE_INT32, 32, 1},   {TCAST_DTYPE_UINT32, 32, 0},
      {TCAST_DTYPE_INT64, 64, 1},  {TCAST_DTYPE_UINT64, 64, 0},  {TCAST_DTYPE_QINT8, 8, 1},
      {TCAST_DTYPE_QUINT8, 8, 0},  {TCAST_DTYPE_QINT16, 16, 1},  {TCAST_DTYPE_QUINT16, 16, 0},
      {TCAST_DTYPE_QINT32, 32, 1},
  };
  const size_t n = sizeof INT_ACCEPTED / sizeof INT_ACCEPTED[0];
  tcast_string views[sizeof INT_ACCEPTED / sizeof INT_ACCEPTED[0]];
  unsigned char out[sizeof INT_ACCEPTED / sizeof INT_ACCEPTED[0] * 8];
  for (size_t i = 0; i < n; i++) {
    views[i] = view_str(INT_ACCEPTED[i].text);
  }
  for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
    size_t size = (size_t)targets[t].bits / 8;
    memset(out, 0xEE, sizeof out);
    CHECK_STATUS(parse_views(views, (int64_t)n, targets[t].dtype, out), TCAST_OK);
    for (size_t i = 0; i < n; i++) {
      uint64_t got = tc_load_bits(out + i * size, size);
      uint64_t expected = saturate(&INT_ACCEPTED[i], targets[t].bits, targets[t].is_signed);
      CHECK_MSG(got == expected, "\"%s\" -> %s gave 0x%" PRIx64 ", expected 0x%" PRIx64,
                INT_ACCEPTED[i].text, tcast_dtype_name(targets[t].dtype), got, expected);
    }
  }

  /* The examples of the semantics page, spelled out. */
  {
    tcast_string v = view_str("100.5");
    int32_t i32 = 0;
    CHECK_STATUS(parse_views(&v, 1, TCAST_DTYPE_INT32, &i32), TCAST_OK);
    CHECK_EQ_INT(i32, 100);
    uint8_t u8 = 99;
    v = view_str("-1");
    CHECK_STATUS(parse_views(&v, 1, TCAST_DTYPE_UINT8, &u8), TCAST_OK);
    CHECK_EQ_INT(u8, 0);
    int8_t i8 = 0;
    v = view_str("300");
    CHECK_STATUS(parse_views(&v, 1, TCAST_DTYPE_INT8, &i8), TCAST_OK);
    CHECK_EQ_INT(i8, 127);
    v = view_str("-300");
    CHECK_STATUS(parse_views(&v, 1, TCAST_DTYPE_INT8, &i8), TCAST_OK);
    CHECK_EQ_INT(i8, -128);
    int64_t i64 = 0;
    v = view_str("-9223372036854775808");
    CHECK_STATUS(parse_views(&v, 1, TCAST_DTYPE_INT64, &i64), TCAST_OK);
    CHECK_EQ_INT(i64, INT64_MIN);
    uint64_t u64 = 0;
    v = view_str("18446744073709551615");
    CHECK_STATUS(parse_views(&v, 1, TCAST_DTYPE_UINT64, &u64), TCAST_OK);
    CHECK_EQ_HEX(u64, UINT64_MAX);
    uint16_t u16 = 0;
    v = view_str("2.9");
    CHECK_STATUS(parse_views(&v, 1, TCAST_DTYPE_UINT16, &u16), TCAST_OK);
    CHECK_EQ_INT(u16, 2);
  }
}

static void test_parse_bool_target(void) {
  static const struct {
    const char *text;
    uint8_t value;
  } cases[] = {
      {"true", 1},  {"FALSE", 0}, {"True", 1},   {" false ", 0}, {"TRUE", 1},
      {"0", 0},     {"1", 1},     {"2", 1},      {"-1", 1},      {"0.0", 0},
      {"-0", 0},    {"0e5", 0},   {"nan", 1},    {"-inf", 1},    {"1e-300", 1},
      {"0.5", 1},   {"+0", 0},    {"00", 0},
  };
  const size_t n = sizeof cases / sizeof cases[0];
  tcast_string views[sizeof cases / sizeof cases[0]];
  uint8_t out[sizeof cases / sizeof cases[0]];
  for (size_t i = 0; i < n; i++) {
    views[i] = view_str(cases[i].text);
  }
  memset(out, 0xEE, sizeof out);
  CHECK_STATUS(parse_views(views, (int64_t)n, TCAST_DTYPE_BOOL, out), TCAST_OK);
  for (size_t i = 0; i < n; i++) {
    CHECK_MSG(out[i] == cases[i].value, "\"%s\" -> BOOL gave %u, expected %u", cases[i].text,
              out[i], cases[i].value);
  }
  static const char *const refused[] = {"yes", "t", "truee", "on", ""};
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
    tcast_string v = view_str(refused[i]);
    uint8_t b = 0;
    CHECK_STATUS(parse_views(&v, 1, TCAST_DTYPE_BOOL, &b), TCAST_ERR_PARSE);
    CHECK_EQ_INT(tc_err.index, 0);
  }
}

/* ---------------------------------------------------------------- parsing: refusals */

typedef struct {
  const char *bytes;
  size_t len;
  const char *quoted; /* how the message shows it */
  int bool_accepts;   /* "true" is a BOOL text */
} refused_case;

static const refused_case REFUSED[] = {
    {LIT(""), "\"\"", 0},
    {LIT("   "), "\"   \"", 0},
    {LIT("abc"), "\"abc\"", 0},
    {LIT("3.14abc"), "\"3.14abc\"", 0},
    {LIT("1,5"), "\"1,5\"", 0},
    {LIT("0x10"), "\"0x10\"", 0},
    {LIT("--1"), "\"--1\"", 0},
    {LIT("+-1"), "\"+-1\"", 0},
    {LIT("1e"), "\"1e\"", 0},
    {LIT("1e+"), "\"1e+\"", 0},
    {LIT("e5"), "\"e5\"", 0},
    {LIT("."), "\".\"", 0},
    {LIT("+"), "\"+\"", 0},
    {LIT("1 2"), "\"1 2\"", 0},
    {LIT("1.2.3"), "\"1.2.3\"", 0},
    {LIT("in"), "\"in\"", 0},
    {LIT("infinit"), "\"infinit\"", 0},
    {LIT("nana"), "\"nana\"", 0},
    {LIT("1_000"), "\"1_000\"", 0},
    /* only the six isspace characters are trimmed: not other controls, not Unicode */
    {LIT("\v\f"), "\"\\x0b\\x0c\"", 0},
    {LIT("\x1c" "1"), "\"\\x1c1\"", 0},
    {LIT("1\x1f"), "\"1\\x1f\"", 0},
    {LIT("\xc2\xa0" "1"), "\"\\xc2\\xa01\"", 0}, /* NO-BREAK SPACE */
    {LIT("1\v2"), "\"1\\x0b2\"", 0},
    {LIT("true"), "\"true\"", 1},
    /* an embedded NUL counts in len and is not a terminator */
    {LIT("12\0"), "\"12\\x00\"", 0},
    {LIT("1\0" "2"), "\"1\\x002\"", 0},
    /* bytes that are not UTF-8, and UTF-8 that is not a number */
    {LIT("\xff" "1"), "\"\\xff1\"", 0},
    {LIT("1\xc3"), "\"1\\xc3\"", 0},
    {LIT("\xc3\xa9"), "\"\\xc3\\xa9\"", 0},
    {LIT("\xef\xbc\x91"), "\"\\xef\\xbc\\x91\"", 0}, /* FULLWIDTH DIGIT ONE */
};

static void test_parse_refusals(void) {
  char msg[160];
  for (size_t r = 0; r < sizeof REFUSED / sizeof REFUSED[0]; r++) {
    const refused_case *c = &REFUSED[r];
    char shown[64];
    printable(shown, sizeof shown, c->bytes, c->len);
    for (size_t t = 0; t < N_NUMERIC_TARGETS; t++) {
      tcast_dtype to = NUMERIC_TARGETS[t];
      if (to == TCAST_DTYPE_BOOL && c->bool_accepts) {
        continue;
      }
      /* The bad text at index 2 among good ones. */
      tcast_string views[4] = {view_str("1"), view_str(" 0 "), view_of(c->bytes, c->len),
                               view_str("4")};
      unsigned char out[4 * 8];
      tcast_status status = TCAST_OK;
      tc_reset_err();
      status = parse_views(views, 4, to, out);
      CHECK_MSG(status == TCAST_ERR_PARSE, "\"%s\" -> %s returned %s (%s)", shown,
                tcast_dtype_name(to), tcast_status_name(status), tc_err.message);
      CHECK_MSG(tc_err.status == TCAST_ERR_PARSE && tc_err.index == 2,
                "\"%s\" -> %s: err status %d, index %" PRId64 " (expected 2)", shown,
                tcast_dtype_name(to), (int)tc_err.status, tc_err.index);
      CHECK_MSG_CONTAINS(&tc_err, "input element 2");
      CHECK_MSG_CONTAINS(&tc_err, c->quoted);
      CHECK_MSG_CONTAINS(&tc_err, tcast_dtype_name(to));
    }
  }
  /* Not valid UTF-8 is said so. */
  {
    tcast_string v = view_of(LIT("\xff" "1"));
    float f;
    CHECK_STATUS(parse_views(&v, 1, TCAST_DTYPE_FLOAT, &f), TCAST_ERR_PARSE);
    CHECK_MSG_CONTAINS(&tc_err, "UTF-8");
  }
  /* A long bad text is shortened in the message; the index is found deep in a tensor. */
  {
    enum { N = 1000, BAD = 777 };
    static char long_text[300];
    tcast_string *views = xmalloc(N * sizeof *views);
    double *out = xmalloc(N * sizeof *out);
    memset(long_text, 'x', sizeof long_text);
    for (int i = 0; i < N; i++) {
      views[i] = view_str("2.5");
    }
    views[BAD] = view_of(long_text, sizeof long_text);
    CHECK_STATUS(parse_views(views, N, TCAST_DTYPE_DOUBLE, out), TCAST_ERR_PARSE);
    CHECK_EQ_INT(tc_err.index, BAD);
    CHECK_MSG_CONTAINS(&tc_err, "input element 777");
    CHECK_MSG_CONTAINS(&tc_err, "\"xxxxxxxxxx");
    CHECK(strlen(tc_err.message) < 200);
    snprintf(msg, sizeof msg, "%.*s", 150, long_text);
    CHECK_MSG(strstr(tc_err.message, msg) == NULL, "the whole long text is in the message");
    free(views);
    free(out);
  }
}

/* ---------------------------------------------------------------- parsing: views, layouts */

/* Each of C's six isspace characters (space, \t, \n, \v, \f, \r) around a number is
   trimmed for every numeric and low-precision target: the text parses as "3" does. */
static void test_parse_trims_c_space(void) {
  static const tcast_dtype LOW_TARGETS[] = {
      TCAST_DTYPE_FLOAT8E4M3FN, TCAST_DTYPE_FLOAT8E5M2FNUZ, TCAST_DTYPE_FLOAT8E8M0,
      TCAST_DTYPE_FLOAT4E2M1,   TCAST_DTYPE_FLOAT6E2M3,     TCAST_DTYPE_FLOAT6E3M2,
      TCAST_DTYPE_INT4,         TCAST_DTYPE_UINT4,          TCAST_DTYPE_INT2,
      TCAST_DTYPE_UINT2,
  };
  static const char SPACES[] = " \t\n\v\f\r";
  const size_t n_numeric = N_NUMERIC_TARGETS;
  const size_t n_low = sizeof LOW_TARGETS / sizeof LOW_TARGETS[0];
  for (size_t t = 0; t < n_numeric + n_low; t++) {
    tcast_dtype to = t < n_numeric ? NUMERIC_TARGETS[t] : LOW_TARGETS[t - n_numeric];
    /* "3", then 3 with each character at both ends, then all six at both ends */
    char texts[8][16];
    tcast_string views[8];
    snprintf(texts[0], sizeof texts[0], "3");
    for (int c = 0; c < 6; c++) {
      snprintf(texts[1 + c], sizeof texts[1 + c], "%c3%c", SPACES[c], SPACES[c]);
    }
    snprintf(texts[7], sizeof texts[7], "%s3%s", SPACES, SPACES);
    for (int i = 0; i < 8; i++) {
      views[i] = view_str(texts[i]);
    }
    unsigned char out[8 * 8];
    const int64_t shape[1] = {8};
    uint64_t bytes = 0;
    CHECK_STATUS(tcast_tensor_bytes(to, shape, 1, &bytes, TC_ERR), TCAST_OK);
    tcast_tensor in = tensor(views, sizeof views, shape, 1, TCAST_DTYPE_STRING);
    tcast_tensor o = tensor(out, bytes, shape, 1, to);
    memset(out, 0xEE, sizeof out);
    CHECK_STATUS(tcast_cast(&in, &o, NULL, TC_ERR), TCAST_OK);
    if (tc_err.status != TCAST_OK) {
      continue;
    }
    uint32_t bits = tcast_dtype_bits(to);
    for (int i = 1; i < 8; i++) {
      unsigned long long got = 0, first = 0;
      for (uint32_t b = 0; b < bits; b++) {
        size_t at = (size_t)i * bits + b, at0 = b;
        got |= (unsigned long long)((out[at / 8] >> (at % 8)) & 1) << b;
        first |= (unsigned long long)((out[at0 / 8] >> (at0 % 8)) & 1) << b;
      }
      CHECK_MSG(got == first, "%s: text %d (0x%02x around 3) gave 0x%llx, \"3\" gives 0x%llx",
                tcast_dtype_name(to), i, (unsigned)(unsigned char)texts[i][0], got, first);
    }
  }
}

static void test_parse_null_views(void) {
  float out[3];
  /* data NULL and len 0 is the empty text: a parse error at its index. */
  {
    tcast_string views[3] = {view_str("1"), view_of(NULL, 0), view_str("3")};
    CHECK_STATUS(parse_views(views, 3, TCAST_DTYPE_FLOAT, out), TCAST_ERR_PARSE);
    CHECK_EQ_INT(tc_err.index, 1);
    CHECK_MSG_CONTAINS(&tc_err, "input element 1");
    CHECK_MSG_CONTAINS(&tc_err, "\"\"");
  }
  /* data NULL and len > 0 is a NULL argument, named by its element. */
  {
    tcast_string views[3] = {view_str("1"), view_of(NULL, 5), view_str("3")};
    CHECK_STATUS(parse_views(views, 3, TCAST_DTYPE_FLOAT, out), TCAST_ERR_NULL_ARGUMENT);
    CHECK_MSG_CONTAINS(&tc_err, "input element 1");
    /* docs/c-api.md 1: err->index is "an element index where one applies" */
    CHECK_EQ_INT(tc_err.index, 1);
  }
  /* A length no memory can hold is refused, not read. */
  {
    tcast_string views[2] = {view_str("1"), view_of("2", UINT64_MAX)};
    tcast_status status = parse_views(views, 2, TCAST_DTYPE_FLOAT, out);
    CHECK_MSG(status != TCAST_OK && status != TCAST_ERR_INTERNAL,
              "a view of len UINT64_MAX gave %s", tcast_status_name(status));
  }
  /* An empty STRING tensor parses to nothing; its data may be NULL. */
  {
    const int64_t shape[1] = {0};
    tcast_tensor in = tensor(NULL, 0, shape, 1, TCAST_DTYPE_STRING);
    tcast_tensor o = tensor(NULL, 0, shape, 1, TCAST_DTYPE_FLOAT);
    CHECK_STATUS(tcast_cast(&in, &o, NULL, TC_ERR), TCAST_OK);
  }
  /* A STRING scalar (ndim 0). */
  {
    tcast_string v = view_str("-12.5");
    double d = 0;
    tcast_tensor in = tensor(&v, sizeof v, NULL, 0, TCAST_DTYPE_STRING);
    tcast_tensor o = tensor(&d, sizeof d, NULL, 0, TCAST_DTYPE_DOUBLE);
    CHECK_STATUS(tcast_cast(&in, &o, NULL, TC_ERR), TCAST_OK);
    CHECK(d == -12.5);
  }
  /* A STRING buffer smaller than its shape. */
  {
    tcast_string views[2] = {view_str("1"), view_str("2")};
    const int64_t shape[1] = {2};
    tcast_tensor in = tensor(views, sizeof views - 1, shape, 1, TCAST_DTYPE_STRING);
    tcast_tensor o = tensor(out, 2 * sizeof(float), shape, 1, TCAST_DTYPE_FLOAT);
    CHECK_STATUS(tcast_cast(&in, &o, NULL, TC_ERR), TCAST_ERR_BUFFER_TOO_SMALL);
  }
  /* Shape mismatch. */
  {
    tcast_string views[2] = {view_str("1"), view_str("2")};
    const int64_t in_shape[1] = {2}, out_shape[1] = {3};
    tcast_tensor in = tensor(views, sizeof views, in_shape, 1, TCAST_DTYPE_STRING);
    tcast_tensor o = tensor(out, sizeof out, out_shape, 1, TCAST_DTYPE_FLOAT);
    CHECK_STATUS(tcast_cast(&in, &o, NULL, TC_ERR), TCAST_ERR_INVALID_SHAPE);
  }
}

static void test_parse_strided(void) {
  /* Every other view of six. */
  {
    tcast_string storage[6] = {view_str("10"), view_str("bad"), view_str("30"),
                               view_str("bad"), view_str("50"), view_str("bad")};
    const int64_t shape[1] = {3}, strides[1] = {2};
    int32_t out[3] = {0, 0, 0};
    tcast_tensor in = tensor(storage, 5 * sizeof(tcast_string), shape, 1, TCAST_DTYPE_STRING);
    in.strides = strides;
    tcast_tensor o = tensor(out, sizeof out, shape, 1, TCAST_DTYPE_INT32);
    CHECK_STATUS(tcast_cast(&in, &o, NULL, TC_ERR), TCAST_OK);
    CHECK(out[0] == 10 && out[1] == 30 && out[2] == 50);
    /* A bad text reached through strides: its index is the logical (row-major) one. */
    storage[4] = view_str("5O");
    CHECK_STATUS(tcast_cast(&in, &o, NULL, TC_ERR), TCAST_ERR_PARSE);
    CHECK_EQ_INT(tc_err.index, 2);
    CHECK_MSG_CONTAINS(&tc_err, "\"5O\"");
  }
  /* A transposed 2 x 3: shape {3, 2}, strides {1, 3}; (i, j) is storage[j * 3 + i]. */
  {
    tcast_string storage[6] = {view_str("0"), view_str("1"), view_str("2"),
                               view_str("3"), view_str("4"), view_str("5")};
    const int64_t shape[2] = {3, 2}, strides[2] = {1, 3};
    double out[6];
    tcast_tensor in = tensor(storage, sizeof storage, shape, 2, TCAST_DTYPE_STRING);
    in.strides = strides;
    tcast_tensor o = tensor(out, sizeof out, shape, 2, TCAST_DTYPE_DOUBLE);
    CHECK_STATUS(tcast_cast(&in, &o, NULL, TC_ERR), TCAST_OK);
    const double expected[6] = {0, 3, 1, 4, 2, 5};
    CHECK(memcmp(out, expected, sizeof out) == 0);

    /* STRING -> STRING copies the views (same pointers and lengths), strided too. */
    tcast_string copies[6];
    memset(copies, 0, sizeof copies);
    tcast_tensor oc = tensor(copies, sizeof copies, shape, 2, TCAST_DTYPE_STRING);
    CHECK_STATUS(tcast_cast(&in, &oc, NULL, TC_ERR), TCAST_OK);
    const int order[6] = {0, 3, 1, 4, 2, 5};
    for (int i = 0; i < 6; i++) {
      CHECK_MSG(copies[i].data == storage[order[i]].data && copies[i].len == 1,
                "STRING -> STRING element %d is not the view of storage[%d]", i, order[i]);
    }
  }
  /* STRING -> STRING, contiguous: the very same views, whatever their bytes. */
  {
    static const char bytes[] = "not a number\0\xff";
    tcast_string views[3] = {view_of(bytes, sizeof bytes - 1), view_of(NULL, 0),
                             view_of(bytes + 4, 1)};
    tcast_string copies[3];
    const int64_t shape[1] = {3};
    memset(copies, 0xAB, sizeof copies);
    tcast_tensor in = tensor(views, sizeof views, shape, 1, TCAST_DTYPE_STRING);
    tcast_tensor o = tensor(copies, sizeof copies, shape, 1, TCAST_DTYPE_STRING);
    CHECK_STATUS(tcast_cast(&in, &o, NULL, TC_ERR), TCAST_OK);
    CHECK(memcmp(copies, views, sizeof views) == 0);
  }
}

static void test_parse_unsupported_pairs(void) {
  tcast_string v = view_str("1");
  const int64_t shape[1] = {1};
  unsigned char out[16];
  tcast_tensor in = tensor(&v, sizeof v, shape, 1, TCAST_DTYPE_STRING);
  tcast_tensor o = tensor(out, sizeof out, shape, 1, TCAST_DTYPE_COMPLEX64);
  CHECK_STATUS(tcast_cast(&in, &o, NULL, TC_ERR), TCAST_ERR_UNSUPPORTED);
  o.dtype = TCAST_DTYPE_COMPLEX128;
  CHECK_STATUS(tcast_cast(&in, &o, NULL, TC_ERR), TCAST_ERR_UNSUPPORTED);
  /* numeric -> STRING is refused by tcast_cast: it needs an arena. */
  float f = 1.0f;
  tcast_string sv;
  tcast_tensor fin = tensor(&f, sizeof f, shape, 1, TCAST_DTYPE_FLOAT);
  tcast_tensor sout = tensor(&sv, sizeof sv, shape, 1, TCAST_DTYPE_STRING);
  CHECK_STATUS(tcast_cast(&fin, &sout, NULL, TC_ERR), TCAST_ERR_UNSUPPORTED);
  CHECK_MSG_CONTAINS(&tc_err, "tcast_cast_to_strings");
}

/* Random decimal texts against the C library's correctly rounded parsers. */
static void test_parse_random_decimals(void) {
  enum { N = 20000, TEXT_BYTES = 48 };
  char *texts = xmalloc((size_t)N * TEXT_BYTES);
  tcast_string *views = xmalloc(N * sizeof *views);
  float *f32s = xmalloc(N * sizeof *f32s);
  double *f64s = xmalloc(N * sizeof *f64s);
  uint16_t *f16s = xmalloc(N * sizeof *f16s);
  uint16_t *bf16s = xmalloc(N * sizeof *bf16s);
  for (int i = 0; i < N; i++) {
    char *t = texts + (size_t)i * TEXT_BYTES;
    size_t o = 0;
    int digits = 1 + (int)rng_below(25);
    int point = (int)rng_below((uint64_t)digits + 2) - 1; /* -1: no point */
    if (rng_below(3) == 0) {
      t[o++] = rng_below(2) ? '-' : '+';
    }
    for (int d = 0; d < digits; d++) {
      if (d == point) {
        t[o++] = '.';
      }
      t[o++] = (char)('0' + rng_below(10));
    }
    if (point == digits) {
      t[o++] = '.';
    }
    if (rng_below(4) != 0) {
      /* exponents reaching past both ends of double's range */
      o += (size_t)snprintf(t + o, TEXT_BYTES - o, "%c%d", rng_below(2) ? 'e' : 'E',
                            (int)rng_below(700) - 350);
    }
    t[o] = '\0';
    views[i] = view_of(t, o);
  }
  CHECK_STATUS(parse_views(views, N, TCAST_DTYPE_FLOAT, f32s), TCAST_OK);
  CHECK_STATUS(parse_views(views, N, TCAST_DTYPE_DOUBLE, f64s), TCAST_OK);
  CHECK_STATUS(parse_views(views, N, TCAST_DTYPE_FLOAT16, f16s), TCAST_OK);
  CHECK_STATUS(parse_views(views, N, TCAST_DTYPE_BFLOAT16, bf16s), TCAST_OK);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    const char *t = texts + (size_t)i * TEXT_BYTES;
    float ef = strtof(t, NULL);
    double ed = strtod(t, NULL);
    int ok = f32_bits(f32s[i]) == f32_bits(ef) && f64_bits(f64s[i]) == f64_bits(ed) &&
             f16s[i] == ref_f16(ed) && bf16s[i] == ref_bf16(ed);
    if (!ok && ++bad <= 10) {
      tc_fail(__FILE__, __LINE__,
              "\"%s\": FLOAT 0x%08x (strtof 0x%08x), DOUBLE 0x%016" PRIx64
              " (strtod 0x%016" PRIx64 "), FLOAT16 0x%04x (expected 0x%04x), BFLOAT16 0x%04x"
              " (expected 0x%04x)",
              t, f32_bits(f32s[i]), f32_bits(ef), f64_bits(f64s[i]), f64_bits(ed), f16s[i],
              ref_f16(ed), bf16s[i], ref_bf16(ed));
    }
  }
  CHECK_MSG(bad == 0, "%d of %d random decimal texts parsed differently", bad, N);
  free(texts);
  free(views);
  free(f32s);
  free(f64s);
  free(f16s);
  free(bf16s);
}

/* ---------------------------------------------------------------- formatting: helpers */

typedef struct {
  tcast_string *views;
  char *arena; /* capacity bytes, then CANARY_BYTES canary bytes */
  uint64_t capacity, used;
} text_batch;

static void free_batch(text_batch *b) {
  free(b->views);
  free(b->arena);
  b->views = NULL;
  b->arena = NULL;
}

/*
 * Formats n contiguous elements of `dtype` at `data` into a fresh arena of exactly
 * n * tcast_string_max_bytes(dtype) bytes, and checks the arena contract on the way:
 * views inside the arena, one after another in element order, each no longer than the
 * bound, `used` their total, nothing written past the capacity. Returns 1 on success.
 */
static int format_batch(tcast_dtype dtype, const void *data, int64_t n, int32_t format,
                        text_batch *out, int line) {
  uint64_t bound = tcast_string_max_bytes(dtype);
  const int64_t shape[1] = {n};
  out->capacity = (uint64_t)n * bound;
  out->used = 0;
  out->views = xmalloc((size_t)n * sizeof(tcast_string));
  out->arena = xmalloc((size_t)out->capacity + CANARY_BYTES);
  memset(out->arena, CANARY, (size_t)out->capacity + CANARY_BYTES);
  tcast_tensor in = tensor(data, (uint64_t)n * dtype_size(dtype), shape, 1, dtype);
  tcast_tensor o = tensor(out->views, (uint64_t)n * sizeof(tcast_string), shape, 1,
                          TCAST_DTYPE_STRING);
  tcast_string_arena arena = {out->arena, out->capacity, 0};
  tcast_cast_options options = tcast_cast_options_default();
  options.string_format = format;
  tc_reset_err();
  tcast_status status = tcast_cast_to_strings(&in, &o, &arena, &options, TC_ERR);
  if (status != TCAST_OK) {
    tc_fail(__FILE__, line, "formatting %lld %s values (format %d) failed: %s: %s",
            (long long)n, tcast_dtype_name(dtype), (int)format, tcast_status_name(status),
            tc_err.message);
    return 0;
  }
  int ok = 1;
  uint64_t at = 0;
  for (int64_t i = 0; i < n && ok; i++) {
    tcast_string v = out->views[i];
    if (v.data != out->arena + at || v.len > bound) {
      tc_fail(__FILE__, line,
              "%s element %lld: view at arena offset %td, len %" PRIu64
              " (expected offset %" PRIu64 ", len <= %" PRIu64 ")",
              tcast_dtype_name(dtype), (long long)i, v.data - out->arena, v.len, at, bound);
      ok = 0;
    }
    at += v.len;
  }
  if (ok && arena.used != at) {
    tc_fail(__FILE__, line, "arena.used is %" PRIu64 " but the texts total %" PRIu64,
            arena.used, at);
    ok = 0;
  }
  for (size_t i = (size_t)arena.used; ok && i < out->capacity + CANARY_BYTES; i++) {
    if ((unsigned char)out->arena[i] != CANARY) {
      tc_fail(__FILE__, line, "%s: arena byte %zu (past the texts) was written",
              tcast_dtype_name(dtype), i);
      ok = 0;
    }
  }
  out->used = arena.used;
  if (ok) {
    tc_pass();
  }
  return ok;
}

/* Formats one element and compares its text. */
static void expect_text(tcast_dtype dtype, const void *value, int32_t format,
                        const char *expected, int line) {
  text_batch b;
  if (format_batch(dtype, value, 1, format, &b, line)) {
    if (view_is(b.views[0], expected)) {
      tc_pass();
    } else {
      char shown[96];
      printable(shown, sizeof shown, b.views[0].data, b.views[0].len);
      tc_fail(__FILE__, line, "%s 0x%" PRIx64 " formatted (format %d) as \"%s\", expected \"%s\"",
              tcast_dtype_name(dtype), tc_load_bits(value, dtype_size(dtype)), (int)format, shown,
              expected);
    }
  }
  free_batch(&b);
}

#define EXPECT_TEXT(dtype, ctype, value, format, expected) \
  do {                                                     \
    ctype v_ = (value);                                    \
    expect_text((dtype), &v_, (format), (expected), __LINE__); \
  } while (0)

#define SHORTEST TCAST_FORMAT_SHORTEST
#define PRINTF_8G TCAST_FORMAT_PRINTF_8G

/* ---------------------------------------------------------------- formatting: examples */

static void test_format_examples(void) {
  /* docs/semantics-cast.md section 8, TCAST_FORMAT_SHORTEST (numpy's str() layout) */
  EXPECT_TEXT(TCAST_DTYPE_FLOAT, float, 0.1f, SHORTEST, "0.1");
  EXPECT_TEXT(TCAST_DTYPE_FLOAT, float, 1e-4f, SHORTEST, "1e-04");
  EXPECT_TEXT(TCAST_DTYPE_FLOAT, float, 1e-5f, SHORTEST, "1e-05");
  EXPECT_TEXT(TCAST_DTYPE_FLOAT, float, 999999.0f, SHORTEST, "999999.0");
  EXPECT_TEXT(TCAST_DTYPE_FLOAT, float, 1e6f, SHORTEST, "1e+06");
  EXPECT_TEXT(TCAST_DTYPE_FLOAT, float, 1234567.0f, SHORTEST, "1.234567e+06");
  EXPECT_TEXT(TCAST_DTYPE_FLOAT, float, 100.0f, SHORTEST, "100.0");
  EXPECT_TEXT(TCAST_DTYPE_FLOAT, float, -0.0f, SHORTEST, "-0.0");
  EXPECT_TEXT(TCAST_DTYPE_FLOAT, float, 0.0f, SHORTEST, "0.0");
  EXPECT_TEXT(TCAST_DTYPE_FLOAT, float, 2.5f, SHORTEST, "2.5");
  EXPECT_TEXT(TCAST_DTYPE_FLOAT, float, -3.0f, SHORTEST, "-3.0");
  EXPECT_TEXT(TCAST_DTYPE_FLOAT, float, 1.0001e-4f, SHORTEST, "0.00010001");
  EXPECT_TEXT(TCAST_DTYPE_FLOAT, float, 3.4028235e38f, SHORTEST, "3.4028235e+38");
  EXPECT_TEXT(TCAST_DTYPE_FLOAT, float, f32_from(1), SHORTEST, "1e-45");
  EXPECT_TEXT(TCAST_DTYPE_FLOAT16, uint16_t, 0x63d0 /* 1000 */, SHORTEST, "1e+03");
  EXPECT_TEXT(TCAST_DTYPE_FLOAT16, uint16_t, 0x7bff /* 65504 */, SHORTEST, "6.55e+04");
  EXPECT_TEXT(TCAST_DTYPE_FLOAT16, uint16_t, 0x63cf /* 999.5 */, SHORTEST, "999.5");
  EXPECT_TEXT(TCAST_DTYPE_FLOAT16, uint16_t, 0x3c00, SHORTEST, "1.0");
  EXPECT_TEXT(TCAST_DTYPE_FLOAT16, uint16_t, 0x2e66, SHORTEST, "0.1");
  EXPECT_TEXT(TCAST_DTYPE_FLOAT16, uint16_t, 0x0001, SHORTEST, "6e-08");
  EXPECT_TEXT(TCAST_DTYPE_FLOAT16, uint16_t, 0x8000, SHORTEST, "-0.0");
  EXPECT_TEXT(TCAST_DTYPE_BFLOAT16, uint16_t, 0x3f80, SHORTEST, "1.0");
  EXPECT_TEXT(TCAST_DTYPE_BFLOAT16, uint16_t, 0x4479 /* 996 */, SHORTEST, "996.0");
  EXPECT_TEXT(TCAST_DTYPE_BFLOAT16, uint16_t, 0x447a /* 1000 */, SHORTEST, "1e+03");
  EXPECT_TEXT(TCAST_DTYPE_DOUBLE, double, 1e15, SHORTEST, "1000000000000000.0");
  EXPECT_TEXT(TCAST_DTYPE_DOUBLE, double, 1e16, SHORTEST, "1e+16");
  EXPECT_TEXT(TCAST_DTYPE_DOUBLE, double, 0.1, SHORTEST, "0.1");
  EXPECT_TEXT(TCAST_DTYPE_DOUBLE, double, 1e-4, SHORTEST, "0.0001");
  EXPECT_TEXT(TCAST_DTYPE_DOUBLE, double, 5e-324, SHORTEST, "5e-324");
  EXPECT_TEXT(TCAST_DTYPE_DOUBLE, double, -1.7976931348623157e308, SHORTEST,
              "-1.7976931348623157e+308");
  EXPECT_TEXT(TCAST_DTYPE_DOUBLE, double, 0.3, SHORTEST, "0.3");
  EXPECT_TEXT(TCAST_DTYPE_DOUBLE, double, 123.456, SHORTEST, "123.456");

  /* NaN and the infinities, in both formats, for every float dtype. */
  for (int32_t format = 0; format <= 1; format++) {
    EXPECT_TEXT(TCAST_DTYPE_FLOAT, float, f32_from(0x7fc00000), format, "NaN");
    EXPECT_TEXT(TCAST_DTYPE_FLOAT, float, f32_from(0xffc00001), format, "NaN");
    EXPECT_TEXT(TCAST_DTYPE_FLOAT, float, f32_from(0x7f800001), format, "NaN");
    EXPECT_TEXT(TCAST_DTYPE_FLOAT, float, INFINITY, format, "INF");
    EXPECT_TEXT(TCAST_DTYPE_FLOAT, float, -INFINITY, format, "-INF");
    EXPECT_TEXT(TCAST_DTYPE_DOUBLE, double, f64_from(0xfff8000000000000ull), format, "NaN");
    EXPECT_TEXT(TCAST_DTYPE_DOUBLE, double, (double)INFINITY, format, "INF");
    EXPECT_TEXT(TCAST_DTYPE_DOUBLE, double, -(double)INFINITY, format, "-INF");
    EXPECT_TEXT(TCAST_DTYPE_FLOAT16, uint16_t, 0x7e00, format, "NaN");
    EXPECT_TEXT(TCAST_DTYPE_FLOAT16, uint16_t, 0xfc01, format, "NaN");
    EXPECT_TEXT(TCAST_DTYPE_FLOAT16, uint16_t, 0x7c00, format, "INF");
    EXPECT_TEXT(TCAST_DTYPE_FLOAT16, uint16_t, 0xfc00, format, "-INF");
    EXPECT_TEXT(TCAST_DTYPE_BFLOAT16, uint16_t, 0xffc0, format, "NaN");
    EXPECT_TEXT(TCAST_DTYPE_BFLOAT16, uint16_t, 0x7f80, format, "INF");
    EXPECT_TEXT(TCAST_DTYPE_BFLOAT16, uint16_t, 0xff80, format, "-INF");

    /* Integers in decimal and BOOL as numpy writes it, in every format. */
    EXPECT_TEXT(TCAST_DTYPE_BOOL, uint8_t, 1, format, "True");
    EXPECT_TEXT(TCAST_DTYPE_BOOL, uint8_t, 0, format, "False");
    EXPECT_TEXT(TCAST_DTYPE_INT8, int8_t, -128, format, "-128");
    EXPECT_TEXT(TCAST_DTYPE_INT8, int8_t, 127, format, "127");
    EXPECT_TEXT(TCAST_DTYPE_UINT8, uint8_t, 255, format, "255");
    EXPECT_TEXT(TCAST_DTYPE_INT16, int16_t, INT16_MIN, format, "-32768");
    EXPECT_TEXT(TCAST_DTYPE_UINT16, uint16_t, UINT16_MAX, format, "65535");
    EXPECT_TEXT(TCAST_DTYPE_INT32, int32_t, INT32_MIN, format, "-2147483648");
    EXPECT_TEXT(TCAST_DTYPE_UINT32, uint32_t, UINT32_MAX, format, "4294967295");
    EXPECT_TEXT(TCAST_DTYPE_INT64, int64_t, INT64_MIN, format, "-9223372036854775808");
    EXPECT_TEXT(TCAST_DTYPE_INT64, int64_t, 0, format, "0");
    EXPECT_TEXT(TCAST_DTYPE_UINT64, uint64_t, UINT64_MAX, format, "18446744073709551615");
    EXPECT_TEXT(TCAST_DTYPE_QINT8, int8_t, -5, format, "-5");
    EXPECT_TEXT(TCAST_DTYPE_QUINT8, uint8_t, 200, format, "200");
    EXPECT_TEXT(TCAST_DTYPE_QINT16, int16_t, -300, format, "-300");
    EXPECT_TEXT(TCAST_DTYPE_QUINT16, uint16_t, 60000, format, "60000");
    EXPECT_TEXT(TCAST_DTYPE_QINT32, int32_t, INT32_MAX, format, "2147483647");
  }

  /* TCAST_FORMAT_PRINTF_8G: the page's examples, and %.17g for DOUBLE. */
  EXPECT_TEXT(TCAST_DTYPE_FLOAT, float, 0.1f, PRINTF_8G, "0.1");
  EXPECT_TEXT(TCAST_DTYPE_FLOAT, float, 1e-5f, PRINTF_8G, "9.9999997e-06");
  EXPECT_TEXT(TCAST_DTYPE_FLOAT, float, 1.0f, PRINTF_8G, "1");
  EXPECT_TEXT(TCAST_DTYPE_FLOAT, float, -0.0f, PRINTF_8G, "-0");
  EXPECT_TEXT(TCAST_DTYPE_FLOAT, float, 1e8f, PRINTF_8G, "1e+08");
  EXPECT_TEXT(TCAST_DTYPE_FLOAT, float, 100.0f, PRINTF_8G, "100");
  EXPECT_TEXT(TCAST_DTYPE_DOUBLE, double, 0.1, PRINTF_8G, "0.10000000000000001");
  EXPECT_TEXT(TCAST_DTYPE_DOUBLE, double, 1.0, PRINTF_8G, "1");
  EXPECT_TEXT(TCAST_DTYPE_DOUBLE, double, -0.0, PRINTF_8G, "-0");
  EXPECT_TEXT(TCAST_DTYPE_FLOAT16, uint16_t, 0x2e66, PRINTF_8G, "0.099975586");
  EXPECT_TEXT(TCAST_DTYPE_BFLOAT16, uint16_t, 0x3dcd, PRINTF_8G, "0.10009766");
}

/* ---------------------------------------------------------------- formatting: vs printf */

/* printf's text of a value, with the ONNX spellings of NaN and the infinities. */
static void printf_text(char *buf, size_t cap, double x, int digits) {
  if (isnan(x)) {
    snprintf(buf, cap, "NaN");
  } else if (isinf(x)) {
    snprintf(buf, cap, "%s", x < 0 ? "-INF" : "INF");
  } else {
    snprintf(buf, cap, "%.*g", digits, x);
  }
}

typedef double (*to_double_fn)(const void *element);

static double f32_at(const void *p) {
  float f;
  memcpy(&f, p, sizeof f);
  return (double)f;
}

static double f64_at(const void *p) {
  double d;
  memcpy(&d, p, sizeof d);
  return d;
}

static double f16_at(const void *p) {
  uint16_t h;
  memcpy(&h, p, sizeof h);
  return f16_value(h);
}

static double bf16_at(const void *p) {
  uint16_t b;
  memcpy(&b, p, sizeof b);
  return (double)bf16_value(b);
}

/* Formats n values with TCAST_FORMAT_PRINTF_8G and compares each with snprintf. */
static void compare_with_printf(tcast_dtype dtype, const void *data, int64_t n,
                                to_double_fn value_of, int digits, const char *what) {
  size_t size = dtype_size(dtype);
  text_batch b;
  if (!format_batch(dtype, data, n, PRINTF_8G, &b, __LINE__)) {
    free_batch(&b);
    return;
  }
  int64_t bad = 0;
  for (int64_t i = 0; i < n; i++) {
    const void *element = (const unsigned char *)data + (size_t)i * size;
    char expected[64];
    printf_text(expected, sizeof expected, value_of(element), digits);
    if (!view_is(b.views[i], expected) && ++bad <= 10) {
      char shown[96];
      printable(shown, sizeof shown, b.views[i].data, b.views[i].len);
      tc_fail(__FILE__, __LINE__, "%s: %s 0x%" PRIx64 ": ours \"%s\", printf(\"%%.%dg\") \"%s\"",
              what, tcast_dtype_name(dtype), tc_load_bits(element, size), shown, digits, expected);
    }
  }
  CHECK_MSG(bad == 0, "%s: %lld of %lld %s texts differ from printf", what, (long long)bad,
            (long long)n, tcast_dtype_name(dtype));
  free_batch(&b);
}

/*
 * Random FLOAT / DOUBLE test values, in thirds: raw bit patterns (NaNs, infinities and
 * subnormals included); magnitudes spread evenly over every binade of the range, both
 * signs; and dyadic values with one or two digits more than the format prints, which
 * make exact ties for %.8g / %.17g.
 */
static void fill_random_f32(float *out, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    uint32_t bits;
    switch (i % 3) {
      case 0:
        bits = (uint32_t)(rng_next() >> 32);
        break;
      case 1: /* exponent field 0 (subnormal) .. 254, any mantissa, any sign */
        bits = ((uint32_t)rng_below(255) << 23) | ((uint32_t)rng_next() & 0x807fffff);
        break;
      default: { /* an integer below 2^21 plus k / 8: nine significant digits */
        float x = (float)rng_below(UINT64_C(1) << 21) + (float)rng_below(8) / 8.0f;
        bits = f32_bits(rng_below(2) ? -x : x);
        break;
      }
    }
    out[i] = f32_from(bits);
  }
}

static void fill_random_f64(double *out, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    uint64_t bits;
    switch (i % 3) {
      case 0:
        bits = rng_next();
        break;
      case 1:
        bits = (rng_below(2047) << 52) | (rng_next() & 0x800fffffffffffffull);
        break;
      default: { /* an integer below 2^47 plus k / 8: eighteen significant digits */
        double x = (double)rng_below(UINT64_C(1) << 47) + (double)rng_below(8) / 8.0;
        bits = f64_bits(rng_below(2) ? -x : x);
        break;
      }
    }
    out[i] = f64_from(bits);
  }
}

static void test_printf_format(void) {
  enum { N32 = 150000, N64 = 150000 };
  uint16_t *codes = xmalloc(65536 * sizeof *codes);
  for (uint32_t i = 0; i < 65536; i++) {
    codes[i] = (uint16_t)i;
  }
  compare_with_printf(TCAST_DTYPE_FLOAT16, codes, 65536, f16_at, 8, "every FLOAT16 code");
  compare_with_printf(TCAST_DTYPE_BFLOAT16, codes, 65536, bf16_at, 8, "every BFLOAT16 code");
  free(codes);

  float *f32s = xmalloc(N32 * sizeof *f32s);
  fill_random_f32(f32s, N32);
  compare_with_printf(TCAST_DTYPE_FLOAT, f32s, N32, f32_at, 8, "random FLOAT values");
  free(f32s);

  double *f64s = xmalloc(N64 * sizeof *f64s);
  fill_random_f64(f64s, N64);
  compare_with_printf(TCAST_DTYPE_DOUBLE, f64s, N64, f64_at, 17, "random DOUBLE values");
  free(f64s);

  /* Powers of ten and their neighbours: where %g switches layouts. */
  {
    double d[3 * 700];
    float f[3 * 700];
    int n = 0;
    for (int e = -330; e <= 310; e++) {
      char text[16];
      snprintf(text, sizeof text, "1e%d", e);
      double p = strtod(text, NULL);
      float q = strtof(text, NULL);
      for (int k = -1; k <= 1; k++) {
        d[n] = f64_from(f64_bits(p) + (uint64_t)(int64_t)k);
        f[n] = f32_from(f32_bits(q) + (uint32_t)(int32_t)k);
        n++;
      }
    }
    compare_with_printf(TCAST_DTYPE_DOUBLE, d, n, f64_at, 17, "DOUBLE near powers of ten");
    compare_with_printf(TCAST_DTYPE_FLOAT, f, n, f32_at, 8, "FLOAT near powers of ten");
  }
}

/* ---------------------------------------------------------------- round trips */

/* Formats n values (shortest), parses the texts back into `dtype` and compares bits. */
static void round_trip(tcast_dtype dtype, const void *data, int64_t n,
                       int (*is_nan)(uint64_t bits), const char *what) {
  size_t size = dtype_size(dtype);
  text_batch b;
  if (!format_batch(dtype, data, n, SHORTEST, &b, __LINE__)) {
    free_batch(&b);
    return;
  }
  unsigned char *back = xmalloc((size_t)n * size);
  CHECK_STATUS(parse_views(b.views, n, dtype, back), TCAST_OK);
  int64_t bad = 0;
  for (int64_t i = 0; tc_err.status == TCAST_OK && i < n; i++) {
    uint64_t x = tc_load_bits((const unsigned char *)data + (size_t)i * size, size);
    uint64_t y = tc_load_bits(back + (size_t)i * size, size);
    int ok = is_nan(x) ? is_nan(y) : x == y;
    if (!ok && ++bad <= 10) {
      char shown[96];
      printable(shown, sizeof shown, b.views[i].data, b.views[i].len);
      tc_fail(__FILE__, __LINE__, "%s: %s 0x%" PRIx64 " -> \"%s\" -> 0x%" PRIx64, what,
              tcast_dtype_name(dtype), x, shown, y);
    }
  }
  CHECK_MSG(bad == 0, "%s: %lld of %lld values did not round-trip", what, (long long)bad,
            (long long)n);
  free(back);
  free_batch(&b);
}

static int nan16(uint64_t b) { return f16_is_nan((uint16_t)b); }
static int nanbf16(uint64_t b) { return bf16_is_nan((uint16_t)b); }
static int nan32(uint64_t b) { return isnan(f32_from((uint32_t)b)); }
static int nan64(uint64_t b) { return isnan(f64_from(b)); }

static void test_round_trips(void) {
  enum { N = 100000 };
  uint16_t *codes = xmalloc(65536 * sizeof *codes);
  for (uint32_t i = 0; i < 65536; i++) {
    codes[i] = (uint16_t)i;
  }
  round_trip(TCAST_DTYPE_FLOAT16, codes, 65536, nan16, "every FLOAT16 code");
  round_trip(TCAST_DTYPE_BFLOAT16, codes, 65536, nanbf16, "every BFLOAT16 code");
  free(codes);
  float *f32s = xmalloc(N * sizeof *f32s);
  fill_random_f32(f32s, N);
  round_trip(TCAST_DTYPE_FLOAT, f32s, N, nan32, "random FLOAT values");
  free(f32s);
  double *f64s = xmalloc(N * sizeof *f64s);
  fill_random_f64(f64s, N);
  round_trip(TCAST_DTYPE_DOUBLE, f64s, N, nan64, "random DOUBLE values");
  free(f64s);
}

/* ---------------------------------------------------------------- strided numeric input */

static void test_format_strided(void) {
  /* Every other FLOAT of six. */
  {
    const float storage[6] = {0.5f, 99.0f, -3.0f, 99.0f, 1e10f, 99.0f};
    const int64_t shape[1] = {3}, strides[1] = {2};
    tcast_string views[3];
    char arena_bytes[64];
    tcast_tensor in = tensor(storage, 5 * sizeof(float), shape, 1, TCAST_DTYPE_FLOAT);
    in.strides = strides;
    tcast_tensor o = tensor(views, sizeof views, shape, 1, TCAST_DTYPE_STRING);
    tcast_string_arena arena = {arena_bytes, sizeof arena_bytes, 0};
    CHECK_STATUS(tcast_cast_to_strings(&in, &o, &arena, NULL, TC_ERR), TCAST_OK);
    CHECK(view_is(views[0], "0.5") && view_is(views[1], "-3.0") && view_is(views[2], "1e+10"));
    CHECK_EQ_INT(arena.used, 3 + 4 + 5);
  }
  /* A transposed 2 x 3 INT16: shape {3, 2}, strides {1, 3}. */
  {
    const int16_t storage[6] = {0, 1, 2, -3, -4, -5};
    const int64_t shape[2] = {3, 2}, strides[2] = {1, 3};
    tcast_string views[6];
    char arena_bytes[6 * 6];
    tcast_tensor in = tensor(storage, sizeof storage, shape, 2, TCAST_DTYPE_INT16);
    in.strides = strides;
    tcast_tensor o = tensor(views, sizeof views, shape, 2, TCAST_DTYPE_STRING);
    tcast_string_arena arena = {arena_bytes, sizeof arena_bytes, 0};
    CHECK_STATUS(tcast_cast_to_strings(&in, &o, &arena, NULL, TC_ERR), TCAST_OK);
    const char *expected[6] = {"0", "-3", "1", "-4", "2", "-5"};
    for (int i = 0; i < 6; i++) {
      CHECK_MSG(view_is(views[i], expected[i]), "transposed INT16 element %d", i);
    }
  }
  /* A stride-0 (broadcast) DOUBLE row, in the printf format. */
  {
    const double one = 0.1;
    const int64_t shape[2] = {2, 2}, strides[2] = {0, 0};
    tcast_string views[4];
    char arena_bytes[4 * 24];
    tcast_tensor in = tensor(&one, sizeof one, shape, 2, TCAST_DTYPE_DOUBLE);
    in.strides = strides;
    tcast_tensor o = tensor(views, sizeof views, shape, 2, TCAST_DTYPE_STRING);
    tcast_string_arena arena = {arena_bytes, sizeof arena_bytes, 0};
    tcast_cast_options options = tcast_cast_options_default();
    options.string_format = PRINTF_8G;
    CHECK_STATUS(tcast_cast_to_strings(&in, &o, &arena, &options, TC_ERR), TCAST_OK);
    for (int i = 0; i < 4; i++) {
      CHECK(view_is(views[i], "0.10000000000000001"));
    }
  }
  /* Strided random FLOAT values against printf: every third of 3 * N. */
  {
    enum { N = 5000 };
    float *storage = xmalloc(3 * N * sizeof *storage);
    fill_random_f32(storage, 3 * N);
    const int64_t shape[1] = {N}, strides[1] = {3};
    tcast_string *views = xmalloc(N * sizeof *views);
    uint64_t capacity = N * tcast_string_max_bytes(TCAST_DTYPE_FLOAT);
    char *arena_bytes = xmalloc((size_t)capacity);
    tcast_tensor in = tensor(storage, (3 * N - 2) * sizeof(float), shape, 1, TCAST_DTYPE_FLOAT);
    in.strides = strides;
    tcast_tensor o = tensor(views, N * sizeof *views, shape, 1, TCAST_DTYPE_STRING);
    tcast_string_arena arena = {arena_bytes, capacity, 0};
    tcast_cast_options options = tcast_cast_options_default();
    options.string_format = PRINTF_8G;
    CHECK_STATUS(tcast_cast_to_strings(&in, &o, &arena, &options, TC_ERR), TCAST_OK);
    int bad = 0;
    for (int i = 0; tc_err.status == TCAST_OK && i < N; i++) {
      char expected[64];
      printf_text(expected, sizeof expected, (double)storage[3 * i], 8);
      bad += !view_is(views[i], expected);
    }
    CHECK_MSG(bad == 0, "%d strided FLOAT texts differ from printf", bad);
    free(storage);
    free(views);
    free(arena_bytes);
  }
}

/* ---------------------------------------------------------------- the arena contract */

static void test_arena_contract(void) {
  const float values[4] = {0.5f, -3.0f, 1e10f, f32_from(0x7fc00000)};
  const char *texts[4] = {"0.5", "-3.0", "1e+10", "NaN"};
  const uint64_t total = 3 + 4 + 5 + 3;
  const int64_t shape[1] = {4};
  const uint64_t prefix = 5;
  const uint64_t capacity = prefix + 4 * tcast_string_max_bytes(TCAST_DTYPE_FLOAT) + 20;
  char *bytes = xmalloc((size_t)capacity + CANARY_BYTES);
  tcast_string views[4];
  tcast_tensor in = tensor(values, sizeof values, shape, 1, TCAST_DTYPE_FLOAT);
  tcast_tensor o = tensor(views, sizeof views, shape, 1, TCAST_DTYPE_STRING);

  /* Appended at arena->used; the bytes before it untouched; used advances by the total. */
  memset(bytes, CANARY, (size_t)capacity + CANARY_BYTES);
  memcpy(bytes, "hello", prefix);
  tcast_string_arena arena = {bytes, capacity, prefix};
  CHECK_STATUS(tcast_cast_to_strings(&in, &o, &arena, NULL, TC_ERR), TCAST_OK);
  CHECK(memcmp(bytes, "hello", prefix) == 0);
  CHECK_EQ_INT(arena.used, prefix + total);
  CHECK(arena.data == bytes && arena.capacity == capacity);
  {
    uint64_t at = prefix;
    for (int i = 0; i < 4; i++) {
      CHECK_MSG(views[i].data == bytes + at && view_is(views[i], texts[i]),
                "element %d: view at offset %td, expected %" PRIu64 " \"%s\"", i,
                views[i].data - bytes, at, texts[i]);
      at += views[i].len;
    }
  }
  for (size_t i = (size_t)arena.used; i < capacity + CANARY_BYTES; i++) {
    if ((unsigned char)bytes[i] != CANARY) {
      CHECK_MSG(0, "arena byte %zu past the texts was written", i);
      break;
    }
  }
  /* A second call appends after the first; the first texts stay. */
  {
    tcast_string more[4];
    tcast_tensor o2 = tensor(more, sizeof more, shape, 1, TCAST_DTYPE_STRING);
    CHECK_STATUS(tcast_cast_to_strings(&in, &o2, &arena, NULL, TC_ERR), TCAST_OK);
    CHECK_EQ_INT(arena.used, prefix + 2 * total);
    CHECK(more[0].data == bytes + prefix + total);
    for (int i = 0; i < 4; i++) {
      CHECK(view_is(views[i], texts[i]) && view_is(more[i], texts[i]));
    }
  }

  /* Too small: BUFFER_TOO_SMALL with the bytes needed, used unchanged, nothing written
     past the capacity. One byte short, and no free byte at all. */
  {
    const uint64_t short_capacities[3] = {prefix + total - 1, prefix + 3, prefix};
    char needed[32];
    snprintf(needed, sizeof needed, " %" PRIu64 " bytes", total);
    for (int k = 0; k < 3; k++) {
      memset(bytes, CANARY, (size_t)capacity + CANARY_BYTES);
      memcpy(bytes, "hello", prefix);
      tcast_string_arena small = {bytes, short_capacities[k], prefix};
      CHECK_STATUS(tcast_cast_to_strings(&in, &o, &small, NULL, TC_ERR),
                   TCAST_ERR_BUFFER_TOO_SMALL);
      CHECK_MSG_CONTAINS(&tc_err, needed);
      CHECK_EQ_INT(small.used, prefix);
      CHECK(small.data == bytes && small.capacity == short_capacities[k]);
      CHECK(memcmp(bytes, "hello", prefix) == 0);
      int clean = 1;
      for (size_t i = (size_t)short_capacities[k]; i < capacity + CANARY_BYTES; i++) {
        clean &= (unsigned char)bytes[i] == CANARY;
      }
      CHECK_MSG(clean, "capacity %" PRIu64 ": a byte past the capacity was written",
                short_capacities[k]);
    }
  }

  /* The needed size of a large random batch, measured by a successful run. */
  {
    enum { N = 3000 };
    double *d = xmalloc(N * sizeof *d);
    tcast_string *vs = xmalloc(N * sizeof *vs);
    fill_random_f64(d, N);
    const int64_t shape_n[1] = {N};
    uint64_t cap = 7 + N * tcast_string_max_bytes(TCAST_DTYPE_DOUBLE);
    char *buf = xmalloc((size_t)cap + CANARY_BYTES);
    memset(buf, CANARY, (size_t)cap + CANARY_BYTES);
    tcast_tensor din = tensor(d, N * sizeof *d, shape_n, 1, TCAST_DTYPE_DOUBLE);
    tcast_tensor dout = tensor(vs, N * sizeof *vs, shape_n, 1, TCAST_DTYPE_STRING);
    for (int32_t format = 0; format <= 1; format++) {
      tcast_cast_options options = tcast_cast_options_default();
      options.string_format = format;
      tcast_string_arena a = {buf, cap, 7};
      CHECK_STATUS(tcast_cast_to_strings(&din, &dout, &a, &options, TC_ERR), TCAST_OK);
      uint64_t need = a.used - 7;
      char needed[32];
      snprintf(needed, sizeof needed, " %" PRIu64 " bytes", need);
      memset(buf, CANARY, (size_t)cap + CANARY_BYTES);
      tcast_string_arena b = {buf, 7 + need - 1, 7};
      CHECK_STATUS(tcast_cast_to_strings(&din, &dout, &b, &options, TC_ERR),
                   TCAST_ERR_BUFFER_TOO_SMALL);
      CHECK_MSG_CONTAINS(&tc_err, needed);
      CHECK_EQ_INT(b.used, 7);
      int clean = 1;
      for (size_t i = (size_t)(7 + need - 1); i < cap + CANARY_BYTES; i++) {
        clean &= (unsigned char)buf[i] == CANARY;
      }
      CHECK_MSG(clean, "format %d: a byte past the capacity was written", (int)format);
      /* exactly enough */
      tcast_string_arena c = {buf, 7 + need, 7};
      CHECK_STATUS(tcast_cast_to_strings(&din, &dout, &c, &options, TC_ERR), TCAST_OK);
      CHECK_EQ_INT(c.used, 7 + need);
    }
    free(d);
    free(vs);
    free(buf);
  }
  free(bytes);
}

/*
 * n * tcast_string_max_bytes(dtype) always suffices: for every numeric dtype, the
 * longest texts we can think of plus random values, in both formats, with an arena of
 * exactly that size (after some used bytes, too).
 */
static void test_max_bytes_suffices(void) {
  static const tcast_dtype dtypes[] = {
      TCAST_DTYPE_INT8,    TCAST_DTYPE_UINT8,   TCAST_DTYPE_INT16,   TCAST_DTYPE_UINT16,
      TCAST_DTYPE_INT32,   TCAST_DTYPE_UINT32,  TCAST_DTYPE_INT64,   TCAST_DTYPE_UINT64,
      TCAST_DTYPE_FLOAT16, TCAST_DTYPE_BFLOAT16, TCAST_DTYPE_FLOAT,  TCAST_DTYPE_DOUBLE,
      TCAST_DTYPE_BOOL,    TCAST_DTYPE_QINT8,   TCAST_DTYPE_QUINT8,  TCAST_DTYPE_QINT16,
      TCAST_DTYPE_QUINT16, TCAST_DTYPE_QINT32,
  };
  enum { N = 4096 };
  unsigned char *data = xmalloc(N * 8);
  for (size_t t = 0; t < sizeof dtypes / sizeof dtypes[0]; t++) {
    tcast_dtype dtype = dtypes[t];
    size_t size = dtype_size(dtype);
    CHECK_MSG(tcast_string_max_bytes(dtype) > 0, "%s has no bound", tcast_dtype_name(dtype));
    for (size_t i = 0; i < N * 8; i++) {
      data[i] = (unsigned char)rng_next();
    }
    /* negative extremes: the sign bit set, the other bits mostly set */
    for (size_t i = 0; i < 16; i++) {
      memset(data + i * size, 0xff, size);
      data[i * size + size - 1] = 0x80 | (unsigned char)i;
    }
    if (dtype == TCAST_DTYPE_BOOL) {
      for (size_t i = 0; i < N; i++) {
        data[i] &= 1; /* BOOL elements are 0 or 1 */
      }
    }
    for (int32_t format = 0; format <= 1; format++) {
      text_batch b;
      if (format_batch(dtype, data, N, format, &b, __LINE__)) {
        CHECK(b.used <= b.capacity);
      }
      free_batch(&b);
    }
  }
  /* The longest FLOAT and DOUBLE texts. */
  {
    const double d[] = {-2.2250738585072009e-308, -1.7976931348623157e308,
                        -4.9406564584124654e-324, -1.2345678901234567e-300,
                        -0.00012345678901234567, -9999999999999998.0, -999999999999999.9};
    const float f[] = {-1.17549435e-38f, -3.40282347e38f, -1.4e-45f, -1.23456789e-30f,
                       -0.000123456789f, -999999.94f, -1.17549421e-38f};
    for (int32_t format = 0; format <= 1; format++) {
      text_batch b;
      if (format_batch(TCAST_DTYPE_DOUBLE, d, sizeof d / sizeof d[0], format, &b, __LINE__)) {
        tc_pass();
      }
      free_batch(&b);
      if (format_batch(TCAST_DTYPE_FLOAT, f, sizeof f / sizeof f[0], format, &b, __LINE__)) {
        tc_pass();
      }
      free_batch(&b);
    }
  }
  /* The bound also holds with used > 0: n * bound free bytes. */
  {
    const double d[3] = {-2.2250738585072009e-308, -1.7976931348623157e308, 0.1};
    const int64_t shape[1] = {3};
    tcast_string views[3];
    uint64_t bound = tcast_string_max_bytes(TCAST_DTYPE_DOUBLE);
    char *buf = xmalloc((size_t)(100 + 3 * bound));
    tcast_tensor in = tensor(d, sizeof d, shape, 1, TCAST_DTYPE_DOUBLE);
    tcast_tensor o = tensor(views, sizeof views, shape, 1, TCAST_DTYPE_STRING);
    tcast_string_arena arena = {buf, 100 + 3 * bound, 100};
    CHECK_STATUS(tcast_cast_to_strings(&in, &o, &arena, NULL, TC_ERR), TCAST_OK);
    free(buf);
  }
  free(data);
  /* No bound for what cannot be formatted. */
  CHECK_EQ_INT(tcast_string_max_bytes(TCAST_DTYPE_STRING), 0);
  CHECK_EQ_INT(tcast_string_max_bytes(TCAST_DTYPE_COMPLEX64), 0);
  CHECK_EQ_INT(tcast_string_max_bytes(TCAST_DTYPE_COMPLEX128), 0);
  CHECK_EQ_INT(tcast_string_max_bytes(TCAST_DTYPE_UNDEFINED), 0);
  CHECK_EQ_INT(tcast_string_max_bytes(999), 0);
  CHECK_EQ_INT(tcast_string_max_bytes(-1), 0);
}

/* ---------------------------------------------------------------- formatting: errors */

static void test_format_errors(void) {
  const float values[3] = {1.0f, 2.0f, 3.0f};
  const int64_t shape[1] = {3};
  tcast_string views[3];
  char bytes[256];
  tcast_tensor in = tensor(values, sizeof values, shape, 1, TCAST_DTYPE_FLOAT);
  tcast_tensor o = tensor(views, sizeof views, shape, 1, TCAST_DTYPE_STRING);
  tcast_string_arena arena = {bytes, sizeof bytes, 0};
  tcast_cast_options options = tcast_cast_options_default();

  /* NULL pointers. */
  CHECK_STATUS(tcast_cast_to_strings(&in, &o, NULL, NULL, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
  CHECK_MSG_CONTAINS(&tc_err, "arena");
  CHECK_STATUS(tcast_cast_to_strings(NULL, &o, &arena, NULL, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
  CHECK_STATUS(tcast_cast_to_strings(&in, NULL, &arena, NULL, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
  CHECK_EQ_INT(arena.used, 0);
  {
    tcast_string_arena null_data = {NULL, 64, 0};
    CHECK_STATUS(tcast_cast_to_strings(&in, &o, &null_data, NULL, TC_ERR),
                 TCAST_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(null_data.used, 0);
    /* NULL with capacity 0 is an empty arena: too small for three texts ... */
    tcast_string_arena empty = {NULL, 0, 0};
    CHECK_STATUS(tcast_cast_to_strings(&in, &o, &empty, NULL, TC_ERR),
                 TCAST_ERR_BUFFER_TOO_SMALL);
    CHECK_MSG_CONTAINS(&tc_err, " 9 bytes"); /* "1.0" "2.0" "3.0" */
    /* ... and enough for no text at all. */
    const int64_t zero[1] = {0};
    tcast_tensor in0 = tensor(NULL, 0, zero, 1, TCAST_DTYPE_FLOAT);
    tcast_tensor o0 = tensor(NULL, 0, zero, 1, TCAST_DTYPE_STRING);
    CHECK_STATUS(tcast_cast_to_strings(&in0, &o0, &empty, NULL, TC_ERR), TCAST_OK);
    CHECK_EQ_INT(empty.used, 0);
  }
  /* used > capacity. */
  {
    tcast_string_arena over = {bytes, 16, 17};
    CHECK_STATUS(tcast_cast_to_strings(&in, &o, &over, NULL, TC_ERR),
                 TCAST_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(over.used, 17);
  }
  /* Output not STRING; input STRING; complex input. */
  {
    float numeric_out[3];
    tcast_tensor on = tensor(numeric_out, sizeof numeric_out, shape, 1, TCAST_DTYPE_FLOAT);
    CHECK_STATUS(tcast_cast_to_strings(&in, &on, &arena, NULL, TC_ERR), TCAST_ERR_UNSUPPORTED);
    tcast_string texts[3] = {view_str("1"), view_str("2"), view_str("3")};
    tcast_tensor sin = tensor(texts, sizeof texts, shape, 1, TCAST_DTYPE_STRING);
    CHECK_STATUS(tcast_cast_to_strings(&sin, &o, &arena, NULL, TC_ERR), TCAST_ERR_UNSUPPORTED);
    const float complex_values[6] = {1, 0, 2, 0, 3, 0};
    tcast_tensor cin =
        tensor(complex_values, sizeof complex_values, shape, 1, TCAST_DTYPE_COMPLEX64);
    CHECK_STATUS(tcast_cast_to_strings(&cin, &o, &arena, NULL, TC_ERR), TCAST_ERR_UNSUPPORTED);
    const double complex128_values[6] = {1, 0, 2, 0, 3, 0};
    tcast_tensor cin2 =
        tensor(complex128_values, sizeof complex128_values, shape, 1, TCAST_DTYPE_COMPLEX128);
    CHECK_STATUS(tcast_cast_to_strings(&cin2, &o, &arena, NULL, TC_ERR),
                 TCAST_ERR_UNSUPPORTED);
    CHECK_EQ_INT(arena.used, 0);
  }
  /* Unknown dtypes. */
  {
    tcast_tensor bad = in;
    bad.dtype = 12345;
    CHECK_STATUS(tcast_cast_to_strings(&bad, &o, &arena, NULL, TC_ERR),
                 TCAST_ERR_INVALID_DTYPE);
  }
  /* Shape mismatch; a non-contiguous output. */
  {
    const int64_t other[1] = {2};
    tcast_tensor o2 = tensor(views, sizeof views, other, 1, TCAST_DTYPE_STRING);
    CHECK_STATUS(tcast_cast_to_strings(&in, &o2, &arena, NULL, TC_ERR),
                 TCAST_ERR_INVALID_SHAPE);
    const int64_t shape2[2] = {3, 1};
    tcast_tensor o3 = tensor(views, sizeof views, shape2, 2, TCAST_DTYPE_STRING);
    CHECK_STATUS(tcast_cast_to_strings(&in, &o3, &arena, NULL, TC_ERR),
                 TCAST_ERR_INVALID_SHAPE);
    tcast_string wide[6];
    const int64_t strides[1] = {2};
    tcast_tensor o4 = tensor(wide, sizeof wide, shape, 1, TCAST_DTYPE_STRING);
    o4.strides = strides;
    CHECK_STATUS(tcast_cast_to_strings(&in, &o4, &arena, NULL, TC_ERR),
                 TCAST_ERR_INVALID_SHAPE);
    /* an output buffer too small for its views */
    tcast_tensor o5 = tensor(views, sizeof views - 1, shape, 1, TCAST_DTYPE_STRING);
    CHECK_STATUS(tcast_cast_to_strings(&in, &o5, &arena, NULL, TC_ERR),
                 TCAST_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_INT(arena.used, 0);
  }
  /* Overlaps: arena with output, arena with input, output with input. */
  {
    enum { BIG = 1024 };
    unsigned char *big = xmalloc(BIG);
    memset(big, 0, BIG);
    memcpy(big + 512, values, sizeof values);
    tcast_tensor in_big = tensor(big + 512, sizeof values, shape, 1, TCAST_DTYPE_FLOAT);
    tcast_tensor o_big = tensor(big, sizeof views, shape, 1, TCAST_DTYPE_STRING);
    tcast_string_arena over_output = {(char *)big + 16, 256, 0};
    CHECK_STATUS(tcast_cast_to_strings(&in, &o_big, &over_output, NULL, TC_ERR),
                 TCAST_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(over_output.used, 0);
    tcast_string_arena over_input = {(char *)big + 256, 300, 0};
    CHECK_STATUS(tcast_cast_to_strings(&in_big, &o, &over_input, NULL, TC_ERR),
                 TCAST_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(over_input.used, 0);
    /* the input in the arena's used part overlaps too */
    tcast_string_arena used_part = {(char *)big + 500, 200, 100};
    CHECK_STATUS(tcast_cast_to_strings(&in_big, &o, &used_part, NULL, TC_ERR),
                 TCAST_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(used_part.used, 100);
    tcast_tensor o_on_input = tensor(big + 500, sizeof views, shape, 1, TCAST_DTYPE_STRING);
    CHECK_STATUS(tcast_cast_to_strings(&in_big, &o_on_input, &arena, NULL, TC_ERR),
                 TCAST_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(arena.used, 0);
    /* adjacent but disjoint is fine */
    tcast_string_arena adjacent = {(char *)big + sizeof views, 256, 0};
    CHECK_STATUS(tcast_cast_to_strings(&in_big, &o_big, &adjacent, NULL, TC_ERR), TCAST_OK);
    free(big);
  }
  /* Options: bad string_format, and struct_size too small. */
  {
    const int32_t bad_formats[3] = {2, -1, 1000};
    for (int k = 0; k < 3; k++) {
      options = tcast_cast_options_default();
      options.string_format = bad_formats[k];
      CHECK_STATUS(tcast_cast_to_strings(&in, &o, &arena, &options, TC_ERR),
                   TCAST_ERR_INVALID_ARGUMENT);
      CHECK_MSG_CONTAINS(&tc_err, "string_format");
    }
    options = tcast_cast_options_default();
    options.struct_size = 4;
    CHECK_STATUS(tcast_cast_to_strings(&in, &o, &arena, &options, TC_ERR),
                 TCAST_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(arena.used, 0);
  }
  /* err may be NULL. */
  CHECK(tcast_cast_to_strings(&in, &o, NULL, NULL, NULL) == TCAST_ERR_NULL_ARGUMENT);
  CHECK(tcast_cast_to_strings(&in, &o, &arena, NULL, NULL) == TCAST_OK);
  CHECK_EQ_INT(arena.used, 9);
  /* A scalar. */
  {
    const double x = -2.5;
    tcast_string v;
    char buf[24];
    tcast_tensor sin = tensor(&x, sizeof x, NULL, 0, TCAST_DTYPE_DOUBLE);
    tcast_tensor sout = tensor(&v, sizeof v, NULL, 0, TCAST_DTYPE_STRING);
    tcast_string_arena a = {buf, sizeof buf, 0};
    CHECK_STATUS(tcast_cast_to_strings(&sin, &sout, &a, NULL, TC_ERR), TCAST_OK);
    CHECK(view_is(v, "-2.5") && v.data == buf && a.used == 4);
  }
}

int main(void) {
  test_parse_float_targets();
  test_parse_half_targets();
  test_parse_integer_targets();
  test_parse_bool_target();
  test_parse_refusals();
  test_parse_trims_c_space();
  test_parse_null_views();
  test_parse_strided();
  test_parse_unsupported_pairs();
  test_parse_random_decimals();
  test_format_examples();
  test_format_strided();
  test_arena_contract();
  test_max_bytes_suffices();
  test_format_errors();
  test_printf_format();
  test_round_trips();
  return tc_summary();
}
