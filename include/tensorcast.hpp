// SPDX-License-Identifier: MIT OR Apache-2.0
/*
 * tensorcast.hpp: the C++17 layer over tensorcast.h. Header-only: it links the same
 * library (-ltensorcast, or CMake's tensorcast::tensorcast) and adds no symbol of its own.
 *
 *   #include <tensorcast.hpp>
 *   std::vector<float> x{1.0f, 0.1f, -2.5f, 65504.0f};
 *   auto h = tensorcast::cast<tensorcast::float16>(x);  // std::vector<float16>, h[0].bits == 0x3c00
 *   auto back = tensorcast::cast<float>(h);             // {1, 0.0999755859, -2.5, 65504}
 *
 * What it gives over the C header:
 * - enum class dtype, status, casting, round_mode, string_format, sub_byte_layout,
 *   bitcast_rules and numpy_rules, whose values are the C constants (TCAST_*);
 * - tensorcast::error (a std::runtime_error carrying the status and the element index),
 *   thrown by every function whose name does not start with try_; the try_ functions
 *   return a result<T> instead (std::expected's shape: has_value(), value(), error()).
 *   What the standard library throws escapes from both: a function that makes a
 *   container or a string (its result, a buffer for the library, a dims of more than 8
 *   extents, an error's message) throws std::bad_alloc when memory runs out and
 *   std::length_error when the size asked for exceeds the container's max_size() (as
 *   expand(floats, {1}, {1LL << 62}) does: 2**62 floats); result's operator* and -> on
 *   an error, and error() on a value, throw std::bad_variant_access;
 * - storage types for the float formats C++ has no type for (float16, bfloat16, the
 *   one-byte float8 formats): the raw bits, distinct from uint16_t/uint8_t, so that
 *   dtype_of<T> maps every element type to exactly one dtype; under C++23,
 *   std::float16_t and std::bfloat16_t map to FLOAT16 and BFLOAT16 too;
 * - tensor_view (read-only) and mutable_tensor_view: a buffer, its dtype and its shape
 *   (dims, held by value), made by view() from a pointer and a count or from any
 *   contiguous container (std::vector, std::array, C arrays, std::span); a const
 *   container gives a tensor_view, which cannot be passed as an output;
 * - options, whose constructor takes the library's defaults
 *   (tcast_cast_options_init), with chainable setters, and executor<Run>, which
 *   lends the library the host's thread pool as a callable;
 * - cast, to_strings, parse, expand, bitcast and their shape functions, can_cast, a
 *   move-only RAII np_dtype for the numpy casting rules, and cpu_info;
 * - quantize_linear / dequantize_linear with qdq_options (ONNX Q/DQ), and mx_quantize,
 *   mx_dequantize and mx_repack with mx_options, mx_scale_rule and mx_layout (MX, NVFP4).
 *
 * Everything is in namespace tensorcast; nothing here allocates unless it returns a
 * container or a string (the view functions and the shape functions do not; dims keeps
 * up to 8 extents inline). The C header's contract (docs/c-api.md) holds unchanged: the
 * library reads inputs only, writes outputs only, and checks every size.
 */
#ifndef TENSORCAST_HPP
#define TENSORCAST_HPP

#ifndef __cplusplus
#error "tensorcast.hpp is C++: C programs include tensorcast.h"
#endif
#if defined(_MSVC_LANG) ? (_MSVC_LANG < 201703L) : (__cplusplus < 201703L)
#error "tensorcast.hpp needs C++17 or later (-std=c++17); tensorcast.h alone works from C++98"
#endif

#include "tensorcast.h"

#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>
#if __cplusplus > 202002L && defined(__has_include)
#if __has_include(<stdfloat>)
#include <stdfloat>
#endif
#endif

namespace tensorcast {

/* ---------------------------------------------------------------------------------------
 * Enumerations: the C constants, typed
 * ------------------------------------------------------------------------------------- */

// @generated begin enums: written by `bash scripts/generate.sh`; do not edit
/** An element type (tcast_dtype). */
enum class dtype : std::int32_t {
  undefined = TCAST_DTYPE_UNDEFINED,
  float32 = TCAST_DTYPE_FLOAT,
  uint8 = TCAST_DTYPE_UINT8,
  int8 = TCAST_DTYPE_INT8,
  uint16 = TCAST_DTYPE_UINT16,
  int16 = TCAST_DTYPE_INT16,
  int32 = TCAST_DTYPE_INT32,
  int64 = TCAST_DTYPE_INT64,
  string = TCAST_DTYPE_STRING,
  boolean = TCAST_DTYPE_BOOL,
  float16 = TCAST_DTYPE_FLOAT16,
  float64 = TCAST_DTYPE_DOUBLE,
  uint32 = TCAST_DTYPE_UINT32,
  uint64 = TCAST_DTYPE_UINT64,
  complex64 = TCAST_DTYPE_COMPLEX64,
  complex128 = TCAST_DTYPE_COMPLEX128,
  bfloat16 = TCAST_DTYPE_BFLOAT16,
  float8e4m3fn = TCAST_DTYPE_FLOAT8E4M3FN,
  float8e4m3fnuz = TCAST_DTYPE_FLOAT8E4M3FNUZ,
  float8e5m2 = TCAST_DTYPE_FLOAT8E5M2,
  float8e5m2fnuz = TCAST_DTYPE_FLOAT8E5M2FNUZ,
  uint4 = TCAST_DTYPE_UINT4,
  int4 = TCAST_DTYPE_INT4,
  float4e2m1 = TCAST_DTYPE_FLOAT4E2M1,
  float8e8m0 = TCAST_DTYPE_FLOAT8E8M0,
  uint2 = TCAST_DTYPE_UINT2,
  int2 = TCAST_DTYPE_INT2,
  float6e2m3 = TCAST_DTYPE_FLOAT6E2M3,
  float6e3m2 = TCAST_DTYPE_FLOAT6E3M2,
  qint8 = TCAST_DTYPE_QINT8,
  quint8 = TCAST_DTYPE_QUINT8,
  qint16 = TCAST_DTYPE_QINT16,
  quint16 = TCAST_DTYPE_QUINT16,
  qint32 = TCAST_DTYPE_QINT32,
};

/** A status (tcast_status): ok, or what went wrong. */
enum class status : std::int32_t {
  ok = TCAST_OK,
  null_argument = TCAST_ERR_NULL_ARGUMENT,
  invalid_dtype = TCAST_ERR_INVALID_DTYPE,
  unsupported = TCAST_ERR_UNSUPPORTED,
  invalid_shape = TCAST_ERR_INVALID_SHAPE,
  incompatible_shapes = TCAST_ERR_INCOMPATIBLE_SHAPES,
  buffer_too_small = TCAST_ERR_BUFFER_TOO_SMALL,
  parse = TCAST_ERR_PARSE,
  invalid_argument = TCAST_ERR_INVALID_ARGUMENT,
  casting = TCAST_ERR_CASTING,
  out_of_memory = TCAST_ERR_OUT_OF_MEMORY,
  internal = TCAST_ERR_INTERNAL,
};
// @generated end enums

/** A numpy casting level (TCAST_CASTING_*), strictest first; never is a result only. */
enum class casting : std::int32_t {
  no = TCAST_CASTING_NO,
  equiv = TCAST_CASTING_EQUIV,
  safe = TCAST_CASTING_SAFE,
  same_kind = TCAST_CASTING_SAME_KIND,
  unsafe = TCAST_CASTING_UNSAFE,
  never = TCAST_CASTING_NEVER,
};

/** How FLOAT8E8M0 targets round (TCAST_ROUND_*). */
enum class round_mode : std::int32_t {
  up = TCAST_ROUND_UP,
  down = TCAST_ROUND_DOWN,
  nearest = TCAST_ROUND_NEAREST,
};

/** How numbers are written as text (TCAST_FORMAT_*). */
enum class string_format : std::int32_t {
  shortest = TCAST_FORMAT_SHORTEST,
  printf_8g = TCAST_FORMAT_PRINTF_8G,
};

/** How the sub-byte tensors of a cast hold their elements (TCAST_SUB_BYTE_*): packed, or
 * one per byte as ml_dtypes' arrays (tcast_cast_sub_byte). */
enum class sub_byte_layout : std::int32_t {
  packed = TCAST_SUB_BYTE_PACKED,
  unpacked = TCAST_SUB_BYTE_UNPACKED,
};

/** Whose bitcast rules a view follows (TCAST_BITCAST_*). */
enum class bitcast_rules : std::int32_t {
  tf = TCAST_BITCAST_TF,
  onnx = TCAST_BITCAST_ONNX,
  numpy_view = TCAST_BITCAST_NUMPY_VIEW,
};

/** Which numpy's casting rules the np_ functions reproduce (TCAST_NUMPY_*). */
enum class numpy_rules : std::int32_t {
  numpy1 = TCAST_NUMPY_1,
  numpy2 = TCAST_NUMPY_2,
};

/** "FLOAT", "BFLOAT16", ...; nullptr for a code that is not a dtype. */
[[nodiscard]] inline const char *name(dtype type) noexcept {
  return tcast_dtype_name(static_cast<tcast_dtype>(type));
}

/** "TCAST_ERR_PARSE", ...; "unknown" for a value that is not a status. */
[[nodiscard]] inline const char *name(status code) noexcept {
  return tcast_status_name(static_cast<tcast_status>(code));
}

/** Bits per element: 32 for float32, 4 for int4; 0 for a code that is not a dtype. */
[[nodiscard]] inline std::uint32_t bits(dtype type) noexcept {
  return tcast_dtype_bits(static_cast<tcast_dtype>(type));
}

/** The library's version, "MAJOR.MINOR.PATCH". */
[[nodiscard]] inline const char *version() noexcept { return tcast_version(); }

/* ---------------------------------------------------------------------------------------
 * Errors: an exception, and result<T> for the try_ functions
 * ------------------------------------------------------------------------------------- */

/** What a failed call reported: its status, the element index (or -1), the message. */
struct error_info {
  status code = status::ok;
  std::int64_t index = -1;
  std::string message;
};

/** Thrown by the functions without try_: what() is "TCAST_ERR_...: message". */
class error : public std::runtime_error {
 public:
  explicit error(error_info info)
      : std::runtime_error(std::string(tensorcast::name(info.code)) + ": " + info.message),
        info_(std::move(info)) {}
  [[nodiscard]] status code() const noexcept { return info_.code; }
  [[nodiscard]] std::int64_t index() const noexcept { return info_.index; }
  /** The library's message, without the status name. */
  [[nodiscard]] const std::string &message() const noexcept { return info_.message; }
  [[nodiscard]] const error_info &info() const noexcept { return info_; }

