// SPDX-License-Identifier: MIT OR Apache-2.0
// expect: tensorcast::expand: the output is a read-only tensor_view
// Expand's output cannot be a const container either.
#include "tensorcast.hpp"
#include <vector>
int main() {
  const std::vector<float> in{1.0f};
  const std::vector<float> out(3);
  tensorcast::expand(tensorcast::view(in, {1}), tensorcast::view(out, {3}));
}
