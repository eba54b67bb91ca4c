// The reference kernels' rows (rooflab/kernel_profile.hpp), which
// `lab profile a05_cuda_attention` shows beside a student's.
#include <string>

#include "../profile/kernel_counts.hpp"
#include "plot_data.hpp"

namespace rooflab::plots {

void add_a05_cuda_attention_plot_data(Files& files) {
  std::string kernels = rooflab::kernels::csv_header() + "\n";
  for (const auto& row : a05_cuda_attention::profile::count_kernels()) kernels += rooflab::kernels::csv_row(row) + "\n";
  files["a05_cuda_attention_kernels.csv"] = kernels;
}

}  // namespace rooflab::plots
