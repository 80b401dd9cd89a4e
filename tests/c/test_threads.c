/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Threads and the host's executor (docs/c-api.md section 9).
 *
 * Every operation with per-element work (tcast_cast, tcast_cast_to_strings both ways,
 * tcast_expand_ex) runs with threads = 4 on four kinds of workers: the library's own
 * threads, an executor backed by pthreads, one that runs its tasks in reverse order and
 * one that runs them all on the calling thread. Each result must be bit-identical to
 * the one-thread result (the arena of a formatting call included), the executors must
 * have been given more than one task, and a STRING parse failing in several tasks must
 * report the lowest failing index. An executor that skips a task, or has no
 * parallel_for, is refused; an old caller's options (struct_size 24) never have their
 * executor field read. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc_check.h"
#include "tc_util.h"

#define THREADS 4
#define MAX_WORKERS 8

/* ---- executors ---------------------------------------------------------------- */

typedef struct {
  uint64_t calls;    /* parallel_for calls */
  uint64_t tasks;    /* n_tasks of the last call */
  int skip_last;     /* misbehave: never run the last task */
} counts;

typedef struct {
  atomic_uint_fast64_t next;
  uint64_t n;
  tcast_task_fn task;
  void *task_ctx;
} job;

static void *worker(void *arg) {
  job *j = arg;
  for (;;) {
    uint64_t i = atomic_fetch_add(&j->next, 1);
    if (i >= j->n) {
      return NULL;
    }
    j->task(j->task_ctx, i);
  }
}

/* A pool of pthreads started per call: tasks taken from one counter. */
static void pthread_for(void *ctx, uint64_t n, tcast_task_fn task, void *task_ctx) {
  counts *c = ctx;
  c->calls++;
  c->tasks = n;
  job j;
  atomic_init(&j.next, 0);
  j.n = n;
  j.task = task;
  j.task_ctx = task_ctx;
  pthread_t threads[MAX_WORKERS];
  int started = 0;
  for (uint64_t k = 0; k < n && k < MAX_WORKERS; k++) {
    if (pthread_create(&threads[started], NULL, worker, &j) == 0) {
      started++;
    }
  }
  worker(&j); /* the calling thread helps, and finishes alone if no thread started */
  for (int k = 0; k < started; k++) {
    pthread_join(threads[k], NULL);
  }
}

static void reverse_for(void *ctx, uint64_t n, tcast_task_fn task, void *task_ctx) {
  counts *c = ctx;
  c->calls++;
  c->tasks = n;
  for (uint64_t i = n; i-- > (uint64_t)(c->skip_last ? 1 : 0);) {
    task(task_ctx, i);
  }
}

static void inline_for(void *ctx, uint64_t n, tcast_task_fn task, void *task_ctx) {
  counts *c = ctx;
  c->calls++;
  c->tasks = n;
  for (uint64_t i = 0; i < n; i++) {
    task(task_ctx, i);
  }
}

enum { OWN, PTHREADS, REVERSE, INLINE, N_WORKERS };
static const char *const WORKER_NAMES[N_WORKERS] = {"own threads", "pthreads", "reverse",
                                                    "calling thread"};
static counts COUNTS[N_WORKERS];
static tcast_executor EXECUTORS[N_WORKERS];

static tcast_cast_options options_for(int w) {
  tcast_cast_options o = tcast_cast_options_default();
  o.threads = THREADS;
  o.executor = w == OWN ? NULL : &EXECUTORS[w];
  return o;
}

/* The executor was called once and given several tasks (not for own threads). */
static void check_split(int w, const char *what) {
  if (w == OWN) {
    return;
  }
  CHECK_MSG(COUNTS[w].calls == 1 && COUNTS[w].tasks > 1 && COUNTS[w].tasks <= THREADS,
            "%s on %s: %llu parallel_for calls, %llu tasks", what, WORKER_NAMES[w],
            (unsigned long long)COUNTS[w].calls, (unsigned long long)COUNTS[w].tasks);
}

static void reset_counts(void) { memset(COUNTS, 0, sizeof COUNTS); }

/* ---- numeric casts -------------------------------------------------------------- */

