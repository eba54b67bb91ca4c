# CUDA sources run on the CPU: rooflab_cuda_on_cpu(<out-var> <file.cu>...)
# sets <out-var> to one generated C++ source per .cu file, which g++ compiles
# against rooflab/cuda_cpu.hpp (link rooflab::cuda_cpu). The generated source
# is the .cu file with four changes (cmake/cuda_cpu_rewrite.cmake), so that
# students write plain CUDA:
#   - it starts by including rooflab/cuda_cpu.hpp (#line keeps the .cu file's
#     own line numbers in every compiler message);
#   - kernel<<<grid, block[, shared_bytes[, stream]]>>>(args) becomes
#     ::rooflab::cuda_cpu::launcher("kernel", kernel, grid, block, ...)(args);
#   - extern __shared__ T name[]; becomes a pointer to the block's dynamic
#     shared memory;
#   - __shared__ T name[…]; becomes a reference to the block's copy of the
#     array, which the runtime lays out after the dynamic shared memory and
#     knows by name.
# It is compiled with GCC's ThreadSanitizer instrumentation, so that every
# load, store and atomic of kernel code reaches the runtime's checker
# (src/cuda_cpu/access_hooks.cpp provides the callbacks; nothing links
# libtsan), with line tables for its messages (-g1; DWARF 4, whose file table
# names the .cu file alone, where DWARF 5's also names the generated one,
# which addr2line reports for some lines), with CUDA's pragmas
# (#pragma unroll) allowed, with every page of a large stack frame probed, so
# that a thread that overflows its stack meets its guard page, and without
# _FORTIFY_SOURCE, whose checked copies (__memcpy_chk) would bypass the
# runtime's memcpy (rooflab/cuda_cpu_memory_functions.hpp), and without tail
# calls, so that an atomic or a memcpy that ends a kernel returns into the
# kernel: the runtime names its line by that return address. Aggregates stay
# whole (-fno-tree-sra), so that `float4 v = p[i];` is one 16-byte access, as
# on a GPU, not four.
# The launch configuration may hold anything but ">>>" (template arguments such
# as std::max<int>(…) included).
set(ROOFLAB_CUDA_ON_CPU_FLAGS
    -fsanitize=thread --param=tsan-instrument-func-entry-exit=0 --param=tsan-distinguish-volatile=1 -Wno-tsan -g1
    -gdwarf-4
    -Wno-unknown-pragmas -fstack-clash-protection -U_FORTIFY_SOURCE -fno-optimize-sibling-calls
    -fno-tree-sra
    CACHE INTERNAL "How the CPU build of a CUDA source is compiled (cmake/cuda_on_cpu.cmake)")
#
# rooflab_cuda_on_cpu(<out-var> UNCHECKED <file.cu>...) writes the same
# sources without the instrumentation (under cuda_on_cpu_unchecked/): what
# `rooflab bench cuda-cpu` compares the checked build with.
function(rooflab_cuda_on_cpu out_var)
  set(generated "")
  set(folder cuda_on_cpu)
  set(flags ${ROOFLAB_CUDA_ON_CPU_FLAGS})
  set(sources ${ARGN})
  if(ARGV1 STREQUAL "UNCHECKED")
    list(REMOVE_AT sources 0)
    set(folder cuda_on_cpu_unchecked)
    set(flags -Wno-unknown-pragmas)
  endif()
  foreach(source IN LISTS sources)
    get_filename_component(absolute "${source}" ABSOLUTE)
    # cuda_on_cpu/src/x.cu.cpp for src/x.cu: the grader's symbol checks name
    # the .cu file by this path (autograder/src/build/checks.cpp).
    file(RELATIVE_PATH relative "${CMAKE_CURRENT_SOURCE_DIR}" "${absolute}")
    set(output "${CMAKE_CURRENT_BINARY_DIR}/${folder}/${relative}.cpp")
    # The #line name: the .cu file relative to where it is compiled, so that
    # the rewritten text holds no absolute path and the compiler cache serves
    # every copy of the course (a Gradescope zip's build, a student repository).
    file(RELATIVE_PATH line_name "${CMAKE_CURRENT_BINARY_DIR}" "${absolute}")
    add_custom_command(
      OUTPUT "${output}"
      COMMAND "${CMAKE_COMMAND}" "-DINPUT=${absolute}" "-DLINE_NAME=${line_name}" "-DOUTPUT=${output}" -P
              "${PROJECT_SOURCE_DIR}/cmake/cuda_cpu_rewrite.cmake"
      DEPENDS "${absolute}" "${PROJECT_SOURCE_DIR}/cmake/cuda_cpu_rewrite.cmake"
      COMMENT "Rewriting ${source} to run on the CPU"
      VERBATIM)
    set_property(SOURCE "${output}" APPEND PROPERTY COMPILE_OPTIONS ${flags})
    list(APPEND generated "${output}")
  endforeach()
  set(${out_var} "${generated}" PARENT_SCOPE)
