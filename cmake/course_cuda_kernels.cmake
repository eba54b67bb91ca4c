# CUDA kernels in an assignment (course_add_assignment's CUDA_FILES and
# GPU_CUDA_FILES): plain .cu files that students write once.
#
#   CUDA_FILES      run everywhere: compiled by nvcc where the kernels run on a
#                   GPU (ROOFLAB_KERNELS_ON, cmake/cuda.cmake), else rewritten
#                   for the CPU runtime (cmake/cuda_on_cpu.cmake) and compiled
#                   by g++; where nvcc exists but no GPU, nvcc still compiles
#                   them, as a check, into objects nothing links.
#   GPU_CUDA_FILES  use what the CPU runtime does not model (inline PTX, say):
#                   linked only where kernels run on a GPU, compile-checked by
#                   nvcc wherever it exists. Elsewhere the functions they define
#                   must come from the assignment's PROVIDED_FILES, as weak
#                   definitions that throw saying a GPU is needed (the tests
#                   skip first, without a GPU).
#
# Also adds ctest entries <name>.gpu.<tool> (label gpu) running the public
# tests under compute-sanitizer's memcheck, racecheck and synccheck where the
# kernels run on a GPU; elsewhere they skip, saying why.
#
# Adds the sources to <name>_student and sets <runtime_var> to the runtime the
# assignment's library must link (its objects are taken without their links).
function(_course_add_cuda_kernels name student_files cuda_files gpu_files runtime_var)
  # The student template declares kernels and constants its launchers do not
  # use yet (`lab release` stubs the launchers): not a warning there, so not
  # one here either. nvcc's diagnostic 177 is "declared but never referenced".
  set(unused_is_fine $<$<COMPILE_LANGUAGE:CUDA>:--diag-suppress=177> $<$<COMPILE_LANGUAGE:CXX>:-Wno-unused-function>)
  foreach(file IN LISTS cuda_files gpu_files)
    if(NOT file IN_LIST student_files)
      message(FATAL_ERROR "course_add_assignment(${name}): CUDA file ${file} is not in STUDENT_FILES")
    endif()
    if(NOT file MATCHES "\\.cu$")
      message(FATAL_ERROR "course_add_assignment(${name}): CUDA file ${file} does not end in .cu")
    endif()
  endforeach()
  _course_add_sanitizer_tests(${name})
  rooflab_cuda_source_checks(${name}_student "${CMAKE_CURRENT_SOURCE_DIR}/src" ${cuda_files})
  if(ROOFLAB_KERNELS_ON STREQUAL "gpu")
    target_sources(${name}_student PRIVATE ${cuda_files} ${gpu_files})
    set_source_files_properties(${cuda_files} ${gpu_files} PROPERTIES COMPILE_OPTIONS "${unused_is_fine}")
    set(${runtime_var} CUDA::cudart PARENT_SCOPE)
    return()
  endif()
  rooflab_cuda_on_cpu(cpu_twins ${cuda_files})
  target_sources(${name}_student PRIVATE ${cpu_twins})
  # <cuda_fp16.h>, <mma.h>, … are the CPU runtime's, ahead of any CUDA
  # toolkit's (-I before Thrust's -isystem).
  target_include_directories(${name}_student PRIVATE "${ROOFLAB_CUDA_CPU_HEADERS}")
  set_property(SOURCE ${cpu_twins} APPEND PROPERTY COMPILE_OPTIONS "${unused_is_fine}")
  set(${runtime_var} rooflab::cuda_cpu PARENT_SCOPE)
  if(ROOFLAB_WITH_CUDA)
    add_library(${name}_nvcc_check OBJECT ${cuda_files} ${gpu_files})
    target_include_directories(${name}_nvcc_check PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/include")
    target_link_libraries(${name}_nvcc_check PRIVATE rooflab_headers rooflab::warnings)
    target_compile_options(${name}_nvcc_check PRIVATE ${unused_is_fine})
  endif()
endfunction()

function(_course_add_sanitizer_tests name)
  find_program(ROOFLAB_COMPUTE_SANITIZER compute-sanitizer HINTS "${CUDAToolkit_BIN_DIR}")
  foreach(tool IN ITEMS memcheck racecheck synccheck initcheck)
    set(test "${name}.gpu.compute_sanitizer_${tool}")
    if(ROOFLAB_KERNELS_ON STREQUAL "gpu" AND ROOFLAB_COMPUTE_SANITIZER)
      add_test(NAME "${test}" COMMAND "${ROOFLAB_COMPUTE_SANITIZER}" --tool ${tool} --error-exitcode 1
                                      $<TARGET_FILE:${name}_public_tests>)
      set_tests_properties("${test}" PROPERTIES LABELS gpu TIMEOUT 900)
    else()
      set(why "the kernels run in the CPU runtime (no GPU at configure time)")
      if(ROOFLAB_KERNELS_ON STREQUAL "gpu")
        set(why "compute-sanitizer not found")
      endif()
      add_test(NAME "${test}" COMMAND sh -c "echo 'skipped: ${why}'; exit 77")
      set_tests_properties("${test}" PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)
    endif()
  endforeach()
endfunction()