 private:
  error_info info_;
};

namespace detail {
inline error_info info_of(tcast_status code, const tcast_error &err) {
  return error_info{static_cast<status>(code), err.index, std::string(err.message)};
}
}  // namespace detail

/**
 * A value or the error that prevented it (the shape of C++23's std::expected). value()
 * throws tensorcast::error when there is none.
 */
template <class T>
class [[nodiscard]] result {
 public:
  result(const T &value) : state_(std::in_place_index<0>, value) {}
  result(T &&value) : state_(std::in_place_index<0>, std::move(value)) {}
  result(error_info info) : state_(std::in_place_index<1>, std::move(info)) {}

  [[nodiscard]] bool has_value() const noexcept { return state_.index() == 0; }
  explicit operator bool() const noexcept { return has_value(); }

  [[nodiscard]] T &value() & {
    check();
    return std::get<0>(state_);
  }
  [[nodiscard]] const T &value() const & {
    check();
    return std::get<0>(state_);
  }
  [[nodiscard]] T &&value() && {
    check();
    return std::get<0>(std::move(state_));
  }
  template <class U>
  [[nodiscard]] T value_or(U &&fallback) const & {
    return has_value() ? std::get<0>(state_) : static_cast<T>(std::forward<U>(fallback));
  }
  /** The error; only when !has_value(). */
  [[nodiscard]] const error_info &error() const & { return std::get<1>(state_); }

  T &operator*() & { return std::get<0>(state_); }
  const T &operator*() const & { return std::get<0>(state_); }
  T *operator->() { return &std::get<0>(state_); }
  const T *operator->() const { return &std::get<0>(state_); }

 private:
  void check() const {
    if (!has_value()) {
      throw tensorcast::error(std::get<1>(state_));
    }
  }
  std::variant<T, error_info> state_;
};

/** The result of an operation that has no value: success, or the error. */
template <>
class [[nodiscard]] result<void> {
 public:
  result() = default;
  result(error_info info) : info_(std::move(info)) {}

  [[nodiscard]] bool has_value() const noexcept { return info_.code == status::ok; }
  explicit operator bool() const noexcept { return has_value(); }
  /** Throws tensorcast::error when the operation failed. */
  void value() const {
    if (!has_value()) {
      throw tensorcast::error(info_);
    }
  }
  /** The error; only when !has_value(). */
  [[nodiscard]] const error_info &error() const & { return info_; }

 private:
  error_info info_;
};

/* ---------------------------------------------------------------------------------------
 * Element types
 * ------------------------------------------------------------------------------------- */

/**
 * The raw bits of one element of a float format C++ has no type for. Equality compares
 * bits (so NaN == NaN and +0 != -0). Trivially copyable and exactly as large as `Bits`:
 * arrays of it are the library's buffers.
 */
template <dtype Type, class Bits>
struct float_bits {
  static constexpr dtype code = Type;
  Bits bits;

  [[nodiscard]] static constexpr float_bits from_bits(Bits raw) noexcept {
    return float_bits{raw};
  }
  friend constexpr bool operator==(float_bits a, float_bits b) noexcept {
    return a.bits == b.bits;
  }
  friend constexpr bool operator!=(float_bits a, float_bits b) noexcept {
    return a.bits != b.bits;
  }
};

// @generated begin storage-types: written by `bash scripts/generate.sh`; do not edit
using float16 = float_bits<dtype::float16, std::uint16_t>;
using bfloat16 = float_bits<dtype::bfloat16, std::uint16_t>;
using float8e4m3fn = float_bits<dtype::float8e4m3fn, std::uint8_t>;
using float8e4m3fnuz = float_bits<dtype::float8e4m3fnuz, std::uint8_t>;
using float8e5m2 = float_bits<dtype::float8e5m2, std::uint8_t>;
using float8e5m2fnuz = float_bits<dtype::float8e5m2fnuz, std::uint8_t>;
using float8e8m0 = float_bits<dtype::float8e8m0, std::uint8_t>;
// @generated end storage-types

static_assert(sizeof(float16) == 2 && sizeof(bfloat16) == 2 && sizeof(float8e4m3fn) == 1,
              "float_bits adds no padding");
static_assert(std::is_trivially_copyable<float16>::value &&
                  std::is_standard_layout<float16>::value,
              "float_bits is a plain buffer element");

namespace detail {
template <class T>
struct is_float_bits : std::false_type {};
template <dtype Type, class Bits>
struct is_float_bits<float_bits<Type, Bits>> : std::true_type {};

template <class T>
constexpr bool is_character() {
  return std::is_same<T, char>::value || std::is_same<T, wchar_t>::value ||
         std::is_same<T, char16_t>::value || std::is_same<T, char32_t>::value
#if defined(__cpp_char8_t)
         || std::is_same<T, char8_t>::value
#endif
      ;
}

/** The dtype of element type T, or undefined when T has none. */
template <class T>
constexpr dtype code_of() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same<U, bool>::value) {
    return dtype::boolean;
  } else if constexpr (std::is_same<U, float>::value) {
    return dtype::float32;
  } else if constexpr (std::is_same<U, double>::value) {
    return dtype::float64;
  } else if constexpr (std::is_integral<U>::value && !is_character<U>()) {
    constexpr bool is_signed = std::is_signed<U>::value;
    switch (sizeof(U)) {
      case 1:
        return is_signed ? dtype::int8 : dtype::uint8;
      case 2:
        return is_signed ? dtype::int16 : dtype::uint16;
      case 4:
        return is_signed ? dtype::int32 : dtype::uint32;
      case 8:
        return is_signed ? dtype::int64 : dtype::uint64;
      default:
        return dtype::undefined;
    }
  } else if constexpr (is_float_bits<U>::value) {
    return U::code;
  } else if constexpr (std::is_same<U, std::complex<float>>::value) {
    return dtype::complex64;
  } else if constexpr (std::is_same<U, std::complex<double>>::value) {
    return dtype::complex128;
  } else if constexpr (std::is_same<U, tcast_string>::value) {
    return dtype::string;
  }
#if defined(__STDCPP_FLOAT16_T__)
  else if constexpr (std::is_same<U, std::float16_t>::value) {
    return dtype::float16;
  }
#endif
#if defined(__STDCPP_BFLOAT16_T__)
  else if constexpr (std::is_same<U, std::bfloat16_t>::value) {
    return dtype::bfloat16;
  }
#endif
  else {
    return dtype::undefined;
  }
}
}  // namespace detail

