#include "stage/submission.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <sstream>
#include <stdexcept>

#include "os/process.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace fs = std::filesystem;
namespace {

// What a path in the submission is, without following a symbolic link at its
// end. Everything staging asks of submitted paths goes through here or through
// a non-throwing iterator: a looping link, a folder it may not read or a name
// the kernel refuses becomes a refused entry, never an exception.
enum class Kind { missing, regular, directory, symlink, other, unreadable };

struct Entry {
  Kind kind = Kind::missing;
  std::uintmax_t size = 0;
  std::string error;  // why it could not be read, for Kind::unreadable
};

Entry inspect(const fs::path& path) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return {};
    return {Kind::unreadable, 0, std::strerror(errno)};
  }
  if (S_ISLNK(info.st_mode)) return {Kind::symlink, 0, ""};
  if (S_ISDIR(info.st_mode)) return {Kind::directory, 0, ""};
  if (S_ISREG(info.st_mode)) return {Kind::regular, static_cast<std::uintmax_t>(info.st_size), ""};
  return {Kind::other, 0, ""};
}

std::string link_target(const fs::path& link) {
  std::error_code error;
  const fs::path target = fs::read_symlink(link, error);
  return error ? "?" : target.string();
}

bool is_git_repository(const fs::path& path) {
  return path.extension() == ".git" ||
         (inspect(path / "HEAD").kind == Kind::regular && inspect(path / "objects").kind == Kind::directory);
}

// A zip or clone that holds a single folder is that folder.
fs::path single_child_folder(const fs::path& dir) {
  fs::path only;
  int count = 0;
  std::error_code error;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    if (it->path().filename() == "__MACOSX") continue;
    only = it->path();
    ++count;
  }
  return count == 1 && inspect(only).kind == Kind::directory ? only : dir;
}

// Where assignment `name` lives in the submission: <root>/assignments/<name>,
// <root>/<name>, or <root> itself when the student handed in one assignment
// folder. A symlinked folder is found too, so that its files are refused by name.
std::optional<fs::path> find_assignment(const fs::path& root, const std::string& name) {
  for (const fs::path& candidate : {root / "assignments" / name, root / name}) {
    const Kind kind = inspect(candidate).kind;
    if (kind == Kind::directory || kind == Kind::symlink) return candidate;
  }
  if (root.filename() == name) return root;
  return std::nullopt;
}

void copy_tree(const fs::path& from, const fs::path& to) {
  fs::create_directories(to);
  fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
}

// The zip's entries as `unzip -l` lists them, refused (naming the entry) for
// absolute paths, "..", too many entries or sizes over the caps.
void check_zip_listing(const fs::path& zip, const std::string& listing) {
  // Rows between the two dashed lines: "  Length  Date  Time  Name".
  std::uintmax_t total = 0;
  std::size_t entries = 0;
  int dashes = 0;
  for (const std::string& line : text::split_lines(listing)) {
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
    const std::string where = zip.string() + ": entry \"" + text::untrusted_line(name, 200) + "\"";
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

// The names of the zip's symbolic links, from zipinfo's rows
// ("lrwxrwxrwx  3.0 unx  7 bx stor 26-Nov-22 22:56 name"): they are not
// unpacked, so that no link (a loop, or one that points out) reaches the disk.
std::vector<std::string> zip_symlinks(const std::string& zipinfo) {
  std::vector<std::string> links;
  for (const std::string& line : text::split_lines(zipinfo)) {
    std::istringstream row(line);
    std::string mode, field;
    row >> mode;
    if (mode.size() != 10 || mode[0] != 'l') continue;
    for (int i = 0; i < 7 && row >> field; ++i) {
    }
    std::string name;
    std::getline(row, name);
    name = text::trim(name);
    if (!name.empty()) links.push_back(name);
  }
  return links;
}

// The bytes of the regular files under `dir`, never following a link.
std::uintmax_t tree_bytes(const fs::path& dir) {
  std::uintmax_t total = 0;
  std::error_code error;
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, error), end;
       !error && it != end; it.increment(error)) {
    const Entry entry = inspect(it->path());
    if (entry.kind == Kind::regular) total += entry.size;
  }
  return total;
}

// Why a student file cannot be taken, or "" when it can: it must be a regular
// file below `root` with no symlink on the way, and small. The path below root
// comes from the manifest, so it holds no "..".
std::string refusal(const fs::path& root, const fs::path& file) {
  const fs::path relative = file.lexically_relative(root);
  fs::path walk = root;
  for (const auto& part : relative) {
    walk /= part;
    const Entry entry = inspect(walk);
    if (entry.kind == Kind::symlink)
      return "is reached through a symlink (" + walk.lexically_relative(root).string() + " -> " + link_target(walk) +
             "); submit the file itself";
    if (entry.kind == Kind::unreadable) return "cannot be read (" + entry.error + ")";
  }
  const Entry entry = inspect(file);
  if (entry.kind != Kind::regular) return "is not a regular file";
  if (entry.size > kMaxStudentFileBytes)
    return "is " + std::to_string(entry.size) + " bytes, over the " + std::to_string(kMaxStudentFileBytes) +
           "-byte cap for a source file";
  return "";
}

