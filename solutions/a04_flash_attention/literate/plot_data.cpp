// The data behind the attention chapters' figure: each method's peak extra
// memory against N, from the reference estimates of a03 and a04.
#include <string>

#include "a03_attention_memory/a03_attention_memory.hpp"
#include "a04_flash_attention/a04_flash_attention.hpp"
#include "plot_data.hpp"

namespace rooflab::plots {

void add_a04_flash_attention_plot_data(Files& files) {
  using a03_attention_memory::Method;
  const a04_flash_attention::FlashOptions tiles;
  std::string csv = "N,standard (S and P),linear,causal linear (cumsum),causal linear (recurrent),flash\n";
  for (std::int64_t n = 128; n <= 32768; n *= 2) {
    csv += std::to_string(n);
    for (const Method method :
         {Method::standard, Method::linear, Method::linear_causal_cumsum, Method::linear_causal_recurrent}) {
      const double bytes =
          a03_attention_memory::estimate_memory(method, {1, 1, n, 64}, a03_attention_memory::Dtype::fp32).peak_extra;
      csv += ',';
      csv += std::to_string(bytes / (1 << 20));
    }
    csv += ',';
    csv += std::to_string(a04_flash_attention::flash_extra_bytes({1, 1, n, 64}, tiles.block_rows, tiles.block_cols, 1) /
                          (1 << 20));
    csv += "\n";
  }
  files["attention_memory_vs_n.csv"] = csv;
}

}  // namespace rooflab::plots
