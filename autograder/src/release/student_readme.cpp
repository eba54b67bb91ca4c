#include "release/student_readme.hpp"

#include <algorithm>
#include <sstream>

#include "text/text.hpp"

namespace rooflab::release {
namespace {

// "./lab test a05_cuda_attention" padded to the block's comment column.
std::string command_line(const std::string& command, const std::string& comment) {
  std::string line = command;
  if (line.size() < 37) line.resize(37, ' ');
  return line + "# " + comment;
}

std::string commands_for(const ReadmeLab& lab) {
  const std::string& name = lab.name;
  const std::string brief = name.substr(0, 3);
  std::string block = command_line("./lab build", "installs missing packages, builds your code and the public tests") +
                      "\n" +
                      command_line("./lab test " + name, brief +
                                                             "'s public tests: \"not implemented\" until you "
                                                             "write the code") +
                      "\n" +
                      command_line("./lab score " + name,
                                   "the points GitHub Classroom's autograding gives " + brief + ", without pushing") +
                      "\n";
  if (lab.has_examples)
    block += command_line("./lab example " + name, brief + "'s worked examples, run on your code") + "\n";
  if (lab.has_profile)
    block += command_line("./lab profile " + name, brief + "'s profile: what your code does at growing sizes") + "\n";
  return block;
}

bool names_one_of(const std::string& line, const std::vector<ReadmeLab>& labs) {
  return std::any_of(labs.begin(), labs.end(),
                     [&](const ReadmeLab& lab) { return line.find("[" + lab.name + "]") != std::string::npos; });
}

}  // namespace

std::string readme_for_labs(const std::string& readme, const std::vector<ReadmeLab>& labs) {
  std::ostringstream out;
  bool armed = false, inside = false;
  for (const std::string& line : text::split_lines(readme)) {
    if (line.find("<!-- commands: run by the course's tests") != std::string::npos) armed = true;
    if (armed && !inside && text::starts_with(line, "```bash")) {
      inside = true;
      out << line << "\n" << commands_for(labs.front());
      continue;
    }
    if (inside) {
      if (!text::starts_with(line, "```")) continue;  // the whole lab's commands are replaced
      inside = armed = false;
    }
    // A row of the labs table ("| [a03_…](assignments/a03_…/README.md) | …") for another lab.
    if (text::starts_with(line, "| [a0") && !names_one_of(line, labs)) continue;
    std::string kept = line;
    for (std::size_t at = kept.find("a01_roofline"); at != std::string::npos;
         at = kept.find("a01_roofline", at + labs.front().name.size()))
      kept.replace(at, 12, labs.front().name);
    out << kept << "\n";
  }
  return out.str();
}

}  // namespace rooflab::release
