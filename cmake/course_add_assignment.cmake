# course_add_assignment(<name>
#   STUDENT_FILES  src/a.cpp ...   what students edit; the grader takes only these
#   PROVIDED_FILES src/b.cpp ...   support code students read but the grader re-copies
#   PUBLIC_TESTS   tests/x.cpp ... tests shipped with the assignment
#   EXAMPLES       examples/e.cpp  one executable per file, for the lab text
#   THRUST_FILES   src/f_thrust.cpp ...  student files written once against Thrust
#   PROFILE        profile/p.cpp   the scaling run the grader plots in its report
#   LITERATE_LINKS lib ...         what literate/ needs besides the assignment
#   CUDA_FILES     src/k.cu ...    student CUDA kernels: on a GPU where there is
#                                  one, else in the CPU runtime
#   GPU_CUDA_FILES src/t.cu ...    student CUDA kernels that need a GPU
#                                  (cmake/course_cuda_kernels.cmake))
#
# One folder is one assignment. Besides the files named above, it may hold
# (none of which reaches students: `lab release` leaves both folders out):
#   grading/rubric.toml, grading/tests/*.cpp   its rubric and hidden tests
#                                              (cmake/course_tests.cmake)
#   literate/doc_numbers.cpp, literate/plot_data.cpp, literate/*.gp
#                                              the numbers its docs quote, its
#                                              figures' data and templates
#                                              (cmake/course_literate.cmake)
#
# A THRUST_FILES entry src/<fn>.cpp (it must also be a STUDENT_FILES entry)
# defines the graded function <fn>. It is compiled for Thrust's OpenMP device
# system, and a second time as <fn>_cuda: by nvcc for the CUDA device system
# where CUDA is compiled in, else once more for OpenMP (tests then skip the
# cuda backend, visibly). Being compiled twice, its helpers must have internal
# linkage (an anonymous namespace). (cmake/course_thrust_twins.cmake)
#
# Makes, for assignment <name>:
#   <name>               static library of the student and provided sources
#   <name>_public_tests  public tests (ctest names "<name>.public.<Suite>.<Test>")
#   <name>_hidden_tests  public + hidden tests where ROOFLAB_HIDDEN_TESTS is on
#                        and grading/tests/ is there (ctest names
#                        "<name>.hidden...."), and in the reference build
#                        ctest entries running them for seeds 1..ROOFLAB_SEED_SWEEP
# and, for the grader's two-process path (cmake/course_rpc.cmake):
#   <name>_verdict       public + hidden tests linked with NO student code: each
#                        contract call goes to a worker (reference build only)
#   <name>_worker        the student code serving those calls
# and records the assignment in the build's manifest (cmake/course_manifest.cmake),
# the one list the grader and release tools read. The course's own objects
# (provided files, the worker's dispatch, the profile's main) also go into the
# grading kit (cmake/grading_kit.cmake), so that grading a submission compiles
# only its STUDENT_FILES.
include(course_thrust_twins)
include(course_cuda_kernels)
include(course_tests)
include(course_rpc)
include(course_literate)
include(course_manifest)

