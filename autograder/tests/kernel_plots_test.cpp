// The report's kernel table and roofline (plots/kernel_plots.hpp): a
// submission's rows are hostile text, so only kernels the reference reports
// are shown, and every number was parsed as one.
#include "plots/kernel_plots.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "rooflab/kernel_profile.hpp"
#include "rooflab/kernel_roofline.hpp"
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
      "kernel,flash,flash_forward,256,1,34209792,526336,17408,69632,1040,32832,803840,0,0,16,32,16512,50240\n"
      "kernel,standard,softmax_rows,256,1,655360,1050624,12288,49152,4608,16896,0,0\n";
  const std::string submission =
      "kernel,flash,flash_forward,256,1,34209792,600000,17408,69632,1040,4160,803840,803840\n"
      "kernel,flash,made_up_kernel,256,1,1,1,1,1,1,1,1,1\n"
      "kernel,flash,flash_forward';system('x'),256,1,1,1,1,1,1,1,1,1\n"
      "kernel,flash,flash_forward,256,1,nan,1,1,1,1,1,1,1\n"
      "## a heading\n";
  const KernelFigures figures = render_kernel_figures("a05", submission, reference, {}, dir, dir);
  EXPECT_NE(figures.table.find("| flash | flash_forward (yours) | 256 | 4.0, 4.0 | 1.00 |"), std::string::npos)
      << figures.table;
  EXPECT_NE(figures.table.find("| flash | flash_forward (reference) | 256 | 4.0, 31.6 | 0.00 |"), std::string::npos)
      << figures.table;
  EXPECT_NE(figures.table.find("softmax_rows (reference)"), std::string::npos) << figures.table;
  // The GPU model places what has a launch shape, registers assumed: 16 one-warp
  // blocks, 13 of them fit in an SM's shared memory, 16 of 132 SMs used.
  EXPECT_NE(figures.table.find("Where the GPU model"), std::string::npos) << figures.table;
  EXPECT_NE(figures.table.find("| flash | flash_forward (reference) | 16 × 32 | 16.1 KiB | 64 (assumed) | 13 (shared "
                               "memory) | 20 % | 12 % | 1 | latency |"),
            std::string::npos)
      << figures.table;
  EXPECT_NE(figures.table.find("| flash | flash_forward (yours) | no launch shape recorded |"), std::string::npos)
      << figures.table;
  for (const char* absent : {"made_up", "system", "heading", "nan"})
    EXPECT_EQ(figures.table.find(absent), std::string::npos) << absent << " in\n" << figures.table;
  std::filesystem::remove_all(dir);
}

// Where nvcc counted registers (plots/kernel_registers.hpp), the model takes
// them: yours for your kernel, the reference's for its own, and says which.
TEST(KernelPlots, TheModelTakesNvccsRegistersWhereTheyWereCounted) {
  const auto dir = (kTemp / "kernel-registers");
  std::filesystem::create_directories(dir);
  const std::string reference =
      "kernel,flash,flash_forward,256,1,34209792,526336,17408,69632,1040,32832,803840,0,0,16,32,16512,50240\n";
  const std::string submission =
      "kernel,flash,flash_forward,256,1,34209792,526336,17408,69632,1040,32832,803840,0,0,16,256,16512,50240\n";
  KernelRegisters registers;
  registers.counts = kernels::parse_registers_csv(
      "registers,reference,flash_forward,40\nregisters,yours,flash_forward,255\n"
      "registers,yours,flash_forward;rm,12\nregisters,yours,other,999\nregisters,theirs,flash_forward,7\n");
  registers.nvcc_ran = true;
  registers.notes = {"nvcc could not compile src/x.cu"};
  const KernelFigures figures = render_kernel_figures("a05", submission, reference, registers, dir, dir);
  // 255 registers × 256 threads: 65280 of an SM's 65536, one block; the reference's 40 × 32 fit 13 by shared memory.
  EXPECT_NE(figures.table.find("| flash_forward (yours) | 16 × 256 | 16.1 KiB | 255 (nvcc, yours) | 1 (registers) |"),
            std::string::npos)
      << figures.table;
  EXPECT_NE(figures.table.find("| flash_forward (reference) | 16 × 32 | 16.1 KiB | 40 (nvcc) | 13 (shared memory) |"),
            std::string::npos)
      << figures.table;
  EXPECT_NE(figures.table.find("Registers per thread are nvcc's for sm_90: yours where nvcc compiled your file"),
            std::string::npos)
      << figures.table;
  EXPECT_EQ(figures.notes.front(), "nvcc could not compile src/x.cu");
  // Only well-formed lines count: a hostile name, a count past sm_90's 255, someone else's.
  EXPECT_EQ(registers.counts.yours.size(), 1u);
  EXPECT_EQ(registers.counts.reference.size(), 1u);
  EXPECT_EQ(kernels::registers_csv(registers.counts),
            "registers,reference,flash_forward,40\nregisters,yours,flash_forward,255\n");
  std::filesystem::remove_all(dir);
}

