#include "function_tables.hpp"

#include <map>
#include <string>
#include <vector>

#include "release/release.hpp"
#include "stage/manifest.hpp"
#include "text/text.hpp"

namespace rooflab::docs {
namespace {

// The functions of `source` that hold a solution region, in order of first
// appearance, each with how many definitions (overloads) it has.
std::vector<std::pair<std::string, int>> implemented_functions(const std::string& source) {
  std::vector<std::pair<std::string, int>> functions;
  std::map<std::string, std::size_t> index;
  std::string last_header;
  for (std::size_t at = source.find("// BEGIN SOLUTION"); at != std::string::npos;
       at = source.find("// BEGIN SOLUTION", at + 1)) {
    const auto function = release::enclosing_function(source, at);
    if (!function) continue;  // a helper at namespace scope
    // Overloads share a name but not a parameter list: count each definition once.
    std::string signature = function->name;
    for (const std::string& parameter : function->parameters) signature += "," + parameter;
    if (signature == last_header) continue;  // a second region in the same function
    last_header = signature;
    if (!index.count(function->name)) {
      index[function->name] = functions.size();
      functions.push_back({function->name, 0});
    }
    ++functions[index[function->name]].second;
  }
  return functions;
}

std::string function_table(const AssignmentInfo& info, const std::filesystem::path& folder) {
  std::string table = "| file | functions |\n|---|---|\n";
  for (const std::string& file : info.student_files) {
    std::string names;
    for (const auto& [name, definitions] : implemented_functions(text::read_file(folder / file))) {
      names += (names.empty() ? "`" : ", `") + name + "`";
      if (definitions > 1) names += " (" + std::to_string(definitions) + " overloads)";
    }
    table += "| `" + file + "` | " + names + " |\n";
  }
  return table;
}

}  // namespace

void add_function_tables(Values& values, const Manifest& manifest, const std::filesystem::path& solutions) {
  for (const AssignmentInfo& info : manifest.assignments) {
    const std::filesystem::path folder = solutions / info.dir;
    values[info.name + ".function_table"] = [info, folder] { return function_table(info, folder); };
  }
}

}  // namespace rooflab::docs
