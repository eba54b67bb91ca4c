// a01_roofline — provided: the GPUs the course reasons about.
//
// Peaks are dense tensor-core FLOP/s (not the 2:4-sparse marketing figure) at the
// listed precision; bandwidth is HBM/GDDR bytes/s; memory is bytes (GB = 1e9).
// Sources for every figure are in docs/02_roofline.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace a01_roofline {

struct GpuSpec {
  std::string id;         // command-line name, e.g. "h100-sxm-fp16"
  std::string name;       // display name, e.g. "H100 SXM (FP16)"
  std::string precision;  // precision of peak_flops_per_s, e.g. "fp16"
  double peak_flops_per_s = 0;
  double bandwidth_bytes_per_s = 0;
  double memory_bytes = 0;
};

// Every catalog entry, in the order the docs list them.
const std::vector<GpuSpec>& gpu_catalog();

// The entry with this id; an unknown id throws std::invalid_argument naming
// that id and listing the known ones.
const GpuSpec& find_gpu(std::string_view id);

}  // namespace a01_roofline
