#include "rooflab/worker_report.hpp"

namespace rooflab::testing {

std::vector<std::string> kernel_names(const WorkerReport& report) {
  std::vector<std::string> names;
  for (const KernelLaunch& launch : report.launches) names.push_back(launch.kernel);
  return names;
}

}  // namespace rooflab::testing
