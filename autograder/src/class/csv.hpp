// CSV for grade-all: reading a roster's records and writing the gradebooks.
// Rosters come from outside (an LMS, GitHub Classroom, a TA's spreadsheet), and
// the gradebooks go back into spreadsheets and LMS imports, so every field is
// treated as hostile both ways. Small pure functions (csv.cpp) with unit
// tests of their own (autograder/tests/class_csv_test.cpp).
#pragma once

#include <string>
#include <vector>

namespace rooflab::csv {

// One CSV record's fields: commas separate, double quotes quote ("" is a
// quote); carriage returns are dropped and each field is trimmed.
std::vector<std::string> parse_record(const std::string& line);

// One field as RFC 4180 writes it: quoted when it holds a comma, a quote, a
// newline or a carriage return (a quote doubled). Newlines and carriage
// returns become spaces first, so that every record stays on one line (the
// roster reader, like many tools, reads a line at a time).
std::string field(const std::string& value);

// A text field that a spreadsheet will open: one that starts with = + - @ or
// a tab would be run as a formula (CSV injection), so it gets a leading
// apostrophe, which spreadsheets show as text. Only for text from outside
// (identifiers, reasons), never for numbers.
std::string text_field(const std::string& value);

}  // namespace rooflab::csv
