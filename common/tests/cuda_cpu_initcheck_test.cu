// What compute-sanitizer's initcheck reports, and what the runtime records of
// who wrote device memory: shared memory and cudaMalloc memory start
// uninitialized (a pattern, never zeros), a read of a byte nobody wrote is an
// error naming the memory and the line, copies carry their bytes'
// initialization along, and every device byte knows its last writer, which
// the launch records and the host's copies back report.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "cuda_cpu_testing.hpp"

namespace {

using rooflab::cuda_cpu::launch;
using rooflab::cuda_cpu::testing::device_copy;
using rooflab::cuda_cpu::testing::host_copy;
using rooflab::cuda_cpu::testing::kernel_error;
using ::testing::HasSubstr;

// Each warp adds its lanes into a __shared__ accumulator: correct only when
// the accumulator was zeroed first.
constexpr int kAccumulateLine = __LINE__ + 6;
template <bool kZeroFirst>
__global__ void accumulate_in_shared(const float* in, float* out) {
  __shared__ float total[1];
  if (kZeroFirst && threadIdx.x == 0) total[0] = 0.0f;
  __syncthreads();
  atomicAdd(&total[0], in[threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = total[0];
}

TEST(CudaCpuInitcheck, ASharedAccumulatorNobodyZeroedIsAnErrorNamingTheArrayAndLine) {
  float* in = device_copy(std::vector<float>(64, 1.0f));
  float* out = device_copy(std::vector<float>(1, 0.0f));
  const std::string error =
      kernel_error([&] { launch("accumulate_in_shared", accumulate_in_shared<false>, dim3(1), dim3(64), 0, in, out); });
  EXPECT_THAT(error, HasSubstr("kernel accumulate_in_shared: thread ("));
  EXPECT_THAT(error, HasSubstr("'s atomic update reads __shared__ total, byte 0 at tests/cuda_cpu_initcheck_test.cu:" +
                               std::to_string(kAccumulateLine)));
  EXPECT_THAT(error, HasSubstr("no thread of its block had written"));
  EXPECT_THAT(error, HasSubstr("initcheck"));
  EXPECT_EQ(
      kernel_error([&] { launch("accumulate_in_shared", accumulate_in_shared<true>, dim3(1), dim3(64), 0, in, out); }),
      "");
  EXPECT_EQ(host_copy(out, 1)[0], 64.0f);
  cudaFree(in);
  cudaFree(out);
}

// The checker keeps the mappings of its shadow from one launch to the next
// (shadow_pool.hpp), and nothing of one launch may show in the next: shared
// memory a block zeroed in the last launch is unwritten in this one, and a
// word one thread wrote in the last launch is no race for another thread now
// (a launch is ordered after the one before it).
__global__ void write_the_first_word(float* out) {
  if (threadIdx.x == 0) out[0] = 1.0f;
}
__global__ void copy_the_first_word_in_another_warp(float* out) {
  if (threadIdx.x == 33) out[1] = out[0];
}

TEST(CudaCpuInitcheck, NothingOfTheLastLaunchShowsInTheNext) {
  float* in = device_copy(std::vector<float>(64, 1.0f));
  float* out = device_copy(std::vector<float>(2, 0.0f));
  for (int round = 0; round < 3; ++round) {
    EXPECT_EQ(kernel_error(
                  [&] { launch("accumulate_in_shared", accumulate_in_shared<true>, dim3(1), dim3(64), 0, in, out); }),
              "");
    EXPECT_THAT(kernel_error([&] {
                  launch("accumulate_in_shared", accumulate_in_shared<false>, dim3(1), dim3(64), 0, in, out);
                }),
                HasSubstr("no thread of its block had written"));
    EXPECT_EQ(kernel_error([&] { launch("write_the_first_word", write_the_first_word, dim3(1), dim3(64), 0, out); }),
              "");
    EXPECT_EQ(kernel_error([&] {
                launch("copy_the_first_word_in_another_warp", copy_the_first_word_in_another_warp, dim3(1), dim3(64), 0,
                       out);
              }),
              "");
  }
  EXPECT_EQ(host_copy(out, 2), std::vector<float>(2, 1.0f));
  cudaFree(in);
  cudaFree(out);
}

__global__ void add_into(const float* in, float* out) { atomicAdd(&out[blockIdx.x], in[threadIdx.x]); }

TEST(CudaCpuInitcheck, AtomicsIntoMemoryNobodySetAreAnErrorAndACudaMemsetSetsIt) {
  float* in = device_copy(std::vector<float>(32, 0.5f));
  float* out = nullptr;
  ASSERT_EQ(cudaMalloc(&out, 4 * sizeof(float)), cudaSuccess);
  // cudaMalloc's memory is not zeros: it holds the pattern a GPU's would.
  std::vector<float> fresh(4);
  ASSERT_EQ(cudaMemcpy(fresh.data(), out, sizeof(float) * 4, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_NE(fresh[0], 0.0f);
  const std::string error = kernel_error([&] { launch("add_into", add_into, dim3(4), dim3(32), 0, in, out); });
  EXPECT_THAT(error, HasSubstr("'s atomic update reads device buffer of 16 bytes (the kernel's argument 2), byte "));
  EXPECT_THAT(error, HasSubstr("nothing had written since cudaMalloc"));
  ASSERT_EQ(cudaMemset(out, 0, 4 * sizeof(float)), cudaSuccess);
  EXPECT_EQ(kernel_error([&] { launch("add_into", add_into, dim3(4), dim3(32), 0, in, out); }), "");
  EXPECT_EQ(host_copy(out, 4), std::vector<float>(4, 16.0f));
  cudaFree(in);
  cudaFree(out);
}

// A read of a neighbour's slot before the barrier: a race when the neighbour
// writes later, which the error says rather than "uninitialized".
__global__ void read_before_the_neighbour_writes(float* out) {
  __shared__ float slot[64];
  out[threadIdx.x] = slot[(threadIdx.x + 1) % 64];
  slot[threadIdx.x] = 1.0f;
}

TEST(CudaCpuInitcheck, AReadARaceExplainsIsReportedAsTheRace) {
  float* out = device_copy(std::vector<float>(64, 0.0f));
  EXPECT_THAT(kernel_error([&] {
                launch("read_before_the_neighbour_writes", read_before_the_neighbour_writes, dim3(1), dim3(64), 0, out);
              }),
              HasSubstr("race on __shared__ slot"));
  cudaFree(out);
}

struct Padded {
  char tag;  // three bytes of padding follow
  float value;
};

// Copies of whole structs carry their padding along (a load or copy is an
// uninitialized read only when none of its bytes was written); a struct
// nobody wrote at all is an error.
template <bool kWriteFirst>
__global__ void copy_structs(Padded* out) {
  __shared__ Padded staged[32];
  if (kWriteFirst) {
    staged[threadIdx.x].tag = 'a';
    staged[threadIdx.x].value = static_cast<float>(threadIdx.x);
  }
  __syncwarp();
  out[threadIdx.x] = staged[(threadIdx.x + 1) % 32];
}

TEST(CudaCpuInitcheck, StructCopiesCarryPaddingButACopyOfNothingWrittenIsAnError) {
  Padded* out = nullptr;
  ASSERT_EQ(cudaMalloc(&out, 32 * sizeof(Padded)), cudaSuccess);
  EXPECT_EQ(kernel_error([&] { launch("copy_structs", copy_structs<true>, dim3(1), dim3(32), 0, out); }), "");
  EXPECT_EQ(host_copy(out, 32)[0].value, 1.0f);
  EXPECT_THAT(kernel_error([&] { launch("copy_structs", copy_structs<false>, dim3(1), dim3(32), 0, out); }),
              HasSubstr("__shared__ staged, byte "));
  cudaFree(out);
}

// memcpy of a size the compiler cannot see, and memset: checked and counted
// as any load and store.
__global__ void copy_rows(const float* in, float* out, int row_floats, int rows_to_copy) {
  const int row = static_cast<int>(threadIdx.x);
  if (row < rows_to_copy)
    memcpy(out + row * row_floats, in + row * row_floats, static_cast<std::size_t>(row_floats) * sizeof(float));
}

__global__ void copy_into_one_row(const float* in, float* out, int row_floats) {
  memcpy(out, in + threadIdx.x * row_floats, static_cast<std::size_t>(row_floats) * sizeof(float));
}

__global__ void clear_rows(float* out, int row_floats) {
  memset(out + threadIdx.x * row_floats, 0, static_cast<std::size_t>(row_floats) * sizeof(float));
}

TEST(CudaCpuInitcheck, MemcpyAndMemsetOfRunTimeSizesAreCheckedAndCounted) {
  std::vector<float> values(8 * 16);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i);
  float* in = device_copy(values);
  float* out = nullptr;
  ASSERT_EQ(cudaMalloc(&out, values.size() * sizeof(float)), cudaSuccess);
  rooflab::cuda_cpu::take_launch_records();
  EXPECT_EQ(kernel_error([&] { launch("copy_rows", copy_rows, dim3(1), dim3(8), 0, in, out, 16, 8); }), "");
  EXPECT_EQ(host_copy(out, values.size()), values);
  const auto records = rooflab::cuda_cpu::take_launch_records();
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].memory.dram_read_bytes, values.size() * sizeof(float));
  EXPECT_EQ(records[0].memory.dram_write_bytes, values.size() * sizeof(float));
  // One row past the end of `in`: memcheck, naming the buffer and the line.
  EXPECT_THAT(kernel_error([&] { launch("copy_rows", copy_rows, dim3(1), dim3(9), 0, in, out, 16, 9); }),
              HasSubstr("past its end"));
  // Threads copying into the same row: a race.
  EXPECT_THAT(kernel_error([&] { launch("copy_into_one_row", copy_into_one_row, dim3(1), dim3(8), 0, in, out, 16); }),
              HasSubstr("race on device buffer of 512 bytes (the kernel's argument 2)"));
  EXPECT_EQ(kernel_error([&] { launch("clear_rows", clear_rows, dim3(1), dim3(8), 0, out, 16); }), "");
  EXPECT_EQ(host_copy(out, values.size()), std::vector<float>(values.size(), 0.0f));
  cudaFree(in);
  cudaFree(out);
}

// What the launch read, by writer, and what the host got back, by writer.
__global__ void scores_from(const float* q, const float* k, float* scores) {
  scores[threadIdx.x] = q[threadIdx.x] * k[threadIdx.x];
}
__global__ void double_them(const float* scores, float* out) { out[threadIdx.x] = 2.0f * scores[threadIdx.x]; }

TEST(CudaCpuInitcheck, LaunchesRecordWhoWroteWhatTheyReadAndCopiesBackSayWhoWroteThem) {
  const std::vector<float> q{1.5f, 2.5f, 3.5f, 4.5f}, k{10.0f, 20.0f, 30.0f, 40.0f};
  float* device_q = device_copy(q);
  float* device_k = device_copy(k);
  float *scores = nullptr, *out = nullptr, *copy = nullptr;
  ASSERT_EQ(cudaMalloc(&scores, 16), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&out, 16), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&copy, 16), cudaSuccess);
  rooflab::cuda_cpu::take_launch_records();
  rooflab::cuda_cpu::take_device_to_host_words();
  launch("scores_from", scores_from, dim3(1), dim3(4), 0, device_q, device_k, scores);
  launch("double_them", double_them, dim3(1), dim3(4), 0, scores, out);
  // A copy within the device keeps who wrote each byte.
  ASSERT_EQ(cudaMemcpy(copy, out, 16, cudaMemcpyDeviceToDevice), cudaSuccess);
  const std::vector<float> result = host_copy(copy, 4);
  const std::vector<float> inputs = host_copy(device_q, 4);
  const auto records = rooflab::cuda_cpu::take_launch_records();
  ASSERT_EQ(records.size(), 2u);
  using Read = std::pair<std::string, std::uint64_t>;
  EXPECT_EQ(records[0].bytes_read_from, (std::vector<Read>{{"cudaMemcpy from the host", 32}}));
  EXPECT_EQ(records[1].bytes_read_from, (std::vector<Read>{{"scores_from", 16}}));
  std::vector<std::uint32_t> host_words;
  for (const float value : {q[0], q[1], q[2], q[3], k[0], k[1], k[2], k[3]}) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, 4);
    host_words.push_back(bits);
  }
  std::sort(host_words.begin(), host_words.end());
  EXPECT_EQ(records[0].host_words_read, host_words);
  EXPECT_TRUE(records[1].host_words_read.empty());
  const auto copied_back = rooflab::cuda_cpu::take_device_to_host_words();
  ASSERT_EQ(copied_back.size(), 2u);
  EXPECT_EQ(copied_back[0].writer, "cudaMemcpy from the host");
  EXPECT_EQ(copied_back[1].writer, "double_them");
  EXPECT_EQ(copied_back[1].words.size(), 4u);
  std::uint32_t first;
  std::memcpy(&first, &result[0], 4);
  EXPECT_TRUE(std::binary_search(copied_back[1].words.begin(), copied_back[1].words.end(), first));
  EXPECT_EQ(result[0], 30.0f);
  EXPECT_EQ(inputs, q);
  for (float* buffer : {device_q, device_k, scores, out, copy}) cudaFree(buffer);
}

