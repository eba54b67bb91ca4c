// The pipeline's context: what every stage of one grading shares, and the
// limits of the grader's own steps (build, profile), which the report quotes.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "os/memory_cgroup.hpp"
#include "os/sandbox.hpp"
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

// What every step of one grading shares.
struct Grading {
  const GradeOptions& options;
  const Manifest& manifest;
  const Sandbox& sandbox;
  const MemoryCgroups& cgroups;
  std::filesystem::path scratch;
  std::filesystem::path build;  // the staged course's build folder
  bool gpu = false;

  // A memory cgroup for one step, or none where the machine has none to give.
  std::unique_ptr<MemoryCgroup> cgroup(const std::string& step, std::uint64_t bytes) const {
    static std::atomic<int> counter{0};
    if (!cgroups.available()) return nullptr;
    return cgroups.create(step + "-" + std::to_string(counter++), bytes);
  }
};

}  // namespace rooflab
