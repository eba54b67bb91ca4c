// The memory tracker sees what C++ code allocates: peaks, not totals; memory
// freed inside the call; aligned and array forms; results handed back.
#include "rooflab/memory_tracker.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

namespace rooflab::memory {
namespace {

constexpr std::size_t kMiB = 1 << 20;

// The allocator rounds up; a few KiB of slack covers it at these sizes.
constexpr std::size_t kSlack = 16 * 1024;

TEST(MemoryTracker, CountsAVectorItAllocatesAndFrees) {
  const Measured m = measure_peak([] {
    std::vector<float> scratch(kMiB);  // 4 MiB
    scratch.back() = 1;
    return scratch.back();
  });
  EXPECT_GE(m.peak_extra_bytes, 4 * kMiB);
  EXPECT_LT(m.peak_extra_bytes, 4 * kMiB + kSlack);
  EXPECT_GE(m.allocations, 1u);
}

TEST(MemoryTracker, ReportsThePeakNotTheSum) {
  // Ten 1 MiB buffers, one at a time: the peak is one buffer, not ten.
  const Measured m = measure_peak([] {
    double sum = 0;
    for (int i = 0; i < 10; ++i) {
      std::vector<char> buffer(kMiB, 1);
      sum += buffer[i];
    }
    return sum;
  });
  EXPECT_GE(m.peak_extra_bytes, kMiB);
  EXPECT_LT(m.peak_extra_bytes, kMiB + kSlack);
  EXPECT_GE(m.allocations, 10u);
}

TEST(MemoryTracker, CountsTheResultHandedBack) {
  const Measured m = measure_peak([] { return std::vector<double>(kMiB / 8); });
  EXPECT_GE(m.peak_extra_bytes, kMiB);
  EXPECT_LT(m.peak_extra_bytes, kMiB + kSlack);
}

TEST(MemoryTracker, SeesAlignedAndArrayForms) {
  struct alignas(64) Line {
    char bytes[64];
  };
  const Measured m = measure_peak([] {
    auto lines = std::make_unique<Line[]>(kMiB / 64);  // aligned array new: 1 MiB
    auto raw = std::make_unique<char[]>(kMiB);         // array new: 1 MiB
    return lines[0].bytes[0] + raw[0];
  });
  EXPECT_GE(m.peak_extra_bytes, 2 * kMiB);
  EXPECT_LT(m.peak_extra_bytes, 2 * kMiB + kSlack);
}

TEST(MemoryTracker, LiveBytesReturnAfterFreeing) {
  const std::size_t before = live_bytes();
  {
    const std::vector<int> held(kMiB);
    EXPECT_GE(live_bytes(), before + 4 * kMiB);
  }
  EXPECT_EQ(live_bytes(), before);
}

}  // namespace
}  // namespace rooflab::memory
