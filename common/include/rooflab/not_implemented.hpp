// What a student stub does: throw NotImplemented naming the function.
//
// `lab release` replaces every solution region with a call to rooflab::todo(),
// passing the function's parameters so the stub compiles warning-free (no unused
// parameters) and fails cleanly with a message that names what to implement.
#pragma once

#include <stdexcept>
#include <string>

namespace rooflab {

class NotImplemented : public std::logic_error {
 public:
  explicit NotImplemented(const std::string& function);
  const std::string& function() const noexcept { return function_; }

 private:
  std::string function_;
};

[[noreturn]] void throw_not_implemented(const char* function);

// Throws NotImplemented("<function> is not implemented yet"). The arguments are
// ignored; taking them marks the stub's parameters as used.
template <typename... Args>
[[noreturn]] void todo(const char* function, const Args&... /*unused*/) {
  throw_not_implemented(function);
}

}  // namespace rooflab
