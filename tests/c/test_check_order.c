/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The order of the checks (docs/c-api.md section 8): when several things are wrong, the
 * status is that of the first failed check in this order, for every operation: NULL
 * pointers; dtype codes, then dtypes that must agree (or the pair the operation takes);
 * option values; shapes; buffer and capacity sizes; overlap of input and output, judged
 * on the byte ranges the validated shapes describe.
 *
 * Each test builds a call with every defect of its list at once, then mends them one by
 * one in the documented order: each call must fail with the status of the first defect
 * still there, and a call with none must succeed. Every combination runs twice, with
 * the output far from the input and right after the input's data_bytes (inside the
 * range the input's shape describes when its data_bytes are short): the status may not
 * depend on where the buffers lie, except for overlap itself. Also: option errors name
 * the C constants, and a text argument that is not UTF-8 is TCAST_ERR_PARSE. */
#include <stdlib.h>

#include "tc_check.h"
#include "tc_util.h"

#define ARENA_BYTES 4096
static unsigned char memory[ARENA_BYTES];

/* Where the output goes: 0 = far from the input, 1 = right after the input's
 * data_bytes, 2 = over the input (the overlap defect). */
enum { FAR = 0, ADJACENT = 1, OVERLAPPING = 2 };

static unsigned char *output_at(int placement, uint64_t in_data_bytes) {
  switch (placement) {
    case FAR:
      return memory + 2048;
    case ADJACENT:
      return memory + in_data_bytes;
    default:
      return memory + 4;
  }
}

/* ---- tcast_cast ---- */
enum {
  CAST_NULL_SHAPE,    /* input shape NULL with ndim 1 */
  CAST_BAD_DTYPE,     /* input dtype 555 */
  CAST_BAD_PAIR,      /* output STRING: tcast_cast does not format numbers */
  CAST_BAD_OPTION,    /* saturate 7 */
  CAST_REFUSED,       /* casting SAFE: FLOAT -> FLOAT16 is not safe */
  CAST_BAD_SHAPE,     /* output shape [9] for input [8] */
  CAST_SHORT_BUFFER,  /* input data_bytes 16 for 8 floats */
  CAST_OVERLAP,       /* output over the input */
  CAST_DEFECTS
};
static const tcast_status cast_status[CAST_DEFECTS] = {
    TCAST_ERR_NULL_ARGUMENT, TCAST_ERR_INVALID_DTYPE, TCAST_ERR_UNSUPPORTED,
    TCAST_ERR_INVALID_ARGUMENT, TCAST_ERR_CASTING, TCAST_ERR_INVALID_SHAPE,
    TCAST_ERR_BUFFER_TOO_SMALL, TCAST_ERR_INVALID_ARGUMENT,
};

static tcast_status cast_with(unsigned defects, int placement) {
  static const int64_t s8[1] = {8}, s9[1] = {9};
  uint64_t in_bytes = (defects & (1u << CAST_SHORT_BUFFER)) ? 16 : 32;
  tcast_tensor in = tensor(memory, in_bytes, s8, 1, TCAST_DTYPE_FLOAT);
  if (defects & (1u << CAST_NULL_SHAPE)) in.shape = NULL;
  if (defects & (1u << CAST_BAD_DTYPE)) in.dtype = 555;
  if (defects & (1u << CAST_OVERLAP)) placement = OVERLAPPING;
  tcast_tensor out = tensor(output_at(placement, in_bytes), 16, s8, 1, TCAST_DTYPE_FLOAT16);
  if (defects & (1u << CAST_BAD_PAIR)) out.dtype = TCAST_DTYPE_STRING;
  if (defects & (1u << CAST_BAD_SHAPE)) out.shape = s9;
  tcast_cast_options options = tcast_cast_options_default();
  if (defects & (1u << CAST_BAD_OPTION)) options.saturate = 7;
  if (defects & (1u << CAST_REFUSED)) options.casting = TCAST_CASTING_SAFE;
  return tcast_cast(&in, &out, &options, TC_ERR);
}

