// nvcuda::wmma in the CPU runtime: every supported shape and layout
// multiplies as the tensor cores do (products exact, sums in fp32), a
// fragment's layout is drawn per launch (elementwise work passes, code that
// assumes a layout fails), the calls are warp-collective and check their
// arguments as the CUDA Programming Guide requires, their shared-memory
// accesses are counted with the bank rule, and each launch counts its
// tensor-core operations.
#include <mma.h>

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "cuda_cpu_testing.hpp"

namespace {

namespace wmma = nvcuda::wmma;
using rooflab::cuda_cpu::LaunchRecord;
using rooflab::cuda_cpu::testing::device_copy;
using rooflab::cuda_cpu::testing::host_copy;
using rooflab::cuda_cpu::testing::kernel_error;
using ::testing::HasSubstr;

// D = A·B + C for one tile, A and B in the given layouts, C and D row-major.
template <int M, int N, int K, class In, class LayoutA, class LayoutB, class Acc>
__global__ void multiply_tile(
    const typename wmma::fragment<wmma::matrix_a, M, N, K, In, LayoutA>::storage_element_type* a,
    const typename wmma::fragment<wmma::matrix_b, M, N, K, In, LayoutB>::storage_element_type* b, const Acc* c,
    Acc* d) {
  wmma::fragment<wmma::matrix_a, M, N, K, In, LayoutA> a_part;
  wmma::fragment<wmma::matrix_b, M, N, K, In, LayoutB> b_part;
  wmma::fragment<wmma::accumulator, M, N, K, Acc> sum;
  constexpr bool a_rows = std::is_same_v<LayoutA, wmma::row_major>, b_rows = std::is_same_v<LayoutB, wmma::row_major>;
  wmma::load_matrix_sync(a_part, a, a_rows ? K : M);
  wmma::load_matrix_sync(b_part, b, b_rows ? N : K);
  wmma::load_matrix_sync(sum, c, N, wmma::mem_row_major);
  wmma::mma_sync(sum, a_part, b_part, sum);
  wmma::store_matrix_sync(d, sum, N, wmma::mem_row_major);
}

template <class T>
T stored(float value) {
  if constexpr (std::is_same_v<T, __half>) return __float2half(value);
  if constexpr (std::is_same_v<T, __nv_bfloat16>) return __float2bfloat16(value);
  if constexpr (std::is_same_v<T, float>) return value;
}
template <class T>
double value_of(T value) {
  if constexpr (std::is_same_v<T, __half>) return __half2float(value);
  if constexpr (std::is_same_v<T, __nv_bfloat16>) return __bfloat162float(value);
  if constexpr (std::is_same_v<T, float>) return value;
}

// Runs multiply_tile on small integers, whose products and sums fp32 holds
// exactly: D must equal A·B + C exactly, whatever layout the launch drew.
template <int M, int N, int K, class In, class LayoutA, class LayoutB, class Acc>
void expect_exact_product() {
  using AElement = typename wmma::fragment<wmma::matrix_a, M, N, K, In, LayoutA>::storage_element_type;
  constexpr bool a_rows = std::is_same_v<LayoutA, wmma::row_major>, b_rows = std::is_same_v<LayoutB, wmma::row_major>;
  std::mt19937 engine(M * 100 + N * 10 + K);
  std::uniform_int_distribution<int> small(-4, 4);
  std::vector<double> a(M * K), b(K * N), c(M * N);
  for (double& value : a) value = small(engine);
  for (double& value : b) value = small(engine);
  for (double& value : c) value = small(engine);
  std::vector<AElement> a_memory(M * K), b_memory(K * N);
  std::vector<Acc> c_memory(M * N);
  for (int r = 0; r < M; ++r)
    for (int k = 0; k < K; ++k) a_memory[a_rows ? r * K + k : k * M + r] = stored<AElement>(a[r * K + k]);
  for (int k = 0; k < K; ++k)
    for (int col = 0; col < N; ++col) b_memory[b_rows ? k * N + col : col * K + k] = stored<AElement>(b[k * N + col]);
  for (int i = 0; i < M * N; ++i) c_memory[i] = stored<Acc>(c[i]);
  AElement* device_a = device_copy(a_memory);
  AElement* device_b = device_copy(b_memory);
  Acc* device_c = device_copy(c_memory);
  Acc* device_d = device_copy(c_memory);
  for (int launch = 0; launch < 3; ++launch) {  // three layouts drawn
    multiply_tile<M, N, K, In, LayoutA, LayoutB, Acc><<<1, 32>>>(device_a, device_b, device_c, device_d);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess) << rooflab::cuda_cpu::last_error_message();
    const std::vector<Acc> d = host_copy(device_d, M * N);
    for (int r = 0; r < M; ++r)
      for (int col = 0; col < N; ++col) {
        double expected = c[r * N + col];
        for (int k = 0; k < K; ++k) expected += a[r * K + k] * b[k * N + col];
        ASSERT_EQ(value_of(d[r * N + col]), expected) << "row " << r << ", column " << col << ", launch " << launch;
      }
  }
  rooflab::cuda_cpu::take_launch_records();
  cudaFree(device_a);
  cudaFree(device_b);
  cudaFree(device_c);
  cudaFree(device_d);
}

