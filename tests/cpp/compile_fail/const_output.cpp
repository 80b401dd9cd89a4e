// SPDX-License-Identifier: MIT OR Apache-2.0
// expect: the output is a read-only tensor_view
// A const container is read-only: it cannot be a cast's output.
#include "tensorcast.hpp"
#include <vector>
int main() {
  const std::vector<float> in{1.0f};
  const std::vector<double> out(1);
  tensorcast::cast(tensorcast::view(in), tensorcast::view(out));
}
