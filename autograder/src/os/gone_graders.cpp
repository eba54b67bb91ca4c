#include "os/gone_graders.hpp"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <ctime>
#include <system_error>
#include <vector>

namespace rooflab {
namespace fs = std::filesystem;

bool left_by_a_gone_grader(const std::string& name) {
  unsigned long pid = 0;
  char rest = 0;
  if (std::sscanf(name.c_str(), "rooflab-grade-%lu-%c", &pid, &rest) != 2 || pid == 0) return false;
  return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

namespace {

// A cgroup folder holds only control files and child cgroups: rmdir them
// deepest first.
void remove_cgroup_tree(const fs::path& dir) {
  std::error_code error;
  std::vector<fs::path> children;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error))
    if (it->is_directory(error) && !it->is_symlink(error)) children.push_back(it->path());
  for (const fs::path& child : children) remove_cgroup_tree(child);
  ::rmdir(dir.c_str());
}

}  // namespace

void remove_cgroups_of_gone_graders(const fs::path& parent) {
  std::error_code error;
  std::vector<fs::path> gone;
  for (fs::directory_iterator it(parent, error), end; !error && it != end; it.increment(error))
    if (left_by_a_gone_grader(it->path().filename().string())) gone.push_back(it->path());
  for (const fs::path& dir : gone) remove_cgroup_tree(dir);
}

void remove_abandoned_mount_points(const fs::path& folder) {
  std::error_code error;
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (!left_by_a_gone_grader(name)) continue;
    struct stat info {};
    if (::lstat(it->path().c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) continue;
    if (std::time(nullptr) - info.st_mtime < 60) continue;  // a pid just reused by a grading starting now
    ::rmdir(it->path().c_str());                            // only an empty one
  }
}

}  // namespace rooflab
