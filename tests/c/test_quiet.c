/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * test_quiet.c: the library writes nothing to any file descriptor, whatever state the
 * host's stderr is in (docs/c-api.md section 8), and says what TCAST_DISABLE_CPU_FEATURES
 * did through tcast_cpu_info instead (section 10).
 *
 * The variable is read once per process, at the first call that needs the CPU's
 * features, so every case runs in a forked child that has not called the library yet:
 * the parent never calls it before the last fork. A child sets the variable (a name no
 * family knows, a known one and a byte that is not UTF-8), puts stderr in the state of
 * its case (closed; a pipe whose reader is gone; a full non-blocking pipe; an empty pipe
 * the parent reads), with SIGPIPE at its default or ignored, then runs casts, failing
 * ones among them, twice over, and checks every status, result and what tcast_cpu_info
 * reports. It sends its failures to the parent through a pipe of its own and exits 0
 * only if all passed; the parent checks it exited (not killed by SIGPIPE) with 0, and
 * that the pipes it reads got no byte from it.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tc_util.h"

/* What a child sets TCAST_DISABLE_CPU_FEATURES to: an unknown name, a known one (on
   x86-64) and a name that is a lone 0xff byte. */
static const char SETTING[] = "bogus, avx2,\xff";

/* The child's report pipe (its failures, one line each). */
static int report_fd = -1;
static int child_failures;

static void child_fail(const char *what) {
  size_t len = strlen(what);
  child_failures++;
  if (write(report_fd, what, len) != (ssize_t)len || write(report_fd, "\n", 1) != 1) {
    child_failures += 1000;
  }
}

