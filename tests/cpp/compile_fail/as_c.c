/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* expect: tensorcast.hpp is C\+\+ */
/* A C program that includes the C++ header is told which header is its own. */
#include "tensorcast.hpp"
int main(void) { return 0; }
