#include "plots/profile_plots.hpp"

#include <algorithm>
#include <iostream>
#include <thread>

#include "build/build_step.hpp"
#include "plots/curve_plots.hpp"
#include "plots/kernel_plots.hpp"
#include "plots/kernel_registers.hpp"
#include "plots/reference_profile.hpp"
#include "plots/scaling_plots.hpp"
#include "rooflab/machine_load.hpp"
#include "run/test_runner.hpp"

namespace rooflab {
namespace fs = std::filesystem;

void add_scaling_plots(const Grading& grading, AssignmentResult& assignment, const AssignmentInfo& info) {
  std::cout << "[" << info.name << "] profiling for the report's plots\n" << std::flush;
  // The CPU runtime's build, as on every machine: there the CUDA labs' kernels are counted.
  const ProcessResult built =
      build_target(grading, grading.build, info.name + "_profile", info.name + ".profile.build");
  // Profiles run one at a time, each with every core, and the same OpenMP
  // settings for the submission's and the reference's.
  const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  const fs::path& scratch = grading.scratch;
  std::vector<ProfileRow> submission;
  std::string submission_output;
  if (!built.succeeded()) {
    assignment.plot_notes.push_back("the profile did not build with your code (" + built.describe(kBuildTimeout_s) +
                                    "): only the reference is drawn");
  } else {
    ProcessLimits limits = ProcessLimits::timeout(kProfileTimeout_s);
    limits.address_space_bytes = kProfileMemory - kDefaultTmpBytes;
    const StepCgroups cgroups =
        grading.step_cgroups("profile", kProfileMemory, kRunTasks + static_cast<std::uint64_t>(cores));
    SandboxView view;
    view.read_only = {grading.build.dir};
    view.env = openmp_environment(cores);
    view.cgroup_procs_fds = cgroups.procs_fds();
    const LoadWatch watch;  // its times say little when other processes took the cores meanwhile
    const ProcessResult ran = grading.sandbox.run({Manifest::profile_binary(grading.build.dir, info).string()}, view,
                                                  scratch, scratch / (info.name + ".profile.log"), limits);
    if (const std::string busy = watch.warning(cores); !busy.empty()) assignment.plot_notes.push_back(busy);
    std::vector<std::string> messages;
    submission = parse_profile(ran.output, messages);
    submission_output = ran.output;
    constexpr std::size_t kShown = 20;
    for (std::size_t i = 0; i < std::min(messages.size(), kShown); ++i)
      assignment.plot_notes.push_back("your profile: " + messages[i]);
    if (messages.size() > kShown)
      assignment.plot_notes.push_back("your profile printed " + std::to_string(messages.size() - kShown) +
                                      " more lines that are not CSV rows (not shown)");
    if (!ran.succeeded()) assignment.plot_notes.push_back("your profile " + ran.describe(kProfileTimeout_s));
  }
  std::vector<std::string> ignored;
  const ReferenceProfile reference = reference_profile(grading, info, cores);
  if (reference.kept)
    assignment.plot_notes.push_back("the reference's side of these figures is its profile's run of " +
                                    reference.ran_at +
                                    " on this machine, with this reference build, kept from an earlier grading");
  const std::vector<ProfileRow> reference_rows = parse_profile(reference.output, ignored);
  if (!reference_rows.empty()) {
    const ScalingFigures figures =
        render_scaling_plots(info.name, submission, reference_rows, grading.options.out, scratch);
    assignment.plots = figures.images;
    assignment.plot_data = figures.csv;
    assignment.plot_notes.insert(assignment.plot_notes.end(), figures.notes.begin(), figures.notes.end());
  }
  // Registers per thread for the GPU model's occupancy, for a profile of kernels only.
  KernelRegisters registers;
  if (!kernels::parse_csv(reference.output).empty()) registers = count_kernel_registers(grading, info);
  const KernelFigures kernels =
      render_kernel_figures(info.name, submission_output, reference.output, registers, grading.options.out, scratch);
  assignment.kernel_table = kernels.table;
  assignment.plots.insert(assignment.plots.end(), kernels.images.begin(), kernels.images.end());
  assignment.plot_notes.insert(assignment.plot_notes.end(), kernels.notes.begin(), kernels.notes.end());
  // Figures the profile declares itself (a07's accuracy against layers).
  const CurveFigures curves =
      render_curve_figures(info.name, submission_output, reference.output, grading.options.out, scratch);
  assignment.plots.insert(assignment.plots.end(), curves.images.begin(), curves.images.end());
  assignment.plot_captions.insert(curves.captions.begin(), curves.captions.end());
  assignment.plot_notes.insert(assignment.plot_notes.end(), curves.notes.begin(), curves.notes.end());
  if (assignment.plot_data.empty()) assignment.plot_data = curves.csv;
  if (reference_rows.empty() && kernels.table.empty() && curves.csv.empty())
    assignment.plot_notes.push_back("the reference profile printed no rows: no plots");
}

}  // namespace rooflab
