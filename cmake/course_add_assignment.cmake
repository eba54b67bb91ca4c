# course_add_assignment(<name>
#   STUDENT_FILES  src/a.cpp ...   what students edit; the grader takes only these
#   PROVIDED_FILES src/b.cpp ...   support code students read but the grader re-copies
#   PUBLIC_TESTS   tests/x.cpp ... tests shipped with the assignment
#   EXAMPLES       examples/e.cpp  one executable per file, for the lab text
#   THRUST_FILES   src/f_thrust.cpp ...  student files written once against Thrust
#   PROFILE        profile/p.cpp   the scaling run the grader plots in its report)
#
# A THRUST_FILES entry src/<fn>.cpp (it must also be a STUDENT_FILES entry)
# defines the graded function <fn>. It is compiled for Thrust's OpenMP device
# system, and a second time as <fn>_cuda: by nvcc for the CUDA device system
# where CUDA is compiled in, else once more for OpenMP (tests then skip the
# cuda backend, visibly). Being compiled twice, its helpers must have internal
# linkage (an anonymous namespace).
#
# Makes, for assignment <name>:
#   <name>               static library of the student and provided sources
#   <name>_public_tests  public tests (ctest names "<name>.public.<Suite>.<Test>")
#   <name>_hidden_tests  public + hidden tests when ROOFLAB_HIDDEN_TESTS_DIR has
#                        <name>/tests/*.cpp (ctest names "<name>.hidden...."),
#                        and in the reference build a ctest entry running them
#                        for seeds 1..ROOFLAB_SEED_SWEEP
# and, for the grader's two-process path (rooflab/rpc.hpp, autograder/README.md):
#   <name>_verdict       public + hidden tests linked with NO student code: each
#                        contract call goes to a worker (reference build only)
#   <name>_worker        the student code serving those calls
# and records the assignment in the build's manifest (rooflab_manifest.json),
# the one list the grader and release tools read. The course's own objects
# (provided files, the worker's dispatch, the profile's main) also go into the
# grading kit (cmake/grading_kit.cmake), so that grading a submission compiles
# only its STUDENT_FILES.
function(course_add_assignment name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "STUDENT_FILES;PROVIDED_FILES;PUBLIC_TESTS;EXAMPLES;THRUST_FILES;PROFILE")
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

  # Student and provided code as separate objects: the grader's verdict binary
  # takes the provided objects without the student's.
  add_library(${name}_student OBJECT ${arg_STUDENT_FILES})
  _course_object_settings(${name}_student)
  set(student_objects "$<TARGET_OBJECTS:${name}_student>")
  if(arg_THRUST_FILES)
    _course_add_thrust_twins(${name} "${arg_STUDENT_FILES}" ${arg_THRUST_FILES})
    list(APPEND student_objects "$<TARGET_OBJECTS:${name}_student_cuda>")
  endif()
  add_library(${name} STATIC ${student_objects})
  set_target_properties(${name} PROPERTIES LINKER_LANGUAGE CXX)
  if(arg_PROVIDED_FILES)
    # The same for every submission: compiled once, into the grading kit.
    rooflab_kit_object_library(${name}_provided ${arg_PROVIDED_FILES})
    _course_object_settings(${name}_provided)
    rooflab_kit_objects(${name}_provided provided_objects)
    target_sources(${name} PRIVATE ${provided_objects})
  endif()
  target_include_directories(${name} PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}/include")
  target_link_libraries(${name} PUBLIC rooflab::common PRIVATE rooflab::warnings)

  # Each test source compiles once: the same objects link with the student's
  # code into the test binaries, and with the RPC client into the verdict.
  _course_add_test_objects(${name}_public_test_objects ${arg_PUBLIC_TESTS})
  set(test_objects "$<TARGET_OBJECTS:${name}_public_test_objects>")
  _course_add_test_binary(${name}_public_tests ${name} "${name}.public." "${test_objects}")

  set(hidden_sources "")
  if(ROOFLAB_HIDDEN_TESTS_DIR)
    file(GLOB hidden_sources CONFIGURE_DEPENDS "${ROOFLAB_HIDDEN_TESTS_DIR}/${name}/tests/*.cpp")
    if(hidden_sources)
      _course_add_test_objects(${name}_hidden_test_objects ${hidden_sources})
      list(APPEND test_objects "$<TARGET_OBJECTS:${name}_hidden_test_objects>")
      _course_add_test_binary(${name}_hidden_tests ${name} "${name}.hidden." "${test_objects}")
      if(ROOFLAB_BUILD_TOOLS)
        _course_add_seed_sweep(${name}_hidden_tests "${name}.hidden.every_seed_from_1_to_${ROOFLAB_SEED_SWEEP}")
      endif()
    endif()
  endif()
  _course_add_rpc_targets(${name} "${test_objects}" "${student_objects}")

  foreach(example IN LISTS arg_EXAMPLES)
    get_filename_component(stem "${example}" NAME_WE)
    add_executable(${name}_${stem} "${example}")
    target_link_libraries(${name}_${stem} PRIVATE ${name} rooflab::warnings)
  endforeach()

  set(has_profile false)
  if(arg_PROFILE)
    # Links the memory tracker: the profile measures peak heap bytes. Its own
    # code is the course's, so it comes precompiled from the grading kit.
    rooflab_kit_object_library(${name}_profile_main ${arg_PROFILE})
    target_link_libraries(${name}_profile_main PRIVATE ${name} rooflab::memory_tracker rooflab::warnings)
    rooflab_kit_objects(${name}_profile_main profile_objects)
    add_executable(${name}_profile ${profile_objects})
    set_target_properties(${name}_profile PROPERTIES LINKER_LANGUAGE CXX)
    target_link_libraries(${name}_profile PRIVATE ${name} rooflab::memory_tracker)
    set(has_profile true)
  endif()

  _course_record_assignment(${name} "${arg_STUDENT_FILES}" "${arg_PUBLIC_TESTS}" ${has_profile})
