// The reference kernels' rows (rooflab/kernel_profile.hpp), which
// `lab profile a05_cuda_attention` shows beside a student's, the GPU model
// against every recorded GPU run of them, and what it expects of today's
// kernels at the same shapes (gpu_model_calibration.hpp).
#include <string>

#include "../profile/kernel_counts.hpp"
#include "gpu_model_calibration.hpp"
#include "plot_data.hpp"

namespace rooflab::plots {

void add_a05_cuda_attention_plot_data(Files& files) {
  std::string kernels = rooflab::kernels::csv_header() + "\n";
  for (const auto& row : a05_cuda_attention::profile::count_kernels()) kernels += rooflab::kernels::csv_row(row) + "\n";
  files["a05_cuda_attention_kernels.csv"] = kernels;
  files["gpu_model_calibration.csv"] = a05_cuda_attention::literate::gpu_model_calibration_csv();
  files["gpu_model_predictions.csv"] = a05_cuda_attention::literate::gpu_model_predictions_csv();
}

}  // namespace rooflab::plots
