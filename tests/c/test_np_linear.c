/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Linear time for every input (docs/c-api.md section 1) of the numpy functions that take a
 * spec: tcast_np_dtype_parse, _str, tcast_np_casting_level, tcast_np_can_cast,
 * tcast_np_can_cast_str, tcast_np_can_cast_scalar, tcast_np_can_cast_py*,
 * tcast_np_promote_types, under TCAST_NUMPY_1 and TCAST_NUMPY_2, on specs of 100,000
 * fields (plain, ten kinds mixed, nested subarrays, a code numpy 1 refuses, a bad name
 * after them), on two different 100,000-field structs (numpy 1 matches their fields by
 * name, numpy 2 by position; promotion goes field by field), on structs of 400,000
 * fields, on other long specs that a careless parser walks more than once (long names,
 * runs of digits, parentheses, whitespace, characters its messages escape), and on a
 * Python int of a million digits.
 *
 * Every call runs under alarm(): one that takes longer than ALARM_SECONDS ends the
 * program with a failure naming it (SIGALRM). The budget is generous because CTest also
 * runs this program under valgrind memcheck, where the slowest call here (promoting two
 * 100,000-field structs of nested subarrays) takes about 11 s and the whole program
 * about 4.5 minutes (6 s natively). Quadratic work trips it: numpy 1's structured casts
 * once looked each field's name up with a scan of the other struct, about 15 s natively
 * for one query on 100,000 fields and minutes on the 400,000 of run_quadratic_guard.
 * Results are checked where they are known. Under an emulator (quick mode, tc_quick) every
 * size is a tenth: the same paths, in a tenth of the time.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "tc_check.h"
#include "tc_util.h"

#define NP1 TCAST_NUMPY_1
#define NP2 TCAST_NUMPY_2

enum { ALARM_SECONDS = 30 };

/* The sizes the names and comments below give; in quick mode (tc_quick) a tenth of each. */
static size_t fields = 100000, long_len = 1000000;

/* What is running, for the alarm's message. */
static char running[160];
static size_t running_len;

static void on_alarm(int sig) {
  (void)sig;
  static const char head[] = "FAIL: still running after the alarm: ";
  /* write() and _exit() are async-signal-safe; the result of write() cannot help here. */
  if (write(STDERR_FILENO, head, sizeof head - 1) < 0 ||
      write(STDERR_FILENO, running, running_len) < 0 || write(STDERR_FILENO, "\n", 1) < 0) {
    _exit(2);
  }
  _exit(1);
}

/* Starts the alarm for one call described by `fn` and `what`. */
static void start(const char *fn, const char *what, int32_t rules) {
  int n = snprintf(running, sizeof running, "%s on %s (rules %d)", fn, what, (int)rules);
  running_len = n < 0 ? 0 : ((size_t)n < sizeof running ? (size_t)n : sizeof running - 1);
  alarm(ALARM_SECONDS);
}

static void stop(void) { alarm(0); }

/* `prefix`, then `unit` `count` times, then `suffix`, in a new string. */
static char *repeated(const char *prefix, const char *unit, size_t count, const char *suffix) {
  size_t lp = strlen(prefix), lu = strlen(unit), ls = strlen(suffix);
  char *out = xmalloc(lp + lu * count + ls + 1);
  memcpy(out, prefix, lp);
  for (size_t i = 0; i < count; i++) {
    memcpy(out + lp + i * lu, unit, lu);
  }
  memcpy(out + lp + lu * count, suffix, ls + 1);
  return out;
}

/* One long spec: whether it parses, its itemsize (when it does), whether only numpy 1's
 * (`refused_by` NP1) or numpy 2's rules refuse it, and what str() starts with. */
typedef struct {
  const char *name;
  char *spec;
  int parses;
  uint64_t itemsize;
  int32_t refused_by;
  const char *str_prefix;
} long_spec;

/* A buffer for the texts of 100,000-field dtypes. */
enum { BIG = 64 * 1024 * 1024 };
static char *big;

static int ok_or(tcast_status status, tcast_status expected, int line, const char *call,
                 const char *name) {
  if (status == expected) {
    tc_pass();
    return 1;
  }
  tc_fail(__FILE__, line, "%s on %s: %s, expected %s: %.200s", call, name,
          tcast_status_name(status), tcast_status_name(expected),
          tc_message_terminated(&tc_err) ? tc_err.message : "(no message)");
  return 0;
}

