#include "run/run_tests.hpp"

#include <algorithm>
#include <atomic>
#include <iostream>
#include <mutex>
#include <thread>

#include "os/stop_signals.hpp"

namespace rooflab {
namespace fs = std::filesystem;
namespace {

char progress_mark(TestStatus status) {
  switch (status) {
    case TestStatus::passed:
      return '.';
    case TestStatus::skipped:
      return 'S';
    case TestStatus::timed_out:
      return 'T';
    case TestStatus::crashed:
      return 'C';
    default:
      return 'F';
  }
}

}  // namespace

std::vector<TestOutcome> run_tests_in_parallel(const Grading& grading, const GradedBinaries& binaries,
                                               const std::vector<std::string>& names,
                                               const std::vector<TestLimits>& limits, const fs::path& scratch) {
  std::vector<TestOutcome> outcomes(names.size());
  std::atomic<std::size_t> next{0};
  std::mutex print;
  std::size_t done = 0;
  std::atomic<int> stopped{0};
  const auto worker = [&] {
    for (std::size_t i = next++; i < names.size(); i = next++) {
      try {
        outcomes[i] = run_test(grading, binaries, names[i], limits[i], scratch / ("test-" + std::to_string(i)));
      } catch (const Stopped& stop) {  // the grading was stopped: no test is failed for it
        stopped = stop.signal();
        return;
      } catch (const std::exception& error) {  // the grader's own trouble: a failed test, never a pass
        outcomes[i] = {names[i], TestStatus::failed, std::string("the grader could not run this test: ") + error.what(),
                       0};
      }
      const std::lock_guard lock(print);
      std::cout << progress_mark(outcomes[i].status);
      if (++done % 60 == 0 || done == names.size()) std::cout << " " << done << "/" << names.size() << "\n";
      std::cout.flush();
    }
  };
  std::vector<std::thread> threads;
  for (int j = 0; j < std::max(1, grading.options.jobs); ++j) threads.emplace_back(worker);
  for (auto& thread : threads) thread.join();
  if (stopped) throw Stopped(stopped);
  return outcomes;
}

}  // namespace rooflab
