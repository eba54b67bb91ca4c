#include "submission.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "process.hpp"

namespace rooflab {
namespace fs = std::filesystem;
namespace {

bool is_git_repository(const fs::path& path) {
  return path.extension() == ".git" || (fs::exists(path / "HEAD") && fs::is_directory(path / "objects"));
}

// A zip or clone that holds a single folder is that folder.
fs::path single_child_folder(const fs::path& dir) {
  fs::path only;
  int count = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().filename() == "__MACOSX") continue;
    only = entry.path();
    ++count;
  }
  return count == 1 && fs::is_directory(only) ? only : dir;
}

// Where assignment `name` lives in the submission: <root>/assignments/<name>,
// <root>/<name>, or <root> itself when the student handed in one assignment folder.
std::optional<fs::path> find_assignment(const fs::path& root, const std::string& name) {
  for (const fs::path& candidate : {root / "assignments" / name, root / name}) {
    if (fs::is_directory(candidate)) return candidate;
  }
  if (root.filename() == name) return root;
  return std::nullopt;
}

void copy_tree(const fs::path& from, const fs::path& to) {
  fs::create_directories(to);
  fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
}

}  // namespace

fs::path unpack_submission(const fs::path& submission, const fs::path& scratch) {
  if (!fs::exists(submission)) throw std::runtime_error("submission " + submission.string() + " does not exist");
  const fs::path into = scratch / "submission";
  fs::remove_all(into);
  fs::create_directories(into);
  if (fs::is_regular_file(submission)) {
    if (submission.extension() != ".zip")
      throw std::runtime_error("submission " + submission.string() + " is a file but not a .zip");
    const ProcessResult unzip =
        run_process({"unzip", "-qq", "-o", fs::absolute(submission).string(), "-d", into.string()}, scratch,
                    scratch / "unzip.log", ProcessLimits::timeout(120));
    if (!unzip.succeeded())
      throw std::runtime_error("cannot unpack " + submission.string() + " (" + unzip.describe(120) + "):\n" +
                               unzip.output);
    return single_child_folder(into);
  }
  if (is_git_repository(submission)) {
    const ProcessResult clone = run_process({"git", "clone", "--quiet", "--depth", "1",
                                             "file://" + fs::absolute(submission).string(), (into / "repo").string()},
                                            scratch, scratch / "clone.log", ProcessLimits::timeout(300));
    if (!clone.succeeded())
      throw std::runtime_error("cannot clone " + submission.string() + " (" + clone.describe(300) + "):\n" +
                               clone.output);
    return into / "repo";
  }
  return fs::absolute(submission);
}

StagedSubmission stage_submission(const Manifest& manifest, const fs::path& files, const fs::path& stage) {
  StagedSubmission staged;
  staged.root = stage;
  fs::remove_all(stage);
  fs::create_directories(stage);
  const fs::path& source = manifest.source_dir;
  fs::copy_file(source / "CMakeLists.txt", stage / "CMakeLists.txt");
  copy_tree(source / "cmake", stage / "cmake");
  copy_tree(source / "common", stage / "common");
  // The student template, not solutions/: every non-student file is the course's own.
  copy_tree(source / "assignments", stage / "assignments");

  std::set<fs::path> used;
  for (const AssignmentInfo& assignment : manifest.assignments) {
    if (assignment.has_hidden_tests) {
      copy_tree(source / "autograder" / assignment.name / "tests", stage / "autograder" / assignment.name / "tests");
    }
    const auto found = find_assignment(files, assignment.name);
    for (const std::string& file : assignment.student_files) {
      const fs::path from = found ? *found / file : fs::path();
      if (found && fs::is_regular_file(from)) {
        fs::copy_file(from, stage / "assignments" / assignment.dir / file, fs::copy_options::overwrite_existing);
        staged.taken[assignment.name].push_back(file);
        used.insert(fs::weakly_canonical(from));
      } else {
        staged.missing[assignment.name].push_back(file);
      }
    }
  }

  for (auto it = fs::recursive_directory_iterator(files); it != fs::recursive_directory_iterator(); ++it) {
    if (it->path().filename() == ".git") {
      it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file()) continue;
    if (!used.count(fs::weakly_canonical(it->path())))
      staged.ignored.push_back(it->path().lexically_relative(files).string());
  }
  std::sort(staged.ignored.begin(), staged.ignored.end());
  return staged;
}

}  // namespace rooflab
