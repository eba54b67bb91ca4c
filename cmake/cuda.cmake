# CUDA is optional. This file is the only place that decides whether it is
# compiled in; code learns the answer through common/'s backend library.
set(ROOFLAB_WITH_CUDA OFF)
if(ROOFLAB_ENABLE_CUDA)
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    enable_language(CUDA)
    # CUDA sources are C++17: CMake 3.25 cannot ask nvcc for C++20, so headers
    # that .cu files include stay within C++17.
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES OR CMAKE_CUDA_ARCHITECTURES STREQUAL "52")
      # Turing (T4), Ampere (A100), Ada (L4), Hopper (H100/H200).
      set(CMAKE_CUDA_ARCHITECTURES 75 80 89 90)
    endif()
    set(ROOFLAB_WITH_CUDA ON)
  endif()
endif()
message(STATUS "rooflab: CUDA backend ${ROOFLAB_WITH_CUDA}")
