#include "release/contract.hpp"

#include <gtest/gtest.h>

namespace rooflab {
namespace {

TEST(Contract, ReadsFreeFunctionsOfTheNamespaceFromNm) {
  const std::string nm =
      "\nmemory.cpp.o:\n"
      "0000000000000020 T a01::model_memory_bytes(double, double)\n"
      "0000000000000070 T a01::model_memory_bytes(double, a01::DType)\n"
      "0000000000000000 W std::vector<float, std::allocator<float> >::~vector()\n"
      "0000000000000090 T a01::sum(std::vector<float, std::allocator<float> > const&, std::span<float, "
      "18446744073709551615ul>)\n"
      "0000000000000000 T other::f(int)\n";
  const auto functions = parse_contract(nm, "a01");
  ASSERT_EQ(functions.size(), 3u);
  EXPECT_EQ(functions[0].signature(), "a01::model_memory_bytes(double, a01::DType)");
  EXPECT_EQ(functions[2].params, (std::vector<std::string>{"std::vector<float, std::allocator<float> > const&",
                                                           "std::span<float, 18446744073709551615ul>"}));
}

TEST(Contract, MemberFunctionsAreRefusedByName) {
  try {
    parse_contract("0000000000000000 T a01::Cache::append(double)\n", "a01");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("a01::Cache::append(double) is not a free function"), std::string::npos)
        << error.what();
  }
}

TEST(Contract, GeneratedSidesNumberFunctionsAlike) {
  const auto functions = parse_contract("0 T a01::f(double)\n0 T a01::g(int const&)\n", "a01");
  const std::string client = client_source(functions, "a01/a01.hpp");
  const std::string dispatch = dispatch_source(functions, "a01/a01.hpp");
  EXPECT_NE(client.find("rooflab::rpc::call<R1, int const&>(1, \"a01::g(int const&)\", a0)"), std::string::npos)
      << client;
  EXPECT_NE(dispatch.find("{\"a01::g(int const&)\""), std::string::npos) << dispatch;
  EXPECT_NE(dispatch.find("rooflab_rpc_table_size = 2"), std::string::npos) << dispatch;
}

}  // namespace
}  // namespace rooflab
