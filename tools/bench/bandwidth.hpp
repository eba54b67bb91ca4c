// `rooflab bench bandwidth`: this machine's memory bandwidth as a table
// (measured by rooflab/bandwidth.hpp).
#pragma once

namespace rooflab::bench {

// Prints the figures as a Markdown table; returns the exit code.
int run_bandwidth_bench();

}  // namespace rooflab::bench
