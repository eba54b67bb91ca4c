#include "build/build_step.hpp"

#include <iostream>
#include <stdexcept>

#include "build/checks.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace fs = std::filesystem;

ProcessResult run_build_step(const Grading& grading, const BuildTree& tree, const std::vector<std::string>& argv,
                             const std::string& step, double timeout_s) {
  ProcessLimits limits = ProcessLimits::timeout(timeout_s);
  limits.output_cap_bytes = 200000;
  limits.address_space_bytes = kBuildAddressSpace;
  limits.file_size_bytes = kBuildFileSize;
  limits.max_processes = grading.process_rlimit();
  limits.open_files = 1024;
  const fs::path temporary = tree.dir / ".tmp";
  grading.sandbox.hand_over(temporary);
  const StepCgroups cgroups = grading.step_cgroups("build", kBuildMemory, grading.build_tasks());
  SandboxView view;
  view.read_only = {grading.scratch / "stage"};
  view.writable = {tree.dir};
  view.cwd = tree.dir;
  view.gpu = tree.gpu;
  view.env = {"TMPDIR=" + temporary.string()};
  view.cgroup_procs_fds = cgroups.procs_fds();
  const fs::path log = grading.scratch / "logs" / (step + ".log");
  ProcessResult result = grading.sandbox.run(argv, view, tree.dir, log, limits);
  if (cgroups.memory && cgroups.memory->oom_killed())
    result.output += "\n[the build passed its memory limit of " + std::to_string(kBuildMemory / kMiB) +
                     " MiB and the kernel stopped it]\n";
  if (cgroups.pids && cgroups.pids->refused() > 0)
    result.output += "\n[the build reached its limit of " + std::to_string(cgroups.pids->limit()) +
                     " processes and threads: the kernel refused " + std::to_string(cgroups.pids->refused()) +
                     " of its forks]\n";
  text::write_file(grading.options.out / "logs" / (step + ".log"), text::untrusted(result.output, kLogCap));
  return result;
}

ProcessResult build_target(const Grading& grading, const BuildTree& tree, const std::string& target,
                           const std::string& step) {
  return run_build_step(
      grading, tree,
      {"cmake", "--build", tree.dir.string(), "--target", target, "-j", std::to_string(grading.options.jobs)}, step,
      kBuildTimeout_s);
}

ProcessResult configure_staged_course(const Grading& grading, const StagedSubmission& staged, const BuildTree& tree) {
  std::cout << "configuring the staged course for " << (tree.gpu ? "the GPU" : "the CPU runtime") << " ("
            << (grading.sandbox.isolated() ? "sandboxed" : "NOT sandboxed") << ", memory "
            << (grading.cgroups.available() ? grading.cgroups.mechanism()
                                            : "rlimits only: " + grading.cgroups.why_not())
            << ", processes "
            << (grading.pids.available() ? grading.pids.mechanism() : "RLIMIT_NPROC only: " + grading.pids.why_not())
            << ", CPU "
            << (grading.cpu.available() ? grading.cpu.mechanism() : "shared by process: " + grading.cpu.why_not())
            << ")\n";
  grading.sandbox.hand_over(tree.dir);
  std::vector<std::string> argv{"cmake"};
  // The reference build's compiler and check results (cmake/grading_kit.cmake):
  // the configure compiles no test programs for them.
  if (const fs::path cache = staged.root / "kit" / "configure_cache.cmake"; fs::exists(cache))
    argv.insert(argv.end(), {"-C", cache.string()});
  argv.insert(argv.end(), {"-S", staged.root.string(), "-B", tree.dir.string(), "-DCMAKE_BUILD_TYPE=Release",
                           "-DROOFLAB_COURSE_DIR=" + (staged.root / "assignments").string(),
                           "-DROOFLAB_GRADING_KIT_DIR=" + (staged.root / "kit").string(),
                           "-DThrust_DIR=" + grading.manifest.thrust_dir.string(), "-DROOFLAB_BUILD_TOOLS=OFF",
                           std::string("-DROOFLAB_ENABLE_CUDA=") + (tree.gpu ? "ON" : "OFF"),
                           std::string("-DROOFLAB_CUDA_KERNELS=") + (tree.gpu ? "gpu" : "cpu")});
  return run_build_step(grading, tree, argv, tree.gpu ? "configure-gpu" : "configure", kConfigureTimeout_s);
}

std::vector<std::string> rejected_symbols(const Grading& grading, const AssignmentInfo& info) {
  std::vector<fs::path> objects;
  for (const fs::path& folder : Manifest::student_objects(grading.build.dir, info))
    for (const auto& entry : fs::recursive_directory_iterator(folder))
      if (entry.path().extension() == ".o") objects.push_back(entry.path());
  // nm and objdump read what the student's code compiled to: in the sandbox.
  const ToolRunner run = [&](const std::vector<std::string>& argv) {
    SandboxView view;
    view.read_only = {grading.build.dir};
    ProcessLimits limits = ProcessLimits::timeout(120);
    limits.output_cap_bytes = 64u << 20;
    const ProcessResult ran = grading.sandbox.run(argv, view, grading.scratch,
                                                  grading.scratch / (argv[0] + "-" + info.name + ".log"), limits);
    if (!ran.succeeded()) throw std::runtime_error(argv[0] + " failed (" + ran.describe(120) + ")");
    return ran.output;
  };
  try {
    return check_objects(objects, run);
  } catch (const std::exception& error) {
    return {std::string("cannot read the symbols of the compiled student files: ") + error.what()};
  }
}

std::vector<std::string> rejected_sources(const StagedSubmission& staged, const AssignmentInfo& info) {
  std::vector<std::string> problems;
  if (!staged.taken.count(info.name)) return problems;
  for (const std::string& file : staged.taken.at(info.name)) {
    const auto found = check_source(staged.root / "assignments" / info.dir / file, info.name + "/" + file);
    problems.insert(problems.end(), found.begin(), found.end());
  }
  return problems;
}

}  // namespace rooflab