#define CHILD_CHECK(cond)                                                                  \
  do {                                                                                     \
    if (!(cond)) child_fail(#cond);                                                        \
  } while (0)

/* One round of calls, all of which must behave as with any stderr. */
static void child_calls(void) {
  const float in[4] = {1.5f, -2.0f, 65520.0f, 0.0f};
  const uint16_t want[4] = {0x3e00, 0xc000, 0x7c00, 0x0000};
  uint16_t out[4] = {0, 0, 0, 0};
  const int64_t shape[1] = {4};
  const double values[2] = {0.5, -3.25};
  const int64_t two[1] = {2};
  tcast_string strings[2];
  tcast_tensor input = tensor(in, sizeof in, shape, 1, TCAST_DTYPE_FLOAT);
  tcast_tensor output = tensor(out, sizeof out, shape, 1, TCAST_DTYPE_FLOAT16);
  tcast_tensor numbers = tensor(values, sizeof values, two, 1, TCAST_DTYPE_DOUBLE);
  tcast_tensor texts = tensor(strings, sizeof strings, two, 1, TCAST_DTYPE_STRING);
  tcast_error err;
  char arena_bytes[64];
  tcast_string_arena arena;
  char text[256];
  uint64_t needed = 0;

  CHILD_CHECK(tcast_cast(&input, &output, NULL, &err) == TCAST_OK);
  CHILD_CHECK(memcmp(out, want, sizeof want) == 0);

  /* A failing call reports through err, as always. */
  output.data_bytes = 2;
  CHILD_CHECK(tcast_cast(&input, &output, NULL, &err) == TCAST_ERR_BUFFER_TOO_SMALL);
  CHILD_CHECK(err.status == TCAST_ERR_BUFFER_TOO_SMALL && err.message[0] != '\0');
  output.data_bytes = sizeof out;
  CHILD_CHECK(tcast_cast(NULL, &output, NULL, &err) == TCAST_ERR_NULL_ARGUMENT);

  /* Numbers to text, which runs the float kernels' detection too. */
  arena.data = arena_bytes;
  arena.capacity = sizeof arena_bytes;
  arena.used = 0;
  CHILD_CHECK(tcast_cast_to_strings(&numbers, &texts, &arena, NULL, &err) == TCAST_OK);
  CHILD_CHECK(strings[0].len == 3 && memcmp(strings[0].data, "0.5", 3) == 0);
  CHILD_CHECK(strings[1].len == 5 && memcmp(strings[1].data, "-3.25", 5) == 0);

  CHILD_CHECK(tcast_cpu_info(NULL, 0, &needed, &err) == TCAST_OK);
  CHILD_CHECK(needed > 1 && needed <= sizeof text);
  CHILD_CHECK(tcast_cpu_info(text, sizeof text, NULL, &err) == TCAST_OK);
  CHILD_CHECK(strlen(text) + 1 == needed);
  CHILD_CHECK(strstr(text, "\"bogus\"") != NULL);
  CHILD_CHECK(strstr(text, "\"\\xff\"") != NULL);
#if defined(__x86_64__)
  /* avx2 is a feature name here: withdrawn if the CPU has it, never unknown. */
  CHILD_CHECK(strstr(text, "\"avx2\"") == NULL);
  CHILD_CHECK(strstr(text, "kernels=avx2") == NULL);
  CHILD_CHECK(strncmp(text, "arch=x86_64 ", 12) == 0);
#else
  CHILD_CHECK(strstr(text, "\"avx2\"") != NULL);
#endif
}

/* How a case sets up the child's stderr. */
enum stderr_state { STDERR_CLOSED, STDERR_BROKEN_PIPE, STDERR_FULL_PIPE, STDERR_READ_PIPE };

static const char *const STATE_NAMES[] = {"closed", "a broken pipe", "a full pipe",
                                          "an empty pipe the parent reads"};

/* Fills the non-blocking pipe `fd` until a write would block; returns the bytes written. */
static long fill_pipe(int fd) {
  char block[4096];
  long total = 0;
  memset(block, 'x', sizeof block);
  for (;;) {
    ssize_t n = write(fd, block, sizeof block);
    if (n > 0) {
      total += (long)n;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    break;
  }
  /* A last partial block: single bytes until none fits. */
  for (;;) {
    ssize_t n = write(fd, block, 1);
    if (n == 1) {
      total++;
      continue;
    }
    break;
  }
  return total;
}

/* Reads `fd` to its end into `buf` (what fits, NUL-terminated); returns the bytes kept. */
static long read_all(int fd, char *buf, size_t capacity) {
  size_t len = 0;
  for (;;) {
    ssize_t n = read(fd, buf + len, capacity - 1 - len);
    if (n > 0) {
      len += (size_t)n;
      if (len == capacity - 1) break;
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;
    }
  }
  buf[len] = '\0';
  return (long)len;
}

/* The value of the field `name` (as "kernels=") in a tcast_cpu_info line, into `value`. */
static void field(const char *line, const char *name, char *value, size_t capacity) {
  const char *start = strstr(line, name);
  size_t len = 0;
  if (start != NULL) {
    start += strlen(name);
    while (start[len] != '\0' && start[len] != ' ' && len + 1 < capacity) len++;
    memcpy(value, start, len);
  }
  value[len] = '\0';
}

/* Reads `fd` to its end (the writer closed); returns the byte count. */
static long drain(int fd) {
  char block[4096];
  long total = 0;
  for (;;) {
    ssize_t n = read(fd, block, sizeof block);
    if (n > 0) {
      total += (long)n;
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;
    }
  }
  return total;
}

static void run_case(enum stderr_state state, int ignore_sigpipe) {
  int report[2], err_pipe[2] = {-1, -1};
  long filled = 0;
  pid_t pid;
  int wstatus = 0;
  char failures[4096];

  if (pipe(report) != 0) {
    tc_fail(__FILE__, __LINE__, "pipe: %s", strerror(errno));
    return;
  }
  if (state != STDERR_CLOSED) {
    if (pipe(err_pipe) != 0) {
      tc_fail(__FILE__, __LINE__, "pipe: %s", strerror(errno));
      return;
    }
    if (state == STDERR_FULL_PIPE) {
      int flags = fcntl(err_pipe[1], F_GETFL);
      if (flags < 0 || fcntl(err_pipe[1], F_SETFL, flags | O_NONBLOCK) != 0) {
        tc_fail(__FILE__, __LINE__, "fcntl: %s", strerror(errno));
        return;
      }
      filled = fill_pipe(err_pipe[1]);
    }
  }
  fflush(stdout);
  fflush(stderr);
  pid = fork();
  if (pid < 0) {
    tc_fail(__FILE__, __LINE__, "fork: %s", strerror(errno));
    return;
  }
  if (pid == 0) {
    int round;
    close(report[0]);
    report_fd = report[1];
    signal(SIGPIPE, ignore_sigpipe ? SIG_IGN : SIG_DFL);
    if (setenv("TCAST_DISABLE_CPU_FEATURES", SETTING, 1) != 0) _exit(3);
    if (state == STDERR_CLOSED) {
      close(2);
    } else {
      if (dup2(err_pipe[1], 2) != 2) _exit(4);
      close(err_pipe[1]);
      close(err_pipe[0]);
    }
    /* Twice: a call after the first must not find a half-done detection either. */
    for (round = 0; round < 2; round++) child_calls();
    _exit(child_failures == 0 ? 0 : 1);
  }
  close(report[1]);
  if (err_pipe[1] >= 0) close(err_pipe[1]);
  /* The reader of a broken pipe is gone before the child writes anything. */
  if (state == STDERR_BROKEN_PIPE) close(err_pipe[0]);
  read_all(report[0], failures, sizeof failures);
  close(report[0]);
  if (waitpid(pid, &wstatus, 0) != pid) {
    tc_fail(__FILE__, __LINE__, "waitpid: %s", strerror(errno));
    return;
  }
  if (WIFSIGNALED(wstatus)) {
    tc_fail(__FILE__, __LINE__, "stderr %s, SIGPIPE %s: the child died of signal %d",
            STATE_NAMES[state], ignore_sigpipe ? "ignored" : "default", WTERMSIG(wstatus));
  } else if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
    tc_fail(__FILE__, __LINE__, "stderr %s, SIGPIPE %s: exit %d; failed checks:\n%s",
            STATE_NAMES[state], ignore_sigpipe ? "ignored" : "default",
            WEXITSTATUS(wstatus), failures);
  } else {
    tc_pass();
  }
  if (state == STDERR_FULL_PIPE || state == STDERR_READ_PIPE) {
    long total = drain(err_pipe[0]);
    close(err_pipe[0]);
    if (total != filled) {
      tc_fail(__FILE__, __LINE__, "stderr %s, SIGPIPE %s: the child wrote %ld bytes to it",
              STATE_NAMES[state], ignore_sigpipe ? "ignored" : "default", total - filled);
    } else {
      tc_pass();
    }
  }
}

/* The line tcast_cpu_info writes in a child with `setting` (NULL: unset). */
static void cpu_info_with(const char *setting, char *line, size_t capacity) {
  int report[2];
  pid_t pid;
  int wstatus = 0;
  line[0] = '\0';
  if (pipe(report) != 0) return;
  fflush(stdout);
  pid = fork();
  if (pid == 0) {
    char text[1024];
    size_t len;
    uint64_t needed = 0;
    close(report[0]);
    if (setting != NULL) {
      if (setenv("TCAST_DISABLE_CPU_FEATURES", setting, 1) != 0) _exit(3);
    } else if (unsetenv("TCAST_DISABLE_CPU_FEATURES") != 0) {
      _exit(3);
    }
    if (tcast_cpu_info(text, sizeof text, &needed, NULL) != TCAST_OK) _exit(1);
    len = strlen(text);
    /* The line is text: no NUL before its end, which `needed` counts once. */
    if (needed != (uint64_t)len + 1) _exit(5);
    _exit(write(report[1], text, len) == (ssize_t)len ? 0 : 2);
  }
  close(report[1]);
  if (pid < 0) {
    close(report[0]);
    return;
  }
  read_all(report[0], line, capacity);
  close(report[0]);
  waitpid(pid, &wstatus, 0);
  if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) line[0] = '\0';
}

