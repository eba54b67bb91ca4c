# Code that orchestrates rather than computes: the command line's front end,
# the grader and the grader's tests. It spends its time in the processes it
# starts (builds, workers, gnuplot), never in its own loops, so it compiles at
# -O1 instead of the build's -O3: the inline code of CLI11 and nlohmann/json
# that every such file instantiates then takes about a third less time to
# compile (docs/benchmarks.md, "Where the build's time goes"). The labs, their
# tests, the benchmarks and the verdict–worker RPC, which move tensors, keep -O3.
add_library(rooflab_orchestration INTERFACE)
target_compile_options(rooflab_orchestration INTERFACE
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CONFIG:Release>>:-O1>)
add_library(rooflab::orchestration ALIAS rooflab_orchestration)
