#include "score/rubric.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "rooflab/toml_document.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace {

using toml::Value;

const std::set<std::string> kVisibilities{"visible", "hidden", "after_due_date", "after_published"};

struct Reader {
  std::string file;

  // "file: field: what", or "file:line: field: what" when a value is to blame.
  [[noreturn]] void fail(const std::string& field, const std::string& what, int line = 0) const {
    throw RubricError(file + (line > 0 ? std::string(":") + std::to_string(line) : "") + ": " + field + ": " + what);
  }

  void only_keys(const Value& table, const std::string& where, const std::set<std::string>& allowed) const {
    for (const std::string& key : table.keys()) {
      if (!allowed.count(key))
        fail(where + key, "unknown key (allowed: " + join(allowed) + ")", table.find(key)->line());
    }
  }

  static std::string join(const std::set<std::string>& words) {
    std::string out;
    for (const auto& word : words) out += (out.empty() ? "" : ", ") + word;
    return out;
  }

  double positive(const Value& table, const std::string& key, const std::string& where,
                  std::optional<double> fallback) const {
    const Value* node = table.find(key);
    if (!node) {
      if (fallback) return *fallback;
      fail(where + key, "is missing");
    }
    const auto value = node->as_number();
    if (!value) fail(where + key, "must be a number", node->line());
    if (!(*value > 0)) fail(where + key, "must be positive, got " + std::to_string(*value), node->line());
    return *value;
  }

  // A non-empty array of gtest-style globs.
  std::vector<std::string> patterns(const Value& table, const std::string& key, const std::string& where) const {
    const Value* array = table.find(key);
    if (!array || !array->is_array() || array->elements().empty())
      fail(where + key, "must be a non-empty array of test patterns", array ? array->line() : 0);
    std::vector<std::string> out;
    for (const Value& pattern : array->elements()) {
      const std::string* value = pattern.as_string();
      if (!value) fail(where + key, "every pattern must be a string", pattern.line());
      out.push_back(*value);
    }
    return out;
  }

  std::string string(const Value& table, const std::string& key, const std::string& where,
                     std::optional<std::string> fallback) const {
    const Value* node = table.find(key);
    if (!node) {
      if (fallback) return *fallback;
      fail(where + key, "is missing");
    }
    const std::string* value = node->as_string();
    if (!value) fail(where + key, "must be a string", node->line());
    return *value;
  }

  // The tables of an array of tables ([[key]]), or nullptr when there is no `key`.
  const std::vector<Value>* tables(const Value& root, const std::string& key) const {
    const Value* array = root.find(key);
    if (!array) return nullptr;
    if (!array->is_array()) fail(key, "must be an array of tables ([[" + key + "]])", array->line());
    for (std::size_t i = 0; i < array->elements().size(); ++i)
      if (!array->elements()[i].is_table())
        fail(key + "[" + std::to_string(i) + "]", "must be a table", array->elements()[i].line());
    return &array->elements();
  }
};

}  // namespace