/* ---- tcast_expand ---- */
enum {
  EXPAND_NULL_OUTPUT_SHAPE, /* output shape NULL with ndim 2 */
  EXPAND_BAD_DTYPE,         /* output dtype 555 */
  EXPAND_DTYPES_DIFFER,     /* output DOUBLE for a FLOAT input */
  EXPAND_BAD_SHAPE,         /* output [4,5] is not the broadcast of [3,1] with it */
  EXPAND_SHORT_BUFFER,      /* output data_bytes 8 */
  EXPAND_OVERLAP,
  EXPAND_DEFECTS
};
static const tcast_status expand_status[EXPAND_DEFECTS] = {
    TCAST_ERR_NULL_ARGUMENT, TCAST_ERR_INVALID_DTYPE, TCAST_ERR_INVALID_ARGUMENT,
    TCAST_ERR_INCOMPATIBLE_SHAPES, TCAST_ERR_BUFFER_TOO_SMALL, TCAST_ERR_INVALID_ARGUMENT,
};

static tcast_status expand_with(unsigned defects, int placement) {
  static const int64_t in_shape[2] = {3, 1}, out_shape[2] = {3, 5}, bad_shape[2] = {4, 5};
  tcast_tensor in = tensor(memory, 12, in_shape, 2, TCAST_DTYPE_FLOAT);
  if (defects & (1u << EXPAND_OVERLAP)) placement = OVERLAPPING;
  uint64_t out_bytes = (defects & (1u << EXPAND_SHORT_BUFFER)) ? 8 : 60;
  tcast_tensor out = tensor(output_at(placement, 12), out_bytes, out_shape, 2, TCAST_DTYPE_FLOAT);
  /* Later defects first: an earlier one on the same field wins. */
  if (defects & (1u << EXPAND_BAD_SHAPE)) out.shape = bad_shape;
  if (defects & (1u << EXPAND_DTYPES_DIFFER)) out.dtype = TCAST_DTYPE_DOUBLE;
  if (defects & (1u << EXPAND_BAD_DTYPE)) out.dtype = 555;
  if (defects & (1u << EXPAND_NULL_OUTPUT_SHAPE)) out.shape = NULL;
  return tcast_expand(&in, &out, TC_ERR);
}

/* ---- tcast_cast_to_strings ---- */
enum {
  STR_NULL_ARENA,
  STR_BAD_DTYPE,      /* input dtype 555 */
  STR_COMPLEX,        /* input COMPLEX64: no text form */
  STR_BAD_FORMAT,     /* string_format 9 */
  STR_BAD_SHAPE,      /* output shape [5] for input [4] */
  STR_SHORT_BUFFER,   /* input data_bytes 8 for 4 floats */
  STR_SHORT_ARENA,    /* arena used > capacity */
  STR_OVERLAP,        /* output over the input */
  STR_DEFECTS
};
static const tcast_status str_status[STR_DEFECTS] = {
    TCAST_ERR_NULL_ARGUMENT,    TCAST_ERR_INVALID_DTYPE,    TCAST_ERR_UNSUPPORTED,
    TCAST_ERR_INVALID_ARGUMENT, TCAST_ERR_INVALID_SHAPE,    TCAST_ERR_BUFFER_TOO_SMALL,
    TCAST_ERR_INVALID_ARGUMENT, TCAST_ERR_INVALID_ARGUMENT,
};

static tcast_status strings_with(unsigned defects, int placement) {
  static const int64_t s4[1] = {4}, s5[1] = {5};
  static char text[256];
  uint64_t in_bytes = (defects & (1u << STR_SHORT_BUFFER)) ? 8 : 16;
  tcast_tensor in = tensor(memory, in_bytes, s4, 1, TCAST_DTYPE_FLOAT);
  /* Later defects first: an earlier one on the same field wins. */
  if (defects & (1u << STR_COMPLEX)) in.dtype = TCAST_DTYPE_COMPLEX64;
  if (defects & (1u << STR_BAD_DTYPE)) in.dtype = 555;
  if (defects & (1u << STR_OVERLAP)) placement = OVERLAPPING;
  tcast_tensor out =
      tensor(output_at(placement, in_bytes), 4 * sizeof(tcast_string), s4, 1, TCAST_DTYPE_STRING);
  if (defects & (1u << STR_BAD_SHAPE)) out.shape = s5;
  tcast_string_arena arena = {text, sizeof text, 0};
  if (defects & (1u << STR_SHORT_ARENA)) arena.used = sizeof text + 1;
  tcast_cast_options options = tcast_cast_options_default();
  if (defects & (1u << STR_BAD_FORMAT)) options.string_format = 9;
  return tcast_cast_to_strings(&in, &out, (defects & (1u << STR_NULL_ARENA)) ? NULL : &arena,
                               &options, TC_ERR);
}

