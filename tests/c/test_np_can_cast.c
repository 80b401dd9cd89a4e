/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * numpy casting rules (docs/c-api.md section 7, docs/semantics-can-cast.md): tcast_np_dtype_parse /
 * _free / _str, tcast_np_casting_from_name, tcast_np_casting_level, tcast_np_can_cast,
 * tcast_np_can_cast_str, the Python-scalar and numpy-scalar queries, tcast_np_promote_types,
 * tcast_np_min_scalar_type_*, tcast_can_cast and the casting option of tcast_cast.
 *
 * Every expected value below comes from the semantics page or from numpy's own docstrings
 * and tests as the page cites them; none was produced by running this library. They are
 * a little-endian host's: on a big-endian host every spec and answer goes through
 * tc_np_host_order (tc_util.h), which trades '<' and '>'.
 *
 * - numpy's can_cast docstring examples (1.22 and 2.x);
 * - section 1: argument handling, the bad casting name messages of both rule sets;
 * - section 2: the whole level matrix, under both rule sets, through the level, the
 *   handle and the string queries;
 * - section 3: byte order, numeric, string lengths (n and n-1 for every numeric type,
 *   S and U), void, object, datetime and timedelta (units, metric prefixes), unsized
 *   targets, subarrays;
 * - section 4: structured dtypes under both rule sets;
 * - section 5: value-based casting under TCAST_NUMPY_1, its refusal under TCAST_NUMPY_2;
 * - section 6: the dtype grammar, str() of parsed dtypes, rejected specs and their
 *   messages, aliases removed in numpy 2; its corrections: a repeat count before an
 *   unsized S/U/V is its size, numpy's C int limits on subarrays and sizes;
 * - section 7: the promote_types table and string / datetime rules; min_scalar_type;
 * - section 8: numpy's own test cases;
 * - section 0: tcast_can_cast on the tensorcast dtypes, the TF quantized types, STRING,
 *   and tcast_cast refusing a cast its casting option forbids;
 * - errors: NULL pointers, bad rules and casting values, short buffers, value_bytes,
 *   the handle left NULL by a failed parse.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "tc_check.h"
#include "tc_util.h"

#define NO TCAST_CASTING_NO
#define EQUIV TCAST_CASTING_EQUIV
#define SAFE TCAST_CASTING_SAFE
#define KIND TCAST_CASTING_SAME_KIND
#define UNSAFE TCAST_CASTING_UNSAFE
#define NEVER TCAST_CASTING_NEVER
#define NP1 TCAST_NUMPY_1
#define NP2 TCAST_NUMPY_2

static const char *const CASTING_NAMES[5] = {"no", "equiv", "safe", "same_kind", "unsafe"};
static const char *const LEVEL_NAMES[6] = {"no", "equiv", "safe", "same_kind", "unsafe", "never"};

static const char *level_name(int level) {
  return level >= 0 && level <= 5 ? LEVEL_NAMES[level] : "(out of range)";
}

/* The message numpy 2 gives for a Python int / float / complex / bool (section 1). */
#define PY_REFUSED "can_cast() does not support Python ints, floats, and complex"

/* ------------------------------------------------------------------ helpers */

/* Compares a status (the call was preceded by tc_reset_err()); 1 when it matched. */
static int status_at(int line, const char *call, tcast_status got, tcast_status expected) {
  int before = tc_failed;
  tc_check_status(got, expected, call, __FILE__, line);
  return tc_failed == before;
}

static void message_has_at(int line, const char *needle) {
  if (tc_message_terminated(&tc_err) && strstr(tc_err.message, needle) != NULL) {
    tc_pass();
  } else {
    tc_fail(__FILE__, line, "message \"%.*s\" does not contain \"%s\"",
            TCAST_ERROR_MESSAGE_BYTES - 1, tc_err.message, needle);
  }
}

static void message_is_at(int line, const char *expected) {
  if (tc_message_terminated(&tc_err) && strcmp(tc_err.message, expected) == 0) {
    tc_pass();
  } else {
    tc_fail(__FILE__, line, "message is \"%.*s\", expected \"%s\"", TCAST_ERROR_MESSAGE_BYTES - 1,
            tc_err.message, expected);
  }
}

/* Parses `spec`; NULL (and a failure counted) if that fails. */
static tcast_np_dtype *parse_at(int line, const char *spec) {
  tcast_np_dtype *handle = NULL;
  tc_reset_err();
  tcast_status status = tcast_np_dtype_parse(spec, &handle, TC_ERR);
  if (status != TCAST_OK || handle == NULL) {
    tc_fail(__FILE__, line, "parse(\"%s\") failed: %s: %s", spec, tcast_status_name(status),
            tc_message_terminated(&tc_err) ? tc_err.message : "(unterminated)");
    tcast_np_dtype_free(handle);
    return NULL;
  }
  tc_pass();
  return handle;
}

/* The level of `from` -> `to` under `rules` is `expected` (0..5): checked through
 * tcast_np_casting_level, tcast_np_can_cast at every casting and tcast_np_can_cast_str at
 * every casting name. */
static void level_at(int line, const char *from, const char *to, int32_t rules, int expected) {
  from = tc_np_host_order(from);
  to = tc_np_host_order(to);
  tcast_np_dtype *a = parse_at(line, from);
  tcast_np_dtype *b = parse_at(line, to);
  if (a != NULL && b != NULL) {
    int32_t level = -1;
    tc_reset_err();
    tcast_status status = tcast_np_casting_level(a, b, rules, &level, TC_ERR);
    if (status_at(line, "tcast_np_casting_level", status, TCAST_OK)) {
      CHECK_MSG(level == expected, "%s:%d: level('%s' -> '%s', numpy %d) is %d (%s), expected %d (%s)",
                __FILE__, line, from, to, (int)rules, (int)level, level_name(level), expected,
                level_name(expected));
    }
    for (int32_t c = NO; c <= UNSAFE; c++) {
      int32_t result = -1;
      tc_reset_err();
      status = tcast_np_can_cast(a, b, c, rules, &result, TC_ERR);
      if (status_at(line, "tcast_np_can_cast", status, TCAST_OK)) {
        CHECK_MSG(result == (expected <= c),
                  "%s:%d: can_cast('%s', '%s', '%s', numpy %d) is %d, expected %d (level %s)",
                  __FILE__, line, from, to, CASTING_NAMES[c], (int)rules, (int)result,
                  expected <= c, level_name(expected));
      }
      result = -1;
      tc_reset_err();
      status = tcast_np_can_cast_str(from, to, CASTING_NAMES[c], rules, &result, TC_ERR);
      if (status_at(line, "tcast_np_can_cast_str", status, TCAST_OK)) {
        CHECK_MSG(result == (expected <= c),
                  "%s:%d: can_cast_str('%s', '%s', '%s', numpy %d) is %d, expected %d", __FILE__,
                  line, from, to, CASTING_NAMES[c], (int)rules, (int)result, expected <= c);
      }
    }
  }
  tcast_np_dtype_free(a);
  tcast_np_dtype_free(b);
}

#define LEVEL(from, to, rules, expected) level_at(__LINE__, from, to, rules, expected)
/* The page states these for every numpy version. */
#define LEVEL2(from, to, expected)          \
  do {                                      \
    level_at(__LINE__, from, to, NP1, expected); \
    level_at(__LINE__, from, to, NP2, expected); \
  } while (0)

/* numpy.can_cast(from, to, casting) on spec strings. */
static void can_at(int line, const char *from, const char *to, const char *casting, int32_t rules,
                   int expected) {
  from = tc_np_host_order(from);
  to = tc_np_host_order(to);
  int32_t result = -1;
  tc_reset_err();
  tcast_status status = tcast_np_can_cast_str(from, to, casting, rules, &result, TC_ERR);
  if (status_at(line, "tcast_np_can_cast_str", status, TCAST_OK)) {
    CHECK_MSG(result == expected, "%s:%d: can_cast('%s', '%s', '%s', numpy %d) is %d, expected %d",
              __FILE__, line, from, to, casting, (int)rules, (int)result, expected);
  }
}

#define CAN(from, to, casting, rules, expected) can_at(__LINE__, from, to, casting, rules, expected)
#define CAN2(from, to, casting, expected)                 \
  do {                                                    \
    can_at(__LINE__, from, to, casting, NP1, expected);   \
    can_at(__LINE__, from, to, casting, NP2, expected);   \
  } while (0)

/* str(numpy.dtype(spec)) is `expected`; also checks the exact-capacity and one-short
 * cases and that nothing past the capacity is written. */
static void str_at(int line, const char *spec, const char *expected) {
  spec = tc_np_host_order(spec);
  expected = tc_np_host_order(expected);
  tcast_np_dtype *handle = parse_at(line, spec);
  if (handle == NULL) {
    return;
  }
  char buf[256];
  memset(buf, 'X', sizeof buf);
  tc_reset_err();
  tcast_status status = tcast_np_dtype_str(handle, buf, sizeof buf, NULL, TC_ERR);
  if (status_at(line, "tcast_np_dtype_str", status, TCAST_OK)) {
    CHECK_MSG(memchr(buf, '\0', sizeof buf) != NULL && strcmp(buf, expected) == 0,
              "%s:%d: str(dtype('%s')) is \"%.60s\", expected \"%s\"", __FILE__, line, spec, buf,
              expected);
  }
  size_t need = strlen(expected) + 1;
  /* The sizing query: (NULL, 0) answers the bytes with the NUL, writing nothing. */
  uint64_t needed = 0;
  tc_reset_err();
  status = tcast_np_dtype_str(handle, NULL, 0, &needed, TC_ERR);
  if (status_at(line, "tcast_np_dtype_str (NULL, 0, &needed)", status, TCAST_OK)) {
    CHECK_MSG(needed == need, "%s:%d: str of '%s' needs %zu bytes, the query said %llu",
              __FILE__, line, spec, need, (unsigned long long)needed);
  }
  if (need < sizeof buf) {
    memset(buf, 'X', sizeof buf);
    tc_reset_err();
    status = tcast_np_dtype_str(handle, buf, need, NULL, TC_ERR);
    if (status_at(line, "tcast_np_dtype_str (exact capacity)", status, TCAST_OK)) {
      CHECK_MSG(strcmp(buf, expected) == 0 && buf[need] == 'X',
                "%s:%d: exact-capacity str of '%s' wrong or wrote past the capacity", __FILE__,
                line, spec);
    }
    memset(buf, 'X', sizeof buf);
    tc_reset_err();
    needed = 0;
    status = tcast_np_dtype_str(handle, buf, need - 1, &needed, TC_ERR);
    status_at(line, "tcast_np_dtype_str (one byte short)", status, TCAST_ERR_BUFFER_TOO_SMALL);
    CHECK_MSG(needed == need, "%s:%d: a short str of '%s' reported %llu bytes needed, not %zu",
              __FILE__, line, spec, (unsigned long long)needed, need);
    int clean = 1;
    for (size_t i = need - 1; i < sizeof buf; i++) {
      clean &= buf[i] == 'X';
    }
    CHECK_MSG(clean, "%s:%d: a refused str of '%s' wrote past its capacity", __FILE__, line, spec);
  }
  tcast_np_dtype_free(handle);
}

#define STR(spec, expected) str_at(__LINE__, spec, expected)

/* Parsing `spec` fails with `status` and a message containing `needle`; *out is NULL. */
static void parse_fails_at(int line, const char *spec, tcast_status expected, const char *needle) {
  spec = tc_np_host_order(spec);
  needle = tc_np_host_order(needle);
  static int dummy;
  tcast_np_dtype *handle = (tcast_np_dtype *)&dummy;
  tc_reset_err();
  tcast_status status = tcast_np_dtype_parse(spec, &handle, TC_ERR);
  if (status_at(line, "tcast_np_dtype_parse", status, expected)) {
    message_has_at(line, needle);
  }
  CHECK_MSG(handle == NULL, "%s:%d: a failed parse of '%s' left *out non-NULL", __FILE__, line, spec);
  if (handle != NULL && handle != (tcast_np_dtype *)&dummy) {
    tcast_np_dtype_free(handle);
  }
}

#define PARSE_FAILS(spec, needle) parse_fails_at(__LINE__, spec, TCAST_ERR_PARSE, needle)

/* `spec` parses, but the queries under `rules` refuse it (as `from` and as `to`, through
 * handles and strings) with TCAST_ERR_PARSE and `needle` in the message. */
static void refused_at(int line, const char *spec, int32_t rules, const char *needle) {
  spec = tc_np_host_order(spec);
  needle = tc_np_host_order(needle);
  tcast_np_dtype *handle = parse_at(line, spec);
  tcast_np_dtype *other = parse_at(line, "i4");
  if (handle != NULL && other != NULL) {
    int32_t level = -1, result = -1;
    tc_reset_err();
    tcast_status status = tcast_np_casting_level(handle, other, rules, &level, TC_ERR);
    if (status_at(line, "tcast_np_casting_level (refused from)", status, TCAST_ERR_PARSE)) {
      message_has_at(line, needle);
    }
    tc_reset_err();
    status = tcast_np_casting_level(other, handle, rules, &level, TC_ERR);
    if (status_at(line, "tcast_np_casting_level (refused to)", status, TCAST_ERR_PARSE)) {
      message_has_at(line, needle);
    }
    tc_reset_err();
    status = tcast_np_can_cast(other, handle, UNSAFE, rules, &result, TC_ERR);
    if (status_at(line, "tcast_np_can_cast (refused to)", status, TCAST_ERR_PARSE)) {
      message_has_at(line, needle);
    }
    tc_reset_err();
    status = tcast_np_can_cast_str("i4", spec, "unsafe", rules, &result, TC_ERR);
    if (status_at(line, "tcast_np_can_cast_str (refused to)", status, TCAST_ERR_PARSE)) {
      message_has_at(line, needle);
    }
    /* As from_, numpy reports its generic message (section 1). */
    tc_reset_err();
    status = tcast_np_can_cast_str(spec, "i4", "unsafe", rules, &result, TC_ERR);
    if (status_at(line, "tcast_np_can_cast_str (refused from)", status, TCAST_ERR_PARSE)) {
      message_has_at(line, "did not understand one of the types; 'None' not accepted");
    }
  }
  tcast_np_dtype_free(handle);
  tcast_np_dtype_free(other);
}

#define REFUSED(spec, rules, needle) refused_at(__LINE__, spec, rules, needle)

/* ---- Python scalars */

typedef enum { PY_INT, PY_FLOAT, PY_COMPLEX, PY_BOOL } py_kind;
typedef struct {
  py_kind kind;
  const char *decimal;
  double re, im;
  int32_t flag;
} py_value;

static py_value py_int(const char *decimal) {
  py_value v = {PY_INT, decimal, 0, 0, 0};
  return v;
}
static py_value py_float(double x) {
  py_value v = {PY_FLOAT, NULL, x, 0, 0};
  return v;
}
static py_value py_complex(double re, double im) {
  py_value v = {PY_COMPLEX, NULL, re, im, 0};
  return v;
}
static py_value py_bool(int32_t flag) {
  py_value v = {PY_BOOL, NULL, 0, 0, flag};
  return v;
}

static tcast_status call_py(py_value v, const char *to, int32_t casting, int32_t rules,
                            int32_t *result, tcast_error *err) {
  switch (v.kind) {
  case PY_INT:
    return tcast_np_can_cast_pyint(v.decimal, to, casting, rules, result, err);
  case PY_FLOAT:
    return tcast_np_can_cast_pyfloat(v.re, to, casting, rules, result, err);
  case PY_COMPLEX:
    return tcast_np_can_cast_pycomplex(v.re, v.im, to, casting, rules, result, err);
  default:
    return tcast_np_can_cast_pybool(v.flag, to, casting, rules, result, err);
  }
}

static void py_text(py_value v, char *out, size_t cap) {
  switch (v.kind) {
  case PY_INT:
    snprintf(out, cap, "%s", v.decimal);
    break;
  case PY_FLOAT:
    snprintf(out, cap, "%.17g", v.re);
    break;
  case PY_COMPLEX:
    snprintf(out, cap, "complex(%.17g, %.17g)", v.re, v.im);
    break;
  default:
    snprintf(out, cap, "%s", v.flag ? "True" : "False");
    break;
  }
}

