// The busy-machine warning of the benchmarks: what others took, from /proc/stat
// and this process's own CPU time.
#include "rooflab/machine_load.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace {

using rooflab::CpuTicks;

TEST(MachineLoad, ParsesProcStatsAggregateLine) {
  const auto ticks = rooflab::parse_cpu_line("cpu  100 5 20 800 10 1 2 3 0 0");
  ASSERT_TRUE(ticks.has_value());
  EXPECT_EQ(ticks->busy, 100u + 5 + 20 + 1 + 2 + 3);
  EXPECT_EQ(ticks->total, ticks->busy + 800 + 10);
  EXPECT_FALSE(rooflab::parse_cpu_line("cpu0 1 2 3 4").has_value()) << "one core's line is not the aggregate";
  EXPECT_FALSE(rooflab::parse_cpu_line("intr 12345").has_value());
  EXPECT_TRUE(rooflab::parse_cpu_line("cpu 1 2 3 4").has_value()) << "old kernels stop after idle";
}

TEST(MachineLoad, OthersAreTheMachinesBusyCoresMinusOurOwn) {
  // 2 cores, 1 s: 200 ticks in all, 150 busy = 1.5 cores busy; we used 1 CPU second.
  const CpuTicks before{1000, 5000}, after{1150, 5200};
  EXPECT_NEAR(rooflab::others_busy_cores(before, after, 1.0, 1.0, 2), 0.5, 1e-12);
  EXPECT_NEAR(rooflab::others_busy_cores(before, after, 0.0, 1.0, 2), 1.5, 1e-12);
  EXPECT_EQ(rooflab::others_busy_cores(before, after, 2.0, 1.0, 2), 0.0) << "never below zero";
  EXPECT_EQ(rooflab::others_busy_cores(after, before, 0.0, 1.0, 2), 0.0) << "counters that went back: no claim";
}

TEST(MachineLoad, WarnsOnlyWhenOthersTookTheCoresWeUsed) {
  // 2 cores, 2 threads: others may use half a core before it counts.
  EXPECT_EQ(rooflab::busy_machine_warning(0.4, 2, 2), "");
  const std::string warning = rooflab::busy_machine_warning(1.2, 2, 2);
  EXPECT_NE(warning.find("the machine was busy"), std::string::npos) << warning;
  EXPECT_NE(warning.find("1.2 of its 2 cores"), std::string::npos) << warning;
  // 16 cores, 2 threads: 10 busy cores elsewhere leave ours free.
  EXPECT_EQ(rooflab::busy_machine_warning(10, 16, 2), "");
  EXPECT_NE(rooflab::busy_machine_warning(15, 16, 2), "");
}

TEST(MachineLoad, AWatchReadsThisMachine) {
  const rooflab::LoadWatch watch;
  volatile double sink = 0;
  for (int i = 0; i < 2000000; ++i) sink = sink + i;  // our own CPU time is not the others'
  const auto others = watch.others_busy();
  ASSERT_TRUE(others.has_value()) << "/proc/stat is readable on Linux";
  EXPECT_GE(*others, 0.0);
  std::ostringstream out;
  watch.warn_if_busy(out, 1);
  EXPECT_TRUE(out.str().empty() || out.str().find("busy") != std::string::npos);
}

}  // namespace
