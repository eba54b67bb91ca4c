// `rooflab bench bandwidth`: this machine's memory bandwidth, STREAM-style
// (copy and triad over arrays far larger than the caches), the bound that
// memory-bound work such as decoding is measured against.
#pragma once

namespace rooflab::bench {

struct Bandwidth {
  double copy_bytes_per_s = 0;   // c[i] = a[i]: 8 bytes moved per element
  double triad_bytes_per_s = 0;  // a[i] = b[i] + s·c[i]: 12 bytes moved per element
  double read_bytes_per_s = 0;   // s += a[i]: 4 bytes read per element, nothing written (what decoding does)
};

// Best of `repeats` runs of each kernel over arrays of `mib` MiB each, with
// OpenMP's default threads.
Bandwidth measure_bandwidth(int mib = 256, int repeats = 5);

// Prints the figures as a Markdown table; returns the exit code.
int run_bandwidth_bench();

}  // namespace rooflab::bench
