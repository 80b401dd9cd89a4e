// SPDX-License-Identifier: MIT OR Apache-2.0
// Tests of include/tensorcast.hpp, the C++ layer. Built twice by CMake (test_cpp17 and
// test_cpp20: -std=c++17 / -std=c++20, -Wall -Wextra -Wpedantic -Werror). Each expected
// value is a well-known bit pattern, what the C function underneath gives for the same
// input, or what the C library's printf writes; the layer must add nothing and lose
// nothing. Ends with "N passed, N failed" and a nonzero exit status on any failure.
#include "tensorcast.hpp"

#include <array>
#include <atomic>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <vector>
#if __cplusplus >= 202002L
#include <span>
#endif

namespace tc = tensorcast;

namespace {

int passed = 0;
int failed = 0;

void check(bool ok, const char *what, int line) {
  if (ok) {
    passed++;
  } else {
    failed++;
    std::fprintf(stderr, "test_cpp.cpp:%d: FAIL: %s\n", line, what);
  }
}
#define CHECK(cond) check((cond), #cond, __LINE__)

// Runs `body`, which must throw tensorcast::error with `code`; returns the error.
template <class F>
tc::error_info expect_error(F body, tc::status code, int line) {
  try {
    body();
  } catch (const tc::error &e) {
    check(e.code() == code, "the error's status", line);
    check(std::strncmp(e.what(), "TCAST_ERR_", 10) == 0, "what() starts with the status name",
          line);
    check(!e.message().empty(), "the error has a message", line);
    return e.info();
  } catch (...) {
    check(false, "threw something other than tensorcast::error", line);
    return {};
  }
  check(false, "did not throw", line);
  return {};
}
#define EXPECT_ERROR(code, ...) expect_error([&] { __VA_ARGS__; }, code, __LINE__)

// The C call the layer wraps, for a rank-1 contiguous cast: the oracle of the typed casts.
template <class To, class From>
std::vector<To> c_cast(const std::vector<From> &in, const tcast_cast_options *opts = nullptr) {
  std::vector<To> out(in.size());
  const int64_t shape[1] = {static_cast<int64_t>(in.size())};
  tcast_tensor src;
  src.data = const_cast<From *>(in.data());
  src.data_bytes = in.size() * sizeof(From);
  src.shape = shape;
  src.strides = nullptr;
  src.ndim = 1;
  src.dtype = static_cast<tcast_dtype>(tc::dtype_of<From>);
  tcast_tensor dst = src;
  dst.data = out.data();
  dst.data_bytes = out.size() * sizeof(To);
  dst.dtype = static_cast<tcast_dtype>(tc::dtype_of<To>);
  tcast_error err;
  if (tcast_cast(&src, &dst, opts, &err) != TCAST_OK) {
    std::fprintf(stderr, "c_cast: %s\n", err.message);
    std::abort();
  }
  return out;
}

template <class T>
bool same_bytes(const std::vector<T> &a, const std::vector<T> &b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// ---- what the types promise, at compile time

static_assert(tc::dtype_of<float> == tc::dtype::float32, "float");
static_assert(tc::dtype_of<const double> == tc::dtype::float64, "double");
static_assert(tc::dtype_of<std::int8_t> == tc::dtype::int8, "int8_t");
static_assert(tc::dtype_of<unsigned char> == tc::dtype::uint8, "unsigned char");
static_assert(tc::dtype_of<std::uint16_t> == tc::dtype::uint16, "uint16_t stays UINT16");
static_assert(tc::dtype_of<tc::float16> == tc::dtype::float16, "float16");
static_assert(tc::dtype_of<tc::bfloat16> == tc::dtype::bfloat16, "bfloat16");
static_assert(tc::dtype_of<tc::float8e4m3fn> == tc::dtype::float8e4m3fn, "e4m3fn");
static_assert(tc::dtype_of<tc::float8e5m2fnuz> == tc::dtype::float8e5m2fnuz, "e5m2fnuz");
static_assert(tc::dtype_of<tc::float8e8m0> == tc::dtype::float8e8m0, "e8m0");
static_assert(tc::dtype_of<long long> == tc::dtype::int64, "long long");
static_assert(tc::dtype_of<unsigned long> == tc::dtype::uint64 ||
                  tc::dtype_of<unsigned long> == tc::dtype::uint32,
              "unsigned long");
static_assert(tc::dtype_of<bool> == tc::dtype::boolean, "bool");
static_assert(tc::dtype_of<std::complex<float>> == tc::dtype::complex64, "complex<float>");
static_assert(tc::dtype_of<std::complex<double>> == tc::dtype::complex128, "complex<double>");
static_assert(tc::dtype_of<tcast_string> == tc::dtype::string, "tcast_string");
static_assert(!tc::has_dtype<char>, "char is text, not INT8 or UINT8");
static_assert(!tc::has_dtype<wchar_t>, "wchar_t");
static_assert(!tc::has_dtype<long double>, "long double");
static_assert(!tc::has_dtype<std::string>, "std::string is not a tcast_string");
static_assert(sizeof(tc::float16) == 2 && sizeof(tc::float8e5m2) == 1, "storage sizes");
static_assert(!std::is_same<tc::float16, tc::bfloat16>::value, "distinct 16-bit formats");

// A const container gives a read-only view, which is not an output.
static_assert(std::is_same<decltype(tc::view(std::declval<const std::vector<float> &>())),
                           tc::tensor_view>::value,
              "view of a const container");
static_assert(std::is_same<decltype(tc::view(std::declval<std::vector<float> &>())),
                           tc::mutable_tensor_view>::value,
              "view of a mutable container");
static_assert(std::is_same<decltype(tc::view(std::declval<std::array<const int, 3> &>())),
                           tc::tensor_view>::value,
              "const elements");
static_assert(!std::is_convertible<tc::tensor_view, tc::mutable_tensor_view>::value,
              "no way from read-only to writable");
static_assert(std::is_convertible<tc::mutable_tensor_view, tc::tensor_view>::value,
              "writable is readable");
static_assert(!std::is_copy_constructible<tc::np_dtype>::value &&
                  std::is_nothrow_move_constructible<tc::np_dtype>::value,
              "np_dtype is move-only");

// ---- enumerations

void test_enums() {
  // Every dtype code the library names has its enumerator, with that name.
  const tc::dtype all[] = {
      tc::dtype::float32,        tc::dtype::uint8,        tc::dtype::int8,
      tc::dtype::uint16,         tc::dtype::int16,        tc::dtype::int32,
      tc::dtype::int64,          tc::dtype::string,       tc::dtype::boolean,
      tc::dtype::float16,        tc::dtype::float64,      tc::dtype::uint32,
      tc::dtype::uint64,         tc::dtype::complex64,    tc::dtype::complex128,
      tc::dtype::bfloat16,       tc::dtype::float8e4m3fn, tc::dtype::float8e4m3fnuz,
      tc::dtype::float8e5m2,     tc::dtype::float8e5m2fnuz, tc::dtype::uint4,
      tc::dtype::int4,           tc::dtype::float4e2m1,   tc::dtype::float8e8m0,
      tc::dtype::uint2,          tc::dtype::int2,         tc::dtype::float6e2m3,
      tc::dtype::float6e3m2,     tc::dtype::qint8,        tc::dtype::quint8,
      tc::dtype::qint16,         tc::dtype::quint16,      tc::dtype::qint32,
  };
  int named = 0;
  for (int32_t code = -4; code < 300; code++) {
    if (tcast_dtype_name(code) != nullptr) {
      named++;
    }
  }
  CHECK(named == static_cast<int>(sizeof all / sizeof all[0]));
  for (tc::dtype d : all) {
    CHECK(tc::name(d) != nullptr);
    CHECK(tc::name(d) == tcast_dtype_name(static_cast<tcast_dtype>(d)));
    CHECK(tc::dtype_from_name(tc::name(d)) == d);
  }
  CHECK(tc::name(tc::dtype::undefined) == nullptr);
  CHECK(std::strcmp(tc::name(tc::dtype::float64), "DOUBLE") == 0);
  CHECK(tc::bits(tc::dtype::int4) == 4 && tc::bits(tc::dtype::float6e2m3) == 6);
  CHECK(std::strcmp(tc::name(tc::status::parse), "TCAST_ERR_PARSE") == 0);
  CHECK(std::strcmp(tc::name(tc::status::internal), tcast_status_name(TCAST_ERR_INTERNAL)) == 0);
  CHECK(std::strcmp(tc::version(), tcast_version()) == 0);
  EXPECT_ERROR(tc::status::invalid_dtype, (void)tc::dtype_from_name("FLOAT17"));
}

// ---- options

void test_options() {
  const tcast_cast_options c = tcast_cast_options_default();
  tc::options o{};
  CHECK(o.c_options().struct_size == sizeof(tcast_cast_options));
  CHECK(std::memcmp(&o.c_options(), &c, sizeof c) == 0);
  CHECK(o.saturate() && o.rounding() == tc::round_mode::up &&
        o.format() == tc::string_format::shortest && o.casting_level() == tc::casting::unsafe &&
        o.threads() == c.threads && o.executor() == nullptr &&
        o.sub_bytes() == tc::sub_byte_layout::packed);
  o.saturate(false).rounding(tc::round_mode::nearest).casting_level(tc::casting::safe).threads(3);
  CHECK(o.c_options().saturate == 0 && o.c_options().round_mode == TCAST_ROUND_NEAREST &&
        o.c_options().casting == TCAST_CASTING_SAFE && o.c_options().threads == 3);
}

// ---- casts

void test_cast_typed() {
  const std::vector<float> x{1.0f, 0.1f, -2.5f, 65504.0f};
  const std::vector<tc::float16> h = tc::cast<tc::float16>(x);
  CHECK(h.size() == 4);
  CHECK(h[0].bits == 0x3c00 && h[1].bits == 0x2e66 && h[2].bits == 0xc100 && h[3].bits == 0x7bff);
  CHECK(h[0] == tc::float16::from_bits(0x3c00) && h[0] != h[1]);
  const std::vector<float> back = tc::cast<float>(h);
  CHECK(same_bytes(back, c_cast<float>(h)));
  CHECK(back[0] == 1.0f && back[2] == -2.5f && back[3] == 65504.0f);

  // uint16_t is UINT16: the integer cast, not the float16 bits.
  const std::vector<std::uint16_t> u = tc::cast<std::uint16_t>(x);
  CHECK(same_bytes(u, c_cast<std::uint16_t>(x)));
  CHECK(u[0] == 1 && u[3] == 65504);

  CHECK(tc::cast<tc::bfloat16>(x)[0].bits == 0x3f80);
  CHECK(same_bytes(tc::cast<tc::bfloat16>(x), c_cast<tc::bfloat16>(x)));

  // float8 with and without saturation: 448 is E4M3FN's largest, 0x7f its NaN.
  const std::vector<float> big{448.0f, 1000.0f, -1000.0f};
  const std::vector<tc::float8e4m3fn> sat = tc::cast<tc::float8e4m3fn>(big);
  CHECK(sat[0].bits == 0x7e && sat[1].bits == 0x7e && sat[2].bits == 0xfe);
  const tc::options no_sat = tc::options().saturate(false);
  const std::vector<tc::float8e4m3fn> nosat = tc::cast<tc::float8e4m3fn>(big, no_sat);
  CHECK(nosat[1].bits == 0x7f && nosat[2].bits == 0xff);
  CHECK(same_bytes(nosat, c_cast<tc::float8e4m3fn>(big, &no_sat.c_options())));

  // Every typed pair through the layer equals the C call.
  const std::vector<double> d{0.0, -0.0, 1e-8, 3.14159, -7.5, 1e300, 65519.0, 1e-40};
  CHECK(same_bytes(tc::cast<tc::float16>(d), c_cast<tc::float16>(d)));
  CHECK(same_bytes(tc::cast<tc::float8e5m2>(d), c_cast<tc::float8e5m2>(d)));
  CHECK(same_bytes(tc::cast<tc::float8e8m0>(d), c_cast<tc::float8e8m0>(d)));
  CHECK(same_bytes(tc::cast<std::int8_t>(d), c_cast<std::int8_t>(d)));
  CHECK(same_bytes(tc::cast<std::complex<float>>(d), c_cast<std::complex<float>>(d)));

  // A C array, a std::array and a pointer view.
  const float arr[3] = {1.0f, 2.0f, 3.0f};
  CHECK(tc::cast<double>(arr)[2] == 3.0);
  std::array<std::int32_t, 3> ints{};
  tc::cast(tc::view(arr), tc::view(ints));
  CHECK(ints[0] == 1 && ints[1] == 2 && ints[2] == 3);
  bool flags[3] = {false, false, false};
  tc::cast(tc::view(arr, 3), tc::view(flags, 3));
  CHECK(flags[0] && flags[1] && flags[2]);

#if defined(__STDCPP_FLOAT16_T__)
  static_assert(tc::dtype_of<std::float16_t> == tc::dtype::float16, "std::float16_t");
  const std::vector<std::float16_t> sh = tc::cast<std::float16_t>(x);
  CHECK(static_cast<float>(sh[0]) == 1.0f && static_cast<float>(sh[3]) == 65504.0f);
#endif
}

void test_cast_views() {
  // Shapes: a 2x3 cast, and a shape mismatch reported as the library reports it.
  const std::vector<float> six{1, 2, 3, 4, 5, 6};
  std::vector<double> out(6);
  tc::cast(tc::view(six, {2, 3}), tc::view(out, {2, 3}));
  CHECK(out[5] == 6.0);
  const tc::error_info e =
      EXPECT_ERROR(tc::status::invalid_shape, tc::cast(tc::view(six, {2, 3}), tc::view(out, {3, 2})));
  CHECK(e.message.find("shape") != std::string::npos);
  const tc::result<void> r = tc::try_cast(tc::view(six, {2, 3}), tc::view(out, {3, 2}));
  CHECK(!r && r.error().code == tc::status::invalid_shape && r.error().message == e.message);
  CHECK(tc::try_cast(tc::view(six), tc::view(out)).has_value());

  // Too small an output.
  std::vector<double> five(5);
  EXPECT_ERROR(tc::status::buffer_too_small,
               tc::cast(tc::view(six, {6}), tc::mutable_tensor_view(five.data(), 40, tc::dtype::float64, {6})));

  // Strides: the transpose of a 2x3 matrix, read through strides {1, 3}.
  std::vector<float> t(6);
  tc::cast(tc::view(six, {3, 2}).with_strides({1, 3}), tc::view(t, {3, 2}));
  CHECK(t[0] == 1 && t[1] == 4 && t[2] == 2 && t[3] == 5 && t[4] == 3 && t[5] == 6);
  std::vector<float> m(six.begin(), six.end());
  std::vector<float> t2(6);
  tc::cast(tc::view(m, {3, 2}).with_strides({1, 3}), tc::view(t2, {3, 2}));
  CHECK(t2 == t);
  static_assert(std::is_same<decltype(tc::view(m).with_strides({1})), tc::tensor_view>::value,
                "a strided view is an input");

  // Casting levels: float32 -> float16 is not safe in numpy.
  const tc::options safe = tc::options().casting_level(tc::casting::safe);
  const auto refused = tc::try_cast<tc::float16>(six, safe);
  CHECK(!refused && refused.error().code == tc::status::casting);
  CHECK(tc::try_cast<double>(six, safe).has_value());
  CHECK(tc::try_cast<tc::float16>(six).value_or(std::vector<tc::float16>{}).size() == 6);

  // Packed types through an explicit dtype: 3 INT4 take 2 bytes.
  const std::int8_t small[3] = {-8, 7, 1};
  std::uint8_t packed[2] = {0, 0};
  tc::cast(tc::view(small), tc::mutable_tensor_view(packed, sizeof packed, tc::dtype::int4, {3}));
  std::int8_t unpacked[3] = {0, 0, 0};
  tc::cast(tc::tensor_view(packed, sizeof packed, tc::dtype::int4, {3}), tc::view(unpacked));
  CHECK(unpacked[0] == -8 && unpacked[1] == 7 && unpacked[2] == 1);
  CHECK(tc::tensor_bytes(tc::dtype::int4, {3}) == 2);
  // One INT4 per byte, as ml_dtypes holds them: -8 is 0x08, 7 is 0x07; high bits ignored.
  const tc::options one_per_byte = tc::options().sub_bytes(tc::sub_byte_layout::unpacked);
  std::uint8_t bytes[3] = {0xff, 0xff, 0xff};
  tc::cast(tc::view(small), tc::mutable_tensor_view(bytes, sizeof bytes, tc::dtype::int4, {3}),
           one_per_byte);
  CHECK(bytes[0] == 0x08 && bytes[1] == 0x07 && bytes[2] == 0x01);
  bytes[2] = 0xf1;
  std::int8_t read[3] = {0, 0, 0};
  tc::cast(tc::tensor_view(bytes, sizeof bytes, tc::dtype::int4, {3}), tc::view(read),
           one_per_byte);
  CHECK(read[0] == -8 && read[1] == 7 && read[2] == 1);
  const auto short_buffer = tc::try_cast(
      tc::view(small), tc::mutable_tensor_view(bytes, 2, tc::dtype::int4, {3}), one_per_byte);
  CHECK(!short_buffer && short_buffer.error().code == tc::status::buffer_too_small);
  EXPECT_ERROR(tc::status::invalid_shape, (void)tc::tensor_bytes(tc::dtype::int4, {-1}));

#if __cplusplus >= 202002L
  // C++20: std::span is a container like any other.
  std::span<const float> s(six);
  std::vector<std::int64_t> wide(6);
  std::span<std::int64_t> ws(wide);
  tc::cast(tc::view(s), tc::view(ws));
  CHECK(wide[4] == 5);
#endif
}

// ---- the host's executor through options

struct counting_pool {
  std::atomic<int> calls{0};
  std::atomic<std::uint64_t> tasks{0};
};

void run_inline(void *ctx, std::uint64_t n, tcast_task_fn task, void *task_ctx) {
  auto *pool = static_cast<counting_pool *>(ctx);
  pool->calls++;
  for (std::uint64_t i = n; i-- > 0;) {  // in reverse: the order is the library's business
    pool->tasks++;
    task(task_ctx, i);
  }
}

void test_executor() {
  counting_pool pool;
  tcast_executor exec;
  exec.ctx = &pool;
  exec.parallel_for = run_inline;
  std::vector<float> x(1 << 20);
  for (std::size_t i = 0; i < x.size(); i++) {
    x[i] = static_cast<float>(i) * 0.37f - 1000.0f;
  }
  const auto parallel = tc::cast<tc::float16>(x, tc::options().threads(4).executor(&exec));
  CHECK(pool.calls == 1 && pool.tasks > 1);
  CHECK(same_bytes(parallel, tc::cast<tc::float16>(x)));

  // tensorcast::executor over a callable: one std::thread per task, and the same bytes;
  // then the string casts and Expand through it too.
  std::atomic<int> runs{0};
  std::atomic<std::uint64_t> seen{0};
  const tc::executor threads([&](std::uint64_t n, auto &&task) noexcept {
    runs++;
    std::vector<std::thread> started;
    for (std::uint64_t i = 0; i < n; i++) {
      started.emplace_back([&task, &seen, i] {
        seen++;
        task(i);
      });
    }
    for (std::thread &t : started) {
      t.join();
    }
  });
  const tc::options with_pool = tc::options().threads(2).executor(threads);
  CHECK(with_pool.executor() == threads.get());
  CHECK(same_bytes(tc::cast<tc::float16>(x, with_pool), parallel));
  CHECK(runs == 1 && seen > 1);
  const std::vector<double> d(x.begin(), x.begin() + (1 << 17));
  const std::vector<std::string> texts = tc::to_strings(tc::view(d), with_pool);
  CHECK(texts == tc::to_strings(d));
  CHECK(same_bytes(tc::parse<double>(texts, with_pool), d));
  std::vector<float> wide(static_cast<std::size_t>(1) << 22);
  tc::expand(tc::view(x.data(), 1024, {1, 1024}), tc::view(wide, {4096, 1024}), with_pool);
  CHECK(wide[4095u * 1024u + 7u] == x[7] && runs >= 3);
}

// ---- strings

void test_strings() {
  const std::vector<float> x{1.0f, 0.1f, 1e-5f, 100.0f, -2.5f};
  const std::vector<std::string> s = tc::to_strings(x);
  CHECK(s.size() == 5 && s[0] == "1.0" && s[1] == "0.1" && s[2] == "1e-05" && s[3] == "100.0" &&
        s[4] == "-2.5");
  // printf's "%.8g", as the C library writes it.
  const std::vector<std::string> g =
      tc::to_strings(x, tc::options().format(tc::string_format::printf_8g));
  for (std::size_t i = 0; i < x.size(); i++) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.8g", static_cast<double>(x[i]));
    CHECK(g[i] == buf);
  }
  const std::vector<tc::float16> h = tc::cast<tc::float16>(x);
  CHECK(tc::to_strings(h)[1] == "0.1");  // the shortest text that reads back as that half
  const std::vector<std::string> empty = tc::to_strings(std::vector<double>{});
  CHECK(empty.empty());
  EXPECT_ERROR(tc::status::unsupported,
               (void)tc::to_strings(std::vector<std::complex<float>>{{1.0f, 2.0f}}));
  // A shape the buffer does not hold, or that overflows, is reported before anything is
  // allocated for it (not as std::bad_alloc): the library's own messages.
  const tc::error_info shortin = EXPECT_ERROR(
      tc::status::buffer_too_small,
      (void)tc::to_strings(tc::tensor_view(x.data(), 20, tc::dtype::float32, {1LL << 40})));
  CHECK(shortin.message.find("needs") != std::string::npos);
  EXPECT_ERROR(tc::status::invalid_shape,
               (void)tc::to_strings(tc::tensor_view(x.data(), 20, tc::dtype::float32,
                                                    {1LL << 40, 1LL << 40})));
  EXPECT_ERROR(tc::status::invalid_shape,
               (void)tc::to_strings(tc::tensor_view(x.data(), 20, tc::dtype::float32, {-1})));
  // A stride-0 input of one element may stand for many: that is honoured.
  const std::vector<std::string> same =
      tc::to_strings(tc::tensor_view(x.data(), 4, tc::dtype::float32, {3}).with_strides({0}));
  CHECK(same.size() == 3 && same[2] == "1.0");

  // Parsing: every string-like container, errors at the first bad text.
  const std::vector<double> d = tc::parse<double>({" 1.5", "-2", "inf", "1e-310"});
  CHECK(d[0] == 1.5 && d[1] == -2.0 && d[2] > 1e308 && d[3] > 0.0 && d[3] < 1e-300);
  const std::vector<std::string> texts{"1", "0.1", "65504", "-2.5"};
  const std::vector<tc::float16> ph = tc::parse<tc::float16>(texts);
  CHECK(same_bytes(ph, tc::cast<tc::float16>(std::vector<float>{1.0f, 0.1f, 65504.0f, -2.5f})));
  const char *cstrs[] = {"300", "-5"};
  const std::vector<std::int8_t> i8 = tc::parse<std::int8_t>(cstrs);
  CHECK(i8[0] == 127 && i8[1] == -5);
  const tc::error_info bad = EXPECT_ERROR(tc::status::parse, (void)tc::parse<float>({"1", "2", "x", "4"}));
  CHECK(bad.index == 2);
  const auto tried = tc::try_parse<float>(std::vector<std::string>{"nan", ""});
  CHECK(!tried && tried.error().index == 1);
}

// ---- expand and bitcast

void test_expand() {
  CHECK(tc::expand_shape({3, 1}, {2, 1, 4}) == tc::dims({2, 3, 4}));
  const std::vector<int> col{1, 2, 3};
  const std::vector<int> e = tc::expand(col, {3, 1}, {2, 1, 4});
  CHECK(e.size() == 24);
  bool ok = true;
  for (int a = 0; a < 2; a++) {
    for (int b = 0; b < 3; b++) {
      for (int c = 0; c < 4; c++) {
        ok = ok && e[static_cast<std::size_t>(a * 12 + b * 4 + c)] == col[static_cast<std::size_t>(b)];
      }
    }
  }
  CHECK(ok);
  const tc::error_info bad = EXPECT_ERROR(tc::status::incompatible_shapes, (void)tc::expand_shape({3}, {4}));
  CHECK(bad.message.find('3') != std::string::npos && bad.message.find('4') != std::string::npos);

  // Ranks beyond dims' inline 8: the shape functions' retry path, and dims on the heap.
  const tc::dims ten{1, 1, 1, 1, 1, 1, 1, 1, 1, 5};
  const tc::dims out = tc::expand_shape({5}, ten);
  CHECK(out == ten && out.size() == 10 && out[9] == 5);
  tc::dims moved = tc::dims(out);
  tc::dims copy;
  copy = moved;
  CHECK(copy == ten);
  tc::dims taken = std::move(moved);
  CHECK(taken == ten && moved.empty());
  std::vector<float> five_out(5);
  tc::expand(tc::view(std::vector<float>{1, 2, 3, 4, 5}.data(), 5), tc::view(five_out, ten));
  CHECK(five_out[4] == 5.0f);
}

void test_bitcast() {
  const std::vector<float> x{1.0f, -2.0f};
  const tc::tensor_view as_u32 = tc::bitcast(tc::view(x), tc::dtype::uint32, tc::bitcast_rules::tf);
  CHECK(as_u32.data() == x.data() && as_u32.type() == tc::dtype::uint32 &&
        as_u32.shape() == tc::dims({2}));
  std::vector<std::uint32_t> bits(2);
  tc::cast(as_u32, tc::view(bits));
  CHECK(bits[0] == 0x3f800000u && bits[1] == 0xc0000000u);

  // A larger element appends a dimension (TF), numpy rescales the last axis.
  std::vector<double> d{1.0, 2.0, 3.0};
  const tc::mutable_tensor_view bytes = tc::bitcast(tc::view(d), tc::dtype::uint8, tc::bitcast_rules::tf);
  CHECK(bytes.shape() == tc::dims({3, 8}) && bytes.data() == d.data());
  CHECK(tc::bitcast(tc::view(d), tc::dtype::uint8, tc::bitcast_rules::numpy_view).shape() ==
        tc::dims({24}));
  CHECK(tc::bitcast_shape(tc::dtype::float64, {3}, tc::dtype::uint16, tc::bitcast_rules::tf) ==
        tc::dims({3, 4}));
  const tc::dims nine{1, 1, 1, 1, 1, 1, 1, 1, 2};
  CHECK(tc::bitcast_shape(tc::dtype::float64, nine, tc::dtype::uint8, tc::bitcast_rules::tf) ==
        tc::dims({1, 1, 1, 1, 1, 1, 1, 1, 2, 8}));
  EXPECT_ERROR(tc::status::unsupported,
               (void)tc::bitcast(tc::view(x), tc::dtype::float16, tc::bitcast_rules::onnx));
  // A smaller element needs a last dimension of the size ratio, which goes.
  CHECK(tc::bitcast(tc::view(x), tc::dtype::float64, tc::bitcast_rules::tf).shape().empty());
  const auto refused =
      tc::try_bitcast(tc::view(x.data(), 1), tc::dtype::float64, tc::bitcast_rules::tf);
  CHECK(!refused && refused.error().code == tc::status::incompatible_shapes);

  CHECK(tc::can_cast(tc::dtype::int32, tc::dtype::float64, tc::casting::safe));
  CHECK(!tc::can_cast(tc::dtype::float64, tc::dtype::int32, tc::casting::same_kind));
  CHECK(tc::can_cast(tc::dtype::float64, tc::dtype::int32, tc::casting::unsafe));
  EXPECT_ERROR(tc::status::invalid_argument,
               (void)tc::can_cast(tc::dtype::int32, tc::dtype::float64, tc::casting::never));
}

// ---- numpy

void test_numpy() {
  const tc::np_dtype i4 = tc::np_dtype::parse(">i4");
  CHECK(i4 && i4.str() == ">i4");
  CHECK(tc::np_dtype::parse("float32").str() == "float32");
  // A text longer than the layer's first buffer: sized through `needed`, then written.
  std::string spec;
  for (int i = 0; i < 12; i++) {
    spec += i == 0 ? "" : ",";
    spec += (i % 2 == 0) ? "<i4" : "<U17";
  }
  const tc::np_dtype wide = tc::np_dtype::parse(spec);
  const std::string text = wide.str();
  std::vector<char> buf(4096);
  std::uint64_t needed = 0;
  tcast_error err;
  CHECK(tcast_np_dtype_str(wide.get(), buf.data(), buf.size(), &needed, &err) == TCAST_OK);
  CHECK(text.size() > 96 && text == buf.data() && needed == text.size() + 1);

  const tc::np_dtype f8 = tc::np_dtype::parse("f8");
  CHECK(tc::np_can_cast(i4, f8, tc::casting::safe));
  CHECK(!tc::np_can_cast(f8, i4, tc::casting::same_kind));
  CHECK(tc::np_casting_level(f8, i4) == tc::casting::unsafe);
  CHECK(tc::np_casting_level(i4, tc::np_dtype::parse("<i4")) == tc::casting::equiv);
  CHECK(tc::np_can_cast("U3", "U5", tc::casting::safe));
  CHECK(tc::np_promote_types("i4", "f4") == "float64");
  CHECK(tc::np_promote_types("S3", "U2") == "<U3");
  EXPECT_ERROR(tc::status::parse, (void)tc::np_dtype::parse("not a dtype"));
  CHECK(!tc::np_dtype::try_parse("i4,").has_value() || tc::np_dtype::try_parse("i4,").value());

  // Move-only ownership: a moved-from handle is empty, assignment frees the old one
  // (valgrind's memcheck run of this test sees any leak or double free).
  tc::np_dtype a = tc::np_dtype::parse("u2");
  tc::np_dtype b = std::move(a);
  CHECK(!a && b && b.str() == "uint16");
  b = tc::np_dtype::parse("c16");
  CHECK(b.str() == "complex128");
  tcast_np_dtype *raw = b.release();
  CHECK(!b && raw != nullptr);
  tcast_np_dtype_free(raw);
}


// ---- strides of the wrong rank (issue 26, point 2)

// One stride per dimension, or the view is refused before the library could read past the
// strides: the constructor and with_strides() throw INVALID_SHAPE, their try_ forms
// return it. Under valgrind (memcheck_test_cpp*), a read past the nine strides of a rank-10
// view would be an invalid read.
void test_strides_rank() {
  float p[1] = {2.5f};
  const float *cp = p;
  const tc::dims ten{1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  const tc::dims nine{1, 1, 1, 1, 1, 1, 1, 1, 1};

  // The case, on a writable and on a read-only view; then in a cast, which used
  // to hand the library nine strides for ten dimensions (valgrind: an invalid read of 8
  // bytes just past them, and a cast that succeeded).
  const tc::error_info e =
      EXPECT_ERROR(tc::status::invalid_shape, (void)tc::view(p, 1, ten).with_strides(nine));
  std::vector<float> sink(1);
  EXPECT_ERROR(tc::status::invalid_shape,
               tc::cast(tc::view(p, 1, ten).with_strides(nine), tc::view(sink, ten)));
  CHECK(e.index == -1);
  CHECK(e.message.find("9 strides") != std::string::npos &&
        e.message.find("rank 10") != std::string::npos);
  EXPECT_ERROR(tc::status::invalid_shape, (void)tc::view(cp, 1, ten).with_strides(nine));
  // More strides than dimensions, and strides on a scalar, are refused the same way.
  EXPECT_ERROR(tc::status::invalid_shape, (void)tc::view(cp, 1, {1}).with_strides({1, 1}));
  EXPECT_ERROR(tc::status::invalid_shape, (void)tc::view(cp, 1, {}).with_strides({0}));

  // The constructor form.
  const tc::error_info c = EXPECT_ERROR(
      tc::status::invalid_shape, tc::tensor_view(p, sizeof p, tc::dtype::float32, ten, nine));
  CHECK(c.message == e.message);

  // The try_ forms return the same error and throw nothing.
  bool threw = false;
  try {
    const tc::result<tc::tensor_view> w = tc::view(p, 1, ten).try_with_strides(nine);
    CHECK(!w && w.error().code == tc::status::invalid_shape && w.error().message == e.message);
    const tc::result<tc::tensor_view> r = tc::view(cp, 1, ten).try_with_strides(nine);
    CHECK(!r && r.error().code == tc::status::invalid_shape && r.error().message == e.message);
    const tc::result<tc::tensor_view> k =
        tc::tensor_view::try_create(p, sizeof p, tc::dtype::float32, ten, nine);
    CHECK(!k && k.error().code == tc::status::invalid_shape && k.error().message == e.message);
  } catch (...) {
    threw = true;
  }
  CHECK(!threw);

  // The right rank still works through every form: ten zero strides read p[0] for each of
  // the ten-dimensional output's one element; the descriptor points at the view's strides.
  const tc::dims zeros{0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  std::vector<double> out(1);
  const tc::tensor_view strided = tc::view(cp, 1, ten).with_strides(zeros);
  const tcast_tensor ct = strided.c_tensor();
  CHECK(ct.ndim == 10 && ct.strides == strided.strides()->data() &&
        strided.strides()->size() == 10);
  tc::cast(strided, tc::view(out, ten));
  CHECK(out[0] == 2.5);
  const tc::result<tc::tensor_view> made =
      tc::tensor_view::try_create(p, sizeof p, tc::dtype::float32, ten, zeros);
  CHECK(made.has_value() && made->strides() != nullptr && *made->strides() == zeros);
  out[0] = 0.0;
  CHECK(tc::try_cast(*made, tc::view(out, ten)).has_value() && out[0] == 2.5);
  const tc::result<tc::tensor_view> again = tc::view(p, 1, ten).try_with_strides(zeros);
  CHECK(again.has_value() && again->shape() == ten && *again->strides() == zeros);

  // Copies and moves keep one stride per dimension: a moved-from view is a rank-0 scalar
  // with no strides left, not a rank-10 shape with an emptied strides array.
  tc::tensor_view copy = strided;
  CHECK(copy.c_tensor().ndim == 10 && copy.strides()->size() == 10);
  tc::tensor_view taken = std::move(copy);
  CHECK(taken.shape() == ten && *taken.strides() == zeros);
  CHECK(copy.shape().size() == copy.strides()->size());  // NOLINT: moved-from on purpose
  copy = taken;
  CHECK(copy.shape() == ten && *copy.strides() == zeros);
}

// ---- text with an embedded NUL (issue 26, point 3)

// A C string ends at its first NUL: every function of the layer that hands text to the
// library refuses a text holding one (TCAST_ERR_PARSE), instead of answering for the part
// before it, as parse<float> of the STRING "2\0" already does.
void test_embedded_nul() {
  using namespace std::string_literals;
  using namespace std::string_view_literals;
  const std::string float_junk = "FLOAT\0junk"s;
  CHECK(float_junk.size() == 10);  // the literal suffix keeps what follows the NUL
  CHECK(tc::dtype_from_name("FLOAT") == tc::dtype::float32);
  EXPECT_ERROR(tc::status::parse, (void)tc::dtype_from_name(float_junk));
  EXPECT_ERROR(tc::status::parse, (void)tc::dtype_from_name("FLOAT\0junk"sv));
  EXPECT_ERROR(tc::status::parse, (void)tc::dtype_from_name("FLOAT\0"sv));
  EXPECT_ERROR(tc::status::parse, (void)tc::dtype_from_name("\0FLOAT"sv));
  // A const char * is its characters up to the NUL, as in C.
  CHECK(tc::dtype_from_name("FLOAT\0junk") == tc::dtype::float32);

  // The STRING cast, which the layer already passed with its length: the reference.
  EXPECT_ERROR(tc::status::parse, (void)tc::parse<float>(std::vector<std::string>{"2\0"s}));

  const std::string i4_garbage = "i4\0garbage"s;
  EXPECT_ERROR(tc::status::parse, (void)tc::np_dtype::parse(i4_garbage));
  const tc::result<tc::np_dtype> tried = tc::np_dtype::try_parse("i4\0garbage"sv);
  CHECK(!tried && tried.error().code == tc::status::parse && !tried.error().message.empty());
  CHECK(tc::np_dtype::parse("i4").str() == "int32");
  // numpy reads the spec '\x00' as type number 0 (bool); here it is refused like ''.
  EXPECT_ERROR(tc::status::parse, (void)tc::np_dtype::parse("\0"sv));

  // The functions over dtype specs: either side.
  EXPECT_ERROR(tc::status::parse, (void)tc::np_can_cast("i4\0garbage"sv, "f8", tc::casting::safe));
  EXPECT_ERROR(tc::status::parse, (void)tc::np_can_cast("i4", "f8\0"sv, tc::casting::safe));
  CHECK(tc::np_can_cast("i4", "f8", tc::casting::safe));
  EXPECT_ERROR(tc::status::parse, (void)tc::np_promote_types("i4\0f8"sv, "f4"));
  EXPECT_ERROR(tc::status::parse, (void)tc::np_promote_types("i4", "f4\0i8"sv));
  CHECK(tc::np_promote_types("i4", "f4") == "float64");

  // The message says where the NUL is.
  const tc::error_info at = EXPECT_ERROR(tc::status::parse, (void)tc::dtype_from_name(float_junk));
  CHECK(at.message.find("NUL") != std::string::npos &&
        at.message.find("offset 5") != std::string::npos);
}

// ---- what escapes from the functions that return containers (issue 26, point 3)

// Besides tensorcast::error, a container the standard library cannot make escapes as the
// standard library reports it: 2**62 floats exceed std::vector's max_size(), so
// std::length_error, thrown before anything is allocated or cast.
void test_container_limits() {
  const std::vector<float> one{1.0f};
  CHECK(tc::expand_shape({1}, {1LL << 62}) == tc::dims({1LL << 62}));
  bool length_error = false;
  try {
    (void)tc::expand(one, {1}, {1LL << 62});
  } catch (const std::length_error &) {
    length_error = true;
  } catch (...) {
  }
  CHECK(length_error);
  // A shape the library refuses is still its error.
  EXPECT_ERROR(tc::status::invalid_shape, (void)tc::expand(one, {1}, {1LL << 62, 1LL << 62}));
}

// ---- what the library runs on this CPU

// cpu_info() is tcast_cpu_info's line, whatever TCAST_DISABLE_CPU_FEATURES says (the
// portable pass of scripts/test.sh runs this program with it set to "all").
void test_cpu_info() {
  std::uint64_t needed = 0;
  tcast_error err;
  CHECK(tcast_cpu_info(nullptr, 0, &needed, &err) == TCAST_OK && needed > 1);
  std::vector<char> buf(static_cast<std::size_t>(needed));
  CHECK(tcast_cpu_info(buf.data(), needed, nullptr, &err) == TCAST_OK);
  const std::string c_line(buf.data());

  const std::string line = tc::cpu_info();
  CHECK(line == c_line && line.size() + 1 == needed);
  CHECK(line.rfind("arch=", 0) == 0);
  const std::size_t kernels = line.find(" kernels=");
  const std::size_t withdrawn = line.find(" withdrawn=");
  const std::size_t unknown = line.find(" unknown=");
  CHECK(kernels != std::string::npos && withdrawn != std::string::npos &&
        unknown != std::string::npos && kernels < withdrawn && withdrawn < unknown);
  CHECK(line.find('\n') == std::string::npos && line.find('\0') == std::string::npos);

  const tc::result<std::string> tried = tc::try_cpu_info();
  CHECK(tried.has_value() && *tried == c_line);
}

}  // namespace

// QuantizeLinear / DequantizeLinear: MXFP4 with a FLOAT8E8M0 scale (block 2 along the
// last axis), both ways, and an error in the result.
void test_qdq() {
  const std::uint8_t packed[2] = {0x72, 0x9F};  // FLOAT4 codes 2 (1), 7 (6), 15 (-6), 9 (-0.5)
  const std::uint8_t scales[2] = {128, 126};     // 2, 0.5
  float y[4] = {};
  tc::dequantize_linear(tc::tensor_view(packed, 2, tc::dtype::float4e2m1, {4}),
                        tc::tensor_view(scales, 2, tc::dtype::float8e8m0, {2}), nullptr,
                        tc::mutable_tensor_view(y, sizeof y, tc::dtype::float32, {4}),
                        tc::qdq_options().axis(0).block_size(2));
  CHECK(y[0] == 2.0f && y[1] == 12.0f && y[2] == -3.0f && y[3] == -0.25f);
  std::uint8_t back[2] = {};
  tc::quantize_linear(tc::tensor_view(y, sizeof y, tc::dtype::float32, {4}),
                      tc::tensor_view(scales, 2, tc::dtype::float8e8m0, {2}), nullptr,
                      tc::mutable_tensor_view(back, 2, tc::dtype::float4e2m1, {4}),
                      tc::qdq_options().axis(0).block_size(2));
  CHECK(back[0] == 0x72 && back[1] == 0x9F);
  auto bad = tc::try_dequantize_linear(
      tc::tensor_view(packed, 2, tc::dtype::float4e2m1, {4}),
      tc::tensor_view(scales, 2, tc::dtype::float8e8m0, {2}), nullptr,
      tc::mutable_tensor_view(y, sizeof y, tc::dtype::float32, {4}), tc::qdq_options().axis(0));
  CHECK(!bad && bad.error().code == tc::status::invalid_shape);
}

// MX / NVFP4 (docs/semantics-mx.md). The expected values come from the OCP MX rules written
// out here: an E8M0 scale 2^(floor(log2(amax)) - emax) with emax 2 for E2M1 and 8 for
// E4M3, E2M1 codes as the nearest of its eight magnitudes with ties to the even code.
namespace mxref {
const float e2m1_values[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};

// E8M0 code of the FLOOR rule: frexp gives amax = m * 2^e with m in [0.5, 1), so
// floor(log2(amax)) = e - 1.
int e8m0_floor(float amax, int emax) {
  int e = 0;
  std::frexp(amax, &e);
  return (e - 1) - emax + 127;
}

// The E2M1 code of v (already divided by the scale): nearest, ties to even, saturating.
std::uint8_t e2m1_code(float v) {
  const float m = std::fabs(v);
  int best = 0;
  for (int c = 1; c < 8; c++) {
    const float d = std::fabs(e2m1_values[c] - m);
    const float bd = std::fabs(e2m1_values[best] - m);
    if (d < bd || (d == bd && c % 2 == 0)) {
      best = c;
    }
  }
  return static_cast<std::uint8_t>(best | (std::signbit(v) ? 8 : 0));
}
}  // namespace mxref

void test_mx() {
  // Three MXFP4 blocks of 32: amax 6.66 (scale 2^(2-2) = 1), one with NaN, one of zeros.
  float x[96];
  for (int i = 0; i < 32; i++) {
    x[i] = static_cast<float>(i - 13) * 0.37f;
  }
  for (int i = 32; i < 96; i++) {
    x[i] = i < 64 ? 1.0f : 0.0f;
  }
  x[45] = std::nanf("");
  std::uint8_t y[48] = {};
  std::uint8_t s[3] = {};
  tc::mx_quantize(tc::tensor_view(x, sizeof x, tc::dtype::float32, {96}),
                  tc::mutable_tensor_view(y, sizeof y, tc::dtype::float4e2m1, {96}),
                  tc::mutable_tensor_view(s, sizeof s, tc::dtype::float8e8m0, {3}), nullptr);
  const int code0 = mxref::e8m0_floor(18 * 0.37f, 2);
  CHECK(code0 == 127);
  CHECK(s[0] == code0 && s[1] == 0xFF && s[2] == 0);
  bool codes_ok = true;
  for (int i = 0; i < 32; i++) {
    const float scaled = std::ldexp(x[i], 127 - code0);
    const int got = (y[i / 2] >> (4 * (i % 2))) & 0xF;
    codes_ok = codes_ok && got == mxref::e2m1_code(scaled);
  }
  CHECK(codes_ok);
  bool zeros = true;
  for (int i = 16; i < 48; i++) {
    zeros = zeros && y[i] == 0;  // the NaN block and the zero block: all elements 0
  }
  CHECK(zeros);

  // Back to FLOAT: code value times 2^(scale - 127); the NaN scale gives NaN.
  float back[96] = {};
  tc::mx_dequantize(tc::tensor_view(y, sizeof y, tc::dtype::float4e2m1, {96}),
                    tc::tensor_view(s, sizeof s, tc::dtype::float8e8m0, {3}), nullptr,
                    tc::mutable_tensor_view(back, sizeof back, tc::dtype::float32, {96}));
  bool values_ok = true;
  for (int i = 0; i < 32; i++) {
    const int code = (y[i / 2] >> (4 * (i % 2))) & 0xF;
    const float v = (code & 8 ? -1.0f : 1.0f) * mxref::e2m1_values[code & 7];
    values_ok = values_ok && back[i] == std::ldexp(v, code0 - 127);
  }
  CHECK(values_ok);
  CHECK(std::isnan(back[32]) && std::isnan(back[63]) && back[64] == 0.0f);

  // MXFP8 E4M3 with CEIL: amax 1000 gives 2^(ceil(log2 1000) - 8) = 2^2, 1000 / 4 = 250
  // rounds to 256 (E4M3 0x78: 2^8 * 1.0; its neighbour below is 240) and 3 / 4 = 0.75 is
  // 0x34 (2^-1 * 1.5); FLOOR gives 2^1, where 1000 / 2 = 500 saturates to 448 (0x7E).
  float x8[32] = {};
  x8[0] = 1000.0f;
  x8[1] = 3.0f;
  std::uint8_t y8[32] = {};
  std::uint8_t s8[1] = {};
  tc::mx_quantize(tc::tensor_view(x8, sizeof x8, tc::dtype::float32, {32}),
                  tc::mutable_tensor_view(y8, sizeof y8, tc::dtype::float8e4m3fn, {32}),
                  tc::mutable_tensor_view(s8, 1, tc::dtype::float8e8m0, {1}), nullptr,
                  tc::mx_options().scale_rule(tc::mx_scale_rule::ceil));
  CHECK(s8[0] == 127 + 10 - 8 && y8[0] == 0x78 && y8[1] == 0x34);
  tc::mx_quantize(tc::tensor_view(x8, sizeof x8, tc::dtype::float32, {32}),
                  tc::mutable_tensor_view(y8, sizeof y8, tc::dtype::float8e4m3fn, {32}),
                  tc::mutable_tensor_view(s8, 1, tc::dtype::float8e8m0, {1}), nullptr);
  CHECK(s8[0] == mxref::e8m0_floor(1000.0f, 8) && s8[0] == 128 && y8[0] == 0x7E);

  // NVFP4: the global scale amax / (6 * 448); missing, it is an error that names it.
  float x4[16];
  for (int i = 0; i < 16; i++) {
    x4[i] = static_cast<float>(i + 1) * 0.25f;
  }
  std::uint8_t y4[8] = {};
  std::uint8_t s4[1] = {};
  float g = 0.0f;
  tc::mutable_tensor_view gv(&g, sizeof g, tc::dtype::float32, {1});
  tc::mx_quantize(tc::tensor_view(x4, sizeof x4, tc::dtype::float32, {16}),
                  tc::mutable_tensor_view(y4, sizeof y4, tc::dtype::float4e2m1, {16}),
                  tc::mutable_tensor_view(s4, 1, tc::dtype::float8e4m3fn, {1}), &gv);
  CHECK(g == static_cast<float>(4.0 / 2688.0));
  CHECK(s4[0] == 0x7E && (y4[7] >> 4) == 7);  // block scale 448, 4 / (448 g) = 6
  auto no_global = tc::try_mx_quantize(
      tc::tensor_view(x4, sizeof x4, tc::dtype::float32, {16}),
      tc::mutable_tensor_view(y4, sizeof y4, tc::dtype::float4e2m1, {16}),
      tc::mutable_tensor_view(s4, 1, tc::dtype::float8e4m3fn, {1}), nullptr);
  CHECK(!no_global && no_global.error().code == tc::status::invalid_argument &&
        no_global.error().message.find("global_scale") != std::string::npos);
  auto info = EXPECT_ERROR(
      tc::status::invalid_argument,
      tc::mx_quantize(tc::tensor_view(x, sizeof x, tc::dtype::float32, {96}),
                      tc::mutable_tensor_view(y, sizeof y, tc::dtype::float4e2m1, {96}),
                      tc::mutable_tensor_view(s, sizeof s, tc::dtype::float8e8m0, {3}), nullptr,
                      tc::mx_options().scale_rule(static_cast<tc::mx_scale_rule>(7))));
  CHECK(info.message.find("scale_rule is 7") != std::string::npos);

  // Repack two ONNX blocks to gpt-oss (the same bytes, scales as UINT8) and to ggml
  // (byte e, then qs[j] = element j | element j + 16 << 4), built here by hand.
  std::uint8_t codes[64];
  for (int i = 0; i < 64; i++) {
    codes[i] = static_cast<std::uint8_t>((i * 7 + 3) & 0xF);
  }
  std::uint8_t onnx[32];
  for (int j = 0; j < 32; j++) {
    onnx[j] = static_cast<std::uint8_t>(codes[2 * j] | (codes[2 * j + 1] << 4));
  }
  const std::uint8_t scales[2] = {120, 0xFF};
  std::uint8_t ggml_want[34];
  for (int b = 0; b < 2; b++) {
    ggml_want[17 * b] = scales[b];
    for (int j = 0; j < 16; j++) {
      ggml_want[17 * b + 1 + j] =
          static_cast<std::uint8_t>(codes[32 * b + j] | (codes[32 * b + j + 16] << 4));
    }
  }
  const tc::tensor_view onnx_data(onnx, sizeof onnx, tc::dtype::float4e2m1, {64});
  const tc::tensor_view onnx_scales(scales, 2, tc::dtype::float8e8m0, {2});
  std::uint8_t blocks[32] = {};
  std::uint8_t gpt_scales[2] = {};
  tc::mutable_tensor_view gpt_scales_view(gpt_scales, 2, tc::dtype::uint8, {2});
  tc::mx_repack(tc::mx_layout::onnx, onnx_data, &onnx_scales, tc::mx_layout::gpt_oss,
                tc::mutable_tensor_view(blocks, sizeof blocks, tc::dtype::uint8, {2, 16}),
                &gpt_scales_view);
  CHECK(std::memcmp(blocks, onnx, 32) == 0 && std::memcmp(gpt_scales, scales, 2) == 0);
  std::uint8_t ggml[34] = {};
  tc::mx_repack(tc::mx_layout::onnx, onnx_data, &onnx_scales, tc::mx_layout::ggml,
                tc::mutable_tensor_view(ggml, sizeof ggml, tc::dtype::uint8, {2, 17}), nullptr);
  CHECK(std::memcmp(ggml, ggml_want, sizeof ggml) == 0);
  auto bad = tc::try_mx_repack(
      static_cast<tc::mx_layout>(5), onnx_data, &onnx_scales, tc::mx_layout::ggml,
      tc::mutable_tensor_view(ggml, sizeof ggml, tc::dtype::uint8, {2, 17}), nullptr);
  CHECK(!bad && bad.error().code == tc::status::invalid_argument &&
        bad.error().message.find("from_layout is 5") != std::string::npos);
}

int main() {
  test_enums();
  test_options();
  test_cast_typed();
  test_cast_views();
  test_executor();
  test_strings();
  test_expand();
  test_bitcast();
  test_numpy();
  test_strides_rank();
  test_embedded_nul();
  test_container_limits();
  test_cpu_info();
  test_qdq();
  test_mx();
  std::printf("test_cpp (__cplusplus %ldL): %d passed, %d failed\n", static_cast<long>(__cplusplus),
              passed, failed);
  return failed == 0 ? 0 : 1;
}