TEST(KernelPlots, AProfileWithoutKernelRowsHasNoTable) {
  const auto dir = kTemp;
  std::filesystem::create_directories(dir);
  const KernelFigures figures =
      render_kernel_figures("a04", "kernel,x,y,1,1,1,1,1,1,1,1,1,1\n", "method,seq_len,seconds\n", {}, dir, dir);
  EXPECT_TRUE(figures.table.empty());
  EXPECT_TRUE(figures.images.empty());
}

TEST(KernelProfile, TablesMarkAFigurePastItsGradedLimitAndListTheLinesBehindIt) {
  kernels::KernelRow row;
  row.method = "flash";
  row.kernel = "flash_forward";
  row.n = 256;
  row.shared_requests = 100;
  row.shared_bank_conflicts = 270;
  row.lines = {{"src/flash_attention.cu:143", true, false, 50, 400, 350},
               {"src/flash_attention.cu:129", false, false, 10, 40, 0}};
  const std::vector<kernels::GradedLimit> limits{{"flash_forward", 1.0}};
  const std::string table = kernels::markdown_table({row}, {}, roofline::find_cuda_core_gpu("h100"), limits);
  EXPECT_NE(table.find("| 2.70 (over the graded 1.00) |"), std::string::npos) << table;
  const std::string lines = kernels::lines_table({row}, limits);
  EXPECT_NE(lines.find("| flash_forward | src/flash_attention.cu:143 | shared load | 50 | 8.0 | 7.00 (over the graded "
                       "1.00) |"),
            std::string::npos)
      << lines;
  EXPECT_NE(lines.find("| flash_forward | src/flash_attention.cu:129 | global load | 10 | 4.0 | — |"),
            std::string::npos)
      << lines;
  // Within the limit, or a kernel with none: the figure alone.
  row.shared_bank_conflicts = 50;
  EXPECT_NE(kernels::markdown_table({row}, {}, roofline::find_cuda_core_gpu("h100"), limits).find("| 0.50 |"),
            std::string::npos);
  row.kernel = "attention_scores";
  row.shared_bank_conflicts = 270;
  EXPECT_EQ(kernels::markdown_table({row}, {}, roofline::find_cuda_core_gpu("h100"), limits).find("over the graded"),
            std::string::npos);
  EXPECT_EQ(kernels::lines_table({}), "");
}

