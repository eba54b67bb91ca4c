#include "build/checks.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <optional>

#include "os/process.hpp"
#include "rooflab/temp_folder_testing.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace {

// This program's temp folder, removed after its last test.
const std::filesystem::path kTemp = rooflab::testing::program_temp_folder("checks-test");

std::vector<std::string> check(const std::string& source) {
  const auto path = kTemp / "checks-test.cpp";
  text::write_file(path, source);
  return check_source(path, "a01/src/x.cpp");
}

TEST(Checks, IncludesOutsideTheAssignmentAreRefusedWithFileAndLine) {
  EXPECT_TRUE(check("#include \"a01_roofline/memory.hpp\"\n#include <vector>\n").empty());
  const auto relative = check("// fine\n#include \"../../../solutions/a01_roofline/grading/tests/x.cpp\"\n");
  ASSERT_EQ(relative.size(), 1u);
  EXPECT_NE(relative[0].find("a01/src/x.cpp:2"), std::string::npos) << relative[0];
  EXPECT_EQ(check("  #  include </course/solutions/memory.cpp>\n").size(), 1u);
  EXPECT_EQ(check("#if __has_include(\"/etc/passwd\")\n#endif\n").size(), 1u);
  EXPECT_EQ(check("asm(\".incbin \\\"x\\\"\");\n").size(), 1u);
}

TEST(Checks, ForbiddenSymbolsAreNamedWithTheirSource) {
  const std::string nm =
      "/b/CMakeFiles/a01_student.dir/src/memory.cpp.o:0000000000000000 T main\n"
      "/b/CMakeFiles/a01_student.dir/src/memory.cpp.o:                 U exit\n"
      "/b/CMakeFiles/a01_student.dir/src/memory.cpp.o:                 U quick_exit@GLIBC_2.24\n"
      "/b/CMakeFiles/a01_student.dir/src/roofline.cpp.o:0000000000000010 T _ZN12a01_roofline11ridge_pointEdd\n"
      "/b/CMakeFiles/a01_student.dir/src/roofline.cpp.o:                 U _ZN7testing8internal9EqFailureEv\n"
      "/b/CMakeFiles/a01_student.dir/src/roofline.cpp.o:                 U _ZNSt6vectorIdSaIdEE9push_backEv\n"
      "/b/CMakeFiles/a01_student.dir/src/roofline.cpp.o:                 U exit_helper\n";
  const auto problems = check_symbols(nm);
  ASSERT_EQ(problems.size(), 4u) << text::trim(problems.empty() ? "" : problems.back());
  EXPECT_NE(problems[0].find("src/memory.cpp defines main"), std::string::npos) << problems[0];
  EXPECT_NE(problems[1].find("src/memory.cpp calls exit"), std::string::npos) << problems[1];
  EXPECT_NE(problems[2].find("calls quick_exit"), std::string::npos) << problems[2];
  EXPECT_NE(problems[3].find("src/roofline.cpp calls _ZN7testing"), std::string::npos) << problems[3];
}

TEST(Checks, KernelsMayNotTouchTheRecordsTheTestsReadNorReplaceTheCpuRuntime) {
  // A CUDA file's CPU twin is named by its .cu file.
  const std::string twin = "/b/CMakeFiles/a05_student.dir/cuda_on_cpu/src/flash_attention.cu.cpp.o:";
  const std::string nm =
      twin + "                 U _ZN7rooflab8cuda_cpu19take_launch_recordsB5cxx11Ev\n" + twin +
      "                 U _ZN7rooflab10count_callEPKc\n" + twin +
      "                 U _ZN7rooflab8cuda_cpu6detail10run_kernelERKNS1_10KernelCallENS0_4dim3ES6_m\n" + twin +
      "0000000000000000 W _ZN7rooflab8cuda_cpu6launchIJPfEJS2_EEEvPKcPFvDpT_ENS0_4dim3ES8_mDpOT0_\n" + twin +
      "0000000000000000 T _ZN7rooflab8cuda_cpu11thread_indexEv\n" + twin +
      "0000000000000000 W _ZN7rooflab8cuda_cpu19take_launch_recordsB5cxx11Ev\n";
  const auto problems = check_symbols(nm);
  ASSERT_EQ(problems.size(), 4u) << (problems.empty() ? "" : problems.back());
  EXPECT_NE(problems[0].find("src/flash_attention.cu calls _ZN7rooflab8cuda_cpu19take_launch_records"),
            std::string::npos)
      << problems[0];
  EXPECT_NE(problems[1].find("calls _ZN7rooflab10count_call"), std::string::npos) << problems[1];
  EXPECT_NE(problems[2].find("defines _ZN7rooflab8cuda_cpu11thread_index"), std::string::npos) << problems[2];
  EXPECT_NE(problems[3].find("defines _ZN7rooflab8cuda_cpu19take_launch_records"), std::string::npos) << problems[3];
}