// Every entry of the submission the grader did not use, never following a
// link; what cannot be read or listed goes to `unreadable`.
void list_unused(const fs::path& files, const std::set<fs::path>& used, StagedSubmission& staged) {
  std::error_code error;
  std::size_t visited = 0;
  fs::recursive_directory_iterator it(files, fs::directory_options::skip_permission_denied, error);
  for (const fs::recursive_directory_iterator end; !error && it != end; it.increment(error)) {
    if (++visited > kMaxListedEntries) {
      staged.unreadable.push_back("the submission has more than " + std::to_string(kMaxListedEntries) +
                                  " entries: only the first were listed");
      return;
    }
    const fs::path& path = it->path();
    const std::string shown = path.lexically_relative(files).string();
    const Entry entry = inspect(path);
    if (path.filename() == ".git" || entry.kind == Kind::symlink) it.disable_recursion_pending();
    if (path.filename() == ".git" || entry.kind == Kind::directory) continue;
    if (entry.kind == Kind::unreadable) {
      staged.unreadable.push_back(shown + ": " + entry.error);
      continue;
    }
    if (!used.count(path.lexically_normal())) staged.ignored.push_back(shown);
  }
  if (error) {
    const fs::path where = it == fs::recursive_directory_iterator() ? files : it->path();
    staged.unreadable.push_back(where.lexically_relative(files).string() + ": cannot be listed (" + error.message() +
                                ")");
  }
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

fs::path unpack_zip(const fs::path& submission, const fs::path& into, const fs::path& scratch, const Sandbox& sandbox,
                    std::vector<std::string>& refused) {
  SandboxView view;
  view.read_only = {fs::absolute(submission).parent_path()};
  view.writable = {into};
  const std::string zip = fs::absolute(submission).string();
  const ProcessResult listing =
      sandbox.run({"unzip", "-l", zip}, view, scratch, scratch / "unzip-list.log", ProcessLimits::timeout(60));
  if (!listing.succeeded())
    throw std::runtime_error("cannot read " + submission.string() + " as a zip (" + listing.describe(60) + "):\n" +
                             text::untrusted(listing.output, 2000));
  check_zip_listing(submission, listing.output);
  const ProcessResult info =
      sandbox.run({"unzip", "-Z", zip}, view, scratch, scratch / "zipinfo.log", ProcessLimits::timeout(60));
  const std::vector<std::string> links = info.succeeded() ? zip_symlinks(info.output) : std::vector<std::string>{};
  for (const auto& link : links)
    refused.push_back("zip entry \"" + link + "\" is a symbolic link: not unpacked (submit files, not links)");

  // The listing's sizes can lie: unzip also runs under a file-size limit.
  ProcessLimits limits = ProcessLimits::timeout(120);
  limits.file_size_bytes = kMaxUnpackedFileBytes;
  std::vector<std::string> argv{"unzip", "-qq", "-o", zip, "-d", into.string()};
  if (!links.empty()) {
    argv.push_back("-x");
    argv.insert(argv.end(), links.begin(), links.end());
  }
  const ProcessResult unzip = sandbox.run(argv, view, scratch, scratch / "unzip.log", limits);
  if (!unzip.succeeded())
    throw std::runtime_error("cannot unpack " + submission.string() + " (" + unzip.describe(120) + "):\n" +
                             text::untrusted(unzip.output, 2000));
  if (tree_bytes(into) > kMaxUnpackedTotalBytes)
    throw std::runtime_error(submission.string() + " unpacked to more than " + std::to_string(kMaxUnpackedTotalBytes) +
                             " bytes; refusing it");
  return single_child_folder(into);
}

}  // namespace

UnpackedSubmission unpack_submission(const fs::path& submission, const fs::path& scratch, const Sandbox& sandbox) {
  std::error_code error;
  const fs::file_status status = fs::status(submission, error);  // the instructor's path may be a link
  if (status.type() == fs::file_type::not_found)
    throw std::runtime_error("submission " + submission.string() + " does not exist");
  if (error)
    throw std::runtime_error("submission " + submission.string() + " cannot be read (" + error.message() + ")");
  const fs::path into = scratch / "submission";
  fs::remove_all(into);
  sandbox.hand_over(into);
  UnpackedSubmission unpacked;
  if (fs::is_regular_file(status)) {
    if (submission.extension() != ".zip")
      throw std::runtime_error("submission " + submission.string() + " is a file but not a .zip");
    unpacked.files = unpack_zip(submission, into, scratch, sandbox, unpacked.refused);
    return unpacked;
  }
  if (is_git_repository(submission)) {
    SandboxView view;
    view.read_only = {fs::absolute(submission)};
    view.writable = {into};
    ProcessLimits limits = ProcessLimits::timeout(300);
    limits.file_size_bytes = kMaxUnpackedFileBytes;
    const ProcessResult clone = sandbox.run({"git", "-c", "safe.directory=*", "clone", "--quiet", "--depth", "1",
                                             "file://" + fs::absolute(submission).string(), (into / "repo").string()},
                                            view, scratch, scratch / "clone.log", limits);
    if (!clone.succeeded())
      throw std::runtime_error("cannot clone " + submission.string() + " (" + clone.describe(300) + "):\n" +
                               text::untrusted(clone.output, 2000));
    unpacked.files = into / "repo";
    return unpacked;
  }
  unpacked.files = fs::absolute(submission);
  return unpacked;
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
  copy_tree(source / "autograder" / "rpc", stage / "autograder" / "rpc");  // the worker's side of the calls
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
      if (!found || inspect(from).kind == Kind::missing) {
        staged.missing[assignment.name].push_back(file);
        continue;
      }
      used.insert(from.lexically_normal());
      std::string why = refusal(files, from);
      if (why.empty()) {
        std::error_code error;
        fs::copy_file(from, stage / "assignments" / assignment.dir / file, fs::copy_options::overwrite_existing, error);
        if (error) why = "cannot be read (" + error.message() + ")";
      }
      if (!why.empty()) {
        staged.rejected[assignment.name].push_back(file + " " + why);
        continue;
      }
      staged.taken[assignment.name].push_back(file);
    }
  }
  list_unused(files, used, staged);
  std::sort(staged.ignored.begin(), staged.ignored.end());
  make_readable(stage);
  return staged;
}

}  // namespace rooflab