function(course_add_assignment name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "STUDENT_FILES;PROVIDED_FILES;PUBLIC_TESTS;EXAMPLES;THRUST_FILES;PROFILE;LITERATE_LINKS;CUDA_FILES;GPU_CUDA_FILES")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "course_add_assignment(${name}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_STUDENT_FILES)
    message(FATAL_ERROR "course_add_assignment(${name}): STUDENT_FILES is empty")
  endif()

  set(umbrella "${CMAKE_CURRENT_SOURCE_DIR}/include/${name}/${name}.hpp")
  if(NOT EXISTS "${umbrella}")
    message(FATAL_ERROR "course_add_assignment(${name}): ${umbrella} is missing; every assignment has an "
                        "umbrella header that includes its whole contract")
  endif()

  # The course's own files of the lab (its public tests, provided code,
  # profile and examples) and its headers compile through a link in the lab's
  # build folder (lab -> the lab's folder), from the same paths in the
  # reference build (solutions/) as in a student's (assignments/): the compiler
  # cache then serves a student repository's first build with the reference's
  # objects (the cache hashes the paths of a source and of the headers it
  # includes), as tools/CMakeLists.txt's links do for the tools. A student's
  # own files (STUDENT_FILES) compile from where the student edits them, so
  # that a compiler message names them there.
  _course_lab_link(lab)
  file(REMOVE "${lab}")
  file(CREATE_LINK "${CMAKE_CURRENT_SOURCE_DIR}" "${lab}" SYMBOLIC)
  foreach(kind IN ITEMS PROVIDED_FILES PUBLIC_TESTS EXAMPLES PROFILE)
    list(TRANSFORM arg_${kind} PREPEND "${lab}/" OUTPUT_VARIABLE linked_${kind})
  endforeach()

  # Student and provided code as separate objects: the grader's verdict binary
  # takes the provided objects without the student's.
  set(cpp_files ${arg_STUDENT_FILES})
  if(arg_CUDA_FILES OR arg_GPU_CUDA_FILES)
    list(REMOVE_ITEM cpp_files ${arg_CUDA_FILES} ${arg_GPU_CUDA_FILES})
  endif()
  add_library(${name}_student OBJECT ${cpp_files})
  _course_object_settings(${name}_student)
  if(arg_CUDA_FILES OR arg_GPU_CUDA_FILES)
    _course_add_cuda_kernels(${name} "${arg_STUDENT_FILES}" "${arg_CUDA_FILES}" "${arg_GPU_CUDA_FILES}" cuda_runtime)
  endif()
  set(student_objects "$<TARGET_OBJECTS:${name}_student>")
  if(arg_THRUST_FILES)
    _course_add_thrust_twins(${name} "${arg_STUDENT_FILES}" ${arg_THRUST_FILES})
    list(APPEND student_objects "$<TARGET_OBJECTS:${name}_student_cuda>")
  endif()
  add_library(${name} STATIC ${student_objects})
  set_target_properties(${name} PROPERTIES LINKER_LANGUAGE CXX)
  if(arg_PROVIDED_FILES)
    # The same for every submission: compiled once, into the grading kit.
    rooflab_kit_object_library(${name}_provided ${linked_PROVIDED_FILES})
    _course_object_settings(${name}_provided)
    rooflab_kit_objects(${name}_provided provided_objects)
    target_sources(${name} PRIVATE ${provided_objects})
  endif()
  target_include_directories(${name} PUBLIC "${lab}/include")
  target_link_libraries(${name} PUBLIC rooflab::common ${cuda_runtime} PRIVATE rooflab::warnings)

  # Each test source compiles once: the same objects link with the student's
  # code into the test binaries, and with the RPC client into the verdict.
  _course_add_tests(${name} "${linked_PUBLIC_TESTS}" test_objects)
  _course_add_rpc_targets(${name} "${test_objects}" "${student_objects}")

  foreach(example IN LISTS linked_EXAMPLES)
    get_filename_component(stem "${example}" NAME_WE)
    add_executable(${name}_${stem} "${example}")
    target_link_libraries(${name}_${stem} PRIVATE ${name} rooflab::warnings)
  endforeach()

  set(has_profile false)
  if(arg_PROFILE)
    # Links the memory tracker (the profile measures peak heap bytes) and the
    # kernel rows (rooflab/kernel_profile.hpp). Its own
    # code is the course's, so it comes precompiled from the grading kit.
    rooflab_kit_object_library(${name}_profile_main ${linked_PROFILE})
    target_link_libraries(${name}_profile_main PRIVATE ${name} rooflab::memory_tracker rooflab_kernel_profile
                                                       rooflab::warnings)
    rooflab_kit_objects(${name}_profile_main profile_objects)
    add_executable(${name}_profile ${profile_objects})
    set_target_properties(${name}_profile PROPERTIES LINKER_LANGUAGE CXX)
    target_link_libraries(${name}_profile PRIVATE ${name} rooflab::memory_tracker rooflab_kernel_profile)
    set(has_profile true)
  endif()

  _course_add_literate(${name} "${arg_EXAMPLES}" "${arg_LITERATE_LINKS}")
  # A list, not "${a};${b}": that string holds empty entries where either is empty.
  set(cuda_files ${arg_CUDA_FILES} ${arg_GPU_CUDA_FILES})
  _course_record_assignment(${name} "${arg_STUDENT_FILES}" "${arg_PUBLIC_TESTS}" ${has_profile} "${cuda_files}"
                            "${arg_THRUST_FILES}")
endfunction()

# Sets <out_var> to <the lab's build folder>/lab, the link to the lab's folder
# that course_add_assignment makes (and says why).
function(_course_lab_link out_var)
  set(${out_var} "${CMAKE_CURRENT_BINARY_DIR}/lab" PARENT_SCOPE)
endfunction()

function(_course_object_settings target)
  _course_lab_link(lab)
  target_include_directories(${target} PUBLIC "${lab}/include")
  # The OpenMP device system for any Thrust code among them (THRUST_FILES).
  target_link_libraries(${target} PUBLIC rooflab::common PRIVATE rooflab::warnings rooflab_thrust_omp)
endfunction()
