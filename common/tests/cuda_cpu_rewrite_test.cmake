# cmake -DREWRITE=cmake/cuda_cpu_rewrite.cmake -DWORK=dir -P cuda_cpu_rewrite_test.cmake
# The CPU build's rewrite of a .cu file, on text whose answers are known:
#   - a launch whose configuration holds template arguments and '>' is read whole,
#     and calls the kernel from a lambda (template arguments deduced as nvcc
#     deduces them), naming it without template arguments or namespaces;
#   - a "<<<" that is not a launch (a comment) is left alone;
#   - __device__ and __constant__ variables are registered, functions are not;
#   - one __shared__ declaration of several arrays declares each in shared
#     memory, on its line;
#   - the runtime's memcpy header comes first;
#   - run again on an input touched but unchanged, it leaves the output newer
#     than the input, so that the next build does not run it (and print) again.
cmake_minimum_required(VERSION 3.22)
function(fail message)
  message(FATAL_ERROR "cuda_cpu_rewrite: ${message}")
endfunction()

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(input "${WORK}/k.cu")
set(output "${WORK}/k.cu.cpp")
file(WRITE "${input}" "// e.g. kernel<<<grid, block>>> in a comment\n"
                      "__device__ int hits;\n"
                      "static __constant__ float table[4] = {1, 2,\n 3, 4};\n"
                      "__device__ float half(float x) { return x / 2; }\n"
                      "void f(int n) { scale<float><<<std::max<int>(n >> 1, 1), std::min<int>(n, 1024), 0>>>(p, n); }\n"
                      "void g() { a05::step<<<1, 32>>>(q); }\n"
                      "__global__ void h() { __shared__ uint4 a_tile[32], b_tile[2][16], last; }\n")
execute_process(COMMAND "${CMAKE_COMMAND}" -DINPUT=${input} -DOUTPUT=${output} -P "${REWRITE}" RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  fail("the rewrite failed (${status})")
endif()
file(READ "${output}" text)
string(FIND "${text}" "::rooflab::cuda_cpu::launcher(\"scale\", std::max<int>(n >> 1, 1), std::min<int>(n, 1024), 0)([&](auto&... rooflab_arguments) { scale<float>(rooflab_arguments...); })(p, n);" launch)
if(launch EQUAL -1)
  fail("the launch with template arguments was not rewritten whole:\n${text}")
endif()
string(FIND "${text}" "::rooflab::cuda_cpu::launcher(\"step\", 1, 32)([&](auto&... rooflab_arguments) { a05::step(rooflab_arguments...); })(q);" qualified)
if(qualified EQUAL -1)
  fail("a launch of a namespace's kernel was not named by the kernel alone:\n${text}")
endif()
foreach(variable hits table)
  string(FIND "${text}" "ROOFLAB_REGISTER_DEVICE_VARIABLE(${variable});" registered)
  if(registered EQUAL -1)
    fail("the device variable ${variable} was not registered:\n${text}")
  endif()
endforeach()
foreach(array "a_tile = ::rooflab::cuda_cpu::shared_variable<uint4 [32]>(\"a_tile\", __LINE__); auto& b_tile = ::rooflab::cuda_cpu::shared_variable<uint4 [2][16]>(\"b_tile\", __LINE__); auto& last = ::rooflab::cuda_cpu::shared_variable<uint4 >(\"last\", __LINE__); }")
  string(FIND "${text}" "${array}" shared)
  if(shared EQUAL -1)
    fail("a __shared__ declaration of several arrays was not split into one per array:\n${text}")
  endif()
endforeach()
string(FIND "${text}" "ROOFLAB_REGISTER_DEVICE_VARIABLE(half)" function)
if(NOT function EQUAL -1)
  fail("a __device__ function was registered as a variable:\n${text}")
endif()
string(FIND "${text}" "#include \"rooflab/cuda_cpu_memory_functions.hpp\"\n#include \"rooflab/cuda_cpu.hpp\"" first)
if(NOT first GREATER -1 OR first GREATER 200)
  fail("the runtime's memcpy header does not come first:\n${text}")
endif()
string(FIND "${text}" "// e.g. kernel<<<grid, block>>> in a comment" comment)
if(comment EQUAL -1)
  fail("the comment's chevrons were changed:\n${text}")
endif()

# Touched, unchanged: the output must not stay older than the input.
execute_process(COMMAND "${CMAKE_COMMAND}" -E sleep 1.1)
file(TOUCH "${input}")
execute_process(COMMAND "${CMAKE_COMMAND}" -DINPUT=${input} -DOUTPUT=${output} -P "${REWRITE}" RESULT_VARIABLE status)
if(NOT status EQUAL 0 OR NOT "${output}" IS_NEWER_THAN "${input}")
  fail("after an unchanged input was touched, the output stays older: every build would rewrite it again")
endif()
message(STATUS "cuda_cpu_rewrite: template arguments in a launch, a kernel's own name, device variables registered, "
               "a comment left alone, no rewrite on every build")