static void test_numeric_casts(void) {
  static const struct {
    tcast_dtype to;
    int64_t n;
  } cases[] = {
      {TCAST_DTYPE_FLOAT16, (1 << 19) + 3},
      {TCAST_DTYPE_FLOAT8E4M3FN, (1 << 17) + 5},
      {TCAST_DTYPE_INT4, (1 << 17) + 37},
      {TCAST_DTYPE_FLOAT4E2M1, (1 << 17) + 1},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    int64_t n = cases[c].n;
    int64_t shape[1] = {n};
    float *src = xmalloc((size_t)n * sizeof(float));
    uint64_t state = 0x9E3779B97F4A7C15u + c;
    for (int64_t i = 0; i < n; i++) {
      src[i] = (float)((int64_t)(xorshift64star(&state) % 200001) - 100000) / 997.0f;
    }
    uint64_t out_bytes = 0;
    tcast_tensor_bytes(cases[c].to, shape, 1, &out_bytes, NULL);
    unsigned char *want = xmalloc(out_bytes), *got = xmalloc(out_bytes);
    tcast_tensor in = tensor(src, (uint64_t)n * 4, shape, 1, TCAST_DTYPE_FLOAT);
    tcast_tensor ref = tensor(want, out_bytes, shape, 1, cases[c].to);
    CHECK_STATUS(tcast_cast(&in, &ref, NULL, TC_ERR), TCAST_OK);
    for (int w = 0; w < N_WORKERS; w++) {
      reset_counts();
      tcast_cast_options o = options_for(w);
      memset(got, 0xA5, out_bytes);
      tcast_tensor out = tensor(got, out_bytes, shape, 1, cases[c].to);
      CHECK_STATUS(tcast_cast(&in, &out, &o, TC_ERR), TCAST_OK);
      CHECK_MSG(memcmp(want, got, out_bytes) == 0, "FLOAT -> %s of %lld on %s differs",
                tcast_dtype_name(cases[c].to), (long long)n, WORKER_NAMES[w]);
      check_split(w, tcast_dtype_name(cases[c].to));
    }
    free(src);
    free(want);
    free(got);
  }
}

/* A small cast stays on the calling thread: the executor is not called. */
static void test_small_calls_do_not_split(void) {
  float src[64] = {1.5f};
  uint16_t dst[64];
  int64_t shape[1] = {64};
  tcast_tensor in = tensor(src, sizeof src, shape, 1, TCAST_DTYPE_FLOAT);
  tcast_tensor out = tensor(dst, sizeof dst, shape, 1, TCAST_DTYPE_FLOAT16);
  for (int w = PTHREADS; w < N_WORKERS; w++) {
    reset_counts();
    tcast_cast_options o = options_for(w);
    CHECK_STATUS(tcast_cast(&in, &out, &o, TC_ERR), TCAST_OK);
    CHECK_EQ_INT(COUNTS[w].calls, 0);
  }
}

/* ---- Expand --------------------------------------------------------------------- */

static void test_expand(void) {
  static const int64_t in_shape[2] = {1, 4099};
  static const int64_t out_shape[3] = {3, 400, 4099};
  size_t in_n = 4099, out_n = 3 * 400 * 4099;
  float *src = xmalloc(in_n * 4);
  for (size_t i = 0; i < in_n; i++) {
    src[i] = (float)i * 0.25f;
  }
  float *want = xmalloc(out_n * 4), *got = xmalloc(out_n * 4);
  tcast_tensor in = tensor(src, in_n * 4, in_shape, 2, TCAST_DTYPE_FLOAT);
  tcast_tensor ref = tensor(want, out_n * 4, out_shape, 3, TCAST_DTYPE_FLOAT);
  CHECK_STATUS(tcast_expand(&in, &ref, TC_ERR), TCAST_OK);
  for (int w = 0; w < N_WORKERS; w++) {
    reset_counts();
    tcast_cast_options o = options_for(w);
    memset(got, 0xA5, out_n * 4);
    tcast_tensor out = tensor(got, out_n * 4, out_shape, 3, TCAST_DTYPE_FLOAT);
    CHECK_STATUS(tcast_expand_ex(&in, &out, &o, TC_ERR), TCAST_OK);
    CHECK_MSG(memcmp(want, got, out_n * 4) == 0, "expand on %s differs", WORKER_NAMES[w]);
    check_split(w, "expand");
  }
  /* A strided input broadcast along the split axis too. */
  static const int64_t col_shape[2] = {300, 1};
  static const int64_t col_strides[2] = {2, 1};
  static const int64_t wide_shape[2] = {300, 2000};
  float *col = xmalloc(600 * 4);
  for (int i = 0; i < 600; i++) {
    col[i] = (float)i;
  }
  tcast_tensor cin = tensor(col, 600 * 4, col_shape, 2, TCAST_DTYPE_FLOAT);
  cin.strides = col_strides;
  tcast_tensor cref = tensor(want, 600000 * 4, wide_shape, 2, TCAST_DTYPE_FLOAT);
  CHECK_STATUS(tcast_expand(&cin, &cref, TC_ERR), TCAST_OK);
  for (int w = 0; w < N_WORKERS; w++) {
    tcast_cast_options o = options_for(w);
    tcast_tensor out = tensor(got, 600000 * 4, wide_shape, 2, TCAST_DTYPE_FLOAT);
    CHECK_STATUS(tcast_expand_ex(&cin, &out, &o, TC_ERR), TCAST_OK);
    CHECK_MSG(memcmp(want, got, 600000 * 4) == 0, "strided expand on %s differs",
              WORKER_NAMES[w]);
  }
  free(col);
  free(src);
  free(want);
  free(got);
}

