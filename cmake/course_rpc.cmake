# The grader's two-process path for one assignment (rooflab/rpc.hpp,
# autograder/README.md): <name>_verdict (tests, no student code) and
# <name>_worker (student code serving the contract's calls).

# The reference build (tools on) reads the contract from its own student objects
# and generates both sides of it. The worker side, compiled, goes into the
# grading kit: a grading build links it with the submission's objects.
function(_course_add_rpc_targets name test_objects student_objects)
  if(ROOFLAB_BUILD_TOOLS)
    set(client "${CMAKE_CURRENT_BINARY_DIR}/${name}_rpc_client.cpp")
    set(dispatch "${CMAKE_CURRENT_BINARY_DIR}/${name}_rpc_dispatch.cpp")
    # `rooflab contract` rewrites the sources only when they change (what
    # compiles them then stays built); the stamp records that it ran, so that
    # a relinked `rooflab` does not make every later build read it again.
    set(stamp "${CMAKE_CURRENT_BINARY_DIR}/${name}_contract.stamp")
    add_custom_command(
      OUTPUT "${stamp}"
      BYPRODUCTS "${client}" "${dispatch}"
      COMMAND rooflab contract --namespace ${name} --header "${name}/${name}.hpp" --nm "${CMAKE_NM}"
              --client "${client}" --dispatch "${dispatch}" ${student_objects}
      COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
      DEPENDS rooflab ${name}_student ${student_objects}
      COMMAND_EXPAND_LISTS
      COMMENT "Reading the contract of ${name}")
    # One target owns the generated sources: with two consumers and no owner,
    # Makefile builds would run the command twice at once, racing on its files.
    add_custom_target(${name}_contract DEPENDS "${stamp}")
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