/* Any outcome but a caught panic. */
static void not_internal(tcast_status status, int line, const char *call, const char *name) {
  CHECK_MSG(status != TCAST_ERR_INTERNAL, "%s:%d: %s on %s: %s: %.200s", __FILE__, line, call,
            name, tcast_status_name(status), tc_err.message);
}

static void run_spec(const long_spec *c) {
  tcast_np_dtype *h = NULL;
  start("tcast_np_dtype_parse", c->name, 0);
  tcast_status status = tcast_np_dtype_parse(c->spec, &h, TC_ERR);
  stop();
  if (!ok_or(status, c->parses ? TCAST_OK : TCAST_ERR_PARSE, __LINE__, "tcast_np_dtype_parse",
             c->name)) {
    tcast_np_dtype_free(h);
    return;
  }
  if (h != NULL) {
    start("tcast_np_dtype_str", c->name, 0);
    status = tcast_np_dtype_str(h, big, BIG, NULL, TC_ERR);
    stop();
    if (ok_or(status, TCAST_OK, __LINE__, "tcast_np_dtype_str", c->name)) {
      /* The prefixes are a little-endian host's; none reaches a field with an explicit
         byte order, so the host's native order is the only difference. */
      const char *prefix = tc_np_host_order(c->str_prefix);
      CHECK_MSG(strncmp(big, prefix, strlen(prefix)) == 0,
                "str of %s starts \"%.40s\", expected \"%s\"", c->name, big, prefix);
    }
  }
  uint8_t *value = c->itemsize > 0 ? calloc(1, c->itemsize) : NULL;
  for (int32_t rules = NP1; rules <= NP2; rules++) {
    int refused = c->refused_by == rules;
    tcast_status usable = refused ? TCAST_ERR_PARSE : TCAST_OK;
    int32_t level = -1, result = -1;
    if (h != NULL) {
      start("tcast_np_casting_level", c->name, rules);
      status = tcast_np_casting_level(h, h, rules, &level, TC_ERR);
      stop();
      if (ok_or(status, usable, __LINE__, "tcast_np_casting_level", c->name) && !refused) {
        CHECK_MSG(level == TCAST_CASTING_NO, "level of %s to itself is %d", c->name, (int)level);
      }
      start("tcast_np_can_cast", c->name, rules);
      status = tcast_np_can_cast(h, h, TCAST_CASTING_NO, rules, &result, TC_ERR);
      stop();
      if (ok_or(status, usable, __LINE__, "tcast_np_can_cast", c->name) && !refused) {
        CHECK_MSG(result == 1, "can_cast of %s to itself is %d", c->name, (int)result);
      }
    }
    start("tcast_np_can_cast_str", c->name, rules);
    status = tcast_np_can_cast_str(c->spec, c->spec, "no", rules, &result, TC_ERR);
    stop();
    if (c->parses && ok_or(status, usable, __LINE__, "tcast_np_can_cast_str", c->name) &&
        !refused) {
      CHECK_MSG(result == 1, "can_cast_str of %s to itself is %d", c->name, (int)result);
    } else if (!c->parses) {
      ok_or(status, TCAST_ERR_PARSE, __LINE__, "tcast_np_can_cast_str", c->name);
    }
    if (value != NULL) {
      start("tcast_np_can_cast_scalar (dtype)", c->name, rules);
      status = tcast_np_can_cast_scalar(c->spec, value, c->itemsize, 1, "O", TCAST_CASTING_SAFE,
                                        rules, &result, TC_ERR);
      stop();
      ok_or(status, usable, __LINE__, "tcast_np_can_cast_scalar (dtype)", c->name);
    }
    const double one = 1.0;
    start("tcast_np_can_cast_scalar (to)", c->name, rules);
    status = tcast_np_can_cast_scalar("f8", &one, 8, 0, c->spec, TCAST_CASTING_SAFE, rules,
                                      &result, TC_ERR);
    stop();
    not_internal(status, __LINE__, "tcast_np_can_cast_scalar (to)", c->name);
    start("tcast_np_can_cast_pyint", c->name, rules);
    status = tcast_np_can_cast_pyint("1", c->spec, TCAST_CASTING_SAFE, rules, &result, TC_ERR);
    stop();
    not_internal(status, __LINE__, "tcast_np_can_cast_pyint", c->name);
    start("tcast_np_can_cast_pyfloat", c->name, rules);
    status = tcast_np_can_cast_pyfloat(1.0, c->spec, TCAST_CASTING_SAFE, rules, &result, TC_ERR);
    stop();
    not_internal(status, __LINE__, "tcast_np_can_cast_pyfloat", c->name);
    start("tcast_np_can_cast_pycomplex", c->name, rules);
    status = tcast_np_can_cast_pycomplex(1.0, 0.0, c->spec, TCAST_CASTING_SAFE, rules, &result,
                                         TC_ERR);
    stop();
    not_internal(status, __LINE__, "tcast_np_can_cast_pycomplex", c->name);
    start("tcast_np_can_cast_pybool", c->name, rules);
    status = tcast_np_can_cast_pybool(1, c->spec, TCAST_CASTING_SAFE, rules, &result, TC_ERR);
    stop();
    not_internal(status, __LINE__, "tcast_np_can_cast_pybool", c->name);
  }
  start("tcast_np_promote_types", c->name, 0);
  status = tcast_np_promote_types(c->spec, c->spec, big, BIG, NULL, TC_ERR);
  stop();
  not_internal(status, __LINE__, "tcast_np_promote_types", c->name);
  free(value);
  tcast_np_dtype_free(h);
}

