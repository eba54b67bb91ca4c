// take_worker_report() in the verdict process: asks the worker, which answers
// from its own records. A malformed answer fails the test (rpc::Client).
#include "frame.hpp"
#include "rooflab/rpc.hpp"
#include "worker_report_codec.hpp"

namespace rooflab::testing {

WorkerReport take_worker_report() {
  constexpr const char* kWhat = "the worker report (kernels launched, provided functions called)";
  const std::string payload = rpc::transact(rpc::kWorkerReport, kWhat, {});
  try {
    return rpc::decode_report(payload);
  } catch (const wire::Error& error) {
    rpc::throw_malformed_reply(kWhat, error.what());
  }
}

LaunchShapesOnly::LaunchShapesOnly() { rpc::transact(rpc::kLaunchShapesOnly, "launch shapes only, on", "1"); }
LaunchShapesOnly::~LaunchShapesOnly() {
  try {
    rpc::transact(rpc::kLaunchShapesOnly, "launch shapes only, off", "0");
  } catch (...) {  // a worker that is gone runs nothing more
  }
}

}  // namespace rooflab::testing