/** True when T is an element type with a dtype (see dtype_of). */
template <class T>
inline constexpr bool has_dtype = detail::code_of<T>() != dtype::undefined;

template <class T>
struct dtype_of_t {
  static_assert(has_dtype<T>,
                "tensorcast::dtype_of<T>: T has no dtype. Element types are bool, float, "
                "double, the fixed-width integers (not char), std::complex<float/double>, "
                "tcast_string, tensorcast::float16/bfloat16/float8*, and under C++23 "
                "std::float16_t/std::bfloat16_t; for the packed types use a tensor_view "
                "with an explicit dtype");
  static constexpr dtype value = detail::code_of<T>();
};

/** The dtype of element type T: float -> float32, tensorcast::float16 -> float16, ... */
template <class T>
inline constexpr dtype dtype_of = dtype_of_t<T>::value;

/* ---------------------------------------------------------------------------------------
 * Shapes and views
 * ------------------------------------------------------------------------------------- */

/** A shape (or strides): up to 8 extents inline, more on the heap. */
class dims {
 public:
  static constexpr std::size_t inline_capacity = 8;

  /** Rank 0: a scalar of one element. */
  dims() noexcept = default;
  dims(std::initializer_list<std::int64_t> extents) { assign(extents.begin(), extents.size()); }
  dims(const std::int64_t *extents, std::size_t count) { assign(extents, count); }
  /** A rank-1 shape of `count` elements. */
  [[nodiscard]] static dims of_length(std::size_t count) {
    const std::int64_t extent = static_cast<std::int64_t>(count);
    return dims(&extent, 1);
  }

  dims(const dims &other) { assign(other.data(), other.size_); }
  dims &operator=(const dims &other) {
    if (this != &other) {
      assign(other.data(), other.size_);
    }
    return *this;
  }
  dims(dims &&other) noexcept { take(std::move(other)); }
  dims &operator=(dims &&other) noexcept {
    if (this != &other) {
      take(std::move(other));
    }
    return *this;
  }
  ~dims() = default;

  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  /** The rank as the C functions take it (the library refuses ranks above 64). */
  [[nodiscard]] std::int32_t rank() const noexcept {
    return size_ > 0x7fffffff ? 0x7fffffff : static_cast<std::int32_t>(size_);
  }
  [[nodiscard]] const std::int64_t *data() const noexcept {
    return size_ <= inline_capacity ? inline_ : heap_.data();
  }
  [[nodiscard]] std::int64_t operator[](std::size_t i) const noexcept { return data()[i]; }
  [[nodiscard]] const std::int64_t *begin() const noexcept { return data(); }
  [[nodiscard]] const std::int64_t *end() const noexcept { return data() + size_; }

  friend bool operator==(const dims &a, const dims &b) noexcept {
    return a.size_ == b.size_ &&
           (a.size_ == 0 || std::memcmp(a.data(), b.data(), a.size_ * sizeof(std::int64_t)) == 0);
  }
  friend bool operator!=(const dims &a, const dims &b) noexcept { return !(a == b); }

 private:
  // Element by element, and only the extents in use: a small shape is a few scalar
  // moves (copying the whole inline array as vectors right after scalar stores made the
  // CPU stall on store forwarding, ~40 ns per call for two views).
  void assign(const std::int64_t *extents, std::size_t count) {
    if (count <= inline_capacity) {
      heap_.clear();
      for (std::size_t i = 0; i < count; i++) {
        inline_[i] = extents[i];
      }
    } else {
      heap_.assign(extents, extents + count);
    }
    size_ = count;
  }
  void take(dims &&other) noexcept {
    if (other.size_ <= inline_capacity) {
      heap_.clear();
      for (std::size_t i = 0; i < other.size_; i++) {
        inline_[i] = other.inline_[i];
      }
    } else {
      heap_ = std::move(other.heap_);
    }
    size_ = other.size_;
    other.size_ = 0;
  }

  std::int64_t inline_[inline_capacity];  // the first size_ are the extents
  std::vector<std::int64_t> heap_;
  std::size_t size_ = 0;
};

namespace detail {
inline error_info strides_rank_error(const dims &shape, const dims &strides) {
  return error_info{status::invalid_shape, -1,
                    "a view has " + std::to_string(strides.size()) +
                        " strides for a shape of rank " + std::to_string(shape.size()) +
                        ": one stride per dimension"};
}

/** The descriptor the library reads: `strides`, when given, has one stride per dimension
 * of `shape` (the views' constructors refuse anything else). */
inline tcast_tensor c_tensor(const void *data, std::uint64_t bytes, dtype type, const dims &shape,
                             const dims *strides) noexcept {
  tcast_tensor t;
  // The library never writes through an input's data pointer: the C struct has one
  // pointer type for inputs and outputs, and the const view only ever is an input.
  t.data = const_cast<void *>(data);
  t.data_bytes = bytes;
  t.shape = shape.empty() ? nullptr : shape.data();
  t.strides = strides == nullptr ? nullptr : strides->data();
  t.ndim = shape.rank();
  t.dtype = static_cast<tcast_dtype>(type);
  return t;
}
}  // namespace detail

class mutable_tensor_view;

/**
 * A read-only tensor: `bytes` bytes at `data`, of `type`, with `shape` (and optional
 * strides in elements, one per dimension). An input; it cannot be an output.
 */
class tensor_view {
 public:
  tensor_view(const void *data, std::uint64_t bytes, dtype type, dims shape)
      : data_(data), bytes_(bytes), type_(type), shape_(std::move(shape)) {}
  /** Throws tensorcast::error (INVALID_SHAPE) unless `strides` has `shape`'s rank. */
  tensor_view(const void *data, std::uint64_t bytes, dtype type, dims shape, dims strides)
      : data_(data),
        bytes_(bytes),
        type_(type),
        shape_(std::move(shape)),
        strides_(std::move(strides)),
        strided_(true) {
    if (strides_.size() != shape_.size()) {
      throw error(detail::strides_rank_error(shape_, strides_));
    }
  }
  /** The strided constructor, reporting strides of the wrong rank in the result. */
  [[nodiscard]] static result<tensor_view> try_create(const void *data, std::uint64_t bytes,
                                                      dtype type, dims shape, dims strides);
  /** A writable view is readable too. */
  tensor_view(const mutable_tensor_view &view);

  [[nodiscard]] const void *data() const noexcept { return data_; }
  [[nodiscard]] std::uint64_t bytes() const noexcept { return bytes_; }
  [[nodiscard]] dtype type() const noexcept { return type_; }
  [[nodiscard]] const dims &shape() const noexcept { return shape_; }
  /** The strides in elements, or nullptr for C-contiguous. */
  [[nodiscard]] const dims *strides() const noexcept { return strided_ ? &strides_ : nullptr; }
  /** The same buffer with strides (in elements, one per dimension); throws
   * tensorcast::error (INVALID_SHAPE) for strides of another rank. */
  [[nodiscard]] tensor_view with_strides(dims strides) const {
    return tensor_view(data_, bytes_, type_, shape_, std::move(strides));
  }
  /** with_strides, reporting strides of the wrong rank in the result. */
  [[nodiscard]] result<tensor_view> try_with_strides(dims strides) const;
  /** The C descriptor; it points into this view, which must outlive it. Its strides, if
   * any, are as many as its dimensions: every way to give a view strides checks that,
   * and copies and moves keep the two together (a moved-from view has rank 0). */
  [[nodiscard]] tcast_tensor c_tensor() const noexcept {
    return detail::c_tensor(data_, bytes_, type_, shape_, strides());
  }

 private:
  const void *data_;
  std::uint64_t bytes_;
  dtype type_;
  dims shape_;
  dims strides_;
  bool strided_ = false;
};

/** A writable tensor: an output (contiguous), or an input. */
class mutable_tensor_view {
 public:
  mutable_tensor_view(void *data, std::uint64_t bytes, dtype type, dims shape)
      : data_(data), bytes_(bytes), type_(type), shape_(std::move(shape)) {}

  [[nodiscard]] void *data() const noexcept { return data_; }
  [[nodiscard]] std::uint64_t bytes() const noexcept { return bytes_; }
  [[nodiscard]] dtype type() const noexcept { return type_; }
  [[nodiscard]] const dims &shape() const noexcept { return shape_; }
  /** The same buffer with strides (in elements, one per dimension): an input only, so
   * read-only. Throws tensorcast::error (INVALID_SHAPE) for strides of another rank. */
  [[nodiscard]] tensor_view with_strides(dims strides) const;
  /** with_strides, reporting strides of the wrong rank in the result. */
  [[nodiscard]] result<tensor_view> try_with_strides(dims strides) const;
  /** The C descriptor; it points into this view, which must outlive it. */
  [[nodiscard]] tcast_tensor c_tensor() const noexcept {
    return detail::c_tensor(data_, bytes_, type_, shape_, nullptr);
  }

