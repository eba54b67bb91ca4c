// a01_roofline, provided: the names of the data types.
#include <array>
#include <stdexcept>
#include <string>
#include <utility>

#include "a01_roofline/memory.hpp"

namespace a01_roofline {

DType parse_dtype(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, DType>, 6> names{{
      {"fp32", DType::fp32},
      {"fp16", DType::fp16},
      {"bf16", DType::bf16},
      {"fp8", DType::fp8},
      {"int8", DType::int8},
      {"int4", DType::int4},
  }};
  for (const auto& [known, dtype] : names) {
    if (known == name) return dtype;
  }
  throw std::invalid_argument("dtype \"" + std::string(name) +
                              "\" is unknown; expected one of fp32, fp16, bf16, fp8, int8, int4");
}

}  // namespace a01_roofline