Rubric Rubric::load(const std::filesystem::path& path) {
  const Reader reader{path.string()};
  Value root = Value::make_table();
  try {
    root = toml::parse_file(path);
  } catch (const toml::ParseError& error) {
    throw RubricError(error.what());
  }
  reader.only_keys(root, "", {"assignment", "timeout_s", "memory_limit_mb", "group", "gate", "leaderboard"});
  Rubric rubric;
  rubric.assignment = reader.string(root, "assignment", "", std::nullopt);
  rubric.timeout_s = reader.positive(root, "timeout_s", "", 10.0);
  rubric.memory_limit_mb = reader.positive(root, "memory_limit_mb", "", 2048.0);

  const std::vector<Value>* groups = reader.tables(root, "group");
  if (!groups || groups->empty()) reader.fail("group", "at least one [[group]] is required");
  for (std::size_t i = 0; i < groups->size(); ++i) {
    const std::string where = "group[" + std::to_string(i) + "].";
    const Value& table = (*groups)[i];
    reader.only_keys(
        table, where,
        {"name", "tests", "points", "visibility", "all_or_nothing", "bonus", "timeout_s", "memory_limit_mb"});
    RubricGroup group;
    group.name = reader.string(table, "name", where, std::nullopt);
    group.points = reader.positive(table, "points", where, std::nullopt);
    group.visibility = reader.string(table, "visibility", where, "visible");
    if (!kVisibilities.count(group.visibility))
      reader.fail(where + "visibility", "\"" + group.visibility + "\" is not one of " + Reader::join(kVisibilities),
                  table.find("visibility")->line());
    if (const Value* flag = table.find("all_or_nothing")) {
      const auto value = flag->as_boolean();
      if (!value) reader.fail(where + "all_or_nothing", "must be true or false", flag->line());
      group.all_or_nothing = *value;
    }
    if (const Value* flag = table.find("bonus")) {
      const auto value = flag->as_boolean();
      if (!value) reader.fail(where + "bonus", "must be true or false", flag->line());
      group.bonus = *value;
    }
    group.timeout_s = reader.positive(table, "timeout_s", where, 0.0 + rubric.timeout_s);
    group.memory_limit_mb = reader.positive(table, "memory_limit_mb", where, 0.0 + rubric.memory_limit_mb);
    group.tests = reader.patterns(table, "tests", where);
    rubric.groups.push_back(std::move(group));
  }

  if (const std::vector<Value>* gates = reader.tables(root, "gate")) {
    for (std::size_t i = 0; i < gates->size(); ++i) {
      const std::string where = "gate[" + std::to_string(i) + "].";
      const Value& table = (*gates)[i];
      reader.only_keys(table, where, {"tests", "earned_with", "reason"});
      RubricGate gate;
      gate.tests = reader.patterns(table, "tests", where);
      gate.earned_with = reader.patterns(table, "earned_with", where);
      gate.reason = reader.string(table, "reason", where, "");
      rubric.gates.push_back(std::move(gate));
    }
  }

  if (const Value* table = root.find("leaderboard")) {
    if (!table->is_table()) reader.fail("leaderboard", "must be a table ([leaderboard])", table->line());
    reader.only_keys(*table, "leaderboard.", {"test", "name", "timeout_s"});
    RubricLeaderboard leaderboard;
    leaderboard.test = reader.string(*table, "test", "leaderboard.", std::nullopt);
    // A name, not a pattern: the grader runs exactly this test, alone.
    if (leaderboard.test.find_first_of("*?:") != std::string::npos || leaderboard.test.find('.') == std::string::npos)
      reader.fail("leaderboard.test", "must name one test as \"Suite.Test\", without wildcards",
                  table->find("test")->line());
    leaderboard.name = reader.string(*table, "name", "leaderboard.", std::nullopt);
    if (leaderboard.name.empty()) reader.fail("leaderboard.name", "must not be empty", table->find("name")->line());
    leaderboard.timeout_s = reader.positive(*table, "timeout_s", "leaderboard.", 0.0 + rubric.timeout_s);
    rubric.leaderboard = std::move(leaderboard);
  }
  return rubric;
}

