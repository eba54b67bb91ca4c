# Code generation for the CPU. The grader builds each submission on the machine
# that runs it, so compiling for that machine's vector units (AVX2 and FMA on
# the course machines) is safe, and the attention benchmarks depend on it.
if(ROOFLAB_NATIVE)
  include(CheckCXXCompilerFlag)
  check_cxx_compiler_flag(-march=native ROOFLAB_HAS_MARCH_NATIVE)
  if(ROOFLAB_HAS_MARCH_NATIVE)
    add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-march=native>)
  endif()
endif()
