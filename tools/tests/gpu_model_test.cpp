// The GPU model (rooflab/gpu_model.hpp): occupancy as CUDA's calculator
// computes it, SMs, rounds and the limit that decides; the counters carried
// from three lengths to a fourth (rooflab/gpu_model_calibration.hpp); and the
// committed calibration, every recorded H100 point within 2×.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "rooflab/build_paths.hpp"
#include "rooflab/gpu_model.hpp"
#include "rooflab/gpu_model_calibration.hpp"
#include "rooflab/kernel_roofline.hpp"

namespace {

namespace gm = rooflab::gpu_model;

TEST(GpuModel, EachGpusFp32PeakIsItsLanesAtItsClock) {
  for (const gm::Architecture& gpu : gm::architectures()) {
    const double peak = gpu.multiprocessors * gpu.fp32_lanes_per_sm * 2.0 * gpu.clock_hz;
    EXPECT_NEAR(peak / rooflab::roofline::find_cuda_core_gpu(gpu.id).fp32_flops_per_s, 1.0, 0.01) << gpu.id;
    EXPECT_EQ(gpu.tensor_flops_per_s, rooflab::roofline::find_cuda_core_gpu(gpu.id).tensor_flops_per_s) << gpu.id;
  }
  EXPECT_EQ(gm::architectures().front().id, "h100");
  EXPECT_THROW(gm::find_architecture("b200"), std::invalid_argument);
}

TEST(GpuModel, OccupancyIsTheCalculatorsOnAnH100) {
  const gm::Architecture& h100 = gm::find_architecture("h100");
  // 16×16 tiles of 256 threads, 31 registers: 8 blocks fill the SM's 2048 threads.
  gm::Occupancy o = gm::occupancy({1, 256, 2176, 31}, h100);
  EXPECT_EQ(o.blocks_per_sm, 8);
  EXPECT_EQ(o.limited_by, "threads");
  EXPECT_DOUBLE_EQ(o.fraction, 1.0);
  // 128 threads of 128 registers: 4096 registers a warp, 4 warps a
  // scheduler's quarter of the file, 16 warps: 4 blocks, a quarter.
  o = gm::occupancy({1, 128, 43392, 128}, h100);
  EXPECT_EQ(o.blocks_per_sm, 4);
  EXPECT_EQ(o.limited_by, "registers");
  EXPECT_DOUBLE_EQ(o.fraction, 0.25);
  // One warp a block: 32 blocks at most, half the SM's warps.
  o = gm::occupancy({1, 32, 0, 32}, h100);
  EXPECT_EQ(o.blocks_per_sm, 32);
  EXPECT_EQ(o.limited_by, "blocks");
  EXPECT_DOUBLE_EQ(o.fraction, 0.5);
  // 70.5 KiB of shared memory, plus the 1 KiB the system keeps: 3 in 228 KiB.
  o = gm::occupancy({1, 128, 72192, 48}, h100);
  EXPECT_EQ(o.blocks_per_sm, 3);
  EXPECT_EQ(o.limited_by, "shared memory");
  // Registers rounded up to 256 a warp: 33 take as many as 40.
  EXPECT_EQ(gm::occupancy({1, 1024, 0, 33}, h100).blocks_per_sm, gm::occupancy({1, 1024, 0, 40}, h100).blocks_per_sm);
  // Unknown registers are assumed, and said to be.
  EXPECT_TRUE(gm::occupancy({1, 256, 0, 0}, h100).registers_assumed);
  // What does not fit: more than 227 KiB, more than 1024 threads.
  EXPECT_EQ(gm::occupancy({1, 128, 228 * 1024, 32}, h100).blocks_per_sm, 0);
  EXPECT_EQ(gm::occupancy({1, 2048, 0, 32}, h100).blocks_per_sm, 0);
  EXPECT_THROW(gm::estimate({}, {1, 2048, 0, 32}, h100), std::invalid_argument);
}

TEST(GpuModel, AGridShortOfTheSmsLeavesThemIdleAndOneBlockPastAWaveCostsARound) {
  const gm::Architecture& h100 = gm::find_architecture("h100");
  gm::KernelWork work;
  work.shared_requests = 1e8;  // the launch's few microseconds negligible
  // 1024-thread blocks of 64 registers: one at a time on an SM.
  const gm::Estimate half = gm::estimate(work, {66, 1024, 0, 64}, h100);
  EXPECT_DOUBLE_EQ(half.sm_coverage, 0.5);
  const gm::Estimate wave = gm::estimate(work, {132, 1024, 0, 64}, h100);
  const gm::Estimate past = gm::estimate(work, {133, 1024, 0, 64}, h100);
  EXPECT_EQ(wave.rounds, 1);
  EXPECT_EQ(past.rounds, 2);
  EXPECT_EQ(past.busiest_sm_blocks, 2);
  // The same work over twice the blocks' rounds: the busiest SM does twice its share.
  EXPECT_NEAR(past.shared_s / wave.shared_s, 2.0 * 132 / 133, 1e-9);
  EXPECT_GT(past.seconds, 1.9 * wave.seconds);
}

TEST(GpuModel, FewWarpsAreLatencyBoundAndManyAreBandwidthBound) {
  const gm::Architecture& h100 = gm::find_architecture("h100");
  gm::KernelWork work;
  work.shared_requests = 1 << 24;
  // 132 blocks of one warp: a warp an SM, waiting ~30 cycles a request.
  const gm::Estimate few = gm::estimate(work, {132, 32, 0, 32}, h100);
  EXPECT_EQ(few.limited_by, "latency");
  EXPECT_NEAR(few.latency_s, (1 << 24) / 132.0 * gm::kSharedLatencyCycles / h100.clock_hz, 1e-12);
  // 132 × 8 blocks of 256 threads: 64 warps an SM hide it; one wavefront a clock decides.
  const gm::Estimate many = gm::estimate(work, {132 * 8, 256, 0, 32}, h100);
  EXPECT_EQ(many.limited_by, "shared memory");
  EXPECT_NEAR(many.shared_s, (1 << 24) / 132.0 / h100.clock_hz, 1e-12);
  // The heaviest warp's chain: twice the average warp's in its round.
  gm::KernelWork lopsided = work;
  lopsided.heaviest_warp_requests = 2.0 * (1 << 24) / 132;
  EXPECT_NEAR(gm::estimate(lopsided, {132, 32, 0, 32}, h100).latency_s, 2 * few.latency_s, 1e-12);
  // Copies by cp.async are no wait for the warp, nor their landing in shared
  // memory: a wait_group is one global latency for all the copies it covers.
  gm::KernelWork blocking;
  blocking.global_requests = blocking.shared_requests = 1 << 16;  // loads, each stored to shared memory
  gm::KernelWork asynchronous = blocking;
  asynchronous.async_copy_requests = 1 << 16;
  asynchronous.async_copy_waits = (1 << 16) / 8.0;  // a wait for every 8 copies
  const double blocking_s = gm::estimate(blocking, {132, 32, 0, 32}, h100).latency_s;
  EXPECT_NEAR(blocking_s, (1 << 16) / 132.0 * (gm::kSharedLatencyCycles + gm::kGlobalLatencyCycles) / h100.clock_hz,
              1e-12);
  EXPECT_NEAR(gm::estimate(asynchronous, {132, 32, 0, 32}, h100).latency_s,
              (1 << 16) / 132.0 / 8 * gm::kGlobalLatencyCycles / h100.clock_hz, 1e-12);
  // Tensor-core FLOPs at the tensor peak, DRAM bytes at the bandwidth.
  gm::KernelWork dense;
  dense.tensor_core_flops = 989.4e12;
  EXPECT_EQ(gm::estimate(dense, {132 * 8, 256, 0, 32}, h100).limited_by, "tensor cores");
  EXPECT_NEAR(gm::estimate(dense, {132 * 8, 256, 0, 32}, h100).tensor_s, 1.0, 1e-9);
  gm::KernelWork copy;
  copy.dram_bytes = 3.35e9;
  EXPECT_NEAR(gm::estimate(copy, {132 * 8, 256, 0, 32}, h100).seconds, 1e-3 + gm::kLaunchSeconds, 1e-9);
}

rooflab::kernels::KernelRow row_at(long long n, double scale) {
  rooflab::kernels::KernelRow row;
  row.method = "flash";
  row.kernel = "flash_forward";
  row.n = n;
  row.launches = 1;
  row.shared_requests = 3.0 * n * n + 5.0 * n + 7;  // quadratic
  row.load_requests = 4.0 * n;                      // linear
  row.blocks = n / 64.0;
  row.heaviest_warp_requests = 2.0 * n;
  row.threads_per_block = 128;
  row.flops = scale * n * n;
  return row;
}

TEST(GpuModel, CountersAtThreeLengthsCarryExactlyToAFourth) {
  const std::vector<long long> lengths{64, 128, 192};
  const std::vector<std::vector<rooflab::kernels::KernelRow>> counted{
      {row_at(64, 1)}, {row_at(128, 1)}, {row_at(192, 1)}};
  const auto carried = gm::extrapolate(counted, lengths, 8192, 16);
  ASSERT_EQ(carried.size(), 1u);
  const rooflab::kernels::KernelRow expected = row_at(8192, 1);
  EXPECT_EQ(carried[0].n, 8192);
  EXPECT_DOUBLE_EQ(carried[0].shared_requests, 16 * expected.shared_requests);
  EXPECT_DOUBLE_EQ(carried[0].load_requests, 16 * expected.load_requests);
  EXPECT_DOUBLE_EQ(carried[0].blocks, 16 * expected.blocks);
  EXPECT_DOUBLE_EQ(carried[0].flops, 16 * expected.flops);
  EXPECT_DOUBLE_EQ(carried[0].heaviest_warp_requests, expected.heaviest_warp_requests);  // one warp's: not × 16
  EXPECT_EQ(carried[0].threads_per_block, 128);
  EXPECT_THROW(gm::extrapolate({{row_at(64, 1)}, {}, {row_at(192, 1)}}, lengths, 8192, 16), std::runtime_error);
}

TEST(GpuModel, CalibrationRowsRoundTripAndSummarise) {
  gm::CalibrationRow row{"flash",
                         1024,
                         64,
                         true,
                         "h100",
                         "2026-11-27",
                         3.0678,
                         3.3721,
                         "literate/ladder/flash_one_row_per_thread.cu",
                         "flash_forward_one_row_per_thread: latency"};
  gm::CalibrationRow far = row;
  far.n = 2048;
  far.model_ms = 0.5;
  const std::string csv = gm::calibration_csv({row, far});
  EXPECT_NE(csv.find("flash,1024,64,1,h100,2026-11-27,3.0678,3.3721,1.099,literate/ladder/"), std::string::npos) << csv;
  const auto parsed = gm::parse_calibration_csv(csv);
  ASSERT_EQ(parsed.size(), 2u);
  EXPECT_EQ(parsed[0].measured_kernel, row.measured_kernel);
  EXPECT_DOUBLE_EQ(parsed[1].model_ms, 0.5);
  const std::string summary = gm::calibration_summary(parsed);
  EXPECT_NE(summary.find("| flash | h100, 2026-11-27 | literate/ladder/flash_one_row_per_thread.cu | 2 | 0.16 | "),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("| 1 of 2 |"), std::string::npos) << summary;
  EXPECT_THROW(gm::parse_calibration_csv("header\nflash,1024,64"), std::runtime_error);
}

// The committed calibration (plots/data/gpu_model_calibration.csv, which the
// docs check keeps equal to what the model computes): every point the course
// recorded on a GPU, modelled within 2× of what the GPU measured.
TEST(GpuModel, EveryRecordedReferencePointIsModelledWithinTwoTimes) {
  std::ifstream in(rooflab::build_paths::source_dir() / "plots" / "data" / "gpu_model_calibration.csv");
  ASSERT_TRUE(in) << "plots/data/gpu_model_calibration.csv";
  std::stringstream text;
  text << in.rdbuf();
  const auto rows = gm::parse_calibration_csv(text.str());
  EXPECT_GE(rows.size(), 48u);  // the H100 run of 2026-11-27: 16 shapes × 3 launchers
  for (const gm::CalibrationRow& row : rows) {
    const double ratio = row.model_ms / row.measured_ms;
    EXPECT_TRUE(ratio >= 0.5 && ratio <= 2.0)
        << row.method << " N=" << row.n << " d=" << row.d << (row.causal ? " causal" : "") << " on " << row.gpu << " "
        << row.measured_on << ": model " << row.model_ms << " ms, measured " << row.measured_ms << " ms";
  }
}

TEST(GpuModel, RecordedRunsAreReadAndABadLineIsNamed) {
  const auto timings = gm::read_recorded_timings(rooflab::build_paths::source_dir() / "plots" / "recorded",
                                                 {"standard", "flash", "tensor_core"});
  ASSERT_GE(timings.size(), 48u);
  EXPECT_EQ(timings.front().gpu, "h100");
  EXPECT_EQ(timings.front().date, "2026-11-27");
  EXPECT_EQ(timings.front().method, "standard");
  EXPECT_EQ(timings.front().n, 1024);
  EXPECT_NEAR(timings.front().ms, 0.7041, 1e-9);
  const std::filesystem::path bad = testing::TempDir() + "/gpu_model_runs";
  std::filesystem::remove_all(bad);
  std::filesystem::create_directories(bad / "2026-12-01_h100");
  std::ofstream(bad / "2026-12-01_h100" / "attention_gpu.csv") << "kernel,n,d,causal,ms,tflops\nflash,1024,64,0,x,1\n";
  try {
    gm::read_recorded_timings(bad, {"flash"});
    ADD_FAILURE() << "a bad line was taken";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("2026-12-01_h100/attention_gpu.csv:2: not a"), std::string::npos)
        << error.what();
  }
  std::filesystem::rename(bad / "2026-12-01_h100", bad / "yesterday");
  EXPECT_THROW(gm::read_recorded_timings(bad, {"flash"}), std::runtime_error);
  std::filesystem::remove_all(bad);
}

}  // namespace
