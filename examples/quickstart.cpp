// SPDX-License-Identifier: MIT OR Apache-2.0
// tensorcast's C++ quickstart: float32 -> float16 -> float32 with include/tensorcast.hpp.
#include <cstdio>
#include <vector>

#include "tensorcast.hpp"

int main() {
  const std::vector<float> x{1.0f, 0.1f, -2.5f, 65504.0f, 1e-8f, 3.14159f};
  const auto half = tensorcast::cast<tensorcast::float16>(x);  // std::vector<tensorcast::float16>
  const auto back = tensorcast::cast<float>(half);
  for (std::size_t i = 0; i < x.size(); i++)
    std::printf("%14.9g -> 0x%04x -> %.9g\n", x[i], half[i].bits, back[i]);
}
