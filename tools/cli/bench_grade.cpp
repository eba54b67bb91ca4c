// `rooflab bench grade`: the grader's own cost per submission (reference
// build only: it grades the reference solutions).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "pipeline/grade_command.hpp"

namespace rooflab::cli {
namespace {

struct GradeBench {
  int rounds = 3, jobs = 2;
  std::vector<std::string> assignments{"a01_roofline"};
};

// Grades the reference solutions `rounds` times (seed 1) and prints each time
// and the median: the grader's own cost per submission.
int bench_grade(const GradeBench& bench) {
  const std::filesystem::path scratch =
      std::filesystem::temp_directory_path() / ("rooflab-bench-grade-" + std::to_string(::getpid()));
  std::vector<double> seconds;
  for (int round = 1; round <= bench.rounds; ++round) {
    GradeOptions options;
    options.submission = kSourceDir / "solutions";
    options.manifest = kBinaryDir / "rooflab_manifest.json";
    options.out = scratch / ("report-" + std::to_string(round));
    options.jobs = bench.jobs;
    options.seed = 1;
    options.only = bench.assignments;
    const auto start = std::chrono::steady_clock::now();
    const GradeResult result = run_grade(options);
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    std::cout << "  round " << round << ": " << seconds.back() << " s, score " << result.score() << " / "
              << result.max_score() << std::endl;
  }
  std::filesystem::remove_all(scratch);
  std::sort(seconds.begin(), seconds.end());
  std::cout << "median of " << bench.rounds << ": " << seconds[seconds.size() / 2] << " s to grade the solutions of";
  for (const std::string& name : bench.assignments) std::cout << " " << name;
  std::cout << " with -j " << bench.jobs << "\n";
  return 0;
}

}  // namespace

void add_bench_grade(CLI::App& bench, int& exit_code) {
  auto grade = std::make_shared<GradeBench>();
  CLI::App* grade_cmd = bench.add_subcommand("grade", "time grading the reference solutions, round by round");
  grade_cmd->add_option("--rounds", grade->rounds, "gradings to time (default 3)")->check(CLI::PositiveNumber);
  grade_cmd->add_option("-j,--jobs", grade->jobs, "parallel test processes")->check(CLI::PositiveNumber);
  grade_cmd->add_option("--assignment", grade->assignments, "assignments to grade (default: a01_roofline)");
  grade_cmd->callback([grade, &exit_code] {
    std::cout << machine_line() << std::endl;
    exit_code = bench_grade(*grade);
  });
}

}  // namespace rooflab::cli
