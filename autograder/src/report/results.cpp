#include "report/results.hpp"

namespace rooflab {

double GradeResult::score() const {
  double total = 0;
  for (const auto& assignment : assignments) total += assignment.score;
  return total;
}

double GradeResult::max_score() const {
  double total = 0;
  for (const auto& assignment : assignments) total += assignment.max_score;
  return total;
}

}  // namespace rooflab
