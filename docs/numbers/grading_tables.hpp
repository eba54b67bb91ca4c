// The lab READMEs' "How you are graded" tables, generated from each rubric
// (<assignment>/grading/rubric.toml): every group with its points, when its
// result is shown, and the time and memory each of its tests may use:
// <!-- num:<assignment>.grading_table -->.
#pragma once

#include <filesystem>

#include "doc_regions.hpp"

namespace rooflab {
struct Manifest;
}

namespace rooflab::docs {

// Adds "<assignment>.grading_table" for every assignment of `manifest` that has a rubric.
void add_grading_tables(Values& values, const Manifest& manifest);

}  // namespace rooflab::docs