TEST(CudaCpuWmma, EveryShapeLayoutAndTypeMultipliesExactly) {
  using wmma::col_major;
  using wmma::row_major;
  expect_exact_product<16, 16, 16, __half, row_major, row_major, float>();
  expect_exact_product<16, 16, 16, __half, row_major, col_major, float>();
  expect_exact_product<16, 16, 16, __half, col_major, row_major, float>();
  expect_exact_product<16, 16, 16, __half, col_major, col_major, __half>();
  expect_exact_product<16, 16, 16, __nv_bfloat16, row_major, col_major, float>();
  expect_exact_product<32, 8, 16, __half, row_major, row_major, float>();
  expect_exact_product<32, 8, 16, __half, col_major, col_major, __half>();
  expect_exact_product<8, 32, 16, __half, row_major, col_major, float>();
  expect_exact_product<8, 32, 16, __nv_bfloat16, col_major, row_major, float>();
  expect_exact_product<16, 16, 8, wmma::precision::tf32, row_major, col_major, float>();
}

// Random fp16 inputs: within fp32's rounding of K sums of the fp64 product.
TEST(CudaCpuWmma, RandomHalvesAgreeWithAnFp64ProductWithinFp32Rounding) {
  std::mt19937 engine(7);
  std::normal_distribution<float> normal;
  std::vector<__half> a(256), b(256);
  for (auto& value : a) value = __float2half(normal(engine));
  for (auto& value : b) value = __float2half(normal(engine));
  __half* device_a = device_copy(a);
  __half* device_b = device_copy(b);
  float* device_c = device_copy(std::vector<float>(256, 0.5f));
  float* device_d = device_copy(std::vector<float>(256, 0.0f));
  multiply_tile<16, 16, 16, __half, wmma::row_major, wmma::row_major, float>
      <<<1, 32>>>(device_a, device_b, device_c, device_d);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  const std::vector<float> d = host_copy(device_d, 256);
  for (int r = 0; r < 16; ++r)
    for (int col = 0; col < 16; ++col) {
      double expected = 0.5, magnitude = 0.5;
      for (int k = 0; k < 16; ++k) {
        const double product = double(__half2float(a[r * 16 + k])) * __half2float(b[k * 16 + col]);
        expected += product;
        magnitude += std::fabs(product);
      }
      // 17 fp32 additions, each off by at most half an ulp of the sum so far.
      EXPECT_NEAR(d[r * 16 + col], expected, 17 * magnitude * 0x1p-24) << r << ", " << col;
    }
  rooflab::cuda_cpu::take_launch_records();
  cudaFree(device_a);
  cudaFree(device_b);
  cudaFree(device_c);
  cudaFree(device_d);
}