endfunction()

# rooflab_cuda_source_checks(<target> <sources-dir> <file.cu>...)
# Before <target> builds, each CUDA file is preprocessed as its CPU build sees
# it (an object library whose "objects" are `g++ -E` output, with <target>'s
# include paths and definitions) and read by rooflab_cuda_source_scan
# (common/src/cuda_source_scan.cpp): anything in a file under <sources-dir>
# that would compile kernel code without the runtime's instrumentation, or go
# around it (no_sanitize and optimize attributes, #pragma GCC optimize, inline
# assembly, x86 intrinsics, the runtime's internals) fails the build, naming
# the file and line, in a student's build as in a grading.
function(rooflab_cuda_source_checks target sources_dir)
  set(wrappers "")
  foreach(source IN LISTS ARGN)
    get_filename_component(absolute "${source}" ABSOLUTE)
    file(RELATIVE_PATH relative "${CMAKE_CURRENT_SOURCE_DIR}" "${absolute}")
    set(wrapper "${CMAKE_CURRENT_BINARY_DIR}/cuda_source_checks/${relative}.cpp")
    file(CONFIGURE OUTPUT "${wrapper}"
         CONTENT "#include \"rooflab/cuda_cpu_memory_functions.hpp\"\n#include \"rooflab/cuda_cpu.hpp\"\n#include \"${absolute}\"\n")
    list(APPEND wrappers "${wrapper}")
  endforeach()
  add_library(${target}_preprocessed OBJECT ${wrappers})
  target_compile_options(${target}_preprocessed PRIVATE -E)  # each "object" is its source, preprocessed
  # The CPU runtime's <cuda_fp16.h>, <mma.h>, … first, as the CPU build of the
  # file sees them: where the kernels run on a GPU, the target itself has only
  # the toolkit's, whose macros the runtime's headers would redefine.
  target_include_directories(${target}_preprocessed BEFORE PRIVATE "${ROOFLAB_CUDA_CPU_HEADERS}")
  target_include_directories(${target}_preprocessed PRIVATE $<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>)
  target_compile_definitions(${target}_preprocessed PRIVATE $<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>)
  set(stamp "${CMAKE_CURRENT_BINARY_DIR}/cuda_source_checks/${target}.stamp")
  add_custom_command(
    OUTPUT "${stamp}"
    COMMAND rooflab_cuda_source_scan "${sources_dir}" "$<TARGET_OBJECTS:${target}_preprocessed>"
    COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
    DEPENDS rooflab_cuda_source_scan ${target}_preprocessed "$<TARGET_OBJECTS:${target}_preprocessed>"
    COMMENT "Checking ${target}'s CUDA files for code the CPU runtime could not see"
    COMMAND_EXPAND_LISTS VERBATIM)
  add_custom_target(${target}_cuda_source_checks DEPENDS "${stamp}")
  add_dependencies(${target}_cuda_source_checks ${target}_preprocessed)
  add_dependencies(${target} ${target}_cuda_source_checks)
endfunction()
