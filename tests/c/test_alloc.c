/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Memory: what the library allocates, and what it does when it cannot.
 *
 * 1. No heap allocation on the success path of a numeric cast, Expand, Bitcast or a
 *    shape or query function (docs/c-api.md section 1). This program interposes malloc and
 *    its siblings (glibc's __libc_* entry points do the work) and counts the calls made
 *    while a tensorcast call runs: every numeric dtype pair at 1, 7, 32, 33 and 1000
 *    elements, default and explicit options, strided inputs; Expand, Bitcast and the
 *    shape and query functions.
 *
 * 2. Allocation failure is an error, not an abort (docs/c-api.md section 1): each path that
 *    needed memory growing with its input runs in a forked child whose address space may
 *    grow by only a few MB (RLIMIT_AS). Paths that no longer allocate must succeed there;
 *    paths that must allocate (a numpy dtype parsed from a huge spec) must fail with
 *    TCAST_ERR_OUT_OF_MEMORY. Before, Rust aborted the whole process (SIGABRT).
 *
 * Interposing malloc and valgrind's own replacement exclude each other, and valgrind
 * does not survive a limited address space, so CMake runs this program natively only
 * (see CMakeLists.txt). Under an emulator that does not apply RLIMIT_AS (qemu-user, in
 * the cross runs of scripts/test-cross.sh), part 2 cannot run: the program says so on a
 * "NOT RUN:" line, and the native runs do it. */
#define _GNU_SOURCE
#include <errno.h>
#include <malloc.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tc_util.h"

#ifndef __GLIBC__
#error "test_alloc.c interposes malloc through glibc's __libc_malloc family"
#endif

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static volatile int counting;
static volatile long allocations;

static void count(void) {
  if (counting) {
    allocations++;
  }
}

void *malloc(size_t size) {
  count();
  return __libc_malloc(size);
}

void *calloc(size_t n, size_t size) {
  count();
  return __libc_calloc(n, size);
}

void *realloc(void *ptr, size_t size) {
  count();
  return __libc_realloc(ptr, size);
}

void *memalign(size_t alignment, size_t size) {
  count();
  return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
  count();
  return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
  count();
  void *p = __libc_memalign(alignment, size);
  if (p == NULL) {
    return ENOMEM;
  }
  *out = p;
  return 0;
}

#define START() (allocations = 0, counting = 1)
#define STOP() (counting = 0, allocations)

/* Every numeric dtype (all but UNDEFINED and STRING). */
static const tcast_dtype NUMERIC[] = {
    TCAST_DTYPE_FLOAT,          TCAST_DTYPE_UINT8,          TCAST_DTYPE_INT8,
    TCAST_DTYPE_UINT16,         TCAST_DTYPE_INT16,          TCAST_DTYPE_INT32,
    TCAST_DTYPE_INT64,          TCAST_DTYPE_BOOL,           TCAST_DTYPE_FLOAT16,
    TCAST_DTYPE_DOUBLE,         TCAST_DTYPE_UINT32,         TCAST_DTYPE_UINT64,
    TCAST_DTYPE_COMPLEX64,      TCAST_DTYPE_COMPLEX128,     TCAST_DTYPE_BFLOAT16,
    TCAST_DTYPE_FLOAT8E4M3FN,   TCAST_DTYPE_FLOAT8E4M3FNUZ, TCAST_DTYPE_FLOAT8E5M2,
    TCAST_DTYPE_FLOAT8E5M2FNUZ, TCAST_DTYPE_UINT4,          TCAST_DTYPE_INT4,
    TCAST_DTYPE_FLOAT4E2M1,     TCAST_DTYPE_FLOAT8E8M0,     TCAST_DTYPE_UINT2,
    TCAST_DTYPE_INT2,           TCAST_DTYPE_FLOAT6E2M3,     TCAST_DTYPE_FLOAT6E3M2,
    TCAST_DTYPE_QINT8,          TCAST_DTYPE_QUINT8,         TCAST_DTYPE_QINT16,
    TCAST_DTYPE_QUINT16,        TCAST_DTYPE_QINT32,
};
#define N_NUMERIC ((int)(sizeof NUMERIC / sizeof NUMERIC[0]))

static uint64_t bytes_for(tcast_dtype dtype, int64_t n) {
  uint64_t bytes = 0;
  int64_t shape[1] = {n};
  if (tcast_tensor_bytes(dtype, shape, 1, &bytes, NULL) != TCAST_OK) {
    fprintf(stderr, "tcast_tensor_bytes failed\n");
    exit(2);
  }
  return bytes;
}

/* The counter sees the library's allocations: an error message is formatted on the
 * heap, so a failing call must be counted. */
static void test_the_counter_works(void) {
  int64_t shape[1] = {4};
  float in[4] = {0};
  float out[4];
  tcast_tensor a = tensor(in, sizeof in, shape, 1, 555);
  tcast_tensor b = tensor(out, sizeof out, shape, 1, TCAST_DTYPE_FLOAT);
  START();
  tcast_status status = tcast_cast(&a, &b, NULL, TC_ERR);
  long seen = STOP();
  CHECK_EQ_INT(status, TCAST_ERR_INVALID_DTYPE);
  CHECK(seen > 0);
}

static void test_numeric_casts(void) {
  static const int64_t counts[] = {1, 7, 32, 33, 1000};
  tcast_cast_options explicit_options = tcast_cast_options_default();
  explicit_options.saturate = 0;
  explicit_options.round_mode = TCAST_ROUND_NEAREST;
  const tcast_cast_options *option_sets[2] = {NULL, &explicit_options};
  uint64_t seed = 0x2545F4914F6CDD1Dull;
  uint8_t *in = xmalloc(16 * 1000);
  uint8_t *out = xmalloc(16 * 1000);
  int checked = 0;
  for (int i = 0; i < N_NUMERIC; i++) {
    for (int j = 0; j < N_NUMERIC; j++) {
      for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        int64_t shape[1] = {counts[c]};
        uint64_t in_bytes = bytes_for(NUMERIC[i], counts[c]);
        for (uint64_t k = 0; k < in_bytes; k++) {
          in[k] = (uint8_t)xorshift64star(&seed);
        }
        tcast_tensor a = tensor(in, in_bytes, shape, 1, NUMERIC[i]);
        tcast_tensor b = tensor(out, bytes_for(NUMERIC[j], counts[c]), shape, 1, NUMERIC[j]);
        for (int o = 0; o < 2; o++) {
          START();
          tcast_status status = tcast_cast(&a, &b, option_sets[o], TC_ERR);
          long seen = STOP();
          if (status != TCAST_OK || seen != 0) {
            tc_fail(__FILE__, __LINE__, "%s -> %s, %" PRId64 " elements, options %d: status %d (%s), %ld allocations",
                    tcast_dtype_name(NUMERIC[i]), tcast_dtype_name(NUMERIC[j]), counts[c], o,
                    status, tc_err.message, seen);
          } else {
            tc_pass();
          }
          checked++;
        }
      }
    }
  }
  CHECK_EQ_INT(checked, N_NUMERIC * N_NUMERIC * 5 * 2);
  free(in);
  free(out);
}

