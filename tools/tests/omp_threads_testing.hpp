// OpenMP's thread count for one test: set on construction, and the count
// before it back on destruction, so that the tests after it run as before,
// also when an assertion returns early.
#pragma once

#include <omp.h>

namespace rooflab::testing {

class ScopedOmpThreads {
 public:
  explicit ScopedOmpThreads(int threads) : before_(omp_get_max_threads()) { omp_set_num_threads(threads); }
  ~ScopedOmpThreads() { omp_set_num_threads(before_); }
  ScopedOmpThreads(const ScopedOmpThreads&) = delete;
  ScopedOmpThreads& operator=(const ScopedOmpThreads&) = delete;

 private:
  int before_;
};

}  // namespace rooflab::testing
