// `grade-all --deadline TIME`: an ISO 8601 time with its zone, such as
// 2026-12-01T23:59:00Z or 2026-12-01T23:59:00+01:00. A zone is required: a
// class is often graded on a machine (a cluster's) in another zone than the
// one the deadline was announced in. Pure (deadline.cpp):
// autograder/tests/class_deadline_test.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace rooflab {

struct Deadline {
  std::int64_t unix_seconds = 0;  // the instant, in seconds since 1970-01-01T00:00:00Z
  std::string utc;                // "2026-12-01T22:59:00Z": shown in reports and gradebooks
  std::string git;                // "2026-12-01 22:59:00 +0000": a date every git parses exactly
};

// YYYY-MM-DDTHH:MM[:SS[.fraction]] then Z, ±HH:MM, ±HHMM or ±HH ('T' may be a
// space). Returns nullopt for anything else, or a date or time out of range
// (2026-02-30, 24:00, an offset past 14 hours); a fraction of a second is
// dropped, since git dates are whole seconds.
std::optional<Deadline> parse_deadline(const std::string& text);

}  // namespace rooflab
