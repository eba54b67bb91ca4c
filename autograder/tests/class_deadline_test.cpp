// `grade-all --deadline TIME` (class/deadline.hpp): ISO 8601 with a zone.
#include "class/deadline.hpp"

#include <gtest/gtest.h>

namespace rooflab {
namespace {

TEST(ClassDeadline, ReadsUtcAndOffsets) {
  const auto utc = parse_deadline("2026-12-01T23:59:00Z");
  ASSERT_TRUE(utc);
  EXPECT_EQ(utc->unix_seconds, 1796169540);  // date -ud 2026-12-01T23:59:00Z +%s
  EXPECT_EQ(utc->utc, "2026-12-01T23:59:00Z");
  EXPECT_EQ(utc->git, "2026-12-01 23:59:00 +0000");
  const auto east = parse_deadline("2026-12-02T00:59:00+01:00");
  ASSERT_TRUE(east);
  EXPECT_EQ(east->unix_seconds, utc->unix_seconds);
  EXPECT_EQ(east->utc, "2026-12-01T23:59:00Z");
  const auto west = parse_deadline("2026-12-01T18:59-0500");
  ASSERT_TRUE(west);
  EXPECT_EQ(west->unix_seconds, utc->unix_seconds);
  EXPECT_EQ(parse_deadline("2026-12-01 23:59:00.75+00")->unix_seconds, utc->unix_seconds);
}

TEST(ClassDeadline, CrossesDaysMonthsAndYearsInUtc) {
  EXPECT_EQ(parse_deadline("2027-01-01T00:30:00+02:00")->utc, "2026-12-31T22:30:00Z");
  EXPECT_EQ(parse_deadline("2028-02-29T12:00:00Z")->utc, "2028-02-29T12:00:00Z");  // a leap day
}

TEST(ClassDeadline, RefusesWhatIsNotAnInstant) {
  for (const char* bad :
       {"", "tomorrow", "2026-12-01", "2026-12-01T23:59:00",  // no zone: which one?
        "2026-12-01T23:59:00 Z", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2027-02-29T00:00:00Z",
        "2026-12-01T24:00:00Z", "2026-12-01T23:60:00Z", "2026-12-01T23:59:60Z", "2026-12-01T23:59:00+15:00",
        "2026-12-01T23:59:00+01:60", "2026-12-01T23:59:00Zjunk", "2026-12-01T23:59:00.Z", "26-12-01T23:59:00Z",
        "2026/12/01T23:59:00Z", "1969-12-31T23:59:59Z", "2026-12-01T23:59:00+1"}) {
    EXPECT_FALSE(parse_deadline(bad)) << bad;
  }
}

}  // namespace
}  // namespace rooflab
