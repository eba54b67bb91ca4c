// The course's own TOML reader (common/src/toml/builtin_parser.cpp), which
// builds without toml++: every kind of value the course's files could use, and
// errors that name the file, the line and the key.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "readers.hpp"
#include "rooflab/temp_folder_testing.hpp"
#include "rooflab/toml_document.hpp"

namespace rooflab::toml {
namespace {

// This program's temp folder, removed after its last test.
const std::filesystem::path kTemp = rooflab::testing::program_temp_folder("toml-test");

Value read(const std::string& text) { return builtin::parse(text, "test.toml"); }

// The error reading `text`, or a failure when there is none.
ParseError error_of(const std::string& text) {
  try {
    read(text);
  } catch (const ParseError& error) {
    return error;
  }
  ADD_FAILURE() << "no error reading:\n" << text;
  return ParseError("test.toml", -1, "no error");
}

// The key by value: a reference parameter bound to a temporary string would
// make GCC 14 flag every `const Value& x = at(doc, "key")` (-Wdangling-reference).
const Value& at(const Value& table, std::string_view key) {
  const Value* value = table.find(key);
  if (!value) throw std::runtime_error("no key " + std::string(key));
  return *value;
}

TEST(TomlBuiltin, ReadsTheScalars) {
  const Value doc = read(R"(# a comment
plain = "tab\there \"quoted\" \\ \u00e9 \U0001F600"
literal = 'C:\path\no escapes'
empty = ""
multi = """
first
second \
    joined"""
multi_literal = '''
raw \n "kept" '''
quotes = """two "" inside, one at the end""""
int = +42
negative = -17
zero = 0
grouped = 1_000_000
hex = 0xDEAD_beef
octal = 0o755
binary = 0b1101
float = 3.25
exponent = -2.5E-3
both = 6.02e+23
infinite = -inf
not_a_number = nan
yes = true
no = false
  indented = 1   # blanks before keys and comments after values
)");
  EXPECT_EQ(*at(doc, "plain").as_string(), "tab\there \"quoted\" \\ \xc3\xa9 \xf0\x9f\x98\x80");
  EXPECT_EQ(*at(doc, "literal").as_string(), "C:\\path\\no escapes");
  EXPECT_EQ(*at(doc, "empty").as_string(), "");
  EXPECT_EQ(*at(doc, "multi").as_string(), "first\nsecond joined");
  EXPECT_EQ(*at(doc, "multi_literal").as_string(), "raw \\n \"kept\" ");
  EXPECT_EQ(*at(doc, "quotes").as_string(), "two \"\" inside, one at the end\"");
  EXPECT_EQ(at(doc, "int").as_integer(), 42);
  EXPECT_EQ(at(doc, "negative").as_integer(), -17);
  EXPECT_EQ(at(doc, "zero").as_integer(), 0);
  EXPECT_EQ(at(doc, "grouped").as_integer(), 1000000);
  EXPECT_EQ(at(doc, "hex").as_integer(), 0xdeadbeef);
  EXPECT_EQ(at(doc, "octal").as_integer(), 0755);
  EXPECT_EQ(at(doc, "binary").as_integer(), 13);
  EXPECT_EQ(at(doc, "float").kind(), Value::Kind::floating);
  EXPECT_EQ(at(doc, "float").as_number(), 3.25);
  EXPECT_EQ(at(doc, "exponent").as_number(), -2.5e-3);
  EXPECT_EQ(at(doc, "both").as_number(), 6.02e23);
  EXPECT_EQ(at(doc, "infinite").as_number(), -INFINITY);
  EXPECT_TRUE(std::isnan(*at(doc, "not_a_number").as_number()));
  EXPECT_EQ(at(doc, "yes").as_boolean(), true);
  EXPECT_EQ(at(doc, "no").as_boolean(), false);
  EXPECT_EQ(at(doc, "indented").as_integer(), 1);
  // Integers widen to numbers; nothing else converts.
  EXPECT_EQ(at(doc, "int").as_number(), 42.0);
  EXPECT_FALSE(at(doc, "float").as_integer());
  EXPECT_FALSE(at(doc, "yes").as_number());
  EXPECT_EQ(at(doc, "int").as_string(), nullptr);
  // Lines: where each value starts.
  EXPECT_EQ(at(doc, "plain").line(), 2);
  EXPECT_EQ(at(doc, "multi").line(), 5);
  EXPECT_EQ(at(doc, "int").line(), 12);
}

TEST(TomlBuiltin, ReadsTablesArraysAndKeysInTheFilesOrder) {
  const Value doc = read(R"(assignment = "a01"
site.name = "lab"
site."quoted key".x = 1
inline = { a = 1, b.c = "two", nested = { d = [1, 2] } }
tests = [
  "A.*",  # comments and newlines between elements
  "B.*",
]
matrix = [[1, 2], ["mixed", 3.5], []]

[[group]]
name = "first"
[group.limits]
timeout_s = 5

[[group]]
name = "second"

[table.deep]
x = 1
[table]
y = 2
)");
  EXPECT_EQ(doc.keys(),
            (std::vector<std::string>{"assignment", "site", "inline", "tests", "matrix", "group", "table"}));
  EXPECT_EQ(at(at(at(doc, "site"), "quoted key"), "x").as_integer(), 1);
  const Value& inline_table = at(doc, "inline");
  EXPECT_EQ(*at(at(inline_table, "b"), "c").as_string(), "two");
  EXPECT_EQ(at(at(inline_table, "nested"), "d").elements().size(), 2u);
  const Value& tests = at(doc, "tests");
  ASSERT_TRUE(tests.is_array());
  ASSERT_EQ(tests.elements().size(), 2u);
  EXPECT_EQ(*tests.elements()[1].as_string(), "B.*");
  EXPECT_EQ(tests.elements()[1].line(), 7);
  const Value& matrix = at(doc, "matrix");
  ASSERT_EQ(matrix.elements().size(), 3u);
  EXPECT_EQ(*matrix.elements()[1].elements()[0].as_string(), "mixed");
  EXPECT_TRUE(matrix.elements()[2].elements().empty());
  const Value& groups = at(doc, "group");
  ASSERT_EQ(groups.elements().size(), 2u);
  EXPECT_EQ(groups.elements()[0].line(), 11);
  EXPECT_EQ(at(at(groups.elements()[0], "limits"), "timeout_s").as_integer(), 5);
  EXPECT_EQ(*at(groups.elements()[1], "name").as_string(), "second");
  EXPECT_EQ(at(at(at(doc, "table"), "deep"), "x").as_integer(), 1);
  EXPECT_EQ(at(at(doc, "table"), "y").as_integer(), 2);
  EXPECT_EQ(doc.find("absent"), nullptr);
  EXPECT_EQ(tests.find("A.*"), nullptr);  // not a table
}

TEST(TomlBuiltin, EmptyDocumentsAndLineEndings) {
  EXPECT_TRUE(read("").keys().empty());
  EXPECT_TRUE(read("\n# only a comment\n\n").keys().empty());
  const Value crlf = read(
      "\xef\xbb\xbf"
      "a = 1\r\nb = \"x\"\r\n");
  EXPECT_EQ(at(crlf, "b").line(), 2);
  EXPECT_EQ(at(read("a = 1"), "a").as_integer(), 1);  // no newline at the end
}

// Each error names the file, the line and the key.
void expect_error(const std::string& text, int line, const std::string& needle) {
  const ParseError error = error_of(text);
  EXPECT_EQ(error.file(), "test.toml");
  EXPECT_EQ(error.line(), line) << error.what();
  EXPECT_NE(error.description().find(needle), std::string::npos)
      << "expected \"" << needle << "\" in: " << error.what();
  EXPECT_EQ(std::string(error.what()), "test.toml:" + std::to_string(line) + ": " + error.description());
}

TEST(TomlBuiltin, UnterminatedStringsNameTheirKeyAndLine) {
  expect_error("a = 1\nname = \"abc\nb = 2\n", 2, "name: unterminated string");
  expect_error("name = 'abc", 1, "name: unterminated string");
  expect_error("a = 1\ntext = \"\"\"\nnever closed\n", 2, "text: unterminated multi-line string (it opens on line 2)");
  expect_error("[[group]]\nname = \"g\n", 2, "group[0].name: unterminated string");
  expect_error("tests = [\"a\",\n  \"b\n]\n", 2, "tests[1]: unterminated string");
  expect_error("tests = [\"a\",\n", 1, "tests: unterminated array (it opens on line 1)");
}

TEST(TomlBuiltin, DuplicateKeysNameBothLines) {
  expect_error("points = 1\nname = \"x\"\npoints = 2\n", 3, "points: duplicate key (first defined on line 1)");
  expect_error("[[group]]\npoints = 1\n[[group]]\npoints = 2\npoints = 3\n", 5,
               "group[1].points: duplicate key (first defined on line 4)");
  expect_error("a.b = 1\na.b = 2\n", 2, "a.b: duplicate key");
  expect_error("t = { x = 1, x = 2 }\n", 1, "t.x: duplicate key");
  expect_error("[a]\nx = 1\n[a]\n", 3, "[a]: the table is defined twice (line 1)");
  expect_error("a = 1\n[a]\n", 2, "[a]: is already an integer (line 1)");
  expect_error("a.b = 1\n[a]\n", 2, "[a]: dotted keys already define it");
  expect_error("[a.b]\n[a]\nb.c = 1\n", 3, "a.b: is already a [table] (line 1); a dotted key cannot add to it");
  expect_error("a = { x = 1 }\na.y = 2\n", 2, "a: is already an inline table (line 1)");
  expect_error("a = { x = 1 }\n[a.b]\n", 2, "a: is already an inline table");
  expect_error("group = [1]\n[[group]]\n", 2, "[[group]]: is already an array (a value) (line 1)");
  expect_error("[group]\n[[group]]\n", 2, "[[group]]: is already a [table]");
  expect_error("[[group]]\n[group]\n", 2, "[group]: is already an array of tables");
  expect_error("a = 1\na.b = 2\n", 2, "a: is already an integer");
}

TEST(TomlBuiltin, BadValuesNameTheirKeyAndLine) {
  expect_error("a = 1\npoints = eight\n", 2, "points: invalid value 'eight' (a string needs quotes");
  expect_error("assignment = \n", 1, "assignment: the value is missing");
  expect_error("assignment = # nothing\n", 1, "assignment: the value is missing");
  expect_error("[[group]]\npoints = 8 9\n", 2, "group[0].points: unexpected '9'");
  expect_error("x = 1__0\n", 1, "x: invalid value '1__0'");
  expect_error("x = 012\n", 1, "x: leading zeros are not allowed in '012'");
  expect_error("x = 1.\n", 1, "x: invalid float '1.'");
  expect_error("x = 9223372036854775808\n", 1, "x: integer '9223372036854775808' does not fit in 64 bits");
  expect_error("x = 0xffffffffffffffff\n", 1, "does not fit in 64 bits");
  expect_error("x = 1e999\n", 1, "x: float '1e999' is out of range");
  expect_error("x = True\n", 1, "x: invalid value 'True'");
  expect_error("when = 1979-05-27\n", 1, "when: dates and times are not supported");
  expect_error("when = 07:32:00\n", 1, "when: dates and times are not supported");
  expect_error("s = \"bad \\q escape\"\n", 1, "s: invalid escape '\\q'");
  expect_error("s = \"\\u12\"\n", 1, "s: \\u needs 4 hex digits");
  expect_error("s = \"\\uD800\"\n", 1, "not a Unicode scalar value");
  expect_error(
      "s = \"a\x01"
      "b\"\n",
      1, "s: a control character in a string");
  expect_error("tests = [\"a\" \"b\"]\n", 1, "tests: expected ',' or ']' in the array, found '\"'");
  expect_error("t = { a = 1, }\n", 1, "t: a comma after the last key of an inline table");
  expect_error("t = { a = 1\nb = 2 }\n", 1, "t: expected ',' or '}' in the inline table (an inline table must close");
}

TEST(TomlBuiltin, BadKeysAndHeadersNameTheirLine) {
  expect_error("a = 1\n= 2\n", 2, "expected a key, found '='");
  expect_error("name \"x\"\n", 1, "name: expected '=' after the key, found '\"'");
  expect_error("a. = 1\n", 1, "a.: expected a key after the dot");
  expect_error("[group\nx = 1\n", 1, "[group]: expected ']' to close the table header");
  expect_error("[[group]\n", 1, "[group]: expected ']]' to close the table header");
  expect_error("[a] x = 1\n", 1, "[a]: unexpected 'x'");
  expect_error("a = 1\n# comment \x01\n", 2, "a control character in a comment");
  expect_error("a = 1\nb = \"\xff\"\n", 2, "the file is not UTF-8");
}

TEST(TomlBuiltin, FilesAreReadAndMissingOnesNamed) {
  const auto path = kTemp / "builtin-test.toml";
  std::filesystem::create_directories(kTemp);
  std::ofstream(path) << "x = 1\ny = [\n";
  try {
    parse_file(path);
    FAIL() << "no error";
  } catch (const ParseError& error) {
    EXPECT_EQ(error.file(), path.string());
    EXPECT_EQ(error.line(), 2) << error.what();
    // parse_file() reads with the reader this build chose, whose words differ.
    EXPECT_EQ(std::string(error.what()).rfind(path.string() + ":2: ", 0), 0u) << error.what();
  }
  std::ofstream(path) << "x = 1\n";
  EXPECT_EQ(at(parse_file(path), "x").as_integer(), 1);
  std::filesystem::remove(path);
  try {
    parse_file("/no/such/file.toml");
    FAIL() << "no error";
  } catch (const ParseError& error) {
    EXPECT_EQ(error.line(), 0);
    EXPECT_EQ(std::string(error.what()).rfind("/no/such/file.toml: cannot open the file", 0), 0u) << error.what();
  }
}

// CMake links one reader behind rooflab::toml::parse() (ROOFLAB_TOML).
TEST(TomlReader, IsTheOneCMakeChose) {
  EXPECT_STREQ(reader_name(), ROOFLAB_TOML_READER);
  EXPECT_EQ(at(parse("x = 1\n", "chosen.toml"), "x").as_integer(), 1);
}

}  // namespace
}  // namespace rooflab::toml
