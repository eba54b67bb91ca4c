#include "submission.hpp"

#include <algorithm>
#include <set>
#include <sstream>
#include <stdexcept>

#include "process.hpp"
#include "text.hpp"

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

void check_zip_listing(const fs::path& zip, const fs::path& scratch, const Sandbox& sandbox) {
  SandboxView view;
  view.read_only = {fs::absolute(zip).parent_path()};
  const ProcessResult listing = sandbox.run({"unzip", "-l", fs::absolute(zip).string()}, view, scratch,
                                            scratch / "unzip-list.log", ProcessLimits::timeout(60));
  if (!listing.succeeded())
    throw std::runtime_error("cannot read " + zip.string() + " as a zip (" + listing.describe(60) + "):\n" +
                             listing.output);
  // Rows between the two dashed lines: "  Length  Date  Time  Name".
  std::uintmax_t total = 0;
  std::size_t entries = 0;
  int dashes = 0;
  for (const std::string& line : text::split_lines(listing.output)) {
    if (text::starts_with(text::trim(line), "---")) {
      ++dashes;
      continue;
    }
    if (dashes != 1) continue;
    std::istringstream row(line);
    std::uintmax_t length = 0;
    std::string date, time;
    row >> length >> date >> time;
    std::string name;
    std::getline(row, name);
    name = text::trim(name);
    const fs::path entry(name);
    const std::string where = zip.string() + ": entry \"" + name + "\"";
    if (entry.is_absolute()) throw std::runtime_error(where + " has an absolute path; refusing the zip");
    for (const auto& part : entry)
      if (part == "..") throw std::runtime_error(where + " climbs out with \"..\"; refusing the zip");
    if (length > kMaxUnpackedFileBytes)
      throw std::runtime_error(where + " unpacks to " + std::to_string(length) + " bytes, over the " +
                               std::to_string(kMaxUnpackedFileBytes) + "-byte cap; refusing the zip");
    total += length;
    if (++entries > kMaxZipEntries)
      throw std::runtime_error(zip.string() + " has more than " + std::to_string(kMaxZipEntries) +
                               " entries; refusing the zip");
  }
  if (total > kMaxUnpackedTotalBytes)
    throw std::runtime_error(zip.string() + " unpacks to " + std::to_string(total) + " bytes, over the " +
                             std::to_string(kMaxUnpackedTotalBytes) + "-byte cap (a zip bomb?); refusing the zip");
}

std::uintmax_t tree_bytes(const fs::path& dir) {
  std::uintmax_t total = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file()) total += entry.file_size();
  return total;
}

// Why a student file cannot be taken, or "" when it can: it must be a regular
// file, inside the submission with no symlink on the way, and small.
std::string refusal(const fs::path& root, const fs::path& file) {
  const fs::path relative = file.lexically_relative(root);
  fs::path walk = root;
  for (const auto& part : relative) {
    walk /= part;
    if (fs::is_symlink(walk))
      return "is reached through a symlink (" + walk.lexically_relative(root).string() + " -> " +
             fs::read_symlink(walk).string() + "); submit the file itself";
  }
  if (!fs::is_regular_file(file)) return "is not a regular file";
  const std::string canonical_root = fs::canonical(root).string() + "/";
  if (!text::starts_with(fs::canonical(file).string(), canonical_root)) return "lies outside the submission";
  if (fs::file_size(file) > kMaxStudentFileBytes)
    return "is " + std::to_string(fs::file_size(file)) + " bytes, over the " + std::to_string(kMaxStudentFileBytes) +
           "-byte cap for a source file";
  return "";
}

// The sandboxed user (nobody, when grading as root) must read the stage.
void make_readable(const fs::path& dir) {
  const auto readable = fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read;
  const auto searchable = fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec;
  fs::permissions(dir, readable | searchable, fs::perm_options::add);
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_symlink()) continue;
    fs::permissions(entry.path(), entry.is_directory() ? readable | searchable : readable, fs::perm_options::add);
  }
}

}  // namespace

fs::path unpack_submission(const fs::path& submission, const fs::path& scratch, const Sandbox& sandbox) {
  if (!fs::exists(submission)) throw std::runtime_error("submission " + submission.string() + " does not exist");
  const fs::path into = scratch / "submission";
  fs::remove_all(into);
  sandbox.hand_over(into);
  SandboxView view;
  view.read_only = {fs::absolute(submission).parent_path()};
  view.writable = {into};
  if (fs::is_regular_file(submission)) {
    if (submission.extension() != ".zip")
      throw std::runtime_error("submission " + submission.string() + " is a file but not a .zip");
    check_zip_listing(submission, scratch, sandbox);
    // The listing's sizes can lie: unzip also runs under a file-size limit.
    ProcessLimits limits = ProcessLimits::timeout(120);
    limits.file_size_bytes = kMaxUnpackedFileBytes;
    const ProcessResult unzip =
        sandbox.run({"unzip", "-qq", "-o", fs::absolute(submission).string(), "-d", into.string()}, view, scratch,
                    scratch / "unzip.log", limits);
    if (!unzip.succeeded())
      throw std::runtime_error("cannot unpack " + submission.string() + " (" + unzip.describe(120) + "):\n" +
                               unzip.output);
    if (tree_bytes(into) > kMaxUnpackedTotalBytes)
      throw std::runtime_error(submission.string() + " unpacked to more than " +
                               std::to_string(kMaxUnpackedTotalBytes) + " bytes; refusing it");
    return single_child_folder(into);
  }
  if (is_git_repository(submission)) {
    view.read_only = {fs::absolute(submission)};
    ProcessLimits limits = ProcessLimits::timeout(300);
    limits.file_size_bytes = kMaxUnpackedFileBytes;
    const ProcessResult clone = sandbox.run({"git", "-c", "safe.directory=*", "clone", "--quiet", "--depth", "1",
                                             "file://" + fs::absolute(submission).string(), (into / "repo").string()},
                                            view, scratch, scratch / "clone.log", limits);
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

  // The course's compiled objects, the worker's half of the contract among
  // them; hidden tests stay out of the stage.
  if (!fs::exists(manifest.grading_kit()))
    throw std::runtime_error(manifest.grading_kit().string() + " is missing: build the reference first (./lab build)");
  copy_tree(manifest.grading_kit(), stage / "kit");

  std::set<fs::path> used;
  for (const AssignmentInfo& assignment : manifest.assignments) {
    const auto found = find_assignment(files, assignment.name);
    for (const std::string& file : assignment.student_files) {
      const fs::path from = found ? *found / file : fs::path();
      if (!found || !(fs::exists(from) || fs::is_symlink(from))) {
        staged.missing[assignment.name].push_back(file);
        continue;
      }
      used.insert(from.lexically_normal());
      const std::string why = refusal(files, from);
      if (!why.empty()) {
        staged.rejected[assignment.name].push_back(file + " " + why);
        continue;
      }
      fs::copy_file(from, stage / "assignments" / assignment.dir / file, fs::copy_options::overwrite_existing);
      staged.taken[assignment.name].push_back(file);
    }
  }

  for (auto it = fs::recursive_directory_iterator(files); it != fs::recursive_directory_iterator(); ++it) {
    if (it->path().filename() == ".git") {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_directory() && !it->is_symlink()) continue;
    if (!used.count(it->path().lexically_normal()))
      staged.ignored.push_back(it->path().lexically_relative(files).string());
  }
  std::sort(staged.ignored.begin(), staged.ignored.end());
  make_readable(stage);
  return staged;
}

}  // namespace rooflab
