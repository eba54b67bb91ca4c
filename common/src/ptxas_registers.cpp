#include "rooflab/ptxas_registers.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <sstream>

namespace rooflab::kernels {

namespace {

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(' ');
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(' ') - first + 1);
}

// "128", "128u", "128l" (how the demangler spells int, unsigned and long
// arguments) into a number; false for a type argument.
bool integer_argument(const std::string& argument, long long& value) {
  std::size_t digits = argument.size();
  while (digits > 0 && (argument[digits - 1] == 'u' || argument[digits - 1] == 'l')) --digits;
  if (digits == 0) return false;
  std::size_t start = argument[0] == '-' ? 1 : 0;
  if (start == digits) return false;
  for (std::size_t i = start; i < digits; ++i)
    if (argument[i] < '0' || argument[i] > '9') return false;
  value = std::stoll(argument.substr(0, digits));
  return true;
}

}  // namespace

bool kernel_of_mangled_name(const std::string& mangled, std::string& name, std::vector<long long>& integer_arguments) {
  integer_arguments.clear();
  if (mangled.rfind("_Z", 0) != 0) {  // extern "C": the name as written
    name = mangled;
    return !name.empty();
  }
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> demangled(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), &std::free);
  if (status != 0 || !demangled) return false;
  // "void ns::(anonymous namespace)::kernel<__half, 128>(__half const*, …)":
  // the anonymous namespace aside, the first '(' opens the parameters, and
  // before it sit the name and, when it is a template, its arguments.
  std::string text = demangled.get();
  for (std::size_t at; (at = text.find("(anonymous namespace)")) != std::string::npos;)
    text.erase(at, sizeof "(anonymous namespace)" - 1);
  const std::size_t parameters = text.find('(');
  if (parameters == std::string::npos) return false;
  std::string head = text.substr(0, parameters);
  if (!head.empty() && head.back() == '>') {
    int depth = 0;
    std::size_t open = head.size();
    while (open-- > 0) {
      if (head[open] == '>') ++depth;
      if (head[open] == '<' && --depth == 0) break;
    }
    if (open == std::string::npos) return false;
    // The arguments at the outer level, split at its commas.
    const std::string arguments = head.substr(open + 1, head.size() - open - 2);
    std::string argument;
    depth = 0;
    for (char c : arguments + ",") {
      if (c == '<' || c == '(') ++depth;
      if (c == '>' || c == ')') --depth;
      if (c == ',' && depth == 0) {
        long long value = 0;
        if (integer_argument(trimmed(argument), value)) integer_arguments.push_back(value);
        argument.clear();
      } else {
        argument += c;
      }
    }
    head.erase(open);
  }
  const std::size_t scope = head.find_last_of(": ");
  name = scope == std::string::npos ? head : head.substr(scope + 1);
  return !name.empty();
}

std::vector<PtxasKernel> parse_ptxas_registers(const std::string& ptxas_output) {
  std::vector<PtxasKernel> kernels;
  std::istringstream lines(ptxas_output);
  bool open = false;  // an entry whose registers are still to come
  for (std::string line; std::getline(lines, line);) {
    const std::size_t entry = line.find("Compiling entry function '");
    if (entry != std::string::npos) {
      const std::size_t start = entry + sizeof "Compiling entry function '" - 1;
      const std::size_t end = line.find('\'', start);
      PtxasKernel kernel;
      open = end != std::string::npos &&
             kernel_of_mangled_name(line.substr(start, end - start), kernel.name, kernel.integer_arguments);
      if (open) kernels.push_back(kernel);
      continue;
    }
    const std::size_t used = line.find("Used ");
    if (open && used != std::string::npos && line.find(" registers", used) != std::string::npos) {
      kernels.back().registers = std::atoi(line.c_str() + used + 5);
      open = false;
    }
  }
  std::erase_if(kernels, [](const PtxasKernel& kernel) { return kernel.registers <= 0; });
  return kernels;
}

std::map<std::string, int> registers_at(const std::vector<PtxasKernel>& kernels, long long head_dim) {
  std::map<std::string, int> registers;
  for (const PtxasKernel& kernel : kernels) {
    const auto& arguments = kernel.integer_arguments;
    if (!arguments.empty() && std::find(arguments.begin(), arguments.end(), head_dim) == arguments.end()) continue;
    int& most = registers[kernel.name];
    most = std::max(most, kernel.registers);
  }
  return registers;
}

}  // namespace rooflab::kernels
