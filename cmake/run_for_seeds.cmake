# cmake -DBINARY=<test binary> -DFIRST_SEED=<seed> -DLAST_SEED=<seed> -DFILTER=<gtest filter>
#       [-DEXCLUDE_TESTS_OF=<test binary>] -P run_for_seeds.cmake
#
# Runs a hidden-test binary once for each ROOFLAB_SEED in FIRST_SEED..LAST_SEED.
# The grader draws a fresh seed for every grading, so a hidden test that fails
# correct code for even one seed in a hundred would take points from a right
# submission now and then; linked with solutions/, every seed must pass. Fails
# naming each failing seed and showing the first failure, which
# `ROOFLAB_SEED=<seed> BINARY` reproduces.
foreach(required IN ITEMS BINARY FIRST_SEED LAST_SEED FILTER)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "run_for_seeds.cmake: -D${required}=... is required")
  endif()
endforeach()

# EXCLUDE_TESTS_OF's tests (the public ones, whose inputs no seed changes) run
# once elsewhere: leave them out of every seed's run.
if(DEFINED EXCLUDE_TESTS_OF)
  execute_process(COMMAND "${EXCLUDE_TESTS_OF}" --gtest_list_tests OUTPUT_VARIABLE listing RESULT_VARIABLE listed)
  if(NOT listed EQUAL 0)
    message(FATAL_ERROR "run_for_seeds.cmake: ${EXCLUDE_TESTS_OF} --gtest_list_tests failed")
  endif()
  string(REPLACE "\n" ";" lines "${listing}")
  set(excluded "")
  foreach(line IN LISTS lines)
    if(line MATCHES "^([^ #][^ ]*\\.)")  # "Suite." (a parameterised suite's may be followed by a comment)
      set(suite "${CMAKE_MATCH_1}")
    elseif(line MATCHES "^  ([^ ]+)")  # "  Test" under it
      list(APPEND excluded "${suite}${CMAKE_MATCH_1}")
    endif()
  endforeach()
  list(JOIN excluded ":" excluded)
  if(excluded)
    if(FILTER MATCHES "^-")
      set(FILTER "${FILTER}:${excluded}")
    else()
      set(FILTER "${FILTER}-${excluded}")
    endif()
  endif()
endif()

set(failing_seeds "")
set(first_failure "")
foreach(seed RANGE ${FIRST_SEED} ${LAST_SEED})
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env "ROOFLAB_SEED=${seed}" "${BINARY}" --gtest_brief=1
                          "--gtest_filter=${FILTER}"
                  RESULT_VARIABLE exit_code OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT exit_code EQUAL 0)
    list(APPEND failing_seeds ${seed})
    if(first_failure STREQUAL "")
      set(first_failure "${output}")
    endif()
  endif()
endforeach()

if(failing_seeds)
  list(LENGTH failing_seeds count)
  list(GET failing_seeds 0 first_seed)
  math(EXPR seeds "${LAST_SEED} - ${FIRST_SEED} + 1")
  list(JOIN failing_seeds ", " seed_list)
  message(FATAL_ERROR "${BINARY} failed for ${count} of the ${seeds} seeds ${FIRST_SEED} to ${LAST_SEED}: ${seed_list}\n"
                      "first failure (ROOFLAB_SEED=${first_seed}):\n${first_failure}")
endif()
message(STATUS "${BINARY}: passed for every seed from ${FIRST_SEED} to ${LAST_SEED}")
