// The memory the code under test used, as the kernel counts it: for tests
// whose points rest on memory. Code cannot forge what the kernel counts about
// it, whereas any number it reports itself (a tracker's peak, a measurement
// function's result) it could simply make up.
//
// Where the code under test runs:
// - under the grader, in the worker process, which the grader puts in a memory
//   cgroup of its own; the grader tells the verdict process where it is in
//   ROOFLAB_WORKER_MEMORY ("v1:<dir>" or "v2:<dir>"), or why there is none
//   ("unavailable:<why>"). The cgroup counts the worker's resident memory, page
//   cache and tmpfs files together.
// - in a plain test run, in this very process: its resident set, read from
//   /proc/self/status, the peak reset through /proc/self/clear_refs.
//
// A Window measures the extra memory used while it is open:
//   ROOFLAB_SKIP_UNLESS_KERNEL_MEMORY();
//   rooflab::kernel_memory::Window window;
//   flash_attention(q, k, v, options);
//   EXPECT_LE(window.peak_extra_bytes(), bound);
// Open the window before the test's first call to the code under test: only
// that window sees a fresh process (counts_a_fresh_process). A window counts
// whole pages, the worker's decoding of the call's arguments and the encoding
// of its result, and memory the allocator keeps; bounds allow for that (a few
// MiB), while N×N scores at the tested N are hundreds of MiB.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace rooflab::kernel_memory {

namespace detail {

inline std::string worker_cgroup() {
  const char* value = std::getenv("ROOFLAB_WORKER_MEMORY");
  return value ? value : "";
}

inline bool in_cgroup(int version) { return worker_cgroup().rfind(version == 1 ? "v1:" : "v2:", 0) == 0; }

inline std::string cgroup_file(const char* name) { return worker_cgroup().substr(3) + "/" + name; }

inline double read_number(const std::string& path) {
  std::ifstream in(path);
  double value = -1;
  in >> value;
  return value;
}

// "VmRSS:     1234 kB" from /proc/self/status, in bytes.
inline double status_bytes(const std::string& key) {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(key + ":", 0) != 0) continue;
    std::istringstream fields(line.substr(key.size() + 1));
    double kib = -1;
    fields >> kib;
    return kib * 1024;
  }
  return -1;
}

inline bool write_text(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  return written;
}

}  // namespace detail

// Why this process cannot measure the code under test's memory ("" when it can).
inline std::string unavailable_reason() {
  const std::string cgroup = detail::worker_cgroup();
  if (cgroup.rfind("unavailable:", 0) == 0) return cgroup.substr(12);
  if (detail::in_cgroup(1) || detail::in_cgroup(2)) return "";
  if (!cgroup.empty()) return "ROOFLAB_WORKER_MEMORY=\"" + cgroup + "\" is not understood";
  if (std::getenv("ROOFLAB_RPC_FD"))
    return "the grader gave this test no way to measure the worker's memory from outside";
  if (detail::status_bytes("VmHWM") < 0) return "/proc/self/status has no VmHWM";
  if (!detail::write_text("/proc/self/clear_refs", "5")) return "cannot reset the peak through /proc/self/clear_refs";
  return "";
}

class Window {
 public:
  // Opens a window: the peak starts again from the memory in use now.
  Window() : first_(opened()++ == 0) {
    if (detail::in_cgroup(1)) {
      detail::write_text(detail::cgroup_file("memory.max_usage_in_bytes"), "0");  // resets to the usage now
      start_ = detail::read_number(detail::cgroup_file("memory.usage_in_bytes"));
    } else if (detail::in_cgroup(2)) {
      // Since Linux 6.12, a write resets memory.peak for reads through the same descriptor;
      // before, the peak counts from the worker's start (an overestimate, never an underestimate).
      peak_fd_ = ::open(detail::cgroup_file("memory.peak").c_str(), O_RDWR | O_CLOEXEC);
      if (peak_fd_ >= 0) (void)!::write(peak_fd_, "reset\n", 6);
      start_ = detail::read_number(detail::cgroup_file("memory.current"));
    } else {
      detail::write_text("/proc/self/clear_refs", "5");  // VmHWM becomes VmRSS
      start_ = detail::status_bytes("VmRSS");
    }
  }
  ~Window() {
    if (peak_fd_ >= 0) ::close(peak_fd_);
  }
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  // Whether the window counts a fresh process: the grader's worker (a process
  // per test), in the test's first window. No earlier call left freed memory
  // there for the allocator to hand out again, so every page the code under
  // test touches shows up in the count; in a later window it may not.
  bool counts_a_fresh_process() const { return first_ && (detail::in_cgroup(1) || detail::in_cgroup(2)); }