TEST(Checks, KernelCodeCallsOnlyWhatCudasNamesStandFor) {
  const std::string twin = "/b/CMakeFiles/a06_student.dir/cuda_on_cpu/src/decode_attention.cu.cpp.o:";
  const std::string nm = twin + "                 U _ZN7rooflab8cuda_cpu12thread_indexEv\n" + twin +
                         "                 U _ZN7rooflab8cuda_cpu6detail6atomicIfEET_PS3_S3_NS1_8AtomicOpES3_\n" +
                         twin + "                 U _ZN7rooflab8cuda_cpu24register_device_variableEPKvmPKc\n" + twin +
                         "                 U _ZN7rooflab8cuda_cpu6detail19set_current_checkerEPNS1_13LaunchCheckerE\n";
  const auto problems = check_symbols(nm);
  ASSERT_EQ(problems.size(), 1u) << (problems.empty() ? "" : problems.back());
  EXPECT_NE(problems[0].find("src/decode_attention.cu calls _ZN7rooflab8cuda_cpu6detail19set_current_checker"),
            std::string::npos)
      << problems[0];
  EXPECT_NE(problems[0].find("the CPU runtime's own business"), std::string::npos) << problems[0];
}

TEST(Checks, WhatKernelCodeReachesFollowsCallsFromTheRuntimesEntryPoints) {
  // The entry calls the launch's lambda (relocated), the lambda the kernel (a
  // local function in .text: a relocation against the section), the kernel a
  // helper; the host launcher calls something else, which kernels never reach.
  const std::string objdump =
      "k.o:     file format elf64-x86-64\n\n"
      "Disassembly of section .text:\n\n"
      "0000000000000000 <_ZN12_GLOBAL__N_16kernelEPf>:\n"
      "   0:\tpush   %rbp\n"
      "   8:\tcall   d <_ZN12_GLOBAL__N_16kernelEPf+0xd>\n"
      "\t\t\t9: R_X86_64_PLT32\t_Z6helperPKf-0x4\n"
      "0000000000000040 <_Z6launchPfi>:\n"
      "  44:\tcall   49 <_Z6launchPfi+0x9>\n"
      "\t\t\t45: R_X86_64_PLT32\t_Z8host_sumPKfi-0x4\n"
      "\n"
      "Disassembly of section .text._ZZ6launchPfiENKUlDpRT_E_clIJS_EEEDaS2_:\n\n"
      "0000000000000000 <_ZZ6launchPfiENKUlDpRT_E_clIJS_EEEDaS2_>:\n"
      "   4:\tcall   9 <_ZZ6launchPfiENKUlDpRT_E_clIJS_EEEDaS2_+0x9>\n"
      "\t\t\t5: R_X86_64_PC32\t.text-0x4\n"
      "\n"
      "Disassembly of section .text._ZN7rooflab8cuda_cpu6detail4CallIZ6launchE5entryEPv:\n\n"
      "0000000000000000 <_ZN7rooflab8cuda_cpu6detail4CallIZ6launchE5entryEPv>:\n"
      "   4:\tjmp    9 <_ZN7rooflab8cuda_cpu6detail4CallIZ6launchE5entryEPv+0x9>\n"
      "\t\t\t5: R_X86_64_PLT32\t_ZZ6launchPfiENKUlDpRT_E_clIJS_EEEDaS2_-0x4\n";
  const std::set<std::string> reached = symbols_kernel_code_reaches(objdump);
  EXPECT_TRUE(reached.count("_ZN12_GLOBAL__N_16kernelEPf"));
  EXPECT_TRUE(reached.count("_Z6helperPKf"));
  EXPECT_FALSE(reached.count("_Z8host_sumPKfi"));
}

TEST(Checks, RelocationsBelongToTheFunctionAboveThem) {
  const std::string objdump =
      "k.o:     file format elf64-x86-64\n\n"
      "Disassembly of section .text:\n\n"
      "0000000000000082 <_Z6launchPfi>:\n"
      "  82:\tpush   %rbp\n"
      "\t\t\t9a: R_X86_64_PLT32\t__cudaPushCallConfiguration-0x4\n"
      "000000000000039a <_ZL24__sti____cudaRegisterAllv>:\n"
      " 3ec:\tcall   3f1 <_ZL24__sti____cudaRegisterAllv+0x57>\n"
      "\t\t\t3ed: R_X86_64_PLT32\tatexit-0x4\n";
  EXPECT_EQ(functions_referring_to(objdump, "atexit"), std::vector<std::string>{"_ZL24__sti____cudaRegisterAllv"});
  EXPECT_EQ(functions_referring_to(objdump, "__cudaPushCallConfiguration"), std::vector<std::string>{"_Z6launchPfi"});
  EXPECT_TRUE(functions_referring_to(objdump, "exit").empty());
}

