# course_add_assignment(<name>
#   STUDENT_FILES  src/a.cpp ...   what students edit; the grader takes only these
#   PROVIDED_FILES src/b.cpp ...   support code students read but the grader re-copies
#   PUBLIC_TESTS   tests/x.cpp ... tests shipped with the assignment
#   EXAMPLES       examples/e.cpp  one executable per file, for the lab text)
#
# Makes, for assignment <name>:
#   <name>               static library of the student and provided sources
#   <name>_public_tests  public tests (ctest names "<name>.public.<Suite>.<Test>")
#   <name>_hidden_tests  public + hidden tests when ROOFLAB_HIDDEN_TESTS_DIR has
#                        <name>/tests/*.cpp (ctest names "<name>.hidden....")
# and records the assignment in the build's manifest (rooflab_manifest.json),
# the one list the grader and release tools read.
function(course_add_assignment name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "STUDENT_FILES;PROVIDED_FILES;PUBLIC_TESTS;EXAMPLES")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "course_add_assignment(${name}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_STUDENT_FILES)
    message(FATAL_ERROR "course_add_assignment(${name}): STUDENT_FILES is empty")
  endif()

  add_library(${name} STATIC ${arg_STUDENT_FILES} ${arg_PROVIDED_FILES})
  target_include_directories(${name} PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}/include")
  target_link_libraries(${name} PUBLIC rooflab::common PRIVATE rooflab::warnings)

  _course_add_test_binary(${name}_public_tests ${name} "${name}.public." ${arg_PUBLIC_TESTS})

  if(ROOFLAB_HIDDEN_TESTS_DIR)
    file(GLOB hidden_sources CONFIGURE_DEPENDS "${ROOFLAB_HIDDEN_TESTS_DIR}/${name}/tests/*.cpp")
    if(hidden_sources)
      _course_add_test_binary(${name}_hidden_tests ${name} "${name}.hidden."
                              ${arg_PUBLIC_TESTS} ${hidden_sources})
    endif()
  endif()

  foreach(example IN LISTS arg_EXAMPLES)
    get_filename_component(stem "${example}" NAME_WE)
    add_executable(${name}_${stem} "${example}")
    target_link_libraries(${name}_${stem} PRIVATE ${name} rooflab::warnings)
  endforeach()

  _course_record_assignment(${name} "${arg_STUDENT_FILES}" "${arg_PUBLIC_TESTS}")
endfunction()

function(_course_add_test_binary target library prefix)
  add_executable(${target} ${ARGN})
  target_link_libraries(${target} PRIVATE ${library} rooflab::testing GTest::gtest_main rooflab::warnings)
  gtest_discover_tests(${target} TEST_PREFIX "${prefix}" DISCOVERY_MODE PRE_TEST
                       PROPERTIES TIMEOUT 60)
endfunction()

# The manifest is JSON built up in a global property and written once at the end
# of configuration by rooflab_write_manifest().
function(_course_record_assignment name student_files public_tests)
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
  string(JSON manifest SET "${manifest}" assignments "${assignments}")
  file(WRITE "${PROJECT_BINARY_DIR}/rooflab_manifest.json" "${manifest}\n")
endfunction()
