#include "score/rubric.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <set>

#include "text/text.hpp"

namespace rooflab {
namespace {

const std::set<std::string> kVisibilities{"visible", "hidden", "after_due_date", "after_published"};

struct Reader {
  std::string file;

  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    throw RubricError(file + ": " + field + ": " + what);
  }

  void only_keys(const toml::table& table, const std::string& where, const std::set<std::string>& allowed) const {
    for (const auto& [key, value] : table) {
      if (!allowed.count(std::string(key.str())))
        fail(where + std::string(key.str()), "unknown key (allowed: " + join(allowed) + ")");
    }
  }

  static std::string join(const std::set<std::string>& words) {
    std::string out;
    for (const auto& word : words) out += (out.empty() ? "" : ", ") + word;
    return out;
  }

  double positive(const toml::table& table, const std::string& key, const std::string& where,
                  std::optional<double> fallback) const {
    const toml::node* node = table.get(key);
    if (!node) {
      if (fallback) return *fallback;
      fail(where + key, "is missing");
    }
    const auto value = node->value<double>();
    if (!value) fail(where + key, "must be a number");
    if (!(*value > 0)) fail(where + key, "must be positive, got " + std::to_string(*value));
    return *value;
  }

  // A non-empty array of gtest-style globs.
  std::vector<std::string> patterns(const toml::table& table, const std::string& key, const std::string& where) const {
    const toml::array* array = table.get_as<toml::array>(key);
    if (!array || array->empty()) fail(where + key, "must be a non-empty array of test patterns");
    std::vector<std::string> out;
    for (const auto& pattern : *array) {
      const auto value = pattern.value<std::string>();
      if (!value) fail(where + key, "every pattern must be a string");
      out.push_back(*value);
    }
    return out;
  }

  std::string string(const toml::table& table, const std::string& key, const std::string& where,
                     std::optional<std::string> fallback) const {
    const toml::node* node = table.get(key);
    if (!node) {
      if (fallback) return *fallback;
      fail(where + key, "is missing");
    }
    const auto value = node->value<std::string>();
    if (!value) fail(where + key, "must be a string");
    return *value;
  }
};

}  // namespace

Rubric Rubric::load(const std::filesystem::path& path) {
  const Reader reader{path.string()};
  toml::table root;
  try {
    root = toml::parse(text::read_file(path), path.string());
  } catch (const toml::parse_error& error) {
    throw RubricError(path.string() + ":" + std::to_string(error.source().begin.line) + ": " +
                      std::string(error.description()));
  } catch (const std::runtime_error& error) {
    throw RubricError(error.what());
  }
  reader.only_keys(root, "", {"assignment", "timeout_s", "memory_limit_mb", "group", "gate"});
  Rubric rubric;
  rubric.assignment = reader.string(root, "assignment", "", std::nullopt);
  rubric.timeout_s = reader.positive(root, "timeout_s", "", 10.0);
  rubric.memory_limit_mb = reader.positive(root, "memory_limit_mb", "", 2048.0);

  const toml::array* groups = root["group"].as_array();
  if (!groups || groups->empty()) reader.fail("group", "at least one [[group]] is required");
  for (std::size_t i = 0; i < groups->size(); ++i) {
    const std::string where = "group[" + std::to_string(i) + "].";
    const toml::table* table = (*groups)[i].as_table();
    if (!table) reader.fail(where, "must be a table");
    reader.only_keys(*table, where,
                     {"name", "tests", "points", "visibility", "all_or_nothing", "timeout_s", "memory_limit_mb"});
    RubricGroup group;
    group.name = reader.string(*table, "name", where, std::nullopt);
    group.points = reader.positive(*table, "points", where, std::nullopt);
    group.visibility = reader.string(*table, "visibility", where, "visible");
    if (!kVisibilities.count(group.visibility))
      reader.fail(where + "visibility", "\"" + group.visibility + "\" is not one of " + Reader::join(kVisibilities));
    if (const toml::node* flag = table->get("all_or_nothing")) {
      const auto value = flag->value<bool>();
      if (!value) reader.fail(where + "all_or_nothing", "must be true or false");
      group.all_or_nothing = *value;
    }
    group.timeout_s = reader.positive(*table, "timeout_s", where, 0.0 + rubric.timeout_s);
    group.memory_limit_mb = reader.positive(*table, "memory_limit_mb", where, 0.0 + rubric.memory_limit_mb);
    group.tests = reader.patterns(*table, "tests", where);
    rubric.groups.push_back(std::move(group));
  }

  if (const toml::node* gates_node = root.get("gate")) {
    const toml::array* gates = gates_node->as_array();
    if (!gates) reader.fail("gate", "must be an array of tables ([[gate]])");
    for (std::size_t i = 0; i < gates->size(); ++i) {
      const std::string where = "gate[" + std::to_string(i) + "].";
      const toml::table* table = (*gates)[i].as_table();
      if (!table) reader.fail(where, "must be a table");
      reader.only_keys(*table, where, {"tests", "earned_with", "reason"});
      RubricGate gate;
      gate.tests = reader.patterns(*table, "tests", where);
      gate.earned_with = reader.patterns(*table, "earned_with", where);
      gate.reason = reader.string(*table, "reason", where, "");
      rubric.gates.push_back(std::move(gate));
    }
  }
  return rubric;
}

std::vector<std::size_t> Rubric::assign(const std::vector<std::string>& tests) const {
  std::vector<std::size_t> owner(tests.size());
  std::vector<std::size_t> claimed(groups.size(), 0);
  std::string problems;
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
  // A gate matches at least one test on each side. One pattern may match
  // nothing (the cuda instances exist only where CUDA is compiled in).
  for (std::size_t i = 0; i < gates.size(); ++i) {
    for (const auto* list : {&gates[i].tests, &gates[i].earned_with}) {
      const bool any = std::any_of(tests.begin(), tests.end(), [&](const std::string& test) {
        return std::any_of(list->begin(), list->end(),
                           [&](const std::string& pattern) { return text::glob_match(pattern, test); });
      });
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
        if (u != t && matches(gate.earned_with, tests[u].name) && counts(u)) return true;
    }
    return false;
  };
  std::vector<std::string> problems;
  for (std::size_t t = 0; t < tests.size(); ++t) {
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
  for (const auto& group : groups) total += group.points;
  return total;
}

}  // namespace rooflab
