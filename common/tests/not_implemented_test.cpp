#include "rooflab/not_implemented.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

double stub(double a, int b) { rooflab::todo("demo::stub", a, b); }

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

}  // namespace
