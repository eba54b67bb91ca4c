// What every kind of cgroup the grader creates (memory, pids, cpu) needs from
// cgroupfs: reading and writing its files, finding where a controller's
// hierarchy is mounted and where this process sits in it, and removing a
// cgroup with whatever still runs in it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace rooflab::cgroup_fs {

// Writes `value` with one write(2), as cgroupfs expects; "" or strerror.
std::string write_value(const std::filesystem::path& file, const std::string& value);
std::optional<std::string> read_value(const std::filesystem::path& file);
std::optional<std::uint64_t> read_number(const std::filesystem::path& file);
// "key value" lines (memory.events, pids.events): the value of `key`, 0 without.
std::uint64_t keyed(const std::filesystem::path& file, const std::string& key);
// Whether `word` is one of the items of `list` split at `separator`.
bool has_word(const std::string& list, const std::string& word, char separator);

// Kills what is left in a cgroup and removes it; a process that just exited
// leaves the list a moment later, so this retries for up to two seconds.
void remove_cgroup(const std::filesystem::path& dir);

// Where a controller can be had: cgroup2's mount and this process's cgroup in
// it, and the cgroup v1 hierarchy holding the controller and this process's
// cgroup there. Empty where there is none.
struct Places {
  std::filesystem::path v2_mount;
  std::string v2_own;  // the path after "0::"
  std::filesystem::path v1_mount;
  std::string v1_own;
  // The folders of this process's own cgroups (empty where unknown).
  std::filesystem::path v2_dir() const;
  std::filesystem::path v1_dir() const;
};
// `mounts` and `self` are /proc/self/mounts and /proc/self/cgroup (tests pass their own).
Places find_places(const std::string& controller, const std::filesystem::path& mounts,
                   const std::filesystem::path& self);

// cgroup v2: `controller` enabled for the children of `parent`, and `dir`
// created below it with the controller enabled for its own children. "" or
// why not (nothing is left behind).
std::string create_v2(const std::filesystem::path& parent, const std::filesystem::path& dir,
                      const std::string& controller);
// cgroup v2: `controller` enabled, where it is not yet, for the children of
// `dir`. "" or why not.
std::string enable_v2(const std::filesystem::path& dir, const std::string& controller);

}  // namespace rooflab::cgroup_fs
