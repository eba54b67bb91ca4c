#include "class/submission_checkout.hpp"

#include <vector>

#include "class/roster.hpp"
#include "os/process.hpp"
#include "text/text.hpp"

namespace rooflab::class_grading {
namespace fs = std::filesystem;
namespace {

// The first 40-hex-digit word of git's output (a commit), or empty.
std::string first_commit(const std::string& output) {
  for (const std::string& line : text::split_lines(output)) {
    const std::string word = text::trim(line);
    if (word.size() == 40 && word.find_first_not_of("0123456789abcdef") == std::string::npos) return word;
  }
  return "";
}

}  // namespace

bool is_local_git(const std::string& submission) {
  const fs::path path = submission;
  std::error_code error;
  return fs::exists(path / ".git", error) ||
         (fs::is_regular_file(path / "HEAD", error) && fs::is_directory(path / "objects", error));
}

Checkout clone_submission(const std::string& submission, const fs::path& folder,
                          const std::optional<Deadline>& deadline) {
  Checkout checkout;
  const fs::path clone = folder / "repository";
  fs::remove_all(clone);
  const std::string url = is_git_url(submission) ? submission : "file://" + fs::absolute(submission).string();
  const std::string shown = text::untrusted_line(submission, 200);
  std::vector<std::string> argv{"git", "-c", "safe.directory=*", "clone", "--quiet"};
  if (deadline) {
    argv.push_back("--no-checkout");
  } else {
    argv.insert(argv.end(), {"--depth", "1"});
  }
  argv.insert(argv.end(), {url, clone.string()});
  if (!run_process(argv, folder, folder / "clone.log", ProcessLimits::timeout(600)).succeeded()) {
    checkout.error = "cannot clone " + shown + " (see clone.log)";
    return checkout;
  }
  const fs::path log = folder / "checkout.log";
  const std::vector<std::string> git{"git", "-C", clone.string(), "-c", "safe.directory=*"};
  std::vector<std::string> find = git;
  if (deadline) {
    find.insert(find.end(), {"rev-list", "-1", "--before=" + deadline->git, "HEAD"});
  } else {
    find.insert(find.end(), {"rev-parse", "HEAD"});
  }
  const ProcessResult found = run_process(find, folder, log, ProcessLimits::timeout(120));
  if (!found.succeeded()) {
    checkout.error = "cannot read the history of " + shown + " (an empty repository? see checkout.log)";
    return checkout;
  }
  checkout.commit = first_commit(found.output);
  if (checkout.commit.empty()) {
    checkout.error =
        deadline ? "no commit at or before the deadline " + deadline->utc + " in " + shown : "no commit in " + shown;
    return checkout;
  }
  if (deadline) {
    std::vector<std::string> switch_to = git;
    switch_to.insert(switch_to.end(), {"-c", "advice.detachedHead=false", "checkout", "--quiet", checkout.commit});
    if (!run_process(switch_to, folder, log, ProcessLimits::timeout(600)).succeeded()) {
      checkout.error = "cannot check out " + checkout.commit + " of " + shown + " (see checkout.log)";
      return checkout;
    }
  }
  checkout.path = clone;
  return checkout;
}

}  // namespace rooflab::class_grading
