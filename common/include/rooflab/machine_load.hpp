// Whether other processes took CPU time while a measurement ran: a benchmark's
// figures on a busy machine are meaningless (a student once measured 2.6
// tokens/s instead of 80 while a build ran beside it), so `lab bench`,
// `lab generate` and `lab profile` say so instead of printing them silently.
//
//   rooflab::LoadWatch watch;          // before the measurement
//   ... measure ...
//   watch.warn_if_busy(std::cerr, 2);  // after: it used 2 threads
//
// It reads the machine's CPU time (/proc/stat) and this process's own, its
// waited-for children's included (getrusage), at both ends: what the machine
// spent beyond them is what others took. Where /proc/stat cannot be read it
// says nothing. The grader says the same of its leaderboards and profiles.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

namespace rooflab {

// The first line of /proc/stat, summed: CPU time (in clock ticks) spent busy
// and in all, over every core.
struct CpuTicks {
  std::uint64_t busy = 0;   // user + nice + system + irq + softirq + steal
  std::uint64_t total = 0;  // busy + idle + iowait
};

// Parses /proc/stat's aggregate "cpu " line; nullopt when it is not one.
std::optional<CpuTicks> parse_cpu_line(const std::string& line);

// Cores' worth of CPU that other processes used over an interval: the
// machine's busy share of `cores` minus this process's own CPU seconds.
double others_busy_cores(const CpuTicks& before, const CpuTicks& after, double own_cpu_seconds, double wall_seconds,
                         int cores);

// The warning, or "" when the others left the `threads_used` cores free:
// others busy on more than cores − threads_used + 0.5 cores.
std::string busy_machine_warning(double others_busy, int cores, int threads_used);

class LoadWatch {
 public:
  LoadWatch();
  // Others' busy cores since construction; nullopt where it cannot be read.
  std::optional<double> others_busy() const;
  // Prints busy_machine_warning to `out` when it is not empty; returns whether it did.
  bool warn_if_busy(std::ostream& out, int threads_used) const;
  // busy_machine_warning since construction, or "" (idle, or unknown).
  std::string warning(int threads_used) const;

 private:
  std::optional<CpuTicks> start_ticks_;
  double start_own_cpu_s_ = 0;
  double start_wall_s_ = 0;
};

}  // namespace rooflab
