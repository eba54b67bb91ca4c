#include "class/grading_progress.hpp"

#include <iostream>
#include <string>

#include "class/grade_all_text.hpp"
#include "text/text.hpp"

namespace rooflab::class_grading {

void Progress::finished(const Outcome& outcome) {
  const std::lock_guard<std::mutex> lock(mutex_);
  ++done_;
  if (outcome.kind == Outcome::Kind::graded) {
    graded_seconds_ += outcome.seconds;
    ++graded_;
  }
  const double pace = graded_ ? graded_seconds_ / static_cast<double>(graded_) : 0;
  const double left = pace * static_cast<double>(total_ - done_) / parallel_;
  const std::string what = outcome.kind == Outcome::Kind::graded ? "graded in " + clock_text(outcome.seconds)
                           : outcome.kind == Outcome::Kind::unchanged
                               ? "unchanged, not regraded"
                               : "FAILED: " + text::untrusted_line(outcome.why, 300);
  std::cerr << "[" << done_ << "/" << total_ << "] " << outcome.student << ": " << what
            << (done_ < total_ && graded_ ? " (about " + clock_text(left) + " left)" : "") << std::endl;
}

}  // namespace rooflab::class_grading
