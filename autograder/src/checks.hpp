// Checks on a submission's own files before and after it is compiled. They
// turn the most common attacks into clear messages; the sandbox and the
// two-process verdict are what make the attacks useless anyway.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace rooflab {

// Source checks on one student file: #include and __has_include of an absolute
// path or one that climbs out with "..", and assembler .incbin (which would
// copy any file into the object). Messages name file:line.
std::vector<std::string> check_source(const std::filesystem::path& file, const std::string& display_name);

// Symbol checks on `nm -A` output of the student's objects: symbols graded code
// must not define (main, testing:: or rooflab::rpc internals, sanitizer
// options, global operator new/delete) or call (exit and friends, signal
// handlers, process spawning, dlopen, ptrace). Messages name the symbol and the
// source file it came from.
std::vector<std::string> check_symbols(const std::string& nm_output);

}  // namespace rooflab