// S = Q·Kᵀ scaled element by element, in the accumulator: fine in any layout.
__global__ void scaled_product(const __half* a, const __half* b, float* out, float scale) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a_part;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b_part;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> sum;
  wmma::fill_fragment(sum, 0.0f);
  wmma::load_matrix_sync(a_part, a, 16);
  wmma::load_matrix_sync(b_part, b, 16);
  wmma::mma_sync(sum, a_part, b_part, sum);
  for (int i = 0; i < sum.num_elements; ++i) sum.x[i] *= scale;
  wmma::store_matrix_sync(out, sum, 16, wmma::mem_row_major);
}

// The same, but lane 0 writes "its first element" as if it were S[0][0].
__global__ void first_element(const __half* a, const __half* b, float* out) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a_part;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b_part;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> sum;
  wmma::fill_fragment(sum, 0.0f);
  wmma::load_matrix_sync(a_part, a, 16);
  wmma::load_matrix_sync(b_part, b, 16);
  wmma::mma_sync(sum, a_part, b_part, sum);
  if (threadIdx.x == 0) *out = sum.x[0];
}

TEST(CudaCpuWmma, ElementwiseWorkPassesAndAnAssumedLayoutFailsOnSomeLaunch) {
  std::vector<__half> a(256), b(256);
  for (int i = 0; i < 256; ++i) {
    a[i] = __float2half(static_cast<float>(i % 7));
    b[i] = __float2half(static_cast<float>(i % 5) - 2);
  }
  double s00 = 0;  // S[0][0]: row 0 of A against row 0 of B (B is read column-major: Kᵀ)
  for (int k = 0; k < 16; ++k) s00 += __half2float(a[k]) * __half2float(b[k]);
  __half* device_a = device_copy(a);
  __half* device_b = device_copy(b);
  float* out = device_copy(std::vector<float>(256, 0.0f));
  scaled_product<<<1, 32>>>(device_a, device_b, out, 0.5f);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(host_copy(out, 256)[0], 0.5 * s00);
  int wrong = 0;
  for (int launch = 0; launch < 8; ++launch) {
    first_element<<<1, 32>>>(device_a, device_b, out);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    wrong += host_copy(out, 1)[0] != s00;
  }
  EXPECT_GT(wrong, 0) << "a kernel that assumes which element frag.x[0] holds passed 8 launches";
  rooflab::cuda_cpu::take_launch_records();
  cudaFree(device_a);
  cudaFree(device_b);
  cudaFree(out);
}

// Only the warp's first half multiplies (on the line kHalfTheWarpLine names).
constexpr int kHalfTheWarpLine = __LINE__ + 8;
__global__ void half_a_warp(const __half* a, float* out) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a_part;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b_part;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> sum;
  wmma::fill_fragment(sum, 0.0f);
  wmma::load_matrix_sync(a_part, a, 16);
  wmma::load_matrix_sync(b_part, a, 16);
  if (threadIdx.x < 16) wmma::mma_sync(sum, a_part, b_part, sum);
  wmma::store_matrix_sync(out, sum, 16, wmma::mem_row_major);
}

// Lane 5 loads from elsewhere.
__global__ void lanes_disagree(const __half* a, float* out) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a_part;
  wmma::load_matrix_sync(a_part, threadIdx.x == 5 ? a + 256 : a, 16);
  *out = 0.0f;
}

// A leading dimension or a pointer the Programming Guide does not allow.
__global__ void bad_arguments(const __half* a, unsigned ldm, int offset) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a_part;
  wmma::load_matrix_sync(a_part, a + offset, ldm);
}

