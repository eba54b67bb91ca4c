// CUDA's fp16 and bf16 conversions and arithmetic in device code, one thread
// an element, in plain CUDA: it builds for the CPU runtime and with nvcc for
// a GPU (half_kernels.hpp).
#include "half_kernels.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include "rooflab/cuda_helpers.hpp"

namespace half_kernels {

namespace {

constexpr int kThreads = 256;

unsigned blocks_for(std::size_t count) { return static_cast<unsigned>((count + kThreads - 1) / kThreads); }

__global__ void widen_kernel(Format format, const std::uint16_t* in, float* out, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  out[i] =
      format == Format::fp16 ? __half2float(__ushort_as_half(in[i])) : __bfloat162float(__ushort_as_bfloat16(in[i]));
}

__device__ std::uint16_t to_half(float x, Rounding rounding) {
  switch (rounding) {
    case Rounding::toward_zero:
      return __half_as_ushort(__float2half_rz(x));
    case Rounding::down:
      return __half_as_ushort(__float2half_rd(x));
    case Rounding::up:
      return __half_as_ushort(__float2half_ru(x));
    default:
      return __half_as_ushort(__float2half_rn(x));
  }
}

__device__ std::uint16_t to_bfloat16(float x, Rounding rounding) {
  switch (rounding) {
    case Rounding::toward_zero:
      return __bfloat16_as_ushort(__float2bfloat16_rz(x));
    case Rounding::down:
      return __bfloat16_as_ushort(__float2bfloat16_rd(x));
    case Rounding::up:
      return __bfloat16_as_ushort(__float2bfloat16_ru(x));
    default:
      return __bfloat16_as_ushort(__float2bfloat16_rn(x));
  }
}

__global__ void narrow_kernel(Format format, Rounding rounding, const float* in, std::uint16_t* out, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  out[i] = format == Format::fp16 ? to_half(in[i], rounding) : to_bfloat16(in[i], rounding);
}

// T: __half or __nv_bfloat16, whose intrinsics share their names.
template <class T>
__device__ T operate(Operation operation, T a, T b, T c) {
  switch (operation) {
    case Operation::add:
      return __hadd(a, b);
    case Operation::mul:
      return __hmul(a, b);
    default:
      return __hfma(a, b, c);
  }
}

__global__ void arithmetic_kernel(Format format, Operation operation, const std::uint16_t* a, const std::uint16_t* b,
                                  const std::uint16_t* c, std::uint16_t* out, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  if (format == Format::fp16)
    out[i] =
        __half_as_ushort(operate(operation, __ushort_as_half(a[i]), __ushort_as_half(b[i]), __ushort_as_half(c[i])));
  else
    out[i] = __bfloat16_as_ushort(
        operate(operation, __ushort_as_bfloat16(a[i]), __ushort_as_bfloat16(b[i]), __ushort_as_bfloat16(c[i])));
}

}  // namespace

using rooflab::cuda::DeviceBuffer;

std::vector<float> widen(Format format, const std::vector<std::uint16_t>& patterns) {
  const DeviceBuffer<std::uint16_t> in(patterns);
  DeviceBuffer<float> out(patterns.size());
  widen_kernel<<<blocks_for(patterns.size()), kThreads>>>(format, in.get(), out.get(),
                                                          static_cast<int>(patterns.size()));
  ROOFLAB_CUDA_CHECK(cudaGetLastError());
  return out.to_host();
}

std::vector<std::uint16_t> narrow(Format format, Rounding rounding, const std::vector<float>& values) {
  const DeviceBuffer<float> in(values);
  DeviceBuffer<std::uint16_t> out(values.size());
  narrow_kernel<<<blocks_for(values.size()), kThreads>>>(format, rounding, in.get(), out.get(),
                                                         static_cast<int>(values.size()));
  ROOFLAB_CUDA_CHECK(cudaGetLastError());
  return out.to_host();
}

std::vector<std::uint16_t> arithmetic(Format format, Operation operation, const std::vector<std::uint16_t>& a,
                                      const std::vector<std::uint16_t>& b, const std::vector<std::uint16_t>& c) {
  const DeviceBuffer<std::uint16_t> a_device(a), b_device(b), c_device(c);
  DeviceBuffer<std::uint16_t> out(a.size());
  arithmetic_kernel<<<blocks_for(a.size()), kThreads>>>(format, operation, a_device.get(), b_device.get(),
                                                        c_device.get(), out.get(), static_cast<int>(a.size()));
  ROOFLAB_CUDA_CHECK(cudaGetLastError());
  return out.to_host();
}

}  // namespace half_kernels
