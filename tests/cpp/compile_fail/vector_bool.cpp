// SPDX-License-Identifier: MIT OR Apache-2.0
// expect: std::vector<bool> has no buffer
// std::vector<bool> packs bits: the typed cast refuses it with a clear message.
#include "tensorcast.hpp"
#include <vector>
int main() {
  const std::vector<float> in{1.0f};
  return static_cast<int>(tensorcast::cast<bool>(in).size());
}