 private:
  void *data_;
  std::uint64_t bytes_;
  dtype type_;
  dims shape_;
};

inline tensor_view::tensor_view(const mutable_tensor_view &view)
    : tensor_view(view.data(), view.bytes(), view.type(), view.shape()) {}
inline result<tensor_view> tensor_view::try_create(const void *data, std::uint64_t bytes,
                                                   dtype type, dims shape, dims strides) {
  if (strides.size() != shape.size()) {
    return detail::strides_rank_error(shape, strides);
  }
  return tensor_view(data, bytes, type, std::move(shape), std::move(strides));
}
inline result<tensor_view> tensor_view::try_with_strides(dims strides) const {
  return try_create(data_, bytes_, type_, shape_, std::move(strides));
}
inline tensor_view mutable_tensor_view::with_strides(dims strides) const {
  return tensor_view(data_, bytes_, type_, shape_, std::move(strides));
}
inline result<tensor_view> mutable_tensor_view::try_with_strides(dims strides) const {
  return tensor_view::try_create(data_, bytes_, type_, shape_, std::move(strides));
}

namespace detail {
template <class C, class = void>
struct is_contiguous : std::false_type {};
template <class C>
struct is_contiguous<C, std::void_t<decltype(std::data(std::declval<C &>())),
                                    decltype(std::size(std::declval<C &>()))>>
    : std::is_pointer<decltype(std::data(std::declval<C &>()))> {};

template <class C>
using element_of = std::remove_pointer_t<decltype(std::data(std::declval<C &>()))>;

template <class T>
using view_for = std::conditional_t<std::is_const<T>::value, tensor_view, mutable_tensor_view>;
}  // namespace detail

/** A read-only view of `count` elements at `data` with `shape` (default: rank 1). */
template <class T>
[[nodiscard]] tensor_view view(const T *data, std::size_t count, dims shape) {
  return tensor_view(data, count * sizeof(T), dtype_of<T>, std::move(shape));
}
template <class T>
[[nodiscard]] tensor_view view(const T *data, std::size_t count) {
  return view(data, count, dims::of_length(count));
}
/** A writable view of `count` elements at `data` with `shape` (default: rank 1). */
template <class T>
[[nodiscard]] mutable_tensor_view view(T *data, std::size_t count, dims shape) {
  return mutable_tensor_view(data, count * sizeof(T), dtype_of<T>, std::move(shape));
}
template <class T>
[[nodiscard]] mutable_tensor_view view(T *data, std::size_t count) {
  return view(data, count, dims::of_length(count));
}

/**
 * A view of a contiguous container (std::vector, std::array, a C array, std::span, ...)
 * with `shape` (default: rank 1): read-only for a const container or const elements,
 * writable otherwise. The container must outlive the view.
 */
template <class C, class = std::enable_if_t<detail::is_contiguous<C>::value>>
[[nodiscard]] detail::view_for<detail::element_of<C>> view(C &container, dims shape) {
  return view(std::data(container), static_cast<std::size_t>(std::size(container)),
              std::move(shape));
}
template <class C, class = std::enable_if_t<detail::is_contiguous<C>::value>>
[[nodiscard]] detail::view_for<detail::element_of<C>> view(C &container) {
  return view(std::data(container), static_cast<std::size_t>(std::size(container)));
}
/** Not of a temporary container: the view would outlive its elements. */
template <class C>
void view(const C &&container, dims shape) = delete;
template <class C>
void view(const C &&container) = delete;

/* ---------------------------------------------------------------------------------------
 * Options
 * ------------------------------------------------------------------------------------- */

/**
 * A tcast_executor over the host's own thread pool (docs/c-api.md section 9), from any
 * callable `run(n_tasks, task)` that calls `task(i)` exactly once for every i in
 * [0, n_tasks), on any threads in any order, and returns when all have finished; e.g.
 * `[&](std::uint64_t n, auto &&task) { pool.parallel_for(n, task); }`. `run` must not
 * throw (the library calls it through C: an exception ends the program). Not copyable or
 * movable: the C struct points at it; pass it to options::executor and keep it alive for
 * the call.
 */
template <class Run>
class executor {
 public:
  explicit executor(Run run) : run_(std::move(run)) {
    c_.ctx = this;
    c_.parallel_for = &executor::trampoline;
  }
  executor(const executor &) = delete;
  executor &operator=(const executor &) = delete;
  ~executor() = default;

  [[nodiscard]] const tcast_executor *get() const noexcept { return &c_; }

 private:
  static void trampoline(void *ctx, std::uint64_t n_tasks, tcast_task_fn task,
                         void *task_ctx) noexcept {
    executor *self = static_cast<executor *>(ctx);
    self->run_(n_tasks, [task, task_ctx](std::uint64_t i) { task(task_ctx, i); });
  }

  Run run_;
  tcast_executor c_;
};

/**
 * tcast_cast_options, starting from the library's defaults (saturate, round up, the
 * shortest text, casting unsafe, the calling thread only), and how a cast's sub-byte
 * tensors hold their elements (tcast_cast_sub_byte's argument; packed by default).
 * Setters chain: `tensorcast::options().casting_level(tensorcast::casting::safe).threads(2)`.
 */
class options {
 public:
  options() noexcept : c_() { tcast_cast_options_init(&c_, sizeof c_); }

  [[nodiscard]] bool saturate() const noexcept { return c_.saturate != 0; }
  options &saturate(bool on) noexcept {
    c_.saturate = on ? 1 : 0;
    return *this;
  }
  [[nodiscard]] round_mode rounding() const noexcept {
    return static_cast<round_mode>(c_.round_mode);
  }
  options &rounding(round_mode mode) noexcept {
    c_.round_mode = static_cast<std::int32_t>(mode);
    return *this;
  }
  [[nodiscard]] string_format format() const noexcept {
    return static_cast<string_format>(c_.string_format);
  }
  options &format(string_format text) noexcept {
    c_.string_format = static_cast<std::int32_t>(text);
    return *this;
  }
  [[nodiscard]] tensorcast::casting casting_level() const noexcept {
    return static_cast<tensorcast::casting>(c_.casting);
  }
  options &casting_level(tensorcast::casting level) noexcept {
    c_.casting = static_cast<std::int32_t>(level);
    return *this;
  }
  [[nodiscard]] std::int32_t threads() const noexcept { return c_.threads; }
  options &threads(std::int32_t n) noexcept {
    c_.threads = n;
    return *this;
  }
  /** The host's thread pool (docs/c-api.md section 9), or nullptr for the library's. */
  [[nodiscard]] const tcast_executor *executor() const noexcept { return c_.executor; }
  options &executor(const tcast_executor *pool) noexcept {
    c_.executor = pool;
    return *this;
  }
  /** A tensorcast::executor, which must outlive the calls made with these options. */
  template <class Run>
  options &executor(const tensorcast::executor<Run> &pool) noexcept {
    c_.executor = pool.get();
    return *this;
  }
  /** How cast's sub-byte tensors (INT4, FLOAT4E2M1, ...) hold their elements: packed (the
   * default) or one per byte, the tensor's bytes then its element count. Cast only. */
  [[nodiscard]] sub_byte_layout sub_bytes() const noexcept { return sub_bytes_; }
  options &sub_bytes(sub_byte_layout layout) noexcept {
    sub_bytes_ = layout;
    return *this;
  }

  [[nodiscard]] const tcast_cast_options &c_options() const noexcept { return c_; }

 private:
  tcast_cast_options c_;
  sub_byte_layout sub_bytes_ = sub_byte_layout::packed;
};

/* ---------------------------------------------------------------------------------------
 * Operations
 * ------------------------------------------------------------------------------------- */

