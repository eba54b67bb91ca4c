// The lab READMEs' "Functions to implement" tables, generated from the
// manifest (each assignment's STUDENT_FILES, in order) and from the solution
// markers in those files (each function that holds a solution region is one a
// student writes): <!-- num:<assignment>.function_table -->.
#pragma once

#include <filesystem>

#include "doc_regions.hpp"

namespace rooflab {
struct Manifest;
}

namespace rooflab::docs {

// Adds "<assignment>.function_table" for every assignment of `manifest`, read
// from its folder under `solutions`.
void add_function_tables(Values& values, const Manifest& manifest, const std::filesystem::path& solutions);

}  // namespace rooflab::docs
