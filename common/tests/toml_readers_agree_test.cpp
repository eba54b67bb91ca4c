// The builtin TOML reader reads what toml++ reads: every .toml file of the
// repository (rubrics, model configs) and documents with each construct the
// course could use, value for value, in the same order, from the same lines;
// and both refuse the same broken documents. Built where toml++ is installed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "readers.hpp"
#include "rooflab/toml_document.hpp"

namespace rooflab::toml {
namespace {
namespace fs = std::filesystem;

// The first difference between two documents, or "" when there is none.
// Tables may be placed on different lines by the two readers, and their keys
// in another order (`in_order` false) where a table is named before its
// [header] defines it: toml++ keeps no order, and the wrapper can only sort
// by line. Scalars and arrays must start on the same line.
std::string difference(const Value& a, const Value& b, const std::string& path, bool in_order) {
  const std::string where = path.empty() ? "(root)" : path;
  if (a.kind() != b.kind()) return where + ": " + Value::describe(a.kind()) + " against " + Value::describe(b.kind());
  if (!a.is_table() && a.line() != b.line())
    return where + ": line " + std::to_string(a.line()) + " against " + std::to_string(b.line());
  switch (a.kind()) {
    case Value::Kind::table: {
      std::vector<std::string> a_keys = a.keys(), b_keys = b.keys();
      if (!in_order) {
        std::sort(a_keys.begin(), a_keys.end());
        std::sort(b_keys.begin(), b_keys.end());
      }
      if (a_keys != b_keys) return where + (in_order ? ": the keys or their order differ" : ": the keys differ");
      for (const std::string& key : a.keys()) {
        const std::string d = difference(*a.find(key), *b.find(key), path.empty() ? key : path + "." + key, in_order);
        if (!d.empty()) return d;
      }
      return "";
    }
    case Value::Kind::array: {
      if (a.elements().size() != b.elements().size()) return where + ": the arrays' lengths differ";
      for (std::size_t i = 0; i < a.elements().size(); ++i) {
        const std::string d =
            difference(a.elements()[i], b.elements()[i], path + "[" + std::to_string(i) + "]", in_order);
        if (!d.empty()) return d;
      }
      return "";
    }
    case Value::Kind::string:
      return *a.as_string() == *b.as_string()
                 ? ""
                 : where + ": \"" + *a.as_string() + "\" against \"" + *b.as_string() + "\"";
    case Value::Kind::integer:
      return a.as_integer() == b.as_integer() ? "" : where + ": the integers differ";
    case Value::Kind::floating: {
      const double x = *a.as_number(), y = *b.as_number();
      const bool same = (std::isnan(x) && std::isnan(y)) || (x == y && std::signbit(x) == std::signbit(y));
      return same ? "" : where + ": the floats differ";
    }
    case Value::Kind::boolean:
      return a.as_boolean() == b.as_boolean() ? "" : where + ": the booleans differ";
  }
  return where + ": unknown kind";
}

void expect_same(const std::string& text, const std::string& source, bool in_order) {
  const Value builtin_doc = builtin::parse(text, source);
  const Value tomlplusplus_doc = tomlplusplus::parse(text, source);
  EXPECT_EQ(difference(builtin_doc, tomlplusplus_doc, "", in_order), "") << source << " (builtin against toml++)";
}

// Every *.toml under the source tree but in hidden folders and build trees.
std::vector<fs::path> repository_toml_files() {
  const fs::path root = ROOFLAB_SOURCE_DIR;
  const fs::path binary = fs::weakly_canonical(ROOFLAB_BINARY_DIR);
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    const std::string name = it->path().filename().string();
    if (it->is_directory() &&
        (name.starts_with(".") || (it.depth() == 0 && name == "build") || fs::weakly_canonical(it->path()) == binary)) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && it->path().extension() == ".toml") files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(TomlReadersAgree, OnEveryTomlFileOfTheRepository) {
  const std::vector<fs::path> files = repository_toml_files();
  // The model configs ship in every repository; the rubrics in the instructor's.
  ASSERT_TRUE(std::find(files.begin(), files.end(), fs::path(ROOFLAB_SOURCE_DIR) / "tools/models/gpt2.toml") !=
              files.end());
  for (const fs::path& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    expect_same(text.str(), file.string(), true);  // the order errors name unknown keys in
  }
  std::cout << "compared " << files.size() << " files\n";
}

TEST(TomlReadersAgree, OnEachConstruct) {
  const std::vector<std::string> documents{
      "s = \"tab\\t \\\"q\\\" \\\\ \\u00e9 \\U0001F600\"\nl = 'C:\\raw'\ne = ''\n",
      "m = \"\"\"\nfirst\nsecond \\\n   joined\"\"\"\nr = '''\nraw \\n'''\nq = \"\"\"a \"\" b\"\"\"\"\n",
      "i = +42\nn = -17\nz = 0\ng = 1_000\nh = 0xDEAD_beef\no = 0o755\nb = 0b1101\nbig = 9223372036854775807\n",
      "f = 3.25\ne = -2.5E-3\np = 6.02e+23\nz = -0.0\ni = -inf\nj = +inf\nn = nan\nu = 1_0.0_1\n",
      "t = true\nf = false\n",
      "a = [\n  1,  # one\n  2,\n]\nm = [[1, 2], [\"x\", 3.5], []]\nmixed = [1, \"two\", { k = 3 }]\n",
      "inline = { a = 1, b.c = \"two\", d = { e = [1] } }\nempty = {}\n",
      "site.name = \"x\"\nsite.\"quoted key\".y = 1\n'lit' = 2\n\"\" = 3\n1234 = 4\n",
      "[[g]]\nname = \"a\"\n[g.sub]\nx = 1\n[[g.list]]\ny = 1\n[[g]]\nname = \"b\"\n",
      "[a.b.c]\nx = 1\n[a]\ny = 2\n[a.b]\nz = 3\n",
      "[x]\ny.z = 1\n[x.y.w]\nv = 2\n",
      "  [ spaced . header ]  # comment\n  key  =  \"v\"  \n",
      "a = 1\r\nb = 2\r\n",
      "",
  };
  for (std::size_t i = 0; i < documents.size(); ++i) expect_same(documents[i], "construct-" + std::to_string(i), false);
}

// Both refuse, on the same line.
TEST(TomlReadersAgree, OnWhatIsNotToml) {
  const std::vector<std::string> documents{
      "a = 1\nname = \"abc\nb = 2\n",
      "points = 1\nname = \"x\"\npoints = 2\n",
      "[[group]]\npoints = 1\npoints = 2\n",
      "a = 1\npoints = eight\n",
      "assignment = \n",
      "points = 8 9\n",
      "[a]\n[a]\n",
      "a = 1\n[a]\n",
      "a = { x = 1 }\na.y = 2\n",
      "group = [1]\n[[group]]\n",
      "[group]\n[[group]]\n",
      "x = 012\n",
      "x = 1__0\n",
      "x = 9223372036854775808\n",
      "s = \"\\q\"\n",
      "t = { a = 1, }\n",
      "tests = [\"a\" \"b\"]\n",
      "[a] x = 1\n",
      "a = 1\nb = \"\xff\"\n",
  };
  for (const std::string& text : documents) {
    int lines[2] = {-1, -1};
    for (int reader = 0; reader < 2; ++reader) {
      try {
        if (reader == 0)
          builtin::parse(text, "bad.toml");
        else
          tomlplusplus::parse(text, "bad.toml");
      } catch (const ParseError& error) {
        lines[reader] = error.line();
      }
    }
    EXPECT_NE(lines[0], -1) << "the builtin reader accepts:\n" << text;
    EXPECT_NE(lines[1], -1) << "toml++ accepts:\n" << text;
    EXPECT_EQ(lines[0], lines[1]) << "builtin and toml++ blame different lines in:\n" << text;
  }
}

}  // namespace
}  // namespace rooflab::toml
