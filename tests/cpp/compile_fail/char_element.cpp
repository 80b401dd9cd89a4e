// SPDX-License-Identifier: MIT OR Apache-2.0
// expect: T has no dtype
// char is text, neither INT8 nor UINT8: no dtype.
#include "tensorcast.hpp"
int main() { return static_cast<int>(tensorcast::dtype_of<char>); }
