// The `release` subcommand: regenerate assignments/ or check that it is current.
#pragma once

#include <filesystem>

namespace rooflab {

struct ReleaseOptions {
  std::filesystem::path solutions;         // solutions/
  std::filesystem::path assignments;       // assignments/ (generated)
  std::filesystem::path compile_commands;  // of a solutions build; empty skips the compile check
  bool check = false;                      // compare only; exit non-zero when stale
};

// Returns the process exit code; prints what it did or what is wrong.
int run_release(const ReleaseOptions& options);

}  // namespace rooflab
