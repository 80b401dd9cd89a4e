// SPDX-License-Identifier: MIT OR Apache-2.0
// expect: deleted
// A view of a temporary container would dangle: refused.
#include "tensorcast.hpp"
#include <vector>
int main() {
  const tensorcast::tensor_view v = tensorcast::view(std::vector<float>{1.0f, 2.0f});
  return static_cast<int>(v.bytes());
}