namespace detail {
/** The element count of a shape, as the library counts it (negative extents and a count
 * beyond 64 bits are its INVALID_SHAPE). */
inline result<std::uint64_t> element_count(const dims &shape) {
  std::uint64_t count = 0;
  tcast_error err;
  const tcast_status code =
      tcast_tensor_bytes(TCAST_DTYPE_UINT8, shape.data(), shape.rank(), &count, &err);
  if (code != TCAST_OK) {
    return info_of(code, err);
  }
  return count;
}

inline result<void> check(tcast_status code, const tcast_error &err) {
  if (code == TCAST_OK) {
    return result<void>();
  }
  return result<void>(info_of(code, err));
}

inline const tcast_cast_options *c_options(const options *opts) noexcept {
  return opts == nullptr ? nullptr : &opts->c_options();
}

inline result<void> cast(const tensor_view &input, const mutable_tensor_view &output,
                         const options *opts) {
  const tcast_tensor in = input.c_tensor();
  const tcast_tensor out = output.c_tensor();
  tcast_error err;
  if (opts != nullptr && opts->sub_bytes() != sub_byte_layout::packed) {
    const std::int32_t layout = static_cast<std::int32_t>(opts->sub_bytes());
    return check(tcast_cast_sub_byte(&in, &out, c_options(opts), layout, &err), err);
  }
  return check(tcast_cast(&in, &out, c_options(opts), &err), err);
}

template <class To, class C>
result<std::vector<To>> cast_container(const C &input, const options *opts) {
  static_assert(!std::is_same<To, bool>::value,
                "tensorcast::cast<bool>: std::vector<bool> has no buffer; cast into a bool "
                "array through view()");
  static_assert(detail::is_contiguous<const C>::value,
                "tensorcast::cast<To>(input): input is a contiguous container");
  const std::size_t n = static_cast<std::size_t>(std::size(input));
  std::vector<To> out(n);
  result<void> done = cast(view(std::data(input), n), view(out.data(), n), opts);
  if (!done) {
    return done.error();
  }
  return out;
}

inline result<std::vector<std::string>> to_strings(const tensor_view &input,
                                                   const options *opts) {
  // What the shape asks for is checked before anything is allocated for it: a bad or
  // overflowing shape, or a contiguous input shorter than its shape, is the error the
  // library would report, not an attempt at a giant allocation.
  const result<std::uint64_t> count = element_count(input.shape());
  if (!count) {
    return count.error();
  }
  tcast_error err;
  tcast_status code = TCAST_OK;
  if (input.strides() == nullptr) {
    std::uint64_t needed = 0;
    code = tcast_tensor_bytes(static_cast<tcast_dtype>(input.type()), input.shape().data(),
                              input.shape().rank(), &needed, &err);
    if (code != TCAST_OK) {
      return info_of(code, err);
    }
    if (needed > input.bytes()) {
      const tcast_tensor in = input.c_tensor();
      const tcast_tensor as_is = in;  // a cast to itself: the library names the short input
      code = tcast_cast(&in, &as_is, nullptr, &err);
      return info_of(code == TCAST_OK ? TCAST_ERR_INTERNAL : code, err);
    }
  }
  const std::uint64_t elements = *count;
  const std::uint64_t per = tcast_string_max_bytes(static_cast<tcast_dtype>(input.type()));
  if (elements > static_cast<std::uint64_t>(SIZE_MAX) / (sizeof(tcast_string) + per)) {
    return error_info{status::out_of_memory, -1,
                      "to_strings: " + std::to_string(elements) + " elements of up to " +
                          std::to_string(per) + " bytes of text each exceed the address space"};
  }
  std::vector<tcast_string> views(static_cast<std::size_t>(elements));
  std::vector<char> arena_bytes(static_cast<std::size_t>(elements * per));
  tcast_string_arena arena;
  arena.data = arena_bytes.empty() ? nullptr : arena_bytes.data();
  arena.capacity = arena_bytes.size();
  arena.used = 0;
  const tcast_tensor in = input.c_tensor();
  const mutable_tensor_view out_view(views.empty() ? nullptr : views.data(),
                                     views.size() * sizeof(tcast_string), dtype::string,
                                     input.shape());
  const tcast_tensor out = out_view.c_tensor();
  result<void> done = check(tcast_cast_to_strings(&in, &out, &arena, c_options(opts), &err), err);
  if (!done) {
    return done.error();
  }
  std::vector<std::string> texts;
  texts.reserve(views.size());
  for (const tcast_string &s : views) {
    texts.emplace_back(s.data == nullptr ? "" : s.data, static_cast<std::size_t>(s.len));
  }
  return texts;
}

inline tcast_string string_of(std::string_view text) noexcept {
  tcast_string s;
  s.data = text.data();
  s.len = text.size();
  return s;
}

template <class T, class C>
result<std::vector<T>> parse(const C &texts, const options *opts) {
  static_assert(!std::is_same<T, bool>::value,
                "tensorcast::parse<bool>: std::vector<bool> has no buffer; cast the texts into a "
                "bool array through view()");
  std::vector<tcast_string> views;
  views.reserve(static_cast<std::size_t>(std::size(texts)));
  for (const auto &text : texts) {
    views.push_back(string_of(std::string_view(text)));
  }
  std::vector<T> out(views.size());
  result<void> done =
      cast(view(static_cast<const tcast_string *>(views.data()), views.size()),
           view(out.data(), out.size()), opts);
  if (!done) {
    return done.error();
  }
  return out;
}

/** Calls `write(buf, capacity, &needed, &err)` for a text, retrying once at its size. */
template <class Write>
result<std::string> read_text(Write write) {
  char small[96];
  std::uint64_t needed = 0;
  tcast_error err;
  tcast_status code = write(small, sizeof small, &needed, &err);
  if (code == TCAST_OK) {
    return std::string(small);
  }
  if (code != TCAST_ERR_BUFFER_TOO_SMALL || needed <= sizeof small) {
    return info_of(code, err);
  }
  std::string text(static_cast<std::size_t>(needed), '\0');
  code = write(&text[0], needed, &needed, &err);
  if (code != TCAST_OK) {
    return info_of(code, err);
  }
  text.resize(std::strlen(text.c_str()));
  return text;
}

/**
 * `text` as a NUL-terminated string for a C function, or TCAST_ERR_PARSE when it holds a
 * NUL: C would read it only up to there and answer for a prefix the caller never wrote.
 * `what` names the text in the message ("dtype name", "numpy dtype spec").
 */
inline result<std::string> c_string(std::string_view text, const char *what) {
  const std::size_t nul = text.find('\0');
  if (nul != std::string_view::npos) {
    return error_info{status::parse, -1,
                      std::string(what) + " of " + std::to_string(text.size()) +
                          " bytes has a NUL byte at offset " + std::to_string(nul) +
                          ": refused whole, not cut at the NUL as a C string would be"};
  }
  return std::string(text);
}
}  // namespace detail

/**
 * Casts `input` into `output` (ONNX Cast, tcast_cast): the same shape, `output`'s dtype
 * the target. Throws tensorcast::error.
 */
inline void cast(const tensor_view &input, const mutable_tensor_view &output) {
  detail::cast(input, output, nullptr).value();
}
inline void cast(const tensor_view &input, const mutable_tensor_view &output,
                 const options &opts) {
  detail::cast(input, output, &opts).value();
}
/** cast, reporting failure in the result. */
inline result<void> try_cast(const tensor_view &input, const mutable_tensor_view &output) {
  return detail::cast(input, output, nullptr);
}
inline result<void> try_cast(const tensor_view &input, const mutable_tensor_view &output,
                             const options &opts) {
  return detail::cast(input, output, &opts);
}

/**
 * tcast_qdq_options (QuantizeLinear / DequantizeLinear, docs/semantics-quantize.md),
 * starting from the library's defaults (saturate, axis 1, block_size 0, no precision).
 * Setters chain: `tensorcast::qdq_options().axis(-1).block_size(32)`.
 */
class qdq_options {
 public:
  qdq_options() noexcept : c_() { tcast_qdq_options_init(&c_, sizeof c_); }

  [[nodiscard]] bool saturate() const noexcept { return c_.saturate != 0; }
  qdq_options &saturate(bool on) noexcept {
    c_.saturate = on ? 1 : 0;
    return *this;
  }
  [[nodiscard]] std::int64_t axis() const noexcept { return c_.axis; }
  qdq_options &axis(std::int64_t a) noexcept {
    c_.axis = a;
    return *this;
  }
  [[nodiscard]] std::int64_t block_size() const noexcept { return c_.block_size; }
  qdq_options &block_size(std::int64_t b) noexcept {
    c_.block_size = b;
    return *this;
  }
  /** ONNX's `precision`: the dtype x / scale is rounded to first (QuantizeLinear). */
  qdq_options &precision(dtype type) noexcept {
    c_.precision = static_cast<std::int32_t>(type);
    return *this;
  }

  [[nodiscard]] const tcast_qdq_options &c_options() const noexcept { return c_; }

 private:
  tcast_qdq_options c_;
};