/* numpy 1.22: can_cast(value, to, casting) is `expected`; numpy 2: TypeError. */
static void py_at(int line, py_value v, const char *to, int32_t casting, int expected) {
  to = tc_np_host_order(to);
  char text[96];
  py_text(v, text, sizeof text);
  int32_t result = -1;
  tc_reset_err();
  tcast_status status = call_py(v, to, casting, NP1, &result, TC_ERR);
  if (status_at(line, "tcast_np_can_cast_py* (numpy 1)", status, TCAST_OK)) {
    CHECK_MSG(result == expected, "%s:%d: numpy 1 can_cast(%s, '%s', '%s') is %d, expected %d",
              __FILE__, line, text, to, CASTING_NAMES[casting], (int)result, expected);
  }
  result = -1;
  tc_reset_err();
  status = call_py(v, to, casting, NP2, &result, TC_ERR);
  if (status_at(line, "tcast_np_can_cast_py* (numpy 2)", status, TCAST_ERR_UNSUPPORTED)) {
    message_has_at(line, PY_REFUSED);
  }
}

#define PYINT(decimal, to, casting, expected) py_at(__LINE__, py_int(decimal), to, casting, expected)
#define PYFLOAT(x, to, casting, expected) py_at(__LINE__, py_float(x), to, casting, expected)
#define PYCOMPLEX(re, im, to, casting, expected) \
  py_at(__LINE__, py_complex(re, im), to, casting, expected)
#define PYBOOL(flag, to, casting, expected) py_at(__LINE__, py_bool(flag), to, casting, expected)

/* ---- numpy scalars and 0-d arrays */

static void scalar_at(int line, const char *dtype, const void *value, uint64_t bytes,
                      int32_t is_array, const char *to, int32_t casting, int32_t rules,
                      int expected) {
  int32_t result = -1;
  tc_reset_err();
  tcast_status status = tcast_np_can_cast_scalar(dtype, value, bytes, is_array, to, casting, rules,
                                                 &result, TC_ERR);
  if (status_at(line, "tcast_np_can_cast_scalar", status, TCAST_OK)) {
    CHECK_MSG(result == expected, "%s:%d: numpy %d can_cast(%s of '%s', '%s', '%s') is %d, expected %d",
              __FILE__, line, (int)rules, is_array ? "0-d array" : "scalar", dtype, to,
              CASTING_NAMES[casting], (int)result, expected);
  }
}

#define SCALAR(dtype, ptr, bytes, is_array, to, casting, rules, expected) \
  scalar_at(__LINE__, dtype, ptr, bytes, is_array, to, casting, rules, expected)

/* ---- promote_types and min_scalar_type */

static void text_result_at(int line, const char *what, tcast_status status, const char *buf,
                           const char *expected) {
  expected = tc_np_host_order(expected);
  if (status_at(line, what, status, TCAST_OK)) {
    CHECK_MSG(strcmp(buf, expected) == 0, "%s:%d: %s gave \"%s\", expected \"%s\"", __FILE__, line,
              what, buf, expected);
  }
}

static void promote_at(int line, const char *a, const char *b, const char *expected) {
  a = tc_np_host_order(a);
  b = tc_np_host_order(b);
  char buf[128];
  char what[160];
  snprintf(what, sizeof what, "promote_types('%s', '%s')", a, b);
  tc_reset_err();
  tcast_status status = tcast_np_promote_types(a, b, buf, sizeof buf, NULL, TC_ERR);
  text_result_at(line, what, status, buf, expected);
  snprintf(what, sizeof what, "promote_types('%s', '%s')", b, a);
  tc_reset_err();
  status = tcast_np_promote_types(b, a, buf, sizeof buf, NULL, TC_ERR);
  text_result_at(line, what, status, buf, expected);
}

static void promote_fails_at(int line, const char *a, const char *b) {
  a = tc_np_host_order(a);
  b = tc_np_host_order(b);
  char buf[128];
  tc_reset_err();
  tcast_status status = tcast_np_promote_types(a, b, buf, sizeof buf, NULL, TC_ERR);
  status_at(line, "tcast_np_promote_types (no common dtype)", status, TCAST_ERR_UNSUPPORTED);
  tc_reset_err();
  status = tcast_np_promote_types(b, a, buf, sizeof buf, NULL, TC_ERR);
  status_at(line, "tcast_np_promote_types (no common dtype, NULL, swapped)", status,
            TCAST_ERR_UNSUPPORTED);
}

#define PROMOTE(a, b, expected) promote_at(__LINE__, a, b, expected)
#define PROMOTE_FAILS(a, b) promote_fails_at(__LINE__, a, b)

static void min_int_at(int line, const char *decimal, const char *expected) {
  char buf[64];
  char what[96];
  snprintf(what, sizeof what, "min_scalar_type(%s)", decimal);
  tc_reset_err();
  tcast_status status = tcast_np_min_scalar_type_pyint(decimal, buf, sizeof buf, NULL, TC_ERR);
  text_result_at(line, what, status, buf, expected);
}

static void min_float_at(int line, double x, const char *expected) {
  char buf[64];
  char what[96];
  snprintf(what, sizeof what, "min_scalar_type(%.17g)", x);
  tc_reset_err();
  tcast_status status = tcast_np_min_scalar_type_pyfloat(x, buf, sizeof buf, NULL, TC_ERR);
  text_result_at(line, what, status, buf, expected);
}

static void min_complex_at(int line, double re, double im, const char *expected) {
  char buf[64];
  char what[96];
  snprintf(what, sizeof what, "min_scalar_type(complex(%.17g, %.17g))", re, im);
  tc_reset_err();
  tcast_status status = tcast_np_min_scalar_type_pycomplex(re, im, buf, sizeof buf, NULL, TC_ERR);
  text_result_at(line, what, status, buf, expected);
}

#define MIN_INT(decimal, expected) min_int_at(__LINE__, decimal, expected)
#define MIN_FLOAT(x, expected) min_float_at(__LINE__, x, expected)
#define MIN_COMPLEX(re, im, expected) min_complex_at(__LINE__, re, im, expected)

/* ------------------------------------------------------------------ tables */

/* Section 2's level matrix, verbatim (N no, E equiv, S safe, K same_kind, U unsafe); the
 * columns are the rows in this order. */
static const char *const MATRIX_SPECS[] = {
    "?", "b", "h", "i", "l", "q", "B", "H", "I", "L", "Q", "e", "f", "d", "g",
    "F", "D", "G", "S", "U", "V", "O", "M8", "m8", "M8[s]", "m8[s]", "S4", "U4", "V4",
};
#define N_MATRIX ((int)(sizeof MATRIX_SPECS / sizeof MATRIX_SPECS[0]))

static const char *const MATRIX_ROWS[N_MATRIX] = {
    "NSSSSSSSSSSSSSSSSSSSSSUSUSKKS", /* ? */
    "UNSSSSUUUUUSSSSSSSSSSSUSUSSSS", /* b */
    "UKNSSSUUUUUKSSSSSSSSSSUSUSKKS", /* h */
    "UKKNSSUUUUUKKSSKSSSSSSUSUSKKS", /* i */
    "UKKKNNUUUUUKKSSKSSSSSSUSUSKKU", /* l */
    "UKKKNNUUUUUKKSSKSSSSSSUSUSKKU", /* q */
    "UKSSSSNSSSSSSSSSSSSSSSUSUSSSS", /* B */
    "UKKSSSKNSSSKSSSSSSSSSSUSUSKKS", /* H */
    "UKKKSSKKNSSKKSSKSSSSSSUSUSKKS", /* I */
    "UKKKKKKKKNNKKSSKSSSSSSUKUKKKU", /* L */
    "UKKKKKKKKNNKKSSKSSSSSSUKUKKKU", /* Q */
    "UUUUUUUUUUUNSSSSSSSSSSUUUUKKS", /* e */
    "UUUUUUUUUUUKNSSSSSSSSSUUUUKKS", /* f */
    "UUUUUUUUUUUKKNSKSSSSSSUUUUKKU", /* d */
    "UUUUUUUUUUUKKKNKKSSSSSUUUUKKU", /* g */
    "UUUUUUUUUUUUUUUNSSSSSSUUUUKKU", /* F */
    "UUUUUUUUUUUUUUUKNSSSSSUUUUKKU", /* D */
    "UUUUUUUUUUUUUUUKKNSSSSUUUUKKU", /* G */
    "UUUUUUUUUUUUUUUUUUNSSSUUUUSSS", /* S */
    "UUUUUUUUUUUUUUUUUUUNSSUUUUUSS", /* U */
    "UUUUUUUUUUUUUUUUUUUUNSUUUUUUS", /* V */
    "UUUUUUUUUUUUUUUUUUUUUNUUUUUUU", /* O */
    "UUUUUUUUUUUUUUUUUUUUSSNUSUUUU", /* M8 */
    "UUUUUUUUUUUUUUUUUUUUSSUNUSUUU", /* m8 */
    "UUUUUUUUUUUUUUUUUUUUSSUUNUUUU", /* M8[s] */
    "UUUUUUUUUUUUUUUUUUUUSSUUUNUUU", /* m8[s] */
    "UUUUUUUUUUUUUUUUUUNSSSUUUUNSS", /* S4 */
    "UUUUUUUUUUUUUUUUUUUNSSUUUUUNU", /* U4 */
    "UUUUUUUUUUUUUUUUUUUUNSUUUUUUN", /* V4 */
};

static int letter_level(char c) {
  switch (c) {
  case 'N':
    return NO;
  case 'E':
    return EQUIV;
  case 'S':
    return SAFE;
  case 'K':
    return KIND;
  case 'U':
    return UNSAFE;
  default:
    return -1;
  }
}

static int matrix_index(const char *spec) {
  for (int i = 0; i < N_MATRIX; i++) {
    if (strcmp(MATRIX_SPECS[i], spec) == 0) {
      return i;
    }
  }
  return -1;
}

/* The section 2 level of two of its specs. */
static int matrix_level(const char *from, const char *to) {
  int i = matrix_index(from), j = matrix_index(to);
  return i < 0 || j < 0 ? -1 : letter_level(MATRIX_ROWS[i][j]);
}

/* Section 7's promote_types table: rows and columns in this order. */
static const char PROMOTE_CODES[] = "?bhiqBHIQefdgFDG";
static const char *const PROMOTE_ROWS[] = {
    "??bhiqBHIQefdgFDG", "bbbhiqhildefdgFDG", "hhhhiqhildffdgFDG", "iiiiiqiilddddgDDG",
    "qqqqqqqqqddddgDDG", "BBhhiqBHIQefdgFDG", "HHiiiqHHIQffdgFDG", "IIlllqIIIQdddgDDG",
    "QQddddQQQQdddgDDG", "eeefddefddefdgFDG", "ffffddffddffdgFDG", "dddddddddddddgDDG",
    "ggggggggggggggGGG", "FFFFDDFFDDFFDGFDG", "DDDDDDDDDDDDDGDDG", "GGGGGGGGGGGGGGGGG",
};

/* str() of the native dtype of a type code (x86-64 Linux). */
static const char *code_str(char c) {
  switch (c) {
  case '?':
    return "bool";
  case 'b':
    return "int8";
  case 'h':
    return "int16";
  case 'i':
    return "int32";
  case 'l':
  case 'q':
    return "int64";
  case 'B':
    return "uint8";
  case 'H':
    return "uint16";
  case 'I':
    return "uint32";
  case 'L':
  case 'Q':
    return "uint64";
  case 'e':
    return "float16";
  case 'f':
    return "float32";
  case 'd':
    return "float64";
  case 'g':
    return "float128";
  case 'F':
    return "complex64";
  case 'D':
    return "complex128";
  case 'G':
    return "complex256";
  default:
    return "?";
  }
}

/* Section 0: the minimal levels of tensorcast dtypes under numpy 2.4 + ml_dtypes 0.6
 * (TENSOR_ROWS), generated from src/np/ml_dtypes_levels.txt. */
#include "ml_dtypes_levels.h"
#define N_TENSOR ((int)(sizeof TENSOR_ROWS / sizeof TENSOR_ROWS[0]))
/* Rows from here on are numpy's classic types. */
#define FIRST_CLASSIC 13

static int tensor_index(tcast_dtype code) {
  for (int i = 0; i < N_TENSOR; i++) {
    if (TENSOR_ROWS[i].code == code) {
      return i;
    }
  }
  return -1;
}

/* The TF quantized types behave as their storage integers. */
static const struct {
  tcast_dtype code, storage;
} QUANTIZED[] = {
    {TCAST_DTYPE_QINT8, TCAST_DTYPE_INT8},     {TCAST_DTYPE_QUINT8, TCAST_DTYPE_UINT8},
    {TCAST_DTYPE_QINT16, TCAST_DTYPE_INT16},   {TCAST_DTYPE_QUINT16, TCAST_DTYPE_UINT16},
    {TCAST_DTYPE_QINT32, TCAST_DTYPE_INT32},
};
#define N_QUANTIZED ((int)(sizeof QUANTIZED / sizeof QUANTIZED[0]))

static void tensor_can_at(int line, tcast_dtype from, tcast_dtype to, int level) {
  for (int32_t c = NO; c <= UNSAFE; c++) {
    int32_t result = -1;
    tc_reset_err();
    tcast_status status = tcast_can_cast(from, to, c, &result, TC_ERR);
    if (status_at(line, "tcast_can_cast", status, TCAST_OK)) {
      CHECK_MSG(result == (level <= c), "%s:%d: tcast_can_cast(%s, %s, '%s') is %d, expected %d (level %s)",
                __FILE__, line, tcast_dtype_name(from), tcast_dtype_name(to), CASTING_NAMES[c],
                (int)result, level <= c, level_name(level));
    }
  }
}

/* ------------------------------------------------------------------ the tests */

/* numpy.can_cast's docstring, numpy 1.22 and 2.x. */
static void test_docstring_examples(void) {
  /* Basic examples (both versions): np.int32, np.int64, np.float64, complex, float. */
  CAN2("int32", "int64", "safe", 1);
  CAN2("float64", "complex", "safe", 1);
  CAN2("complex", "float", "safe", 0);
  CAN2("i8", "f8", "safe", 1);
  CAN2("i8", "f4", "safe", 0);
  CAN2("i4", "S4", "safe", 0);

  /* Casting scalars (1.22 only; numpy 2 refuses Python scalars). */
  PYINT("100", "i1", SAFE, 1);
  PYINT("150", "i1", SAFE, 0);
  PYINT("150", "u1", SAFE, 1);
  PYFLOAT(3.5e100, "float32", SAFE, 0);
  PYFLOAT(1000.0, "float32", SAFE, 1);

  /* Array scalar checks the value, array does not: np.array(1000.0) is a 0-d float64
   * array (1.22); numpy 2 looks at the dtype only. np.array([1000.0]) has ndim 1, so
   * it is the plain dtype question. */
  double thousand = 1000.0;
  SCALAR("f8", &thousand, 8, 1, "float32", SAFE, NP1, 1);
  SCALAR("f8", &thousand, 8, 1, "float32", SAFE, NP2, 0);
  CAN2("f8", "float32", "safe", 0);

  /* Using the casting rules (both versions). */
  CAN2("i8", "i8", "no", 1);
  CAN2("<i8", ">i8", "no", 0);
  CAN2("<i8", ">i8", "equiv", 1);
  CAN2("<i4", ">i8", "equiv", 0);
  CAN2("<i4", ">i8", "safe", 1);
  CAN2("<i8", ">i4", "safe", 0);
  CAN2("<i8", ">i4", "same_kind", 1);
  CAN2("<i8", ">u4", "same_kind", 0);
  CAN2("<i8", ">u4", "unsafe", 1);
}

