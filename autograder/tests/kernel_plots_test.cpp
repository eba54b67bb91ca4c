// The report's kernel table and roofline (plots/kernel_plots.hpp): a
// submission's rows are hostile text, so only kernels the reference reports
// are shown, and every number was parsed as one.
#include "plots/kernel_plots.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "rooflab/kernel_profile.hpp"
#include "rooflab/temp_folder_testing.hpp"

namespace rooflab {
namespace {

// This program's temp folder, removed after its last test.
const std::filesystem::path kTemp = rooflab::testing::program_temp_folder("kernel-plots");

TEST(KernelPlots, ShowsTheSubmissionsKernelsThatTheReferenceHasBesideIt) {
  const auto dir = (kTemp / "kernel-plots");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string reference =
      "kernel,flash,flash_forward,256,1,34209792,526336,17408,69632,1040,32832,803840,0\n"
      "kernel,standard,softmax_rows,256,1,655360,1050624,12288,49152,4608,16896,0,0\n";
  const std::string submission =
      "kernel,flash,flash_forward,256,1,34209792,600000,17408,69632,1040,4160,803840,803840\n"
      "kernel,flash,made_up_kernel,256,1,1,1,1,1,1,1,1,1\n"
      "kernel,flash,flash_forward';system('x'),256,1,1,1,1,1,1,1,1,1\n"
      "kernel,flash,flash_forward,256,1,nan,1,1,1,1,1,1,1\n"
      "## a heading\n";
  const KernelFigures figures = render_kernel_figures("a05", submission, reference, dir, dir);
  EXPECT_NE(figures.table.find("| flash | flash_forward (yours) | 256 | 4.0, 4.0 | 1.00 |"), std::string::npos)
      << figures.table;
  EXPECT_NE(figures.table.find("| flash | flash_forward (reference) | 256 | 4.0, 31.6 | 0.00 |"), std::string::npos)
      << figures.table;
  EXPECT_NE(figures.table.find("softmax_rows (reference)"), std::string::npos) << figures.table;
  for (const char* absent : {"made_up", "system", "heading", "nan"})
    EXPECT_EQ(figures.table.find(absent), std::string::npos) << absent << " in\n" << figures.table;
  std::filesystem::remove_all(dir);
}

TEST(KernelPlots, AProfileWithoutKernelRowsHasNoTable) {
  const auto dir = kTemp;
  std::filesystem::create_directories(dir);
  const KernelFigures figures =
      render_kernel_figures("a04", "kernel,x,y,1,1,1,1,1,1,1,1,1,1\n", "method,seq_len,seconds\n", dir, dir);
  EXPECT_TRUE(figures.table.empty());
  EXPECT_TRUE(figures.images.empty());
}

TEST(KernelProfile, RowsRoundTripThroughTheirCsv) {
  kernels::KernelRow row{"decode", "split_kv", 2048, 1, 6291456, 12687424, 124800, 1798272, 1536, 3840, 99840, 7};
  kernels::KernelRow parsed;
  ASSERT_TRUE(kernels::parse_csv_row(kernels::csv_row(row), parsed));
  EXPECT_EQ(parsed.kernel, "split_kv");
  EXPECT_EQ(parsed.n, 2048);
  EXPECT_EQ(parsed.dram_bytes, 12687424);
  EXPECT_EQ(parsed.shared_bank_conflicts, 7);
  EXPECT_FALSE(kernels::parse_csv_row("kernel,decode,split_kv,2048,1,1,1,1,1,1,1,1", parsed));  // a field short
  EXPECT_FALSE(kernels::parse_csv_row("kernel,decode,split_kv,2048,1,1,-1,1,1,1,1,1,1", parsed));
}

}  // namespace
}  // namespace rooflab
