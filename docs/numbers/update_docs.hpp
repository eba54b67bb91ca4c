// `rooflab docs`: the numbers the docs quote, checked or rewritten from the
// reference code (update_docs.cpp; regions: doc_regions.hpp).
#pragma once

#include <filesystem>

namespace rooflab::docs {

// Regenerates every <!-- num:KEY --> region under `root` (docs/, solutions/,
// README.md). With `write`, rewrites the files and returns 1 only for unknown
// keys or unclosed regions; without, returns 1 when any region is stale,
// naming each. Prints what it did.
int update_docs(const std::filesystem::path& root, bool write);

}  // namespace rooflab::docs