/* Section 1: API and argument handling. */
static void test_arguments(void) {
  static const char *const bad_names[] = {"Safe", "SAFE", "same_value", "", "same-kind",
                                          "unsafe ", "none"};
  char expected[256];
  for (size_t k = 0; k < sizeof bad_names / sizeof bad_names[0]; k++) {
    int32_t result = -1;
    snprintf(expected, sizeof expected,
             "casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe' (got '%s')",
             bad_names[k]);
    tc_reset_err();
    tcast_status status = tcast_np_can_cast_str("i4", "i8", bad_names[k], NP1, &result, TC_ERR);
    if (status_at(__LINE__, "can_cast_str bad casting (numpy 1)", status,
                  TCAST_ERR_INVALID_ARGUMENT)) {
      message_is_at(__LINE__, expected);
    }
    snprintf(expected, sizeof expected,
             "casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe' (got '%s')",
             bad_names[k]);
    tc_reset_err();
    status = tcast_np_can_cast_str("i4", "i8", bad_names[k], NP2, &result, TC_ERR);
    if (status_at(__LINE__, "can_cast_str bad casting (numpy 2)", status,
                  TCAST_ERR_INVALID_ARGUMENT)) {
      message_is_at(__LINE__, expected);
    }
    int32_t casting = -1;
    tc_reset_err();
    status = tcast_np_casting_from_name(bad_names[k], &casting, TC_ERR);
    if (status_at(__LINE__, "tcast_np_casting_from_name (bad)", status,
                  TCAST_ERR_INVALID_ARGUMENT)) {
      message_is_at(__LINE__, expected);
    }
  }
  for (int32_t c = NO; c <= UNSAFE; c++) {
    int32_t casting = -1;
    tc_reset_err();
    tcast_status status = tcast_np_casting_from_name(CASTING_NAMES[c], &casting, TC_ERR);
    if (status_at(__LINE__, "tcast_np_casting_from_name", status, TCAST_OK)) {
      CHECK_EQ_INT(casting, c);
    }
  }

  /* A bad `to`: the parser's message; a bad `from_`: numpy's generic message. */
  for (int32_t rules = NP1; rules <= NP2; rules++) {
    int32_t result = -1;
    tc_reset_err();
    tcast_status status = tcast_np_can_cast_str("i4", "abc", "safe", rules, &result, TC_ERR);
    if (status_at(__LINE__, "can_cast_str to='abc'", status, TCAST_ERR_PARSE)) {
      message_has_at(__LINE__, "data type 'abc' not understood");
    }
    static const char *const bad_from[] = {"42", "abc", "M8[s", "M8[B]", ""};
    for (size_t k = 0; k < sizeof bad_from / sizeof bad_from[0]; k++) {
      tc_reset_err();
      status = tcast_np_can_cast_str(bad_from[k], "i4", "safe", rules, &result, TC_ERR);
      if (status_at(__LINE__, "can_cast_str bad from_", status, TCAST_ERR_PARSE)) {
        message_has_at(__LINE__, "did not understand one of the types; 'None' not accepted");
      }
    }
  }

  /* Python types: int -> int64, float -> f8 (their dtype names). */
  CAN2("int", "i4", "safe", 0);
  CAN2("float", "f4", "safe", 0);
  CAN2("int", "i8", "no", 1);
  STR("int", "int64");
  STR("float", "float64");
  STR("complex", "complex128");
  STR("bool", "bool");
  STR("str", "<U0");
  STR("bytes", "|S0");
  STR("object", "object");

  /* Never raises for an impossible cast. */
  LEVEL2("i4,i4", "i4", NEVER);
  CAN2("i4,i4", "i4", "unsafe", 0);
}

/* Section 2: the whole level matrix, the same for both rule sets. */
static void test_level_matrix(void) {
  tcast_np_dtype *handles[N_MATRIX];
  for (int i = 0; i < N_MATRIX; i++) {
    handles[i] = parse_at(__LINE__, MATRIX_SPECS[i]);
  }
  for (int i = 0; i < N_MATRIX; i++) {
    CHECK_MSG(strlen(MATRIX_ROWS[i]) == (size_t)N_MATRIX, "matrix row %d has %zu columns", i,
              strlen(MATRIX_ROWS[i]));
    for (int j = 0; j < N_MATRIX && MATRIX_ROWS[i][j] != '\0'; j++) {
      if (handles[i] == NULL || handles[j] == NULL) {
        continue;
      }
      int expected = letter_level(MATRIX_ROWS[i][j]);
      for (int32_t rules = NP1; rules <= NP2; rules++) {
        int32_t level = -1;
        tc_reset_err();
        tcast_status status = tcast_np_casting_level(handles[i], handles[j], rules, &level, TC_ERR);
        if (status_at(__LINE__, "tcast_np_casting_level (matrix)", status, TCAST_OK)) {
          CHECK_MSG(level == expected, "matrix: level('%s' -> '%s', numpy %d) is %s, expected %s",
                    MATRIX_SPECS[i], MATRIX_SPECS[j], (int)rules, level_name(level),
                    level_name(expected));
        }
        for (int32_t c = NO; c <= UNSAFE; c++) {
          int32_t result = -1;
          tc_reset_err();
          status = tcast_np_can_cast(handles[i], handles[j], c, rules, &result, TC_ERR);
          if (status_at(__LINE__, "tcast_np_can_cast (matrix)", status, TCAST_OK)) {
            CHECK_MSG(result == (expected <= c),
                      "matrix: can_cast('%s', '%s', '%s', numpy %d) is %d, expected %d",
                      MATRIX_SPECS[i], MATRIX_SPECS[j], CASTING_NAMES[c], (int)rules,
                      (int)result, expected <= c);
          }
        }
      }
    }
  }
  /* A sample through the string query too. */
  LEVEL2("?", "M8", UNSAFE);
  LEVEL2("Q", "m8", KIND);
  LEVEL2("U4", "V4", UNSAFE);
  LEVEL2("S4", "U", SAFE);
  for (int i = 0; i < N_MATRIX; i++) {
    tcast_np_dtype_free(handles[i]);
  }
}

/* Section 3: byte order. */
static void test_byte_order(void) {
  /* Types without byte order get '|' whatever was written. */
  STR(">i1", "int8");
  STR("<i1", "int8");
  STR("<S5", "|S5");
  STR(">S5", "|S5");
  STR(">?", "bool");
  STR(">V4", "|V4");
  STR(">O", "object");
  STR("=i4", "int32");
  STR("|i4", "int32");
  STR("<i4", "int32");
  STR(">i4", ">i4");
  STR(">U3", ">U3");
  STR("<U3", "<U3");
  STR(">M8[ns]", ">M8[ns]");
  STR(">f8", ">f8");
  LEVEL2(">i1", "<i1", NO);
  LEVEL2("|u1", ">u1", NO);
  LEVEL2("<i2", ">i4", SAFE);
  LEVEL2(">i4", "<i2", KIND);
  LEVEL2(">U5", "<U6", SAFE);
  LEVEL2("<i4", "=i4", NO);
  LEVEL2("=i4", ">i4", EQUIV);
  LEVEL2(">S5", "<S5", NO);
  LEVEL2(">O", "<O", NO);
  LEVEL2(">i8", "<i8", EQUIV);
  LEVEL2(">f8", ">f8", NO);
  LEVEL2(">U5", "<U5", EQUIV);
  LEVEL2(">M8[s]", "<M8[s]", EQUIV);
  LEVEL2(">m8[s]", ">m8[s]", NO);
}

/* Section 3: numeric kinds. */
static void test_numeric(void) {
  LEVEL2("l", "q", NO);
  LEVEL2("q", "l", NO);
  LEVEL2("L", "Q", NO);
  LEVEL2("p", "q", NO);
  LEVEL2("p", "l", NO);
  LEVEL2("P", "Q", NO);
  LEVEL2("i8", "l", NO);
  LEVEL2(">l", "<q", EQUIV);
  LEVEL2("?", "i1", SAFE);
  LEVEL2("?", "c16", SAFE);
  LEVEL2("i1", "?", UNSAFE);
  LEVEL2("f8", "?", UNSAFE);
  LEVEL2("i1", "i8", SAFE);
  LEVEL2("u1", "u2", SAFE);
  LEVEL2("u1", "i2", SAFE);
  LEVEL2("u2", "i2", KIND);
  LEVEL2("i1", "u8", UNSAFE);
  LEVEL2("u8", "i8", KIND);
  LEVEL2("i1", "f2", SAFE);
  LEVEL2("u1", "f2", SAFE);
  LEVEL2("i2", "f2", KIND);
  LEVEL2("i2", "f4", SAFE);
  LEVEL2("u2", "f4", SAFE);
  LEVEL2("i4", "f4", KIND);
  LEVEL2("i4", "f8", SAFE);
  LEVEL2("u4", "f8", SAFE);
  LEVEL2("i8", "f8", SAFE);
  LEVEL2("u8", "f8", SAFE);
  LEVEL2("i8", "g", SAFE);
  LEVEL2("u1", "c8", SAFE);
  LEVEL2("i2", "c8", SAFE);
  LEVEL2("i4", "c8", KIND);
  LEVEL2("i4", "c16", SAFE);
  LEVEL2("u8", "c16", SAFE);
  LEVEL2("i8", "c32", SAFE);
  LEVEL2("e", "f", SAFE);
  LEVEL2("f", "g", SAFE);
  LEVEL2("d", "f", KIND);
  LEVEL2("e", "F", SAFE);
  LEVEL2("f", "F", SAFE);
  LEVEL2("d", "F", KIND);
  LEVEL2("d", "D", SAFE);
  LEVEL2("g", "D", KIND);
  LEVEL2("g", "G", SAFE);
  LEVEL2("F", "D", SAFE);
  LEVEL2("D", "G", SAFE);
  LEVEL2("D", "F", KIND);
  LEVEL2("F", "f", UNSAFE);
  LEVEL2("F", "i4", UNSAFE);
  LEVEL2("c8", "?", UNSAFE);
  LEVEL2("f4", "i8", UNSAFE);
  LEVEL2("u1", "i1", KIND);
  LEVEL2("i1", "u1", UNSAFE);
}

/* Section 3: strings, including the length table with n and n-1 for every numeric type. */
static void test_strings(void) {
  static const struct {
    const char *spec;
    int chars;
  } lengths[] = {
      {"?", 5},  {"i1", 4},  {"u1", 3},  {"i2", 6},  {"u2", 5},  {"i4", 11}, {"u4", 10},
      {"i8", 21}, {"u8", 20}, {"e", 32},  {"f", 32},  {"d", 32},  {"g", 48},  {"F", 64},
      {"D", 64},  {"G", 96},
  };
  char target[16];
  for (size_t k = 0; k < sizeof lengths / sizeof lengths[0]; k++) {
    for (int kind = 0; kind < 2; kind++) {
      const char letter = kind == 0 ? 'S' : 'U';
      snprintf(target, sizeof target, "%c%d", letter, lengths[k].chars);
      LEVEL2(lengths[k].spec, target, SAFE);
      snprintf(target, sizeof target, "%c%d", letter, lengths[k].chars - 1);
      LEVEL2(lengths[k].spec, target, KIND);
      snprintf(target, sizeof target, "%c%d", letter, lengths[k].chars + 7);
      LEVEL2(lengths[k].spec, target, SAFE);
      snprintf(target, sizeof target, "%c", letter);
      LEVEL2(lengths[k].spec, target, SAFE);
    }
  }
  /* The page's own examples; the target's byte order is irrelevant. */
  LEVEL2("i4", "S11", SAFE);
  LEVEL2("i4", "S10", KIND);
  LEVEL2("f8", "S31", KIND);
  LEVEL2("f8", "S32", SAFE);
  LEVEL2("i4", ">U11", SAFE);
  LEVEL2("i4", ">U10", KIND);
  LEVEL2(">i8", "<U21", SAFE);
  /* S -> S and U -> U. */
  LEVEL2("S5", "S5", NO);
  LEVEL2("S5", "S6", SAFE);
  LEVEL2("S5", "S4", KIND);
  LEVEL2("S5", "S", NO);
  LEVEL2("U5", "U5", NO);
  LEVEL2("U5", "U6", SAFE);
  LEVEL2("U5", "U4", KIND);
  LEVEL2("U5", "U", NO);
  LEVEL2(">U5", "U", EQUIV);
  LEVEL2(">U5", ">U5", NO);
  /* S -> U by characters, U -> S never safe. */
  LEVEL2("S5", "U5", SAFE);
  LEVEL2("S5", "U6", SAFE);
  LEVEL2("S5", "U4", KIND);
  LEVEL2("S5", "U", SAFE);
  LEVEL2("U1", "S100", UNSAFE);
  LEVEL2("U5", "S5", UNSAFE);
  LEVEL2("U", "S", UNSAFE);
  LEVEL2("U3", "S", UNSAFE);
  /* S / U to numbers, bool and datetimes: unsafe. */
  LEVEL2("S5", "i4", UNSAFE);
  LEVEL2("U5", "f8", UNSAFE);
  LEVEL2("S5", "?", UNSAFE);
  LEVEL2("U5", "?", UNSAFE);
  LEVEL2("S30", "M8[s]", UNSAFE);
  LEVEL2("U30", "m8", UNSAFE);
  /* S0 as a source is a real empty string. */
  LEVEL2("S", "S1", SAFE);
  LEVEL2("S0", "S1", SAFE);
  LEVEL2("S", "S", NO);
}

/* Section 3: void and object. */
static void test_void_object(void) {
  LEVEL2("V4", "V4", NO);
  LEVEL2("V4", "V", NO);
  LEVEL2("V4", "V8", SAFE);
  LEVEL2("V8", "V4", KIND);
  LEVEL2("i4", "V4", SAFE);
  LEVEL2("i4", "V3", UNSAFE);
  LEVEL2("i4", "V", SAFE);
  LEVEL2("?", "V1", SAFE);
  LEVEL2("S5", "V5", SAFE);
  LEVEL2("S5", "V4", UNSAFE);
  LEVEL2("U2", "V8", SAFE);
  LEVEL2("U2", "V7", UNSAFE);
  LEVEL2("c16", "V16", SAFE);
  LEVEL2("M8[s]", "V8", SAFE);
  LEVEL2("M8", "V4", UNSAFE);
  LEVEL2("V4", "i4", UNSAFE);
  LEVEL2("V8", "S8", UNSAFE);
  LEVEL2("V4", "O", SAFE);
  LEVEL2("i4", "O", SAFE);
  LEVEL2("U3", "O", SAFE);
  LEVEL2("M8[ns]", "O", SAFE);
  LEVEL2("O", "O", NO);
  LEVEL2("O", "i4", UNSAFE);
  LEVEL2("O", "S5", UNSAFE);
  LEVEL2("O", "U", UNSAFE);
  LEVEL2("O", "V", UNSAFE);
  LEVEL2("O", "M8", UNSAFE);
}

