// This machine's memory bandwidth, STREAM-style (copy, triad and a read-only
// sum over arrays far larger than the caches): the bound memory-bound work,
// decoding above all, is measured against (`lab bench bandwidth`, `lab
// generate`, a06's profile).
#pragma once

namespace rooflab {

struct Bandwidth {
  double copy_bytes_per_s = 0;   // c[i] = a[i]: 8 bytes moved per element
  double triad_bytes_per_s = 0;  // a[i] = b[i] + s·c[i]: 12 bytes moved per element
  double read_bytes_per_s = 0;   // s += a[i]: 4 bytes read per element, nothing written (what decoding does)
};

// Best of `repeats` runs of each kernel over three arrays of `mib` MiB each,
// with OpenMP's default threads.
Bandwidth measure_bandwidth(int mib = 256, int repeats = 5);

}  // namespace rooflab
