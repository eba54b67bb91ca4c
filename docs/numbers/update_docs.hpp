// `rooflab docs`: the numbers the docs quote, checked or rewritten from the
// reference code (update_docs.cpp; regions: doc_regions.hpp).
#pragma once

#include <filesystem>

namespace rooflab::docs {

// Regenerates every <!-- num:KEY --> region under `root` (docs/, solutions/,
// README.md): the values every assignment's literate/doc_numbers.cpp registers,
// and the lab READMEs' function tables from `manifest` (function_tables.hpp).
// With `write`, rewrites the files and returns 1 only for unknown keys or
// unclosed regions; without, returns 1 when any region is stale, naming each.
// Prints what it did.
int update_docs(const std::filesystem::path& root, const std::filesystem::path& manifest, bool write);

}  // namespace rooflab::docs