/* Section 3: datetime and timedelta. */
static void test_datetime(void) {
  /* Against the other kinds. */
  LEVEL2("?", "m8[s]", SAFE);
  LEVEL2("i1", "m8", SAFE);
  LEVEL2("i8", "m8[ns]", SAFE);
  LEVEL2("u1", "m8[D]", SAFE);
  LEVEL2("u4", "m8", SAFE);
  LEVEL2("u8", "m8", KIND);
  LEVEL2("u8", "m8[s]", KIND);
  LEVEL2("f4", "m8", UNSAFE);
  LEVEL2("c8", "m8[s]", UNSAFE);
  LEVEL2("?", "M8", UNSAFE);
  LEVEL2("i4", "M8[s]", UNSAFE);
  LEVEL2("f8", "M8", UNSAFE);
  LEVEL2("M8[s]", "i8", UNSAFE);
  LEVEL2("m8[s]", "i8", UNSAFE);
  LEVEL2("m8", "f8", UNSAFE);
  LEVEL2("m8", "?", UNSAFE);
  LEVEL2("M8", "m8", UNSAFE);
  LEVEL2("m8[s]", "M8[s]", UNSAFE);
  LEVEL2("M8[s]", "S100", UNSAFE);
  LEVEL2("M8[s]", "U100", UNSAFE);
  LEVEL2("m8", "S", UNSAFE);
  LEVEL2("m8", "U", UNSAFE);
  LEVEL2("S10", "M8[D]", UNSAFE);

  /* 1. same unit. */
  LEVEL2("M8[s]", "M8[s]", NO);
  LEVEL2("<M8[s]", ">M8[s]", EQUIV);
  LEVEL2("m8[10s]", "m8[10s]", NO);
  /* 2. metric prefixes, multipliers not normalised at parse time. */
  LEVEL2("M8[1000ns]", "M8[us]", NO);
  LEVEL2("M8[2001ns]", "M8[2us]", NO);
  LEVEL2("M8[1000ms]", "M8[s]", NO);
  LEVEL2("M8[1000000us]", "M8[s]", NO);
  LEVEL2("m8[1000000000ns]", "m8[s]", NO);
  LEVEL2("m8[1000as]", "m8[fs]", NO);
  STR("M8[1000ns]", "datetime64[1000ns]");
  /* 3. generic units. */
  LEVEL2("M8", "M8[ns]", SAFE);
  LEVEL2("M8", "M8[Y]", SAFE);
  LEVEL2("m8", "m8[Y]", SAFE);
  LEVEL2("M8[ns]", "M8", UNSAFE);
  LEVEL2("m8[D]", "m8", UNSAFE);
  LEVEL2("M8", "M8", NO);
  /* 4. timedelta across {Y, M} / {W .. as}. */
  LEVEL2("m8[Y]", "m8[D]", UNSAFE);
  LEVEL2("m8[M]", "m8[D]", UNSAFE);
  LEVEL2("m8[D]", "m8[M]", UNSAFE);
  LEVEL2("m8[s]", "m8[Y]", UNSAFE);
  LEVEL2("m8[Y]", "m8[M]", SAFE);
  LEVEL2("m8[M]", "m8[Y]", KIND);
  /* 5. coarser source: divides -> safe, else same_kind. */
  LEVEL2("M8[D]", "M8[ns]", SAFE);
  LEVEL2("M8[D]", "M8[ps]", KIND);
  LEVEL2("M8[W]", "M8[ps]", KIND);
  LEVEL2("M8[s]", "M8[as]", KIND);
  LEVEL2("M8[ms]", "M8[as]", SAFE);
  LEVEL2("M8[10s]", "M8[2s]", SAFE);
  LEVEL2("M8[2s]", "M8[10s]", KIND);
  LEVEL2("M8[Y]", "M8[D]", SAFE);
  LEVEL2("M8[M]", "M8[D]", SAFE);
  LEVEL2("M8[Y]", "M8[M]", SAFE);
  LEVEL2("m8[W]", "m8[D]", SAFE);
  LEVEL2("m8[D]", "m8[h]", SAFE);
  LEVEL2("M8[7h]", "M8[3h]", KIND);
  LEVEL2("M8[6h]", "M8[3h]", SAFE);
  LEVEL2("M8[3h]", "M8[6h]", KIND);
  /* 6. finer source. */
  LEVEL2("M8[ns]", "M8[s]", KIND);
  LEVEL2("m8[D]", "m8[W]", KIND);
  LEVEL2("M8[60s]", "M8[m]", KIND);
  LEVEL2("m8[h]", "m8[D]", KIND);
}

/* Section 3: unsized targets and subarrays. */
static void test_unsized_and_subarrays(void) {
  CAN2("f8", "S", "safe", 1);
  /* can_cast(np.array(1.0), 'S', 'no') is False. */
  double one = 1.0;
  SCALAR("f8", &one, 8, 1, "S", NO, NP1, 0);
  SCALAR("f8", &one, 8, 1, "S", NO, NP2, 0);

  LEVEL2("i4", "(2,)i4", SAFE);
  LEVEL2("(2,)i4", "i4", UNSAFE);
  LEVEL2("(2,)i4", "(2,)i8", SAFE);
  LEVEL2("(2,)i4", "(2,)i4", NO);
  LEVEL2("(2,)i4", "(3,)i4", UNSAFE);
  LEVEL2("(2,)i8", "(2,)i4", KIND);
  LEVEL2("2i4", "(2,)i4", NO);
}

/* Section 4: structured dtypes. */
static void test_structured(void) {
  /* Simple -> structured: only unsafe. */
  LEVEL2("i4", "i4,i4", UNSAFE);
  LEVEL2("i4", "i4,f8,S3", UNSAFE);
  LEVEL2("i4", "(2,)i4,f8", UNSAFE);
  LEVEL2("S4", "i4,i4", UNSAFE);
  /* Structured -> simple: never for several fields. */
  LEVEL2("i4,i4", "i4", NEVER);
  LEVEL2("i4,f8", "f8", NEVER);
  LEVEL2("i4,f8", "S", NEVER);
  LEVEL2("i4,f8", "O", SAFE);
  LEVEL2("i4,i4", "O", SAFE);
  LEVEL2("O", "i4,i4", UNSAFE);
  /* Structured <-> void. */
  LEVEL2("i4,i4", "V", NO);
  LEVEL2("d,i", "V", NO);
  LEVEL2("i4,i4", "V8", NEVER);
  LEVEL2("i4,i4", "V16", NEVER);
  LEVEL2("V8", "i4,i4", UNSAFE);
  /* Both versions: */
  LEVEL2("i4,f8", "i4,f8", NO);
  LEVEL2("i4,f8", ">i4,>f8", EQUIV);
  LEVEL2("i4,f8", "i8,f8", SAFE);
  LEVEL2("i4,f8", "i2,f8", KIND);
  LEVEL2("i4,f8", "i4,u8", UNSAFE);
  /* Field count: by name in 1.22 (unsafe), by position in 2.x (impossible). */
  LEVEL("i4,f8", "i4,f8,i2", NP1, UNSAFE);
  LEVEL("i4,f8", "i4,f8,i2", NP2, NEVER);
  LEVEL("i4,f8,i2", "i4,f8", NP1, UNSAFE);
  LEVEL("i4,f8,i2", "i4,f8", NP2, NEVER);
  /* 'f8,' is plain f8 in 1.x, a one-field struct in 2.x; a one-field struct -> simple is
   * unsafe only (a subarray field included). */
  LEVEL("f8,", "f8", NP1, NO);
  LEVEL("f8,", "f8", NP2, UNSAFE);
  LEVEL("f8,", "i4", NP1, UNSAFE);
  LEVEL("f8,", "i4", NP2, UNSAFE);
  LEVEL("(2,)i4,", "i4", NP2, UNSAFE);
  STR("f8,", "[('f0', '<f8')]");
  /* test_void_and_structured_with_subarray: V4 <-> [('f0', '<f4', (3, 2))] only unsafe. */
  LEVEL("V4", "(3,2)f4,", NP2, UNSAFE);
  LEVEL("(3,2)f4,", "V4", NP2, UNSAFE);
}

/* Section 5: value-based casting (numpy 1.22) and its removal (numpy 2). */
static void test_value_based(void) {
  /* The page's "Checked results" (safe unless a level is given). */
  PYINT("100", "i1", SAFE, 1);
  PYINT("150", "i1", SAFE, 0);
  PYINT("150", "i1", KIND, 1);
  PYINT("150", "u1", SAFE, 1);
  PYINT("-1", "u1", SAFE, 0);
  PYINT("-1", "u1", KIND, 0);
  PYINT("-1", "u1", UNSAFE, 1);
  PYINT("-128", "i1", SAFE, 1);
  PYINT("-129", "i1", SAFE, 0);
  PYINT("127", "i1", SAFE, 1);
  PYINT("128", "i1", SAFE, 0);
  PYINT("255", "u1", SAFE, 1);
  PYINT("256", "u1", SAFE, 0);
  PYINT("2147483648", "i4", SAFE, 0);
  PYINT("9223372036854775807", "i8", SAFE, 1);
  PYINT("9223372036854775808", "i8", SAFE, 0);
  PYINT("9223372036854775808", "u8", SAFE, 1);
  PYINT("18446744073709551616", "u8", SAFE, 0);
  PYINT("18446744073709551616", "u8", KIND, 0);
  PYINT("18446744073709551616", "O", SAFE, 1);
  PYINT("100", "f2", SAFE, 1);
  PYINT("16777217", "f4", SAFE, 0);
  PYINT("2147483648", "f8", SAFE, 1);
  PYINT("0", "?", SAFE, 0);
  PYINT("1", "?", SAFE, 0);
  PYINT("100", "?", SAFE, 0);
  PYINT("0", "?", KIND, 0);
  PYINT("1", "?", KIND, 0);
  PYINT("100", "?", KIND, 0);
  PYINT("100", "c8", SAFE, 1);
  PYINT("100", "S3", SAFE, 0);
  PYINT("200", "S3", SAFE, 1);
  PYINT("128", "S3", SAFE, 1);
  PYINT("-100", "S4", SAFE, 1);
  PYINT("100", "m8[s]", SAFE, 1);
  PYINT("100", "M8[s]", SAFE, 0);
  PYINT("100", "V1", SAFE, 1);
  PYFLOAT(3.5e100, "f4", SAFE, 0);
  PYFLOAT(1000.0, "f4", SAFE, 1);
  PYFLOAT(1000.0, "f2", SAFE, 1);
  PYFLOAT(64999.0, "f2", SAFE, 1);
  PYFLOAT(65000.0, "f2", SAFE, 0);
  PYFLOAT(3.39e38, "f4", SAFE, 1);
  PYFLOAT(3.4e38, "f4", SAFE, 0);
  PYFLOAT(INFINITY, "f2", SAFE, 1);
  PYFLOAT(-INFINITY, "f2", SAFE, 1);
  PYFLOAT(NAN, "f2", SAFE, 1);
  PYFLOAT(1.0, "i8", SAFE, 0);
  PYFLOAT(1.0, "S32", SAFE, 1);
  PYFLOAT(1.0, "S31", SAFE, 0);
  PYCOMPLEX(1.0, 1.0, "c8", SAFE, 1);
  PYCOMPLEX(0.0, 1e100, "c8", SAFE, 0);
  PYCOMPLEX(1.0, 0.0, "f8", SAFE, 0);
  PYCOMPLEX(NAN, 0.0, "c8", SAFE, 0);
  PYBOOL(1, "i1", SAFE, 1);
  PYBOOL(1, "u1", SAFE, 1);
  PYBOOL(1, "f2", SAFE, 1);
  PYBOOL(1, "S4", SAFE, 0);
  /* Consequences of the signed adjustment. */
  PYINT("100", "i1", NO, 1);
  PYFLOAT(1000.0, "f2", NO, 1);
  PYINT("300", ">i2", EQUIV, 1);
  /* A huge int is an object; unsafe always passes. */
  PYINT("123456789012345678901234567890", "O", SAFE, 1);
  PYINT("123456789012345678901234567890", "u8", SAFE, 0);
  PYINT("-9223372036854775809", "i8", SAFE, 0);

  /* numpy scalars and 0-d arrays. */
  int64_t i64_150 = 150;
  SCALAR("i8", &i64_150, 8, 0, "u1", SAFE, NP1, 1);
  uint8_t u8_200 = 200;
  SCALAR("u1", &u8_200, 1, 0, "i1", SAFE, NP1, 0);
  uint64_t u64_big = 9223372036854775807ull;
  SCALAR("u8", &u64_big, 8, 0, "i8", SAFE, NP1, 1);
  SCALAR("u8", &u64_big, 8, 0, "i8", SAFE, NP2, 0);
  double f64_1000 = 1000.0;
  SCALAR("f8", &f64_1000, 8, 0, "f2", SAFE, NP1, 1);
  SCALAR("f8", &f64_1000, 8, 0, "f4", SAFE, NP2, 0);
  float f32_7e4 = 7e4f;
  SCALAR("f4", &f32_7e4, 4, 0, "f2", SAFE, NP1, 0);
  {
    /* An x87 80-bit long double of 2^1328 (about 1.1e400), written byte by byte (no
       long double arithmetic: valgrind computes those at double precision): mantissa
       0x8000000000000000, biased exponent 16383 + 1328 = 0x452f, little-endian. */
    const unsigned char le[16] = {0, 0, 0, 0, 0, 0, 0, 0x80, 0x2f, 0x45};
    unsigned char bytes[16]; /* a scalar's value is in the host's byte order */
    tc_from_le(bytes, le, sizeof bytes);
    SCALAR("g", bytes, 16, 0, "f8", SAFE, NP1, 0);
    SCALAR("g", bytes, 16, 0, "g", SAFE, NP1, 1);
  }
  SCALAR("f8", &f64_1000, 8, 1, "f4", SAFE, NP1, 1);
  SCALAR("f8", &f64_1000, 8, 1, "f4", SAFE, NP2, 0);
  const unsigned char be_100[8] = {0, 0, 0, 0, 0, 0, 0, 100};
  SCALAR(">i8", be_100, 8, 1, "i1", SAFE, NP1, 1);
  int32_t i32_5 = 5;
  SCALAR("i4", &i32_5, 4, 0, "S10", SAFE, NP1, 1);
  SCALAR("i4", &i32_5, 4, 0, "S10", SAFE, NP2, 0);
  const uint32_t abc[3] = {'a', 'b', 'c'};
  SCALAR("U3", abc, 12, 0, "S3", SAFE, NP1, 0);
  SCALAR("U3", abc, 12, 0, "S3", SAFE, NP2, 0);
  int64_t i64_100 = 100;
  SCALAR("i8", &i64_100, 8, 0, "i1", SAFE, NP1, 1);
  SCALAR("i8", &i64_100, 8, 0, "i1", SAFE, NP2, 0);

  /* More of the algorithm: non-numeric sources answer at the dtype level (step 3); long
   * double and complex demotion; the signed adjustment; 0-d arrays keep their byte order. */
  const int64_t ms_1000 = 1000;
  SCALAR("M8[ms]", &ms_1000, 8, 0, "M8[s]", SAFE, NP1, 0);
  SCALAR("M8[ms]", &ms_1000, 8, 0, "M8[s]", KIND, NP1, 1);
  SCALAR("M8[s]", &ms_1000, 8, 0, "M8[ms]", SAFE, NP1, 1);
#if defined(__x86_64__) && LDBL_MANT_DIG == 64
  {
    unsigned char ld[16] = {0};
    long double x = 1.0L;
    memcpy(ld, &x, 10);
    SCALAR("g", ld, 16, 0, "f2", SAFE, NP1, 1);
    SCALAR("g", ld, 16, 0, "f2", SAFE, NP2, 0);
    x = 1e300L;
    memcpy(ld, &x, 10);
    SCALAR("g", ld, 16, 0, "f8", SAFE, NP1, 1);
    SCALAR("g", ld, 16, 0, "f4", SAFE, NP1, 0);
    unsigned char cl[32] = {0};
    x = 1e300L;
    memcpy(cl, &x, 10);
    SCALAR("G", cl, 32, 0, "c16", SAFE, NP1, 1);
    SCALAR("G", cl, 32, 0, "c8", SAFE, NP1, 0);
    x = 1.5L;
    memcpy(cl, &x, 10);
    SCALAR("G", cl, 32, 0, "c8", SAFE, NP1, 1);
    SCALAR("G", cl, 32, 0, "f8", SAFE, NP1, 0);
    x = 1e400L;
    memcpy(cl + 16, &x, 10);
    SCALAR("G", cl, 32, 0, "c16", SAFE, NP1, 0);
  }
#endif
  const double c16_big[2] = {1.0, 3.4e38};
  SCALAR("c16", c16_big, 16, 0, "c8", SAFE, NP1, 0);
  const double c16_small[2] = {1.0, -2.5};
  SCALAR("c16", c16_small, 16, 0, "c8", SAFE, NP1, 1);
  SCALAR("c16", c16_small, 16, 0, "c8", SAFE, NP2, 0);
  const uint16_t half_one = 0x3C00;
  SCALAR("f2", &half_one, 2, 0, "i1", SAFE, NP1, 0);
  const uint8_t true_byte = 1;
  SCALAR("?", &true_byte, 1, 0, "i1", SAFE, NP1, 1);
  SCALAR("?", &true_byte, 1, 0, "S4", SAFE, NP1, 0);
  const uint64_t u64_max = 18446744073709551615ull;
  SCALAR("u8", &u64_max, 8, 0, "i8", SAFE, NP1, 0);
  SCALAR("u8", &u64_max, 8, 0, "u8", SAFE, NP1, 1);
  SCALAR("u8", &u64_max, 8, 0, "f8", SAFE, NP1, 1);
  const int8_t minus_one = -1;
  SCALAR("i1", &minus_one, 1, 0, "u1", KIND, NP1, 0);
  SCALAR("i1", &minus_one, 1, 0, "u1", UNSAFE, NP1, 1);
  const uint8_t u8_100 = 100;
  SCALAR("u1", &u8_100, 1, 0, "S3", SAFE, NP1, 1); /* the dtype-level cast passes */
  const uint16_t u16_100 = 100, u16_200 = 200;
  SCALAR("u2", &u16_100, 2, 0, "S3", SAFE, NP1, 0); /* u1, small: judged as i1 (4 chars) */
  SCALAR("u2", &u16_100, 2, 0, "S4", SAFE, NP1, 1);
  SCALAR("u2", &u16_200, 2, 0, "S3", SAFE, NP1, 1); /* u1, not small */
  SCALAR("u2", &u16_200, 2, 0, "S3", SAFE, NP2, 0);
  const unsigned char be_1000[8] = {0x40, 0x8f, 0x40, 0, 0, 0, 0, 0}; /* 1000.0 */
  SCALAR(">f8", be_1000, 8, 1, "f4", SAFE, NP1, 1);
  SCALAR(">f8", be_1000, 8, 1, "f4", SAFE, NP2, 0);
  SCALAR(">i8", be_100, 8, 1, ">i8", NO, NP2, 1);
  SCALAR(">i8", be_100, 8, 1, "<i8", NO, NP2, 0);
  SCALAR(">i8", be_100, 8, 1, "<i8", EQUIV, NP2, 1);

  /* numpy 2: Python scalars raise even with casting='unsafe' (test_can_cast_values). */
  PYINT("4", "int8", UNSAFE, 1);
  PYFLOAT(4.0, "float64", UNSAFE, 1);
  PYCOMPLEX(0.0, 4.0, "complex128", UNSAFE, 1);
  PYBOOL(0, "?", UNSAFE, 1);
  int32_t result = -1;
  tc_reset_err();
  tcast_status status = tcast_np_can_cast_pybool(1, "i1", SAFE, NP2, &result, TC_ERR);
  if (status_at(__LINE__, "pybool under numpy 2", status, TCAST_ERR_UNSUPPORTED)) {
    message_has_at(__LINE__, PY_REFUSED);
    message_has_at(__LINE__, "NEP 50");
  }
}

