# cmake -DCXX=g++ -DSOURCE=f.cpp "-DINCLUDES=a;b" "-DSYSTEM_INCLUDES=a" "-DDEFINES=X=1;Y" -P thrust_host_device_test.cmake
# A Thrust file's `__host__ __device__` functor compiles for the OpenMP device
# system with only the include paths the build gives it. CCCL's Thrust takes
# both macros from the CUDA runtime's headers where the compiler finds them; on
# a machine whose toolkit is installed the usual way (a GPU machine's) g++ does
# not, unless the build says where (cmake/dependencies.cmake). So the check
# drops the compiler's own /usr/local/include, where some machines keep a copy
# of those headers, and keeps every other folder it searches.
cmake_minimum_required(VERSION 3.22)
execute_process(COMMAND "${CXX}" -x c++ -E -v /dev/null OUTPUT_QUIET ERROR_VARIABLE search RESULT_VARIABLE status)
string(FIND "${search}" "#include <...> search starts here:" from)
string(FIND "${search}" "End of search list." to)
if(NOT status EQUAL 0 OR from EQUAL -1 OR to EQUAL -1)
  message("skipped: ${CXX} does not print its include search list (-E -v)")
  return()
endif()
string(SUBSTRING "${search}" ${from} ${to}-${from} search)
string(REPLACE "\n" ";" lines "${search}")
set(flags -nostdinc)
foreach(line IN LISTS lines)
  string(STRIP "${line}" folder)
  if(IS_DIRECTORY "${folder}" AND NOT folder MATCHES "^/usr/local/include")
    list(APPEND flags -isystem "${folder}")
  endif()
endforeach()
# As the build passes them: CCCL defines the two macros itself when its own
# folder is a system one, and the build's is not.
foreach(folder IN LISTS SYSTEM_INCLUDES)
  list(APPEND flags -isystem "${folder}")
endforeach()
foreach(folder IN LISTS INCLUDES)
  list(APPEND flags "-I${folder}")
endforeach()
foreach(definition IN LISTS DEFINES)
  list(APPEND flags "-D${definition}")
endforeach()
execute_process(COMMAND "${CXX}" -std=c++20 -fopenmp -Wall -Wextra -Werror -fsyntax-only ${flags} "${SOURCE}"
                RESULT_VARIABLE status ERROR_VARIABLE errors)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "a __host__ __device__ functor does not compile for Thrust's OpenMP system:\n${errors}")
endif()
message("a __host__ __device__ functor compiles for Thrust's OpenMP system without /usr/local/include")