// Device memory is what cudaMalloc gave, a __device__ or __constant__
// variable, or read-only constants; a host global is host memory.
float host_table[64];
__device__ float device_table[64];
__constant__ float constants[4];

__global__ void read_table(const float* table, float* out) { out[threadIdx.x] = table[threadIdx.x]; }
__global__ void read_device_variables(float* out) {
  device_table[threadIdx.x] = constants[threadIdx.x % 4];
  out[threadIdx.x] = device_table[threadIdx.x] + static_cast<float>("abc"[threadIdx.x % 3]);
}

TEST(CudaCpuMemcheck, AHostGlobalIsHostMemoryAndDeviceVariablesAreDeviceMemory) {
  float* out = device_copy(std::vector<float>(64, 0.0f));
  const std::string error =
      kernel_error([&] { launch("read_table", read_table, dim3(1), dim3(64), 0, host_table, out); });
  EXPECT_THAT(error, HasSubstr("invalid read of 4 bytes"));
  EXPECT_THAT(error, HasSubstr("host memory, which the kernel's argument 1 points into"));
  const float values[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  ASSERT_EQ(cudaMemcpyToSymbol(constants, values, sizeof values), cudaSuccess);
  EXPECT_EQ(kernel_error([&] { launch("read_device_variables", read_device_variables, dim3(1), dim3(64), 0, out); }),
            "");
  EXPECT_EQ(host_copy(out, 2), (std::vector<float>{1.0f + 'a', 2.0f + 'b'}));
  cudaFree(out);
}

// An index past a buffer's end lands in that buffer's guard, never in the
// next buffer: the error names the right one.
__global__ void read_second(const float* first, const float* second, float* out, int past) {
  out[threadIdx.x] = first[threadIdx.x] + second[threadIdx.x + past];
}

TEST(CudaCpuMemcheck, AnIndexPastTheEndNamesTheBufferItRanOffEvenFarOut) {
  float* first = device_copy(std::vector<float>(384, 1.0f));
  float* second = device_copy(std::vector<float>(384, 2.0f));
  float* out = device_copy(std::vector<float>(32, 0.0f));
  for (const int past : {384, 700, 2000}) {
    const std::string error =
        kernel_error([&] { launch("read_second", read_second, dim3(1), dim3(32), 0, first, second, out, past); });
    EXPECT_THAT(error, HasSubstr("device buffer of 1536 bytes (the kernel's argument 2), byte ")) << past;
    EXPECT_THAT(error, HasSubstr("past its end")) << past;
  }
  cudaFree(first);
  cudaFree(second);
  cudaFree(out);
}

}  // namespace
