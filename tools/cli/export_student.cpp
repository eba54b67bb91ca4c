// `rooflab export-student DIR`: write the student repository (GitHub Classroom
// template) from this one; autograder/src/release/export_student.cpp says what
// it holds.
#include <iostream>

#include "commands.hpp"
#include "release/export_student.hpp"
#include "release/release_command.hpp"

namespace rooflab::cli {

void add_export_student(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ExportStudentOptions>();
  CLI::App* command = app.add_subcommand(
      "export-student", "Write the student repository (assignments/ stubs, common/, docs, tools, README) to DIR");
  command->add_option("DIR", options->destination, "a folder that does not exist yet, or an empty one")->required();
  command->add_option("--assignment", options->assignments,
                      "grade only these labs in the repository's Classroom workflow (repeatable; default: every "
                      "lab), for one Classroom assignment per lab");
  command->add_flag("--feedback-only", options->feedback_only,
                    "Classroom's graders are worth 0 points: feedback, while the course's grader gives the grade");
  command->add_flag("--git", options->git,
                    "make DIR a git repository with one commit (branch main), ready to push as the template");
  command->callback([options, &exit_code] {
    // The template is assignments/ as released: refuse a stale one rather than
    // hand students stubs that no longer match the solutions.
    ReleaseOptions check;
    check.solutions = kSourceDir / "solutions";
    check.assignments = kSourceDir / "assignments";
    check.check = true;
    if (run_release(check) != 0) {
      std::cerr << "export-student: assignments/ is stale; run ./lab release first (nothing was written)\n";
      exit_code = 2;
      return;
    }
    options->root = kSourceDir;
    options->manifest = kBinaryDir / "rooflab_manifest.json";
    exit_code = export_student(*options);
  });
}

}  // namespace rooflab::cli
