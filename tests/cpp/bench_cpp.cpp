// SPDX-License-Identifier: MIT OR Apache-2.0
// What the C++ layer costs per small call: tcast_cast called directly, the same cast
// through tensorcast::cast(view, view), and through cast<To>(vector) (which allocates its
// result), for 1, 16 and 256 float32 -> float16, next to memcpy of the same bytes in the
// same run, with each one's ratio to memcpy. Built by CMake as bench_cpp (not a test):
// run ./build/bench_cpp.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "tensorcast.hpp"

namespace tc = tensorcast;

namespace {

volatile unsigned sink;

template <class F>
double ns_per_call(F body) {
  using clock = std::chrono::steady_clock;
  double best = 1e30;
  for (int round = 0; round < 7; round++) {
    const int calls = 200000;
    const auto start = clock::now();
    for (int i = 0; i < calls; i++) {
      body();
    }
    const std::chrono::duration<double, std::nano> took = clock::now() - start;
    best = std::min(best, took.count() / calls);
  }
  return best;
}

void row(std::size_t n) {
  std::vector<float> in(n);
  for (std::size_t i = 0; i < n; i++) {
    in[i] = static_cast<float>(i) * 0.37f + 0.1f;
  }
  std::vector<tc::float16> out(n);
  std::vector<unsigned char> copy(n * sizeof(float));
  const std::int64_t shape[1] = {static_cast<std::int64_t>(n)};

  const double memcpy_ns = ns_per_call([&] {
    std::memcpy(copy.data(), in.data(), copy.size());
    sink = copy[0];
  });
  const double c_ns = ns_per_call([&] {
    tcast_tensor src = {in.data(), n * sizeof(float), shape, nullptr, 1, TCAST_DTYPE_FLOAT};
    tcast_tensor dst = {out.data(), n * 2, shape, nullptr, 1, TCAST_DTYPE_FLOAT16};
    sink = static_cast<unsigned>(tcast_cast(&src, &dst, nullptr, nullptr));
  });
  const double view_ns = ns_per_call([&] {
    tc::cast(tc::view(in), tc::view(out));
    sink = out[0].bits;
  });
  const double vector_ns = ns_per_call([&] { sink = tc::cast<tc::float16>(in)[0].bits; });
  std::printf("%5zu  %8.1f  %8.1f (%4.1fx)  %8.1f (%4.1fx, %+.1f)  %8.1f (%4.1fx, %+.1f)\n", n,
              memcpy_ns, c_ns, c_ns / memcpy_ns, view_ns, view_ns / memcpy_ns, view_ns - c_ns,
              vector_ns, vector_ns / memcpy_ns, vector_ns - c_ns);
}

}  // namespace

int main() {
  std::printf("float32 -> float16, ns per call (best of 7 rounds of 200,000 calls); in\n"
              "parentheses the ratio to memcpy of the input's bytes and the ns over tcast_cast\n");
  std::printf("    n    memcpy  tcast_cast          cast(view, view)         "
              "cast<float16>(vector)\n");
  for (std::size_t n : {1, 16, 256}) {
    row(n);
  }
  return 0;
}
