#include "plots/kernel_registers.hpp"

#include "build/build_step.hpp"
#include "os/process.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace fs = std::filesystem;

namespace {

constexpr double kNvccTimeout_s = 120;

// What ptxas printed for each of the submission's .cu files ("" for one nvcc
// could not compile, with a note saying so).
std::string submission_ptxas_output(const Grading& grading, const AssignmentInfo& info, KernelRegisters& found) {
  const fs::path stage = grading.scratch / "stage";
  const fs::path lab = stage / "assignments" / info.dir;
  std::string printed;
  for (const std::string& file : info.cuda_files) {
    if (fs::path(file).extension() != ".cu") continue;
    found.nvcc_ran = true;
    const ProcessResult compiled = run_build_step(
        grading, grading.build,
        {grading.manifest.nvcc.string(), "-arch=sm_90", "-cubin", "--resource-usage", "-o", "/dev/null", "-I",
         (lab / "include").string(), "-I", (stage / "common" / "include").string(), (lab / file).string()},
        info.name + ".registers." + fs::path(file).stem().string(), kNvccTimeout_s);
    if (compiled.succeeded())
      printed += compiled.output;
    else
      found.notes.push_back("nvcc could not compile " + file + " for the GPU model's registers per thread (" +
                            compiled.describe(kNvccTimeout_s) + "): its kernels take the reference's counts");
  }
  return printed;
}

}  // namespace

KernelRegisters count_kernel_registers(const Grading& grading, const AssignmentInfo& info) {
  KernelRegisters found;
  std::vector<std::string> argv{Manifest::profile_binary(grading.manifest.binary_dir, info).string(), "--registers"};
  if (!grading.manifest.nvcc.empty() && fs::exists(grading.manifest.nvcc)) {
    const fs::path printed = grading.scratch / (info.name + ".nvcc-registers.txt");
    text::write_file(printed, submission_ptxas_output(grading, info, found));
    if (found.nvcc_ran) argv.insert(argv.end(), {"--nvcc-registers", printed.string()});
  }
  // The reference's profile (trusted) reads ptxas's lines: the head dimension it profiles is its own.
  const ProcessResult listed = run_process(argv, grading.scratch, grading.scratch / (info.name + ".registers.log"),
                                           ProcessLimits::timeout(kProfileTimeout_s));
  if (listed.succeeded())
    found.counts = kernels::parse_registers_csv(listed.output);
  else
    found.notes.push_back("the reference profile could not list its registers per thread (" +
                          listed.describe(kProfileTimeout_s) + "): the GPU model assumes them");
  return found;
}

}  // namespace rooflab
