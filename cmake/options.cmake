# Every user-facing switch of the build, in one place.
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)
if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()

set(ROOFLAB_COURSE_DIR "${PROJECT_SOURCE_DIR}/solutions" CACHE PATH
    "Course tree to build: solutions/ (reference), assignments/ (student stubs) or a staged submission")
option(ROOFLAB_HIDDEN_TESTS "Build each assignment's hidden tests (<assignment>/grading/tests/) where it has them" OFF)
option(ROOFLAB_BUILD_TOOLS "Build the instructor tools: grader, release, docs checker" ON)
option(ROOFLAB_STUDENT_TOOLS
       "Without the instructor tools, still build `rooflab` with analyze, generate and bench on this course tree" OFF)
option(ROOFLAB_NATIVE "Compile C++ for this machine's CPU (-march=native; see cmake/cpu.cmake)" ON)
option(ROOFLAB_ENABLE_CUDA "Compile CUDA sources when nvcc is found (OFF proves the CPU-only build)" ON)
option(ROOFLAB_RUNTIME_TESTS
       "Build the CPU runtime's own tests (common/tests: the course's CI runs them; a student's build leaves them out)"
       ON)
set(ROOFLAB_GRADING_KIT_DIR "" CACHE PATH
    "A reference build's grading_kit/ (cmake/grading_kit.cmake): the grader sets it to build a submission's workers")
set(ROOFLAB_SEED_SWEEP 200 CACHE STRING
    "The reference build's tests run each assignment's hidden tests for seeds 1..this (cmake/run_for_seeds.cmake)")
