// `rooflab export-student DIR`: write the student repository (GitHub Classroom
// template) from this one; autograder/src/release/export_student.cpp says what
// it holds.
#include <iostream>

#include "commands.hpp"
#include "release/export_student.hpp"
#include "release/release_command.hpp"

namespace rooflab::cli {

void add_export_student(CLI::App& app, int& exit_code) {
  auto destination = std::make_shared<std::filesystem::path>();
  CLI::App* command = app.add_subcommand(
      "export-student", "Write the student repository (assignments/ stubs, common/, docs, tools, README) to DIR");
  command->add_option("DIR", *destination, "a folder that does not exist yet, or an empty one")->required();
  command->callback([destination, &exit_code] {
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
    exit_code = export_student({kSourceDir, kBinaryDir / "rooflab_manifest.json", *destination});
  });
}

}  // namespace rooflab::cli
