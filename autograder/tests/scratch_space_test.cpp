// A grading's scratch space is capped: by the kernel where the grader may
// mount a tmpfs, else by a watcher that stops the grading's processes.
#include "os/scratch_space.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <thread>

#include "text/text.hpp"

namespace rooflab {
namespace {
namespace fs = std::filesystem;

TEST(ScratchSpace, HoldsNoMoreThanItsCapAndTellsItsPeak) {
  constexpr std::uint64_t kCap = std::uint64_t{8} << 20;
  fs::path where;
  {
    const ScratchSpace scratch(kCap);
    where = scratch.path();
    ASSERT_TRUE(fs::is_directory(where));
    std::ofstream file(where / "big", std::ios::binary);
    const std::string mib(1 << 20, 'x');
    std::size_t written = 0;
    for (int i = 0; i < 16 && file.write(mib.data(), static_cast<std::streamsize>(mib.size())).flush(); ++i)
      written += mib.size();
    if (scratch.kernel_enforced()) {
      EXPECT_LE(written, kCap) << "the tmpfs refuses what is over its cap";
      EXPECT_NE(scratch.describe().find("kernel-enforced"), std::string::npos) << scratch.describe();
    } else {
      EXPECT_NE(scratch.describe().find("not kernel-enforced"), std::string::npos) << scratch.describe();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(scratch.kernel_enforced() ? 400 : 2200));
    EXPECT_GE(scratch.peak_bytes(), std::uint64_t{4} << 20) << scratch.describe();
    if (!scratch.kernel_enforced()) {
      EXPECT_TRUE(scratch.overflowed()) << scratch.describe();
    }
  }
  EXPECT_FALSE(fs::exists(where)) << "the scratch space is removed with the grading";
}

}  // namespace
}  // namespace rooflab
