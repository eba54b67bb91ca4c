# The grading kit: the course's own compiled code, reused by every grading build.
#
# A submission's worker links far more than the student's files: the support
# library, the RPC worker, the assignment's provided files and the generated
# dispatch. None of that depends on the submission, so the reference build
# compiles it once and copies the objects into <build>/grading_kit/<library>/.
# The grader stages that folder with the course and configures the staged build
# with ROOFLAB_GRADING_KIT_DIR pointing at it; there only student files compile.
# (The kit holds no solution code: student objects never enter it.)
#
#   rooflab_kit_object_library(<name> <sources>...)
#       add_library(<name> OBJECT ...) whose objects go into the kit. Set its
#       compile settings as usual; a grading build defines it too, but never
#       builds it.
#   rooflab_kit_objects(<name> <out-var>)
#       The objects of <name> for use as sources: $<TARGET_OBJECTS:<name>> in a
#       reference build, the kit's copies in a grading build.
#   rooflab_write_grading_kit()
#       Called once at the end of configuration: the target that fills the kit,
#       and the kit's configure cache (below).
#
# The configure cache, <build>/grading_kit/configure_cache.cmake: the compiler
# and the results of the checks this configuration ran (OpenMP's flags and
# libraries, -march=native, the C library's pthreads), for `cmake -C`. A
# grading's configure then compiles no test programs for them: half of its
# second, on every grading. The answers are this machine's and this compiler's,
# which are the grading build's too (it links the kit's objects, compiled here).

if(ROOFLAB_GRADING_KIT_DIR AND ROOFLAB_BUILD_TOOLS)
  message(FATAL_ERROR "ROOFLAB_GRADING_KIT_DIR is for grading builds, which set ROOFLAB_BUILD_TOOLS=OFF")
endif()

function(rooflab_kit_object_library name)
  # The kit is flat per library: two sources with one file name would collide.
  set(seen "")
  foreach(source IN LISTS ARGN)
    get_filename_component(file "${source}" NAME)
    if(file IN_LIST seen)
      message(FATAL_ERROR "rooflab_kit_object_library(${name}): two sources named ${file}")
    endif()
    list(APPEND seen "${file}")
  endforeach()
  add_library(${name} OBJECT ${ARGN})
  if(ROOFLAB_GRADING_KIT_DIR)
    set_target_properties(${name} PROPERTIES EXCLUDE_FROM_ALL TRUE)
  else()
    set_property(GLOBAL APPEND PROPERTY ROOFLAB_KIT_LIBRARIES ${name})
  endif()
endfunction()

function(rooflab_kit_objects name out_var)
  if(NOT ROOFLAB_GRADING_KIT_DIR)
    set(${out_var} "$<TARGET_OBJECTS:${name}>" PARENT_SCOPE)
    return()
  endif()
  file(GLOB objects "${ROOFLAB_GRADING_KIT_DIR}/${name}/*.o")
  if(NOT objects)
    message(FATAL_ERROR "the grading kit ${ROOFLAB_GRADING_KIT_DIR} has no objects for ${name}: "
                        "rebuild the reference (./lab build) and grade again")
  endif()
  set(${out_var} "${objects}" PARENT_SCOPE)
endfunction()

function(rooflab_write_grading_kit)
  if(ROOFLAB_GRADING_KIT_DIR)
    return()
  endif()
  get_property(libraries GLOBAL PROPERTY ROOFLAB_KIT_LIBRARIES)
  set(kit "${PROJECT_BINARY_DIR}/grading_kit")
  set(stamps "")
  foreach(library IN LISTS libraries)
    # Emptied first, so that an object whose source was removed cannot linger.
    set(stamp "${kit}/${library}.stamp")
    add_custom_command(
      OUTPUT "${stamp}"
      COMMAND "${CMAKE_COMMAND}" -E rm -rf "${kit}/${library}"
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${kit}/${library}"
      COMMAND "${CMAKE_COMMAND}" -E copy "$<TARGET_OBJECTS:${library}>" "${kit}/${library}"
      COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
      DEPENDS ${library} "$<TARGET_OBJECTS:${library}>"
      COMMAND_EXPAND_LISTS VERBATIM)
    list(APPEND stamps "${stamp}")
  endforeach()
  add_custom_target(rooflab_grading_kit ALL DEPENDS ${stamps})
  rooflab_write_configure_cache("${kit}/configure_cache.cmake")
endfunction()

function(rooflab_write_configure_cache file)
  # A compiler reached through a caching wrapper's link (ccache's
  # /usr/lib/ccache/c++ first on PATH, say) is never handed to a grading,
  # which compiles without a cache: one submission must not read another's
  # objects. Such a kit has no configure cache, and the grading's configure
  # finds its own compiler and runs its own checks, as before.
  file(REAL_PATH "${CMAKE_CXX_COMPILER}" real_compiler)
  get_filename_component(compiler_name "${real_compiler}" NAME)
  if(compiler_name MATCHES "ccache|sccache|distcc|icecc")
    file(REMOVE "${file}")
    return()
  endif()
  set(text "# Written by the reference build's configure (cmake/grading_kit.cmake): its compiler and\n")
  string(APPEND text "# check results, for a grading build's `cmake -C`.\n")
  string(APPEND text "set(CMAKE_CXX_COMPILER \"${CMAKE_CXX_COMPILER}\" CACHE FILEPATH \"\")\n")
  set(checks ROOFLAB_HAS_MARCH_NATIVE CMAKE_HAVE_LIBC_PTHREAD OpenMP_CXX_FLAGS OpenMP_CXX_LIB_NAMES
             OpenMP_CXX_SPEC_DATE)
  foreach(library IN LISTS OpenMP_CXX_LIB_NAMES)
    list(APPEND checks "OpenMP_${library}_LIBRARY")
  endforeach()
  foreach(check IN LISTS checks)
    if(DEFINED CACHE{${check}})
      string(APPEND text "set(${check} \"$CACHE{${check}}\" CACHE INTERNAL \"\")\n")
    endif()
  endforeach()
  file(CONFIGURE OUTPUT "${file}" CONTENT "${text}" @ONLY)  # rewritten only when it changes
endfunction()