/* Strided inputs (column-major view, a zero stride) of the byte-sized dtypes. */
static void test_strided_casts(void) {
  static const int64_t shape[2] = {33, 7};
  static const int64_t strides[2][2] = {{1, 33}, {0, 1}};
  uint8_t *in = xmalloc(16 * 33 * 7);
  uint8_t *out = xmalloc(16 * 33 * 7);
  memset(in, 0x41, 16 * 33 * 7);
  for (int i = 0; i < N_NUMERIC; i++) {
    if (tcast_dtype_bits(NUMERIC[i]) % 8 != 0) {
      continue; /* packed dtypes take no strides */
    }
    for (int j = 0; j < N_NUMERIC; j++) {
      for (int s = 0; s < 2; s++) {
        tcast_tensor a = tensor(in, 16 * 33 * 7, shape, 2, NUMERIC[i]);
        a.strides = strides[s];
        tcast_tensor b = tensor(out, bytes_for(NUMERIC[j], 33 * 7), shape, 2, NUMERIC[j]);
        START();
        tcast_status status = tcast_cast(&a, &b, NULL, TC_ERR);
        long seen = STOP();
        if (status != TCAST_OK || seen != 0) {
          tc_fail(__FILE__, __LINE__, "strided %s -> %s: status %d (%s), %ld allocations",
                  tcast_dtype_name(NUMERIC[i]), tcast_dtype_name(NUMERIC[j]), status,
                  tc_err.message, seen);
        } else {
          tc_pass();
        }
      }
    }
  }
  free(in);
  free(out);
}

