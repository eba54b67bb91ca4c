// nvcc's registers per kernel, read from what ptxas prints: the GPU model's
// registers for a student's own kernels in `lab profile`.
#include "rooflab/ptxas_registers.hpp"

#include <gtest/gtest.h>

namespace rooflab::kernels {
namespace {

// Lines as nvcc 12 prints them for `-arch=sm_90 -cubin --resource-usage`:
// kernels in a named and an anonymous namespace, a template on an element
// type and d, one on d alone, an extern "C" kernel, a device function's
// properties (no entry) and a kernel whose registers never came.
const char* const kPtxas = R"(ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_ZN18a05_cuda_attention51_GLOBAL__N__d2e020d6_18_flash_attention_cu_0750b5fe13flash_forwardEPKfS2_S2_PfS3_iiiifb' for 'sm_90'
ptxas info    : Function properties for _ZN18a05_cuda_attention51_GLOBAL__N__d2e020d6_18_flash_attention_cu_0750b5fe13flash_forwardEPKfS2_S2_PfS3_iiiifb
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 128 registers, used 1 barriers
ptxas info    : Compiling entry function '_ZN18a05_cuda_attention60_GLOBAL__N__989ad737_27_flash_attention_mma_sync_cu_deb34df522flash_forward_mma_syncI13__nv_bfloat16Li128EEEvPKT_S5_S5_PfS6_iifb' for 'sm_90'
ptxas info    : Used 180 registers, used 1 barriers
ptxas info    : Compiling entry function '_ZN18a05_cuda_attention60_GLOBAL__N__989ad737_27_flash_attention_mma_sync_cu_deb34df522flash_forward_mma_syncI13__nv_bfloat16Li64EEEvPKT_S5_S5_PfS6_iifb' for 'sm_90'
ptxas info    : Used 130 registers, used 1 barriers
ptxas info    : Compiling entry function '_ZN18a05_cuda_attention60_GLOBAL__N__989ad737_27_flash_attention_mma_sync_cu_deb34df522flash_forward_mma_syncI6__halfLi64EEEvPKT_S5_S5_PfS6_iifb' for 'sm_90'
ptxas info    : Used 126 registers, used 1 barriers
ptxas info    : Compiling entry function '_Z25flash_forward_tensor_coreILi64EEvPK6__halfS2_S2_Pfiifb' for 'sm_90'
ptxas info    : Used 48 registers
ptxas info    : Compiling entry function 'softmax_rows' for 'sm_90'
ptxas info    : Function properties for softmax_rows
ptxas info    : Used 29 registers
ptxas info    : Compiling entry function '_Z16weighted_valuesPKfS0_Pfiii' for 'sm_90'
ptxas info    : Compile time = 1.0 ms
)";

TEST(PtxasRegisters, ReadsEveryEntryWithItsNameTemplateArgumentsAndRegisters) {
  const std::vector<PtxasKernel> kernels = parse_ptxas_registers(kPtxas);
  ASSERT_EQ(kernels.size(), 6u);  // weighted_values has no "Used" line
  EXPECT_EQ(kernels[0].name, "flash_forward");
  EXPECT_TRUE(kernels[0].integer_arguments.empty());
  EXPECT_EQ(kernels[0].registers, 128);
  EXPECT_EQ(kernels[1].name, "flash_forward_mma_sync");
  EXPECT_EQ(kernels[1].integer_arguments, std::vector<long long>{128});
  EXPECT_EQ(kernels[1].registers, 180);
  EXPECT_EQ(kernels[4].name, "flash_forward_tensor_core");
  EXPECT_EQ(kernels[4].integer_arguments, std::vector<long long>{64});
  EXPECT_EQ(kernels[5].name, "softmax_rows");
  EXPECT_EQ(kernels[5].registers, 29);
}

TEST(PtxasRegisters, TakesTheInstancesAtTheProfiledHeadDimensionAndTheMostOfSeveral) {
  const auto at_64 = registers_at(parse_ptxas_registers(kPtxas), 64);
  EXPECT_EQ(at_64.at("flash_forward"), 128);           // not a template on d: every d
  EXPECT_EQ(at_64.at("flash_forward_mma_sync"), 130);  // bf16's 130 over fp16's 126
  EXPECT_EQ(at_64.at("flash_forward_tensor_core"), 48);
  EXPECT_EQ(at_64.count("weighted_values"), 0u);
  const auto at_128 = registers_at(parse_ptxas_registers(kPtxas), 128);
  EXPECT_EQ(at_128.at("flash_forward_mma_sync"), 180);
  EXPECT_EQ(at_128.count("flash_forward_tensor_core"), 0u);  // only its d = 64 was compiled
}

TEST(PtxasRegisters, IgnoresWhatIsNotPtxasOutput) {
  EXPECT_TRUE(parse_ptxas_registers("").empty());
  EXPECT_TRUE(parse_ptxas_registers("kernel.cu(3): error: expected a \";\"\nUsed 12 registers\n").empty());
  std::string name;
  std::vector<long long> arguments;
  EXPECT_FALSE(kernel_of_mangled_name("_Z_not_mangled(", name, arguments));
  ASSERT_TRUE(kernel_of_mangled_name("_ZN2ns6kernelILi8ELj16EEEvv", name, arguments));
  EXPECT_EQ(name, "kernel");
  EXPECT_EQ(arguments, (std::vector<long long>{8, 16}));
}

}  // namespace
}  // namespace rooflab::kernels
