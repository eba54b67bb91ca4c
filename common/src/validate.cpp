#include "rooflab/validate.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace rooflab {
namespace {

[[noreturn]] void reject(double value, std::string_view name, std::string_view expected) {
  std::ostringstream message;
  message << name << " must be a " << expected << " number, got " << value;
  throw std::invalid_argument(message.str());
}

}  // namespace

void require_positive(double value, std::string_view name) {
  if (!std::isfinite(value) || value <= 0.0) reject(value, name, "positive finite");
}

void require_non_negative(double value, std::string_view name) {
  if (!std::isfinite(value) || value < 0.0) reject(value, name, "non-negative finite");
}

}  // namespace rooflab
