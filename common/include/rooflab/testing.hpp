// Test helpers shared by public and hidden tests.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "rooflab/backend.hpp"

namespace rooflab::testing {

// How close a result computed in one dtype must come to the fp64 reference
// (numpy's allclose: |actual − expected| <= atol + rtol·|expected|), for inputs
// ~N(0, 1) and head dimensions up to 128 (docs/05_flash_attention.md). One
// constant per dtype, shared by every assignment's public and hidden tests.
struct Tolerance {
  double atol;
  double rtol;
};
inline constexpr Tolerance kFp32{1e-5, 1e-4};
// fp16 inputs and probabilities with fp32 accumulation (tensor cores), against
// the fp64 reference on the same fp16-rounded inputs (rounded_to_fp16 in
// rooflab/attention_testing.hpp): what is left is each weight p rounded to
// fp16, a relative error of at most 2^-11 ≈ 4.9e-4 per term.
inline constexpr Tolerance kFp16{2e-3, 2e-3};
// The same with bf16 (rounded_to_bf16): 8 significant bits, at most 2^-8 ≈
// 3.9e-3 per term, the same margin.
inline constexpr Tolerance kBf16{1.6e-2, 1.6e-2};

// Names each instance of a backend-parameterised suite by its backend:
//   INSTANTIATE_TEST_SUITE_P(Backends, Suite, ::testing::ValuesIn(compiled_backends()), BackendName{});
// gives "Backends/Suite.Test/cpu", the names rubrics match.
struct BackendName {
  std::string operator()(const ::testing::TestParamInfo<Backend>& info) const { return to_string(info.param); }
};

// gtest predicate: |actual - expected| <= rel * |expected| (exact when expected == 0).
inline ::testing::AssertionResult RelNear(const char* actual_expr, const char* expected_expr, const char* /*rel_expr*/,
                                          double actual, double expected, double rel) {
  const double error = std::fabs(actual - expected);
  if (error <= rel * std::fabs(expected)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << actual_expr << " = " << actual << " but " << expected_expr << " = "
                                       << expected << " (relative error "
                                       << (expected != 0 ? error / std::fabs(expected) : error) << " > " << rel << ")";
}

// The names a function's std::invalid_argument messages may use: one per
// argument, or per field of an argument struct. A validation test declares
// them once, and each EXPECT_INVALID_ARGUMENT then checks that the message
// names the offending argument and none of the others, so that code which
// throws one message naming everything for any input earns nothing:
//   const rooflab::testing::ArgumentNames names{"num_params", "bytes_per_param"};
//   EXPECT_INVALID_ARGUMENT(model_memory_bytes(-1, 2), "num_params");
class ArgumentNames {
 public:
  ArgumentNames(std::initializer_list<std::string> names) : names_(names), outer_(current()) { current() = this; }
  ~ArgumentNames() { current() = outer_; }
  ArgumentNames(const ArgumentNames&) = delete;
  ArgumentNames& operator=(const ArgumentNames&) = delete;

  const std::vector<std::string>& names() const { return names_; }
  static const ArgumentNames* declared() { return current(); }

 private:
  static const ArgumentNames*& current() {
    thread_local const ArgumentNames* declared = nullptr;
    return declared;
  }
  std::vector<std::string> names_;
  const ArgumentNames* outer_;
};

// Whether `message` names `name` as a word of its own: not inside a longer
// identifier ("k" is not named by "block_cols", "seq_len" not by "max_seq_len").
inline bool names_word(const std::string& message, const std::string& name) {
  const auto identifier = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t at = message.find(name); at != std::string::npos; at = message.find(name, at + 1)) {
    const bool starts = at == 0 || !identifier(message[at - 1]);
    const bool ends = at + name.size() == message.size() || !identifier(message[at + name.size()]);
    if (starts && ends) return true;
  }
  return false;
}

// Checks that `call` throws std::invalid_argument whose message names
// `argument` and no other of the test's ArgumentNames. Records the test as a
// validation test (gtest property rooflab_validation), so that the course's
// rubric check can see that its points are gated by a correct answer.
inline ::testing::AssertionResult ThrowsInvalidArgumentNaming(const std::function<void()>& call,
                                                              const std::string& argument) {
  ::testing::Test::RecordProperty("rooflab_validation", "1");
  const ArgumentNames* names = ArgumentNames::declared();
  if (!names)
    return ::testing::AssertionFailure() << "test bug: declare the function's rooflab::testing::ArgumentNames before "
                                            "EXPECT_INVALID_ARGUMENT";
  try {
    call();
  } catch (const std::invalid_argument& error) {
    const std::string message = error.what();
    if (!names_word(message, argument))
      return ::testing::AssertionFailure() << "std::invalid_argument was thrown but its message \"" << message
                                           << "\" does not name \"" << argument << "\"";
    for (const std::string& other : names->names())
      if (other != argument && names_word(message, other))
        return ::testing::AssertionFailure() << "the message \"" << message << "\" names \"" << other
                                             << "\" too, but only \"" << argument << "\" is wrong here";
    return ::testing::AssertionSuccess();
  } catch (const std::exception& error) {
    return ::testing::AssertionFailure() << "expected std::invalid_argument naming \"" << argument
                                         << "\", got another exception: " << error.what();
  }
  return ::testing::AssertionFailure() << "expected std::invalid_argument naming \"" << argument
                                       << "\", nothing was thrown";
}

// Runs `call` (a launcher, say) and returns what it returns. When it throws
// anything but std::invalid_argument (which validation tests expect), the
// exception is one failure at `file`:`line` that names `what` was called and
// quotes the message (an out-of-bounds access the CPU runtime found, with its
// kernel, thread and line; a stub's "not implemented"), and the result is
// std::nullopt, so the test checks no result that does not exist. Without it
// gtest reports "unknown file: Failure" and where nothing points.
//   const auto result = ROOFLAB_CALL_OR_FAIL("flash_attention_cuda", flash_attention_cuda(q, k, v, false));
//   if (!result) return;
template <class Call>
auto call_or_fail(const char* file, int line, const std::string& what, Call&& call) -> std::optional<decltype(call())> {
  try {
    return std::forward<Call>(call)();
  } catch (const std::invalid_argument&) {
    throw;
  } catch (const std::exception& error) {
    ADD_FAILURE_AT(file, line) << what << " failed: " << error.what();
  }
  return std::nullopt;
}
#define ROOFLAB_CALL_OR_FAIL(what, expression) \
  ::rooflab::testing::call_or_fail(__FILE__, __LINE__, what, [&] { return expression; })

// Where an element sits in a row-major tensor, for failure messages:
// "(b=0, h=1, i=27, c=40)". `shape` and `axes` come from the test (the shape
// the verdict computed, never one a submission reported); without them, or
// when they do not describe `size` elements, the flat index "[3528]".
struct TensorAxes {
  std::vector<std::int64_t> shape;  // e.g. {B, H, N, d}
  std::vector<std::string> axes;    // e.g. {"b", "h", "i", "c"}
};

inline std::string element_location(std::size_t flat, std::size_t size, const TensorAxes& layout = {}) {
  std::int64_t elements = 1;
  for (const std::int64_t extent : layout.shape) elements *= extent;
  std::ostringstream text;  // not std::string's operator+: GCC 12 warns falsely on it (-Wrestrict)
  if (layout.shape.empty() || layout.shape.size() != layout.axes.size() ||
      elements != static_cast<std::int64_t>(size)) {
    text << "[" << flat << "]";
    return text.str();
  }
  std::vector<std::int64_t> coordinates(layout.shape.size());
  auto rest = static_cast<std::int64_t>(flat);
  for (std::size_t axis = layout.shape.size(); axis-- > 0;) {
    coordinates[axis] = rest % layout.shape[axis];
    rest /= layout.shape[axis];
  }
  text << "(";
  for (std::size_t axis = 0; axis < coordinates.size(); ++axis)
    text << (axis > 0 ? ", " : "") << layout.axes[axis] << "=" << coordinates[axis];
  text << ")";
  return text.str();
}

// AllClose, naming the worst element by its coordinates in `layout`.
template <class Actual, class Expected>
::testing::AssertionResult AllCloseIn(const char* actual_expr, const char* expected_expr, const Actual& actual,
                                      const Expected& expected, double atol, double rtol, const TensorAxes& layout) {
  if (actual.size() != expected.size())
    return ::testing::AssertionFailure() << actual_expr << " has " << actual.size() << " elements but " << expected_expr
                                         << " has " << expected.size();
  double worst = 0;
  std::size_t where = 0;
  bool failed = false;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const double a = static_cast<double>(actual[i]), e = static_cast<double>(expected[i]);
    double excess = std::fabs(a - e) - (atol + rtol * std::fabs(e));
    if (std::isnan(e) || std::isinf(e)) excess = (a == e || (std::isnan(a) && std::isnan(e))) ? 0 : INFINITY;
    if (std::isnan(excess)) excess = INFINITY;  // NaN actual against a finite expected
    if (excess > 0 && (!failed || excess > worst)) {
      failed = true;
      worst = excess;
      where = i;
    }
  }
  if (!failed) return ::testing::AssertionSuccess();
  const std::string at = element_location(where, expected.size(), layout);
  return ::testing::AssertionFailure() << actual_expr << at << " = " << static_cast<double>(actual[where]) << " but "
                                       << expected_expr << at << " = " << static_cast<double>(expected[where])
                                       << " (atol " << atol << ", rtol " << rtol << ")";
}