namespace detail {
template <class Fn>
inline result<void> qdq(Fn fn, const tensor_view &x, const tensor_view &scale,
                        const tensor_view *zero_point, const mutable_tensor_view &y,
                        const qdq_options &opts) {
  const tcast_tensor tx = x.c_tensor();
  const tcast_tensor ts = scale.c_tensor();
  tcast_tensor tz{};
  if (zero_point != nullptr) {
    tz = zero_point->c_tensor();
  }
  const tcast_tensor ty = y.c_tensor();
  tcast_error err;
  return check(fn(&tx, &ts, zero_point != nullptr ? &tz : nullptr, &ty, &opts.c_options(), &err),
               err);
}
}  // namespace detail

/**
 * ONNX QuantizeLinear (tcast_quantize_linear): `y = saturate(round(x / scale) +
 * zero_point)` into `y`'s dtype; `zero_point` may be nullptr. try_quantize_linear
 * reports failure in the result; quantize_linear throws tensorcast::error.
 */
inline result<void> try_quantize_linear(const tensor_view &x, const tensor_view &scale,
                                        const tensor_view *zero_point,
                                        const mutable_tensor_view &y,
                                        const qdq_options &opts = qdq_options()) {
  return detail::qdq(tcast_quantize_linear, x, scale, zero_point, y, opts);
}
inline void quantize_linear(const tensor_view &x, const tensor_view &scale,
                            const tensor_view *zero_point, const mutable_tensor_view &y,
                            const qdq_options &opts = qdq_options()) {
  try_quantize_linear(x, scale, zero_point, y, opts).value();
}
/** ONNX DequantizeLinear (tcast_dequantize_linear): `y = (x - zero_point) * scale`. */
inline result<void> try_dequantize_linear(const tensor_view &x, const tensor_view &scale,
                                          const tensor_view *zero_point,
                                          const mutable_tensor_view &y,
                                          const qdq_options &opts = qdq_options()) {
  return detail::qdq(tcast_dequantize_linear, x, scale, zero_point, y, opts);
}
inline void dequantize_linear(const tensor_view &x, const tensor_view &scale,
                              const tensor_view *zero_point, const mutable_tensor_view &y,
                              const qdq_options &opts = qdq_options()) {
  try_dequantize_linear(x, scale, zero_point, y, opts).value();
}

/** tcast_mx_options' `scale_rule`: how an MX block's E8M0 scale follows from its amax. */
enum class mx_scale_rule : std::int32_t {
  /// OCP MX v1.0: 2^(floor(log2(amax)) - emax), the default
  floor = TCAST_MX_SCALE_FLOOR,
  /// 2^(ceil(log2(amax)) - emax)
  ceil = TCAST_MX_SCALE_CEIL,
  /// amax rounded to the element's mantissa first, then floor
  even = TCAST_MX_SCALE_EVEN,
  /// cuBLAS: 2^ceil(log2(amax / largest element))
  rceil = TCAST_MX_SCALE_RCEIL,
};

/** The MXFP4 layouts of tcast_mx_repack (docs/semantics-mx.md, "Layouts"). */
enum class mx_layout : std::int32_t {
  /// FLOAT4E2M1 `[..., 32 nb]`, FLOAT8E8M0 scales `[..., nb]`
  onnx = TCAST_MX_LAYOUT_ONNX,
  /// UINT8 blocks `[..., nb, 16]`, UINT8 scales `[..., nb]`
  gpt_oss = TCAST_MX_LAYOUT_GPT_OSS,
  /// UINT8 `block_mxfp4` `[..., nb, 17]`, the scale inside (no scales tensor)
  ggml = TCAST_MX_LAYOUT_GGML,
};

/**
 * tcast_mx_options (MX / NVFP4 block quantization, docs/semantics-mx.md), starting from
 * the library's defaults (FLOOR, axis -1, block_size 0: 32 for MX, 16 for NVFP4).
 * Setters chain: `tensorcast::mx_options().scale_rule(tensorcast::mx_scale_rule::rceil)`.
 */
class mx_options {
 public:
  mx_options() noexcept : c_() { tcast_mx_options_init(&c_, sizeof c_); }

  [[nodiscard]] mx_scale_rule scale_rule() const noexcept {
    return static_cast<mx_scale_rule>(c_.scale_rule);
  }
  mx_options &scale_rule(mx_scale_rule rule) noexcept {
    c_.scale_rule = static_cast<std::int32_t>(rule);
    return *this;
  }
  [[nodiscard]] std::int64_t axis() const noexcept { return c_.axis; }
  mx_options &axis(std::int64_t a) noexcept {
    c_.axis = a;
    return *this;
  }
  [[nodiscard]] std::int64_t block_size() const noexcept { return c_.block_size; }
  mx_options &block_size(std::int64_t b) noexcept {
    c_.block_size = b;
    return *this;
  }

  [[nodiscard]] const tcast_mx_options &c_options() const noexcept { return c_; }

 private:
  tcast_mx_options c_;
};

namespace detail {
/** `view`'s descriptor in `storage`, or nullptr for no view (an optional argument). */
template <class View>
inline const tcast_tensor *optional_tensor(const View *view, tcast_tensor &storage) noexcept {
  if (view == nullptr) {
    return nullptr;
  }
  storage = view->c_tensor();
  return &storage;
}
}  // namespace detail

/**
 * MX or NVFP4 quantization with the block scales computed from x (tcast_mx_quantize):
 * writes the elements `y` (x's shape, its dtype the element type), the block `scale`
 * (FLOAT8E8M0 for MX, FLOAT8E4M3FN for NVFP4) and, for NVFP4 only, the FLOAT
 * `global_scale` (`[]` or `[1]`; nullptr for MX). try_mx_quantize reports failure in the
 * result; mx_quantize throws tensorcast::error.
 */
inline result<void> try_mx_quantize(const tensor_view &x, const mutable_tensor_view &y,
                                    const mutable_tensor_view &scale,
                                    const mutable_tensor_view *global_scale,
                                    const mx_options &opts = mx_options()) {
  const tcast_tensor tx = x.c_tensor();
  const tcast_tensor ty = y.c_tensor();
  const tcast_tensor ts = scale.c_tensor();
  tcast_tensor tg{};
  tcast_error err;
  return detail::check(tcast_mx_quantize(&tx, &ty, &ts, detail::optional_tensor(global_scale, tg),
                                         &opts.c_options(), &err),
                       err);
}
inline void mx_quantize(const tensor_view &x, const mutable_tensor_view &y,
                        const mutable_tensor_view &scale, const mutable_tensor_view *global_scale,
                        const mx_options &opts = mx_options()) {
  try_mx_quantize(x, y, scale, global_scale, opts).value();
}
/**
 * The inverse of mx_quantize (tcast_mx_dequantize): `y` (FLOAT, FLOAT16 or BFLOAT16, x's
 * shape) = element times block scale (times `global_scale` for NVFP4; nullptr for MX).
 */
inline result<void> try_mx_dequantize(const tensor_view &x, const tensor_view &scale,
                                      const tensor_view *global_scale,
                                      const mutable_tensor_view &y,
                                      const mx_options &opts = mx_options()) {
  const tcast_tensor tx = x.c_tensor();
  const tcast_tensor ts = scale.c_tensor();
  tcast_tensor tg{};
  const tcast_tensor ty = y.c_tensor();
  tcast_error err;
  return detail::check(tcast_mx_dequantize(&tx, &ts, detail::optional_tensor(global_scale, tg),
                                           &ty, &opts.c_options(), &err),
                       err);
}
inline void mx_dequantize(const tensor_view &x, const tensor_view &scale,
                          const tensor_view *global_scale, const mutable_tensor_view &y,
                          const mx_options &opts = mx_options()) {
  try_mx_dequantize(x, scale, global_scale, y, opts).value();
}
/**
 * MXFP4 data moved between layouts bit for bit (tcast_mx_repack): `from` /
 * `from_scales` in `from_layout` into `to` / `to_scales` in `to_layout`; the scales are
 * nullptr for mx_layout::ggml, whose blocks hold them.
 */
inline result<void> try_mx_repack(mx_layout from_layout, const tensor_view &from,
                                  const tensor_view *from_scales, mx_layout to_layout,
                                  const mutable_tensor_view &to,
                                  const mutable_tensor_view *to_scales,
                                  const mx_options &opts = mx_options()) {
  const tcast_tensor tf = from.c_tensor();
  tcast_tensor tfs{};
  const tcast_tensor tt = to.c_tensor();
  tcast_tensor tts{};
  tcast_error err;
  return detail::check(
      tcast_mx_repack(static_cast<std::int32_t>(from_layout), &tf,
                      detail::optional_tensor(from_scales, tfs),
                      static_cast<std::int32_t>(to_layout), &tt,
                      detail::optional_tensor(to_scales, tts), &opts.c_options(), &err),
      err);
}
inline void mx_repack(mx_layout from_layout, const tensor_view &from,
                      const tensor_view *from_scales, mx_layout to_layout,
                      const mutable_tensor_view &to, const mutable_tensor_view *to_scales,
                      const mx_options &opts = mx_options()) {
  try_mx_repack(from_layout, from, from_scales, to_layout, to, to_scales, opts).value();
}

