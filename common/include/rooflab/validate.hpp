// Argument checks shared by every assignment's contract.
//
// The course's contract is that a non-positive or non-finite input throws
// std::invalid_argument whose message names the argument, e.g.
//   "num_params must be a positive finite number, got -1"
#pragma once

#include <string_view>

namespace rooflab {

// Throws std::invalid_argument naming `name` unless value is finite and > 0.
void require_positive(double value, std::string_view name);

// Throws std::invalid_argument naming `name` unless value is finite and >= 0.
void require_non_negative(double value, std::string_view name);

}  // namespace rooflab
