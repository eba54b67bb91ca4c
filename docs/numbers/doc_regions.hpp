// Generated regions in Markdown: <!-- num:KEY -->text<!-- /num -->. The text is
// whatever the reference code produces for KEY; HTML comments keep the markers
// invisible when the Markdown is rendered.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace rooflab::docs {

using Values = std::map<std::string, std::function<std::string()>>;

struct Stale {
  std::string where;  // "file:line"
  std::string key;
  std::string problem;
};

// Returns `markdown` with every region's text replaced by its key's value;
// appends to `stale` each region that differed, used an unknown key, or was
// not closed. `file` names the source in messages.
std::string regenerate(const std::string& markdown, const std::string& file, const Values& values,
                       std::vector<Stale>& stale);

// `value` printed with a printf format, e.g. fmt("%.1f", 14e9 / 1e9) == "14.0".
std::string fmt(const char* format, double value);

// What `program` (a path relative to this build's folder, or absolute) prints,
// as a Markdown ```text block (for the lab READMEs' "Example usage" sections).
std::string program_output_block(const std::string& program);

}  // namespace rooflab::docs
