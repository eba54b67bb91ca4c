// The grading's private working folder (the stage, the build, every test's
// logs), capped so that one grading cannot fill the machine's disk or RAM.
//
// Where the grader may mount (root), the folder is a tmpfs of `cap` bytes in a
// mount namespace of the grader's own: the kernel enforces the cap, nothing
// else on the machine sees the mount, and it vanishes with the grader however
// it ends. Its files are memory, charged to the memory cgroup of the step that
// wrote them. Elsewhere the folder lives in the system's temp folder and a
// watcher measures it every second, stopping the grading's processes once it
// passes the cap (not kernel-enforced; the report says which ran).
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <string>
#include <thread>

namespace rooflab {

class ScratchSpace {
 public:
  explicit ScratchSpace(std::uint64_t cap_bytes);
  ~ScratchSpace();
  ScratchSpace(const ScratchSpace&) = delete;
  ScratchSpace& operator=(const ScratchSpace&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::uint64_t cap_bytes() const { return cap_; }
  bool kernel_enforced() const { return mounted_; }
  // The most the folder held at any sample (every 200 ms on a tmpfs, every
  // second otherwise), and whether it ever passed the cap.
  std::uint64_t peak_bytes() const { return peak_.load(); }
  bool overflowed() const { return overflowed_.load(); }
  // One sentence for the report: how the cap was enforced and the peak.
  std::string describe() const;

 private:
  std::uint64_t used_bytes() const;
  void watch();

  std::filesystem::path path_;
  std::uint64_t cap_ = 0;
  bool mounted_ = false;
  std::string why_not_mounted_;
  std::atomic<std::uint64_t> peak_{0};
  std::atomic<bool> overflowed_{false};
  std::atomic<bool> stop_{false};
  std::thread watcher_;
};

}  // namespace rooflab
