// Where this build and the course it was configured from lie, for the tools
// that find programs, scripts and models by path (the command line, the
// benchmarks, the docs numbers).
//
// One generated file (tools/build_paths.cpp.in) holds the paths,
// rather than a -D on every file of those targets: a definition that names an
// absolute path makes the compiler cache miss for every file it is on in
// another copy of the course (the Gradescope zip's build, a student
// repository's), where this way only build_paths.cpp is compiled again.
#pragma once

#include <filesystem>
#include <string>

namespace rooflab::build_paths {

std::filesystem::path source_dir();  // the course tree (ROOFLAB's PROJECT_SOURCE_DIR)
std::filesystem::path binary_dir();  // this build's folder (PROJECT_BINARY_DIR)
// Whose code the tools run, as their output says it: "the reference
// solutions (solutions/)" or "the code in <folder>".
const char* whose_code();
// The program that times a05's kernels on a GPU (tools/bench/gpu_attention_bench.cu),
// or empty where nvcc was not found.
std::filesystem::path gpu_attention_bench();

}  // namespace rooflab::build_paths
