// Which backends this build compiled, and whether a GPU is present to run them.
//
// This is the one place code asks "was CUDA compiled in?"; the answer comes from
// the build (cmake/cuda.cmake), never from #ifdefs scattered through the course.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace rooflab {

enum class Backend { cpu, thrust, cuda };

const char* to_string(Backend backend);

// Lets GoogleTest print a backend parameter by name.
inline void PrintTo(Backend backend, std::ostream* out) { *out << to_string(backend); }

// True when the CUDA sources were compiled into this build.
bool cuda_compiled();

// Number of CUDA devices usable right now (0 without CUDA or without a GPU).
int gpu_count();

// Backends whose code is in this build: cpu and thrust always, cuda with nvcc.
std::vector<Backend> compiled_backends();

// Empty when `backend` can run here; otherwise why not, for a visible test skip.
std::string unavailable_reason(Backend backend);

}  // namespace rooflab
