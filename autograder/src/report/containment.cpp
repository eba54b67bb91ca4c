#include "report/containment.hpp"

#include "os/sandbox.hpp"
#include "run/test_runner.hpp"
#include "text/text.hpp"

namespace rooflab {
using text::mib;

std::vector<std::string> containment(const Grading& grading, const ScratchSpace& scratch) {
  std::vector<std::string> lines;
  if (grading.cgroups.available()) {
    const auto peak = grading.cgroups.peak_bytes();
    lines.push_back("Memory: every sandboxed step ran in a memory cgroup (" + grading.cgroups.mechanism() +
                    ") counting its heap, page cache and /tmp together: each test's worker at its rubric group's "
                    "memory_limit_mb, builds at " +
                    mib(kBuildMemory) + ", profiles at " + mib(kProfileMemory) +
                    "; the kernel stops a step that passes its limit. Peak of all steps together: " +
                    (peak ? mib(*peak) : std::string("not kept by this kernel")) + ".");
  } else {
    lines.push_back("Memory: no memory cgroup could be created here (" + grading.cgroups.why_not() +
                    "), so each worker's address space (RLIMIT_AS) was its group's memory_limit_mb minus its /tmp; "
                    "tests that measure the worker's memory from outside were skipped (0 of 0 points).");
  }
  if (grading.pids.available()) {
    lines.push_back("Processes: every sandboxed step ran in a pids cgroup of its own (" + grading.pids.mechanism() +
                    "): builds at most " + std::to_string(grading.build_tasks()) +
                    " processes and threads, each test's worker and each profile " + std::to_string(kRunTasks) +
                    " plus its OpenMP threads; a fork bomb fills its own step, never another's or another "
                    "grading's.");
  } else {
    lines.push_back("Processes: no pids cgroup could be created here (" + grading.pids.why_not() +
                    "), so builds and workers had RLIMIT_NPROC: the processes their user ran as they started, plus " +
                    std::to_string(kProcessHeadroom) +
                    ". Every grading on this machine runs its steps as that user and shares the count.");
  }
  if (grading.cpu.available()) {
    lines.push_back("CPU: every sandboxed step ran in a cpu cgroup of its own (" + grading.cpu.mechanism() +
                    ") at the same weight: when the cores are contended the kernel shares them between steps, not "
                    "between their processes, so a step with many processes (a build, a fork bomb, another "
                    "grading's) slows a test's worker no more than a step with one. The grading as a whole weighs " +
                    std::to_string(grading.cpu.weighs_as()) + " processes, one per test it runs at once.");
  } else {
    lines.push_back("CPU: no cpu cgroup could be created here (" + grading.cpu.why_not() +
                    "), so the kernel shared the cores between processes, and each test's time limit counted the CPU "
                    "time of its processes instead of wall-clock time (a test allowed T threads: T times its limit), "
                    "so that a busy machine made tests slower, never failed them; wall-clock time was a backstop " +
                    std::to_string(static_cast<int>(kWallBackstop)) + " times the limit, plus " +
                    std::to_string(static_cast<int>(kWallBackstopSlack_s)) +
                    " s, for a test that sleeps or deadlocks.");
  }
  if (!grading.sandbox.isolated()) {
    lines.push_back("/tmp: no sandbox, so no private /tmp: student code could write wherever the grader can.");
  } else if (grading.sandbox.sized_tmp()) {
    lines.push_back("/tmp: each sandboxed step had a private tmpfs (" + mib(kDefaultTmpBytes) +
                    ", and an eighth of the memory limit for tests below 512 MiB), counted in its memory limit.");
  } else {
    lines.push_back(
        "/tmp: read-only in every sandboxed step (this bubblewrap cannot size a tmpfs); builds wrote "
        "their temporary files into the build folder.");
  }
  lines.push_back(scratch.describe());
  return lines;
}

}  // namespace rooflab
