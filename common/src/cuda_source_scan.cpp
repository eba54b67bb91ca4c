// rooflab_cuda_source_scan SOURCES_DIR PREPROCESSED...
//
// The CPU runtime sees kernel code's memory accesses through the compiler's
// instrumentation (rooflab/cuda_cpu.hpp): code compiled without it runs
// unchecked and uncounted. This reads each CUDA file as the preprocessor
// leaves it (macros expanded, _Pragma written out), and refuses, naming the
// file and line, what in a file under SOURCES_DIR would switch the
// instrumentation off or go around it:
//   - attributes that compile a function differently: no_sanitize…,
//     optimize, target, target_clones, naked, ifunc, alias, weakref;
//   - #pragma GCC optimize, target or reset_options, and #pragma clang;
//   - inline assembly (asm), and x86 intrinsics (_mm…, __builtin_ia32…),
//     whose loads and stores no instrumentation sees (and no GPU has);
//   - the runtime's own internals (rooflab::cuda_cpu::detail, the
//     registration of device memory, the launch records, __tsan_…).
// Prints one line per problem ("src/k.cu:12: …") and exits 1 when there is
// any; the build fails there, in a student's build as in a grading.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const std::set<std::string> kForbiddenAttributes = {"no_sanitize",
                                                    "no_sanitize_thread",
                                                    "no_sanitize_address",
                                                    "no_sanitize_undefined",
                                                    "no_sanitize_coverage",
                                                    "disable_sanitizer_instrumentation",
                                                    "optimize",
                                                    "target",
                                                    "target_clones",
                                                    "naked",
                                                    "ifunc",
                                                    "alias",
                                                    "weakref"};

// What only a submission that means to get around the runtime names: the
// registration that makes memory device memory, the records tests read, the
// running launch's state.
const std::set<std::string> kRuntimeInternals = {
    "register_device_variable", "take_launch_records", "take_device_to_host_words", "set_current_checker",
    "running_checker", "running_thread", "RuntimeScope",
    // what WMMA's header uses: a submission calling them
    // would fake tensor-core work or warp-collective calls
    "count_tensor_core_operation", "warp_collective", "WarpCollective", "access_for", "launch_draw",
    // and the tensor-core atoms' (rooflab/tensor_core.hpp)
    "read_matrix_row", "count_ldmatrix", "async_copy_issue", "async_copy_commit", "async_copy_next_landing",
    "async_copy_wait"};

// "__optimize__" -> "optimize".
std::string attribute_name(std::string name) {
  if (name.size() > 4 && name.rfind("__", 0) == 0 && name.compare(name.size() - 2, 2, "__") == 0)
    name = name.substr(2, name.size() - 4);
  return name;
}

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

struct Scanner {
  std::string display;  // the current file, as messages name it ("" when not a student file)
  int line = 0;
  std::vector<std::string> problems;
  // Inside an attribute: __attribute__((…)) counts parentheses, [[…]] brackets.
  int attribute_parens = -1;  // -1: not in __attribute__; else the depth at which it closes
  int parens = 0;
  bool in_brackets_attribute = false;
  bool expect_attribute_open = false;
  std::string previous, before_previous;  // the last two tokens ("::" counts as one)

  void problem(const std::string& what) { problems.push_back(display + ":" + std::to_string(line) + ": " + what); }

  void identifier(const std::string& word) {
    const bool in_attribute = attribute_parens >= 0 || in_brackets_attribute;
    if (in_attribute && kForbiddenAttributes.count(attribute_name(word)))
      problem("the attribute " + word +
              " compiles this code differently from the rest: the CPU runtime checks and counts kernel code only "
              "as the build compiles every function (remove it)");
    if (word == "__attribute__" || word == "__attribute" || word == "__declspec") expect_attribute_open = true;
    if (word == "asm" || word == "__asm" || word == "__asm__")
      problem(
          "inline assembly: its loads and stores are invisible to the CPU runtime's checks (and a GPU runs "
          "no x86 assembly); for PTX's tensor-core instructions use rooflab/tensor_core.hpp's atoms "
          "(mma_m16n8k16_f16, ldmatrix_x4, cp_async_16_cg, …), each that one instruction under nvcc and "
          "checked in the CPU runtime");
    if (starts_with(word, "_mm") || starts_with(word, "__builtin_ia32"))
      problem(word +
              ": an x86 intrinsic, whose loads and stores are invisible to the CPU runtime's checks (and "
              "which no GPU has)");
    // threadIdx and the like expand to rooflab::cuda_cpu's functions; what no
    // CUDA name expands to is the runtime's own business.
    if (kRuntimeInternals.count(word) || starts_with(word, "__tsan_") ||
        (word == "detail" && previous == "::" && before_previous == "cuda_cpu"))
      problem(word + ": the CPU runtime's internals are the course's, not a submission's to call or define");
    before_previous = previous;
    previous = word;
  }

