/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * tc_check.h: the few assertion macros the C tests share.
 *
 * Every CHECK counts one pass or one failure; a failure prints the file, the line and
 * what differed to stderr and the program goes on. A test program ends with
 * `return tc_summary();`, which prints "N passed, N failed" on stdout and returns
 * nonzero if anything failed.
 *
 * Fallible calls pass TC_ERR (a file-level tcast_error) as their `err` argument and are
 * wrapped in CHECK_STATUS, which resets TC_ERR to a sentinel first, compares the status
 * and, when the call wrote TC_ERR, also checks that it is consistent with the status
 * (message NUL-terminated; index -1 and an empty message on success; a message on
 * failure).
 */
#ifndef TC_CHECK_H
#define TC_CHECK_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tensorcast.h"

static int tc_passed;
static int tc_failed;
static tcast_error tc_err;

#define TC_ERR (&tc_err)

/* A status value no call ever returns: tells "err was not written" apart. */
#define TC_SENTINEL_STATUS (-12345)
#define TC_SENTINEL_INDEX (-777)

#if defined(__GNUC__) || defined(__clang__)
#define TC_UNUSED __attribute__((unused))
#define TC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define TC_UNUSED
#define TC_PRINTF(a, b)
#endif

static TC_UNUSED TC_PRINTF(3, 4) void tc_fail(const char *file, int line, const char *fmt, ...);

static TC_UNUSED void tc_fail(const char *file, int line, const char *fmt, ...) {
  va_list args;
  tc_failed++;
  fprintf(stderr, "%s:%d: FAIL: ", file, line);
  va_start(args, fmt);
  vfprintf(stderr, fmt, args);
  va_end(args);
  fputc('\n', stderr);
}

static TC_UNUSED void tc_pass(void) { tc_passed++; }

/* Puts the sentinel into TC_ERR: 0xA5 bytes everywhere, so an unterminated write shows. */
static TC_UNUSED void tc_reset_err(void) {
  memset(&tc_err, 0xA5, sizeof tc_err);
  tc_err.status = TC_SENTINEL_STATUS;
  tc_err.index = TC_SENTINEL_INDEX;
}

/* True when the message has a NUL within TCAST_ERROR_MESSAGE_BYTES. */
static TC_UNUSED int tc_message_terminated(const tcast_error *err) {
  return memchr(err->message, '\0', TCAST_ERROR_MESSAGE_BYTES) != NULL;
}

static TC_UNUSED void tc_check_status(tcast_status got, tcast_status expected, const char *call,
                                      const char *file, int line) {
  if (got != expected) {
    tc_fail(file, line, "%s returned %d (%s), expected %d (%s); message: %s", call, (int)got,
            tcast_status_name(got), (int)expected, tcast_status_name(expected),
            tc_err.status == TC_SENTINEL_STATUS
                ? "(err not written)"
                : (tc_message_terminated(&tc_err) ? tc_err.message : "(not NUL-terminated)"));
    return;
  }
  tc_pass();
  if (tc_err.status == TC_SENTINEL_STATUS) {
    return; /* the call was given another err (or NULL) */
  }
  if (!tc_message_terminated(&tc_err)) {
    tc_fail(file, line, "%s: err->message is not NUL-terminated", call);
    return;
  }
  if (tc_err.status != got) {
    tc_fail(file, line, "%s: err->status is %d but the call returned %d", call,
            (int)tc_err.status, (int)got);
  } else if (got == TCAST_OK && (tc_err.index != -1 || tc_err.message[0] != '\0')) {
    tc_fail(file, line, "%s: on success err->index is %" PRId64 " and message \"%s\"", call,
            tc_err.index, tc_err.message);
  } else if (got != TCAST_OK && tc_err.message[0] == '\0') {
    tc_fail(file, line, "%s: failed with an empty err->message", call);
  } else if (got != TCAST_OK && tc_err.index < -1) {
    tc_fail(file, line, "%s: err->index is %" PRId64, call, tc_err.index);
  } else {
    tc_pass();
  }
}

