// The tensor-core atoms (rooflab/tensor_core.hpp) against the PTX ISA: the
// lane-to-element mappings as its figures draw them, and each atom on known
// inputs, and WMMA beside them. It runs on the CPU runtime in every build,
// and on a GPU where the build has one (common_gpu_tests), where it checks
// the mappings against the hardware.
#include "rooflab/tensor_core_layouts.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "tensor_core_kernels.hpp"

namespace {

namespace tc = rooflab::tensor_core;
using tensor_core_kernels::Mma;

std::pair<int, int> at(tc::Element element) { return {element.row, element.col}; }

// Entries read off the PTX ISA's figures ("Matrix Fragments for
// mma.m16n8k16 / m16n8k8", "ldmatrix"), written out here rather than from
// the header's formulas, and every element held by exactly one lane.
TEST(TensorCoreAtoms, MappingsAreThePtxIsaFigures) {
  // m16n8k16 A, lane 5 (groupID 1, threadID_in_group 1): a0…a7.
  const std::vector<std::pair<int, int>> lane5_a{{1, 2}, {1, 3}, {9, 2}, {9, 3}, {1, 10}, {1, 11}, {9, 10}, {9, 11}};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(at(tc::a_m16n8k16(5, i)), lane5_a[i]) << "a" << i;
  // B, lane 30 (groupID 7, threadID_in_group 2): b0…b3 as (k, n).
  const std::vector<std::pair<int, int>> lane30_b{{4, 7}, {5, 7}, {12, 7}, {13, 7}};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(at(tc::b_m16n8k16(30, i)), lane30_b[i]) << "b" << i;
  // C/D, lane 31: c0…c3.
  const std::vector<std::pair<int, int>> lane31_c{{7, 6}, {7, 7}, {15, 6}, {15, 7}};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(at(tc::c_m16n8(31, i)), lane31_c[i]) << "c" << i;
  // m16n8k8 tf32 A, lane 6 (groupID 1, threadID_in_group 2): a0…a3; B: b0, b1.
  const std::vector<std::pair<int, int>> lane6_tf32{{1, 2}, {9, 2}, {1, 6}, {9, 6}};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(at(tc::a_m16n8k8_tf32(6, i)), lane6_tf32[i]) << "a" << i;
  EXPECT_EQ(at(tc::b_m16n8k8_tf32(6, 0)), std::make_pair(2, 1));
  EXPECT_EQ(at(tc::b_m16n8k8_tf32(6, 1)), std::make_pair(6, 1));
  // m16n8k8 f16, lane 9 (groupID 2, threadID_in_group 1).
  EXPECT_EQ(at(tc::a_m16n8k8_f16(9, 3)), std::make_pair(10, 3));
  EXPECT_EQ(at(tc::b_m16n8k8_f16(9, 1)), std::make_pair(3, 2));
  // ldmatrix, lane 13: (3, 2) and (3, 3) of each matrix; transposed (2, 3), (3, 3).
  EXPECT_EQ(at(tc::ldmatrix_element(13, 0, false)), std::make_pair(3, 2));
  EXPECT_EQ(at(tc::ldmatrix_element(13, 1, false)), std::make_pair(3, 3));
  EXPECT_EQ(at(tc::ldmatrix_element(13, 0, true)), std::make_pair(2, 3));
  EXPECT_EQ(at(tc::ldmatrix_element(13, 1, true)), std::make_pair(3, 3));

  const auto covers = [](int rows, int cols, int per_lane, auto mapping) {
    std::set<std::pair<int, int>> held;
    for (int lane = 0; lane < 32; ++lane)
      for (int i = 0; i < per_lane; ++i) {
        const tc::Element e = mapping(lane, i);
        if (e.row < 0 || e.row >= rows || e.col < 0 || e.col >= cols) return false;
        held.insert({e.row, e.col});
      }
    return static_cast<int>(held.size()) == rows * cols;
  };
  EXPECT_TRUE(covers(16, 16, 8, tc::a_m16n8k16));
  EXPECT_TRUE(covers(16, 8, 4, tc::b_m16n8k16));
  EXPECT_TRUE(covers(16, 8, 4, tc::a_m16n8k8_f16));
  EXPECT_TRUE(covers(8, 8, 2, tc::b_m16n8k8_f16));
  EXPECT_TRUE(covers(16, 8, 4, tc::a_m16n8k8_tf32));
  EXPECT_TRUE(covers(8, 8, 2, tc::b_m16n8k8_tf32));
  EXPECT_TRUE(covers(16, 8, 4, tc::c_m16n8));
  EXPECT_TRUE(covers(8, 8, 2, [](int lane, int i) { return tc::ldmatrix_element(lane, i, false); }));
  EXPECT_TRUE(covers(8, 8, 2, [](int lane, int i) { return tc::ldmatrix_element(lane, i, true); }));
}

int depth_of(Mma shape) { return shape == Mma::m16n8k16_f16 || shape == Mma::m16n8k16_bf16 ? 16 : 8; }

std::vector<double> reference(const std::vector<float>& a, const std::vector<float>& b, const std::vector<float>& c,
                              int k_depth, std::vector<double>* magnitude = nullptr) {
  std::vector<double> d(16 * 8);
  if (magnitude) magnitude->assign(16 * 8, 0);
  for (int row = 0; row < 16; ++row)
    for (int col = 0; col < 8; ++col) {
      double sum = c[row * 8 + col], size = std::fabs(c[row * 8 + col]);
      for (int k = 0; k < k_depth; ++k) {
        sum += static_cast<double>(a[row * k_depth + k]) * b[k * 8 + col];
        size += std::fabs(static_cast<double>(a[row * k_depth + k]) * b[k * 8 + col]);
      }
      d[row * 8 + col] = sum;
      if (magnitude) (*magnitude)[row * 8 + col] = size;
    }
  return d;
}

// Small integers: every input, product and sum is exact in fp16, bf16, tf32
// and fp32, whatever order the tensor cores add in. D must be A·B + C
// exactly, element by element: a lane holding another element than the
// mapping says shows as a wrong entry.
TEST(TensorCoreAtoms, EveryMmaShapeMultipliesExactlyOnSmallIntegers) {
  std::mt19937 engine(7);
  std::uniform_int_distribution<int> small(-8, 8);
  for (const Mma shape : {Mma::m16n8k16_f16, Mma::m16n8k16_bf16, Mma::m16n8k8_f16, Mma::m16n8k8_tf32}) {
    const int k_depth = depth_of(shape);
    std::vector<float> a(16 * k_depth), b(k_depth * 8), c(16 * 8);
    for (float& x : a) x = static_cast<float>(small(engine));
    for (float& x : b) x = static_cast<float>(small(engine));
    for (float& x : c) x = static_cast<float>(small(engine));
    const std::vector<float> d = tensor_core_kernels::mma(shape, a, b, c);
    const std::vector<double> expected = reference(a, b, c, k_depth);
    for (int i = 0; i < 16 * 8; ++i)
      ASSERT_EQ(d[i], expected[i]) << "shape " << static_cast<int>(shape) << ", D(" << i / 8 << ", " << i % 8 << ")";
  }
}

// Real values: within fp32 summation's bound of an fp64 reference. Inputs
// are exact in the input type (fp16 values here), so only the fp32 sums
// round: K + 1 of them, each within 2^-23 of the running total (a rounding or
// a truncation, as tensor cores may do), bounded by
// the sum of magnitudes (docs/06_cuda_attention.md, tensor cores).
TEST(TensorCoreAtoms, MmaSumsAreWithinFp32RoundingOfAnFp64Reference) {
  std::mt19937 engine(11);
  std::uniform_real_distribution<float> uniform(-2.0f, 2.0f);
  const auto half_exact = [](float x) { return std::ldexp(std::round(std::ldexp(x, 10)), -10); };
  for (const Mma shape : {Mma::m16n8k16_f16, Mma::m16n8k16_bf16, Mma::m16n8k8_f16, Mma::m16n8k8_tf32}) {
    const int k_depth = depth_of(shape);
    std::vector<float> a(16 * k_depth), b(k_depth * 8), c(16 * 8);
    // 10 fractional bits of a value below 2 fit fp16's and tf32's mantissa;
    // bf16 keeps 8 bits: 6 fractional bits there.
    const auto exact = [&](float x) {
      return shape == Mma::m16n8k16_bf16 ? std::ldexp(std::round(std::ldexp(x, 6)), -6) : half_exact(x);
    };
    for (float& x : a) x = exact(uniform(engine));
    for (float& x : b) x = exact(uniform(engine));
    for (float& x : c) x = uniform(engine);
    const std::vector<float> d = tensor_core_kernels::mma(shape, a, b, c);
    std::vector<double> magnitude;
    const std::vector<double> expected = reference(a, b, c, k_depth, &magnitude);
    for (int i = 0; i < 16 * 8; ++i)
      EXPECT_NEAR(d[i], expected[i], (k_depth + 1) * std::ldexp(magnitude[i], -23))
          << "shape " << static_cast<int>(shape) << ", D(" << i / 8 << ", " << i % 8 << ")";
  }
}

TEST(TensorCoreAtoms, LdmatrixGivesEachLaneTheElementsThePtxIsaSays) {
  std::vector<std::uint16_t> tile(32 * 8);
  for (std::size_t i = 0; i < tile.size(); ++i) tile[i] = static_cast<std::uint16_t>(1000 + i);
  for (const int matrices : {1, 2, 4})
    for (const bool transposed : {false, true}) {
      const std::vector<std::uint32_t> received = tensor_core_kernels::ldmatrix(matrices, transposed, tile);
      for (int lane = 0; lane < 32; ++lane)
        for (int j = 0; j < matrices; ++j)
          for (int i = 0; i < 2; ++i) {
            const tc::Element e = tc::ldmatrix_element(lane, i, transposed);
            const auto element = static_cast<std::uint16_t>(received[lane * matrices + j] >> (16 * i));
            ASSERT_EQ(element, tile[(8 * j + e.row) * 8 + e.col])
                << "x" << matrices << (transposed ? ".trans" : "") << ", lane " << lane << ", register " << j
                << ", half " << i;
          }
    }
}

TEST(TensorCoreAtoms, LdmatrixFeedsMmaAsKernelsUseThem) {
  std::vector<float> a(16 * 16), b(16 * 8);
  for (int i = 0; i < 16 * 16; ++i) a[i] = static_cast<float>(i % 13 - 6);
  for (int i = 0; i < 16 * 8; ++i) b[i] = static_cast<float>(i % 7 - 3);
  const std::vector<float> d = tensor_core_kernels::ldmatrix_then_mma(a, b);
  const std::vector<double> expected = reference(a, b, std::vector<float>(16 * 8, 0.0f), 16);
  for (int i = 0; i < 16 * 8; ++i) ASSERT_EQ(d[i], expected[i]) << "D(" << i / 8 << ", " << i % 8 << ")";
}

// WMMA on the same footing: small integers, so D is exact on a GPU too,
// whatever layout its fragments have.
TEST(TensorCoreAtoms, WmmaMultipliesExactlyOnSmallIntegers) {
  std::mt19937 engine(3);
  std::uniform_int_distribution<int> small(-8, 8);
  std::vector<float> a(16 * 16), b(16 * 16), c(16 * 16);
  for (float& x : a) x = static_cast<float>(small(engine));
  for (float& x : b) x = static_cast<float>(small(engine));
  for (float& x : c) x = static_cast<float>(small(engine));
  const std::vector<float> d = tensor_core_kernels::wmma_m16n16k16(a, b, c);
  for (int row = 0; row < 16; ++row)
    for (int col = 0; col < 16; ++col) {
      double expected = c[row * 16 + col];
      for (int k = 0; k < 16; ++k) expected += static_cast<double>(a[row * 16 + k]) * b[k * 16 + col];
      ASSERT_EQ(d[row * 16 + col], expected) << "D(" << row << ", " << col << ")";
    }
}

TEST(TensorCoreAtoms, CpAsyncCopiesAndZeroFills) {
  std::vector<float> in(128);
  for (int i = 0; i < 128; ++i) in[i] = static_cast<float>(i + 1);
  for (const unsigned source_bytes : {16u, 8u, 0u}) {
    const std::vector<float> out = tensor_core_kernels::cp_async_exchange(in, source_bytes);
    for (int lane = 0; lane < 32; ++lane)
      for (int j = 0; j < 4; ++j) {
        const int from = (lane + 1) % 32;
        const float expected = static_cast<unsigned>(4 * j) < source_bytes ? in[from * 4 + j] : 0.0f;
        ASSERT_EQ(out[lane * 4 + j], expected) << "src_size " << source_bytes << ", lane " << lane << ", float " << j;
      }
  }
}

TEST(TensorCoreAtoms, CpAsyncWaitGroupLandsTheOlderGroups) {
  std::vector<float> in(256);
  for (int i = 0; i < 256; ++i) in[i] = static_cast<float>(i);
  const std::vector<float> out = tensor_core_kernels::cp_async_two_stages(in);
  for (int lane = 0; lane < 32; ++lane) {
    const int from = (lane + 1) % 32;
    EXPECT_EQ(out[2 * lane], 16.0f * from + 6.0f) << "lane " << lane;  // 4 from + (0+1+2+3)
    EXPECT_EQ(out[2 * lane + 1], 16.0f * (32 + from) + 6.0f) << "lane " << lane;
  }
}

}  // namespace
