// Kernels whose cost in the CPU runtime `rooflab bench cuda-cpu` measures:
// memory-heavy (a copy, a tiled transpose, a row softmax with shuffles) and
// synchronisation-heavy (barriers, many tiny blocks), and tensor cores (a
// WMMA GEMM, whose mma_sync the runtime emulates, and the same GEMM on the
// course's atoms: cp.async, ldmatrix and mma.sync). Compiled twice
// (tools/CMakeLists.txt): ROOFLAB_BENCH_VARIANT names the namespace.
#include <cuda_fp16.h>
#include <mma.h>

#include <cmath>
#include <vector>

#include "cuda_cpu_bench_kernels.hpp"
#include "rooflab/cuda_helpers.hpp"
#include "rooflab/tensor_core.hpp"
#include "rooflab/timing.hpp"

namespace rooflab::bench::ROOFLAB_BENCH_VARIANT {
namespace {

__global__ void copy(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

__global__ void transpose(const float* in, float* out, int width) {
  __shared__ float tile[32][33];
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  __syncthreads();
  const int tx = blockIdx.y * 32 + threadIdx.x, ty = blockIdx.x * 32 + threadIdx.y;
  out[ty * width + tx] = tile[threadIdx.x][threadIdx.y];
}

__global__ void row_softmax(float* rows, int width) {
  float* row = rows + static_cast<long long>(blockIdx.x) * width;
  float largest = -INFINITY;
  for (int j = threadIdx.x; j < width; j += 32) largest = fmaxf(largest, row[j]);
  for (int offset = 16; offset > 0; offset /= 2)
    largest = fmaxf(largest, __shfl_xor_sync(0xffffffffu, largest, offset));
  float sum = 0.0f;
  for (int j = threadIdx.x; j < width; j += 32) sum += expf(row[j] - largest);
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  for (int j = threadIdx.x; j < width; j += 32) row[j] = expf(row[j] - largest) / sum;
}

// C = A·B for n × n fp16 A and B, fp32 C: one warp per 16 × 16 tile of C.
__global__ void wmma_gemm(const __half* a, const __half* b, float* c, int n) {
  namespace wmma = nvcuda::wmma;
  const int row = blockIdx.y * 16, col = blockIdx.x * 16;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> sum;
  wmma::fill_fragment(sum, 0.0f);
  for (int k = 0; k < n; k += 16) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a_part;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b_part;
    wmma::load_matrix_sync(a_part, a + row * n + k, n);
    wmma::load_matrix_sync(b_part, b + k * n + col, n);
    wmma::mma_sync(sum, a_part, b_part, sum);
  }
  wmma::store_matrix_sync(c + row * n + col, sum, n, wmma::mem_row_major);
}

// The same GEMM on the atoms: per k step, each lane copies 16 bytes of A's
// and of B's 16 × 16 tile into shared memory (cp.async), ldmatrix gives A and
// B (transposed) as mma.m16n8k16's registers, and two mma cover C's 16
// columns.
__global__ void mma_gemm(const __half* a, const __half* b, float* c, int n) {
  namespace tc = rooflab::tensor_core;
  __shared__ uint4 a_tile[32], b_tile[32];  // 16 rows of 32 bytes
  const int lane = threadIdx.x, row = blockIdx.y * 16, col = blockIdx.x * 16;
  float sum[2][4] = {};
  for (int k = 0; k < n; k += 16) {
    tc::cp_async_16_cg(&a_tile[lane], a + (row + lane / 2) * n + k + 8 * (lane % 2));
    tc::cp_async_16_cg(&b_tile[lane], b + (k + lane / 2) * n + col + 8 * (lane % 2));
    tc::cp_async_wait_all();
    __syncwarp();
    std::uint32_t a_registers[4], b_registers[4];
    tc::ldmatrix_x4(a_registers, &a_tile[(lane % 16) * 2 + lane / 16]);
    tc::ldmatrix_x4_trans(b_registers, &b_tile[(lane % 16) * 2 + lane / 16]);
    const std::uint32_t left[2] = {b_registers[0], b_registers[1]}, right[2] = {b_registers[2], b_registers[3]};
    tc::mma_m16n8k16_f16(sum[0], a_registers, left, sum[0]);
    tc::mma_m16n8k16_f16(sum[1], a_registers, right, sum[1]);
    __syncwarp();  // every lane has read the tiles before the next copies may land
  }
  for (int half = 0; half < 2; ++half)
    for (int i = 0; i < 4; ++i) {
      const tc::Element at = tc::c_m16n8(lane, i);
      c[(row + at.row) * n + col + 8 * half + at.col] = sum[half][i];
    }
}

__global__ void barriers(int count) {
  for (int i = 0; i < count; ++i) __syncthreads();
}

template <class Launch>
KernelTiming timed(const char* name, int repeats, double accesses, Launch launch) {
  launch();  // warm-up: stacks, pages
  return {name, rooflab::best_seconds(repeats, launch), accesses};
}

}  // namespace

KernelTiming time_copy(int repeats) {
  constexpr int n = 4 << 20;
  rooflab::cuda::DeviceBuffer<float> in(std::vector<float>(n, 1.0f)), out(n);
  return timed("copy (4 M floats)", repeats, 2.0 * n, [&] { copy<<<n / 256, 256>>>(in.get(), out.get(), n); });
}

KernelTiming time_transpose(int repeats) {
  constexpr int width = 1024;
  rooflab::cuda::DeviceBuffer<float> in(std::vector<float>(width * width, 1.0f)), out(width * width);
  return timed("transpose, 32×33 tiles (1024²)", repeats, 4.0 * width * width,
               [&] { transpose<<<dim3(width / 32, width / 32), dim3(32, 32)>>>(in.get(), out.get(), width); });
}

KernelTiming time_row_softmax(int repeats) {
  constexpr int rows = 1024, width = 1024;
  rooflab::cuda::DeviceBuffer<float> data(std::vector<float>(rows * width, 0.5f));
  return timed("row softmax, shuffles (1024²)", repeats, 4.0 * rows * width,
               [&] { row_softmax<<<rows, 32>>>(data.get(), width); });
}

KernelTiming time_wmma_gemm(int repeats) {
  constexpr int n = 256;  // 256 warps × 16 mma_sync
  const std::vector<__half> ones(n * n, __float2half(1.0f));
  rooflab::cuda::DeviceBuffer<__half> a(ones), b(ones);
  rooflab::cuda::DeviceBuffer<float> c(n * n);
  // Each warp's loads and stores are 16-byte pieces: 64 per k step, 64 to store.
  const double accesses = (n / 16.0) * (n / 16.0) * (64.0 * (n / 16) + 64.0);
  return timed("WMMA GEMM 256³ (4096 mma_sync)", repeats, accesses,
               [&] { wmma_gemm<<<dim3(n / 16, n / 16), 32>>>(a.get(), b.get(), c.get(), n); });
}

KernelTiming time_mma_gemm(int repeats) {
  constexpr int n = 256;  // 256 warps × 16 k steps × 2 mma.m16n8k16
  const std::vector<__half> ones(n * n, __float2half(1.0f));
  rooflab::cuda::DeviceBuffer<__half> a(ones), b(ones);
  rooflab::cuda::DeviceBuffer<float> c(n * n);
  // Per lane and k step: 2 copies (a global read, then a shared write, each)
  // and 2 ldmatrix rows; then 8 floats stored.
  const double accesses = (n / 16.0) * (n / 16.0) * 32.0 * (6.0 * (n / 16) + 8.0);
  return timed("atoms GEMM 256³ (cp.async, ldmatrix, 8192 mma.sync m16n8k16)", repeats, accesses,
               [&] { mma_gemm<<<dim3(n / 16, n / 16), 32>>>(a.get(), b.get(), c.get(), n); });
}

KernelTiming time_barriers(int repeats) {
  return timed("8 blocks × 256 threads × 1000 barriers", repeats, 0.0, [] { barriers<<<8, 256>>>(1000); });
}

KernelTiming time_tiny_blocks(int repeats) {
  return timed("2000 blocks of 32 threads", repeats, 0.0, [] { barriers<<<2000, 32>>>(1); });
}

}  // namespace rooflab::bench::ROOFLAB_BENCH_VARIANT
