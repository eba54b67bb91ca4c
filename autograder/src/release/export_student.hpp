// `rooflab export-student DIR`: the student repository (a GitHub Classroom
// template). It holds what a student builds, tests and reads, and nothing of
// the instructor's: no solutions/, no autograder/, no example submissions.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace rooflab {

struct ExportStudentOptions {
  std::filesystem::path root;         // the instructor's repository
  std::filesystem::path manifest;     // the reference build's rooflab_manifest.json: the labs and their rubrics
  std::filesystem::path destination;  // a folder that does not exist yet, or an empty one
  // --assignment: the labs this repository is for (GitHub Classroom gives
  // one repository per assignment). Empty: every lab. It holds and builds
  // these labs alone (the course's tools, which run other labs, then say so),
  // the workflow grades them, and the README starts with the first of them.
  std::vector<std::string> assignments;
  bool feedback_only = false;  // the workflow's graders are worth 0 (classroom_workflow.hpp)
  bool git = false;            // --git: a git repository with one commit, ready to push as the template
};

// The repository-relative paths the student repository takes from `root`, in
// order, each a file (folders are listed file by file). The student-only files
// (student/: README, presets, .gitignore, workflow) are not among them.
std::vector<std::filesystem::path> student_files(const std::filesystem::path& root);

// Writes the student repository, with .github/workflows/classroom.yml generated
// from the rubrics (classroom_workflow.hpp); returns the process exit code,
// printing what it wrote or what is wrong. Nothing is written when a file would
// repeat a line of a solution region (leak_check.hpp: each is named), and an
// existing non-empty destination is never touched.
int export_student(const ExportStudentOptions& options);

}  // namespace rooflab
