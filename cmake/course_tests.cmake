# An assignment's test binaries: the public tests (tests/), and with them its
# hidden tests (grading/tests/*.cpp) when ROOFLAB_HIDDEN_TESTS is on and the
# folder is there (never in a student tree: `lab release` leaves grading/ out).

# <name>_public_tests, and <name>_hidden_tests where there are hidden tests;
# sets <out_var> to every test object (the verdict links the same ones).
function(_course_add_tests name public_tests out_var)
  _course_add_test_objects(${name}_public_test_objects ${public_tests})
  set(test_objects "$<TARGET_OBJECTS:${name}_public_test_objects>")
  _course_add_test_binary(${name}_public_tests ${name} "${name}.public." "${test_objects}")
  if(ROOFLAB_HIDDEN_TESTS)
    file(GLOB hidden_sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/grading/tests/*.cpp")
    if(hidden_sources)
      _course_add_test_objects(${name}_hidden_test_objects ${hidden_sources})
      list(APPEND test_objects "$<TARGET_OBJECTS:${name}_hidden_test_objects>")
      _course_add_test_binary(${name}_hidden_tests ${name} "${name}.hidden." "${test_objects}")
      if(ROOFLAB_BUILD_TOOLS)
        _course_add_seed_sweep(${name}_hidden_tests ${name}_public_tests "${name}.hidden")
      endif()
    endif()
  endif()
  set(${out_var} "${test_objects}" PARENT_SCOPE)
endfunction()

# Compiled against the contract's headers only: which code answers the calls is
# decided when linking.
function(_course_add_test_objects target)
  add_library(${target} OBJECT ${ARGN})
  _course_lab_link(lab)
  target_include_directories(${target} PRIVATE "${lab}/include")
  target_link_libraries(${target} PRIVATE rooflab::testing rooflab::warnings)
endfunction()

function(_course_add_test_binary target library prefix test_objects)
  add_executable(${target} ${test_objects})
  target_link_libraries(${target} PRIVATE ${library} rooflab_worker_report_local rooflab::testing GTest::gtest_main
                                          rooflab::warnings)
  # ctest runs tests side by side: idle OpenMP threads sleep rather than spin
  # on the cores the other tests need (the grader does the same).
  gtest_discover_tests(${target} TEST_PREFIX "${prefix}" DISCOVERY_MODE PRE_TEST
                       PROPERTIES TIMEOUT 60 ENVIRONMENT OMP_WAIT_POLICY=passive)
endfunction()

# The grader draws a new ROOFLAB_SEED for each grading, so the reference must
# pass the hidden tests for every seed, not only for the fixed one the other
# ctest entries use (cmake/run_for_seeds.cmake). Left out: the public tests
# (`public_target` lists them), whose inputs are fixed; memory measurements,
# which count allocations the input values do not change; and tests named
# *LongContext*, one expensive shape each (a06's 20000-token caches), which
# the ordinary ctest entry and every grading run once; the *Leaderboard*
# tests, timed calls at one large shape that every grading runs (four times,
# beside the reference: autograder/README.md), whose checks hold for any seed;
# and the *Training* tests (a07's end-to-end training runs, seconds each),
# which the ordinary entry runs for its seed and every grading for a new one.
# The tensor-core instances (*/tensor_core: a05's WMMA kernel, whose
# emulated mma_sync costs the CPU runtime about a second a seed; */mma_sync*,
# the bonus kernels', as much again) run in the first entry only: seeds 1 to
# 20, 160 random shapes (their 2.3 s a seed were 115 of the suite's core-seconds
# for 50 seeds); every grading draws a new seed for them besides. The random-
# shape sweeps that cost the CPU runtime most after them run in the first two
# entries, seeds 1 to 70: a05's standard-attention kernels on random and on wide
# shapes (0.66 s a seed together, two thirds of a05's seed: each of their loads
# goes to global memory, the checker's slowest path), 560 and 210 shapes, and
# a06's two CUDA decode kernels on random shapes and splits (0.25 s a seed,
# four fifths of a06's), 280 shapes each. Their 130 seeds more took 118 of the
# suite's core-seconds, and the tests that check numbers rather than shapes
# (a05's large logits and rows that see no key, the flash kernels' shapes, a06's
# CPU decode, cache, sampling and generation) keep all 200.
#
# The seeds are split into ctest entries ("<prefix>.every_seed_from_1_to_20",
# "..._21_to_70", "..._71_to_120", …, 50 seeds each after the first): ctest
# spreads them over the cores beside the other tests, and each stays minutes
# inside its time limit when other gradings share the machine.
function(_course_add_seed_sweep target public_target prefix)
  set(seeds_in_first_entry 20)
  set(seeds_per_entry 50)
  set(seeds_for_costly_shape_sweeps 70)  # the end of an entry
  set(first 1)
  while(first LESS_EQUAL ROOFLAB_SEED_SWEEP)
    if(first EQUAL 1)
      math(EXPR last "${seeds_in_first_entry}")
    else()
      math(EXPR last "${first} + ${seeds_per_entry} - 1")
    endif()
    if(last GREATER ROOFLAB_SEED_SWEEP)
      set(last ${ROOFLAB_SEED_SWEEP})
    endif()
    set(test_name "${prefix}.every_seed_from_${first}_to_${last}")
    set(left_out "*Memory*:*LongContext*:*Leaderboard*:*Training*")
    if(first GREATER 1)
      string(APPEND left_out ":*/tensor_core:*/mma_sync*")
    endif()
    if(first GREATER seeds_for_costly_shape_sweeps)
      string(APPEND left_out ":Kernels/CudaHidden.RandomShapes/standard:Kernels/CudaHidden.WideHeadsAndLongerKeys/standard"
                             ":Implementations/HiddenDecode.RandomShapesAndSplits/cuda_*")
    endif()
    add_test(NAME "${test_name}"
             COMMAND "${CMAKE_COMMAND}" "-DBINARY=$<TARGET_FILE:${target}>" "-DFIRST_SEED=${first}" "-DLAST_SEED=${last}"
                     "-DFILTER=-${left_out}"
                     "-DEXCLUDE_TESTS_OF=$<TARGET_FILE:${public_target}>" -P
                     "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/run_for_seeds.cmake")
    # COST: an entry takes up to a minute or two; ctest starts the longest tests first.
    set_tests_properties("${test_name}" PROPERTIES TIMEOUT 600 COST 50 ENVIRONMENT OMP_WAIT_POLICY=passive)
    math(EXPR first "${last} + 1")
  endwhile()
endfunction()
