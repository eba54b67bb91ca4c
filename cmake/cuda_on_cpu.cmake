# CUDA sources run on the CPU: rooflab_cuda_on_cpu(<out-var> <file.cu>...)
# sets <out-var> to one generated C++ source per .cu file, which g++ compiles
# against rooflab/cuda_cpu.hpp (link rooflab::cuda_cpu). The generated source
# is the .cu file with three changes (cmake/cuda_cpu_rewrite.cmake), so that
# students write plain CUDA:
#   - it starts by including rooflab/cuda_cpu.hpp (#line keeps the .cu file's
#     own line numbers in every compiler message);
#   - kernel<<<grid, block[, shared_bytes[, stream]]>>>(args) becomes
#     ::rooflab::cuda_cpu::launcher("kernel", kernel, grid, block, ...)(args);
#   - extern __shared__ T name[]; becomes a pointer to the block's dynamic
#     shared memory.
# The launch configuration may not contain '>' (write std::max<int>(…) before
# the launch, into a variable).
function(rooflab_cuda_on_cpu out_var)
  set(generated "")
  foreach(source IN LISTS ARGN)
    get_filename_component(absolute "${source}" ABSOLUTE)
    # cuda_on_cpu/src/x.cu.cpp for src/x.cu: the grader's symbol checks name
    # the .cu file by this path (autograder/src/build/checks.cpp).
    file(RELATIVE_PATH relative "${CMAKE_CURRENT_SOURCE_DIR}" "${absolute}")
    set(output "${CMAKE_CURRENT_BINARY_DIR}/cuda_on_cpu/${relative}.cpp")
    add_custom_command(
      OUTPUT "${output}"
      COMMAND "${CMAKE_COMMAND}" "-DINPUT=${absolute}" "-DOUTPUT=${output}" -P
              "${PROJECT_SOURCE_DIR}/cmake/cuda_cpu_rewrite.cmake"
      DEPENDS "${absolute}" "${PROJECT_SOURCE_DIR}/cmake/cuda_cpu_rewrite.cmake"
      COMMENT "Rewriting ${source} to run on the CPU"
      VERBATIM)
    list(APPEND generated "${output}")
  endforeach()
  set(${out_var} "${generated}" PARENT_SCOPE)
endfunction()
