// The course's TOML is read by toml++: CMake links this file where the
// distribution packages toml++ (cmake/dependencies.cmake, ROOFLAB_TOML).
#include "readers.hpp"

namespace rooflab::toml {

Value parse(std::string_view text, const std::string& source) { return tomlplusplus::parse(text, source); }

const char* reader_name() { return "tomlplusplus"; }

}  // namespace rooflab::toml