std::vector<std::size_t> Rubric::assign(const std::vector<std::string>& tests) const {
  std::vector<std::size_t> owner(tests.size());
  std::vector<std::size_t> claimed(groups.size(), 0);
  std::string problems;
  const auto is_leaderboard = [&](const std::string& test) { return leaderboard && test == leaderboard->test; };
  for (std::size_t t = 0; t < tests.size(); ++t) {
    std::vector<std::size_t> matches;
    for (std::size_t g = 0; g < groups.size(); ++g) {
      for (const auto& pattern : groups[g].tests) {
        if (text::glob_match(pattern, tests[t])) {
          matches.push_back(g);
          break;
        }
      }
    }
    if (is_leaderboard(tests[t])) {
      owner[t] = kLeaderboardTest;
      for (const auto g : matches)
        problems += "\n  the leaderboard test " + tests[t] + " is claimed by group \"" + groups[g].name +
                    "\" (it is worth no points: leave it out of every group)";
      continue;
    }
    if (matches.size() != 1) {
      problems += "\n  test " + tests[t] + (matches.empty() ? " is in no group" : " is in several groups:");
      for (const auto g : matches) problems += " \"" + groups[g].name + "\"";
      continue;
    }
    owner[t] = matches.front();
    ++claimed[matches.front()];
  }
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (claimed[g] == 0) problems += "\n  group \"" + groups[g].name + "\" matches no test";
  }
  if (leaderboard && std::find(tests.begin(), tests.end(), leaderboard->test) == tests.end())
    problems += "\n  the leaderboard test " + leaderboard->test + " is not a test of the verdict binary";
  // A gate matches at least one test on each side, the leaderboard test never
  // (it is not scored). One pattern may match nothing (the cuda instances
  // exist only where CUDA is compiled in).
  for (std::size_t i = 0; i < gates.size(); ++i) {
    for (const auto* list : {&gates[i].tests, &gates[i].earned_with}) {
      const auto matched = [&](const std::string& test) {
        return std::any_of(list->begin(), list->end(),
                           [&](const std::string& pattern) { return text::glob_match(pattern, test); });
      };
      if (leaderboard && matched(leaderboard->test))
        problems += "\n  gate[" + std::to_string(i) + "]." + (list == &gates[i].tests ? "tests" : "earned_with") +
                    " matches the leaderboard test " + leaderboard->test + " (it is not scored)";
      const bool any = std::any_of(tests.begin(), tests.end(),
                                   [&](const std::string& test) { return !is_leaderboard(test) && matched(test); });
      if (!any)
        problems += "\n  gate[" + std::to_string(i) + "]." + (list == &gates[i].tests ? "tests" : "earned_with") +
                    " matches no test";
    }
  }
  if (!problems.empty()) throw RubricError("rubric for " + assignment + " does not fit its tests:" + problems);
  return owner;
}

std::vector<std::string> Rubric::gate_policy_problems(const std::vector<TestTraits>& tests) const {
  std::vector<std::string> names;
  for (const auto& test : tests) names.push_back(test.name);
  const std::vector<std::size_t> owner = assign(names);
  const auto matches = [](const std::vector<std::string>& patterns, const std::string& name) {
    return std::any_of(patterns.begin(), patterns.end(),
                       [&](const std::string& pattern) { return text::glob_match(pattern, name); });
  };
  // Does some gate on tests[t] require a test for which `counts` holds?
  const auto gated_by = [&](std::size_t t, const auto& counts) {
    for (const RubricGate& gate : gates) {
      if (!matches(gate.tests, tests[t].name)) continue;
      for (std::size_t u = 0; u < tests.size(); ++u)
        if (u != t && owner[u] != kLeaderboardTest && matches(gate.earned_with, tests[u].name) && counts(u))
          return true;
    }
    return false;
  };
  std::vector<std::string> problems;
  for (std::size_t t = 0; t < tests.size(); ++t) {
    if (owner[t] == kLeaderboardTest) continue;  // never scored: nothing to gate
    if (tests[t].validation && !gated_by(t, [&](std::size_t u) { return !tests[u].validation; }))
      problems.push_back(tests[t].name +
                         " checks validation only: gate it by a test of the same function that checks a value");
    if (groups[owner[t]].visibility == "visible" &&
        !gated_by(t, [&](std::size_t u) { return groups[owner[u]].visibility != "visible"; }))
      problems.push_back(tests[t].name +
                         " is public: gate it by a hidden test of the same function, on inputs students never see");
  }
  return problems;
}

double Rubric::max_score() const {
  double total = 0;
  for (const auto& group : groups) total += group.bonus ? 0 : group.points;
  return total;
}

}  // namespace rooflab