static void test_expand_and_bitcast(void) {
  static const int64_t in_shape[2] = {3, 1};
  static const int64_t out_shape[3] = {2, 3, 33};
  uint8_t in[64], out[16 * 2 * 3 * 33];
  memset(in, 0x3c, sizeof in);
  for (int i = 0; i < N_NUMERIC; i++) {
    tcast_tensor a = tensor(in, bytes_for(NUMERIC[i], 3), in_shape, 2, NUMERIC[i]);
    tcast_tensor b = tensor(out, bytes_for(NUMERIC[i], 2 * 3 * 33), out_shape, 3, NUMERIC[i]);
    START();
    tcast_status status = tcast_expand(&a, &b, TC_ERR);
    long seen = STOP();
    CHECK_EQ_INT(status, TCAST_OK);
    CHECK_EQ_INT(seen, 0);

    int64_t result[TCAST_MAX_NDIM];
    int32_t rank = 0;
    START();
    status = tcast_expand_shape(in_shape, 2, out_shape, 3, result, TCAST_MAX_NDIM, &rank, TC_ERR);
    seen = STOP();
    CHECK_EQ_INT(status, TCAST_OK);
    CHECK_EQ_INT(seen, 0);

    for (int j = 0; j < N_NUMERIC; j++) {
      for (int32_t rules = TCAST_BITCAST_TF; rules <= TCAST_BITCAST_NUMPY_VIEW; rules++) {
        static const int64_t shape[2] = {2, 8};
        START();
        status = tcast_bitcast_shape(NUMERIC[i], shape, 2, NUMERIC[j], rules, result,
                                     TCAST_MAX_NDIM, &rank, TC_ERR);
        seen = STOP();
        if (status != TCAST_OK) {
          continue; /* a pair these rules refuse; errors may allocate */
        }
        CHECK_EQ_INT(seen, 0);
        tcast_tensor src = tensor(out, bytes_for(NUMERIC[i], 16), shape, 2, NUMERIC[i]);
        tcast_tensor view;
        START();
        status = tcast_bitcast(&src, NUMERIC[j], rules, &view, result, TCAST_MAX_NDIM, TC_ERR);
        seen = STOP();
        CHECK_EQ_INT(status, TCAST_OK);
        CHECK_EQ_INT(seen, 0);
      }
    }
  }
}

static void test_queries(void) {
  for (int i = 0; i < N_NUMERIC; i++) {
    static const int64_t shape[3] = {5, 0, 3};
    uint64_t bytes = 0;
    tcast_dtype back = 0;
    START();
    tcast_status status = tcast_tensor_bytes(NUMERIC[i], shape, 3, &bytes, TC_ERR);
    status |= tcast_dtype_from_name(tcast_dtype_name(NUMERIC[i]), &back, TC_ERR);
    (void)tcast_dtype_bits(NUMERIC[i]);
    (void)tcast_string_max_bytes(NUMERIC[i]);
    (void)tcast_status_name(TCAST_ERR_PARSE);
    (void)tcast_version();
    long seen = STOP();
    CHECK_EQ_INT(status, TCAST_OK);
    CHECK_EQ_INT(back, NUMERIC[i]);
    CHECK_EQ_INT(seen, 0);
    for (int j = 0; j < N_NUMERIC; j++) {
      int32_t result = -1;
      START();
      status = tcast_can_cast(NUMERIC[i], NUMERIC[j], TCAST_CASTING_SAME_KIND, &result, TC_ERR);
      (void)tcast_onnx_cast_supported(NUMERIC[i], NUMERIC[j], 28);
      seen = STOP();
      CHECK_EQ_INT(status, TCAST_OK);
      CHECK_EQ_INT(seen, 0);
    }
  }
  /* numpy handles: parsing allocates the handle; the queries on it do not. */
  static const char *specs[] = {"<i4", "f8", "S10", "<U3", "M8[ns]", "?", "O", "V8", "i4,f8"};
  enum { N_SPECS = sizeof specs / sizeof specs[0] };
  tcast_np_dtype *handles[N_SPECS];
  for (int i = 0; i < N_SPECS; i++) {
    CHECK_STATUS(tcast_np_dtype_parse(specs[i], &handles[i], TC_ERR), TCAST_OK);
  }
  for (int i = 0; i < N_SPECS; i++) {
    for (int j = 0; j < N_SPECS; j++) {
      for (int32_t rules = TCAST_NUMPY_1; rules <= TCAST_NUMPY_2; rules++) {
        int32_t level = -1, result = -1;
        START();
        tcast_status status = tcast_np_casting_level(handles[i], handles[j], rules, &level, TC_ERR);
        status |= tcast_np_can_cast(handles[i], handles[j], TCAST_CASTING_SAFE, rules, &result,
                                    TC_ERR);
        long seen = STOP();
        CHECK_EQ_INT(status, TCAST_OK);
        CHECK_EQ_INT(seen, 0);
      }
    }
  }
  for (int i = 0; i < N_SPECS; i++) {
    tcast_np_dtype_free(handles[i]);
  }
}