namespace detail {
template <class T>
struct always_false : std::false_type {};
}  // namespace detail

/** A read-only output: refused at compile time with a message that says so. */
template <class Out, class = std::enable_if_t<std::is_same<Out, tensor_view>::value>>
void cast(const tensor_view &, const Out &, const options & = options()) {
  static_assert(detail::always_false<Out>::value,
                "tensorcast::cast: the output is a read-only tensor_view (a view of a const "
                "container); view a mutable container or use mutable_tensor_view");
}

/**
 * The elements of a contiguous container cast to `To`, as a new rank-1 vector:
 * `cast<tensorcast::float16>(floats)`. Throws tensorcast::error.
 */
template <class To, class C>
[[nodiscard]] std::vector<To> cast(const C &input) {
  return detail::cast_container<To>(input, nullptr).value();
}
template <class To, class C>
[[nodiscard]] std::vector<To> cast(const C &input, const options &opts) {
  return detail::cast_container<To>(input, &opts).value();
}
template <class To, class C>
[[nodiscard]] result<std::vector<To>> try_cast(const C &input) {
  return detail::cast_container<To>(input, nullptr);
}
template <class To, class C>
[[nodiscard]] result<std::vector<To>> try_cast(const C &input, const options &opts) {
  return detail::cast_container<To>(input, &opts);
}

/**
 * Every element of a numeric tensor as text (tcast_cast_to_strings; the arena is
 * inside), in the input's row-major order. Throws tensorcast::error.
 */
[[nodiscard]] inline std::vector<std::string> to_strings(const tensor_view &input) {
  return detail::to_strings(input, nullptr).value();
}
[[nodiscard]] inline std::vector<std::string> to_strings(const tensor_view &input,
                                                         const options &opts) {
  return detail::to_strings(input, &opts).value();
}
[[nodiscard]] inline result<std::vector<std::string>> try_to_strings(const tensor_view &input) {
  return detail::to_strings(input, nullptr);
}
[[nodiscard]] inline result<std::vector<std::string>> try_to_strings(const tensor_view &input,
                                                                     const options &opts) {
  return detail::to_strings(input, &opts);
}
/** to_strings of a contiguous container's elements. */
template <class C, class = std::enable_if_t<detail::is_contiguous<const C>::value>>
[[nodiscard]] std::vector<std::string> to_strings(const C &input) {
  return to_strings(view(input));
}
template <class C, class = std::enable_if_t<detail::is_contiguous<const C>::value>>
[[nodiscard]] std::vector<std::string> to_strings(const C &input, const options &opts) {
  return to_strings(view(input), opts);
}

/**
 * Texts (std::string, std::string_view or const char *, in any iterable container)
 * parsed as numbers of type T, as the STRING -> T cast does (trimmed, "inf"/"nan" in any
 * case, integers exactly). Throws tensorcast::error, whose index() is the first bad text.
 */
template <class T, class C>
[[nodiscard]] std::vector<T> parse(const C &texts) {
  return detail::parse<T>(texts, nullptr).value();
}
template <class T, class C>
[[nodiscard]] std::vector<T> parse(const C &texts, const options &opts) {
  return detail::parse<T>(texts, &opts).value();
}
template <class T, class C>
[[nodiscard]] result<std::vector<T>> try_parse(const C &texts) {
  return detail::parse<T>(texts, nullptr);
}
template <class T>
[[nodiscard]] std::vector<T> parse(std::initializer_list<std::string_view> texts) {
  return detail::parse<T>(texts, nullptr).value();
}

namespace detail {
/**
 * Calls `write(out, capacity, &rank, &err)` for a shape, with room for 8 extents first
 * and, when the rank it reports is larger, again with room for exactly that many.
 */
template <class Write>
result<dims> read_shape(Write write) {
  constexpr std::int32_t capacity = static_cast<std::int32_t>(dims::inline_capacity);
  std::int64_t small[dims::inline_capacity];
  std::int32_t rank = 0;
  tcast_error err;
  tcast_status code = write(small, capacity, &rank, &err);
  if (code == TCAST_OK && rank >= 0 && rank <= capacity) {
    return dims(small, static_cast<std::size_t>(rank));
  }
  if (code != TCAST_ERR_BUFFER_TOO_SMALL || rank <= capacity) {
    return info_of(code, err);
  }
  std::vector<std::int64_t> large(static_cast<std::size_t>(rank));
  code = write(large.data(), rank, &rank, &err);
  if (code != TCAST_OK) {
    return info_of(code, err);
  }
  large.resize(static_cast<std::size_t>(rank));
  return dims(large.data(), large.size());
}
}  // namespace detail

/** The shape Expand gives `input` broadcast with `shape` (tcast_expand_shape). */
[[nodiscard]] inline result<dims> try_expand_shape(const dims &input, const dims &shape) {
  return detail::read_shape([&](std::int64_t *out, std::int32_t capacity, std::int32_t *rank,
                                tcast_error *err) {
    return tcast_expand_shape(input.data(), input.rank(), shape.data(), shape.rank(), out,
                              capacity, rank, err);
  });
}
[[nodiscard]] inline dims expand_shape(const dims &input, const dims &shape) {
  return try_expand_shape(input, shape).value();
}

namespace detail {
inline result<void> expand(const tensor_view &input, const mutable_tensor_view &output,
                           const options *opts) {
  const tcast_tensor in = input.c_tensor();
  const tcast_tensor out = output.c_tensor();
  tcast_error err;
  return check(tcast_expand_ex(&in, &out, c_options(opts), &err), err);
}
}  // namespace detail

/** ONNX Expand (tcast_expand_ex): `output`'s shape is the broadcast. */
inline void expand(const tensor_view &input, const mutable_tensor_view &output) {
  detail::expand(input, output, nullptr).value();
}
inline void expand(const tensor_view &input, const mutable_tensor_view &output,
                   const options &opts) {
  detail::expand(input, output, &opts).value();
}
inline result<void> try_expand(const tensor_view &input, const mutable_tensor_view &output) {
  return detail::expand(input, output, nullptr);
}
inline result<void> try_expand(const tensor_view &input, const mutable_tensor_view &output,
                               const options &opts) {
  return detail::expand(input, output, &opts);
}
/** A read-only output: refused at compile time with a message that says so. */
template <class Out, class = std::enable_if_t<std::is_same<Out, tensor_view>::value>>
void expand(const tensor_view &, const Out &, const options & = options()) {
  static_assert(detail::always_false<Out>::value,
                "tensorcast::expand: the output is a read-only tensor_view (a view of a const "
                "container); view a mutable container or use mutable_tensor_view");
}
/**
 * A container's elements, of shape `input_shape`, broadcast to `shape`: a new vector
 * holding the expand_shape(input_shape, shape) result in row-major order. Throws
 * tensorcast::error, and std::length_error (or std::bad_alloc) for a broadcast with more
 * elements than a std::vector holds (or memory for).
 */
template <class C>
[[nodiscard]] std::vector<std::remove_const_t<detail::element_of<const C>>> expand(
    const C &input, const dims &input_shape, const dims &shape) {
  using T = std::remove_const_t<detail::element_of<const C>>;
  dims out_shape = expand_shape(input_shape, shape);
  std::vector<T> out(static_cast<std::size_t>(detail::element_count(out_shape).value()));
  expand(view(std::data(input), static_cast<std::size_t>(std::size(input)), input_shape),
         view(out.data(), out.size(), std::move(out_shape)));
  return out;
}

/** The shape of `from` elements of `shape` viewed as `to` (tcast_bitcast_shape). */
[[nodiscard]] inline result<dims> try_bitcast_shape(dtype from, const dims &shape, dtype to,
                                                    bitcast_rules rules) {
  return detail::read_shape([&](std::int64_t *out, std::int32_t capacity, std::int32_t *rank,
                                tcast_error *err) {
    return tcast_bitcast_shape(static_cast<tcast_dtype>(from), shape.data(), shape.rank(),
                               static_cast<tcast_dtype>(to), static_cast<std::int32_t>(rules),
                               out, capacity, rank, err);
  });
}
[[nodiscard]] inline dims bitcast_shape(dtype from, const dims &shape, dtype to,
                                        bitcast_rules rules) {
  return try_bitcast_shape(from, shape, to, rules).value();
}

