// rooflab: the instructor's tool behind `lab release` and `lab grade`.
#include <CLI/CLI.hpp>

#include <chrono>
#include <ctime>
#include <iostream>

#include "contract.hpp"
#include "grade_command.hpp"
#include "release_command.hpp"
#include "rubric.hpp"

namespace {

// grades/<submission name>-<YYYYmmdd-HHMMSS>: a new folder per run by default.
std::filesystem::path default_out(const std::filesystem::path& submission) {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  std::string stem = std::filesystem::absolute(submission).lexically_normal().filename().stem().string();
  if (stem.empty()) stem = "submission";
  return std::filesystem::path("grades") / (stem + "-" + stamp);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"rooflab instructor tool: release the student template, grade submissions"};
  app.require_subcommand(1);

  rooflab::ReleaseOptions release;
  CLI::App* release_cmd = app.add_subcommand("release", "Regenerate assignments/ from solutions/");
  release_cmd->add_option("--solutions", release.solutions, "solutions/ folder")
      ->required()
      ->check(CLI::ExistingDirectory);
  release_cmd->add_option("--assignments", release.assignments, "assignments/ folder to write")->required();
  release_cmd
      ->add_option("--compile-commands", release.compile_commands,
                   "compile_commands.json of a solutions build: compile every stub before writing")
      ->check(CLI::ExistingFile);
  release_cmd->add_flag("--check", release.check, "Only check that assignments/ is current");

  rooflab::GradeOptions grade;
  CLI::App* grade_cmd = app.add_subcommand("grade", "Grade one submission");
  grade_cmd->add_option("submission", grade.submission, "folder, .zip or git repository")->required();
  grade_cmd->add_option("--manifest", grade.manifest, "rooflab_manifest.json of the reference build")
      ->required()
      ->check(CLI::ExistingFile);
  grade_cmd->add_option("--out", grade.out, "report folder (default: grades/<name>-<time>)");
  grade_cmd->add_flag("--force", grade.force, "Overwrite a report already in --out");
  grade_cmd->add_option("-j,--jobs", grade.jobs, "parallel test processes")->check(CLI::PositiveNumber);
  bool require_sandbox = false, no_sandbox = false;
  auto* require_flag =
      grade_cmd->add_flag("--require-sandbox", require_sandbox, "Refuse to grade where bubblewrap cannot run");
  grade_cmd->add_flag("--no-sandbox", no_sandbox, "Run student code with rlimits only (the report says so)")
      ->excludes(require_flag);
  grade_cmd->add_option("--assignment", grade.only, "grade only this assignment (repeatable; default: all)");
  grade_cmd
      ->add_option("--scratch-mb", grade.scratch_mb,
                   "cap on the grading's working folder: stage, build and logs (default 4096)")
      ->check(CLI::PositiveNumber);
  std::uint64_t seed = 0;
  auto* seed_option = grade_cmd->add_option("--seed", seed, "seed of the hidden tests' inputs (default: random)");

  rooflab::ContractOptions contract;
  CLI::App* contract_cmd =
      app.add_subcommand("contract", "Generate an assignment's RPC client and worker dispatch (the build runs it)");
  contract_cmd->add_option("--namespace", contract.name_space, "the assignment's namespace")->required();
  contract_cmd->add_option("--header", contract.header, "include path of its umbrella header")->required();
  contract_cmd->add_option("--nm", contract.nm, "nm executable");
  contract_cmd->add_option("--client", contract.client_out, "verdict-side source to write")->required();
  contract_cmd->add_option("--dispatch", contract.dispatch_out, "worker-side source to write")->required();
  contract_cmd->add_option("objects", contract.objects, "the reference's student object files")
      ->required()
      ->check(CLI::ExistingFile);

  CLI11_PARSE(app, argc, argv);

  try {
    if (*release_cmd) return rooflab::run_release(release);
    if (*contract_cmd) return rooflab::run_contract(contract);
    if (grade.out.empty()) grade.out = default_out(grade.submission);
    if (require_sandbox) grade.sandbox = rooflab::SandboxMode::required;
    if (no_sandbox) grade.sandbox = rooflab::SandboxMode::off;
    if (*seed_option) grade.seed = seed;
    const rooflab::GradeResult result = rooflab::run_grade(grade);
    rooflab::print_summary(result, std::cout);
    std::cout << "report: " << (grade.out / "report.md").string() << "\n";
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "rooflab: " << error.what() << "\n";
    return 2;
  }
}
