#include "release/include_pruning.hpp"

#include <algorithm>
#include <set>

#include "text/text.hpp"

namespace rooflab::release {

std::vector<std::size_t> droppable_includes(const std::string& stub, const std::string& assignment) {
  std::vector<std::size_t> lines;
  const std::vector<std::string> all = text::split_lines(stub);
  for (std::size_t i = 0; i < all.size(); ++i) {
    const std::string line = text::trim(all[i]);
    if (line.rfind("#include", 0) != 0) continue;
    if (line.find("// keep") != std::string::npos) continue;
    if (line.find("\"" + assignment + "/") != std::string::npos) continue;
    if (line.find("rooflab/not_implemented.hpp") != std::string::npos) continue;
    lines.push_back(i);
  }
  return lines;
}

std::string without_lines(const std::string& text, const std::vector<std::size_t>& lines) {
  const std::set<std::size_t> dropped(lines.begin(), lines.end());
  const std::vector<std::string> all = text::split_lines(text);
  std::string out;
  bool last_blank = false, after_dropped = false;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const bool blank = text::trim(all[i]).empty();
    if (dropped.count(i) || (blank && last_blank && after_dropped)) {  // no double blank where a block went
      after_dropped = dropped.count(i) > 0 || after_dropped;
      continue;
    }
    out += all[i] + "\n";
    last_blank = blank;
    after_dropped = false;
  }
  if (!text.empty() && text.back() != '\n' && !out.empty()) out.pop_back();
  return out;
}

std::string prune_includes(const std::string& stub, const std::string& assignment,
                           const std::function<bool(const std::string&)>& compiles) {
  const std::vector<std::size_t> candidates = droppable_includes(stub, assignment);
  if (candidates.empty()) return stub;
  if (compiles(without_lines(stub, candidates))) return without_lines(stub, candidates);
  std::vector<std::size_t> unneeded;
  for (const std::size_t line : candidates) {
    if (compiles(without_lines(stub, {line}))) unneeded.push_back(line);
  }
  if (unneeded.empty()) return stub;
  const std::string pruned = without_lines(stub, unneeded);
  return compiles(pruned) ? pruned : stub;
}

bool same_but_pruned_includes(const std::string& generated, const std::string& released,
                              const std::string& assignment) {
  // The droppable includes that `released` no longer has, by their text (a
  // file includes a header once).
  const std::vector<std::string> ours = text::split_lines(generated), theirs = text::split_lines(released);
  const std::set<std::string> kept(theirs.begin(), theirs.end());
  std::vector<std::size_t> gone;
  for (const std::size_t line : droppable_includes(generated, assignment)) {
    if (!kept.count(ours[line])) gone.push_back(line);
  }
  return without_lines(generated, gone) == released;
}

}  // namespace rooflab::release
