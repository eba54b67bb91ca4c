// Runs one graded test as a verdict and worker pair, and decides its outcome.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "verdict/test_outcome.hpp"

namespace rooflab {

struct Grading;  // pipeline/grading.hpp

// "Suite.Test" names from `binary --gtest_list_tests`; throws with the output
// when the binary cannot list its tests.
std::vector<std::string> list_tests(const std::filesystem::path& binary, const std::filesystem::path& scratch);

// The OpenMP settings of every process that runs course code while grading:
// `threads` OpenMP threads, idle ones sleeping instead of spinning. Two
// spinning test processes on two cores ran about 15 times slower
// (docs/benchmarks.md), which could push a slow but correct submission past
// its time limit. A worker and its verdict get the same settings: a test may
// ask omp_get_max_threads() in the verdict about work the worker did (a04's
// memory bound), and the submission's profile runs like the reference's.
std::vector<std::string> openmp_environment(int threads);

struct TestLimits {
  double timeout_s = 10;
  double memory_limit_mb = 2048;
};

// How a test's time limit is kept. Where the grading's steps have cpu cgroups
// (os/cpu_cgroup.hpp), the cores are shared fairly however busy the machine
// is, and the limit is wall-clock time. Where they have none, other
// processes could take the cores, and the limit counts the CPU time of the
// test's two processes (RLIMIT_CPU each, their sum checked when they end): a
// test allowed T OpenMP threads gets T times the limit. Wall-clock time is then
// a backstop, kWallBackstop times the limit, that catches a test that sleeps,
// deadlocks or waits on nothing; the outcome says which limit it met.
inline constexpr double kWallBackstop = 4, kWallBackstopSlack_s = 10;
struct TestTime {
  double limit_s = 10;
  int threads = 1;
  bool counts_cpu_time = false;
  std::optional<double> cpu_budget_s() const;
  double wall_s() const;
};
TestTime test_time(const Grading& grading, const TestLimits& limits, int threads);

// The two processes of a graded test (rooflab/rpc.hpp): the verdict binary of
// the reference build (tests, no student code) and the submission's worker.
struct GradedBinaries {
  std::filesystem::path verdict;
  std::filesystem::path worker;
  std::filesystem::path worker_build_dir;  // the only path the worker's sandbox shows
  bool gpu = false;
  std::uint64_t seed = 0;  // ROOFLAB_SEED for the verdict process: hidden tests draw inputs from it
  int openmp_threads = 1;  // OMP_NUM_THREADS of each test: the cores shared by the tests running at once
};

// Runs test `name` alone, in `grading`'s sandbox and memory cgroups: its
// verdict process and a fresh sandboxed worker,
// connected by a socket pair. The outcome comes from the verdict process's own
// gtest report; the worker's fate (crash, time-out, output) only explains it.
// `scratch` holds both logs and the report.
//
// The worker's memory budget is the group's memory_limit_mb: where the grading
// can give it a memory cgroup, that is its limit (heap, page cache and its
// /tmp tmpfs together), and the verdict process may read the worker's memory
// from it (ROOFLAB_WORKER_MEMORY, rooflab/kernel_memory.hpp); the address space
// is the budget minus the /tmp, so that the two together never pass it. The
// folder `scratch` is removed once the outcome is known.
TestOutcome run_test(const Grading& grading, const GradedBinaries& binaries, const std::string& name,
                     const TestLimits& limits, const std::filesystem::path& scratch);

}  // namespace rooflab