/* ---- 2. allocation failure ---- */

/* The bytes of address space this process uses now. */
static size_t address_space_bytes(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  unsigned long pages = 0;
  if (f == NULL || fscanf(f, "%lu", &pages) != 1) {
    fprintf(stderr, "cannot read /proc/self/statm\n");
    exit(2);
  }
  fclose(f);
  return (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
}

/* Runs body(ctx) in a forked child whose address space may grow by at most `headroom`
 * bytes, and returns the status it returned, or -N when signal N killed it (an abort is
 * -SIGABRT). */
static int run_limited(tcast_status (*body)(void *), void *ctx, size_t headroom) {
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    perror("fork");
    exit(2);
  }
  if (pid == 0) {
    malloc_trim(0); /* what the parent freed is not headroom */
    size_t limit = address_space_bytes() + headroom;
    struct rlimit r = {limit, limit};
    if (setrlimit(RLIMIT_AS, &r) != 0) {
      _exit(200);
    }
    _exit(body(ctx) & 0xff);
  }
  int wstatus = 0;
  if (waitpid(pid, &wstatus, 0) != pid) {
    perror("waitpid");
    exit(2);
  }
  return WIFSIGNALED(wstatus) ? -WTERMSIG(wstatus) : WEXITSTATUS(wstatus);
}

#define HEADROOM ((size_t)4 << 20)

/* The probe of limit_binds: maps 256 MB, far beyond HEADROOM. */
static tcast_status map_far_beyond(void *ctx) {
  (void)ctx;
  void *p = mmap(NULL, (size_t)256 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                 -1, 0);
  return p == MAP_FAILED ? TCAST_OK : TCAST_ERR_INTERNAL;
}

/* Whether run_limited's limit binds here. An emulator such as qemu-user accepts
 * setrlimit(RLIMIT_AS) but does not apply it (it would limit the emulator itself), and
 * then every check under a limit would pass without testing anything. */
static int limit_binds(void) { return run_limited(map_far_beyond, NULL, HEADROOM) == TCAST_OK; }

/* STRING -> UINT2 (and the other packed targets) of many strings: the codes used to be
 * collected in a temporary of one byte per element before packing. */
typedef struct {
  tcast_dtype to;
  int64_t n;
  uint8_t *out;
} parse_job;

static tcast_status parse_many(void *ctx) {
  parse_job *job = ctx;
  static const char one[] = "1";
  tcast_string view = {one, 1};
  int64_t shape[1] = {job->n};
  int64_t zero_stride[1] = {0}; /* one view, read n times */
  tcast_tensor in = tensor(&view, sizeof view, shape, 1, TCAST_DTYPE_STRING);
  in.strides = zero_stride;
  tcast_tensor out = tensor(job->out, bytes_for(job->to, job->n), shape, 1, job->to);
  return tcast_cast(&in, &out, NULL, TC_ERR);
}

