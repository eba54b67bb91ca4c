// The tensor-core atoms (rooflab/tensor_core.hpp) on small known inputs, in
// plain CUDA: it builds for the CPU runtime and with nvcc for a GPU.
#include "tensor_core_kernels.hpp"

#include <mma.h>

#include <cstring>

#include "rooflab/cuda_helpers.hpp"
#include "rooflab/tensor_core.hpp"

namespace tensor_core_kernels {

namespace {

namespace tc = rooflab::tensor_core;

__device__ std::uint32_t tf32_register(float value) {
  std::uint32_t bits;
  memcpy(&bits, &value, sizeof bits);
  return bits;
}

// One warp: each lane packs its A and B registers from row-major a (16 × K)
// and b (K × 8) by the PTX ISA's mapping, and unpacks D the same way.
template <Mma Shape>
__global__ void mma_kernel(const float* a, const float* b, const float* c, float* d) {
  constexpr int K = Shape == Mma::m16n8k16_f16 || Shape == Mma::m16n8k16_bf16 ? 16 : 8;
  const int lane = threadIdx.x;
  float accumulator[4], sum[4];
  for (int i = 0; i < 4; ++i) {
    const tc::Element at = tc::c_m16n8(lane, i);
    accumulator[i] = c[at.row * 8 + at.col];
  }
  if constexpr (Shape == Mma::m16n8k16_f16 || Shape == Mma::m16n8k16_bf16) {
    std::uint32_t a_registers[4], b_registers[2];
    for (int r = 0; r < 4; ++r) {
      const tc::Element low = tc::a_m16n8k16(lane, 2 * r), high = tc::a_m16n8k16(lane, 2 * r + 1);
      const float x = a[low.row * K + low.col], y = a[high.row * K + high.col];
      a_registers[r] = Shape == Mma::m16n8k16_f16 ? tc::pack_half2(x, y) : tc::pack_bfloat162(x, y);
    }
    for (int r = 0; r < 2; ++r) {
      const tc::Element low = tc::b_m16n8k16(lane, 2 * r), high = tc::b_m16n8k16(lane, 2 * r + 1);
      const float x = b[low.row * 8 + low.col], y = b[high.row * 8 + high.col];
      b_registers[r] = Shape == Mma::m16n8k16_f16 ? tc::pack_half2(x, y) : tc::pack_bfloat162(x, y);
    }
    if constexpr (Shape == Mma::m16n8k16_f16)
      tc::mma_m16n8k16_f16(sum, a_registers, b_registers, accumulator);
    else
      tc::mma_m16n8k16_bf16(sum, a_registers, b_registers, accumulator);
  } else if constexpr (Shape == Mma::m16n8k8_f16) {
    std::uint32_t a_registers[2], b_registers[1];
    for (int r = 0; r < 2; ++r) {
      const tc::Element low = tc::a_m16n8k8_f16(lane, 2 * r), high = tc::a_m16n8k8_f16(lane, 2 * r + 1);
      a_registers[r] = tc::pack_half2(a[low.row * K + low.col], a[high.row * K + high.col]);
    }
    const tc::Element low = tc::b_m16n8k8_f16(lane, 0), high = tc::b_m16n8k8_f16(lane, 1);
    b_registers[0] = tc::pack_half2(b[low.row * 8 + low.col], b[high.row * 8 + high.col]);
    tc::mma_m16n8k8_f16(sum, a_registers, b_registers, accumulator);
  } else {
    std::uint32_t a_registers[4], b_registers[2];
    for (int i = 0; i < 4; ++i) {
      const tc::Element at = tc::a_m16n8k8_tf32(lane, i);
      a_registers[i] = tf32_register(a[at.row * K + at.col]);
    }
    for (int i = 0; i < 2; ++i) {
      const tc::Element at = tc::b_m16n8k8_tf32(lane, i);
      b_registers[i] = tf32_register(b[at.row * 8 + at.col]);
    }
    tc::mma_m16n8k8_tf32(sum, a_registers, b_registers, accumulator);
  }
  for (int i = 0; i < 4; ++i) {
    const tc::Element at = tc::c_m16n8(lane, i);
    d[at.row * 8 + at.col] = sum[i];
  }
}

// 32 rows of 8 16-bit elements (16 bytes each) in shared memory; lane l
// copies row l in and gives its address.
template <int Matrices, bool Transposed>
__global__ void ldmatrix_kernel(const uint4* tile, std::uint32_t* out) {
  __shared__ uint4 rows[32];
  const int lane = threadIdx.x;
  rows[lane] = tile[lane];
  __syncwarp();
  std::uint32_t received[Matrices];
  if constexpr (Matrices == 1) {
    if constexpr (Transposed)
      tc::ldmatrix_x1_trans(received, &rows[lane]);
    else
      tc::ldmatrix_x1(received, &rows[lane]);
  } else if constexpr (Matrices == 2) {
    if constexpr (Transposed)
      tc::ldmatrix_x2_trans(received, &rows[lane]);
    else
      tc::ldmatrix_x2(received, &rows[lane]);
  } else {
    if constexpr (Transposed)
      tc::ldmatrix_x4_trans(received, &rows[lane]);
    else
      tc::ldmatrix_x4(received, &rows[lane]);
  }
  for (int j = 0; j < Matrices; ++j) out[lane * Matrices + j] = received[j];
}

// A: 16 rows of 16 halves (2 × 16 bytes per row); B: 16 rows (k) of 8 halves.
__global__ void ldmatrix_then_mma_kernel(const uint4* a, const uint4* b, float* d) {
  __shared__ uint4 a_tile[32], b_tile[16];
  const int lane = threadIdx.x;
  a_tile[lane] = a[lane];
  if (lane < 16) b_tile[lane] = b[lane];
  __syncwarp();
  // Lane l gives row l % 16 of A, its left half for lanes 0…15 and its right
  // half for 16…31: matrices (rows 0–7, 8–15) × (columns 0–7, 8–15), which
  // are A's registers 0…3 of m16n8k16.
  std::uint32_t a_registers[4], b_registers[2];
  tc::ldmatrix_x4(a_registers, &a_tile[(lane % 16) * 2 + lane / 16]);
  // Lanes 0…15 give B's rows k = 0…15; transposed, each lane holds (k, n)
  // pairs along k, as B's registers do.
  tc::ldmatrix_x2_trans(b_registers, &b_tile[lane % 16]);
  const float zero[4] = {0, 0, 0, 0};
  float sum[4];
  tc::mma_m16n8k16_f16(sum, a_registers, b_registers, zero);
  for (int i = 0; i < 4; ++i) {
    const tc::Element at = tc::c_m16n8(lane, i);
    d[at.row * 8 + at.col] = sum[i];
  }
}

__global__ void wmma_kernel(const __half* a, const __half* b, const float* c, float* d) {
  namespace wmma = nvcuda::wmma;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a_part;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b_part;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> sum;
  wmma::load_matrix_sync(a_part, a, 16);
  wmma::load_matrix_sync(b_part, b, 16);
  wmma::load_matrix_sync(sum, c, 16, wmma::mem_row_major);
  wmma::mma_sync(sum, a_part, b_part, sum);
  wmma::store_matrix_sync(d, sum, 16, wmma::mem_row_major);
}

__global__ void cp_async_exchange_kernel(const float4* in, float4* out, unsigned source_bytes) {
  __shared__ float4 tile[32];
  const int lane = threadIdx.x;
  tc::cp_async_16_cg(&tile[lane], &in[lane], source_bytes);
  tc::cp_async_commit_group();
  tc::cp_async_wait_group<0>();
  __syncthreads();
  out[lane] = tile[(lane + 1) % 32];
}

__global__ void cp_async_two_stages_kernel(const float4* in, float* out) {
  __shared__ float4 stages[2][32];
  const int lane = threadIdx.x;
  tc::cp_async_16_ca(&stages[0][lane], &in[lane]);
  tc::cp_async_commit_group();
  tc::cp_async_16_cg(&stages[1][lane], &in[32 + lane]);
  tc::cp_async_commit_group();
  tc::cp_async_wait_group<1>();  // the first stage has landed; the second may not have
  __syncthreads();
  const float4 first = stages[0][(lane + 1) % 32];
  tc::cp_async_wait_all();
  __syncthreads();
  const float4 second = stages[1][(lane + 1) % 32];
  out[2 * lane] = first.x + first.y + first.z + first.w;
  out[2 * lane + 1] = second.x + second.y + second.z + second.w;
}

// Halves (as 16-bit patterns, row-major) packed 8 to a uint4.
std::vector<uint4> as_rows(const std::vector<std::uint16_t>& halves) {
  std::vector<uint4> rows(halves.size() / 8);
  std::memcpy(rows.data(), halves.data(), halves.size() * sizeof(std::uint16_t));
  return rows;
}

std::vector<std::uint16_t> half_bits(const std::vector<float>& values) {
  std::vector<std::uint16_t> bits;
  for (const float value : values) bits.push_back(__half_as_ushort(__float2half_rn(value)));
  return bits;
}

}  // namespace

using rooflab::cuda::DeviceBuffer;

std::vector<float> mma(Mma shape, const std::vector<float>& a, const std::vector<float>& b,
                       const std::vector<float>& c) {
  const DeviceBuffer<float> a_device(a), b_device(b), c_device(c);
  DeviceBuffer<float> d(16 * 8);
  switch (shape) {
    case Mma::m16n8k16_f16:
      mma_kernel<Mma::m16n8k16_f16><<<1, 32>>>(a_device.get(), b_device.get(), c_device.get(), d.get());
      break;
    case Mma::m16n8k16_bf16:
      mma_kernel<Mma::m16n8k16_bf16><<<1, 32>>>(a_device.get(), b_device.get(), c_device.get(), d.get());
      break;
    case Mma::m16n8k8_f16:
      mma_kernel<Mma::m16n8k8_f16><<<1, 32>>>(a_device.get(), b_device.get(), c_device.get(), d.get());
      break;
    case Mma::m16n8k8_tf32:
      mma_kernel<Mma::m16n8k8_tf32><<<1, 32>>>(a_device.get(), b_device.get(), c_device.get(), d.get());
      break;
  }
  ROOFLAB_CUDA_CHECK(cudaGetLastError());
  return d.to_host();
}

std::vector<std::uint32_t> ldmatrix(int matrices, bool transposed, const std::vector<std::uint16_t>& tile) {
  const DeviceBuffer<uint4> tile_device(as_rows(tile));
  DeviceBuffer<std::uint32_t> out(32 * static_cast<std::size_t>(matrices));
  if (matrices == 1 && transposed) {
    ldmatrix_kernel<1, true><<<1, 32>>>(tile_device.get(), out.get());
  } else if (matrices == 1) {
    ldmatrix_kernel<1, false><<<1, 32>>>(tile_device.get(), out.get());
  } else if (matrices == 2 && transposed) {
    ldmatrix_kernel<2, true><<<1, 32>>>(tile_device.get(), out.get());
  } else if (matrices == 2) {
    ldmatrix_kernel<2, false><<<1, 32>>>(tile_device.get(), out.get());
  } else if (transposed) {
    ldmatrix_kernel<4, true><<<1, 32>>>(tile_device.get(), out.get());
  } else {
    ldmatrix_kernel<4, false><<<1, 32>>>(tile_device.get(), out.get());
  }
  ROOFLAB_CUDA_CHECK(cudaGetLastError());
  return out.to_host();
}

std::vector<float> ldmatrix_then_mma(const std::vector<float>& a, const std::vector<float>& b) {
  const DeviceBuffer<uint4> a_device(as_rows(half_bits(a))), b_device(as_rows(half_bits(b)));
  DeviceBuffer<float> d(16 * 8);
  ldmatrix_then_mma_kernel<<<1, 32>>>(a_device.get(), b_device.get(), d.get());
  ROOFLAB_CUDA_CHECK(cudaGetLastError());
  return d.to_host();
}

std::vector<float> wmma_m16n16k16(const std::vector<float>& a, const std::vector<float>& b,
                                  const std::vector<float>& c) {
  std::vector<__half> a_halves, b_halves;
  for (const float x : a) a_halves.push_back(__float2half_rn(x));
  for (const float x : b) b_halves.push_back(__float2half_rn(x));
  const DeviceBuffer<__half> a_device(a_halves), b_device(b_halves);
  const DeviceBuffer<float> c_device(c);
  DeviceBuffer<float> d(16 * 16);
  wmma_kernel<<<1, 32>>>(a_device.get(), b_device.get(), c_device.get(), d.get());
  ROOFLAB_CUDA_CHECK(cudaGetLastError());
  return d.to_host();
}

// The floats as float4 rows: cudaMalloc aligns far beyond 16 bytes.
std::vector<float> cp_async_exchange(const std::vector<float>& in, unsigned source_bytes) {
  const DeviceBuffer<float> in_device(in);
  DeviceBuffer<float> out(128);
  cp_async_exchange_kernel<<<1, 32>>>(reinterpret_cast<const float4*>(in_device.get()),
                                      reinterpret_cast<float4*>(out.get()), source_bytes);
  ROOFLAB_CUDA_CHECK(cudaGetLastError());
  return out.to_host();
}

std::vector<float> cp_async_two_stages(const std::vector<float>& in) {
  const DeviceBuffer<float> in_device(in);
  DeviceBuffer<float> out(64);
  cp_async_two_stages_kernel<<<1, 32>>>(reinterpret_cast<const float4*>(in_device.get()), out.get());
  ROOFLAB_CUDA_CHECK(cudaGetLastError());
  return out.to_host();
}

}  // namespace tensor_core_kernels
