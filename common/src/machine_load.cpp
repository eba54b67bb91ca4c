#include "rooflab/machine_load.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <sstream>

namespace rooflab {
namespace {

std::optional<CpuTicks> read_cpu_ticks() {
  std::ifstream stat("/proc/stat");
  std::string line;
  if (!stat || !std::getline(stat, line)) return std::nullopt;
  return parse_cpu_line(line);
}

// Every thread of this process and of the children it waited for (a bench's
// PyTorch peer runs as one), user and system: work the run itself asked for.
double own_cpu_seconds() {
  const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * t.tv_usec; };
  double total = 0;
  for (const int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    rusage usage{};
    if (getrusage(who, &usage) == 0) total += seconds(usage.ru_utime) + seconds(usage.ru_stime);
  }
  return total;
}

double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int online_cores() {
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  return cores > 0 ? static_cast<int>(cores) : 1;
}

}  // namespace

std::optional<CpuTicks> parse_cpu_line(const std::string& line) {
  std::istringstream fields(line);
  std::string name;
  std::uint64_t user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
  if (!(fields >> name >> user >> nice >> system >> idle) || name != "cpu") return std::nullopt;
  fields >> iowait >> irq >> softirq >> steal;  // older kernels stop early: those stay 0
  CpuTicks ticks;
  ticks.busy = user + nice + system + irq + softirq + steal;
  ticks.total = ticks.busy + idle + iowait;
  return ticks;
}

double others_busy_cores(const CpuTicks& before, const CpuTicks& after, double own_cpu_seconds, double wall_seconds,
                         int cores) {
  if (after.total <= before.total || after.busy < before.busy || wall_seconds <= 0) return 0;
  const double busy_share =
      static_cast<double>(after.busy - before.busy) / static_cast<double>(after.total - before.total);
  const double others = busy_share * cores - own_cpu_seconds / wall_seconds;
  return others > 0 ? others : 0;
}

std::string busy_machine_warning(double others_busy, int cores, int threads_used) {
  if (others_busy <= cores - threads_used + 0.5) return "";
  char text[320];
  std::snprintf(text, sizeof text,
                "warning: the machine was busy: other processes kept %.1f of its %d cores busy while this ran "
                "on %d thread(s), so these figures are low and say little. Measure again when it is idle "
                "(top or uptime shows what runs).",
                others_busy, cores, threads_used);
  return text;
}

LoadWatch::LoadWatch()
    : start_ticks_(read_cpu_ticks()), start_own_cpu_s_(own_cpu_seconds()), start_wall_s_(wall_seconds()) {}

std::optional<double> LoadWatch::others_busy() const {
  const std::optional<CpuTicks> now = read_cpu_ticks();
  if (!start_ticks_ || !now) return std::nullopt;
  return others_busy_cores(*start_ticks_, *now, own_cpu_seconds() - start_own_cpu_s_, wall_seconds() - start_wall_s_,
                           online_cores());
}

std::string LoadWatch::warning(int threads_used) const {
  const std::optional<double> others = others_busy();
  return others ? busy_machine_warning(*others, online_cores(), threads_used) : "";
}

bool LoadWatch::warn_if_busy(std::ostream& out, int threads_used) const {
  const std::string text = warning(threads_used);
  if (text.empty()) return false;
  out << text << "\n";
  return true;
}

}  // namespace rooflab
