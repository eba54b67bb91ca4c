// rooflab::wire — a small binary codec for the values contract functions take
// and return, so that a graded call can cross from the test process (which holds
// the assertions) to the worker process (which holds the student's code) and back.
//
// Encoded exactly: arithmetic values are copied bit for bit (NaN, -0.0 and
// infinities survive), so a verdict sees precisely what the student returned.
// Supported: arithmetic types, enums, std::string, std::vector, std::array,
// std::pair, std::tuple, std::optional, and aggregates (structs with public
// fields, up to 24 of them, nested freely) without any per-struct declaration.
//
// Decoding never trusts its input: every length is checked against what is
// left, values whose fields must agree are checked (wire_check, below), and a
// bad message throws wire::Error instead of reading out of bounds.
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace rooflab::wire {

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Writer {
 public:
  void raw(const void* data, std::size_t size) { bytes_.append(static_cast<const char*>(data), size); }
  const std::string& bytes() const { return bytes_; }
  std::string take() { return std::move(bytes_); }

 private:
  std::string bytes_;
};

// What a Reader does with values whose fields must agree (wire_check, below):
// the verdict checks everything a worker sends back; a worker takes the
// arguments as sent, since tests send malformed tensors on purpose to see the
// student's validation reject them.
enum class Checks { values, none };

class Reader {
 public:
  explicit Reader(std::string_view bytes, Checks checks = Checks::values) : bytes_(bytes), checks_(checks) {}
  bool checks_values() const { return checks_ == Checks::values; }
  void raw(void* data, std::size_t size) {
    if (size > bytes_.size() - pos_) throw Error("message ends early");
    std::memcpy(data, bytes_.data() + pos_, size);
    pos_ += size;
  }
  // How many elements of `element_size` bytes can still be read: a length
  // prefix beyond this is a corrupt (or hostile) message.
  std::size_t remaining(std::size_t element_size) const { return (bytes_.size() - pos_) / element_size; }
  bool at_end() const { return pos_ == bytes_.size(); }

 private:
  std::string_view bytes_;
  std::size_t pos_ = 0;
  Checks checks_;
};

// ---- aggregates: count the fields, then bind them by structured binding ----
namespace detail {

struct any_field {
  template <class T>
  operator T&() const;  // never defined: only used in unevaluated contexts
};

template <class T, std::size_t... I>
constexpr bool brace_initializable(std::index_sequence<I...>) {
  return requires { T{(void(I), any_field{})...}; };
}

template <class T, std::size_t N = 24>
constexpr std::size_t field_count() {
  if constexpr (N == 0) {
    return 0;
  } else if constexpr (brace_initializable<T>(std::make_index_sequence<N>{})) {
    return N;
  } else {
    return field_count<T, N - 1>();
  }
}

// clang-format off
#define ROOFLAB_WIRE_TIE(n, ...) \
  else if constexpr (count == n) { auto& [__VA_ARGS__] = value; return std::tie(__VA_ARGS__); }
template <class T>
auto tie_fields(T& value) {
  constexpr std::size_t count = field_count<std::remove_const_t<T>>();
  static_assert(count > 0 && count <= 24, "wire: aggregate with 1..24 public fields expected");
  if constexpr (false) {}
  ROOFLAB_WIRE_TIE(1, a)
  ROOFLAB_WIRE_TIE(2, a, b)
  ROOFLAB_WIRE_TIE(3, a, b, c)
  ROOFLAB_WIRE_TIE(4, a, b, c, d)
  ROOFLAB_WIRE_TIE(5, a, b, c, d, e)
  ROOFLAB_WIRE_TIE(6, a, b, c, d, e, f)
  ROOFLAB_WIRE_TIE(7, a, b, c, d, e, f, g)
  ROOFLAB_WIRE_TIE(8, a, b, c, d, e, f, g, h)
  ROOFLAB_WIRE_TIE(9, a, b, c, d, e, f, g, h, i)
  ROOFLAB_WIRE_TIE(10, a, b, c, d, e, f, g, h, i, j)
  ROOFLAB_WIRE_TIE(11, a, b, c, d, e, f, g, h, i, j, k)
  ROOFLAB_WIRE_TIE(12, a, b, c, d, e, f, g, h, i, j, k, l)
  ROOFLAB_WIRE_TIE(13, a, b, c, d, e, f, g, h, i, j, k, l, m)
  ROOFLAB_WIRE_TIE(14, a, b, c, d, e, f, g, h, i, j, k, l, m, n)
  ROOFLAB_WIRE_TIE(15, a, b, c, d, e, f, g, h, i, j, k, l, m, n, o)
  ROOFLAB_WIRE_TIE(16, a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p)
  ROOFLAB_WIRE_TIE(17, a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q)
  ROOFLAB_WIRE_TIE(18, a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r)
  ROOFLAB_WIRE_TIE(19, a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s)
  ROOFLAB_WIRE_TIE(20, a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t)
  ROOFLAB_WIRE_TIE(21, a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t, u)
  ROOFLAB_WIRE_TIE(22, a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t, u, v)
  ROOFLAB_WIRE_TIE(23, a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t, u, v, w)
  ROOFLAB_WIRE_TIE(24, a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t, u, v, w, x)
}
#undef ROOFLAB_WIRE_TIE
// clang-format on

template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};
template <class T>
struct is_array : std::false_type {};
template <class T, std::size_t N>
struct is_array<std::array<T, N>> : std::true_type {};
template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};
template <class T>
struct is_tuple_like : std::false_type {};
template <class... T>
struct is_tuple_like<std::tuple<T...>> : std::true_type {};
template <class A, class B>
struct is_tuple_like<std::pair<A, B>> : std::true_type {};

}  // namespace detail