/* ---- tcast_bitcast ---- */
enum {
  BC_NULL_VIEW,
  BC_BAD_TO,         /* to 555 */
  BC_BAD_RULES,      /* rules 7 */
  BC_REFUSED_DTYPE,  /* TF rules do not take FLOAT8E4M3FN */
  BC_BAD_SHAPE,      /* last dim 3 cannot become INT16 pairs of... (TF: [3] INT8 -> INT16) */
  BC_SHORT_BUFFER,   /* data_bytes 1 */
  BC_DEFECTS
};
static const tcast_status bc_status[BC_DEFECTS] = {
    TCAST_ERR_NULL_ARGUMENT, TCAST_ERR_INVALID_DTYPE,       TCAST_ERR_INVALID_ARGUMENT,
    TCAST_ERR_UNSUPPORTED,   TCAST_ERR_INCOMPATIBLE_SHAPES, TCAST_ERR_BUFFER_TOO_SMALL,
};

static tcast_status bitcast_with(unsigned defects, int placement) {
  static const int64_t good[2] = {3, 2}, bad[2] = {2, 3};
  (void)placement;
  tcast_tensor in = tensor(memory, (defects & (1u << BC_SHORT_BUFFER)) ? 1 : 6,
                           (defects & (1u << BC_BAD_SHAPE)) ? bad : good, 2, TCAST_DTYPE_INT8);
  tcast_dtype to = TCAST_DTYPE_INT16;
  if (defects & (1u << BC_BAD_TO)) to = 555;
  if (defects & (1u << BC_REFUSED_DTYPE)) in.dtype = TCAST_DTYPE_FLOAT8E4M3FN;
  int32_t rules = (defects & (1u << BC_BAD_RULES)) ? 7 : TCAST_BITCAST_TF;
  tcast_tensor view;
  int64_t storage[4];
  return tcast_bitcast(&in, to, rules, (defects & (1u << BC_NULL_VIEW)) ? NULL : &view, storage,
                       4, TC_ERR);
}

/* ---- tcast_bitcast_shape ---- */
enum {
  BS_NULL_SHAPE,     /* shape NULL with ndim 2 */
  BS_BAD_FROM,       /* from 555 */
  BS_NEG_CAPACITY,   /* out_capacity -1 */
  BS_REFUSED_DTYPE,  /* ONNX rules: unequal widths */
  BS_NEG_DIM,        /* shape [-1, 2] */
  BS_SMALL_CAPACITY, /* out_capacity 1 for rank 2 */
  BS_DEFECTS
};
static const tcast_status bs_status[BS_DEFECTS] = {
    TCAST_ERR_NULL_ARGUMENT, TCAST_ERR_INVALID_DTYPE, TCAST_ERR_INVALID_ARGUMENT,
    TCAST_ERR_UNSUPPORTED,   TCAST_ERR_INVALID_SHAPE, TCAST_ERR_BUFFER_TOO_SMALL,
};

static tcast_status bitcast_shape_with(unsigned defects, int placement) {
  static const int64_t good[2] = {3, 2}, negative[2] = {-1, 2};
  (void)placement;
  const int64_t *shape = (defects & (1u << BS_NEG_DIM)) ? negative : good;
  if (defects & (1u << BS_NULL_SHAPE)) shape = NULL;
  tcast_dtype from = (defects & (1u << BS_BAD_FROM)) ? 555 : TCAST_DTYPE_INT16;
  tcast_dtype to = (defects & (1u << BS_REFUSED_DTYPE)) ? TCAST_DTYPE_INT32 : TCAST_DTYPE_UINT16;
  int32_t capacity = (defects & (1u << BS_NEG_CAPACITY))     ? -1
                     : (defects & (1u << BS_SMALL_CAPACITY)) ? 1
                                                             : 4;
  int64_t out[4];
  int32_t rank;
  return tcast_bitcast_shape(from, shape, 2, to, TCAST_BITCAST_ONNX, out, capacity, &rank, TC_ERR);
}

