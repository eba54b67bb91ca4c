// The course's TOML is read by its own reader: CMake links this file where
// toml++ was not found, or ROOFLAB_TOML=builtin (cmake/dependencies.cmake).
#include "readers.hpp"

namespace rooflab::toml {

Value parse(std::string_view text, const std::string& source) { return builtin::parse(text, source); }

const char* reader_name() { return "builtin"; }

}  // namespace rooflab::toml