/* Section 6: the dtype string grammar. */
/* Parsing `spec` fails with TCAST_ERR_PARSE and exactly numpy's message `expected`. */
static void parse_fails_exactly_at(int line, const char *spec, const char *expected) {
  spec = tc_np_host_order(spec);
  expected = tc_np_host_order(expected);
  tcast_np_dtype *handle = NULL;
  tc_reset_err();
  tcast_status status = tcast_np_dtype_parse(spec, &handle, TC_ERR);
  if (status_at(line, "tcast_np_dtype_parse", status, TCAST_ERR_PARSE)) {
    message_is_at(line, expected);
  }
  tcast_np_dtype_free(handle);
}

#define PARSE_FAILS_EXACTLY(spec, message) parse_fails_exactly_at(__LINE__, spec, message)

/* A subarray spec of `n` dimensions of 1 over i4: "(1,1,...,1)i4". */
static char *ones_spec(int n) {
  char *spec = malloc((size_t)n * 2 + 8);
  if (spec == NULL) {
    return NULL;
  }
  char *p = spec;
  *p++ = '(';
  for (int i = 0; i < n; i++) {
    *p++ = '1';
    *p++ = i + 1 < n ? ',' : ')';
  }
  strcpy(p, "i4");
  return spec;
}

/* Section 6 corrections: a repeat count before an unsized S/U/V is its size; numpy's C
 * int limits on subarray dimensions and sizes, with numpy's messages. */
static void test_parse_repeats_and_limits(void) {
  STR("8S", "|S8");
  STR("8U", "<U8");
  STR("16V", "|V16");
  STR("32str", "<U32");
  STR("8bytes", "|S8");
  STR("8a", "|S8");
  STR("8S0", "|S8");
  STR(">8U", ">U8");
  STR("8>U", ">U8");
  STR("0S", "|S0");
  STR("1S", "|S1");
  STR("i4,8S", "[('f0', '<i4'), ('f1', 'S8')]");
  STR("2S4,8U", "[('f0', 'S4', (2,)), ('f1', '<U8')]");
  STR("8c", "('S1', (8,))");
  STR("2147483647S", "|S2147483647");
  STR("536870911U", "<U536870911");
  LEVEL2("8S", "S8", NO);
  LEVEL2("1U", "U1", NO);
  LEVEL2("i4", "8U", KIND);
  LEVEL("8S,", "S8", NP1, NO);
  LEVEL("8S,", "S8", NP2, UNSAFE);
  static const char *const generic[] = {"(2,)S", "(0,)V0", "()str", "(2,)U", "(1,)S",
                                        ">(2,)S", "(0,2147483648)S0", "2147483648S",
                                        "536870912U", "4294967296U", "99999999999999999999S",
                                        "i4,(2,)S"};
  for (size_t k = 0; k < sizeof generic / sizeof generic[0]; k++) {
    parse_fails_exactly_at(__LINE__, generic[k], "invalid itemsize in generic type tuple");
  }

  static const char *const dimension[] = {"(2147483648,)i1", "2147483648i1", "(0,2147483648)i1",
                                          "(4294967296,0)i1"};
  for (size_t k = 0; k < sizeof dimension / sizeof dimension[0]; k++) {
    parse_fails_exactly_at(__LINE__, dimension[k],
                           "invalid shape in fixed-type tuple: dimension does not fit into a C "
                           "int.");
  }
  static const char *const bytes[] = {"(65536,65536)i1", "(1073741824,)i2", "2147483647int",
                                      "(2147483647,)S2", "(2,)V2147483647", "(536870912,)U1",
                                      "(2147483647,2147483647,2147483647,0)i1"};
  for (size_t k = 0; k < sizeof bytes / sizeof bytes[0]; k++) {
    parse_fails_exactly_at(__LINE__, bytes[k],
                           "invalid shape in fixed-type tuple: dtype size in bytes must fit "
                           "into a C int.");
  }
  PARSE_FAILS_EXACTLY("(9223372036854775808,)i1", "invalid shape in fixed-type tuple.");
  STR("(2147483647,)i1", "('i1', (2147483647,))");
  STR("(65536,32767)i1", "('i1', (65536, 32767))");
  STR("(0,2147483647,2147483647,2147483647)i1", "('i1', (0, 2147483647, 2147483647, 2147483647))");
  STR("V2147483647,V0", "[('f0', 'V2147483647'), ('f1', 'V')]");
  /* numpy wraps a struct's total size through a C int; tensorcast refuses it. */
  PARSE_FAILS_EXACTLY("V2147483647,V1", "dtype size in bytes must fit into a C int.");

  /* numpy 1 allows 32 subarray dimensions, numpy 2 64. */
  char *d32 = ones_spec(32), *d33 = ones_spec(33), *d64 = ones_spec(64), *d65 = ones_spec(65);
  if (d32 != NULL && d33 != NULL && d64 != NULL && d65 != NULL) {
    level_at(__LINE__, d32, "i4", NP1, UNSAFE);
    level_at(__LINE__, d33, "i4", NP2, UNSAFE);
    level_at(__LINE__, d64, "i4", NP2, UNSAFE);
    refused_at(__LINE__, d33, NP1, "invalid shape in fixed-type tuple.");
    parse_fails_exactly_at(__LINE__, d65, "invalid shape in fixed-type tuple.");
  } else {
    tc_fail(__FILE__, __LINE__, "out of memory");
  }
  free(d32);
  free(d33);
  free(d64);
  free(d65);
}

/* One-character specs: type codes, numpy 2's 'n' / 'N', and the type numbers below 24
 * that numpy reads from a control character ('\x05' is int32). numpy's '\x00' (type number
 * 0, bool) cannot be passed: a C string ends at its NUL, so the spec is "", which is
 * refused as numpy refuses ''. A spec that is not UTF-8 cannot be parsed. */
static void test_parse_one_character(void) {
  static const char *const by_number[24] = {
      "bool",       "int8",        "uint8",   "int16",     "uint16",     "int32",
      "uint32",     "int64",       "uint64",  "int64",     "uint64",     "float32",
      "float64",    "float128",    "complex64", "complex128", "complex256", "object",
      "|S0",        "<U0",         "|V0",     "datetime64", "timedelta64", "float16"};
  for (int number = 1; number < 24; number++) {
    char spec[2] = {(char)number, '\0'};
    str_at(__LINE__, spec, by_number[number]);
  }
  const char nul_spec[] = {'\0', 'x'};
  PARSE_FAILS_EXACTLY(nul_spec, "data type '' not understood");
  LEVEL2("\t", "q", NO);
  LEVEL2("\x07", "l", NO);
  LEVEL2("\x0c", "f8", NO);
  LEVEL2(">\x05", ">i4", NO);
  PARSE_FAILS_EXACTLY("\x18", "data type '\\x18' not understood");
  PARSE_FAILS_EXACTLY("\x7f", "data type '\\x7f' not understood");
  /* numpy 1's NPY_CHAR (26) is S1; numpy 2 removed it. */
  LEVEL("\x1a", "S1", NP1, NO);
  REFUSED("\x1a", NP2, "data type '\\x1a' not understood");
  /* numpy 2's intp / uintp codes. */
  STR("n", "int64");
  STR("N", "uint64");
  STR(">n", ">i8");
  LEVEL("n", "p", NP2, NO);
  LEVEL("N", "P", NP2, NO);
  LEVEL("n,N", "i8,u8", NP2, NO);
  REFUSED("n", NP1, "data type 'n' not understood");
  REFUSED("N", NP1, "data type 'N' not understood");
  REFUSED("i4,n", NP1, "data type 'n' not understood");
  PARSE_FAILS_EXACTLY("n1", "data type 'n1' not understood");
  /* Not UTF-8. */
  PARSE_FAILS("\x80", "not valid UTF-8");
  PARSE_FAILS("\xff", "not valid UTF-8");
  int32_t result = -1;
  tc_reset_err();
  status_at(__LINE__, "tcast_np_can_cast_str (to not UTF-8)",
            tcast_np_can_cast_str("i4", "i\xff", "safe", NP2, &result, TC_ERR), TCAST_ERR_PARSE);
}

/* numpy quotes a spec in its messages with Python's repr(): single quotes unless the spec
 * holds one and no double quote; characters str.isprintable() refuses escaped. */
static void test_parse_messages_quote_like_repr(void) {
  PARSE_FAILS_EXACTLY("it's", "data type \"it's\" not understood");
  PARSE_FAILS_EXACTLY("a'b\"c", "data type 'a\\'b\"c' not understood");
  PARSE_FAILS_EXACTLY("a\\b", "data type 'a\\\\b' not understood");
  PARSE_FAILS_EXACTLY("x\t\n\r\x1b", "data type 'x\\t\\n\\r\\x1b' not understood");
  PARSE_FAILS_EXACTLY("\xc2\x85x", "data type '\\x85x' not understood");        /* U+0085 */
  PARSE_FAILS_EXACTLY("x\xc2\xa0\xc2\xad", "data type 'x\\xa0\\xad' not understood");
  PARSE_FAILS_EXACTLY("\xc3\xa9", "data type '\xc3\xa9' not understood");      /* é */
  PARSE_FAILS_EXACTLY("x\xe2\x80\xa8", "data type 'x\\u2028' not understood");  /* U+2028 */
  PARSE_FAILS_EXACTLY("x\xef\xbb\xbf", "data type 'x\\ufeff' not understood");  /* U+FEFF */
  PARSE_FAILS_EXACTLY("x\xcd\xb8", "data type 'x\\u0378' not understood");      /* unassigned */
  PARSE_FAILS_EXACTLY("x\xf0\x9f\x98\x80", "data type 'x\xf0\x9f\x98\x80' not understood");
  PARSE_FAILS_EXACTLY("x\xf3\xa0\x80\x81", "data type 'x\\U000e0001' not understood");
  PARSE_FAILS_EXACTLY("x\xf4\x8f\xbf\xbf", "data type 'x\\U0010ffff' not understood");
}

