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

// `value` as the fp16 bits __float2half gives it (round to nearest, ties to
// even) where it is an fp16 normal number; anything else becomes a NaN's
// bits, which no input holds: KernelReadFp16 asks for one value read.
inline std::uint32_t fp16_bits(float value) {
  const std::uint32_t bits = bits_of(value), sign = bits >> 16 & 0x8000u;
  const int exponent = static_cast<int>(bits >> 23 & 0xffu) - 127 + 15;
  if (exponent <= 0 || exponent >= 31) return 0x7e01u;
  std::uint32_t half = static_cast<std::uint32_t>(exponent) << 10 | (bits & 0x7fffffu) >> 13;
  const std::uint32_t rest = bits & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;  // a carry into the exponent is right too
  return sign | half;
}

// `value` as the bf16 bits __float2bfloat16 gives it (round to nearest, ties
// to even), for a finite value.
inline std::uint32_t bf16_bits(float value) {
  const std::uint32_t bits = bits_of(value);
  return (bits + 0x7fffu + (bits >> 16 & 1u)) >> 16;
}

// KernelRead for an input the host converted to 16 bits (fp16, or with
// `bfloat16` bf16) before copying it: the kernel read a 4-byte word holding
// two of its neighbouring values.
inline ::testing::AssertionResult KernelRead16Bits(const WorkerReport& report, const std::string& kernel,
                                                   const std::vector<float>& input, const std::string& what,
                                                   bool bfloat16) {
  if (!report.kernels_recorded || input.size() < 2) return ::testing::AssertionSuccess();
  const auto bits = [&](float value) { return bfloat16 ? bf16_bits(value) : fp16_bits(value); };
  bool launched = false;
  for (const KernelLaunch& launch : report.launches) {
    if (launch.kernel != kernel) continue;
    launched = true;
    for (std::size_t i = 0; i + 1 < input.size(); i += 2) {
      const std::uint32_t word = bits(input[i]) | bits(input[i + 1]) << 16;
      if (std::binary_search(launch.host_words_read.begin(), launch.host_words_read.end(), word))
        return ::testing::AssertionSuccess();
    }
  }
  return ::testing::AssertionFailure() << kernel << (launched ? " never read " : " never ran, so never read ") << what
                                       << (bfloat16 ? " (in bf16)" : " (in fp16)")
                                       << " on the device: the kernels must compute from their inputs";
}
inline ::testing::AssertionResult KernelReadFp16(const WorkerReport& report, const std::string& kernel,
                                                 const std::vector<float>& input, const std::string& what) {
  return KernelRead16Bits(report, kernel, input, what, false);
}

// The launches of `kernel` ran tensor-core operations (wmma::mma_sync or the
// mma atoms): a kernel on CUDA cores under a tensor-core name does not.
inline ::testing::AssertionResult RanOnTensorCores(const WorkerReport& report, const std::string& kernel) {
  if (!report.kernels_recorded) return ::testing::AssertionSuccess();
  for (const KernelLaunch& launch : report.launches)
    if (launch.kernel == kernel && launch.tensor_core_operations > 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << kernel
                                       << " ran no tensor-core operation (wmma::mma_sync): the tensor-core kernel "
                                          "must multiply on tensor cores";
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
