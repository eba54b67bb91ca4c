// The two TOML readers, each under a name of its own so that a test can link
// both and compare them (tests/toml_readers_agree_test.cpp). The course calls
// rooflab::toml::parse(), which use_builtin.cpp or use_tomlplusplus.cpp, the one
// CMake chose, hands to one of them.
#pragma once

#include <string>
#include <string_view>

#include "rooflab/toml_document.hpp"

namespace rooflab::toml {

namespace builtin {
// The course's own reader (builtin_parser.cpp): TOML 1.0 less dates and times.
Value parse(std::string_view text, const std::string& source);
}  // namespace builtin

namespace tomlplusplus {
// toml++'s parser, its tree copied into ours (tomlplusplus_reader.cpp).
Value parse(std::string_view text, const std::string& source);
}  // namespace tomlplusplus

}  // namespace rooflab::toml
