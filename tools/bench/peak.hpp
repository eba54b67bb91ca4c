// `rooflab bench peak`: this machine's fp32 FMA peak as a table (measured by
// rooflab/fma_peak.hpp), beside the memory bandwidth: the two roofs of the
// roofline, and the arithmetic intensity where they meet.
#pragma once

namespace rooflab::bench {

// Prints the figures as a Markdown table; returns the exit code.
int run_peak_bench();

}  // namespace rooflab::bench
