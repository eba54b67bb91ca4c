#include "verdict/test_outcome.hpp"

namespace rooflab {

const char* to_string(TestStatus status) {
  switch (status) {
    case TestStatus::passed:
      return "passed";
    case TestStatus::failed:
      return "failed";
    case TestStatus::skipped:
      return "skipped";
    case TestStatus::crashed:
      return "crashed";
    case TestStatus::timed_out:
      return "timed out";
    case TestStatus::not_built:
      return "not built";
  }
  return "unknown";
}

}  // namespace rooflab
