// The read bandwidth (rooflab/bandwidth.hpp) is a real rate, measured again
// and again by one probe: finite each time, above 0.5 GB/s (which every
// machine this course runs on passes many times over, busy or not) and
// below what a core's caches could return (a 64-byte line a cycle at 6 GHz
// per thread, with the array in the caches).
#include "rooflab/bandwidth.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace rooflab {
namespace {

// A real rate, as the comment above bounds it.
void expect_a_real_rate(double rate) {
  EXPECT_TRUE(std::isfinite(rate));
  EXPECT_GT(rate, 0.5e9);
  EXPECT_LT(rate, 64.0 * 6e9 * omp_get_max_threads());
}

TEST(ReadBandwidthProbe, MeasuresARateEachTime) {
  ReadBandwidthProbe probe(8);  // 8 MiB: quick, and still a pass over memory or the last-level cache
  for (int i = 0; i < 3; ++i) expect_a_real_rate(probe.measure(2));
}

TEST(ReadBandwidthProbe, AgreesWithMeasureBandwidthsReadRate) {
  // The probe's sum is measure_bandwidth's read kernel: over the same size
  // the two give rates of one order (the machine may move between them; a
  // miscounted byte per element would not).
  const double probe = ReadBandwidthProbe(16).measure(5);
  const double full = measure_bandwidth(16, 5).read_bytes_per_s;
  EXPECT_GT(probe, full / 10);
  EXPECT_LT(probe, full * 10);
}

TEST(ReadBandwidthProbe, TimesEachPassApart) {
  // One rate a pass, each a real one, and their best of one order with a
  // best-of measure() over the same array (a pass timed with its
  // neighbours', or a rate per call instead of per pass, would not be).
  ReadBandwidthProbe probe(8);
  const std::vector<double> passes = probe.each_pass(7);
  ASSERT_EQ(passes.size(), 7u);
  for (const double rate : passes) expect_a_real_rate(rate);
  const double best = *std::max_element(passes.begin(), passes.end());
  const double measured = probe.measure(7);
  EXPECT_GT(best, measured / 10);
  EXPECT_LT(best, measured * 10);
}

}  // namespace
}  // namespace rooflab
