#include "class/roster.hpp"

#include <algorithm>
#include <map>

#include "class/csv.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace fs = std::filesystem;
namespace {

// An identifier from outside, kept as it was but on one line and capped: it
// goes into the gradebooks and the summary.
std::string kept_identifier(const std::string& raw) { return text::untrusted_line(raw, 256); }

std::vector<RosterEntry> read_csv(const fs::path& path) {
  const std::vector<std::string> lines = text::split_lines(text::read_file(path));
  if (lines.empty()) throw RosterError(path.string() + ": empty; expected a header line");
  const std::vector<std::string> header = csv::parse_record(lines[0]);
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
                      text::untrusted_line(lines[0], 200));
  }
  // GitHub Classroom leaves roster_identifier empty for a student who accepted
  // the assignment without being linked to the roster: their github_username
  // still names them, and one such row must not stop the class.
  const std::ptrdiff_t fallback = header[static_cast<std::size_t>(student)] == "roster_identifier"
                                      ? column({"github_username"})
                                      : static_cast<std::ptrdiff_t>(-1);
  const std::ptrdiff_t needed = std::max({student, submission, fallback});
  std::vector<RosterEntry> entries;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    if (text::trim(lines[i]).empty()) continue;
    const std::vector<std::string> fields = csv::parse_record(lines[i]);
    const std::string where = path.string() + ":" + std::to_string(i + 1) + ": ";
    if (static_cast<std::ptrdiff_t>(fields.size()) <= needed)
      throw RosterError(where + "fewer fields than the header has");
    RosterEntry entry;
    entry.identifier = fields[static_cast<std::size_t>(student)];
    if (entry.identifier.empty() && fallback >= 0 && !fields[static_cast<std::size_t>(fallback)].empty()) {
      entry.identifier = fields[static_cast<std::size_t>(fallback)];
      entry.warning = where + "roster_identifier is empty; graded under github_username " +
                      kept_identifier(entry.identifier) + " (link the student in GitHub Classroom's roster)";
    }
    if (entry.identifier.empty())
      throw RosterError(where + "the " + header[static_cast<std::size_t>(student)] + " column is empty" +
                        (fallback >= 0 ? " and so is github_username" : ""));
    entry.student = safe_student_name(entry.identifier);
    entry.identifier = kept_identifier(entry.identifier);
    std::string from = fields[static_cast<std::size_t>(submission)];
    // No repository (a Classroom assignment never accepted): a failed row in
    // the gradebook, not a stopped class.
    if (!from.empty() && !is_git_url(from)) {
      fs::path local = from;
      if (local.is_relative()) local = path.parent_path() / local;
      if (!fs::exists(local))
        throw RosterError(where + "submission " + text::untrusted_line(from, 200) + " does not exist");
      from = fs::absolute(local).lexically_normal().string();
    }
    entry.submission = from;
    entries.push_back(std::move(entry));
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
    entries.push_back(
        {kept_identifier(name), safe_student_name(name), fs::absolute(entry.path()).lexically_normal().string(), ""});
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