namespace detail {
template <class View>
result<View> bitcast(const View &input, dtype to, bitcast_rules rules) {
  const tcast_tensor in = input.c_tensor();
  tcast_tensor out;
  std::int64_t storage[TCAST_MAX_NDIM];
  tcast_error err;
  tcast_status code = tcast_bitcast(&in, static_cast<tcast_dtype>(to),
                                    static_cast<std::int32_t>(rules), &out, storage,
                                    TCAST_MAX_NDIM, &err);
  if (code != TCAST_OK) {
    return info_of(code, err);
  }
  return View(out.data, out.data_bytes, to, dims(storage, static_cast<std::size_t>(out.ndim)));
}
}  // namespace detail

/**
 * `input`'s bytes viewed as `to` (tcast_bitcast), without copying: the same buffer, the
 * shape `rules` give. A writable view gives a writable view.
 */
[[nodiscard]] inline tensor_view bitcast(const tensor_view &input, dtype to, bitcast_rules rules) {
  return detail::bitcast(input, to, rules).value();
}
[[nodiscard]] inline mutable_tensor_view bitcast(const mutable_tensor_view &input, dtype to,
                                                 bitcast_rules rules) {
  return detail::bitcast(input, to, rules).value();
}
[[nodiscard]] inline result<tensor_view> try_bitcast(const tensor_view &input, dtype to,
                                                     bitcast_rules rules) {
  return detail::bitcast(input, to, rules);
}

/** numpy.can_cast(from, to, level) on tensorcast dtypes (tcast_can_cast). */
[[nodiscard]] inline bool can_cast(dtype from, dtype to, casting level) {
  std::int32_t answer = 0;
  tcast_error err;
  detail::check(tcast_can_cast(static_cast<tcast_dtype>(from), static_cast<tcast_dtype>(to),
                               static_cast<std::int32_t>(level), &answer, &err),
                err)
      .value();
  return answer != 0;
}

/** Bytes a contiguous tensor of `type` and `shape` takes (packed types rounded up). */
[[nodiscard]] inline std::uint64_t tensor_bytes(dtype type, const dims &shape) {
  std::uint64_t bytes = 0;
  tcast_error err;
  detail::check(tcast_tensor_bytes(static_cast<tcast_dtype>(type), shape.data(), shape.rank(),
                                   &bytes, &err),
                err)
      .value();
  return bytes;
}

/**
 * The dtype named `text` ("FLOAT", "bfloat16", ... as tcast_dtype_from_name takes).
 * Throws tensorcast::error: INVALID_DTYPE for a name that is no dtype, PARSE for a text
 * holding a NUL byte.
 */
[[nodiscard]] inline dtype dtype_from_name(std::string_view text) {
  const std::string z = detail::c_string(text, "dtype name").value();
  tcast_dtype code = TCAST_DTYPE_UNDEFINED;
  tcast_error err;
  detail::check(tcast_dtype_from_name(z.c_str(), &code, &err), err).value();
  return static_cast<dtype>(code);
}

/* ---------------------------------------------------------------------------------------
 * numpy's dtypes and casting rules
 * ------------------------------------------------------------------------------------- */

/** A parsed numpy dtype spec (tcast_np_dtype), freed when it goes; move-only. */
class np_dtype {
 public:
  np_dtype() noexcept = default;
  np_dtype(const np_dtype &) = delete;
  np_dtype &operator=(const np_dtype &) = delete;
  np_dtype(np_dtype &&other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  np_dtype &operator=(np_dtype &&other) noexcept {
    if (this != &other) {
      tcast_np_dtype_free(handle_);
      handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
  }
  ~np_dtype() { tcast_np_dtype_free(handle_); }

  /** numpy.dtype(spec): "float32", ">i4", "U8", "M8[ns]", "i4,f8", ...; a spec holding
   * a NUL byte is a PARSE error. */
  [[nodiscard]] static result<np_dtype> try_parse(std::string_view spec) {
    const result<std::string> z = detail::c_string(spec, "numpy dtype spec");
    if (!z) {
      return z.error();
    }
    tcast_np_dtype *handle = nullptr;
    tcast_error err;
    const tcast_status code = tcast_np_dtype_parse(z->c_str(), &handle, &err);
    if (code != TCAST_OK) {
      return detail::info_of(code, err);
    }
    return np_dtype(handle);
  }
  [[nodiscard]] static np_dtype parse(std::string_view spec) {
    return std::move(try_parse(spec).value());
  }

  /** Python's str() of the dtype: "int32", ">i4", "<U3". */
  [[nodiscard]] std::string str() const {
    const tcast_np_dtype *handle = handle_;
    return detail::read_text([handle](char *buf, std::uint64_t capacity, std::uint64_t *needed,
                                      tcast_error *err) {
             return tcast_np_dtype_str(handle, buf, capacity, needed, err);
           })
        .value();
  }

  [[nodiscard]] const tcast_np_dtype *get() const noexcept { return handle_; }
  explicit operator bool() const noexcept { return handle_ != nullptr; }
  /** Gives up ownership: the caller frees the handle with tcast_np_dtype_free. */
  [[nodiscard]] tcast_np_dtype *release() noexcept { return std::exchange(handle_, nullptr); }

 private:
  explicit np_dtype(tcast_np_dtype *handle) noexcept : handle_(handle) {}
  tcast_np_dtype *handle_ = nullptr;
};

/** numpy.can_cast(from, to, casting=level) under `rules`. */
[[nodiscard]] inline bool np_can_cast(const np_dtype &from, const np_dtype &to, casting level,
                                      numpy_rules rules = numpy_rules::numpy2) {
  std::int32_t answer = 0;
  tcast_error err;
  detail::check(tcast_np_can_cast(from.get(), to.get(), static_cast<std::int32_t>(level),
                                  static_cast<std::int32_t>(rules), &answer, &err),
                err)
      .value();
  return answer != 0;
}

/** The same, on dtype specs: np_can_cast("i4", "f8", casting::safe). */
[[nodiscard]] inline bool np_can_cast(std::string_view from, std::string_view to, casting level,
                                      numpy_rules rules = numpy_rules::numpy2) {
  return np_can_cast(np_dtype::parse(from), np_dtype::parse(to), level, rules);
}

/** The lowest level at which numpy casts `from` to `to`, or casting::never. */
[[nodiscard]] inline casting np_casting_level(const np_dtype &from, const np_dtype &to,
                                              numpy_rules rules = numpy_rules::numpy2) {
  std::int32_t level = 0;
  tcast_error err;
  detail::check(tcast_np_casting_level(from.get(), to.get(), static_cast<std::int32_t>(rules),
                                       &level, &err),
                err)
      .value();
  return static_cast<casting>(level);
}

/** numpy.promote_types(a, b), as str() of the result: np_promote_types("i4", "f4") -> "float64". */
[[nodiscard]] inline std::string np_promote_types(std::string_view a, std::string_view b) {
  const std::string za = detail::c_string(a, "numpy dtype spec").value();
  const std::string zb = detail::c_string(b, "numpy dtype spec").value();
  return detail::read_text([&za, &zb](char *buf, std::uint64_t capacity, std::uint64_t *needed,
                                      tcast_error *err) {
           return tcast_np_promote_types(za.c_str(), zb.c_str(), buf, capacity, needed, err);
         })
      .value();
}

/* ---------------------------------------------------------------------------------------
 * Diagnostics
 * ------------------------------------------------------------------------------------- */

/**
 * One line saying what the library runs on this CPU (tcast_cpu_info): the architecture,
 * the SIMD kernel families in use, those TCAST_DISABLE_CPU_FEATURES withdrew and the
 * names in it no family knows, e.g. `arch=x86_64 kernels=avx2,sse2,erms withdrawn=none
 * unknown=none`. The library prints nothing itself; this is how a host learns what the
 * variable did. cpu_info() throws tensorcast::error, try_cpu_info() returns it.
 */
[[nodiscard]] inline result<std::string> try_cpu_info() {
  return detail::read_text(
      [](char *buf, std::uint64_t capacity, std::uint64_t *needed, tcast_error *err) {
        return tcast_cpu_info(buf, capacity, needed, err);
      });
}
[[nodiscard]] inline std::string cpu_info() { return try_cpu_info().value(); }

}  // namespace tensorcast

#endif /* TENSORCAST_HPP */