/* ---- tcast_expand_shape ---- */
enum {
  ES_NULL_SHAPE,     /* shape NULL with length 2 */
  ES_NEG_CAPACITY,   /* out_capacity -1 */
  ES_NEG_DIM,        /* input shape [-3, 1] */
  ES_SMALL_CAPACITY, /* out_capacity 1 for rank 2 */
  ES_DEFECTS
};
static const tcast_status es_status[ES_DEFECTS] = {
    TCAST_ERR_NULL_ARGUMENT,
    TCAST_ERR_INVALID_ARGUMENT,
    TCAST_ERR_INVALID_SHAPE,
    TCAST_ERR_BUFFER_TOO_SMALL,
};

static tcast_status expand_shape_with(unsigned defects, int placement) {
  static const int64_t in_good[2] = {3, 1}, in_negative[2] = {-3, 1}, target[2] = {3, 5};
  (void)placement;
  int32_t capacity = (defects & (1u << ES_NEG_CAPACITY))     ? -1
                     : (defects & (1u << ES_SMALL_CAPACITY)) ? 1
                                                             : 4;
  int64_t out[4];
  int32_t rank;
  return tcast_expand_shape((defects & (1u << ES_NEG_DIM)) ? in_negative : in_good, 2,
                            (defects & (1u << ES_NULL_SHAPE)) ? NULL : target, 2, out, capacity,
                            &rank, TC_ERR);
}

/* Mends the defects one at a time, in order, under both placements. Also checks every
 * pair (first defect i, a later defect j): the status is i's. */
static void check_order(const char *what, tcast_status (*call)(unsigned, int), int n,
                        const tcast_status *expected) {
  for (int placement = FAR; placement <= ADJACENT; placement++) {
    for (int first = 0; first <= n; first++) {
      unsigned all_from_first = first == n ? 0u : ((1u << n) - 1) & ~((1u << first) - 1);
      tcast_status want = first == n ? TCAST_OK : expected[first];
      tcast_status got = call(all_from_first, placement);
      if (got != want) {
        tc_fail(__FILE__, __LINE__, "%s, defects %d.., placement %d: status %s, expected %s (%s)",
                what, first, placement, tcast_status_name(got), tcast_status_name(want),
                tc_err.message);
      } else {
        tc_pass();
      }
      for (int later = first + 1; later < n; later++) {
        got = call((1u << first) | (1u << later), placement);
        if (got != expected[first]) {
          tc_fail(__FILE__, __LINE__, "%s, defects %d and %d, placement %d: status %s, expected %s (%s)",
                  what, first, later, placement, tcast_status_name(got),
                  tcast_status_name(expected[first]), tc_err.message);
        } else {
          tc_pass();
        }
      }
    }
  }
}

/* The issue's own case: an undersized input whose shape reaches into the output right
 * after it is a short buffer, exactly as when the output lies elsewhere. */
static void test_short_input_next_to_output(void) {
  static const int64_t s8[1] = {8};
  tcast_tensor in = tensor(memory, 16, s8, 1, TCAST_DTYPE_FLOAT);
  tcast_tensor out = tensor(memory + 16, 16, s8, 1, TCAST_DTYPE_FLOAT16);
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_BUFFER_TOO_SMALL);
  CHECK_MSG_CONTAINS(TC_ERR, "input");
  out.data = memory + 1024;
  CHECK_STATUS(tcast_cast(&in, &out, NULL, TC_ERR), TCAST_ERR_BUFFER_TOO_SMALL);
  /* Expand with different dtypes is a dtype problem, whatever the buffers. */
  static const int64_t s2[1] = {2};
  tcast_tensor a = tensor(memory, 8, s2, 1, TCAST_DTYPE_FLOAT);
  tcast_tensor b = tensor(memory + 1024, 8, s2, 1, TCAST_DTYPE_DOUBLE);
  CHECK_STATUS(tcast_expand(&a, &b, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "differs from input dtype FLOAT");
}