static void test_parse(void) {
  /* Accepted specs and str() of the result. */
  STR("i4", "int32");
  STR("u1", "uint8");
  STR("?", "bool");
  STR("b", "int8");
  STR("B", "uint8");
  STR("h", "int16");
  STR("H", "uint16");
  STR("i", "int32");
  STR("I", "uint32");
  STR("l", "int64");
  STR("L", "uint64");
  STR("q", "int64");
  STR("Q", "uint64");
  STR("p", "int64");
  STR("P", "uint64");
  STR("e", "float16");
  STR("f", "float32");
  STR("d", "float64");
  STR("g", "float128");
  STR("F", "complex64");
  STR("D", "complex128");
  STR("G", "complex256");
  STR("S", "|S0");
  STR("S0", "|S0");
  STR("U", "<U0");
  STR("V", "|V0");
  STR("O", "object");
  STR("M", "datetime64");
  STR("m", "timedelta64");
  STR("c", "|S1");
  STR("a", "|S0");
  STR("a5", "|S5");
  STR("S5", "|S5");
  STR("U3", "<U3");
  STR("U10", "<U10");
  STR("V4", "|V4");
  STR("b1", "bool");
  STR("i1", "int8");
  STR("i2", "int16");
  STR("i8", "int64");
  STR("u2", "uint16");
  STR("u4", "uint32");
  STR("u8", "uint64");
  STR("f2", "float16");
  STR("f4", "float32");
  STR("f8", "float64");
  STR("f16", "float128");
  STR("c8", "complex64");
  STR("c16", "complex128");
  STR("c32", "complex256");
  STR("O4", "object");
  STR("O8", "object");
  STR("i 4", "int32");
  STR("i+4", "int32");
  STR("i04", "int32");
  STR("b01", "bool");
  STR("M8", "datetime64");
  STR("m8", "timedelta64");
  STR("M8[ns]", "datetime64[ns]");
  STR("m8[s]", "timedelta64[s]");
  STR("datetime64", "datetime64");
  STR("timedelta64[D]", "timedelta64[D]");
  STR("<datetime64[ns]", "datetime64[ns]");
  STR("M8[D/24]", "datetime64[h]");
  STR("M8[3D/2]", "datetime64[36h]");
  STR("M8[10s]", "datetime64[10s]");
  STR("M8[\xce\xbcs]", "datetime64[us]");
  STR("M8[generic]", "datetime64");
  STR("i4,f8", "[('f0', '<i4'), ('f1', '<f8')]");
  STR("i4,i4", "[('f0', '<i4'), ('f1', '<i4')]");
  STR(">i4,>f8", "[('f0', '>i4'), ('f1', '>f8')]");
  STR("i4,f8,i2", "[('f0', '<i4'), ('f1', '<f8'), ('f2', '<i2')]");
  STR("2i4", "('<i4', (2,))");
  STR("(2,)i4", "('<i4', (2,))");
  STR("(2,3)f8", "('<f8', (2, 3))");
  STR("3S4", "('S4', (3,))");
  STR("S4,(2,)u1", "[('f0', 'S4'), ('f1', 'u1', (2,))]");
  STR("M8[ns],i4", "[('f0', '<M8[ns]'), ('f1', '<i4')]");
  STR("(2,)i4,", "[('f0', '<i4', (2,))]");
  STR("(3,2)f4,", "[('f0', '<f4', (3, 2))]");
  /* byte order + digit and a leading "()" take the comma form too (str() as numpy 2
   * prints it). */
  STR(">2i4", "('>i4', (2,))");
  STR("()i4", "int32");
  /* Names. */
  static const struct {
    const char *name, *str;
  } names[] = {
      {"bool", "bool"},          {"bool_", "bool"},          {"int8", "int8"},
      {"int16", "int16"},        {"int32", "int32"},         {"int64", "int64"},
      {"uint8", "uint8"},        {"uint16", "uint16"},       {"uint32", "uint32"},
      {"uint64", "uint64"},      {"float16", "float16"},     {"float32", "float32"},
      {"float64", "float64"},    {"float128", "float128"},   {"complex64", "complex64"},
      {"complex128", "complex128"}, {"complex256", "complex256"}, {"half", "float16"},
      {"single", "float32"},     {"double", "float64"},      {"longdouble", "float128"},
      {"csingle", "complex64"},  {"cdouble", "complex128"},  {"clongdouble", "complex256"},
      {"byte", "int8"},          {"ubyte", "uint8"},         {"short", "int16"},
      {"ushort", "uint16"},      {"intc", "int32"},          {"uintc", "uint32"},
      {"int_", "int64"},         {"uint", "uint64"},         {"long", "int64"},
      {"longlong", "int64"},     {"ulonglong", "uint64"},    {"intp", "int64"},
      {"uintp", "uint64"},       {"int", "int64"},           {"float", "float64"},
      {"complex", "complex128"}, {"object", "object"},       {"object_", "object"},
      {"str", "<U0"},            {"str_", "<U0"},            {"bytes", "|S0"},
      {"bytes_", "|S0"},         {"void", "|V0"},            {"datetime64", "datetime64"},
      {"timedelta64", "timedelta64"},
  };
  for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
    str_at(__LINE__, names[k].name, names[k].str);
  }
  /* Canonical codes: 'l', 'i8', 'q' and 'p' are all int64, with no cast between them. */
  LEVEL2("i8", "q", NO);
  LEVEL2("int64", "l", NO);
  LEVEL2("intp", "p", NO);
  LEVEL2("float64", "f8", NO);
  LEVEL2("longdouble", "f16", NO);

  /* Rejected specs. */
  PARSE_FAILS("", "data type '' not understood");
  PARSE_FAILS("<", "data type '<' not understood");
  PARSE_FAILS(">", "data type '>' not understood");
  PARSE_FAILS("|", "data type '|' not understood");
  PARSE_FAILS("=", "data type '=' not understood");
  PARSE_FAILS("abc", "data type 'abc' not understood");
  static const char *const bad_sizes[] = {"i0",  "i16", "u16", "f1", "f10", "f12", "c4",
                                          "c20", "b2",  "?1",  "O16", "I4", "F8",  "i4x",
                                          "M4",  "M16", "M[s]"};
  char needle[64];
  for (size_t k = 0; k < sizeof bad_sizes / sizeof bad_sizes[0]; k++) {
    snprintf(needle, sizeof needle, "data type '%s' not understood", bad_sizes[k]);
    parse_fails_at(__LINE__, bad_sizes[k], TCAST_ERR_PARSE, needle);
  }
  static const char *const bad_names[] = {">float64", "<int32", "int128", "float96", "Int8",
                                          "Float64",  "UInt8",  "Str",    "np.int32"};
  for (size_t k = 0; k < sizeof bad_names / sizeof bad_names[0]; k++) {
    snprintf(needle, sizeof needle, "data type '%s' not understood", bad_names[k]);
    parse_fails_at(__LINE__, bad_names[k], TCAST_ERR_PARSE, needle);
  }
  /* Datetime metadata. */
  PARSE_FAILS("M8[s", "Invalid datetime metadata string \"[s\"");
  PARSE_FAILS("M8[]", "Invalid datetime");
  PARSE_FAILS("M8[5 s]", "Invalid datetime");
  PARSE_FAILS("M8[s]x", "Invalid datetime");
  PARSE_FAILS("M8[B]", "Invalid datetime");
  PARSE_FAILS("m8[s", "Invalid datetime metadata string \"[s\"");
  parse_fails_at(__LINE__, "M8[D/7]", TCAST_ERR_PARSE, "divisor (7)");

  /* Names removed in numpy 2: fine under numpy 1, refused under numpy 2. */
  static const char *const aliases[] = {"int0", "uint0", "bool8", "void0"};
  for (size_t k = 0; k < sizeof aliases / sizeof aliases[0]; k++) {
    snprintf(needle, sizeof needle, "Alias '%s' was removed in NumPy 2.0", aliases[k]);
    refused_at(__LINE__, aliases[k], NP2, needle);
  }
  REFUSED("int0", NP2, "Alias 'int0' was removed in NumPy 2.0. Use a name without a digit at the end.");
  LEVEL("int0", "i8", NP1, NO);
  LEVEL("uint0", "u8", NP1, NO);
  LEVEL("bool8", "?", NP1, NO);
  LEVEL("void0", "V", NP1, NO);
  static const struct {
    const char *name, *same;
  } old_names[] = {
      {"unicode_", "U"},  {"string_", "S"},     {"float_", "f8"},
      {"complex_", "c16"}, {"cfloat", "c16"},   {"longfloat", "g"},
      {"clongfloat", "G"}, {"singlecomplex", "F"}, {"longcomplex", "G"},
  };
  for (size_t k = 0; k < sizeof old_names / sizeof old_names[0]; k++) {
    snprintf(needle, sizeof needle, "data type '%s' not understood", old_names[k].name);
    refused_at(__LINE__, old_names[k].name, NP2, needle);
    level_at(__LINE__, old_names[k].name, old_names[k].same, NP1, NO);
  }
  /* 'ulong' is not a numpy 1.22 name (added by 1.26). */
  REFUSED("ulong", NP1, "data type 'ulong' not understood");
  LEVEL("ulong", "u8", NP2, NO);
  /* 'S-1': numpy 1.x builds a dtype with itemsize -1 from it, numpy 2 refuses it;
     tensorcast refuses such sizes under both rules (a deliberate deviation, see the
     README), at parse time. */
  parse_fails_at(__LINE__, "S-1", TCAST_ERR_PARSE, "data type 'S-1' not understood");
  parse_fails_at(__LINE__, "S4294967296", TCAST_ERR_PARSE,
                 "data type 'S4294967296' not understood");

  test_parse_repeats_and_limits();
  test_parse_one_character();
  test_parse_messages_quote_like_repr();
}

/* Section 7: promote_types and min_scalar_type. */
static void test_promote(void) {
  char a[2] = {0}, b[2] = {0};
  for (int i = 0; PROMOTE_CODES[i] != '\0'; i++) {
    CHECK_MSG(PROMOTE_ROWS[i][0] == PROMOTE_CODES[i] && strlen(PROMOTE_ROWS[i]) == 17,
              "promote table row %d malformed", i);
    for (int j = 0; PROMOTE_CODES[j] != '\0'; j++) {
      a[0] = PROMOTE_CODES[i];
      b[0] = PROMOTE_CODES[j];
      char buf[64];
      char what[64];
      snprintf(what, sizeof what, "promote_types('%s', '%s')", a, b);
      tc_reset_err();
      tcast_status status = tcast_np_promote_types(a, b, buf, sizeof buf, NULL, TC_ERR);
      text_result_at(__LINE__, what, status, buf, code_str(PROMOTE_ROWS[i][j + 1]));
    }
  }
  /* Native byte order always. */
  PROMOTE(">i4", ">i4", "int32");
  PROMOTE("<i8", ">i8", "int64");
  PROMOTE(">f8", ">f4", "float64");
  PROMOTE("l", "q", "int64");
  PROMOTE("i4", "u4", "int64");
  PROMOTE("i8", "u8", "float64");
  /* Strings: max(needed length, given). */
  PROMOTE("i8", "S", "|S21");
  PROMOTE("i4", "S3", "|S11");
  PROMOTE("f8", "U5", "<U32");
  PROMOTE("?", "S", "|S5");
  PROMOTE("S5", "U3", "<U5");
  PROMOTE("S", "U", "<U0");
  PROMOTE("i1", "S10", "|S10");
  PROMOTE(">i8", ">U16", "<U21");
  PROMOTE("<i8", "<U16", "<U21");
  PROMOTE("<S5", "<U8", "<U8");
  PROMOTE(">S5", ">U8", "<U8");
  PROMOTE("S5", "S8", "|S8");
  /* Datetimes. */
  PROMOTE("m8", "?", "timedelta64");
  PROMOTE("m8", "i4", "timedelta64");
  PROMOTE("m8[s]", "i8", "timedelta64[s]");
  PROMOTE("m8[s]", "u4", "timedelta64[s]");
  PROMOTE("M8", "m8", "datetime64");
  PROMOTE("M8[2s]", "M8[3s]", "datetime64[s]");
  PROMOTE("M8[D]", "M8[M]", "datetime64[D]");
  PROMOTE("<M8", ">M8", "datetime64");
  PROMOTE(">M8", ">M8", "datetime64");
  PROMOTE("<m8", "<m8", "timedelta64");
  PROMOTE(">m8", ">m8", "timedelta64");
  PROMOTE_FAILS("m8", "u8");
  PROMOTE_FAILS("M8", "i4");
  PROMOTE_FAILS("M8[s]", "f8");
  PROMOTE_FAILS("m8", "f8");
  PROMOTE_FAILS("M8", "S5");
  PROMOTE_FAILS("m8", "U");
  PROMOTE_FAILS("m8[Y]", "m8[D]");
  PROMOTE_FAILS("V8", "V4");
  /* Object absorbs everything. */
  PROMOTE("O", "i4", "object");
  PROMOTE("O", "S5", "object");
  PROMOTE("O", "M8[s]", "object");
  PROMOTE("O", "O", "object");

  /* Structured operands: numpy 2 promotes field by field (str() as numpy 2 prints it). */
  PROMOTE("i4,f8", "i4,f8", "[('f0', '<i4'), ('f1', '<f8')]");
  PROMOTE("i4,f8", "i8,f8", "[('f0', '<i8'), ('f1', '<f8')]");

  /* A bad spec. */
  char buf[64];
  tc_reset_err();
  tcast_status status = tcast_np_promote_types("abc", "i4", buf, sizeof buf, NULL, TC_ERR);
  if (status_at(__LINE__, "promote_types('abc', 'i4')", status, TCAST_ERR_PARSE)) {
    message_has_at(__LINE__, "data type 'abc' not understood");
  }
}

static void test_min_scalar_type(void) {
  MIN_INT("0", "uint8");
  MIN_INT("10", "uint8");
  MIN_INT("127", "uint8");
  MIN_INT("128", "uint8");
  MIN_INT("255", "uint8");
  MIN_INT("256", "uint16");
  MIN_INT("65535", "uint16");
  MIN_INT("65536", "uint32");
  MIN_INT("4294967295", "uint32");
  MIN_INT("4294967296", "uint64");
  MIN_INT("18446744073709551615", "uint64");
  MIN_INT("18446744073709551616", "object");
  MIN_INT("-1", "int8");
  MIN_INT("-128", "int8");
  MIN_INT("-129", "int16");
  MIN_INT("-260", "int16");
  MIN_INT("-32768", "int16");
  MIN_INT("-32769", "int32");
  MIN_INT("-2147483648", "int32");
  MIN_INT("-2147483649", "int64");
  MIN_INT("-9223372036854775808", "int64");
  MIN_INT("-9223372036854775809", "object");
  MIN_INT("+5", "uint8");
  MIN_FLOAT(3.1, "float16");
  MIN_FLOAT(1e50, "float64");
  MIN_FLOAT(1e39, "float64");
  MIN_FLOAT(0.0, "float16");
  MIN_FLOAT(64999.0, "float16");
  MIN_FLOAT(-64999.0, "float16");
  MIN_FLOAT(65000.0, "float32");
  MIN_FLOAT(65504.0, "float32");
  MIN_FLOAT(-65000.0, "float32");
  MIN_FLOAT(3.39e38, "float32");
  MIN_FLOAT(3.4e38, "float64");
  MIN_FLOAT(INFINITY, "float16");
  MIN_FLOAT(-INFINITY, "float16");
  MIN_FLOAT(NAN, "float16");
  MIN_COMPLEX(0.0, 1.0, "complex64");
  MIN_COMPLEX(1.0, 1.0, "complex64");
  MIN_COMPLEX(1e39, 0.0, "complex128");
  MIN_COMPLEX(0.0, 3.4e38, "complex128");
  MIN_COMPLEX(NAN, 0.0, "complex128");

  char buf[64];
  static const char *const bad[] = {"", "12a", "1.5", "-", "0x10", " 1 1"};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    tc_reset_err();
    tcast_status status = tcast_np_min_scalar_type_pyint(bad[k], buf, sizeof buf, NULL, TC_ERR);
    status_at(__LINE__, "min_scalar_type_pyint (bad decimal)", status, TCAST_ERR_PARSE);
    int32_t result = -1;
    tc_reset_err();
    status = tcast_np_can_cast_pyint(bad[k], "i8", SAFE, NP1, &result, TC_ERR);
    status_at(__LINE__, "can_cast_pyint (bad decimal)", status, TCAST_ERR_PARSE);
  }
}

