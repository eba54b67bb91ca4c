# cmake -DSCAN=<rooflab_cuda_source_scan> -DWORK=dir -P cuda_source_scan_test.cmake
# The check every CUDA file passes before its lab builds (common/src/cuda_source_scan.cpp),
# on preprocessed text whose answers are known: what would compile kernel code
# without the CPU runtime's instrumentation, in a student's file, is named with
# its file and line; the same in a system header, and CUDA's own names that
# expand to the runtime's functions, are not.
cmake_minimum_required(VERSION 3.22)
function(fail message)
  message(FATAL_ERROR "cuda_source_scan: ${message}")
endfunction()

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/lab/src")
set(student "${WORK}/lab/src/k.cu")
file(WRITE "${student}" "")
file(WRITE "${WORK}/clean.ii"
     "# 1 \"/usr/include/x86_64-linux-gnu/bits/string.h\" 1 3 4\n"
     "__attribute__((__optimize__(\"O0\"))) static int header_only;\n"
     "asm(\"nop\");\n"
     "# 3 \"${student}\" 2\n"
     "__attribute__((noinline, aligned(16))) void k(float* p) { p[(::rooflab::cuda_cpu::thread_index()).x] = 1; }\n"
     "#pragma unroll\n"
     "[[maybe_unused]] static int ok = \"asm no_sanitize\"[0];\n")
execute_process(COMMAND "${SCAN}" "${WORK}/lab/src" "${WORK}/clean.ii" RESULT_VARIABLE status OUTPUT_VARIABLE out)
if(NOT status EQUAL 0)
  fail("a clean file was refused:\n${out}")
endif()

file(WRITE "${WORK}/dirty.ii"
     "# 1 \"${student}\"\n"
     "__attribute__((no_sanitize_thread)) void a(float* p) { p[0] = 1; }\n"
     "__attribute__ ((__no_sanitize__(\"thread\"), __optimize__(\"O0\"))) void b();\n"
     "[[gnu::target(\"avx2\")]] void c();\n"
     "#pragma GCC optimize (\"O0\")\n"
     "void d(float* p) { asm volatile(\"\" ::: \"memory\"); __m256 v = _mm256_loadu_ps(p); }\n"
     "# 20 \"${student}\"\n"
     "bool e = ::rooflab::cuda_cpu::register_device_variable(0, 4, \"x\");\n"
     "void f() { rooflab::cuda_cpu::detail::set_current_checker(nullptr); }\n")
execute_process(COMMAND "${SCAN}" "${WORK}/lab/src" "${WORK}/dirty.ii" RESULT_VARIABLE status OUTPUT_VARIABLE out)
if(NOT status EQUAL 1)
  fail("a file that switches the instrumentation off was not refused (exit ${status}):\n${out}")
endif()
foreach(expected "src/k.cu:1: the attribute no_sanitize_thread" "src/k.cu:2: the attribute __no_sanitize__"
                 "src/k.cu:2: the attribute __optimize__" "src/k.cu:3: the attribute target"
                 "src/k.cu:4: #pragma GCC optimize" "src/k.cu:5: inline assembly" "rooflab/tensor_core.hpp's atoms" "src/k.cu:5: _mm256_loadu_ps"
                 "src/k.cu:20: register_device_variable" "src/k.cu:21: detail")
  string(FIND "${out}" "${expected}" at)
  if(at EQUAL -1)
    fail("no \"${expected}\" in:\n${out}")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK}")
message(STATUS "cuda_source_scan: attributes, pragmas, assembly, intrinsics and runtime internals named by line")
