#include "class/roster.hpp"

#include <algorithm>
#include <map>

#include "text/text.hpp"

namespace rooflab {
namespace fs = std::filesystem;
namespace {

// One CSV record's fields: commas separate, double quotes quote ("" is a quote).
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  for (std::string& field : fields) field = text::trim(field);
  return fields;
}

std::vector<RosterEntry> read_csv(const fs::path& path) {
  const std::vector<std::string> lines = text::split_lines(text::read_file(path));
  if (lines.empty()) throw RosterError(path.string() + ": empty; expected a header line");
  const std::vector<std::string> header = csv_fields(lines[0]);
  const auto column = [&](std::initializer_list<const char*> names) -> std::ptrdiff_t {
    for (const char* name : names) {
      const auto at = std::find(header.begin(), header.end(), name);
      if (at != header.end()) return at - header.begin();
    }
    return -1;
  };
  const std::ptrdiff_t student = column({"student", "roster_identifier", "github_username"});
  const std::ptrdiff_t submission = column({"submission", "student_repository_url"});
  if (student < 0 || submission < 0) {
    throw RosterError(path.string() +
                      ":1: the header needs a `student` and a `submission` column (or GitHub Classroom's "
                      "`github_username` and `student_repository_url`); found: " +
                      lines[0].substr(0, 200));
  }
  std::vector<RosterEntry> entries;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    if (text::trim(lines[i]).empty()) continue;
    const std::vector<std::string> fields = csv_fields(lines[i]);
    const std::string where = path.string() + ":" + std::to_string(i + 1) + ": ";
    if (static_cast<std::ptrdiff_t>(fields.size()) <= std::max(student, submission))
      throw RosterError(where + "fewer fields than the header has");
    const std::string& name = fields[static_cast<std::size_t>(student)];
    std::string from = fields[static_cast<std::size_t>(submission)];
    if (name.empty()) throw RosterError(where + "the student column is empty");
    if (from.empty()) throw RosterError(where + "no submission for " + name.substr(0, 64));
    if (!is_git_url(from)) {
      fs::path local = from;
      if (local.is_relative()) local = path.parent_path() / local;
      if (!fs::exists(local)) throw RosterError(where + "submission " + from.substr(0, 200) + " does not exist");
      from = fs::absolute(local).lexically_normal().string();
    }
    entries.push_back({safe_student_name(name), from});
  }
  return entries;
}

std::vector<RosterEntry> read_folder(const fs::path& folder) {
  std::vector<RosterEntry> entries;
  for (const auto& entry : fs::directory_iterator(folder)) {
    std::string name = entry.path().filename().string();
    if (name.empty() || name[0] == '.') continue;  // .git, editor files
    if (entry.is_regular_file()) {
      if (entry.path().extension() != ".zip") continue;
      name = entry.path().stem().string();
    } else if (!entry.is_directory()) {
      continue;
    }
    entries.push_back({safe_student_name(name), fs::absolute(entry.path()).lexically_normal().string()});
  }
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.student < b.student; });
  return entries;
}

}  // namespace

bool is_git_url(const std::string& text) {
  for (const char* scheme : {"https://", "http://", "ssh://", "git@", "file://"})
    if (text.rfind(scheme, 0) == 0) return true;
  return false;
}

std::string safe_student_name(const std::string& name) {
  std::string safe;
  for (const char c : name.substr(0, 64))
    safe += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-' ? c : '_';
  if (safe.empty() || safe == "." || safe == "..") safe = "_" + safe;
  return safe;
}

std::vector<RosterEntry> read_roster(const fs::path& roster) {
  if (!fs::exists(roster)) throw RosterError(roster.string() + ": no such file or folder");
  std::vector<RosterEntry> entries = fs::is_directory(roster) ? read_folder(roster) : read_csv(roster);
  if (entries.empty()) throw RosterError(roster.string() + ": no submissions in it");
  std::map<std::string, std::size_t> seen;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (!seen.emplace(entries[i].student, i).second)
      throw RosterError(roster.string() + ": two submissions for student " + entries[i].student +
                        " (names are made folder-safe; make them differ)");
  }
  return entries;
}

}  // namespace rooflab
