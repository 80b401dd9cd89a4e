/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Prints the size and field offsets of the structs the C# bindings mirror, one
 * "struct.field offset" or "struct sizeof" per line, as the C compiler lays them out.
 * The C# tests read this file and compare it with Marshal.SizeOf / Marshal.OffsetOf. */
#include <stddef.h>
#include <stdio.h>

#include "tensorcast.h"

#define SIZE(type) printf("%s sizeof %zu\n", #type, sizeof(type))
#define FIELD(type, field) printf("%s.%s %zu\n", #type, #field, offsetof(type, field))

int main(void) {
  SIZE(tcast_error);
  FIELD(tcast_error, status);
  FIELD(tcast_error, index);
  FIELD(tcast_error, message);

  SIZE(tcast_tensor);
  FIELD(tcast_tensor, data);
  FIELD(tcast_tensor, data_bytes);
  FIELD(tcast_tensor, shape);
  FIELD(tcast_tensor, strides);
  FIELD(tcast_tensor, ndim);
  FIELD(tcast_tensor, dtype);

  SIZE(tcast_cast_options);
  FIELD(tcast_cast_options, struct_size);
  FIELD(tcast_cast_options, saturate);
  FIELD(tcast_cast_options, round_mode);
  FIELD(tcast_cast_options, string_format);
  FIELD(tcast_cast_options, casting);
  FIELD(tcast_cast_options, threads);
  FIELD(tcast_cast_options, executor);

  SIZE(tcast_qdq_options);
  FIELD(tcast_qdq_options, struct_size);
  FIELD(tcast_qdq_options, saturate);
  FIELD(tcast_qdq_options, axis);
  FIELD(tcast_qdq_options, block_size);
  FIELD(tcast_qdq_options, precision);
  FIELD(tcast_qdq_options, reserved);

  SIZE(tcast_mx_options);
  FIELD(tcast_mx_options, struct_size);
  FIELD(tcast_mx_options, scale_rule);
  FIELD(tcast_mx_options, axis);
  FIELD(tcast_mx_options, block_size);
  FIELD(tcast_mx_options, reserved0);
  FIELD(tcast_mx_options, reserved1);

  SIZE(tcast_string);
  FIELD(tcast_string, data);
  FIELD(tcast_string, len);

  SIZE(tcast_string_arena);
  FIELD(tcast_string_arena, data);
  FIELD(tcast_string_arena, capacity);
  FIELD(tcast_string_arena, used);
  return 0;
}