// gtest predicate over two equal-length sequences: every element satisfies
// |actual − expected| <= atol + rtol·|expected| (numpy's allclose), with NaN
// matching only NaN and an infinity only itself. Reports the worst element.
template <class Actual, class Expected>
::testing::AssertionResult AllClose(const char* actual_expr, const char* expected_expr, const char*, const char*,
                                    const Actual& actual, const Expected& expected, double atol, double rtol) {
  return AllCloseIn(actual_expr, expected_expr, actual, expected, atol, rtol, {});
}

// Skips the current test, visibly and with the reason, when `backend` cannot run here.
#define ROOFLAB_SKIP_UNLESS_AVAILABLE(backend)                                                        \
  do {                                                                                                \
    if (const std::string rooflab_why = ::rooflab::unavailable_reason(backend); !rooflab_why.empty()) \
      GTEST_SKIP() << ::rooflab::to_string(backend) << " backend skipped: " << rooflab_why;           \
  } while (0)

// A whole number drawn uniformly from [lo, hi]: how hidden tests draw shapes.
inline std::int64_t pick(std::mt19937_64& engine, std::int64_t lo, std::int64_t hi) {
  return std::uniform_int_distribution<std::int64_t>(lo, hi)(engine);
}

// The seed hidden tests draw their inputs from. The grader picks it at grading
// time and passes ROOFLAB_SEED to the verdict process only (never to the
// student's worker), so outputs cannot be precomputed; its report names the
// seed so a regrade can reproduce the run. Outside the grader it is fixed.
inline std::uint64_t seed() {
  const char* text = std::getenv("ROOFLAB_SEED");
  return text ? std::strtoull(text, nullptr, 10) : 20261121u;
}

}  // namespace rooflab::testing

#define EXPECT_REL_NEAR(actual, expected, rel) EXPECT_PRED_FORMAT3(::rooflab::testing::RelNear, actual, expected, rel)
#define EXPECT_ALL_CLOSE(actual, expected, atol, rtol) \
  EXPECT_PRED_FORMAT4(::rooflab::testing::AllClose, actual, expected, atol, rtol)
// EXPECT_ALL_CLOSE within a dtype's Tolerance, e.g. rooflab::testing::kFp32.
#define EXPECT_ALL_CLOSE_WITHIN(actual, expected, tolerance) \
  EXPECT_ALL_CLOSE(actual, expected, (tolerance).atol, (tolerance).rtol)
#define EXPECT_INVALID_ARGUMENT(statement, argument) \
  EXPECT_TRUE(::rooflab::testing::ThrowsInvalidArgumentNaming([&] { (void)(statement); }, argument))