endfunction()

# <name>_student_cuda: each Thrust file again, renamed <fn>_cuda (see above).
function(_course_add_thrust_twins name student_files)
  set(twins "")
  foreach(file IN LISTS ARGN)
    if(NOT file IN_LIST student_files)
      message(FATAL_ERROR "course_add_assignment(${name}): THRUST_FILES entry ${file} is not in STUDENT_FILES")
    endif()
    get_filename_component(function "${file}" NAME_WE)
    set(extension cpp)
    if(ROOFLAB_WITH_CUDA)
      set(extension cu)
    endif()
    set(twin "${CMAKE_CURRENT_BINARY_DIR}/${function}_cuda.${extension}")
    file(CONFIGURE OUTPUT "${twin}" @ONLY CONTENT
"// Generated by course_add_assignment: ${file} compiled again as ${function}_cuda.
#define ${function} ${function}_cuda
#include \"${CMAKE_CURRENT_SOURCE_DIR}/${file}\"
")
    list(APPEND twins "${twin}")
  endforeach()
  add_library(${name}_student_cuda OBJECT ${twins})
  target_include_directories(${name}_student_cuda PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}/include")
  target_link_libraries(${name}_student_cuda PUBLIC rooflab::common PRIVATE rooflab::warnings)
  if(ROOFLAB_WITH_CUDA)
    target_link_libraries(${name}_student_cuda PRIVATE rooflab_thrust_cuda)
  else()
    target_link_libraries(${name}_student_cuda PRIVATE rooflab_thrust_omp)
  endif()
endfunction()

function(_course_object_settings target)
  target_include_directories(${target} PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}/include")
  # The OpenMP device system for any Thrust code among them (THRUST_FILES).
  target_link_libraries(${target} PUBLIC rooflab::common PRIVATE rooflab::warnings rooflab_thrust_omp)
endfunction()

# The reference build (tools on) reads the contract from its own student objects
# and generates both sides of it. The worker side, compiled, goes into the
# grading kit: a grading build links it with the submission's objects.
function(_course_add_rpc_targets name test_objects student_objects)
  if(ROOFLAB_BUILD_TOOLS)
    set(client "${CMAKE_CURRENT_BINARY_DIR}/${name}_rpc_client.cpp")
    set(dispatch "${CMAKE_CURRENT_BINARY_DIR}/${name}_rpc_dispatch.cpp")
    add_custom_command(
      OUTPUT "${client}" "${dispatch}"
      COMMAND rooflab contract --namespace ${name} --header "${name}/${name}.hpp" --nm "${CMAKE_NM}"
              --client "${client}" --dispatch "${dispatch}" ${student_objects}
      DEPENDS rooflab ${name}_student ${student_objects}
      COMMAND_EXPAND_LISTS
      COMMENT "Reading the contract of ${name}")
    # One target owns the generated sources: with two consumers and no owner,
    # Makefile builds would run the command twice at once, racing on its files.
    add_custom_target(${name}_contract DEPENDS "${client}" "${dispatch}")
    add_executable(${name}_verdict ${test_objects} "${client}")
    add_dependencies(${name}_verdict ${name}_contract)
    if(TARGET ${name}_provided)
      target_sources(${name}_verdict PRIVATE $<TARGET_OBJECTS:${name}_provided>)
    endif()
    target_include_directories(${name}_verdict PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/include")
    target_link_libraries(${name}_verdict PRIVATE rooflab_rpc_client rooflab::testing GTest::gtest_main
                                                  rooflab::warnings)
    rooflab_kit_object_library(${name}_dispatch "${dispatch}")
    add_dependencies(${name}_dispatch ${name}_contract)
    target_link_libraries(${name}_dispatch PRIVATE ${name} rooflab_rpc_worker rooflab::warnings)
  elseif(NOT ROOFLAB_GRADING_KIT_DIR)
    return()  # a build without the tools and not grading: no contract, no worker
  endif()
  rooflab_kit_objects(${name}_dispatch dispatch_objects)
  add_executable(${name}_worker ${dispatch_objects})
  set_target_properties(${name}_worker PROPERTIES LINKER_LANGUAGE CXX)
  target_link_libraries(${name}_worker PRIVATE ${name} rooflab_rpc_worker)
endfunction()

# Compiled against the contract's headers only: which code answers the calls is
# decided when linking.
function(_course_add_test_objects target)
  add_library(${target} OBJECT ${ARGN})
  target_include_directories(${target} PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/include")
  target_link_libraries(${target} PRIVATE rooflab::testing rooflab::warnings)
endfunction()

function(_course_add_test_binary target library prefix test_objects)
  add_executable(${target} ${test_objects})
  target_link_libraries(${target} PRIVATE ${library} rooflab::testing GTest::gtest_main rooflab::warnings)
  # ctest runs tests side by side: idle OpenMP threads sleep rather than spin
  # on the cores the other tests need (the grader does the same).
  gtest_discover_tests(${target} TEST_PREFIX "${prefix}" DISCOVERY_MODE PRE_TEST
                       PROPERTIES TIMEOUT 60 ENVIRONMENT OMP_WAIT_POLICY=passive)
endfunction()

# The grader draws a new ROOFLAB_SEED for each grading, so the reference must
# pass the hidden tests for every seed, not only for the fixed one the other
# ctest entries use (cmake/run_for_seeds.cmake). Memory measurements are left
# out: they count allocations, which the input values do not change.
function(_course_add_seed_sweep target test_name)
  add_test(NAME "${test_name}"
           COMMAND "${CMAKE_COMMAND}" "-DBINARY=$<TARGET_FILE:${target}>" "-DSEEDS=${ROOFLAB_SEED_SWEEP}"
                   "-DFILTER=-*Memory*" -P "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/run_for_seeds.cmake")
  set_tests_properties("${test_name}" PROPERTIES TIMEOUT 300 ENVIRONMENT OMP_WAIT_POLICY=passive)
endfunction()

# The manifest is JSON built up in a global property and written once at the end
# of configuration by rooflab_write_manifest().
function(_course_record_assignment name student_files public_tests has_profile)
  set(entry "{}")
  string(JSON entry SET "${entry}" name "\"${name}\"")
  file(RELATIVE_PATH rel_dir "${ROOFLAB_COURSE_DIR}" "${CMAKE_CURRENT_SOURCE_DIR}")
  string(JSON entry SET "${entry}" dir "\"${rel_dir}\"")
  foreach(key IN ITEMS student_files public_tests)
    set(array "[]")
    set(index 0)
    foreach(file IN LISTS ${key})
      string(JSON array SET "${array}" ${index} "\"${file}\"")
      math(EXPR index "${index} + 1")
    endforeach()
    string(JSON entry SET "${entry}" ${key} "${array}")
  endforeach()
  set(has_hidden false)
  if(TARGET ${name}_hidden_tests)
    set(has_hidden true)
  endif()
  string(JSON entry SET "${entry}" has_hidden_tests ${has_hidden})
  string(JSON entry SET "${entry}" has_profile ${has_profile})
  set_property(GLOBAL APPEND PROPERTY ROOFLAB_ASSIGNMENTS "${entry}")
endfunction()

function(rooflab_write_manifest)
  get_property(entries GLOBAL PROPERTY ROOFLAB_ASSIGNMENTS)
  set(assignments "[]")
  set(index 0)
  foreach(entry IN LISTS entries)
    string(JSON assignments SET "${assignments}" ${index} "${entry}")
    math(EXPR index "${index} + 1")
  endforeach()
  set(manifest "{}")
  string(JSON manifest SET "${manifest}" course_dir "\"${ROOFLAB_COURSE_DIR}\"")
  string(JSON manifest SET "${manifest}" source_dir "\"${PROJECT_SOURCE_DIR}\"")
  string(JSON manifest SET "${manifest}" binary_dir "\"${PROJECT_BINARY_DIR}\"")
  set(with_cuda false)
  if(ROOFLAB_WITH_CUDA)
    set(with_cuda true)
  endif()
  string(JSON manifest SET "${manifest}" with_cuda ${with_cuda})
  # Grading builds compile student Thrust code against the same Thrust as the
  # objects in the grading kit.
  string(JSON manifest SET "${manifest}" thrust_dir "\"${Thrust_DIR}\"")
  string(JSON manifest SET "${manifest}" assignments "${assignments}")
  file(WRITE "${PROJECT_BINARY_DIR}/rooflab_manifest.json" "${manifest}\n")
endfunction()
