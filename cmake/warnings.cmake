# One warning policy for every target the course builds: warnings are errors.
add_library(rooflab_warnings INTERFACE)
target_compile_options(rooflab_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Werror>
  $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Wall,-Wextra,-Werror>)
add_library(rooflab::warnings ALIAS rooflab_warnings)
