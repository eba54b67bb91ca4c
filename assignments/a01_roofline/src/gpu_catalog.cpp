// a01_roofline, provided: the GPU catalog. Sources: docs/02_roofline.md.
#include "a01_roofline/gpu_catalog.hpp"

#include <stdexcept>
#include <string>

namespace a01_roofline {

namespace {

constexpr double kTera = 1e12;
constexpr double kGB = 1e9;

}  // namespace

const std::vector<GpuSpec>& gpu_catalog() {
  // Dense tensor-core peaks (half of the 2:4-sparse datasheet figure where one is quoted).
  static const std::vector<GpuSpec> catalog{
      {"a100-sxm-80gb", "A100 SXM 80GB (FP16)", "fp16", 312 * kTera, 2.039 * kTera, 80 * kGB},
      {"h100-sxm-fp16", "H100 SXM (FP16)", "fp16", 989.4 * kTera, 3.35 * kTera, 80 * kGB},
      {"h100-sxm-fp8", "H100 SXM (FP8)", "fp8", 1978.9 * kTera, 3.35 * kTera, 80 * kGB},
      {"h200-sxm", "H200 SXM (FP16)", "fp16", 989.4 * kTera, 4.8 * kTera, 141 * kGB},
      {"b200", "B200 (FP16)", "fp16", 2250 * kTera, 8.0 * kTera, 180 * kGB},
      {"t4", "T4 (FP16)", "fp16", 65 * kTera, 0.320 * kTera, 16 * kGB},
      {"l4", "L4 (FP16)", "fp16", 121 * kTera, 0.300 * kTera, 24 * kGB},
  };
  return catalog;
}

const GpuSpec& find_gpu(std::string_view id) {
  std::string known;
  for (const GpuSpec& gpu : gpu_catalog()) {
    if (gpu.id == id) return gpu;
    known += (known.empty() ? "" : ", ") + gpu.id;
  }
  throw std::invalid_argument("gpu \"" + std::string(id) + "\" is not in the catalog; known: " + known);
}

}  // namespace a01_roofline
