#include "rooflab/not_implemented.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

double stub(double a, int b) { rooflab::todo("demo::stub", a, b); }

[[noreturn]] void throw_something_else() { throw std::runtime_error("something else"); }

TEST(NotImplemented, TodoThrowsNamingTheFunction) {
  try {
    stub(1.0, 2);
    FAIL() << "todo() returned";
  } catch (const rooflab::NotImplemented& error) {
    EXPECT_EQ(error.function(), "demo::stub");
    EXPECT_NE(std::string(error.what()).find("demo::stub is not implemented"), std::string::npos);
  }
}

TEST(NotImplemented, IsALogicError) { EXPECT_THROW(stub(0, 0), std::logic_error); }

// A program whose main lets the stub's exception escape (a lab's example on
// the stubs) says what to write and exits 1: no "terminate called", no abort.
TEST(NotImplemented, AnUncaughtStubExitsCleanlyNamingTheFunction) {
  EXPECT_EXIT(
      {
        try {
          stub(1, 2);  // installs the handler, as the first stub a program runs does
        } catch (const rooflab::NotImplemented&) {
        }
        // Nothing catches this one (gtest would catch it in the statement itself).
        [&]() noexcept { stub(3, 4); }();
      },
      testing::ExitedWithCode(1), "error: demo::stub is not implemented yet \\(YOUR CODE HERE\\)");
}

// Other uncaught exceptions still end as they always did (std::abort).
TEST(NotImplemented, OtherUncaughtExceptionsStillAbort) {
  EXPECT_DEATH(
      {
        try {
          stub(1, 2);
        } catch (const rooflab::NotImplemented&) {
        }
        [&]() noexcept { throw_something_else(); }();
      },
      "something else");
}

}  // namespace
