// Every number docs/06 and the a05 lab README quote, from the reference: the
// worked example's output, and the device memory each launcher needs, counted
// by the course's DeviceBuffer (the same on a GPU and in the CPU runtime).
#include <string>

#include "a05_cuda_attention/a05_cuda_attention.hpp"
#include "doc_regions.hpp"
#include "rooflab/device_buffer_bytes.hpp"

namespace rooflab::docs {
namespace {

constexpr double kMiB = 1 << 20;

// The most device memory `launch` held at once, in MiB.
template <class Launch>
double peak_mib(Launch launch) {
  rooflab::cuda::reset_device_buffer_peak();
  const std::size_t before = rooflab::cuda::device_buffer_bytes();
  launch();
  return static_cast<double>(rooflab::cuda::device_buffer_peak() - before) / kMiB;
}

// Device memory of one causal head (B = H = 1, d = 64, fp32) against N.
std::string device_memory_table() {
  std::string table =
      "| N | standard attention (MiB) | flash attention (MiB) | standard / flash |\n"
      "|---:|---:|---:|---:|\n";
  for (const std::int64_t n : {128, 256, 512}) {
    const Tensor4 q = random_normal(1, 1, n, 64, 1), k = random_normal(1, 1, n, 64, 2),
                  v = random_normal(1, 1, n, 64, 3);
    const double standard = peak_mib([&] { a05_cuda_attention::standard_attention_cuda(q, k, v, true); });
    const double flash = peak_mib([&] { a05_cuda_attention::flash_attention_cuda(q, k, v, true); });
    table += "| " + fmt("%.0f", static_cast<double>(n)) + " | " + fmt("%.3f", standard) + " | " + fmt("%.3f", flash) +
             " | " + fmt("%.1f", standard / flash) + " |\n";
  }
  return table;
}

}  // namespace

void add_a05_cuda_attention_numbers(Values& values) {
  values["a05.usage_output"] = [] { return program_output_block(ROOFLAB_EXAMPLE_PATH_PREFIX "usage"); };
  values["a05.device_memory_table"] = [] { return device_memory_table(); };
}

}  // namespace rooflab::docs
