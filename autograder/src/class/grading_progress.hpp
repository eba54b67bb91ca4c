// grade-all's progress on stderr (grading_progress.cpp), shared by the local
// workers and the Slurm job array's watcher.
#pragma once

#include <cstddef>
#include <mutex>

#include "class/submission_outcome.hpp"

namespace rooflab::class_grading {

// Progress lines, one per finished submission, with the time left at the pace so far.
class Progress {
 public:
  // `parallel`: how many submissions are graded at once (the pace's divisor).
  Progress(std::size_t total, int parallel) : total_(total), parallel_(parallel) {}
  // Thread-safe: local workers call it as each finishes.
  void finished(const Outcome& outcome);

 private:
  std::mutex mutex_;
  std::size_t total_, done_ = 0, graded_ = 0;
  int parallel_;
  double graded_seconds_ = 0;
};

}  // namespace rooflab::class_grading