static void test_string_parse_into_packed_under_a_limit(void) {
  static const tcast_dtype targets[] = {TCAST_DTYPE_UINT2, TCAST_DTYPE_INT4,
                                        TCAST_DTYPE_FLOAT4E2M1, TCAST_DTYPE_FLOAT6E3M2};
  for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
    /* 8M codes: the old temporary (8 MB) does not fit in the 4 MB headroom. */
    parse_job job = {targets[t], (int64_t)8 << 20, NULL};
    job.out = xmalloc(bytes_for(job.to, job.n));
    memset(job.out, 0xAA, bytes_for(job.to, job.n));
    int got = run_limited(parse_many, &job, HEADROOM);
    if (got != TCAST_OK) {
      tc_fail(__FILE__, __LINE__, "STRING -> %s of %" PRId64 " strings under a %zu-byte headroom: %d",
              tcast_dtype_name(job.to), job.n, HEADROOM, got);
    } else {
      tc_pass();
    }
    /* And the result, in this process without a limit: every whole group of codes
     * (4 elements) is that of a 4-element cast. */
    CHECK_EQ_INT(parse_many(&job), TCAST_OK);
    uint8_t group[3];
    parse_job small = {job.to, 4, group};
    CHECK_EQ_INT(parse_many(&small), TCAST_OK);
    uint64_t g = bytes_for(job.to, 4), total = bytes_for(job.to, job.n);
    CHECK(memcmp(job.out, group, g) == 0);
    CHECK(memcmp(job.out + total / 2, group, g) == 0);
    CHECK(memcmp(job.out + total - g, group, g) == 0);
    free(job.out);
  }
}

/* tcast_cast_to_strings from a packed input: it used to unpack the whole input into a
 * temporary first. */
typedef struct {
  int64_t n;
  uint8_t *in;
  tcast_string *views;
  char *arena;
} format_job;

static tcast_status format_many(void *ctx) {
  format_job *job = ctx;
  int64_t shape[1] = {job->n};
  tcast_tensor in = tensor(job->in, bytes_for(TCAST_DTYPE_UINT4, job->n), shape, 1, TCAST_DTYPE_UINT4);
  tcast_tensor out = tensor(job->views, (uint64_t)job->n * sizeof(tcast_string), shape, 1,
                            TCAST_DTYPE_STRING);
  uint64_t capacity = (uint64_t)job->n * tcast_string_max_bytes(TCAST_DTYPE_UINT4);
  tcast_string_arena arena = {job->arena, capacity, 0};
  return tcast_cast_to_strings(&in, &out, &arena, NULL, TC_ERR);
}

static void test_format_from_packed_under_a_limit(void) {
  format_job job;
  job.n = (int64_t)8 << 20;
  job.in = xmalloc(bytes_for(TCAST_DTYPE_UINT4, job.n));
  for (int64_t i = 0; i < job.n / 2; i++) {
    job.in[i] = (uint8_t)(i * 37);
  }
  job.views = xmalloc((size_t)job.n * sizeof(tcast_string));
  job.arena = xmalloc((size_t)job.n * tcast_string_max_bytes(TCAST_DTYPE_UINT4));
  int got = run_limited(format_many, &job, HEADROOM);
  if (got != TCAST_OK) {
    tc_fail(__FILE__, __LINE__, "UINT4 -> STRING of %" PRId64 " elements under a limit: %d", job.n, got);
  } else {
    tc_pass();
  }
  CHECK_EQ_INT(format_many(&job), TCAST_OK);
  /* Element 2k+1 is the high nibble of byte k. */
  char expect[8];
  int64_t k = 12345;
  snprintf(expect, sizeof expect, "%d", (uint8_t)(k * 37) >> 4);
  CHECK(job.views[2 * k + 1].len == strlen(expect) &&
        memcmp(job.views[2 * k + 1].data, expect, strlen(expect)) == 0);
  free(job.in);
  free(job.views);
  free(job.arena);
}

/* numpy dtype specs: parsing one allocates the handle and its fields, a structured
 * spec of a million bytes a lot of them. Under a small limit that must be
 * TCAST_ERR_OUT_OF_MEMORY from every function that parses a spec, and under a large one
 * success. */
typedef struct {
  const char *spec;
  int what; /* 0 parse, 1 can_cast_str, 2 promote_types, 3 str of a parsed handle */
  const tcast_np_dtype *handle;
} spec_job;