/* ---- strings -------------------------------------------------------------------- */

#define N_TEXTS 40000

static void test_format_and_parse(void) {
  int64_t shape[1] = {N_TEXTS};
  double *src = xmalloc(N_TEXTS * sizeof(double));
  uint64_t state = 12345;
  for (int i = 0; i < N_TEXTS; i++) {
    uint64_t r = xorshift64star(&state);
    src[i] = (double)(int64_t)(r >> 12) / (double)(1 + (r & 0xFFFF)) * ((r & 1) ? -1 : 1);
  }
  size_t capacity = N_TEXTS * (size_t)tcast_string_max_bytes(TCAST_DTYPE_DOUBLE) + 7;
  char *want_arena = xmalloc(capacity), *got_arena = xmalloc(capacity);
  tcast_string *want = xmalloc(N_TEXTS * sizeof(tcast_string));
  tcast_string *got = xmalloc(N_TEXTS * sizeof(tcast_string));
  tcast_tensor in = tensor(src, N_TEXTS * sizeof(double), shape, 1, TCAST_DTYPE_DOUBLE);
  tcast_tensor ref = tensor(want, N_TEXTS * sizeof(tcast_string), shape, 1, TCAST_DTYPE_STRING);
  tcast_string_arena ra = {want_arena, capacity, 7};
  memset(want_arena, 'x', capacity);
  CHECK_STATUS(tcast_cast_to_strings(&in, &ref, &ra, NULL, TC_ERR), TCAST_OK);
  double *back = xmalloc(N_TEXTS * sizeof(double));
  for (int w = 0; w < N_WORKERS; w++) {
    reset_counts();
    tcast_cast_options o = options_for(w);
    memset(got_arena, 'x', capacity);
    tcast_string_arena ga = {got_arena, capacity, 7};
    tcast_tensor out = tensor(got, N_TEXTS * sizeof(tcast_string), shape, 1, TCAST_DTYPE_STRING);
    CHECK_STATUS(tcast_cast_to_strings(&in, &out, &ga, &o, TC_ERR), TCAST_OK);
    check_split(w, "DOUBLE -> STRING");
    CHECK_EQ_INT(ga.used, ra.used);
    /* The arena's bytes up to `used` (past it they are scratch space, on one thread too). */
    CHECK_MSG(memcmp(want_arena, got_arena, (size_t)ra.used) == 0, "arena on %s differs",
              WORKER_NAMES[w]);
    int same = 1;
    for (int i = 0; i < N_TEXTS; i++) {
      same &= got[i].len == want[i].len && got[i].data - got_arena == want[i].data - want_arena;
    }
    CHECK_MSG(same, "views on %s differ", WORKER_NAMES[w]);

    /* And back: STRING -> DOUBLE gives the numbers again. */
    reset_counts();
    memset(back, 0, N_TEXTS * sizeof(double));
    tcast_tensor texts = tensor(got, N_TEXTS * sizeof(tcast_string), shape, 1, TCAST_DTYPE_STRING);
    tcast_tensor nums = tensor(back, N_TEXTS * sizeof(double), shape, 1, TCAST_DTYPE_DOUBLE);
    CHECK_STATUS(tcast_cast(&texts, &nums, &o, TC_ERR), TCAST_OK);
    check_split(w, "STRING -> DOUBLE");
    CHECK_MSG(memcmp(back, src, N_TEXTS * sizeof(double)) == 0, "round trip on %s differs",
              WORKER_NAMES[w]);
  }

  /* A tight arena: a task's region may run out although the whole fits; the call
   * still succeeds and gives the one-thread bytes. */
  size_t tight = (size_t)ra.used;
  for (int w = 0; w < N_WORKERS; w++) {
    tcast_cast_options o = options_for(w);
    memset(got_arena, 'x', capacity);
    tcast_string_arena ga = {got_arena, tight, 7};
    tcast_tensor out = tensor(got, N_TEXTS * sizeof(tcast_string), shape, 1, TCAST_DTYPE_STRING);
    CHECK_STATUS(tcast_cast_to_strings(&in, &out, &ga, &o, TC_ERR), TCAST_OK);
    CHECK_EQ_INT(ga.used, ra.used);
    CHECK_MSG(memcmp(want_arena, got_arena, (size_t)ra.used) == 0, "tight arena on %s differs",
              WORKER_NAMES[w]);
    ga.used = 7;
    ga.capacity = tight - 1;
    CHECK_STATUS(tcast_cast_to_strings(&in, &out, &ga, &o, TC_ERR), TCAST_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_INT(ga.used, 7);
  }

  /* Bad texts in several tasks' shares: the lowest index is reported, as on one thread.
   * (Fresh views first: the failed call above may have left anything in them.) */
  {
    tcast_string_arena ga = {got_arena, capacity, 7};
    tcast_tensor out = tensor(got, N_TEXTS * sizeof(tcast_string), shape, 1, TCAST_DTYPE_STRING);
    CHECK_STATUS(tcast_cast_to_strings(&in, &out, &ga, NULL, TC_ERR), TCAST_OK);
  }
  static const char bad[] = "1.5.2";
  got[N_TEXTS - 10].data = bad;
  got[N_TEXTS - 10].len = 5;
  got[N_TEXTS / 2 + 1].data = bad;
  got[N_TEXTS / 2 + 1].len = 5;
  got[N_TEXTS / 3].data = bad;
  got[N_TEXTS / 3].len = 3; /* "1.5" parses */
  tcast_tensor texts = tensor(got, N_TEXTS * sizeof(tcast_string), shape, 1, TCAST_DTYPE_STRING);
  tcast_tensor nums = tensor(back, N_TEXTS * sizeof(double), shape, 1, TCAST_DTYPE_DOUBLE);
  CHECK_STATUS(tcast_cast(&texts, &nums, NULL, TC_ERR), TCAST_ERR_PARSE);
  tcast_error serial = tc_err;
  CHECK_EQ_INT(serial.index, N_TEXTS / 2 + 1);
  for (int w = 0; w < N_WORKERS; w++) {
    tcast_cast_options o = options_for(w);
    CHECK_STATUS(tcast_cast(&texts, &nums, &o, TC_ERR), TCAST_ERR_PARSE);
    CHECK_EQ_INT(tc_err.index, serial.index);
    CHECK_EQ_STR(tc_err.message, serial.message);
  }
  free(src);
  free(back);
  free(want_arena);
  free(got_arena);
  free(want);
  free(got);
}

/* ---- bad executors and old options ------------------------------------------------ */

static void test_bad_executors(void) {
  int64_t n = 1 << 19;
  int64_t shape[1] = {n};
  float *src = calloc((size_t)n, 4);
  uint16_t *dst = calloc((size_t)n, 2);
  tcast_tensor in = tensor(src, (uint64_t)n * 4, shape, 1, TCAST_DTYPE_FLOAT);
  tcast_tensor out = tensor(dst, (uint64_t)n * 2, shape, 1, TCAST_DTYPE_FLOAT16);

  counts lazy_counts = {0, 0, 1};
  tcast_executor lazy = {&lazy_counts, reverse_for};
  tcast_cast_options o = tcast_cast_options_default();
  o.threads = THREADS;
  o.executor = &lazy;
  CHECK_STATUS(tcast_cast(&in, &out, &o, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "executor ran");

  tcast_executor none = {NULL, NULL};
  o.executor = &none;
  CHECK_STATUS(tcast_cast(&in, &out, &o, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "parallel_for is NULL");

  /* An options struct of the first layout (24 bytes) has no executor field: whatever
   * follows it in memory is not read. */
  struct {
    tcast_cast_options o;
  } old;
  memset(&old, 0xFF, sizeof old);
  old.o = tcast_cast_options_default();
  old.o.struct_size = 24;
  old.o.threads = THREADS;
  memset(&old.o.executor, 0xFF, sizeof old.o.executor);
  CHECK_STATUS(tcast_cast(&in, &out, &old.o, TC_ERR), TCAST_OK);
  free(src);
  free(dst);
}

int main(void) {
  for (int w = 0; w < N_WORKERS; w++) {
    EXECUTORS[w].ctx = &COUNTS[w];
  }
  EXECUTORS[PTHREADS].parallel_for = pthread_for;
  EXECUTORS[REVERSE].parallel_for = reverse_for;
  EXECUTORS[INLINE].parallel_for = inline_for;
  test_numeric_casts();
  test_small_calls_do_not_split();
  test_expand();
  test_format_and_parse();
  test_bad_executors();
  return tc_summary();
}