  void pragma(const std::string& text) {
    // "#pragma GCC optimize ("O0")", "# pragma clang attribute push …"
    std::string rest = text.substr(text.find("pragma") + 6);
    const auto skip = [&] {
      while (!rest.empty() && (rest[0] == ' ' || rest[0] == '\t')) rest.erase(0, 1);
    };
    skip();
    if (starts_with(rest, "clang")) {
      problem("#pragma clang: compiler settings are the build's");
      return;
    }
    if (!starts_with(rest, "GCC")) return;
    rest.erase(0, 3);
    skip();
    for (const char* setting : {"optimize", "target", "reset_options"})
      if (starts_with(rest, setting))
        problem(std::string("#pragma GCC ") + setting +
                " compiles the code after it differently: the CPU runtime checks and counts kernel code only as the "
                "build compiles every function (remove it)");
  }

  void code(const std::string& text) {
    for (std::size_t i = 0; i < text.size();) {
      const char c = text[i];
      if (c == '"' || c == '\'') {  // a literal: skip it, escapes included
        std::size_t j = i + 1;
        while (j < text.size() && text[j] != c) j += text[j] == '\\' ? 2 : 1;
        i = j + 1;
        continue;
      }
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        std::size_t j = i;
        while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) ++j;
        identifier(text.substr(i, j - i));
        i = j;
        continue;
      }
      if (c == '(') {
        if (expect_attribute_open && attribute_parens < 0) attribute_parens = parens;
        expect_attribute_open = false;
        ++parens;
      } else if (c == ')') {
        --parens;
        if (parens == attribute_parens) attribute_parens = -1;
      } else if (c == '[' && i + 1 < text.size() && text[i + 1] == '[') {
        in_brackets_attribute = true;
        ++i;
      } else if (c == ']' && i + 1 < text.size() && text[i + 1] == ']' && in_brackets_attribute) {
        in_brackets_attribute = false;
        ++i;
      } else if (c == ':' && i + 1 < text.size() && text[i + 1] == ':') {
        before_previous = previous;
        previous = "::";
        ++i;
      } else if (c != ' ' && c != '\t') {
        expect_attribute_open = false;
      }
      if (c != ' ' && c != '\t' && c != ':') {
        before_previous = previous;
        previous = std::string(1, c);
      }
      ++i;
    }
  }
};

// `# 12 "/path/src/k.cu" 2`: the line number and file of what follows.
bool linemarker(const std::string& text, int& line, std::string& file) {
  std::size_t i = 1;
  while (i < text.size() && text[i] == ' ') ++i;
  if (i == text.size() || !std::isdigit(static_cast<unsigned char>(text[i]))) return false;
  std::size_t end = i;
  while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
  const std::size_t open = text.find('"', end), close = text.rfind('"');
  if (open == std::string::npos || close <= open) return false;
  line = std::stoi(text.substr(i, end - i));
  file = text.substr(open + 1, close - open - 1);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: rooflab_cuda_source_scan SOURCES_DIR PREPROCESSED...\n";
    return 2;
  }
  const fs::path sources = fs::weakly_canonical(argv[1]);
  std::vector<std::string> problems;
  for (int a = 2; a < argc; ++a) {
    std::ifstream in(argv[a]);
    if (!in) {
      std::cerr << "rooflab_cuda_source_scan: cannot read " << argv[a] << "\n";
      return 2;
    }
    Scanner scanner;
    std::string text;
    while (std::getline(in, text)) {
      std::string file;
      int number = 0;
      if (!text.empty() && text[0] == '#' && linemarker(text, number, file)) {
        const fs::path path = fs::weakly_canonical(file);
        const auto relative = path.lexically_relative(sources);
        const bool student = !relative.empty() && !starts_with(relative.string(), "..");
        scanner.display = student ? (sources.filename() / relative).string() : "";
        scanner.line = number;
        continue;
      }
      if (!scanner.display.empty()) {
        if (text.find_first_not_of(" \t") != std::string::npos && text[text.find_first_not_of(" \t")] == '#')
          scanner.pragma(text);
        else
          scanner.code(text);
      }
      ++scanner.line;
    }
    problems.insert(problems.end(), scanner.problems.begin(), scanner.problems.end());
  }
  for (const std::string& problem : problems) std::printf("%s\n", problem.c_str());
  return problems.empty() ? 0 : 1;
}
