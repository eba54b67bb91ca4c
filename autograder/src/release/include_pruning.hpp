// A stub keeps only the #includes it needs. A solution's includes are hints
// (<bit> says "bit_cast", <cstring> says "memcpy"), and a stub has no use for
// most of them: `lab release` drops every include the stub compiles without.
//
// Never dropped: the assignment's own headers ("a04_flash_attention/…"),
// rooflab/not_implemented.hpp (every stub calls rooflab::todo) and a line that
// says `// keep` (an include the instructor wants students to see).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace rooflab::release {

// The 0-based line numbers of `stub`'s #include lines that may be dropped.
std::vector<std::size_t> droppable_includes(const std::string& stub, const std::string& assignment);

// `text` without the given 0-based lines.
std::string without_lines(const std::string& text, const std::vector<std::size_t>& lines);

// `stub` without every droppable include it compiles without. `compiles` says
// whether a version of the file compiles. Tries all of them at once first (one
// compile, the usual case), then one at a time, and keeps every include when
// the ones that can go one at a time cannot all go together.
std::string prune_includes(const std::string& stub, const std::string& assignment,
                           const std::function<bool(const std::string&)>& compiles);

// For `release --check`, which compiles nothing: true when `released` is
// `generated` with some droppable includes removed, and otherwise identical.
bool same_but_pruned_includes(const std::string& generated, const std::string& released, const std::string& assignment);

}  // namespace rooflab::release
