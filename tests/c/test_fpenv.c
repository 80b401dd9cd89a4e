/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The same bits in any floating-point environment the host sets.
 *
 * Every case below (conversions between float widths, integer -> float, the
 * low-precision encoders, text -> float and float -> text, with subnormals, ties and
 * NaN payloads) is run once in the default environment and then under each rounding
 * mode x flush-to-zero x the second control bit of the CPU (x86-64: MXCSR's FTZ and DAZ;
 * aarch64: FPCR's FZ/FZ16 and DN; elsewhere the rounding modes only). The output bytes
 * must equal the default environment's, and each call must leave the caller's control
 * modes (MXCSR's control bits, FPCR) and fegetround() as they were; the status flags
 * its conversions raise may stay raised, as C library functions may raise them (when
 * the caller's modes were not the defaults, MXCSR comes back whole). On x86-64 the cases also
 * run with the invalid, overflow, underflow, divide-by-zero and inexact exceptions
 * unmasked (feenableexcept): no trap, the same bytes.
 *
 * Then the same for tasks: a large cast split across an executor whose worker threads
 * run in a hostile environment, and across the library's own threads started from a
 * caller in one. */
#define _GNU_SOURCE
#include <fenv.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc_check.h"
#include "tc_util.h"

/* ---- the CPU's floating-point control and status ---------------------------------- */

#if defined(__x86_64__)
#include <xmmintrin.h>
#define CTRL_NAME "MXCSR"
#define FLUSH_BITS 0x8000u /* FTZ */
#define INPUT_BITS 0x0040u /* DAZ */
#define FLUSH_NAME "FTZ"
#define INPUT_NAME "DAZ"
/* The control bits: DAZ, the exception masks, the rounding control, FTZ. */
#define CONTROL_BITS 0xFFC0u
static uint64_t read_ctrl(void) { return _mm_getcsr(); }
static void write_ctrl(uint64_t v) { _mm_setcsr((unsigned)v); }
/* Every exception masked, round to nearest even, no FTZ or DAZ. */
static int default_ctrl(uint64_t v) { return (v & CONTROL_BITS) == 0x1F80u; }
#elif defined(__aarch64__)
#define CTRL_NAME "FPCR"
#define FLUSH_BITS ((1u << 24) | (1u << 19)) /* FZ, FZ16 */
#define INPUT_BITS (1u << 25)                /* DN: default NaN */
#define FLUSH_NAME "FZ"
#define INPUT_NAME "DN"
static uint64_t read_ctrl(void) {
  uint64_t v;
  __asm__ volatile("mrs %0, fpcr" : "=r"(v));
  return v;
}
static void write_ctrl(uint64_t v) { __asm__ volatile("msr fpcr, %0" : : "r"(v)); }
/* FPCR is control only (the flags are in FPSR). */
#define CONTROL_BITS UINT64_MAX
/* AH, FIZ, NEP, the trap enables, FZ16, RMode, FZ, DN, AHP all clear. */
static int default_ctrl(uint64_t v) {
  return (v & (0x7u | 0x1F00u | 0x8000u | (1u << 19) | (0x1Fu << 22))) == 0;
}
#else
#define CTRL_NAME "(none)"
#define FLUSH_BITS 0u
#define INPUT_BITS 0u
#define FLUSH_NAME "-"
#define INPUT_NAME "-"
static uint64_t read_ctrl(void) { return 0; }
static void write_ctrl(uint64_t v) { (void)v; }
#define CONTROL_BITS 0u
static int default_ctrl(uint64_t v) {
  (void)v;
  return 1;
}
#endif

static const int MODES[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
static const char *const MODE_NAMES[4] = {"nearest", "upward", "downward", "toward zero"};

typedef struct {
  int mode; /* index into MODES */
  int flush;
  int input;
} env_t;

static void describe(const env_t *e, char *out, size_t cap) {
  snprintf(out, cap, "%s, %s %s, %s %s", MODE_NAMES[e->mode], FLUSH_NAME,
           e->flush ? "on" : "off", INPUT_NAME, e->input ? "on" : "off");
}

/* Sets the environment on the calling thread; returns 0 when the CPU has no such bits. */
static int set_env(const env_t *e) {
  if ((e->flush && FLUSH_BITS == 0) || (e->input && INPUT_BITS == 0)) {
    return 0;
  }
  if (fesetround(MODES[e->mode]) != 0) {
    return 0;
  }
  uint64_t ctrl = read_ctrl() & ~(uint64_t)(FLUSH_BITS | INPUT_BITS);
  if (e->flush) {
    ctrl |= FLUSH_BITS;
  }
  if (e->input) {
    ctrl |= INPUT_BITS;
  }
  write_ctrl(ctrl);
  return 1;
}

static void set_default_env(void) {
  env_t d = {0, 0, 0};
  set_env(&d);
}

/* ---- the cases -------------------------------------------------------------------- */

static const uint32_t F32_BITS[] = {
    0x00000001u, 0x80000001u, 0x007fffffu, 0x00400000u, 0x00800000u, 0x3f800001u,
    0x7fa00001u, /* a signalling NaN with a payload */
    0xffc12345u, 0x7f7fffffu, 0x33800000u, 0x477fe000u, 0x477ff000u, 0x38800000u,
    0x387fc000u, /* f16 subnormal tie region */
    0x3f808000u, /* bf16 tie, to even */
    0x3f818000u, /* bf16 tie, to odd -> up */
    0x43e00000u, 0xc3f00000u, 0x3b000000u, 0x3a800000u};
static const uint64_t F64_BITS[] = {
    0x0000000000000001ull, 0x8000000000000001ull, 0x000fffffffffffffull,
    0x36a0000000000000ull, /* 2^-149: the least f32 subnormal */
    0x3690000000000000ull, /* 2^-150: a tie between 0 and it */
    0x3698000000000000ull, /* 1.5 * 2^-150 */
    0x380fffffe0000000ull, /* just below the least f32 normal */
    0x3ff0000010000000ull, /* 1 + 2^-24: an f32 tie, to even */
    0x3ff0000030000000ull, /* 1 + 3 * 2^-24: a tie, up */
    0xbff0000010000000ull, 0x47efffffe0000000ull, /* rounds to f32 max or inf */
    0x47effffff0000000ull, 0x7ff4000000000001ull, /* a signalling NaN with a payload */
    0x3e70000000000000ull, /* 2^-24: f16's least subnormal */
    0x3e60000000000000ull, /* 2^-25: a tie between 0 and it */
    0x40effc0000000000ull, /* 65504 */
    0x40effe0000000000ull, /* 65520: a tie between 65504 and inf */
    0x3ff0080000000000ull, /* an f16 tie */
    0x4070000000000000ull, /* 256 */
    0x407c800000000000ull, /* 456: e4m3fn tie region */
    0x3f50000000000000ull, /* 2^-10 */
    0x3f48000000000000ull, /* 2^-10 * 0.75 */
    0x7ff0000000000000ull, 0xfff0000000000000ull};
static const int64_t I64_VALUES[] = {
    (1ll << 53) + 1, -((1ll << 53) + 1), (1ll << 24) + 1, (1ll << 24) + 3, INT64_MAX,
    INT64_MIN, (1ll << 62) + (1ll << 38) + 1, -3, 16777217, 9007199254740993ll};
static const uint64_t U64_VALUES[] = {UINT64_MAX, (1ull << 63) + (1ull << 39) + 1,
                                      (1ull << 53) + 1, 16777217};
static const char *const TEXTS[] = {
    "4.9e-324", "1e-310", "2.4703282292062328e-324", "2.4703282292062327e-324",
    "1.00000000000000011102230246251565404236316680908203125",
    "1.0000000000000001110223024625156540423631668090820312500001", "0.1", "1e23",
    "3.4028235e38", "3.4028236e38", "1.17549435e-38", "1e-45", "7e-46", "-1e-310",
    "6e-8", "65520", "2.2250738585072011e-308", "8.98846567431158e307", "1e-400", "nan",
    "-inf", "123456789012345678901234567890"};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

typedef enum { NUMERIC, FROM_TEXT, TO_TEXT } kind_t;

typedef struct {
  kind_t kind;
  tcast_dtype from;
  tcast_dtype to;
  int32_t string_format;
  int32_t saturate;
} case_t;

/* Where each source dtype takes its values from. */
static const void *values_of(tcast_dtype dtype, int64_t *n) {
  switch (dtype) {
  case TCAST_DTYPE_FLOAT:
    *n = N_OF(F32_BITS);
    return F32_BITS;
  case TCAST_DTYPE_DOUBLE:
    *n = N_OF(F64_BITS);
    return F64_BITS;
  case TCAST_DTYPE_INT64:
    *n = N_OF(I64_VALUES);
    return I64_VALUES;
  case TCAST_DTYPE_UINT64:
    *n = N_OF(U64_VALUES);
    return U64_VALUES;
  default:
    *n = 0;
    return NULL;
  }
}

static const case_t CASES[] = {
    {NUMERIC, TCAST_DTYPE_FLOAT, TCAST_DTYPE_DOUBLE, 0, 1},
    {NUMERIC, TCAST_DTYPE_DOUBLE, TCAST_DTYPE_FLOAT, 0, 1},
    {NUMERIC, TCAST_DTYPE_DOUBLE, TCAST_DTYPE_BFLOAT16, 0, 1},
    {NUMERIC, TCAST_DTYPE_DOUBLE, TCAST_DTYPE_FLOAT16, 0, 1},
    {NUMERIC, TCAST_DTYPE_FLOAT, TCAST_DTYPE_FLOAT16, 0, 1},
    {NUMERIC, TCAST_DTYPE_FLOAT, TCAST_DTYPE_BFLOAT16, 0, 1},
    {NUMERIC, TCAST_DTYPE_DOUBLE, TCAST_DTYPE_FLOAT8E4M3FN, 0, 1},
    {NUMERIC, TCAST_DTYPE_DOUBLE, TCAST_DTYPE_FLOAT8E4M3FN, 0, 0},
    {NUMERIC, TCAST_DTYPE_FLOAT, TCAST_DTYPE_FLOAT8E5M2, 0, 1},
    {NUMERIC, TCAST_DTYPE_FLOAT, TCAST_DTYPE_FLOAT4E2M1, 0, 1},
    {NUMERIC, TCAST_DTYPE_DOUBLE, TCAST_DTYPE_INT32, 0, 1},
    {NUMERIC, TCAST_DTYPE_FLOAT, TCAST_DTYPE_INT8, 0, 1},
    {NUMERIC, TCAST_DTYPE_INT64, TCAST_DTYPE_FLOAT, 0, 1},
    {NUMERIC, TCAST_DTYPE_INT64, TCAST_DTYPE_DOUBLE, 0, 1},
    {NUMERIC, TCAST_DTYPE_INT64, TCAST_DTYPE_FLOAT16, 0, 1},
    {NUMERIC, TCAST_DTYPE_UINT64, TCAST_DTYPE_FLOAT, 0, 1},
    {NUMERIC, TCAST_DTYPE_UINT64, TCAST_DTYPE_DOUBLE, 0, 1},
    {FROM_TEXT, TCAST_DTYPE_STRING, TCAST_DTYPE_DOUBLE, 0, 1},
    {FROM_TEXT, TCAST_DTYPE_STRING, TCAST_DTYPE_FLOAT, 0, 1},
    {FROM_TEXT, TCAST_DTYPE_STRING, TCAST_DTYPE_FLOAT16, 0, 1},
    {FROM_TEXT, TCAST_DTYPE_STRING, TCAST_DTYPE_BFLOAT16, 0, 1},
    {TO_TEXT, TCAST_DTYPE_DOUBLE, TCAST_DTYPE_STRING, TCAST_FORMAT_SHORTEST, 1},
    {TO_TEXT, TCAST_DTYPE_DOUBLE, TCAST_DTYPE_STRING, TCAST_FORMAT_PRINTF_8G, 1},
    {TO_TEXT, TCAST_DTYPE_FLOAT, TCAST_DTYPE_STRING, TCAST_FORMAT_SHORTEST, 1},
    {TO_TEXT, TCAST_DTYPE_FLOAT, TCAST_DTYPE_STRING, TCAST_FORMAT_PRINTF_8G, 1},
};

#define OUT_CAP 8192

/* Runs a case in the calling thread's current environment: the output bytes (texts
 * joined by '\n') go to `out`, their length to `*len`. The environment must come back
 * unchanged from the call. Returns the call's status. */
static tcast_status run_case(const case_t *c, unsigned char *out, size_t *len,
                             const char *env_text) {
  static tcast_string views[64];
  static char arena_bytes[OUT_CAP];
  int64_t n = 0;
  const void *src = NULL;
  if (c->kind == FROM_TEXT) {
    n = (int64_t)N_OF(TEXTS);
    for (int64_t i = 0; i < n; i++) {
      views[i].data = TEXTS[i];
      views[i].len = strlen(TEXTS[i]);
    }
    src = views;
  } else {
    src = values_of(c->from, &n);
  }
  const int64_t shape[1] = {n};
  uint64_t in_bytes = 0, out_bytes = 0;
  tcast_tensor_bytes(c->from, shape, 1, &in_bytes, NULL);
  tcast_tensor_bytes(c->to, shape, 1, &out_bytes, NULL);
  tcast_tensor input = tensor(src, in_bytes, shape, 1, c->from);
  tcast_cast_options options = tcast_cast_options_default();
  options.saturate = c->saturate;
  options.string_format = c->string_format;
  memset(out, 0xEE, OUT_CAP);

  int round_before = fegetround();
  uint64_t ctrl_before = read_ctrl();
  tcast_status status;
  if (c->kind == TO_TEXT) {
    tcast_tensor output = tensor(views, out_bytes, shape, 1, TCAST_DTYPE_STRING);
    tcast_string_arena arena = {arena_bytes, sizeof arena_bytes, 0};
    status = tcast_cast_to_strings(&input, &output, &arena, &options, TC_ERR);
  } else {
    tcast_tensor output = tensor(out, out_bytes, shape, 1, c->to);
    status = tcast_cast(&input, &output, &options, TC_ERR);
  }
  uint64_t ctrl_after = read_ctrl();
  int round_after = fegetround();

  /* From the default modes, the flags raised may stay; from others, all comes back. */
  uint64_t compared = default_ctrl(ctrl_before) ? CONTROL_BITS : UINT64_MAX;
  CHECK_MSG((ctrl_after & compared) == (ctrl_before & compared),
            "%s -> %s under %s: %s was 0x%llx, came back 0x%llx", tcast_dtype_name(c->from),
            tcast_dtype_name(c->to), env_text, CTRL_NAME, (unsigned long long)ctrl_before,
            (unsigned long long)ctrl_after);
  CHECK_MSG(round_after == round_before, "%s -> %s under %s: fegetround() was %d, came back %d",
            tcast_dtype_name(c->from), tcast_dtype_name(c->to), env_text, round_before,
            round_after);
  if (status != TCAST_OK) {
    *len = 0;
    return status;
  }
  if (c->kind == TO_TEXT) {
    size_t at = 0;
    for (int64_t i = 0; i < n; i++) {
      memcpy(out + at, views[i].data, (size_t)views[i].len);
      at += (size_t)views[i].len;
      out[at++] = '\n';
    }
    *len = at;
  } else {
    *len = (size_t)out_bytes;
  }
  return status;
}

static unsigned char REFERENCE[N_OF(CASES)][OUT_CAP];
static size_t REFERENCE_LEN[N_OF(CASES)];

/* Every case under the calling thread's current environment (`what` names it) against
 * the default environment's bytes. Returns the number of cases that differ. */
static int compare_cases(const char *what) {
  static unsigned char out[OUT_CAP];
  int differ = 0;
  for (size_t k = 0; k < N_OF(CASES); k++) {
    size_t len = 0;
    tcast_status status = run_case(&CASES[k], out, &len, what);
    int same = status == TCAST_OK && len == REFERENCE_LEN[k] &&
               memcmp(out, REFERENCE[k], len) == 0;
    CHECK_MSG(same, "%s -> %s (saturate %d, format %d) under %s: %s",
              tcast_dtype_name(CASES[k].from), tcast_dtype_name(CASES[k].to),
              CASES[k].saturate, CASES[k].string_format, what,
              status != TCAST_OK ? tc_err.message : "the bytes differ from the default's");
    if (!same && status == TCAST_OK && CASES[k].kind != TO_TEXT) {
      size_t size = (size_t)tcast_dtype_bits(CASES[k].to) / 8;
      for (size_t i = 0; size > 0 && i < len; i += size) {
        if (memcmp(out + i, REFERENCE[k] + i, size) != 0) {
          fprintf(stderr, "    element %zu: got", i / size);
          for (size_t b = 0; b < size; b++) {
            fprintf(stderr, " %02x", out[i + b]);
          }
          fprintf(stderr, ", default");
          for (size_t b = 0; b < size; b++) {
            fprintf(stderr, " %02x", REFERENCE[k][i + b]);
          }
          fputc('\n', stderr);
        }
      }
    } else if (!same && status == TCAST_OK) {
      fprintf(stderr, "    got:\n%.*s    default:\n%.*s", (int)len, (const char *)out,
              (int)REFERENCE_LEN[k], (const char *)REFERENCE[k]);
    }
    differ += !same;
  }
  return differ;
}

/* ---- tasks on threads in a hostile environment ----------------------------------- */

static const env_t HOSTILE = {3, 1, 1}; /* toward zero, flush on, DAZ / DN on */

typedef struct {
  atomic_uint_fast64_t next;
  uint64_t n;
  tcast_task_fn task;
  void *task_ctx;
} job;

static void *hostile_worker(void *arg) {
  job *j = arg;
  set_env(&HOSTILE);
  for (;;) {
    uint64_t i = atomic_fetch_add(&j->next, 1);
    if (i >= j->n) {
      return NULL;
    }
    j->task(j->task_ctx, i);
  }
}

static uint64_t executor_tasks;

/* Runs each call's tasks on new pthreads that set the hostile environment first. */
static void hostile_for(void *ctx, uint64_t n, tcast_task_fn task, void *task_ctx) {
  (void)ctx;
  executor_tasks = n;
  job j;
  atomic_init(&j.next, 0);
  j.n = n;
  j.task = task;
  j.task_ctx = task_ctx;
  pthread_t threads[4];
  int started = 0;
  for (int k = 0; k < 4; k++) {
    if (pthread_create(&threads[started], NULL, hostile_worker, &j) == 0) {
      started++;
    }
  }
  for (int k = 0; k < started; k++) {
    pthread_join(threads[k], NULL);
  }
  if (started == 0) {
    hostile_worker(&j);
  }
}

/* A large cast of subnormal and tie values whose tasks run on hostile threads (the
 * executor's, or the library's own started from a hostile caller) gives the bytes of
 * one thread in the default environment. */
static void check_tasks(void) {
  const int64_t n = tc_quick() ? (1 << 18) : (1 << 22);
  const int64_t shape[1] = {n};
  double *src = xmalloc((size_t)n * sizeof(double));
  uint8_t *want = xmalloc((size_t)n);
  uint8_t *got = xmalloc((size_t)n);
  float *want32 = xmalloc((size_t)n * sizeof(float));
  float *got32 = xmalloc((size_t)n * sizeof(float));
  for (int64_t i = 0; i < n; i++) {
    src[i] = f64_from(F64_BITS[i % (int64_t)N_OF(F64_BITS)]);
  }
  tcast_tensor in = tensor(src, (uint64_t)n * 8, shape, 1, TCAST_DTYPE_DOUBLE);
  tcast_tensor e4 = tensor(want, (uint64_t)n, shape, 1, TCAST_DTYPE_FLOAT8E4M3FN);
  tcast_tensor f32 = tensor(want32, (uint64_t)n * 4, shape, 1, TCAST_DTYPE_FLOAT);
  set_default_env();
  CHECK_STATUS(tcast_cast(&in, &e4, NULL, TC_ERR), TCAST_OK);
  CHECK_STATUS(tcast_cast(&in, &f32, NULL, TC_ERR), TCAST_OK);

  tcast_executor executor = {NULL, hostile_for};
  tcast_cast_options options = tcast_cast_options_default();
  options.threads = 4;
  for (int own = 0; own < 2; own++) {
    options.executor = own ? NULL : &executor;
    const char *where = own ? "the library's own threads, from a hostile caller"
                            : "an executor's hostile threads";
    executor_tasks = 0;
    memset(got, 0xEE, (size_t)n);
    memset(got32, 0xEE, (size_t)n * 4);
    e4.data = got;
    f32.data = got32;
    if (own) {
      set_env(&HOSTILE);
    }
    CHECK_STATUS(tcast_cast(&in, &e4, &options, TC_ERR), TCAST_OK);
    CHECK_STATUS(tcast_cast(&in, &f32, &options, TC_ERR), TCAST_OK);
    set_default_env();
    CHECK_MSG(memcmp(got, want, (size_t)n) == 0, "DOUBLE -> FLOAT8E4M3FN on %s differs", where);
    CHECK_MSG(memcmp(got32, want32, (size_t)n * 4) == 0, "DOUBLE -> FLOAT on %s differs", where);
    if (!own) {
      CHECK_MSG(executor_tasks > 1, "the executor was given %llu tasks",
                (unsigned long long)executor_tasks);
    }
  }
  free(src);
  free(want);
  free(got);
  free(want32);
  free(got32);
}

int main(void) {
  set_default_env();
  for (size_t k = 0; k < N_OF(CASES); k++) {
    tcast_status status = run_case(&CASES[k], REFERENCE[k], &REFERENCE_LEN[k], "the default");
    CHECK_MSG(status == TCAST_OK, "%s -> %s in the default environment: %s",
              tcast_dtype_name(CASES[k].from), tcast_dtype_name(CASES[k].to), tc_err.message);
  }

  int environments = 0, differing = 0;
  for (int mode = 0; mode < 4; mode++) {
    for (int flush = 0; flush < 2; flush++) {
      for (int input = 0; input < 2; input++) {
        env_t e = {mode, flush, input};
        char text[96];
        describe(&e, text, sizeof text);
        if (!set_env(&e)) {
          continue; /* this CPU has no such control bit */
        }
        environments++;
        differing += compare_cases(text) > 0;
        set_default_env();
      }
    }
  }
  printf("%d environments, %d with differences (%s)\n", environments, differing, CTRL_NAME);
#if defined(__x86_64__) || defined(__aarch64__)
  CHECK_MSG(environments == 16, "only %d of the 16 environments could be set", environments);
#else
  CHECK_MSG(environments == 4, "only %d of the 4 rounding modes could be set", environments);
#endif

#if defined(__x86_64__) && defined(__GLIBC__)
  /* Unmasked exceptions: a conversion that raises one must not trap. */
  int traps = FE_INVALID | FE_OVERFLOW | FE_UNDERFLOW | FE_DIVBYZERO | FE_INEXACT;
  CHECK(feenableexcept(traps) != -1);
  compare_cases("every exception unmasked");
  CHECK(fedisableexcept(traps) != -1);
#endif

  check_tasks();
  return tc_summary();
}
