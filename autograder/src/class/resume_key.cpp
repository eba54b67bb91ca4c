#include "class/resume_key.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <vector>

#include "class/graded_assignments.hpp"
#include "class/roster.hpp"
#include "os/process.hpp"
#include "stage/manifest.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace fs = std::filesystem;
namespace {

// 64-bit FNV-1a: a stable content hash (std::hash may differ between builds).
struct Fnv {
  std::uint64_t value = 1469598103934665603ull;
  void add(const std::string& bytes) {
    for (const unsigned char c : bytes) value = (value ^ c) * 1099511628211ull;
    value = (value ^ 0xff) * 1099511628211ull;  // a separator, so "ab"+"c" differs from "a"+"bc"
  }
  // A file's bytes, not its path (the same grader copied elsewhere is the
  // same grader); one that cannot be read counts as absent (it is graded
  // around, or fails the grading: either way not "unchanged").
  void add_file(const fs::path& path) {
    try {
      add(text::read_file(path));
    } catch (const std::exception&) {
      add("absent");
    }
  }
  std::string hex() const {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
    return text;
  }
};

}  // namespace

std::string submission_hash(const std::string& submission) {
  Fnv hash;
  if (is_git_url(submission)) {
    // grade-all's workers hash submissions at once: each call has a log of its own.
    static std::atomic<unsigned> calls{0};
    const fs::path scratch = fs::temp_directory_path() / ("rooflab-ls-remote-" + std::to_string(::getpid()) + "-" +
                                                          std::to_string(calls++) + ".log");
    const ProcessResult result = run_process({"git", "ls-remote", submission, "HEAD"}, fs::temp_directory_path(),
                                             scratch, ProcessLimits::timeout(60));
    fs::remove(scratch);
    if (!result.succeeded() || result.output.size() < 40) return "";
    hash.add(result.output.substr(0, 40));
    return hash.hex();
  }
  const fs::path path = submission;
  if (fs::is_regular_file(path)) {
    hash.add(text::read_file(path));
    return hash.hex();
  }
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(path); it != fs::recursive_directory_iterator(); ++it) {
    const std::string name = it->path().filename().string();
    if (it->is_directory() && (name == ".git" || name == "build")) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file()) files.push_back(it->path().lexically_relative(path));
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    hash.add(file.string());
    hash.add(text::read_file(path / file));
  }
  return hash.hex();
}

std::string grading_fingerprint(const fs::path& rooflab, const fs::path& manifest_path,
                                const std::vector<std::string>& only) {
  const Manifest manifest = Manifest::load(manifest_path);
  // Bytes rather than mtimes: a rebuild that changes nothing (or a copy of the
  // binary elsewhere) keeps every report; one changed byte regrades.
  Fnv hash;
  hash.add_file(rooflab);
  hash.add_file(manifest_path);
  for (const AssignmentInfo& info : class_grading::graded_assignments(manifest, only)) {
    hash.add(info.name);
    hash.add(info.rubric.empty() ? "no rubric" : "rubric");
    if (!info.rubric.empty()) hash.add_file(info.rubric);
    hash.add_file(manifest.verdict_binary(info));
  }
  // The grading kit: the course's own objects every worker links.
  std::vector<fs::path> kit;
  std::error_code error;
  for (fs::recursive_directory_iterator it(manifest.grading_kit(), error), end; !error && it != end;
       it.increment(error))
    if (it->is_regular_file()) kit.push_back(it->path());
  std::sort(kit.begin(), kit.end());
  for (const fs::path& file : kit) {
    hash.add(file.lexically_relative(manifest.grading_kit()).string());
    hash.add_file(file);
  }
  return hash.hex();
}

namespace class_grading {

std::string grading_settings(const GradeAllOptions& options) {
  std::string settings = "labs:";
  for (const std::string& name : options.only) settings += name + ",";
  settings += " grader:" + grading_fingerprint(options.rooflab, options.manifest, options.only);
  settings += " deadline:" + (options.deadline ? options.deadline->utc : std::string("none"));
  if (options.require_sandbox) settings += " sandbox:required";  // a report graded without one is not kept
  return settings;
}

std::string resume_key(const std::string& content_hash, const std::string& settings, const std::string& seed) {
  return content_hash.empty() ? "" : content_hash + " " + settings + " seed:" + seed;
}

}  // namespace class_grading
}  // namespace rooflab