int main(void) {
  enum stderr_state state;
  char line[1024], value[256];

  for (state = STDERR_CLOSED; state <= STDERR_READ_PIPE; state++) {
    run_case(state, 0);
    run_case(state, 1);
  }

  /* What the variable did, as tcast_cpu_info tells it. */
  cpu_info_with(NULL, line, sizeof line);
  CHECK(strstr(line, " withdrawn=none unknown=none") != NULL);
  field(line, " kernels=", value, sizeof value);
#if defined(__x86_64__)
  CHECK(strstr(value, "sse2") != NULL);
#endif
  CHECK(strncmp(line, "arch=", 5) == 0);
  cpu_info_with("all", line, sizeof line);
  CHECK(strstr(line, " kernels=portable ") != NULL);
  CHECK(strstr(line, " unknown=none") != NULL);
  cpu_info_with("avx3,\"q\\,\t,\x01", line, sizeof line);
  CHECK(strstr(line, " unknown=\"avx3\",\"\\x22q\\x5c\",\"\\x01\"") != NULL);
  {
    /* An unknown list cut inside an escaped byte (issue 37): printable ASCII to its end,
       ending in the ellipsis, and `needed` is its length + 1 (the child checks that). */
    static char setting[3 + 10000 + 1] = "aa,";
    size_t i;
    int printable = 1;
    memset(setting + 3, 0x01, 10000);
    cpu_info_with(setting, line, sizeof line);
    CHECK(strstr(line, " unknown=\"aa\",\"\\x01") != NULL);
    CHECK(strlen(line) > 3 && strcmp(line + strlen(line) - 7, "\\x01...") == 0);
    for (i = 0; line[i] != '\0'; i++) printable &= line[i] >= 0x20 && line[i] < 0x7f;
    CHECK(printable);
  }
#if defined(__x86_64__)
  /* SSE2 is on every x86-64 CPU: withdrawn by name, it is reported so. */
  cpu_info_with("sse2", line, sizeof line);
  field(line, " withdrawn=", value, sizeof value);
  CHECK(strcmp(value, "sse2") == 0);
  field(line, " kernels=", value, sizeof value);
  CHECK(value[0] != '\0' && strstr(value, "sse2") == NULL);
  /* The AVX-512 build of the AVX2 kernels, where the CPU and the compiler have it:
     withdrawn by one of its features, the AVX2 family stays. */
  cpu_info_with(NULL, line, sizeof line);
  field(line, " kernels=", value, sizeof value);
  if (strstr(value, "avx512") != NULL) {
    int vbmi = strstr(value, "avx512vbmi") != NULL;
    CHECK(strstr(value, "avx2") != NULL);
    cpu_info_with("avx512vl", line, sizeof line);
    field(line, " withdrawn=", value, sizeof value);
    /* The VBMI build of the FLOAT6 decoders needs the AVX-512 build's features too. */
    CHECK(strcmp(value, vbmi ? "avx512,avx512vbmi" : "avx512") == 0);
    field(line, " kernels=", value, sizeof value);
    CHECK(strstr(value, "avx2") != NULL && strstr(value, "avx512") == NULL);
    if (vbmi) {
      /* Withdrawn by its own feature, the VBMI build goes and the AVX-512 one stays. */
      cpu_info_with("avx512vbmi", line, sizeof line);
      field(line, " withdrawn=", value, sizeof value);
      CHECK(strcmp(value, "avx512vbmi") == 0);
      field(line, " kernels=", value, sizeof value);
      CHECK(strstr(value, "avx512") != NULL && strstr(value, "avx512vbmi") == NULL);
    }
  }
  /* A feature name of the AVX-512 build is known even where it is not built. */
  cpu_info_with("avx512bw", line, sizeof line);
  CHECK(strstr(line, " unknown=none") != NULL);
  cpu_info_with("avx512vbmi", line, sizeof line);
  CHECK(strstr(line, " unknown=none") != NULL);
#endif
  return tc_summary();
}
