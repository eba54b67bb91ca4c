// Does anything the students get repeat the solutions? Every run of three
// consecutive lines of code inside a solution region (long enough to be
// distinctive; blank lines, comments and lone braces skipped) is looked for in
// every exported text file; each hit names the file, its line and where the
// solution has it. Run by `lab export-student` before it writes anything.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace rooflab::release {

// Normalised runs of solution-region lines (whitespace collapsed) -> "path:line"
// of their first appearance under `solutions`.
std::map<std::string, std::string> solution_lines(const std::filesystem::path& solutions);

// One line per leak in `contents` (the text of exported file `name`):
// "name:line repeats solutions/…:line: <code>".
std::vector<std::string> leaks_in(const std::string& name, const std::string& contents,
                                  const std::map<std::string, std::string>& solution);

}  // namespace rooflab::release
