#include "release/export_student.hpp"

#include <algorithm>
#include <iostream>
#include <set>

#include <unistd.h>

#include "os/process.hpp"
#include "release/classroom_workflow.hpp"
#include "release/leak_check.hpp"
#include "release/student_readme.hpp"
#include "score/rubric.hpp"
#include "stage/manifest.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace fs = std::filesystem;
namespace {

// What the student repository takes, folder by folder. assignments/ is the
// released template (release --check keeps it current); tools/ only the
// commands that run on the student's own code (tools/CMakeLists.txt builds
// them alone under ROOFLAB_STUDENT_TOOLS).
// data/checkpoints: the small GPT-2 checkpoints `lab generate --weights` decodes.
const std::vector<std::string> kWholeFolders{"assignments",       "common",          "cmake",        "plots/figures",
                                             "tools/analyze",     "tools/bench",     "tools/models", "tools/decode",
                                             "tools/checkpoints", "data/checkpoints"};
const std::vector<std::string> kFiles{"CMakeLists.txt",
                                      "lab",
                                      ".clang-format",
                                      "tools/CMakeLists.txt",
                                      "tools/build_paths.cpp.in",
                                      "tools/cli/main.cpp",
                                      "tools/cli/commands.hpp",
                                      "tools/cli/analyze.cpp",
                                      "tools/cli/bench.cpp",
                                      "tools/cli/generate.cpp",
                                      "tools/cli/generate_text.cpp",
                                      "tools/cli/generate_text.hpp",
                                      "tools/cli/train.cpp",
                                      "tools/cli/tools_unavailable.cpp"};
// docs/: the chapters and how grading works; not the instructor's pages (the
// sandbox's threat model, teaching with the course, the benchmark log with its
// commits and grader timings: students get student/docs/benchmarks.md, how to
// measure their own code) or the tool that checks the docs' numbers.
const std::set<std::string> kInstructorDocs{"autograder_security.md", "teaching.md", "benchmarks.md"};

// student/ holds the files only the student repository has; each lands at the
// same path without the student/ prefix (student/README.md -> README.md).
const fs::path kStudentOnly = "student";

// The README's line that names the labs this repository is graded on.
const std::string kGradedLabsMarker = "<!-- graded labs: written by lab export-student -->";

std::string graded_labs_line(const std::vector<Rubric>& rubrics, bool all, bool feedback_only) {
  std::string labs;
  for (const Rubric& rubric : rubrics) labs += (labs.empty() ? "" : ", ") + ("`" + rubric.assignment + "`");
  std::string line = all ? "This repository is graded on every lab." : "This repository is graded on " + labs + ".";
  line += feedback_only ? " GitHub Classroom runs their public tests for feedback (worth 0 points there); "
                          "your instructor's grader gives the grade."
                        : " `./lab score` shows what GitHub Classroom's autograding gives it, without pushing.";
  return line;
}

// One commit holding the whole repository, ready to push as Classroom's template.
int initialise_git(const fs::path& out) {
  const std::vector<std::vector<std::string>> steps{
      {"git", "init", "--quiet", "--initial-branch=main"},
      {"git", "add", "--all"},
      {"git", "-c", "user.name=rooflab", "-c", "user.email=rooflab@localhost", "commit", "--quiet", "-m",
       "The course's student repository (lab export-student)"}};
  ProcessLimits limits;
  limits.timeout_s = 120;
  const fs::path log = fs::temp_directory_path() / ("rooflab-export-git-" + std::to_string(::getpid()) + ".log");
  for (const auto& argv : steps) {
    const ProcessResult result = run_process(argv, out, log, limits);
    if (!result.succeeded()) {
      std::cerr << "export-student: --git: `" << argv[0] << " " << argv[1] << "` in " << out.string()
                << " failed: " << result.describe(limits.timeout_s) << "\n"
                << result.output << "\n(the files are written; the folder is not a complete repository)\n";
      fs::remove(log);
      return 1;
    }
  }
  fs::remove(log);
  return 0;
}

}  // namespace

std::vector<fs::path> student_files(const fs::path& root) {
  std::vector<fs::path> files;
  for (const std::string& folder : kWholeFolders) {
    if (!fs::is_directory(root / folder)) throw std::runtime_error((root / folder).string() + ": missing folder");
    for (const auto& entry : fs::recursive_directory_iterator(root / folder)) {
      if (entry.is_regular_file()) files.push_back(entry.path().lexically_relative(root));
    }
  }
  for (const auto& entry : fs::directory_iterator(root / "docs")) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && entry.path().extension() == ".md" && !kInstructorDocs.count(name))
      files.push_back(fs::path("docs") / name);
  }
  // The reference kernels' rows that `lab profile` shows beside a student's,
  // and the GPU model's record against what GPUs measured, which it prints.
  for (const auto& entry : fs::directory_iterator(root / "plots" / "data")) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() &&
        ((name.size() > 12 && name.substr(name.size() - 12) == "_kernels.csv") || name == "gpu_model_calibration.csv"))
      files.push_back(fs::path("plots") / "data" / name);
  }
  for (const std::string& file : kFiles) files.emplace_back(file);
  std::sort(files.begin(), files.end());
  return files;
}

