#include "os/pids_cgroup.hpp"

#include "os/cgroup_fs.hpp"

namespace rooflab {
namespace fs = std::filesystem;

PidsCgroup::PidsCgroup(fs::path dir, std::uint64_t limit, bool owned)
    : ControllerCgroup(std::move(dir), owned), limit_(limit) {
  set("pids.max", std::to_string(limit));
}

std::uint64_t PidsCgroup::current() const { return cgroup_fs::read_number(dir() / "pids.current").value_or(0); }

std::uint64_t PidsCgroup::refused() const { return cgroup_fs::keyed(dir() / "pids.events", "max"); }

PidsCgroups PidsCgroups::probe(const std::string& name, const MemoryCgroups& memory, const fs::path& mounts,
                               const fs::path& self) {
  const fs::path host = memory.version() == CgroupVersion::v2 ? memory.dir() : fs::path();
  return PidsCgroups(ControllerCgroups::probe("pids", "pids.max", name, host, mounts, self));
}

std::unique_ptr<PidsCgroup> PidsCgroups::create(const std::string& step, std::uint64_t limit,
                                                const MemoryCgroup* memory) const {
  return std::make_unique<PidsCgroup>(step_dir(step, memory ? memory->dir() : fs::path()), limit, !shares_host());
}

}  // namespace rooflab
