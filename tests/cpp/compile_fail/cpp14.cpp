// SPDX-License-Identifier: MIT OR Apache-2.0
// expect: needs C\+\+17 or later
// std: 14
// Below C++17 the header says what it needs.
#include "tensorcast.hpp"
int main() { return 0; }
