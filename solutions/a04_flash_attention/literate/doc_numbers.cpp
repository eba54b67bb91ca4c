// Every number docs/05 and the a04 lab README quote, from the reference, and
// the memory table docs/04 and docs/05 share: flash beside a03's methods.
#include <string>

#include "a03_attention_memory/a03_attention_memory.hpp"
#include "a04_flash_attention/a04_flash_attention.hpp"
#include "doc_regions.hpp"

namespace rooflab::docs {
namespace {

constexpr double kMiB = 1 << 20;

double estimate(a03_attention_memory::Method method, std::int64_t b, std::int64_t h, std::int64_t n,
                a03_attention_memory::Dtype dtype, double a03_attention_memory::MemoryEstimate::*field) {
  return a03_attention_memory::estimate_memory(method, {b, h, n, 64}, dtype).*field;
}

// Peak extra memory of every method against N (B = H = 1, d = 64, fp32, flash
// with the default tiles and one worker): the table behind both chapters.
std::string memory_table() {
  using a03_attention_memory::Method;
  const a04_flash_attention::FlashOptions tiles;
  std::string table =
      "| N | standard (S and P) | linear | causal linear, cumsum | causal linear, recurrent | flash |\n"
      "|---:|---:|---:|---:|---:|---:|\n";
  for (const std::int64_t n : {512, 1024, 2048, 4096, 8192, 16384}) {
    table += "| " + fmt("%.0f", static_cast<double>(n));
    for (const Method method :
         {Method::standard, Method::linear, Method::linear_causal_cumsum, Method::linear_causal_recurrent})
      table += " | " + fmt("%.2f", estimate(method, 1, 1, n, a03_attention_memory::Dtype::fp32,
                                            &a03_attention_memory::MemoryEstimate::peak_extra) /
                                       kMiB);
    table += " | " +
             fmt("%.2f",
                 a04_flash_attention::flash_extra_bytes({1, 1, n, 64}, tiles.block_rows, tiles.block_cols, 1) / kMiB);
    table += " |\n";
  }
  return table;
}

// HBM traffic of one head's forward pass, in elements: standard attention
// writes and reads S and P (4N² + 4Nd); flash reads K and V once per row block
// of B_r queries (2Nd·N/B_r) plus Q once and O once (2Nd).
double standard_traffic(double n, double d) { return 4 * n * n + 4 * n * d; }
double flash_traffic(double n, double d, double block_rows) { return 2 * n * d * (n / block_rows) + 2 * n * d; }

std::string traffic_table() {
  std::string table =
      "| N | standard (MB) | flash, B_r = 64 (MB) | flash, B_r = 128 (MB) | standard / flash (B_r = 128) |\n"
      "|---:|---:|---:|---:|---:|\n";
  for (const double n : {1024.0, 4096.0, 16384.0}) {
    const double bytes = 2;  // fp16, as on a GPU
    table += "| " + fmt("%.0f", n) + " | " + fmt("%.1f", standard_traffic(n, 64) * bytes / 1e6) + " | " +
             fmt("%.1f", flash_traffic(n, 64, 64) * bytes / 1e6) + " | " +
             fmt("%.1f", flash_traffic(n, 64, 128) * bytes / 1e6) + " | " +
             fmt("%.1f", standard_traffic(n, 64) / flash_traffic(n, 64, 128)) + " |\n";
  }
  return table;
}

}  // namespace

void add_a04_flash_attention_numbers(Values& values) {
  values["a04.usage_output"] = [] { return program_output_block(ROOFLAB_EXAMPLE_PATH_PREFIX "usage"); };
  values["attention.memory_table"] = [] { return memory_table(); };
  values["a04.traffic_table"] = [] { return traffic_table(); };
  values["a04.flash_16384_mib"] = [] {
    const a04_flash_attention::FlashOptions tiles;
    return fmt("%.2f",
               a04_flash_attention::flash_extra_bytes({1, 1, 16384, 64}, tiles.block_rows, tiles.block_cols, 1) / kMiB);
  };
  values["a04.nn_16384_mib"] = [] { return fmt("%.0f", 16384.0 * 16384 * 4 / kMiB); };
  values["a04.default_tiles"] = [] {
    const a04_flash_attention::FlashOptions tiles;
    return fmt("%.0f", static_cast<double>(tiles.block_rows)) + " × " +
           fmt("%.0f", static_cast<double>(tiles.block_cols));
  };
}

}  // namespace rooflab::docs