/* Two different 100,000-field structs: numpy 1 matches their fields by name, numpy 2 by
 * position; promotion goes field by field. */
static void run_struct_pair(void) {
  char *f8 = repeated("", "f8,", fields, ""), *i4 = repeated("", "i4,", fields, "");
  char *last_f8 = repeated("", "i4,", fields - 1, "f8");
  tcast_np_dtype *a = NULL, *b = NULL, *c = NULL;
  start("tcast_np_dtype_parse", "three 100,000-field structs", 0);
  CHECK_STATUS(tcast_np_dtype_parse(f8, &a, TC_ERR), TCAST_OK);
  CHECK_STATUS(tcast_np_dtype_parse(i4, &b, TC_ERR), TCAST_OK);
  CHECK_STATUS(tcast_np_dtype_parse(last_f8, &c, TC_ERR), TCAST_OK);
  stop();
  /* 0: all f8, 1: all i4, 2: all i4 but the last field f8 */
  static const struct {
    int from, to;
    int32_t level;
  } pairs[] = {{1, 0, TCAST_CASTING_SAFE},      {0, 1, TCAST_CASTING_UNSAFE},
               {2, 1, TCAST_CASTING_UNSAFE},    {1, 2, TCAST_CASTING_SAFE},
               {2, 0, TCAST_CASTING_SAFE},      {0, 2, TCAST_CASTING_UNSAFE}};
  tcast_np_dtype *handles[3] = {a, b, c};
  const char *specs[3] = {f8, i4, last_f8};
  for (int32_t rules = NP1; rules <= NP2; rules++) {
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
      int32_t level = -1, result = -1;
      start("tcast_np_casting_level", "a pair of 100,000-field structs", rules);
      tcast_status status = tcast_np_casting_level(handles[pairs[k].from], handles[pairs[k].to],
                                                   rules, &level, TC_ERR);
      stop();
      if (ok_or(status, TCAST_OK, __LINE__, "tcast_np_casting_level", "a struct pair")) {
        CHECK_MSG(level == pairs[k].level, "level %d -> %d (rules %d) is %d, expected %d",
                  pairs[k].from, pairs[k].to, (int)rules, (int)level, (int)pairs[k].level);
      }
      start("tcast_np_can_cast", "a pair of 100,000-field structs", rules);
      status = tcast_np_can_cast(handles[pairs[k].from], handles[pairs[k].to],
                                 TCAST_CASTING_SAFE, rules, &result, TC_ERR);
      stop();
      if (ok_or(status, TCAST_OK, __LINE__, "tcast_np_can_cast", "a struct pair")) {
        CHECK(result == (pairs[k].level <= TCAST_CASTING_SAFE));
      }
    }
    /* and from the strings */
    for (int to = 0; to < 2; to++) {
      int32_t result = -1;
      start("tcast_np_can_cast_str", "a pair of 100,000-field structs", rules);
      tcast_status status = tcast_np_can_cast_str(last_f8, specs[to], "safe", rules, &result,
                                                  TC_ERR);
      stop();
      if (ok_or(status, TCAST_OK, __LINE__, "tcast_np_can_cast_str", "a struct pair")) {
        CHECK(result == (to == 0));
      }
    }
  }
  start("tcast_np_promote_types", "a pair of 100,000-field structs", 0);
  tcast_status status = tcast_np_promote_types(f8, i4, big, BIG, NULL, TC_ERR);
  stop();
  if (ok_or(status, TCAST_OK, __LINE__, "tcast_np_promote_types", "a struct pair")) {
    const char *head = tc_np_host_order("[('f0', '<f8'), ('f1', '<f8'), ");
    CHECK(strncmp(big, head, strlen(head)) == 0);
  }
  tcast_np_dtype_free(a);
  tcast_np_dtype_free(b);
  tcast_np_dtype_free(c);
  free(f8);
  free(i4);
  free(last_f8);
}

