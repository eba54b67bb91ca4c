#include "plots/kernel_plots.hpp"

#include <algorithm>

#include "os/process.hpp"
#include "rooflab/kernel_profile.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace fs = std::filesystem;

KernelFigures render_kernel_figures(const std::string& assignment, const std::string& submission_output,
                                    const std::string& reference_output, const KernelRegisters& registers,
                                    const fs::path& report_dir, const fs::path& scratch) {
  KernelFigures figures;
  figures.notes = registers.notes;
  const std::vector<kernels::KernelRow> reference = kernels::parse_csv(reference_output);
  if (reference.empty()) return figures;  // a profile without kernels
  std::vector<kernels::KernelRow> submission;
  for (const kernels::KernelRow& row : kernels::parse_csv(submission_output)) {
    const bool known = std::any_of(reference.begin(), reference.end(), [&](const kernels::KernelRow& theirs) {
      return theirs.method == row.method && theirs.kernel == row.kernel;
    });
    if (known) submission.push_back(row);
  }
  if (submission.empty())
    figures.notes.push_back(
        "your profile reported none of the reference's kernels (they did not run, or ran on a "
        "GPU, where the CPU runtime counts nothing)");
  const roofline::CudaCoreGpu& gpu = roofline::cuda_core_gpus().front();
  figures.table = kernels::markdown_table(submission, reference, gpu) +
                  "\nWhere the GPU model (rooflab/gpu_model.hpp) puts them on the same GPU, from each launch's shape "
                  "(occupancy, SMs covered, rounds of blocks) and the counters (instruction issue, shared-memory "
                  "wavefronts, DRAM bytes, latency too few warps cannot hide): an estimate, never a score. Registers "
                  "per thread are nvcc's for sm_90: " +
                  kernels::registers_source(registers.counts, registers.nvcc_ran) + ".\n\n" +
                  kernels::model_table(submission, reference, gpu_model::find_architecture(gpu.id), registers.counts);
  const fs::path image = fs::path("plots") / (assignment + "_roofline.png");
  const fs::path script = scratch / (assignment + "_roofline.gp");
  fs::create_directories(report_dir / "plots");
  text::write_file(
      script, kernels::roofline_script(submission, reference, gpu, fs::absolute(report_dir / image), registers.counts));
  try {
    const ProcessResult drawn = run_process({"gnuplot", script.string()}, scratch, scratch / "gnuplot-roofline.log",
                                            ProcessLimits::timeout(60));
    if (!drawn.signaled && !drawn.timed_out && drawn.exit_code == 127)
      figures.notes.push_back("gnuplot is not installed (Debian package gnuplot-nox): no roofline chart");
    else if (!drawn.succeeded() || !fs::exists(report_dir / image))
      figures.notes.push_back("gnuplot failed on the roofline chart (" + drawn.describe(60) +
                              "): " + text::truncate(drawn.output, 500));
    else
      figures.images.push_back(image);
  } catch (const std::exception& error) {
    figures.notes.push_back(std::string("gnuplot could not run (") + error.what() + "): no roofline chart");
  }
  return figures;
}

}  // namespace rooflab
