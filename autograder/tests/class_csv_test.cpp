// grade-all's CSV: rosters are read and gradebooks written field by field,
// with every field from outside treated as hostile (class/csv.hpp).
#include "class/csv.hpp"

#include <gtest/gtest.h>

namespace rooflab::csv {
namespace {

TEST(ClassCsv, ParsesQuotesAndDoubledQuotes) {
  EXPECT_EQ(parse_record(R"(a,"b, c","say ""hi""",  d  )"
                         "\r"),
            (std::vector<std::string>{"a", "b, c", "say \"hi\"", "d"}));
  EXPECT_EQ(parse_record(""), (std::vector<std::string>{""}));
  EXPECT_EQ(parse_record("a,,"), (std::vector<std::string>{"a", "", ""}));
}

TEST(ClassCsv, QuotesOnlyWhatNeedsIt) {
  EXPECT_EQ(field("alice"), "alice");
  EXPECT_EQ(field("Doe, Jane"), "\"Doe, Jane\"");
  EXPECT_EQ(field("a \"b\""), "\"a \"\"b\"\"\"");
  EXPECT_EQ(field(" padded"), "\" padded\"");
}

TEST(ClassCsv, KeepsEachRecordOnOneLine) {
  EXPECT_EQ(field("two\nlines\r"), "\"two lines \"");  // quoted: a trailing space
  EXPECT_EQ(field("x\r\n,y"), "\"x  ,y\"");
}

TEST(ClassCsv, WrittenFieldsReadBackAsTheyWere) {
  for (const std::string value : {"plain", "Doe, Jane", "\"quoted\"", "a,\"b\",c", "", "é ü"}) {
    EXPECT_EQ(parse_record(field(value) + "," + field(value)), (std::vector<std::string>{value, value})) << value;
  }
}

TEST(ClassCsv, TextThatASpreadsheetWouldRunIsMadeText) {
  EXPECT_EQ(text_field("=HYPERLINK(\"http://x\",\"y\")"), "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
  EXPECT_EQ(text_field("+1"), "'+1");
  EXPECT_EQ(text_field("-2"), "'-2");
  EXPECT_EQ(text_field("@SUM(A1)"), "'@SUM(A1)");
  EXPECT_EQ(text_field("\tx"), "'\tx");
  EXPECT_EQ(text_field("alice=1"), "alice=1");
  EXPECT_EQ(text_field(""), "");
}

}  // namespace
}  // namespace rooflab::csv