static TC_UNUSED int tc_summary(void) {
  printf("%d passed, %d failed\n", tc_passed, tc_failed);
  fflush(stdout);
  return tc_failed != 0;
}

#define CHECK(cond)                                   \
  do {                                                \
    if (cond) {                                       \
      tc_pass();                                      \
    } else {                                          \
      tc_fail(__FILE__, __LINE__, "CHECK(%s)", #cond); \
    }                                                 \
  } while (0)

/* Like CHECK, with a printf-style explanation on failure. */
#define CHECK_MSG(cond, ...)                  \
  do {                                        \
    if (cond) {                               \
      tc_pass();                              \
    } else {                                  \
      tc_fail(__FILE__, __LINE__, __VA_ARGS__); \
    }                                         \
  } while (0)

/* Signed integers, compared as int64_t. */
#define CHECK_EQ_INT(actual, expected)                                                         \
  do {                                                                                         \
    int64_t tc_a_ = (int64_t)(actual), tc_e_ = (int64_t)(expected);                            \
    if (tc_a_ == tc_e_) {                                                                      \
      tc_pass();                                                                               \
    } else {                                                                                   \
      tc_fail(__FILE__, __LINE__, "%s is %" PRId64 ", expected %" PRId64, #actual, tc_a_, tc_e_); \
    }                                                                                          \
  } while (0)

/* Unsigned integers and bit patterns, compared as uint64_t and printed in hex too. */
#define CHECK_EQ_HEX(actual, expected)                                                        \
  do {                                                                                        \
    uint64_t tc_a_ = (uint64_t)(actual), tc_e_ = (uint64_t)(expected);                        \
    if (tc_a_ == tc_e_) {                                                                     \
      tc_pass();                                                                              \
    } else {                                                                                  \
      tc_fail(__FILE__, __LINE__, "%s is 0x%" PRIx64 " (%" PRIu64 "), expected 0x%" PRIx64    \
              " (%" PRIu64 ")", #actual, tc_a_, tc_a_, tc_e_, tc_e_);                         \
    }                                                                                         \
  } while (0)

#define CHECK_EQ_STR(actual, expected)                                                   \
  do {                                                                                   \
    const char *tc_a_ = (actual), *tc_e_ = (expected);                                   \
    if (tc_a_ != NULL && tc_e_ != NULL && strcmp(tc_a_, tc_e_) == 0) {                    \
      tc_pass();                                                                         \
    } else {                                                                             \
      tc_fail(__FILE__, __LINE__, "%s is \"%s\", expected \"%s\"", #actual,              \
              tc_a_ ? tc_a_ : "(NULL)", tc_e_ ? tc_e_ : "(NULL)");                       \
    }                                                                                    \
  } while (0)

/* Runs `call` (which should pass TC_ERR as its err) and compares its status. */
#define CHECK_STATUS(call, expected)                                         \
  do {                                                                       \
    tc_reset_err();                                                          \
    tc_check_status((call), (expected), #call, __FILE__, __LINE__);          \
  } while (0)

/* The message of a tcast_error pointer contains `needle`. */
#define CHECK_MSG_CONTAINS(err, needle)                                                      \
  do {                                                                                       \
    const tcast_error *tc_e_ = (err);                                                        \
    const char *tc_n_ = (needle);                                                            \
    if (tc_message_terminated(tc_e_) && strstr(tc_e_->message, tc_n_) != NULL) {             \
      tc_pass();                                                                             \
    } else {                                                                                 \
      tc_fail(__FILE__, __LINE__, "message \"%.*s\" does not contain \"%s\"",                \
              TCAST_ERROR_MESSAGE_BYTES - 1, tc_e_->message, tc_n_);                         \
    }                                                                                        \
  } while (0)

#endif /* TC_CHECK_H */
