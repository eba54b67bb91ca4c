// rooflab/worker_report.hpp's WorkerReport on the wire: its launches and
// what was copied back as they are, its call counts as (name, count) pairs.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "rooflab/wire.hpp"
#include "rooflab/worker_report.hpp"

namespace rooflab::rpc {

inline std::string encode_report(const testing::WorkerReport& report) {
  wire::Writer out;
  wire::encode(out, report.kernels_recorded);
  wire::encode(out, report.launches);
  wire::encode(out, std::vector<std::pair<std::string, std::uint64_t>>(report.calls.begin(), report.calls.end()));
  wire::encode(out, report.copied_back);
  return out.take();
}

// Throws wire::Error on anything malformed.
inline testing::WorkerReport decode_report(const std::string& payload) {
  wire::Reader in(payload);
  testing::WorkerReport report;
  std::vector<std::pair<std::string, std::uint64_t>> calls;
  wire::decode(in, report.kernels_recorded);
  wire::decode(in, report.launches);
  wire::decode(in, calls);
  wire::decode(in, report.copied_back);
  if (!in.at_end()) throw wire::Error("bytes left over");
  report.calls.insert(calls.begin(), calls.end());
  return report;
}

}  // namespace rooflab::rpc