/* Section 8: numpy's own tests as the page lists them. */
static void test_numpy_suite(void) {
  /* test_numeric.py::TestTypes::test_can_cast (the lengths are in test_strings). */
  CAN2("i4", "S11", "safe", 1);
  CAN2("bool", "S5", "safe", 1);
  CAN2("bool", "S4", "safe", 0);
  CAN2("b", "U4", "safe", 1);
  CAN2("b", "U3", "safe", 0);
  CAN2("bool_", "bool_", "safe", 1);

  /* test_can_cast_simple_to_structured / _structured_to_simple. */
  CAN2("i4", "i4,i4", "unsafe", 1);
  CAN2("i4", "i4,i4", "same_kind", 0);
  CAN2("i4,i4", "i4", "unsafe", 0);

  /* test_can_cast_values, numpy 1.22: iinfo min / max castable, min-1 / max+1 not. */
  static const struct {
    const char *dtype, *min, *below, *max, *above;
  } ints[] = {
      {"int8", "-128", "-129", "127", "128"},
      {"int16", "-32768", "-32769", "32767", "32768"},
      {"int32", "-2147483648", "-2147483649", "2147483647", "2147483648"},
      {"int64", "-9223372036854775808", "-9223372036854775809", "9223372036854775807",
       "9223372036854775808"},
      {"uint8", "0", "-1", "255", "256"},
      {"uint16", "0", "-1", "65535", "65536"},
      {"uint32", "0", "-1", "4294967295", "4294967296"},
      {"uint64", "0", "-1", "18446744073709551615", "18446744073709551616"},
  };
  for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) {
    py_at(__LINE__, py_int(ints[k].min), ints[k].dtype, SAFE, 1);
    py_at(__LINE__, py_int(ints[k].max), ints[k].dtype, SAFE, 1);
    py_at(__LINE__, py_int(ints[k].below), ints[k].dtype, SAFE, 0);
    py_at(__LINE__, py_int(ints[k].above), ints[k].dtype, SAFE, 0);
  }
  /* finfo min / max (numpy scalars of the type) castable to their type. */
  const uint16_t half_max = 0x7BFF, half_min = 0xFBFF;
  const float f32_max = FLT_MAX, f32_min = -FLT_MAX;
  const double f64_max = DBL_MAX, f64_min = -DBL_MAX;
  for (int32_t rules = NP1; rules <= NP2; rules++) {
    SCALAR("float16", &half_max, 2, 0, "float16", SAFE, rules, 1);
    SCALAR("float16", &half_min, 2, 0, "float16", SAFE, rules, 1);
    SCALAR("float32", &f32_max, 4, 0, "float32", SAFE, rules, 1);
    SCALAR("float32", &f32_min, 4, 0, "float32", SAFE, rules, 1);
    SCALAR("float64", &f64_max, 8, 0, "float64", SAFE, rules, 1);
    SCALAR("float64", &f64_min, 8, 0, "float64", SAFE, rules, 1);
#if defined(__x86_64__) && LDBL_MANT_DIG == 64
    unsigned char ld[16] = {0};
    long double ld_max = LDBL_MAX;
    memcpy(ld, &ld_max, 10);
    SCALAR("longdouble", ld, 16, 0, "longdouble", SAFE, rules, 1);
#endif
  }

  /* numpy 2 test_can_cast_scalars: a scalar answers as its dtype. */
  static const char scalar_codes[] = "?bhilqBHILQefdgFDG";
  unsigned char zeros[32] = {0};
  static const uint64_t sizes[] = {1, 1, 2, 4, 8, 8, 1, 2, 4, 8, 8, 2, 4, 8, 16, 8, 16, 32};
  for (int k = 0; scalar_codes[k] != '\0'; k++) {
    char code[2] = {scalar_codes[k], 0};
    int level = matrix_level(code, "q");
    SCALAR(code, zeros, sizes[k], 0, "int64", SAFE, NP2, level <= SAFE);
    SCALAR(code, zeros, sizes[k], 0, "float32", UNSAFE, NP2, 1);
  }

  /* test_casting_unittests.py: TestChanges.test_float_to_string. */
  static const char *const floats[] = {"e", "f", "d", "g"};
  for (size_t k = 0; k < 4; k++) {
    CAN2(floats[k], "S", "safe", 1);
    CAN2(floats[k], "U", "safe", 1);
    CAN2(floats[k], "S100", "safe", 1);
    CAN2(floats[k], "U100", "safe", 1);
  }
  /* test_to_void. */
  CAN2("d", "V", "safe", 1);
  CAN2("S20", "V", "safe", 1);
  CAN2("d", "V1", "safe", 0);
  CAN2("S20", "V1", "safe", 0);
  CAN2("U1", "V1", "safe", 0);
  CAN2("d,i", "V", "same_kind", 1);
  CAN2("V3", "V", "no", 1);
  CAN2("V0", "V", "no", 1);
  /* The class table's only mismatch: O -> V is unsafe for can_cast. */
  LEVEL2("O", "V", UNSAFE);

  /* test_datetime.py::test_datetime_casting_rules. */
  CAN2("m8", "M8", "same_kind", 0);
  CAN2("M8", "m8", "same_kind", 0);
  CAN2("m8", "M8", "safe", 0);
  CAN2("M8", "m8", "safe", 0);
  CAN2("i8", "m8", "same_kind", 1);
  CAN2("i8", "m8", "safe", 1);
  CAN2("i4", "m8", "same_kind", 1);
  CAN2("i4", "m8", "safe", 1);
  CAN2("u4", "m8", "same_kind", 1);
  CAN2("u4", "m8", "safe", 1);
  CAN2("u8", "m8", "same_kind", 1);
  CAN2("u8", "m8", "safe", 0);
  CAN2("f4", "m8", "same_kind", 0);
  CAN2("f4", "m8", "safe", 0);
  CAN2("i8", "M8", "same_kind", 0);
  CAN2("i8", "M8", "safe", 0);
  CAN2("b1", "M8", "same_kind", 0);
  CAN2("b1", "M8", "safe", 0);
  CAN2("b1", "m8", "same_kind", 1);
  CAN2("b1", "m8", "safe", 1);
  CAN2("M8[M]", "M8[D]", "safe", 1);
  CAN2("M8[Y]", "M8[D]", "safe", 1);
  CAN2("m8[M]", "m8[D]", "safe", 0);
  CAN2("m8[Y]", "m8[D]", "safe", 0);
  CAN2("M8[M]", "M8[D]", "same_kind", 1);
  CAN2("M8[Y]", "M8[D]", "same_kind", 1);
  CAN2("m8[M]", "m8[D]", "same_kind", 0);
  CAN2("m8[Y]", "m8[D]", "same_kind", 0);
  CAN2("M8[D]", "M8[h]", "same_kind", 1);
  CAN2("m8[D]", "m8[h]", "same_kind", 1);
  CAN2("m8[h]", "m8[D]", "same_kind", 1);
  CAN2("M8[7h]", "M8[3h]", "safe", 0);
  CAN2("M8[3h]", "M8[6h]", "safe", 0);
  CAN2("M8[7h]", "M8[3h]", "same_kind", 1);
  CAN2("M8[6h]", "M8[3h]", "safe", 1);
  CAN2("m8", "m8[h]", "same_kind", 1);
  CAN2("m8", "m8[h]", "safe", 1);
  CAN2("M8", "M8[h]", "same_kind", 1);
  CAN2("M8", "M8[h]", "safe", 1);
  CAN2("m8[h]", "m8", "same_kind", 0);
  CAN2("m8[h]", "m8", "safe", 0);
  CAN2("M8[h]", "M8", "same_kind", 0);
  CAN2("M8[h]", "M8", "safe", 0);

  /* test_datetime_prefix_conversions: safe both ways. */
  static const char *const smaller[] = {"M8[7000ms]",      "M8[2000us]",      "M8[1000ns]",
                                        "M8[5000ns]",      "M8[2000ps]",      "M8[9000fs]",
                                        "M8[1000as]",      "M8[2000000ps]",   "M8[1000000as]",
                                        "M8[2000000000ps]", "M8[1000000000as]"};
  static const char *const larger[] = {"M8[7s]",  "M8[2ms]", "M8[us]",  "M8[5us]",
                                       "M8[2ns]", "M8[9ps]", "M8[1fs]", "M8[2us]",
                                       "M8[1ps]", "M8[2ms]", "M8[1ns]"};
  for (size_t k = 0; k < sizeof smaller / sizeof smaller[0]; k++) {
    can_at(__LINE__, larger[k], smaller[k], "safe", NP1, 1);
    can_at(__LINE__, smaller[k], larger[k], "safe", NP1, 1);
    can_at(__LINE__, larger[k], smaller[k], "safe", NP2, 1);
    can_at(__LINE__, smaller[k], larger[k], "safe", NP2, 1);
  }

  /* test_casting_unittests.py::test_time_to_time (the None target is the source in
   * native byte order). */
  LEVEL2("M8[ns]", "M8[ns]", NO);
  LEVEL2(">M8[ns]", "<M8[ns]", EQUIV);
  LEVEL2("M8", "M8[ms]", SAFE);
  LEVEL2("M8[ms]", "M8", UNSAFE);
  LEVEL2("M8[5ms]", "M8[5ms]", NO);
  LEVEL2("M8[ns]", "M8[ms]", KIND);
  LEVEL2("M8[ms]", "M8[ns]", SAFE);
  LEVEL2("M8[ms]", "M8[7ms]", KIND);
  LEVEL2("M8[4D]", "M8[1M]", KIND);
  LEVEL2("m8[ns]", "m8[ns]", NO);
  LEVEL2(">m8[ns]", "<m8[ns]", EQUIV);
  LEVEL2("m8", "m8[ms]", SAFE);
  LEVEL2("m8[ms]", "m8", UNSAFE);
  LEVEL2("m8[5ms]", "m8[5ms]", NO);
  LEVEL2("m8[ns]", "m8[ms]", KIND);
  LEVEL2("m8[ms]", "m8[ns]", SAFE);
  LEVEL2("m8[ms]", "m8[7ms]", KIND);
  LEVEL2("m8[4D]", "m8[1M]", UNSAFE);

  /* test_api.py: object -> S / U only unsafe. */
  CAN2("O", "S5", "same_kind", 0);
  CAN2("O", "S5", "unsafe", 1);
  CAN2("O", "U5", "same_kind", 0);
  CAN2("O", "U5", "unsafe", 1);
}

