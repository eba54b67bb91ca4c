// CUDA's vector types in the CPU runtime: sizes and alignments as CUDA's, a
// float4 load or store one 16-byte access per lane (a warp reading 32
// consecutive float4 is one request of 16 sectors, as Nsight Compute counts
// it), and a vector access at an address its alignment does not divide a
// memcheck error, "misaligned address", as on a GPU.
#include <gtest/gtest.h>

#include <type_traits>
#include <vector>

#include "cuda_cpu_testing.hpp"

namespace {

using rooflab::cuda_cpu::LaunchRecord;
using rooflab::cuda_cpu::testing::device_copy;
using rooflab::cuda_cpu::testing::host_copy;
using rooflab::cuda_cpu::testing::kernel_error;
using ::testing::HasSubstr;

static_assert(sizeof(float4) == 16 && alignof(float4) == 16);
static_assert(sizeof(float2) == 8 && alignof(float2) == 8);
static_assert(sizeof(float3) == 12 && alignof(float3) == 4);
static_assert(sizeof(int4) == 16 && alignof(int4) == 16);
static_assert(sizeof(uint2) == 8 && alignof(uint2) == 8);
static_assert(sizeof(double2) == 16 && alignof(double2) == 16);
static_assert(sizeof(uchar4) == 4 && alignof(uchar4) == 4);
static_assert(std::is_trivially_copyable_v<float4> && std::is_standard_layout_v<float4>);

LaunchRecord only_launch() {
  const auto records = rooflab::cuda_cpu::take_launch_records();
  EXPECT_EQ(records.size(), 1u);
  return records.empty() ? LaunchRecord{} : records.back();
}

// out[i] = 2·in[i], four floats at a time.
__global__ void double_float4(const float4* in, float4* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float4 v = in[i];
  out[i] = make_float4(2 * v.x, 2 * v.y, 2 * v.z, 2 * v.w);
}

TEST(CudaCpuVectorTypes, AWarpOfFloat4LoadsIsOneRequestOfSixteenSectors) {
  constexpr int kVectors = 4 * 256;
  std::vector<float> values(4 * kVectors);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i);
  float* in = device_copy(values);
  float* out = device_copy(std::vector<float>(values.size(), 0.0f));
  rooflab::cuda_cpu::take_launch_records();
  double_float4<<<kVectors / 256, 256>>>(reinterpret_cast<const float4*>(in), reinterpret_cast<float4*>(out));
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  const LaunchRecord record = only_launch();
  EXPECT_EQ(record.memory.global_load_requests, kVectors / 32u);
  EXPECT_EQ(record.memory.global_load_sectors, 16u * kVectors / 32u);
  EXPECT_EQ(record.memory.global_store_requests, kVectors / 32u);
  EXPECT_EQ(record.memory.global_store_sectors, 16u * kVectors / 32u);
  const std::vector<float> doubled = host_copy(out, values.size());
  for (std::size_t i = 0; i < values.size(); ++i) ASSERT_EQ(doubled[i], 2 * values[i]) << i;
  cudaFree(in);
  cudaFree(out);
}

// Reads float4s from a float pointer `offset` floats into the buffer (on
// the line kReadLine names).
constexpr int kReadLine = __LINE__ + 2;
__global__ void read_float4_at(const float* in, int offset, float* out) {
  const float4 v = *reinterpret_cast<const float4*>(in + offset + 4 * threadIdx.x);
  out[threadIdx.x] = v.x + v.y + v.z + v.w;
}

TEST(CudaCpuVectorTypes, AMisalignedFloat4IsAMemcheckError) {
  float* in = device_copy(std::vector<float>(4 * 33, 1.0f));
  float* out = device_copy(std::vector<float>(32, 0.0f));
  EXPECT_EQ(kernel_error([&] { read_float4_at<<<1, 32>>>(in, 0, out); }), "");
  const std::string error = kernel_error([&] { read_float4_at<<<1, 32>>>(in, 1, out); });
  EXPECT_THAT(error, HasSubstr("kernel read_float4_at: misaligned address"));
  EXPECT_THAT(error, HasSubstr("16-byte read"));
  EXPECT_THAT(error, HasSubstr("cuda_cpu_vector_test.cu:" + std::to_string(kReadLine)));
  EXPECT_THAT(error, HasSubstr("device buffer"));
  rooflab::cuda_cpu::take_launch_records();
  cudaFree(in);
  cudaFree(out);
}

// A float2 store at an odd float: misaligned too, and so is a 4-byte int at
// an odd short.
__global__ void write_misaligned(float* floats, short* shorts, int which) {
  if (which == 0) *reinterpret_cast<float2*>(floats + 1) = make_float2(1.0f, 2.0f);
  if (which == 1) *reinterpret_cast<int*>(shorts + 1) = 7;
}

TEST(CudaCpuVectorTypes, MisalignedStoresOfEverySizeAreMemcheckErrors) {
  float* floats = device_copy(std::vector<float>(8, 0.0f));
  short* shorts = device_copy(std::vector<short>(8, 0));
  EXPECT_THAT(kernel_error([&] { write_misaligned<<<1, 1>>>(floats, shorts, 0); }),
              HasSubstr("misaligned address: thread (0, 0, 0) of block (0, 0, 0) makes a 8-byte write"));
  EXPECT_THAT(kernel_error([&] { write_misaligned<<<1, 1>>>(floats, shorts, 1); }),
              HasSubstr("misaligned address: thread (0, 0, 0) of block (0, 0, 0) makes a 4-byte write"));
  rooflab::cuda_cpu::take_launch_records();
  cudaFree(floats);
  cudaFree(shorts);
}

// Every vector type in kernel code, as a GPU kernel would use them.
__global__ void use_vector_types(const int4* ints, const double2* doubles, uint2* out, float3* points) {
  const int4 i = ints[threadIdx.x];
  const double2 d = doubles[threadIdx.x];
  out[threadIdx.x] = make_uint2(static_cast<unsigned>(i.x + i.w), static_cast<unsigned>(d.x * d.y));
  points[threadIdx.x] = make_float3(1.0f, static_cast<float>(i.y), static_cast<float>(i.z));
}

TEST(CudaCpuVectorTypes, IntDoubleAndFloat3RoundTrip) {
  std::vector<int4> ints(32);
  std::vector<double2> doubles(32);
  for (int t = 0; t < 32; ++t) {
    ints[t] = make_int4(t, t + 1, t + 2, 10);
    doubles[t] = make_double2(t, 3.0);
  }
  int4* device_ints = device_copy(ints);
  double2* device_doubles = device_copy(doubles);
  uint2* out = device_copy(std::vector<uint2>(32));
  float3* points = device_copy(std::vector<float3>(32));
  use_vector_types<<<1, 32>>>(device_ints, device_doubles, out, points);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  const auto sums = host_copy(out, 32);
  const auto xyz = host_copy(points, 32);
  for (int t = 0; t < 32; ++t) {
    EXPECT_EQ(sums[t].x, static_cast<unsigned>(t + 10));
    EXPECT_EQ(sums[t].y, static_cast<unsigned>(3 * t));
    EXPECT_EQ(xyz[t].z, static_cast<float>(t + 2));
  }
  rooflab::cuda_cpu::take_launch_records();
  cudaFree(device_ints);
  cudaFree(device_doubles);
  cudaFree(out);
  cudaFree(points);
}

}  // namespace