/* Structs of 400,000 fields, through handles: the casts that once scanned for each
 * field's name (minutes natively), in well under a second now (seconds under valgrind,
 * most of them parsing). */
static void run_quadratic_guard(void) {
  const size_t guard_fields = 4 * fields;
  char *f8 = repeated("", "f8,", guard_fields, "");
  char *mixed = repeated("", "i4,f8,", guard_fields / 2, "");
  tcast_np_dtype *a = NULL, *b = NULL;
  start("tcast_np_dtype_parse", "400,000 fields", 0);
  tcast_status sa = tcast_np_dtype_parse(f8, &a, TC_ERR);
  tcast_status sb = tcast_np_dtype_parse(mixed, &b, TC_ERR);
  stop();
  if (ok_or(sa, TCAST_OK, __LINE__, "tcast_np_dtype_parse", "400,000 fields") &&
      ok_or(sb, TCAST_OK, __LINE__, "tcast_np_dtype_parse", "400,000 fields")) {
    for (int32_t rules = NP1; rules <= NP2; rules++) {
      int32_t level = -1, result = -1;
      start("tcast_np_casting_level", "400,000 fields to themselves", rules);
      tcast_status status = tcast_np_casting_level(a, a, rules, &level, TC_ERR);
      stop();
      if (ok_or(status, TCAST_OK, __LINE__, "tcast_np_casting_level", "400,000 fields")) {
        CHECK(level == TCAST_CASTING_NO);
      }
      start("tcast_np_casting_level", "400,000 fields, i4 and f8 to f8", rules);
      status = tcast_np_casting_level(b, a, rules, &level, TC_ERR);
      stop();
      if (ok_or(status, TCAST_OK, __LINE__, "tcast_np_casting_level", "400,000 fields")) {
        CHECK(level == TCAST_CASTING_SAFE);
      }
      start("tcast_np_can_cast", "400,000 fields, f8 to i4 and f8", rules);
      status = tcast_np_can_cast(a, b, TCAST_CASTING_SAME_KIND, rules, &result, TC_ERR);
      stop();
      if (ok_or(status, TCAST_OK, __LINE__, "tcast_np_can_cast", "400,000 fields")) {
        CHECK(result == 0);
      }
    }
  }
  tcast_np_dtype_free(a);
  tcast_np_dtype_free(b);
  free(f8);
  free(mixed);
}

/* A Python int of a million digits (with and without underscores) for the value-based
 * query and min_scalar_type. */
static void run_long_decimal(void) {
  char *digits = repeated("1", "0", long_len, "");
  char *grouped = repeated("1", "_000", long_len / 4, "");
  char *bad = repeated("1", "_", long_len, "");
  const char *const decimals[2] = {digits, grouped};
  for (int k = 0; k < 2; k++) {
    for (int32_t rules = NP1; rules <= NP2; rules++) {
      int32_t result = -1;
      start("tcast_np_can_cast_pyint", "a decimal of 1e6 digits", rules);
      tcast_status status =
          tcast_np_can_cast_pyint(decimals[k], "O", TCAST_CASTING_SAFE, rules, &result, TC_ERR);
      stop();
      if (ok_or(status, rules == NP1 ? TCAST_OK : TCAST_ERR_UNSUPPORTED, __LINE__,
                "tcast_np_can_cast_pyint", "a decimal of 1e6 digits") &&
          rules == NP1) {
        CHECK(result == 1);
      }
    }
    start("tcast_np_min_scalar_type_pyint", "a decimal of 1e6 digits", 0);
    tcast_status status = tcast_np_min_scalar_type_pyint(decimals[k], big, BIG, NULL, TC_ERR);
    stop();
    if (ok_or(status, TCAST_OK, __LINE__, "tcast_np_min_scalar_type_pyint", "1e6 digits")) {
      CHECK(strcmp(big, "object") == 0);
    }
  }
  int32_t result = -1;
  start("tcast_np_can_cast_pyint", "1e6 underscores", NP1);
  tcast_status status =
      tcast_np_can_cast_pyint(bad, "O", TCAST_CASTING_SAFE, NP1, &result, TC_ERR);
  stop();
  ok_or(status, TCAST_ERR_PARSE, __LINE__, "tcast_np_can_cast_pyint", "1e6 underscores");
  free(digits);
  free(grouped);
  free(bad);
}

