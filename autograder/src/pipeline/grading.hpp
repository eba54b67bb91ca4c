// The pipeline's context: what every stage of one grading shares, and the
// limits of the grader's own steps (build, profile), which the report quotes.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "os/cpu_cgroup.hpp"
#include "os/memory_cgroup.hpp"
#include "os/pids_cgroup.hpp"
#include "os/sandbox.hpp"
#include "os/step_cgroups.hpp"
#include "pipeline/grade_command.hpp"
#include "stage/manifest.hpp"

namespace rooflab {

inline constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
inline constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;
inline constexpr double kConfigureTimeout_s = 300;
inline constexpr double kBuildTimeout_s = 900;
inline constexpr std::uint64_t kBuildMemory = 8 * kGiB;  // a build step's cgroup: compilers and what they write
inline constexpr std::size_t kBuildAddressSpace = 16 * kGiB;
inline constexpr std::uint64_t kBuildFileSize = kGiB;
inline constexpr double kProfileTimeout_s = 120;
inline constexpr std::uint64_t kProfileMemory = 4 * kGiB;
inline constexpr std::size_t kLogCap = kMiB;  // what of a step's log reaches the report folder
// Tasks (processes and threads) in a step's pids cgroup. A build runs make,
// CMake and, per parallel job, a compiler driver, its compiler proper and an
// assembler (nvcc several more): 512 leaves room for -j 64. A worker or a
// profile runs one program, whose OpenMP threads count too: those plus 64.
inline constexpr std::uint64_t kBuildTasks = 512;
inline constexpr std::uint64_t kBuildTasksPerJob = 8;  // past -j 64, per parallel job
inline constexpr std::uint64_t kRunTasks = 64;         // plus the step's OpenMP threads

// One build of the staged course. Every grading has the CPU runtime's: its
// tests decide the score, on every machine alike. Where a GPU is, a second
// build compiles the same code for it, runs the same tests there as a
// cross-check (pipeline/gpu_cross_check.hpp) and times the leaderboard.
struct BuildTree {
  std::filesystem::path dir;
  bool gpu = false;  // CUDA compiled in: CUDA_FILES and Thrust's _cuda twins run on the GPU
};

// What every step of one grading shares.
struct Grading {
  const GradeOptions& options;
  const Manifest& manifest;
  const Sandbox& sandbox;
  const MemoryCgroups& cgroups;
  const PidsCgroups& pids;
  const CpuCgroups& cpu;
  std::filesystem::path scratch;
  BuildTree build;                     // the CPU runtime's: the score
  std::optional<BuildTree> gpu_build;  // the GPU's, where the cross-check runs (GradeOptions::gpu_check)

  // One step's memory, pids and cpu cgroups, each where the machine has one to give.
  StepCgroups step_cgroups(const std::string& step, std::uint64_t bytes, std::uint64_t tasks) const {
    static std::atomic<int> counter{0};
    return StepCgroups::create(cgroups, pids, cpu, step + "-" + std::to_string(counter++), bytes, tasks);
  }
  // A build step's task limit at this grading's -j.
  std::uint64_t build_tasks() const {
    return std::max(kBuildTasks, kBuildTasksPerJob * static_cast<std::uint64_t>(std::max(options.jobs, 1)));
  }
  // RLIMIT_NPROC for a sandboxed step: none where its pids cgroup caps it,
  // else the sandbox user's count plus headroom (shared with every grading
  // that runs as that user).
  std::optional<std::uint64_t> process_rlimit() const {
    if (pids.available()) return std::nullopt;
    return sandbox.process_limit();
  }
};

}  // namespace rooflab
