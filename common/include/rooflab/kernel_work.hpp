// Whether a result is the kernels' work, asked of what the CPU runtime
// recorded (rooflab/worker_report.hpp): who last wrote every byte of device
// memory, what each launch read, what the host copied back. A test that
// requires CUDA code to compute in its kernels asks these as well as the
// kernels' names, so that launches that do nothing beside a host computation
// earn what the host computation earns: nothing for the kernels.
//
//   const WorkerReport report = take_worker_report();
//   EXPECT_TRUE(CameOffTheDevice(report, result.output.data, {"flash_forward"}, "the output"));
//   EXPECT_TRUE(KernelRead(report, "flash_forward", q.data, "Q"));
//   EXPECT_TRUE(KernelReadTheOutputOf(report, "weighted_values", "softmax_rows"));
//
// Values are compared bit for bit, as the host copied them back. Where no
// launch was recorded (kernels on a GPU), every question is answered yes.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "rooflab/worker_report.hpp"

namespace rooflab::testing {

inline std::uint32_t bits_of(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

// Every value of `values` came back from device memory as one of `kernels`
// wrote it, or as cudaMemset set it (a zeroed output a kernel fills in part).
inline ::testing::AssertionResult CameOffTheDevice(const WorkerReport& report, const std::vector<float>& values,
                                                   const std::vector<std::string>& kernels, const std::string& what) {
  if (!report.kernels_recorded) return ::testing::AssertionSuccess();
  const auto by = [&](const std::string& writer) {
    return writer == "cudaMemset" || std::find(kernels.begin(), kernels.end(), writer) != kernels.end();
  };
  std::size_t missing = 0;
  std::string first;
  for (const float value : values) {
    const std::uint32_t bits = bits_of(value);
    const auto holds = [&](const CopiedBack& copied) {
      return std::binary_search(copied.words.begin(), copied.words.end(), bits);
    };
    if (std::any_of(report.copied_back.begin(), report.copied_back.end(),
                    [&](const CopiedBack& copied) { return by(copied.writer) && holds(copied); }))
      continue;
    if (missing++ == 0) {
      first = std::to_string(value) + ", which never came back from device memory";
      for (const CopiedBack& copied : report.copied_back)
        if (holds(copied)) first = std::to_string(value) + ", which came back as " + copied.writer + " wrote it";
    }
  }
  if (missing == 0) return ::testing::AssertionSuccess();
  std::string names;
  for (const std::string& kernel : kernels) names += (names.empty() ? "" : " or ") + kernel;
  return ::testing::AssertionFailure() << missing << " of the " << values.size() << " values of " << what
                                       << " did not come back from the device as " << names
                                       << " wrote them (the first: " << first
                                       << "): the result must be the kernels' work, copied back "
                                       << "with cudaMemcpy, not computed on the host";
}

// The launches of `kernel` read at least one value of `input` from device
// memory where a copy from the host had put it: it read its input.
inline ::testing::AssertionResult KernelRead(const WorkerReport& report, const std::string& kernel,
                                             const std::vector<float>& input, const std::string& what) {
  if (!report.kernels_recorded || input.empty()) return ::testing::AssertionSuccess();
  bool launched = false;
  for (const KernelLaunch& launch : report.launches) {
    if (launch.kernel != kernel) continue;
    launched = true;
    for (const float value : input)
      if (std::binary_search(launch.host_words_read.begin(), launch.host_words_read.end(), bits_of(value)))
        return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << kernel << (launched ? " never read " : " never ran, so never read ") << what
                                       << " on the device: the kernels must compute from their inputs";
}

// The launches of `kernel` read bytes that `writer` (another kernel) wrote.
inline ::testing::AssertionResult KernelReadTheOutputOf(const WorkerReport& report, const std::string& kernel,
                                                        const std::string& writer) {
  if (!report.kernels_recorded) return ::testing::AssertionSuccess();
  for (const KernelLaunch& launch : report.launches)
    if (launch.kernel == kernel)
      for (const auto& [read_from, bytes] : launch.bytes_read_from)
        if (read_from == writer && bytes > 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << kernel << " never read what " << writer
                                       << " wrote: the kernels must pass their intermediates through device memory";
}

}  // namespace rooflab::testing