TEST(CudaCpuWmma, CallsAreWarpCollectiveAndCheckTheirArguments) {
  __half* a = device_copy(std::vector<__half>(1024, __float2half(1.0f)));
  float* out = device_copy(std::vector<float>(256, 0.0f));
  const std::string divergent = kernel_error([&] { half_a_warp<<<1, 32>>>(a, out); });
  EXPECT_THAT(divergent, HasSubstr("kernel half_a_warp: wmma::mma_sync at "));
  EXPECT_THAT(divergent, HasSubstr("cuda_cpu_wmma_test.cu:" + std::to_string(kHalfTheWarpLine)));
  EXPECT_THAT(divergent, HasSubstr("lane 16"));
  EXPECT_THAT(divergent, HasSubstr("wmma::store_matrix_sync at "));
  EXPECT_THAT(divergent, HasSubstr("converged"));

  const std::string disagree = kernel_error([&] { lanes_disagree<<<1, 32>>>(a, out); });
  EXPECT_THAT(disagree, HasSubstr("wmma::load_matrix_sync at "));
  EXPECT_THAT(disagree, HasSubstr("arguments (pointer, ldm, layout)"));
  EXPECT_THAT(disagree, HasSubstr("every lane must pass the same"));

  EXPECT_EQ(kernel_error([&] { bad_arguments<<<1, 32>>>(a, 16, 16); }), "");
  EXPECT_THAT(kernel_error([&] { bad_arguments<<<1, 32>>>(a, 12, 0); }),
              HasSubstr("wmma::load_matrix_sync: ldm = 12 is not a multiple of 8 elements (16 bytes)"));
  EXPECT_THAT(kernel_error([&] { bad_arguments<<<1, 32>>>(a, 16, 8); }),
              HasSubstr("wmma::load_matrix_sync: its pointer (argument 2) is not 256-bit (32-byte) aligned"));
  EXPECT_THAT(kernel_error([&] { bad_arguments<<<1, 16>>>(a, 16, 0); }),
              HasSubstr("names lane 16, which this block of 16 threads does not have"));
  rooflab::cuda_cpu::take_launch_records();
  cudaFree(a);
  cudaFree(out);
}

// A 16 × 16 fp16 tile with rows `ldm` halves apart, filled in shared memory
// and loaded by one warp: the load's bank conflicts.
__global__ void load_from_shared(const __half* tile, unsigned ldm, float* out) {
  extern __shared__ __half staged[];
  for (unsigned e = threadIdx.x; e < 16 * ldm; e += 32) staged[e] = tile[e % 256];
  __syncwarp();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a_part;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b_part;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> sum;
  wmma::fill_fragment(sum, 0.0f);
  wmma::load_matrix_sync(a_part, staged, ldm);
  wmma::load_matrix_sync(b_part, staged, ldm);
  wmma::mma_sync(sum, a_part, b_part, sum);
  wmma::mma_sync(sum, a_part, b_part, sum);
  wmma::store_matrix_sync(out, sum, 16, wmma::mem_row_major);
}

TEST(CudaCpuWmma, SharedLoadsCountBankConflictsAndLaunchesCountTensorCoreOperations) {
  __half* tile = device_copy(std::vector<__half>(256, __float2half(1.0f)));
  float* out = device_copy(std::vector<float>(256, 0.0f));
  const auto conflicts_with = [&](unsigned ldm) {
    rooflab::cuda_cpu::take_launch_records();
    load_from_shared<<<1, 32, 16 * ldm * sizeof(__half)>>>(tile, ldm, out);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
    const std::vector<LaunchRecord> records = rooflab::cuda_cpu::take_launch_records();
    EXPECT_EQ(records.size(), 1u);
    EXPECT_EQ(records.back().tensor_core_operations, 2u);
    EXPECT_EQ(records.back().tensor_core_flops, 2u * 2 * 16 * 16 * 16);
    EXPECT_EQ(host_copy(out, 256)[17], 32.0f);  // two products of ones over k = 16
    return records.back().memory.shared_bank_conflicts;
  };
  // Rows 32 bytes apart: the 512 bytes lie together, 4 wavefronts a load.
  EXPECT_EQ(conflicts_with(16), 0u);
  // Rows 128 bytes apart: every row's two pieces fall in banks 0-7, 16 words
  // in each: 16 wavefronts where 4 would do, twice.
  EXPECT_EQ(conflicts_with(64), 2u * 12);
  // Rows padded to 144 bytes: each bank holds 4 of the words, no conflict.
  EXPECT_EQ(conflicts_with(72), 0u);
  cudaFree(tile);
  cudaFree(out);
}

}  // namespace
