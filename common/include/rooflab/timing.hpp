// The course's one way to time a piece of code: the best of several runs,
// which on a shared machine is the run least disturbed by its neighbours.
#pragma once

#include <algorithm>
#include <chrono>
#include <limits>

namespace rooflab {

// Seconds of the fastest of `repeats` calls of `run`.
template <class Run>
double best_seconds(int repeats, Run run) {
  double best = std::numeric_limits<double>::infinity();
  for (int round = 0; round < repeats; ++round) {
    const auto start = std::chrono::steady_clock::now();
    run();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

}  // namespace rooflab