int main(void) {
  if (signal(SIGALRM, on_alarm) == SIG_ERR) {
    fprintf(stderr, "cannot set the SIGALRM handler\n");
    return 1;
  }
  if (tc_quick()) {
    fields /= 10;
    long_len /= 10;
    printf("quick mode (TCAST_TEST_QUICK=1): every size named below is a tenth of that\n");
  }
  big = xmalloc(BIG);
  const uint64_t n = fields;
  long_spec specs[] = {
      {"\"f8,\" x 100000", repeated("", "f8,", fields, ""), 1, 8 * n, 0, "[('f0', '<f8'), "},
      {"10 kinds x 10000",
       repeated("", "i4,f8,S5,U3,M8[ns],(2,3)>f4,?,>u2,8S,m8[10s], ", fields / 10, ""), 1,
       80 * (n / 10), 0, "[('f0', '<i4'), ('f1', '<f8'), ('f2', 'S5'), ('f3', '<U3'), "},
      {"\"(2,)2i4,\" x 100000 (nested subarrays)", repeated("", "(2,)2i4,", fields, ""), 1,
       16 * n, 0, "[('f0', ('<i4', (2,)), (2,)), "},
      {"\"n,\" x 100000 (numpy 2 only)", repeated("", "n,", fields, ""), 1, 8 * n, NP1,
       "[('f0', '<i8'), "},
      {"\"i4,\" x 100000 then \"abc\"", repeated("", "i4,", fields, "abc"), 0, 0, 0, ""},
      {"100000 dimensions", repeated("(", "1,", fields, ")i4"), 0, 0, 0, ""},
      {"a name of 1e6 letters", repeated("", "x", long_len, ""), 0, 0, 0, ""},
      {"1e6 U+2028", repeated("", "\xe2\x80\xa8", long_len, ""), 0, 0, 0, ""},
      {"1e6 '(' then i4", repeated("", "(", long_len, "i4"), 0, 0, 0, ""},
      {"1e6 '(' then ,i4", repeated("", "(", long_len, ",i4"), 0, 0, 0, ""},
      {"1e6 '[' then ,i4", repeated("i4", "[", long_len, ",i4"), 0, 0, 0, ""},
      {"a repeat count of 1e6 digits", repeated("1", "0", long_len, "i4"), 0, 0, 0, ""},
      {"1e6 leading zeros in a count", repeated("", "0", long_len, "1i4"), 0, 0, 0, ""},
      {"1e6 leading zeros in a size", repeated("i", "0", long_len, "4"), 1, 4, 0, "int32"},
      {"1e6 leading zeros in a unit", repeated("M8[", "0", long_len, "1s]"), 1, 8, 0,
       "datetime64[s]"},
      {"a unit multiplier of 1e6 digits", repeated("M8[", "9", long_len, "s]"), 0, 0, 0, ""},
      {"a divisor of 1e6 digits", repeated("M8[s/", "1", long_len, "]"), 0, 0, 0, ""},
      {"1e6 digits in brackets in a struct", repeated("i4,M8[", "1", long_len, "s]"), 0, 0, 0, ""},
      {"1e6 spaces between fields", repeated("i4", " ", long_len, ",f8"), 1, 12, 0,
       "[('f0', '<i4'), ('f1', '<f8')]"},
      {"1e6 U+3000 between fields", repeated("i4", "\xe3\x80\x80", long_len, ",f8"), 1, 12, 0,
       "[('f0', '<i4'), ('f1', '<f8')]"},
      {"1e6 trailing spaces", repeated("i4,f8", " ", long_len, ""), 1, 12, 0,
       "[('f0', '<i4'), ('f1', '<f8')]"},
  };
  for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
    run_spec(&specs[k]);
    free(specs[k].spec);
  }
  run_struct_pair();
  run_quadratic_guard();
  run_long_decimal();
  free(big);
  return tc_summary();
}
