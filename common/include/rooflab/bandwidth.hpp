// This machine's memory bandwidth, STREAM-style (copy, triad and a read-only
// sum over arrays far larger than the caches): the bound memory-bound work,
// decoding above all, is measured against (`lab bench bandwidth`, `lab
// generate`, a06's profile).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace rooflab {

struct Bandwidth {
  double copy_bytes_per_s = 0;   // c[i] = a[i]: 8 bytes moved per element
  double triad_bytes_per_s = 0;  // a[i] = b[i] + s·c[i]: 12 bytes moved per element
  double read_bytes_per_s = 0;   // s += a[i]: 4 bytes read per element, nothing written (what decoding does)
};

// Best of `repeats` runs of each kernel over three arrays of `mib` MiB each,
// with OpenMP's default threads.
Bandwidth measure_bandwidth(int mib = 256, int repeats = 5);

// The read-only bandwidth again and again, beside the runs it is the roof of:
// its array is allocated and touched once, and each measure() costs a few
// passes over it. On a host shared with other machines the bandwidth moves
// within minutes (35 and 58 GB/s beside two runs of `rooflab generate` on
// one 2-core machine, docs/benchmarks.md), so a roof measured once, before
// the runs, can put the same code at 60 % or at 120 % of it.
class ReadBandwidthProbe {
 public:
  explicit ReadBandwidthProbe(int mib = 256);
  // Bytes per second, the best of `repeats` sums over the array, with
  // OpenMP's default threads.
  double measure(int repeats = 3);
  // Bytes per second of each of `passes` sums, one after another: how far
  // the bandwidth moves from one pass (a few milliseconds) to the next. A
  // best pass stands above most of them (on the course's 2-core machine,
  // 3 to 19 % above their median: docs/benchmarks.md), and a decode that
  // runs for seconds meets the typical pass more often than the best.
  std::vector<double> each_pass(int passes);

 private:
  std::size_t n_;
  std::unique_ptr<float[]> values_;
};

}  // namespace rooflab
