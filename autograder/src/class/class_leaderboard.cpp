#include "class/class_leaderboard.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "class/csv.hpp"
#include "text/text.hpp"

namespace rooflab::class_grading {
namespace {

constexpr std::size_t kNameCap = 200;

struct Ranked {
  std::size_t rank = 0;
  const StudentLeaderboard* student = nullptr;
  double value = 0;
};

// Per metric, in the order first seen: the students ranked best first.
std::vector<std::pair<std::string, std::vector<Ranked>>> ranked(const std::vector<StudentLeaderboard>& students) {
  std::vector<std::pair<std::string, std::vector<Ranked>>> metrics;
  std::map<std::string, std::size_t> index;
  std::map<std::string, bool> descending;
  for (const StudentLeaderboard& student : students) {
    for (const LeaderboardValue& value : student.values) {
      auto [at, fresh] = index.try_emplace(value.metric, metrics.size());
      if (fresh) {
        metrics.push_back({value.metric, {}});
        descending[value.metric] = value.descending;
      }
      metrics[at->second].second.push_back({0, &student, value.value});
    }
  }
  for (auto& [metric, rows] : metrics) {
    const bool higher_first = descending[metric];
    std::stable_sort(rows.begin(), rows.end(), [higher_first](const Ranked& a, const Ranked& b) {
      return higher_first ? a.value > b.value : a.value < b.value;
    });
    for (std::size_t i = 0; i < rows.size(); ++i)
      rows[i].rank = i > 0 && rows[i].value == rows[i - 1].value ? rows[i - 1].rank : i + 1;
  }
  return metrics;
}

std::string number(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

}  // namespace

std::vector<LeaderboardValue> leaderboard_values(const nlohmann::json& results) {
  std::vector<LeaderboardValue> values;
  if (!results.is_object() || !results.contains("leaderboard") || !results["leaderboard"].is_array()) return values;
  for (const nlohmann::json& entry : results["leaderboard"]) {
    if (!entry.is_object() || !entry.contains("name") || !entry["name"].is_string() || !entry.contains("value") ||
        !entry["value"].is_number())
      continue;
    const double value = entry["value"].get<double>();
    const std::string order = entry.value("order", std::string("desc"));
    if (!std::isfinite(value) || (order != "asc" && order != "desc")) continue;
    values.push_back({text::untrusted_line(entry["name"].get<std::string>(), kNameCap), value, order == "desc"});
  }
  return values;
}

std::string leaderboard_csv(const std::vector<StudentLeaderboard>& students) {
  std::string csv = "metric,rank,identifier,folder,value\n";
  for (const auto& [metric, rows] : ranked(students))
    for (const Ranked& row : rows)
      csv += csv::text_field(metric) + "," + std::to_string(row.rank) + "," + csv::text_field(row.student->identifier) +
             "," + csv::text_field(row.student->student) + "," + number(row.value) + "\n";
  return csv;
}

std::string leaderboard_markdown(const std::vector<StudentLeaderboard>& students) {
  // Names in tables: pipes and backticks would break them.
  const auto cell = [](const std::string& text) {
    std::string escaped;
    for (const char c : text)
      escaped += (c == '|' || c == '`' || c == '*' || c == '_') ? std::string("\\") + c : std::string(1, c);
    return escaped;
  };
  std::string page =
      "# Leaderboard\n\nMeasured by the grader's verdict process beside the reference, in each student's grading "
      "(not scored).\n";
  const auto metrics = ranked(students);
  if (metrics.empty()) page += "\nNo graded lab has a leaderboard, or no submission passed its leaderboard test.\n";
  for (const auto& [metric, rows] : metrics) {
    page += "\n## " + cell(metric) + "\n\n| rank | student | value |\n|---:|---|---:|\n";
    for (const Ranked& row : rows)
      page +=
          "| " + std::to_string(row.rank) + " | " + cell(row.student->identifier) + " | " + number(row.value) + " |\n";
  }
  return page;
}

}  // namespace rooflab::class_grading