template <class T>
void encode(Writer& out, const T& value);
template <class T>
void decode(Reader& in, T& value);

inline void encode_size(Writer& out, std::size_t size) {
  const auto n = static_cast<std::uint64_t>(size);
  out.raw(&n, sizeof n);
}

inline std::size_t decode_size(Reader& in, std::size_t element_size) {
  std::uint64_t n = 0;
  in.raw(&n, sizeof n);
  if (n > in.remaining(element_size == 0 ? 1 : element_size)) throw Error("length prefix exceeds the message");
  return static_cast<std::size_t>(n);
}

template <class T>
void encode(Writer& out, const T& value) {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_arithmetic_v<U> || std::is_enum_v<U>) {
    out.raw(&value, sizeof value);
  } else if constexpr (std::is_same_v<U, std::string>) {
    encode_size(out, value.size());
    out.raw(value.data(), value.size());
  } else if constexpr (detail::is_vector<U>::value) {
    encode_size(out, value.size());
    using E = typename U::value_type;
    if constexpr (std::is_arithmetic_v<E> && !std::is_same_v<E, bool>) {
      out.raw(value.data(), value.size() * sizeof(E));
    } else {
      for (const auto& element : value) encode(out, element);
    }
  } else if constexpr (detail::is_array<U>::value) {
    for (const auto& element : value) encode(out, element);
  } else if constexpr (detail::is_optional<U>::value) {
    encode(out, value.has_value());
    if (value) encode(out, *value);
  } else if constexpr (detail::is_tuple_like<U>::value) {
    std::apply([&](const auto&... parts) { (encode(out, parts), ...); }, value);
  } else {
    static_assert(std::is_aggregate_v<U>, "wire: no encoding for this type");
    std::apply([&](const auto&... fields) { (encode(out, fields), ...); }, detail::tie_fields(value));
  }
}

template <class T>
void decode(Reader& in, T& value) {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, bool>) {
    unsigned char byte = 0;
    in.raw(&byte, 1);
    if (byte > 1) throw Error("a bool that is neither 0 nor 1");
    value = byte == 1;
  } else if constexpr (std::is_arithmetic_v<U> || std::is_enum_v<U>) {
    in.raw(&value, sizeof value);
  } else if constexpr (std::is_same_v<U, std::string>) {
    value.resize(decode_size(in, 1));
    in.raw(value.data(), value.size());
  } else if constexpr (detail::is_vector<U>::value) {
    using E = typename U::value_type;
    value.clear();
    value.resize(decode_size(in, std::is_arithmetic_v<E> ? sizeof(E) : 1));
    if constexpr (std::is_arithmetic_v<E> && !std::is_same_v<E, bool>) {
      in.raw(value.data(), value.size() * sizeof(E));
    } else {
      for (std::size_t i = 0; i < value.size(); ++i) {  // indexed: std::vector<bool> has proxy references
        E decoded{};
        decode(in, decoded);
        value[i] = std::move(decoded);
      }
    }
  } else if constexpr (detail::is_array<U>::value) {
    for (auto& element : value) decode(in, element);
  } else if constexpr (detail::is_optional<U>::value) {
    bool present = false;
    decode(in, present);
    value.reset();
    if (present) decode(in, value.emplace());
  } else if constexpr (detail::is_tuple_like<U>::value) {
    std::apply([&](auto&... parts) { (decode(in, parts), ...); }, value);
  } else {
    static_assert(std::is_aggregate_v<U>, "wire: no decoding for this type");
    std::apply([&](auto&... fields) { (decode(in, fields), ...); }, detail::tie_fields(value));
    // A type whose fields must agree (a tensor's shape and its data) says so
    // with a wire_check(const T&) found by argument-dependent lookup: it
    // returns why the decoded value cannot be used, or nullptr. Checked here,
    // before any caller can index by a shape the data does not have.
    if constexpr (requires(const U& decoded) {
                    { wire_check(decoded) } -> std::convertible_to<const char*>;
                  }) {
      if (in.checks_values())
        if (const char* problem = wire_check(value)) throw Error(problem);
    }
  }
}

// Encodes a value and decodes it again: what a round trip through a worker does.
template <class T>
T round_trip(const T& value) {
  Writer out;
  encode(out, value);
  Reader in(out.bytes());
  T copy{};
  decode(in, copy);
  if (!in.at_end()) throw Error("bytes left over after decoding");
  return copy;
}

}  // namespace rooflab::wire