static tcast_status spec_call(void *ctx) {
  spec_job *job = ctx;
  int32_t result = -1;
  static char buf[64];
  switch (job->what) {
    case 0: {
      tcast_np_dtype *h = NULL;
      tcast_status status = tcast_np_dtype_parse(job->spec, &h, TC_ERR);
      tcast_np_dtype_free(h);
      return status;
    }
    case 1:
      return tcast_np_can_cast_str(job->spec, job->spec, "safe", TCAST_NUMPY_1, &result, TC_ERR);
    case 2: {
      /* The promoted struct's text does not fit in buf either. */
      tcast_status status = tcast_np_promote_types(job->spec, job->spec, buf, sizeof buf, NULL, TC_ERR);
      return status == TCAST_ERR_BUFFER_TOO_SMALL ? TCAST_OK : status;
    }
    default: {
      /* str() of a million-field dtype is megabytes long: it must not fit in buf, and
       * building it under the limit must not abort. */
      tcast_status status = tcast_np_dtype_str(job->handle, buf, sizeof buf, NULL, TC_ERR);
      return status == TCAST_ERR_BUFFER_TOO_SMALL ? TCAST_OK : status;
    }
  }
}

static void test_huge_specs_under_a_limit(void) {
  /* "f8," x 350,000: about a megabyte, 350,000 fields. */
  enum { FIELDS = 350000 };
  char *spec = xmalloc(3 * FIELDS + 1);
  for (int i = 0; i < FIELDS; i++) {
    memcpy(spec + 3 * i, "f8,", 3);
  }
  spec[3 * FIELDS] = '\0';
  tcast_np_dtype *handle = NULL;
  CHECK_STATUS(tcast_np_dtype_parse(spec, &handle, TC_ERR), TCAST_OK);
  static const char *names[] = {"tcast_np_dtype_parse", "tcast_np_can_cast_str",
                                "tcast_np_promote_types", "tcast_np_dtype_str"};
  for (int what = 0; what < 4; what++) {
    spec_job job = {spec, what, handle};
    int got = run_limited(spec_call, &job, (size_t)1 << 20);
    /* dtype_str may fit its text in a megabyte; the parses cannot fit their fields. */
    if (got != TCAST_ERR_OUT_OF_MEMORY && !(what == 3 && got == TCAST_OK)) {
      tc_fail(__FILE__, __LINE__, "%s of a %d-field spec under a 1 MB headroom: %d (%s)",
              names[what], FIELDS, got, got < 0 ? "killed by a signal" : tcast_status_name(got));
    } else {
      tc_pass();
    }
    got = run_limited(spec_call, &job, (size_t)2 << 30);
    if (got != TCAST_OK) {
      tc_fail(__FILE__, __LINE__, "%s of a %d-field spec under a 2 GB headroom: %d", names[what],
              FIELDS, got);
    } else {
      tc_pass();
    }
  }
  tcast_np_dtype_free(handle);
  free(spec);
}

int main(void) {
  test_the_counter_works();
  test_numeric_casts();
  test_strided_casts();
  test_expand_and_bitcast();
  test_queries();
  /* Large blocks always from mmap and back to the system when freed: the heap keeps no
   * free megabytes that a limited child could use without growing. */
  mallopt(M_MMAP_THRESHOLD, 64 << 10);
  mallopt(M_TRIM_THRESHOLD, 64 << 10);
  /* tests/c_suite.rs names the emulator it runs this program under in TCAST_TEST_EMULATOR;
     natively the limit must bind. */
  const char *emulator = getenv("TCAST_TEST_EMULATOR");
  if (limit_binds()) {
    test_string_parse_into_packed_under_a_limit();
    test_format_from_packed_under_a_limit();
    test_huge_specs_under_a_limit();
  } else if (emulator != NULL && emulator[0] != '\0') {
    printf("NOT RUN: the checks under a limited address space (section 2): %s does not apply "
           "RLIMIT_AS; they run natively\n",
           emulator);
  } else {
    tc_fail(__FILE__, __LINE__, "RLIMIT_AS does not bind here: the checks under a limit cannot run");
  }
  return tc_summary();
}
