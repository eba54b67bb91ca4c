// What every report format shares: how points print, how student-controlled
// text is escaped and capped, and the lines that explain a test's outcome.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "report/results.hpp"

namespace rooflab::report {

// Caps on what a submission can make a report hold: a note or file name is one
// line of at most kLineCap bytes, a list shows at most kListCap entries, a
// failing test's message kMessageCap bytes and a build log kBuildLogCap.
inline constexpr std::size_t kLineCap = 300;
inline constexpr std::size_t kListCap = 40;
inline constexpr std::size_t kIgnoredCap = 100;
inline constexpr std::size_t kMessageCap = 8000;
inline constexpr std::size_t kBuildLogCap = 20000;

// 12.5 -> "12.5", 3.0 -> "3": at most two decimals, no trailing zeros.
std::string points(double value);
// Escapes XML's five special characters; control characters become '?'.
std::string xml_escape(const std::string& raw);
// The first `cap` entries, and a last one saying how many were left out.
std::vector<std::string> capped(const std::vector<std::string>& entries, std::size_t cap);
// Untrusted text for results.json and junit.xml: valid UTF-8, no control
// characters but newlines and tabs, capped.
std::string json_text(const std::string& raw, std::size_t cap);
// How the run was protected, and how to reproduce its hidden-test inputs.
std::string isolation(const GradeResult& result);
// What a test's entry says: nothing for a pass that earned its points; the
// status and the message otherwise, and for a pass whose points a gate
// withheld, which tests it needed; then, where the GPU cross-check disagreed,
// what the GPU said.
std::string describe_outcome(const GradedTest& test);
// Why tests were skipped: the line gtest prints after "Skipped" (the test's
// GTEST_SKIP message) of the first skipped test, decided in the verdict process.
std::string skip_reason(const AssignmentResult& assignment);
// The leaderboard's one line: the submission's best time, the reference's and
// the relative speed, or why there is no time (the test's status; its message
// is describe_leaderboard_failure's), and a warning when the machine was busy
// while they were timed. The grader's own numbers and words only.
std::string leaderboard_summary(const LeaderboardResult& leaderboard);
// leaderboard_summary without the warning.
std::string leaderboard_times(const LeaderboardResult& leaderboard);
// A failed leaderboard test's status and message (student output in it is
// the caller's to escape and cap); empty when it passed.
std::string describe_leaderboard_failure(const LeaderboardResult& leaderboard);

}  // namespace rooflab::report
