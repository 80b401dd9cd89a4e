// SPDX-License-Identifier: MIT OR Apache-2.0
// expect: nodiscard|warn_unused_result|ignoring return value
// Results are [[nodiscard]]: a try_ call whose result is dropped is an error under -Werror.
#include "tensorcast.hpp"
#include <vector>
int main() {
  const std::vector<float> in{1.0f};
  std::vector<double> out(1);
  tensorcast::try_cast(tensorcast::view(in), tensorcast::view(out));
}