static void test_option_messages_name_constants(void) {
  static const int64_t s1[1] = {1};
  float x = 1.0f;
  uint8_t y;
  tcast_tensor in = tensor(&x, 4, s1, 1, TCAST_DTYPE_FLOAT);
  tcast_tensor out = tensor(&y, 1, s1, 1, TCAST_DTYPE_FLOAT8E8M0);
  tcast_cast_options o = tcast_cast_options_default();
  o.round_mode = 3;
  CHECK_STATUS(tcast_cast(&in, &out, &o, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "options.round_mode is 3");
  CHECK_MSG_CONTAINS(TC_ERR, "0 (TCAST_ROUND_UP), 1 (TCAST_ROUND_DOWN), 2 (TCAST_ROUND_NEAREST)");
  o = tcast_cast_options_default();
  o.string_format = -1;
  CHECK_STATUS(tcast_cast(&in, &out, &o, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "TCAST_FORMAT_PRINTF_8G");
  o = tcast_cast_options_default();
  o.casting = 5;
  CHECK_STATUS(tcast_cast(&in, &out, &o, TC_ERR), TCAST_ERR_INVALID_ARGUMENT);
  CHECK_MSG_CONTAINS(TC_ERR, "4 (TCAST_CASTING_UNSAFE)");
}

/* docs/c-api.md section 1: a text argument that is not UTF-8 is TCAST_ERR_PARSE. */
static void test_non_utf8_text_is_a_parse_error(void) {
  static const char bad[] = "i\xff";
  tcast_np_dtype *h = NULL;
  int32_t result = -1;
  tcast_dtype dtype = 0;
  CHECK_STATUS(tcast_np_dtype_parse(bad, &h, TC_ERR), TCAST_ERR_PARSE);
  CHECK(h == NULL);
  CHECK_STATUS(tcast_np_can_cast_str(bad, "f8", "safe", TCAST_NUMPY_2, &result, TC_ERR),
               TCAST_ERR_PARSE);
  CHECK_STATUS(tcast_np_can_cast_str("i4", bad, "safe", TCAST_NUMPY_2, &result, TC_ERR),
               TCAST_ERR_PARSE);
  CHECK_STATUS(tcast_np_can_cast_pyint("1\xff", "i4", TCAST_CASTING_SAFE, TCAST_NUMPY_1, &result,
                                       TC_ERR),
               TCAST_ERR_PARSE);
  CHECK_STATUS(tcast_dtype_from_name("FLOAT\xff", &dtype, TC_ERR), TCAST_ERR_PARSE);
  CHECK_STATUS(tcast_np_can_cast_str("i4", "f8", "safe\xff", TCAST_NUMPY_2, &result, TC_ERR),
               TCAST_ERR_PARSE);
  int32_t casting = -1;
  CHECK_STATUS(tcast_np_casting_from_name("\xffsafe", &casting, TC_ERR), TCAST_ERR_PARSE);
  /* A valid UTF-8 name that is not a casting level stays a bad argument. */
  CHECK_STATUS(tcast_np_casting_from_name("s\xc3\xa4" "fe", &casting, TC_ERR),
               TCAST_ERR_INVALID_ARGUMENT);
  char buf[64];
  CHECK_STATUS(tcast_np_promote_types(bad, "f8", buf, sizeof buf, NULL, TC_ERR), TCAST_ERR_PARSE);
}

int main(void) {
  check_order("tcast_cast", cast_with, CAST_DEFECTS, cast_status);
  check_order("tcast_expand", expand_with, EXPAND_DEFECTS, expand_status);
  check_order("tcast_cast_to_strings", strings_with, STR_DEFECTS, str_status);
  check_order("tcast_bitcast", bitcast_with, BC_DEFECTS, bc_status);
  check_order("tcast_bitcast_shape", bitcast_shape_with, BS_DEFECTS, bs_status);
  check_order("tcast_expand_shape", expand_shape_with, ES_DEFECTS, es_status);
  test_short_input_next_to_output();
  test_option_messages_name_constants();
  test_non_utf8_text_is_a_parse_error();
  return tc_summary();
}
