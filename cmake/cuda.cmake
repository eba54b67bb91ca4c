# CUDA is optional. This file is the only place that decides whether it is
# compiled in; code learns the answer through common/'s backend library.
set(ROOFLAB_WITH_CUDA OFF)
# Whether this machine has an NVIDIA GPU (nvidia-smi lists one), asked only
# where nvcc is: what nvcc compiles for, and where the course's kernels run
# (below).
set(rooflab_gpu_here OFF)

if(ROOFLAB_ENABLE_CUDA)
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    find_program(ROOFLAB_NVIDIA_SMI nvidia-smi)
    if(ROOFLAB_NVIDIA_SMI)
      execute_process(COMMAND "${ROOFLAB_NVIDIA_SMI}" -L RESULT_VARIABLE smi_failed OUTPUT_VARIABLE gpus ERROR_QUIET
                      TIMEOUT 20)
      if(NOT smi_failed AND gpus MATCHES "GPU [0-9]")
        set(rooflab_gpu_here ON)
      endif()
    endif()
    # The architectures nvcc compiles for, unless chosen (-DCMAKE_CUDA_ARCHITECTURES
    # or CUDAARCHS). Set before enable_language, which would otherwise cache
    # nvcc's own default (sm_75 alone for CUDA 13: the atoms' fallbacks, never
    # their mma.sync, ldmatrix and cp.async). With a GPU: Turing (T4), Ampere
    # (A100), Ada (L4) and Hopper (H100/H200). Without one, nvcc's compile is a
    # check that the code builds, and Hopper's is the one that assembles every
    # atom's own instruction.
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
      if(rooflab_gpu_here)
        set(rooflab_cuda_architectures 75 80 89 90)
      else()
        set(rooflab_cuda_architectures 90)
      endif()
      set(CMAKE_CUDA_ARCHITECTURES "${rooflab_cuda_architectures}"
          CACHE STRING "GPU architectures nvcc compiles for (cmake/cuda.cmake)")
    endif()
    enable_language(CUDA)
    # CUDA sources are C++17: CMake 3.25 cannot ask nvcc for C++20, so headers
    # that .cu files include stay within C++17.
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    set(ROOFLAB_WITH_CUDA ON)
  endif()
endif()
message(STATUS "rooflab: CUDA backend ${ROOFLAB_WITH_CUDA}")

# Where the course's CUDA kernels (course_add_assignment's CUDA_FILES) run:
# "gpu" where CUDA is compiled in and this machine has a GPU, else "cpu", the
# CPU runtime (rooflab/cuda_cpu.hpp), which needs no toolkit. Set
# ROOFLAB_CUDA_KERNELS=cpu to force the CPU runtime on a GPU machine.
set(ROOFLAB_CUDA_KERNELS "auto" CACHE STRING "where CUDA kernels run: auto, gpu or cpu")
set_property(CACHE ROOFLAB_CUDA_KERNELS PROPERTY STRINGS auto gpu cpu)
if(NOT ROOFLAB_CUDA_KERNELS MATCHES "^(auto|gpu|cpu)$")
  message(FATAL_ERROR "ROOFLAB_CUDA_KERNELS is '${ROOFLAB_CUDA_KERNELS}': use auto, gpu or cpu")
endif()
set(ROOFLAB_KERNELS_ON "cpu")
if(ROOFLAB_WITH_CUDA AND NOT ROOFLAB_CUDA_KERNELS STREQUAL "cpu")
  if(ROOFLAB_CUDA_KERNELS STREQUAL "gpu" OR rooflab_gpu_here)
    set(ROOFLAB_KERNELS_ON "gpu")
  endif()
elseif(ROOFLAB_CUDA_KERNELS STREQUAL "gpu")
  message(FATAL_ERROR "ROOFLAB_CUDA_KERNELS=gpu needs CUDA compiled in (nvcc and ROOFLAB_ENABLE_CUDA=ON)")
endif()
message(STATUS "rooflab: CUDA kernels run on the ${ROOFLAB_KERNELS_ON}")