int export_student(const ExportStudentOptions& options) {
  const fs::path& out = options.destination;
  if (fs::exists(out) && !(fs::is_directory(out) && fs::is_empty(out))) {
    std::cerr << "export-student: " << out.string()
              << " exists and is not an empty folder; choose a new one (nothing was written)\n";
    return 2;
  }
  // A repository for some labs holds those labs alone (and builds only them).
  const auto exported = [&](const fs::path& file) {
    const auto part = file.begin();
    if (options.assignments.empty() || part == file.end() || *part != "assignments" || std::next(part) == file.end() ||
        std::next(std::next(part)) == file.end())
      return true;
    return std::count(options.assignments.begin(), options.assignments.end(), std::next(part)->string()) > 0;
  };
  std::vector<std::pair<fs::path, fs::path>> copies;  // from, to (relative to out)
  try {
    for (const fs::path& file : student_files(options.root))
      if (exported(file)) copies.emplace_back(options.root / file, file);
  } catch (const std::exception& error) {
    std::cerr << "export-student: " << error.what() << "\n";
    return 2;
  }
  const fs::path extras = options.root / kStudentOnly;
  for (const auto& entry : fs::recursive_directory_iterator(extras)) {
    if (entry.is_regular_file()) copies.emplace_back(entry.path(), entry.path().lexically_relative(extras));
  }

  // Generated: GitHub Classroom's workflow, from the graded labs' rubrics.
  std::vector<Rubric> rubrics;
  std::vector<release::ReadmeLab> readme_labs;  // the exported labs, in the course's order
  try {
    std::set<std::string> known;
    for (const AssignmentInfo& info : Manifest::load(options.manifest).assignments) {
      known.insert(info.name);
      const bool graded = options.assignments.empty() ||
                          std::count(options.assignments.begin(), options.assignments.end(), info.name) > 0;
      if (graded && !info.rubric.empty()) rubrics.push_back(Rubric::load(info.rubric));
      if (graded) {
        const fs::path examples = options.root / "assignments" / info.dir / "examples";
        readme_labs.push_back({info.name, fs::is_directory(examples) && !fs::is_empty(examples), info.has_profile});
      }
    }
    for (const std::string& name : options.assignments) {
      if (!known.count(name)) {
        std::string list;
        for (const std::string& lab : known) list += (list.empty() ? "" : ", ") + lab;
        std::cerr << "export-student: --assignment " << text::untrusted_line(name, 80)
                  << ": no such lab (one of: " << list << "; nothing was written)\n";
        return 2;
      }
    }
  } catch (const std::exception& error) {
    std::cerr << "export-student: " << error.what() << " (nothing was written)\n";
    return 2;
  }
  const fs::path workflow_path = ".github/workflows/classroom.yml";
  const std::string workflow = release::classroom_workflow(rubrics, {.feedback_only = options.feedback_only});

  // Nothing that repeats a solution, checked before anything is written.
  const auto solution = release::solution_lines(options.root / "solutions");
  std::vector<std::string> leaks = release::leaks_in(workflow_path.string(), workflow, solution);
  for (const auto& [from, to] : copies) {
    if (from.extension() == ".png") continue;  // figures: not text
    for (std::string& leak : release::leaks_in(to.string(), text::read_file(from), solution)) leaks.push_back(leak);
  }
  if (!leaks.empty()) {
    std::cerr << "export-student: " << leaks.size() << " line(s) would give a solution away (nothing was written):\n";
    for (const std::string& leak : leaks) std::cerr << "  " << leak << "\n";
    return 1;
  }

  for (const auto& [from, to] : copies) {
    fs::create_directories((out / to).parent_path());
    fs::copy_file(from, out / to, fs::copy_options::overwrite_existing);
    fs::permissions(out / to, fs::status(from).permissions());  // lab stays executable
  }
  text::write_file(out / workflow_path, workflow);
  const fs::path readme = out / "README.md";
  if (fs::exists(readme)) {
    std::string text = text::read_file(readme);
    const std::size_t marker = text.find(kGradedLabsMarker);
    if (marker != std::string::npos) {
      text.replace(marker, kGradedLabsMarker.size(),
                   graded_labs_line(rubrics, options.assignments.empty(), options.feedback_only));
    }
    if (!options.assignments.empty() && !readme_labs.empty()) text = release::readme_for_labs(text, readme_labs);
    text::write_file(readme, text);
  }
  if (options.git && initialise_git(out) != 0) return 1;
  std::cout << "export-student: wrote " << copies.size() + 1 << " files to " << out.string()
            << (options.git ? ", a git repository with one commit (push it as the Classroom template)" : "")
            << " (a student repository: ./lab build && ./lab test there)\n";
  return 0;
}

}  // namespace rooflab
