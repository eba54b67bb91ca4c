// rooflab::rpc — how a graded test reaches the student's code without holding it.
//
// When the grader runs a test, two processes take part:
//   the verdict process  = the test's code + the course's provided code + one
//                          generated *client* definition per contract function;
//                          it holds every assertion and no student code;
//   the worker process   = the student's code + one generated *dispatch* entry
//                          per contract function, sandboxed by the grader.
// Each contract call in a test is a client definition that encodes the arguments
// (rooflab/wire.hpp), sends them to the worker over a file descriptor the grader
// opened, and returns what the worker's student function returned or rethrows
// what it threw. Whatever the worker does (crash, exit, print, forge bytes), the
// pass/fail is decided by assertions it cannot reach.
//
// Parameters: by value, const reference, std::string_view and std::span<const T>
// travel to the worker; a non-const lvalue reference or std::span<T> travels
// there and back (the worker's final value is written into the caller's object).
// Raw pointers are refused at compile time.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "rooflab/wire.hpp"

namespace rooflab::rpc {

// One function a worker serves: the generated dispatch table lists them in the
// same order as the generated client numbers them.
struct Entry {
  const char* signature;  // e.g. "a01_roofline::ridge_point(double, double)"
  void (*serve)(wire::Reader& arguments, wire::Writer& results);
};

// What a thrown exception is reconstructed as on the verdict side.
enum class ErrorKind : std::uint8_t {
  invalid_argument,
  out_of_range,
  domain_error,
  length_error,
  not_implemented,
  logic_error,
  overflow_error,
  range_error,
  runtime_error,
  bad_alloc,
  other_std_exception,
  not_a_std_exception,
};

// ---- how each parameter type travels ----
namespace detail {

template <class T>
struct is_span : std::false_type {};
template <class T, std::size_t N>
struct is_span<std::span<T, N>> : std::true_type {};

template <class P>
constexpr void check_parameter() {
  static_assert(!std::is_pointer_v<std::remove_cvref_t<P>>,
                "contract functions take values, references, std::string_view or std::span; not raw pointers");
}

// The owning type a parameter is held in while it is encoded or decoded.
template <class P, class D = std::remove_cvref_t<P>>
struct stored {
  using type = D;
};
template <class P>
struct stored<P, std::string_view> {
  using type = std::string;
};
template <class P, class T, std::size_t N>
struct stored<P, std::span<T, N>> {
  using type = std::vector<std::remove_const_t<T>>;
};
template <class P>
using stored_t = typename stored<P>::type;

// Does the worker's final value come back into the caller's object?
template <class P, class D = std::remove_cvref_t<P>>
constexpr bool is_in_out() {
  if constexpr (is_span<D>::value) {
    return !std::is_const_v<typename D::element_type>;
  } else {
    return std::is_lvalue_reference_v<P> && !std::is_const_v<std::remove_reference_t<P>>;
  }
}

template <class P>
void send(wire::Writer& out, const std::remove_reference_t<P>& value) {
  using D = std::remove_cvref_t<P>;
  if constexpr (std::is_same_v<D, std::string_view>) {
    wire::encode(out, std::string(value));
  } else if constexpr (is_span<D>::value) {
    wire::encode(out, stored_t<P>(value.begin(), value.end()));
  } else {
    wire::encode(out, value);
  }
}

template <class P>
void receive_back(wire::Reader& in, std::remove_reference_t<P>& target) {
  if constexpr (is_in_out<P>()) {
    using D = std::remove_cvref_t<P>;
    stored_t<P> value{};
    wire::decode(in, value);
    if constexpr (is_span<D>::value) {
      if (value.size() != target.size()) throw wire::Error("an in/out span came back with a different length");
      std::copy(value.begin(), value.end(), target.begin());
    } else {
      target = std::move(value);
    }
  }
}

// The argument the student function receives, made from what was decoded.
template <class P>
decltype(auto) as_argument(stored_t<P>& value) {
  using D = std::remove_cvref_t<P>;
  if constexpr (std::is_same_v<D, std::string_view> || is_span<D>::value) {
    return D(value);
  } else if constexpr (std::is_rvalue_reference_v<P>) {
    return std::move(value);
  } else {
    return (value);
  }
}

}  // namespace detail

// ---- verdict side ----

struct WorkerLost : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void throw_malformed_reply(const char* signature, const std::string& why);

// One connection to a worker. transact() sends one request and returns the
// worker's reply payload; it rethrows, as the matching standard type, an
// exception the student function threw. When the worker is gone or answers
// nonsense, it records a gtest failure (so no EXPECT_ANY_THROW or catch(...)
// can turn it into a pass) and throws rpc::WorkerLost.
class Client {
 public:
  explicit Client(int fd) : fd_(fd) {}
  std::string transact(std::uint32_t function_id, const char* signature, std::string arguments);
  // Waits until the worker answers a greeting, which it does once it has
  // started (loaded, initialised) and before any student function runs: what
  // a test measures of the worker afterwards is the calls', not its start's.
  // A worker that never answers leaves the connection lost, for the first call
  // to report.
  void greet();

 private:
  [[noreturn]] void lose(const std::string& why);
  int fd_;
  std::uint32_t sequence_ = 0;
  bool lost_ = false;
};

// The process's connection: the descriptor the grader passed in ROOFLAB_RPC_FD.
// It is made, and the worker greeted, before the first test runs (a gtest
// environment), so no test's memory window sees the worker starting up.
std::string transact(std::uint32_t function_id, const char* signature, std::string arguments);

template <class R, class... P>
R call(std::uint32_t function_id, const char* signature, std::remove_reference_t<P>&... arguments) {
  (detail::check_parameter<P>(), ...);
  wire::Writer request;
  (detail::send<P>(request, arguments), ...);
  const std::string reply = transact(function_id, signature, request.take());
  wire::Reader in(reply);
  try {
    if constexpr (std::is_void_v<R>) {
      (detail::receive_back<P>(in, arguments), ...);
      if (!in.at_end()) throw wire::Error("bytes left over");
    } else {
      std::remove_cvref_t<R> result{};
      wire::decode(in, result);
      (detail::receive_back<P>(in, arguments), ...);
      if (!in.at_end()) throw wire::Error("bytes left over");
      return result;
    }
  } catch (const wire::Error& error) {
    throw_malformed_reply(signature, error.what());
  }
}

// ---- worker side ----

template <class R, class... P>
void serve(R (*function)(P...), wire::Reader& in, wire::Writer& out) {
  (detail::check_parameter<P>(), ...);
  std::tuple<detail::stored_t<P>...> values;
  std::apply([&](auto&... value) { (wire::decode(in, value), ...); }, values);
  if (!in.at_end()) throw wire::Error("request has bytes left over");
  const auto invoke = [&] {
    return std::apply([&](auto&... value) { return function(detail::as_argument<P>(value)...); }, values);
  };
  if constexpr (std::is_void_v<R>) {
    invoke();
  } else {
    wire::encode(out, invoke());
  }
  std::apply([&](auto&... value) { ((detail::is_in_out<P>() ? wire::encode(out, value) : void()), ...); }, values);
}

// The worker's main loop: answers requests on `fd` with `table` until the
// verdict process closes it, and a request for the worker report with
// `report()` (empty when null). Returns the process exit code.
int serve_forever(int fd, const Entry* table, std::size_t table_size, std::string (*report)() = nullptr);

// The worker report (rooflab/worker_report.hpp) as it travels.
std::string encode_worker_report();

}  // namespace rooflab::rpc
