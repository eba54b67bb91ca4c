// How grade-all writes numbers and durations in its messages, its Slurm
// script and summary.md (grade_all_text.cpp).
#pragma once

#include <string>

namespace rooflab::class_grading {

// A number as a command line or a message shows it: no exponent, no trailing zeros.
std::string plain_number(double value);

// A duration as h:mm:ss, rounded to the second.
std::string clock_text(double seconds);

}  // namespace rooflab::class_grading
