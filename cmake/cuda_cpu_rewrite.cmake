# cmake -DINPUT=x.cu [-DLINE_NAME=name] -DOUTPUT=x_cpu.cpp -P cuda_cpu_rewrite.cmake
# The rewrite cmake/cuda_on_cpu.cmake describes. LINE_NAME is the name the
# output's #line gives the .cu file (default: INPUT).
cmake_minimum_required(VERSION 3.22)  # a script's policies: today's if() and while()
file(READ "${INPUT}" text)

# kernel<<<config>>>( and ns::kernel<T><<<config>>>(  ->
#   launcher("kernel", config)([&](auto&... rooflab_arguments) { ns::kernel<T>(rooflab_arguments...); })(
# The lambda calls the kernel as the chevrons would, so that a template
# kernel's arguments are deduced from the launch's, as nvcc deduces them; the
# launch is named without namespaces and template arguments.
# The chevrons are found as tokens, not by one regex, so that the configuration
# may hold anything but ">>>" itself: std::max<int>(a, b), a ? b : c, x >> 1.
# A "<<<" that is not a launch (in a comment, say) is left as it is.
set(kernel_at_end "([A-Za-z_][A-Za-z0-9_:]*(<[^<>;()]*>)?)[ \t\n]*$")  # kernel or kernel<T>, before "<<<" (a line break between: clang-format's)
set(rewritten "")
while(TRUE)
  string(FIND "${text}" "<<<" open)
  if(open EQUAL -1)
    break()
  endif()
  string(SUBSTRING "${text}" 0 ${open} before)
  math(EXPR config_start "${open} + 3")
  string(SUBSTRING "${text}" ${config_start} -1 rest)
  string(FIND "${rest}" ">>>" close)
  if(close EQUAL -1)
    break()
  endif()
  string(SUBSTRING "${rest}" 0 ${close} config)
  math(EXPR after_start "${close} + 3")
  string(SUBSTRING "${rest}" ${after_start} -1 text)
  if(text MATCHES "^[ \t]*\\(" AND before MATCHES "${kernel_at_end}")
    set(kernel "${CMAKE_MATCH_1}")  # the last MATCHES's group: the kernel
    string(REGEX REPLACE "<.*$" "" name "${kernel}")
    string(REGEX REPLACE "^.*::" "" name "${name}")
    # Line breaks between the kernel and "<<<" come back inside the call, so
    # that every later line keeps its number (#line below).
    string(REGEX MATCH "${kernel_at_end}" tail "${before}")
    string(REGEX REPLACE "[^\n]" "" tail_breaks "${tail}")
    string(REGEX REPLACE "[^\n]" "" kernel_breaks "${kernel}")
    string(LENGTH "${kernel_breaks}" kept)
    string(SUBSTRING "${tail_breaks}" ${kept} -1 breaks)
    string(REGEX REPLACE "${kernel_at_end}" "" before "${before}")
    string(REGEX REPLACE "^[ \t]*\\(" "" text "${text}")
    string(APPEND rewritten "${before}::rooflab::cuda_cpu::launcher(\"${name}\", ${config})("
           "[&](auto&... rooflab_arguments) { ${kernel}(rooflab_arguments...); })(${breaks}")
  else()
    string(APPEND rewritten "${before}<<<${config}>>>")
  endif()
endwhile()
set(text "${rewritten}${text}")

# extern __shared__ T name[];  ->  T* name = <the block's dynamic shared memory>;
# (an alignment, __align__(16) or alignas(16), is the runtime's: it aligns the
# block's shared memory to 128 bytes; the type may take several words)
string(REGEX REPLACE "(extern[ \t]+__shared__[ \t]+)(__align__|alignas)[ \t]*\\([^)]*\\)[ \t]*" "\\1" text "${text}")
string(REGEX REPLACE "extern[ \t]+__shared__[ \t]+([A-Za-z_][A-Za-z0-9_: \t]*[A-Za-z0-9_])[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]*\\[[ \t]*\\][ \t]*;"
                     "\\1* \\2 = static_cast<\\1*>(::rooflab::cuda_cpu::dynamic_shared_memory());" text "${text}")
# __shared__ T a[…], b[…];  ->  __shared__ T a[…]; __shared__ T b[…]; (on one
# line, which keeps the line numbers), for the rule below.
set(split "")
while(NOT split STREQUAL text)
  set(split "${text}")
  string(REGEX REPLACE "(__shared__[ \t]+)([A-Za-z_][A-Za-z0-9_:<> \t*]*[ \t*])([A-Za-z_][A-Za-z0-9_]*[ \t]*(\\[[^];,]*\\][ \t]*)*),[ \t]*"
                       "\\1\\2\\3; \\1\\2" text "${text}")
endwhile()
# __shared__ T name[…];  ->  auto& name = <the array in the block's shared memory>;
# (after the extern form, which the pattern below would match too)
string(REGEX REPLACE "(static[ \t]+)?__shared__[ \t]+([A-Za-z_][A-Za-z0-9_:<>, \t*]*[ \t*])([A-Za-z_][A-Za-z0-9_]*)[ \t]*((\\[[^];]*\\][ \t]*)*);"
                     "auto& \\3 = ::rooflab::cuda_cpu::shared_variable<\\2\\4>(\"\\3\", __LINE__);" text "${text}")
# __device__ T name…;  ->  the same, then its registration with the runtime,
# which knows device memory by it (a host variable is not device memory).
# Functions (a parenthesis before the name's end) are left as they are.
string(REGEX REPLACE "(__device__|__constant__)([^;(){}=\n]*[ \t*&])([A-Za-z_][A-Za-z0-9_]*)([ \t]*\\[[^];\n]*\\])*([ \t]*=[^;]*|[ \t]*{[^;]*})?[ \t]*;"
                     "\\0 ROOFLAB_REGISTER_DEVICE_VARIABLE(\\3);" text "${text}")
# __launch_bounds__(max_threads, …) NAME(params) {  ->  NAME(params) { check_launch_bounds(max_threads, …);
# the first statement of the kernel's body: a launch with more threads per
# block than it declares fails, as a GPU refuses it. (A declaration keeps it:
# the macro is empty.)
string(REGEX REPLACE "__launch_bounds__[ \t]*\\(([^()]*)\\)([^{};]*)\\{"
                     "\\2{ ::rooflab::cuda_cpu::check_launch_bounds(\\1);" text "${text}")
if(NOT DEFINED LINE_NAME)
  set(LINE_NAME "${INPUT}")
endif()
set(result "// Generated from ${LINE_NAME} by cmake/cuda_cpu_rewrite.cmake: runs on the CPU.\n#include \"rooflab/cuda_cpu_memory_functions.hpp\"\n#include \"rooflab/cuda_cpu.hpp\"\n#line 1 \"${LINE_NAME}\"\n${text}")
# The output must end up newer than its input, even when the rewrite is the
# same (a .cu file touched or saved unchanged): an output left older makes
# every later build run this again, printing "Rewriting ..." each time.
# Unchanged text is touched rather than written again.
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" current)
  if(current STREQUAL result)
    file(TOUCH_NOCREATE "${OUTPUT}")
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${result}")
