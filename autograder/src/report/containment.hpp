// The report's "containment" lines: how one grading capped memory, temporary
// files and scratch space, and the peaks it reached.
#pragma once

#include <string>
#include <vector>

#include "os/scratch_space.hpp"
#include "pipeline/grading.hpp"

namespace rooflab {

std::vector<std::string> containment(const Grading& grading, const ScratchSpace& scratch);

}  // namespace rooflab