TEST(KernelProfile, RowsRoundTripThroughTheirCsv) {
  kernels::KernelRow row{"decode", "split_kv", 2048, 1, 6291456, 12687424, 124800, 1798272, 1536, 3840, 99840, 7};
  row.tensor_core_flops = 33554432;
  row.blocks = 240;
  row.threads_per_block = 128;
  row.shared_bytes_per_block = 33792;
  row.heaviest_warp_requests = 1650;
  row.async_copy_requests = 96;
  row.async_copy_waits = 12;
  kernels::KernelRow parsed;
  ASSERT_TRUE(kernels::parse_csv_row(kernels::csv_row(row), parsed));
  EXPECT_EQ(parsed.kernel, "split_kv");
  EXPECT_EQ(parsed.n, 2048);
  EXPECT_EQ(parsed.flops, 6291456);
  EXPECT_EQ(parsed.dram_bytes, 12687424);
  EXPECT_EQ(parsed.shared_bank_conflicts, 7);
  EXPECT_EQ(parsed.tensor_core_flops, 33554432);
  EXPECT_EQ(parsed.blocks, 240);
  EXPECT_EQ(parsed.threads_per_block, 128);
  EXPECT_EQ(parsed.shared_bytes_per_block, 33792);
  EXPECT_EQ(parsed.heaviest_warp_requests, 1650);
  EXPECT_EQ(parsed.async_copy_requests, 96);
  EXPECT_EQ(parsed.async_copy_waits, 12);
  EXPECT_EQ(kernels::csv_header().substr(kernels::csv_header().find(",tensor_core_flops")),
            ",tensor_core_flops,blocks,threads_per_block,shared_bytes_per_block,heaviest_warp_requests,"
            "async_copy_requests,async_copy_waits");
  // A row from before cp.async was counted: none.
  ASSERT_TRUE(kernels::parse_csv_row("kernel,decode,split_kv,2048,1,1,1,1,1,1,1,1,1,7,8,128,0,5", parsed));
  EXPECT_EQ(parsed.heaviest_warp_requests, 5);
  EXPECT_EQ(parsed.async_copy_requests, 0);
  // A row from before the launch shapes were recorded: none; from before the
  // tensor-core FLOPs were counted: none of those either.
  ASSERT_TRUE(kernels::parse_csv_row("kernel,decode,split_kv,2048,1,1,1,1,1,1,1,1,1,7", parsed));
  EXPECT_EQ(parsed.tensor_core_flops, 7);
  EXPECT_EQ(parsed.blocks, 0);
  ASSERT_TRUE(kernels::parse_csv_row("kernel,decode,split_kv,2048,1,1,1,1,1,1,1,1,1", parsed));
  EXPECT_EQ(parsed.tensor_core_flops, 0);
  EXPECT_FALSE(kernels::parse_csv_row("kernel,decode,split_kv,2048,1,1,1,1,1,1,1,1,1,1,1,1,1", parsed));  // cut short
  EXPECT_FALSE(kernels::parse_csv_row("kernel,decode,split_kv,2048,1,1,1,1,1,1,1,1", parsed));        // a field short
  EXPECT_FALSE(kernels::parse_csv_row("kernel,decode,split_kv,2048,1,1,1,1,1,1,1,1,1,1,1", parsed));  // one over
  EXPECT_FALSE(kernels::parse_csv_row("kernel,decode,split_kv,2048,1,1,-1,1,1,1,1,1,1", parsed));
  EXPECT_FALSE(kernels::parse_csv_row("kernel,decode,split_kv,2048,1,1,1,1,1,1,1,1,1,-5", parsed));
}

// Each FLOP kind in its own column, tensor-core FLOPs bounded by the tensor
// peak: on an H100, 989.4e12 of them take a second, where the same FLOPs on
// the CUDA cores would take 989.4 / 66.9 = 14.8 s.
TEST(KernelProfile, TheTableShowsCudaCoreAndTensorCoreFlopsApart) {
  const std::vector<kernels::KernelRow> rows = kernels::parse_csv(
      "kernel,tensor_core,flash_forward_tensor_core,256,1,655360,329728,1,4,1,4,1,0,33554432\n"
      "kernel,flash,flash_forward,256,1,34209792,526336,17408,69632,1040,32832,803840,0,0\n"
      "kernel,tensor_core,dense_mma,256,1,0,1,1,1,1,1,1,0,989.4e12\n");
  ASSERT_EQ(rows.size(), 3u);
  const auto& h100 = roofline::find_cuda_core_gpu("h100");
  const std::string table = kernels::markdown_table(rows, {}, h100);
  EXPECT_NE(table.find("| DRAM bytes | CUDA-core FLOPs | tensor-core FLOPs | FLOPs / byte | H100 SXM: bound |"),
            std::string::npos)
      << table;
  // 329728 bytes at 3.35 TB/s: 98 ns, over 34 ns of tensor cores; the
  // intensity counts both kinds of FLOPs ((655360 + 33554432) / 329728).
  EXPECT_NE(table.find("| tensor_core | flash_forward_tensor_core | 256 | 4.0, 4.0 | 0.00 | 322.0 KiB | 6.55e+05 | "
                       "3.36e+07 | 103.75 | 98 ns (memory) |"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("| flash | flash_forward | 256 | 4.0, 31.6 | 0.00 | 514.0 KiB | 3.42e+07 | — | 65.00 | 511 ns "
                       "(CUDA cores) |"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("| tensor_core | dense_mma | 256 | 1.0, 1.0 | 0.00 | 1 B | 0 | 9.89e+14 | 989400000000000.00 | "
                       "1.00 s (tensor cores) |"),
            std::string::npos)
      << table;
  // The chart has both roofs, and the tensor-core kernel above the fp32 one.
  const std::string script = kernels::roofline_script(rows, {}, h100, "chart.png");
  EXPECT_NE(script.find("CUDA cores, fp32 (66.9 TFLOP/s"), std::string::npos) << script;
  EXPECT_NE(script.find("tensor cores, fp16 (989.4 TFLOP/s)"), std::string::npos) << script;
  EXPECT_NE(script.find("\n989400000000000 98"), std::string::npos) << script;
}

}  // namespace
}  // namespace rooflab