  // The most memory in use at once since the window opened, minus what was in
  // use when it opened (never negative).
  double peak_extra_bytes() const {
    double peak = -1;
    if (detail::in_cgroup(1)) {
      peak = detail::read_number(detail::cgroup_file("memory.max_usage_in_bytes"));
    } else if (detail::in_cgroup(2)) {
      char buffer[32] = {};
      if (peak_fd_ >= 0 && ::pread(peak_fd_, buffer, sizeof buffer - 1, 0) > 0) peak = std::strtod(buffer, nullptr);
    } else {
      peak = detail::status_bytes("VmHWM");
    }
    return peak > start_ ? peak - start_ : 0.0;
  }

 private:
  static int& opened() {
    static int windows = 0;
    return windows;
  }
  bool first_;
  double start_ = 0;
  int peak_fd_ = -1;
};

// What the kernel may count beyond what the code reports: whole pages, the
// worker's copies of a call's arguments and result, thread stacks, memory the
// allocator keeps. N×N scores at the lengths tests use are far beyond it.
inline constexpr double kSlackBytes = 8.0 * (1 << 20);

// gtest predicate: the kernel's count backs a measurement that the code under
// test reported about itself. It may not exceed `reported` plus `allowance`
// (what the call was asked to allocate besides, such as inputs it draws) and
// the slack; and where the window counts a fresh worker process, it may not
// fall short of most of `reported` (a made-up number touches no memory).
inline ::testing::AssertionResult KernelCountBacks(const char* window_expr, const char* reported_expr, const char*,
                                                   const Window& window, double reported, double allowance) {
  const double counted = window.peak_extra_bytes();
  // In the test's report, for whoever checks the margins (gtest's XML and JSON output).
  ::testing::Test::RecordProperty("kernel_counted_bytes", std::to_string(static_cast<long long>(counted)));
  ::testing::Test::RecordProperty("reported_bytes", std::to_string(static_cast<long long>(reported)));
  const double most = reported + allowance + kSlackBytes + 0.05 * reported;
  if (counted > most)
    return ::testing::AssertionFailure() << "the kernel counted " << counted << " bytes in " << window_expr
                                         << ", more than the " << reported << " that " << reported_expr
                                         << " reports plus " << allowance + kSlackBytes + 0.05 * reported
                                         << " for inputs and slack";
  // Pages the call touched are all charged in a fresh worker; the allowance
  // covers rounding of the count, not a missing allocation.
  const double least = 0.9 * reported - (1 << 18);
  if (window.counts_a_fresh_process() && counted < least)
    return ::testing::AssertionFailure() << "the kernel counted only " << counted << " bytes in " << window_expr
                                         << ", but " << reported_expr << " reports a peak of " << reported
                                         << ": the measurement does not match what the process used";
  return ::testing::AssertionSuccess();
}

}  // namespace rooflab::kernel_memory

#define EXPECT_KERNEL_COUNT_BACKS(window, reported, allowance) \
  EXPECT_PRED_FORMAT3(::rooflab::kernel_memory::KernelCountBacks, window, reported, allowance)

// Skips the current test, visibly and with the reason, when the code under
// test's memory cannot be measured from outside it: such a test is worth 0 of
// 0 there, never points the code could have awarded itself.
#define ROOFLAB_SKIP_UNLESS_KERNEL_MEMORY()                                                                   \
  do {                                                                                                        \
    if (const std::string rooflab_why = ::rooflab::kernel_memory::unavailable_reason(); !rooflab_why.empty()) \
      GTEST_SKIP() << "the kernel's count of this memory is not available here: " << rooflab_why;             \
  } while (0)
