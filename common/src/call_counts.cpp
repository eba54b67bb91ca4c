#include "rooflab/call_counts.hpp"

#include <mutex>

namespace rooflab {
namespace {
std::mutex lock;
std::map<std::string, std::uint64_t>& counts() {
  static std::map<std::string, std::uint64_t> by_name;
  return by_name;
}
}  // namespace

void count_call(const char* what) {
  const std::lock_guard guard(lock);
  ++counts()[what];
}

std::map<std::string, std::uint64_t> take_call_counts() {
  const std::lock_guard guard(lock);
  std::map<std::string, std::uint64_t> taken;
  taken.swap(counts());
  return taken;
}

}  // namespace rooflab
