// The worker's answer to a report request: this process's records, read by
// the course's own code (rooflab/worker_report.hpp).
#include "rooflab/rpc.hpp"
#include "worker_report_codec.hpp"

namespace rooflab::rpc {

std::string encode_worker_report() {
  testing::WorkerReport report = testing::take_worker_report();
  // Instruction addresses of this process: nothing the verdict could read.
  for (testing::KernelLaunch& launch : report.launches) launch.instructions.clear();
  return encode_report(report);
}

}  // namespace rooflab::rpc