// nvcc's registration code calls atexit in every object it compiles: a CUDA
// submission must pass the symbol check, and a student's own atexit must not.
std::optional<std::filesystem::path> compile_cuda(const std::string& name, const std::string& source) {
  const auto dir = (kTemp / "checks-cuda");
  text::write_file(dir / (name + ".cu"), source);
  const std::filesystem::path object = dir / (name + ".cu.o");
  const ProcessResult compiled = run_process({"nvcc", "-c", (dir / (name + ".cu")).string(), "-o", object.string()},
                                             dir, dir / (name + ".log"), ProcessLimits::timeout(300));
  EXPECT_TRUE(compiled.succeeded()) << compiled.output;
  return compiled.succeeded() ? std::optional(object) : std::nullopt;
}

std::string run_tool(const std::vector<std::string>& argv) {
  const auto log = (kTemp / "checks-tool");
  const ProcessResult ran = run_process(argv, kTemp, log, ProcessLimits::timeout(60));
  if (!ran.succeeded()) throw std::runtime_error(argv[0] + " failed: " + ran.output);
  return ran.output;
}

TEST(Checks, NvccObjectsPassAndTheirOwnExitCallsDoNot) {
  const auto version_log = kTemp / "nvcc-version.log";
  if (run_process({"nvcc", "--version"}, kTemp, version_log, ProcessLimits::timeout(60)).exit_code != 0)
    GTEST_SKIP() << "nvcc is not on PATH: the CUDA toolkit is needed to compile a .cu student file";
  const auto kernel = compile_cuda("kernel", R"(
__global__ void scale(float* x, int n) { const int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
void launch(float* x, int n) { scale<<<(n + 255) / 256, 256>>>(x, n); }
)");
  ASSERT_TRUE(kernel);
  EXPECT_NE(run_tool({"nm", kernel->string()}).find(" U atexit"), std::string::npos) << "nvcc no longer calls atexit?";
  EXPECT_EQ(check_objects({*kernel}, run_tool), std::vector<std::string>{});

  const auto hook = compile_cuda("hook", R"(
#include <cstdlib>
__global__ void noop() {}
static void cleanup() {}
void install() { std::atexit(cleanup); noop<<<1, 1>>>(); }
)");
  ASSERT_TRUE(hook);
  const auto problems = check_objects({*hook}, run_tool);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("calls atexit from _Z7installv"), std::string::npos) << problems[0];
}

// A lab's CUDA file compiled for the CPU runtime (its kernel calls a function
// of another student file, its host code calls another) beside that file.
TEST(Checks, KernelCodeCallingALabsUncheckedFileIsRefusedAndHostCodeMayCallIt) {
  const auto dir = (kTemp / "checks-twin");
  std::filesystem::create_directories(dir / "lab.dir" / "cuda_on_cpu" / "src");
  std::filesystem::create_directories(dir / "lab.dir" / "src");
  text::write_file(dir / "k.cu.cpp", R"(#include "rooflab/cuda_cpu.hpp"
float helper(const float* x);
float host_sum(const float* x, int n);
__global__ void kernel(float* x) { x[threadIdx.x] = helper(x); }
float launch(float* x, int n) {
  ::rooflab::cuda_cpu::launcher("kernel", 1, 32)([&](auto&... a) { kernel(a...); })(x);
  return host_sum(x, n);
}
)");
  text::write_file(dir / "helper.cpp",
                   "float helper(const float* x) { return x[1]; }\n"
                   "float host_sum(const float* x, int n) { float s = 0; for (int i = 0; i < n; ++i) s += x[i]; "
                   "return s; }\n");
  const std::filesystem::path twin = dir / "lab.dir" / "cuda_on_cpu" / "src" / "k.cu.cpp.o";
  const std::filesystem::path helper = dir / "lab.dir" / "src" / "helper.cpp.o";
  const std::string include = std::string("-I") + ROOFLAB_COMMON_INCLUDE;
  for (const auto& [source, object] : {std::pair{dir / "k.cu.cpp", twin}, std::pair{dir / "helper.cpp", helper}}) {
    const ProcessResult compiled =
        run_process({"g++", "-std=c++20", "-O2", include, "-c", source.string(), "-o", object.string()}, dir,
                    dir / "compile.log", ProcessLimits::timeout(300));
    ASSERT_TRUE(compiled.succeeded()) << compiled.output;
  }
  const auto problems = check_objects({twin, helper}, run_tool);
  std::filesystem::remove_all(dir);
  ASSERT_EQ(problems.size(), 1u) << (problems.empty() ? "" : problems.back());
  EXPECT_NE(problems[0].find("src/k.cu: kernel code calls helper(float const*), defined in src/helper.cpp, which is "
                             "not a CUDA file"),
            std::string::npos)
      << problems[0];
}

}  // namespace
}  // namespace rooflab
