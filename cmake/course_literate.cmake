# An assignment's literate/ folder: the code behind the numbers its chapters
# and lab README quote and behind its figures, run on the reference solution.
#   literate/doc_numbers.cpp  defines rooflab::docs::add_<name>_numbers(Values&)
#   literate/plot_data.cpp    defines rooflab::plots::add_<name>_plot_data(Files&)
#   literate/*.gp             its figures' gnuplot templates (plots/render.sh)
#   literate/**/*.cu          CUDA files behind its numbers (a05's ladder of
#                             kernels), run in the CPU runtime where the
#                             assignment's kernels are (counted, not timed):
#                             <name>_literate_cuda; ROOFLAB_LITERATE_CUDA_ON_CPU
#                             says they are linked
#   literate/tests/*.cpp      tests of those CUDA files, <name>_literate_tests
#                             ("<name>.literate." in ctest)
# Each file is optional. course_add_assignment registers what is there (only in
# a build with the tools: `lab release` leaves literate/ out of the student
# tree), and the docs-number and plot-data tools call every registered function
# in course order through generated registries (rooflab_add_literate).

# <name>_literate: an object library of the assignment's literate sources,
# linked with the assignment and `links`. The examples' executables are built
# first; their path is ROOFLAB_EXAMPLE_PATH_PREFIX "<stem>" (for the usage
# output the lab READMEs quote), relative to the build's folder (no absolute
# path on a compile line: rooflab/build_paths.hpp says why).
function(_course_add_literate name examples links)
  if(NOT ROOFLAB_BUILD_TOOLS)
    return()
  endif()
  set(sources "")
  foreach(kind IN ITEMS doc_numbers plot_data)
    set(source "${CMAKE_CURRENT_SOURCE_DIR}/literate/${kind}.cpp")
    if(EXISTS "${source}")
      list(APPEND sources "${source}")
      set_property(GLOBAL APPEND PROPERTY ROOFLAB_LITERATE_${kind} ${name})
    endif()
  endforeach()
  if(NOT sources)
    return()
  endif()
  file(GLOB_RECURSE literate_cuda CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/literate/*.cu")
  add_library(${name}_literate OBJECT ${sources})
  target_link_libraries(${name}_literate PRIVATE ${name} ${links} rooflab_docs rooflab_plots rooflab_build_paths
                                               rooflab::warnings)
  if(literate_cuda AND NOT ROOFLAB_KERNELS_ON STREQUAL "gpu")
    _course_add_literate_cuda(${name} ${literate_cuda})
    target_link_libraries(${name}_literate PRIVATE ${name}_literate_cuda)
  endif()
  file(RELATIVE_PATH example_prefix "${PROJECT_BINARY_DIR}" "${CMAKE_CURRENT_BINARY_DIR}/${name}_")
  target_compile_definitions(${name}_literate PRIVATE ROOFLAB_EXAMPLE_PATH_PREFIX="${example_prefix}")
  foreach(example IN LISTS examples)
    get_filename_component(stem "${example}" NAME_WE)
    add_dependencies(${name}_literate ${name}_${stem})
  endforeach()
  set_property(GLOBAL APPEND PROPERTY ROOFLAB_LITERATE_NAMES ${name})
endfunction()

# <name>_literate_cuda: the literate CUDA files in the CPU runtime, and
# <name>_literate_tests where literate/tests/ has tests of them.
function(_course_add_literate_cuda name)
  rooflab_cuda_on_cpu(cpu_twins ${ARGN})
  add_library(${name}_literate_cuda STATIC ${cpu_twins})
  target_include_directories(${name}_literate_cuda PUBLIC "${ROOFLAB_CUDA_CPU_HEADERS}"
                                                          "${CMAKE_CURRENT_SOURCE_DIR}/literate")
  target_link_libraries(${name}_literate_cuda PUBLIC ${name} rooflab::cuda_cpu PRIVATE rooflab::warnings)
  target_compile_definitions(${name}_literate_cuda PUBLIC ROOFLAB_LITERATE_CUDA_ON_CPU=1)
  file(GLOB tests CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/literate/tests/*.cpp")
  if(tests)
    add_executable(${name}_literate_tests ${tests})
    target_link_libraries(${name}_literate_tests PRIVATE ${name}_literate_cuda rooflab_worker_report_local
                                                         rooflab::testing GTest::gtest_main rooflab::warnings)
    gtest_discover_tests(${name}_literate_tests TEST_PREFIX "${name}.literate." DISCOVERY_MODE PRE_TEST
                         PROPERTIES TIMEOUT 120)
  endif()
endfunction()

# Links every assignment's literate library into `target` and adds two
# generated sources that call what they registered, in course order:
#   rooflab::docs::add_registered(Values&)   each add_<name>_numbers
#   rooflab::plots::add_registered(Files&)   each add_<name>_plot_data
function(rooflab_add_literate target)
  _course_literate_registry(${target} doc_numbers doc_regions.hpp docs Values numbers)
  _course_literate_registry(${target} plot_data plot_data.hpp plots Files plot_data)
  get_property(names GLOBAL PROPERTY ROOFLAB_LITERATE_NAMES)
  foreach(name IN LISTS names)
    target_link_libraries(${target} PRIVATE ${name}_literate)
  endforeach()
endfunction()

function(_course_literate_registry target kind header namespace argument suffix)
  get_property(names GLOBAL PROPERTY ROOFLAB_LITERATE_${kind})
  set(declarations "")
  set(calls "")
  foreach(name IN LISTS names)
    string(APPEND declarations "void add_${name}_${suffix}(${argument}& registered);\n")
    string(APPEND calls "  add_${name}_${suffix}(registered);\n")
  endforeach()
  set(registry "${CMAKE_CURRENT_BINARY_DIR}/${target}_${kind}_registry.cpp")
  file(CONFIGURE OUTPUT "${registry}" @ONLY CONTENT
"// Generated by rooflab_add_literate (cmake/course_literate.cmake): every
// assignment's literate/${kind}.cpp, in course order.
#include \"@header@\"

namespace rooflab::@namespace@ {

@declarations@
void add_registered(@argument@& registered) {
@calls@}

}  // namespace rooflab::@namespace@
")
  target_sources(${target} PRIVATE "${registry}")
endfunction()
