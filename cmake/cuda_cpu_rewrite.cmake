# cmake -DINPUT=x.cu -DOUTPUT=x_cpu.cpp -P cuda_cpu_rewrite.cmake
# The rewrite cmake/cuda_on_cpu.cmake describes. Written only when the result
# changes, so that builds stay incremental.
file(READ "${INPUT}" text)
# kernel<<<config>>>( and kernel<T><<<config>>>(  ->  launcher("kernel", kernel, config)(
string(REGEX REPLACE "([A-Za-z_][A-Za-z0-9_:]*(<[^<>;()]*>)?)[ \t]*<<<([^>]*)>>>[ \t]*\\("
                     "::rooflab::cuda_cpu::launcher(\"\\1\", \\1, \\3)(" text "${text}")
# extern __shared__ T name[];  ->  T* name = <the block's dynamic shared memory>;
string(REGEX REPLACE "extern[ \t]+__shared__[ \t]+([A-Za-z_][A-Za-z0-9_:]*)[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]*\\[[ \t]*\\][ \t]*;"
                     "\\1* \\2 = static_cast<\\1*>(::rooflab::cuda_cpu::dynamic_shared_memory());" text "${text}")
# __shared__ T name[…];  ->  auto& name = <the array in the block's shared memory>;
# (after the extern form, which the pattern below would match too)
string(REGEX REPLACE "(static[ \t]+)?__shared__[ \t]+([A-Za-z_][A-Za-z0-9_:<>, \t*]*[ \t*])([A-Za-z_][A-Za-z0-9_]*)[ \t]*((\\[[^];]*\\][ \t]*)*);"
                     "auto& \\3 = ::rooflab::cuda_cpu::shared_variable<\\2\\4>(\"\\3\", __LINE__);" text "${text}")
set(result "// Generated from ${INPUT} by cmake/cuda_cpu_rewrite.cmake: runs on the CPU.\n#include \"rooflab/cuda_cpu.hpp\"\n#line 1 \"${INPUT}\"\n${text}")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" current)
  if(current STREQUAL result)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${result}")