/* Section 0: tcast_can_cast, and the casting option of tcast_cast. */
static void test_tensor_dtypes(void) {
  for (int i = 0; i < N_TENSOR; i++) {
    CHECK_MSG(strlen(TENSOR_ROWS[i].levels) == (size_t)N_TENSOR, "tensor row %d malformed", i);
    for (int j = 0; j < N_TENSOR; j++) {
      tensor_can_at(__LINE__, TENSOR_ROWS[i].code, TENSOR_ROWS[j].code,
                    TENSOR_ROWS[i].levels[j] - '0');
    }
  }
  /* The TF quantized types as their storage integers, on either side. */
  for (int q = 0; q < N_QUANTIZED; q++) {
    int qi = tensor_index(QUANTIZED[q].storage);
    for (int j = 0; j < N_TENSOR; j++) {
      tensor_can_at(__LINE__, QUANTIZED[q].code, TENSOR_ROWS[j].code,
                    TENSOR_ROWS[qi].levels[j] - '0');
      tensor_can_at(__LINE__, TENSOR_ROWS[j].code, QUANTIZED[q].code,
                    TENSOR_ROWS[j].levels[qi] - '0');
    }
    for (int r = 0; r < N_QUANTIZED; r++) {
      int ri = tensor_index(QUANTIZED[r].storage);
      tensor_can_at(__LINE__, QUANTIZED[q].code, QUANTIZED[r].code,
                    TENSOR_ROWS[qi].levels[ri] - '0');
    }
  }
  /* STRING is numpy's unsized U: every classic number -> U safe, U -> number unsafe,
   * U -> U no. */
  for (int j = FIRST_CLASSIC; j < N_TENSOR; j++) {
    tensor_can_at(__LINE__, TENSOR_ROWS[j].code, TCAST_DTYPE_STRING, SAFE);
    tensor_can_at(__LINE__, TCAST_DTYPE_STRING, TENSOR_ROWS[j].code, UNSAFE);
  }
  tensor_can_at(__LINE__, TCAST_DTYPE_QINT8, TCAST_DTYPE_STRING, SAFE);
  tensor_can_at(__LINE__, TCAST_DTYPE_STRING, TCAST_DTYPE_QUINT16, UNSAFE);
  tensor_can_at(__LINE__, TCAST_DTYPE_STRING, TCAST_DTYPE_STRING, NO);

  /* tcast_cast with options.casting. */
  const double in[2] = {1.5, -2.0};
  int32_t out[2] = {0, 0};
  const int64_t shape[1] = {2};
  tcast_tensor ti = tensor(in, sizeof in, shape, 1, TCAST_DTYPE_DOUBLE);
  tcast_tensor to = tensor(out, sizeof out, shape, 1, TCAST_DTYPE_INT32);
  tcast_cast_options options = tcast_cast_options_default();
  CHECK_EQ_INT(options.casting, UNSAFE);
  options.casting = SAFE;
  CHECK_STATUS(tcast_cast(&ti, &to, &options, TC_ERR), TCAST_ERR_CASTING);
  message_is_at(__LINE__, "Cannot cast array data from dtype('float64') to dtype('int32') "
                          "according to the rule 'safe'");
  options.casting = KIND;
  CHECK_STATUS(tcast_cast(&ti, &to, &options, TC_ERR), TCAST_ERR_CASTING);
  message_is_at(__LINE__, "Cannot cast array data from dtype('float64') to dtype('int32') "
                          "according to the rule 'same_kind'");
  options.casting = UNSAFE;
  CHECK_STATUS(tcast_cast(&ti, &to, &options, TC_ERR), TCAST_OK);
  CHECK_EQ_INT(out[0], 1);
  CHECK_EQ_INT(out[1], -2);
  const int32_t ints[2] = {7, -9};
  double doubles[2] = {0, 0};
  tcast_tensor ti2 = tensor(ints, sizeof ints, shape, 1, TCAST_DTYPE_INT32);
  tcast_tensor to2 = tensor(doubles, sizeof doubles, shape, 1, TCAST_DTYPE_DOUBLE);
  options.casting = SAFE;
  CHECK_STATUS(tcast_cast(&ti2, &to2, &options, TC_ERR), TCAST_OK);
  CHECK(doubles[0] == 7.0 && doubles[1] == -9.0);
  options.casting = EQUIV;
  CHECK_STATUS(tcast_cast(&ti2, &to2, &options, TC_ERR), TCAST_ERR_CASTING);
  options.casting = 5;
  CHECK_STATUS(tcast_cast(&ti2, &to2, &options, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
  options.casting = -1;
  CHECK_STATUS(tcast_cast(&ti2, &to2, &options, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
}

/* Argument errors. */
static void test_errors(void) {
  tcast_np_dtype *i4 = parse_at(__LINE__, "i4");
  tcast_np_dtype *f8 = parse_at(__LINE__, "f8");
  int32_t out = -1;
  char buf[64];
  const int64_t value = 1;

  /* NULL pointers. */
  static int dummy;
  tcast_np_dtype *handle = (tcast_np_dtype *)&dummy;
  CHECK_STATUS(tcast_np_dtype_parse(NULL, &handle, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
  CHECK(handle == NULL);
  CHECK_STATUS(tcast_np_dtype_parse("i4", NULL, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
  CHECK_STATUS(tcast_np_dtype_str(NULL, buf, sizeof buf, NULL, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
  CHECK_STATUS(tcast_np_dtype_str(i4, NULL, sizeof buf, NULL, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
  {
    /* NULL with capacity 0 is a sizing query only when `needed` can receive the answer. */
    uint64_t needed = 0;
    CHECK_STATUS(tcast_np_dtype_str(i4, NULL, 0, NULL, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
    CHECK_STATUS(tcast_np_dtype_str(i4, NULL, 1, &needed, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
    CHECK(needed == 0);
  }
  CHECK_STATUS(tcast_np_casting_from_name(NULL, &out, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
  CHECK_STATUS(tcast_np_casting_from_name("safe", NULL, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
  CHECK_STATUS(tcast_np_casting_level(NULL, f8, NP1, &out, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
  CHECK_STATUS(tcast_np_casting_level(i4, NULL, NP1, &out, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
  CHECK_STATUS(tcast_np_casting_level(i4, f8, NP1, NULL, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
  CHECK_STATUS(tcast_np_can_cast(NULL, f8, SAFE, NP1, &out, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
  CHECK_STATUS(tcast_np_can_cast(i4, NULL, SAFE, NP1, &out, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
  CHECK_STATUS(tcast_np_can_cast(i4, f8, SAFE, NP1, NULL, TC_ERR), TCAST_ERR_NULL_ARGUMENT);
  CHECK_STATUS(tcast_np_can_cast_str(NULL, "f8", "safe", NP1, &out, TC_ERR),
               TCAST_ERR_NULL_ARGUMENT);
  CHECK_STATUS(tcast_np_can_cast_str("i4", NULL, "safe", NP1, &out, TC_ERR),
               TCAST_ERR_NULL_ARGUMENT);
  CHECK_STATUS(tcast_np_can_cast_str("i4", "f8", NULL, NP1, &out, TC_ERR),
               TCAST_ERR_NULL_ARGUMENT);
  CHECK_STATUS(tcast_np_can_cast_str("i4", "f8", "safe", NP1, NULL, TC_ERR),
               TCAST_ERR_NULL_ARGUMENT);
  for (int32_t rules = NP1; rules <= NP2; rules++) {
    CHECK_STATUS(tcast_np_can_cast_pyint(NULL, "i8", SAFE, rules, &out, TC_ERR),
                 TCAST_ERR_NULL_ARGUMENT);
    CHECK_STATUS(tcast_np_can_cast_pyint("1", NULL, SAFE, rules, &out, TC_ERR),
                 TCAST_ERR_NULL_ARGUMENT);
    CHECK_STATUS(tcast_np_can_cast_pyint("1", "i8", SAFE, rules, NULL, TC_ERR),
                 TCAST_ERR_NULL_ARGUMENT);
    CHECK_STATUS(tcast_np_can_cast_pyfloat(1.0, NULL, SAFE, rules, &out, TC_ERR),
                 TCAST_ERR_NULL_ARGUMENT);
    CHECK_STATUS(tcast_np_can_cast_pyfloat(1.0, "f8", SAFE, rules, NULL, TC_ERR),
                 TCAST_ERR_NULL_ARGUMENT);
    CHECK_STATUS(tcast_np_can_cast_pycomplex(1.0, 0.0, NULL, SAFE, rules, &out, TC_ERR),
                 TCAST_ERR_NULL_ARGUMENT);
    CHECK_STATUS(tcast_np_can_cast_pycomplex(1.0, 0.0, "c16", SAFE, rules, NULL, TC_ERR),
                 TCAST_ERR_NULL_ARGUMENT);
    CHECK_STATUS(tcast_np_can_cast_pybool(1, NULL, SAFE, rules, &out, TC_ERR),
                 TCAST_ERR_NULL_ARGUMENT);
    CHECK_STATUS(tcast_np_can_cast_pybool(1, "?", SAFE, rules, NULL, TC_ERR),
                 TCAST_ERR_NULL_ARGUMENT);
    CHECK_STATUS(tcast_np_can_cast_scalar(NULL, &value, 8, 0, "i8", SAFE, rules, &out, TC_ERR),
                 TCAST_ERR_NULL_ARGUMENT);
    CHECK_STATUS(tcast_np_can_cast_scalar("i8", NULL, 8, 0, "i8", SAFE, rules, &out, TC_ERR),
                 TCAST_ERR_NULL_ARGUMENT);
    CHECK_STATUS(tcast_np_can_cast_scalar("i8", &value, 8, 0, NULL, SAFE, rules, &out, TC_ERR),
                 TCAST_ERR_NULL_ARGUMENT);
    CHECK_STATUS(tcast_np_can_cast_scalar("i8", &value, 8, 0, "i8", SAFE, rules, NULL, TC_ERR),
                 TCAST_ERR_NULL_ARGUMENT);
  }
  CHECK_STATUS(tcast_np_promote_types(NULL, "i4", buf, sizeof buf, NULL, TC_ERR),
               TCAST_ERR_NULL_ARGUMENT);
  CHECK_STATUS(tcast_np_promote_types("i4", NULL, buf, sizeof buf, NULL, TC_ERR),
               TCAST_ERR_NULL_ARGUMENT);
  CHECK_STATUS(tcast_np_promote_types("i4", "f8", NULL, sizeof buf, NULL, TC_ERR),
               TCAST_ERR_NULL_ARGUMENT);
  CHECK_STATUS(tcast_np_min_scalar_type_pyint(NULL, buf, sizeof buf, NULL, TC_ERR),
               TCAST_ERR_NULL_ARGUMENT);
  CHECK_STATUS(tcast_np_min_scalar_type_pyint("1", NULL, sizeof buf, NULL, TC_ERR),
               TCAST_ERR_NULL_ARGUMENT);
  CHECK_STATUS(tcast_np_min_scalar_type_pyfloat(1.0, NULL, sizeof buf, NULL, TC_ERR),
               TCAST_ERR_NULL_ARGUMENT);
  CHECK_STATUS(tcast_np_min_scalar_type_pycomplex(1.0, 0.0, NULL, sizeof buf, NULL, TC_ERR),
               TCAST_ERR_NULL_ARGUMENT);
  CHECK_STATUS(tcast_can_cast(TCAST_DTYPE_INT8, TCAST_DTYPE_INT16, SAFE, NULL, TC_ERR),
               TCAST_ERR_NULL_ARGUMENT);

  /* A NULL err is allowed, on success and on failure. */
  CHECK(tcast_np_can_cast(i4, f8, SAFE, NP1, &out, NULL) == TCAST_OK && out == 1);
  CHECK(tcast_np_can_cast(i4, f8, 9, NP1, &out, NULL) == TCAST_ERR_INVALID_ARGUMENT);
  handle = (tcast_np_dtype *)&dummy;
  CHECK(tcast_np_dtype_parse("abc", &handle, NULL) == TCAST_ERR_PARSE && handle == NULL);
  CHECK(tcast_np_promote_types("M8", "i4", buf, sizeof buf, NULL, NULL) == TCAST_ERR_UNSUPPORTED);
  CHECK(tcast_can_cast(TCAST_DTYPE_INT8, TCAST_DTYPE_INT16, SAFE, &out, NULL) == TCAST_OK &&
        out == 1);

  /* Bad rules. */
  static const int32_t bad_rules[] = {0, 3, -1};
  for (size_t k = 0; k < sizeof bad_rules / sizeof bad_rules[0]; k++) {
    int32_t r = bad_rules[k];
    CHECK_STATUS(tcast_np_casting_level(i4, f8, r, &out, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(tcast_np_can_cast(i4, f8, SAFE, r, &out, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(tcast_np_can_cast_str("i4", "f8", "safe", r, &out, TC_ERR),
                 TCAST_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(tcast_np_can_cast_pyint("1", "i8", SAFE, r, &out, TC_ERR),
                 TCAST_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(tcast_np_can_cast_pyfloat(1.0, "f8", SAFE, r, &out, TC_ERR),
                 TCAST_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(tcast_np_can_cast_pycomplex(1.0, 0.0, "c16", SAFE, r, &out, TC_ERR),
                 TCAST_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(tcast_np_can_cast_pybool(1, "?", SAFE, r, &out, TC_ERR),
                 TCAST_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(tcast_np_can_cast_scalar("i8", &value, 8, 0, "i8", SAFE, r, &out, TC_ERR),
                 TCAST_ERR_INVALID_ARGUMENT);
  }

  /* Bad casting levels. */
  static const int32_t bad_casting[] = {-1, 5, 100};
  for (size_t k = 0; k < sizeof bad_casting / sizeof bad_casting[0]; k++) {
    int32_t c = bad_casting[k];
    for (int32_t rules = NP1; rules <= NP2; rules++) {
      CHECK_STATUS(tcast_np_can_cast(i4, f8, c, rules, &out, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
      CHECK_STATUS(tcast_np_can_cast_pyint("1", "i8", c, rules, &out, TC_ERR),
                   TCAST_ERR_INVALID_ARGUMENT);
      CHECK_STATUS(tcast_np_can_cast_pyfloat(1.0, "f8", c, rules, &out, TC_ERR),
                   TCAST_ERR_INVALID_ARGUMENT);
      CHECK_STATUS(tcast_np_can_cast_pycomplex(1.0, 0.0, "c16", c, rules, &out, TC_ERR),
                   TCAST_ERR_INVALID_ARGUMENT);
      CHECK_STATUS(tcast_np_can_cast_pybool(1, "?", c, rules, &out, TC_ERR),
                   TCAST_ERR_INVALID_ARGUMENT);
      CHECK_STATUS(tcast_np_can_cast_scalar("i8", &value, 8, 0, "i8", c, rules, &out, TC_ERR),
                   TCAST_ERR_INVALID_ARGUMENT);
    }
    CHECK_STATUS(tcast_can_cast(TCAST_DTYPE_INT8, TCAST_DTYPE_INT16, c, &out, TC_ERR),
                 TCAST_ERR_INVALID_ARGUMENT);
  }

  /* Bad dtype codes for tcast_can_cast. */
  CHECK_STATUS(tcast_can_cast(TCAST_DTYPE_UNDEFINED, TCAST_DTYPE_INT8, SAFE, &out, TC_ERR),
               TCAST_ERR_INVALID_DTYPE);
  CHECK_STATUS(tcast_can_cast(TCAST_DTYPE_INT8, 999, SAFE, &out, TC_ERR), TCAST_ERR_INVALID_DTYPE);
  CHECK_STATUS(tcast_can_cast(-3, TCAST_DTYPE_INT8, SAFE, &out, TC_ERR), TCAST_ERR_INVALID_DTYPE);

  /* The scalar query: value_bytes must be the itemsize; is_array 0 or 1. */
  for (int32_t rules = NP1; rules <= NP2; rules++) {
    CHECK_STATUS(tcast_np_can_cast_scalar("i8", &value, 4, 0, "i8", SAFE, rules, &out, TC_ERR),
                 TCAST_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(tcast_np_can_cast_scalar("i4", &value, 8, 0, "i8", SAFE, rules, &out, TC_ERR),
                 TCAST_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(tcast_np_can_cast_scalar("i8", &value, 0, 1, "i8", SAFE, rules, &out, TC_ERR),
                 TCAST_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(tcast_np_can_cast_scalar("i8", &value, 8, 2, "i8", SAFE, rules, &out, TC_ERR),
                 TCAST_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(tcast_np_can_cast_scalar("i8", &value, 8, -1, "i8", SAFE, rules, &out, TC_ERR),
                 TCAST_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(tcast_np_can_cast_scalar("abc", &value, 8, 0, "i8", SAFE, rules, &out, TC_ERR),
                 TCAST_ERR_PARSE);
    CHECK_STATUS(tcast_np_can_cast_scalar("i8", &value, 8, 0, "abc", SAFE, rules, &out, TC_ERR),
                 TCAST_ERR_PARSE);
    CHECK_STATUS(tcast_np_can_cast_scalar("i8", &value, 8, 0, "i8", SAFE, rules, &out, TC_ERR),
                 TCAST_OK);
  }
  /* A bad `to` for the Python-scalar queries under numpy 1. */
  CHECK_STATUS(tcast_np_can_cast_pyint("1", "abc", SAFE, NP1, &out, TC_ERR), TCAST_ERR_PARSE);
  CHECK_MSG_CONTAINS(TC_ERR, "data type 'abc' not understood");
  CHECK_STATUS(tcast_np_can_cast_pyfloat(1.0, "f9", SAFE, NP1, &out, TC_ERR), TCAST_ERR_PARSE);
  CHECK_MSG_CONTAINS(TC_ERR, "data type 'f9' not understood");

  /* Short buffers: BUFFER_TOO_SMALL, nothing written past the capacity. */
  static const uint64_t caps[] = {0, 1, 5};
  for (size_t k = 0; k < sizeof caps / sizeof caps[0]; k++) {
    uint64_t cap = caps[k];
    char big[32];
#define CHECK_UNTOUCHED()                                                               \
  do {                                                                                  \
    int clean_ = 1;                                                                     \
    for (size_t i_ = (size_t)cap; i_ < sizeof big; i_++) {                              \
      clean_ &= big[i_] == 'Z';                                                         \
    }                                                                                   \
    CHECK_MSG(clean_, "line %d: a refused call wrote past capacity %d", __LINE__, (int)cap); \
  } while (0)
    memset(big, 'Z', sizeof big);
    CHECK_STATUS(tcast_np_dtype_str(i4, big, cap, NULL, TC_ERR), TCAST_ERR_BUFFER_TOO_SMALL); /* "int32" */
    CHECK_UNTOUCHED();
    memset(big, 'Z', sizeof big);
    CHECK_STATUS(tcast_np_promote_types("i4", "f8", big, cap, NULL, TC_ERR), TCAST_ERR_BUFFER_TOO_SMALL);
    CHECK_UNTOUCHED();
    memset(big, 'Z', sizeof big);
    CHECK_STATUS(tcast_np_min_scalar_type_pyint("300", big, cap, NULL, TC_ERR),
                 TCAST_ERR_BUFFER_TOO_SMALL);
    CHECK_UNTOUCHED();
    memset(big, 'Z', sizeof big);
    CHECK_STATUS(tcast_np_min_scalar_type_pyfloat(1e300, big, cap, NULL, TC_ERR),
                 TCAST_ERR_BUFFER_TOO_SMALL);
    CHECK_UNTOUCHED();
    memset(big, 'Z', sizeof big);
    CHECK_STATUS(tcast_np_min_scalar_type_pycomplex(1.0, 2.0, big, cap, NULL, TC_ERR),
                 TCAST_ERR_BUFFER_TOO_SMALL);
    CHECK_UNTOUCHED();
#undef CHECK_UNTOUCHED
  }
  /* One byte short and exactly enough. */
  char exact[16];
  memset(exact, 'Z', sizeof exact);
  CHECK_STATUS(tcast_np_promote_types("i4", "f8", exact, 7, NULL, TC_ERR), TCAST_ERR_BUFFER_TOO_SMALL);
  CHECK(exact[7] == 'Z');
  CHECK_STATUS(tcast_np_promote_types("i4", "f8", exact, 8, NULL, TC_ERR), TCAST_OK);
  CHECK_EQ_STR(exact, "float64");
  CHECK(exact[8] == 'Z');
  memset(exact, 'Z', sizeof exact);
  CHECK_STATUS(tcast_np_min_scalar_type_pyint("300", exact, 6, NULL, TC_ERR),
               TCAST_ERR_BUFFER_TOO_SMALL);
  CHECK(exact[6] == 'Z');
  CHECK_STATUS(tcast_np_min_scalar_type_pyint("300", exact, 7, NULL, TC_ERR), TCAST_OK);
  CHECK_EQ_STR(exact, "uint16");
  memset(exact, 'Z', sizeof exact);
  CHECK_STATUS(tcast_np_min_scalar_type_pyfloat(1.0, exact, 7, NULL, TC_ERR),
               TCAST_ERR_BUFFER_TOO_SMALL);
  CHECK(exact[7] == 'Z');
  CHECK_STATUS(tcast_np_min_scalar_type_pyfloat(1.0, exact, 8, NULL, TC_ERR), TCAST_OK);
  CHECK_EQ_STR(exact, "float16");
  memset(exact, 'Z', sizeof exact);
  CHECK_STATUS(tcast_np_min_scalar_type_pycomplex(1.0, 0.0, exact, 9, NULL, TC_ERR),
               TCAST_ERR_BUFFER_TOO_SMALL);
  CHECK(exact[9] == 'Z');
  CHECK_STATUS(tcast_np_min_scalar_type_pycomplex(1.0, 0.0, exact, 10, NULL, TC_ERR), TCAST_OK);
  CHECK_EQ_STR(exact, "complex64");
  /* Sizing queries, and `needed` beside a buffer that holds the text. */
  uint64_t needed = 0;
  CHECK_STATUS(tcast_np_promote_types("i4", "f8", NULL, 0, &needed, TC_ERR), TCAST_OK);
  CHECK(needed == 8);
  needed = 0;
  CHECK_STATUS(tcast_np_promote_types("i4", "f8", exact, sizeof exact, &needed, TC_ERR), TCAST_OK);
  CHECK(needed == 8);
  needed = 0;
  CHECK_STATUS(tcast_np_min_scalar_type_pyint("300", NULL, 0, &needed, TC_ERR), TCAST_OK);
  CHECK(needed == 7);
  needed = 0;
  CHECK_STATUS(tcast_np_min_scalar_type_pyfloat(1e300, NULL, 0, &needed, TC_ERR), TCAST_OK);
  CHECK(needed == 8); /* "float64" */
  needed = 0;
  CHECK_STATUS(tcast_np_min_scalar_type_pycomplex(1.0, 0.0, NULL, 0, &needed, TC_ERR), TCAST_OK);
  CHECK(needed == 10);
  /* A failure before the text exists leaves `needed` alone. */
  needed = 12345;
  CHECK_STATUS(tcast_np_promote_types("M8", "i4", NULL, 0, &needed, TC_ERR),
               TCAST_ERR_UNSUPPORTED);
  CHECK(needed == 12345);

  /* Freeing NULL is a no-op. */
  tcast_np_dtype_free(NULL);
  tc_pass();

  /* Handles are reusable after errors and independent of each other. */
  tcast_np_dtype *again = parse_at(__LINE__, "i4");
  CHECK_STATUS(tcast_np_casting_level(i4, again, NP2, &out, TC_ERR), TCAST_OK);
  CHECK_EQ_INT(out, NO);
  tcast_np_dtype_free(again);
  CHECK_STATUS(tcast_np_casting_level(i4, f8, NP2, &out, TC_ERR), TCAST_OK);
  CHECK_EQ_INT(out, SAFE);

  tcast_np_dtype_free(i4);
  tcast_np_dtype_free(f8);
}

int main(void) {
  test_docstring_examples();
  test_arguments();
  test_level_matrix();
  test_byte_order();
  test_numeric();
  test_strings();
  test_void_object();
  test_datetime();
  test_unsized_and_subarrays();
  test_structured();
  test_value_based();
  test_parse();
  test_promote();
  test_min_scalar_type();
  test_numpy_suite();
  test_tensor_dtypes();
  test_errors();
  return tc_summary();
}
