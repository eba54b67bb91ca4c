#include "build/checks.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iterator>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <sstream>
#include <string_view>
#include <tuple>

#include "text/text.hpp"

namespace rooflab {
namespace {

struct Rule {
  std::string_view pattern;
  std::string_view why;
};

constexpr Rule kForbiddenDefinitions[] = {
    {"main", "a second main() would replace the grader's"},
    {"_ZN7testing", "GoogleTest's internals belong to the tests"},
    {"_ZN7rooflab3rpc", "the grader's RPC internals are not the student's"},
    {"_ZN7rooflab4wire", "the grader's RPC internals are not the student's"},
    {"rooflab_rpc_", "the grader's RPC tables are not the student's"},
    {"__asan_", "sanitizer options are the course's"},
    {"__ubsan_", "sanitizer options are the course's"},
    {"__lsan_", "sanitizer options are the course's"},
    {"__msan_", "sanitizer options are the course's"},
    {"__tsan_", "sanitizer options are the course's"},
    {"__sanitizer_", "sanitizer hooks are the course's"},
    {"rooflab_cuda_cpu_", "the CPU runtime's memcpy, memmove and memset are the course's"},
    {"_ZN7rooflab8cuda_cpu19take_launch_records", "the CPU runtime's launch records are the course's"},
    {"_ZN7rooflab8cuda_cpu25take_device_to_host_words", "the CPU runtime's records of copies are the course's"},
    {"_ZN7rooflab8cuda_cpu6detail10run_kernel", "the CPU runtime's launches are the course's"},
    {"_ZN7rooflab8cuda_cpu11syncthreads", "the CPU runtime's scheduler is the course's"},
    {"_ZN7rooflab7testing", "the tests' helpers belong to the tests"},
    {"_ZN7rooflab10count_call", "provided code's call counts are the course's"},
    {"_ZN7rooflab16take_call_counts", "provided code's call counts are the course's"},
    {"_Znwm", "replacing global operator new would fake memory measurements"},
    {"_Znam", "replacing global operator new[] would fake memory measurements"},
    {"_ZdlPv", "replacing global operator delete would fake memory measurements"},
    {"_ZdaPv", "replacing global operator delete[] would fake memory measurements"},
};

// What kernel code may call of the CPU runtime: what rooflab/cuda_cpu.hpp's
// CUDA names expand to. A call of anything else in its namespace (the running
// launch's checker, say) is a submission reaching into the runtime.
constexpr std::string_view kRuntimeEntryPoints[] = {
    "_ZN7rooflab8cuda_cpu12thread_indexE", "_ZN7rooflab8cuda_cpu11block_indexE",
    "_ZN7rooflab8cuda_cpu16block_dimensionsE", "_ZN7rooflab8cuda_cpu15grid_dimensionsE",
    "_ZN7rooflab8cuda_cpu11syncthreadsE", "_ZN7rooflab8cuda_cpu17syncthreads_countE", "_ZN7rooflab8cuda_cpu8syncwarpE",
    "_ZN7rooflab8cuda_cpu7shuffleE", "_ZN7rooflab8cuda_cpu6ballotE", "_ZN7rooflab8cuda_cpu9this_laneE",
    "_ZN7rooflab8cuda_cpu11active_maskE", "_ZN7rooflab8cuda_cpu12pause_threadE", "_ZN7rooflab8cuda_cpu4trapE",
    "_ZN7rooflab8cuda_cpu5fenceE", "_ZN7rooflab8cuda_cpu12thread_clockE",
    "_ZN7rooflab8cuda_cpu21dynamic_shared_memoryE", "_ZN7rooflab8cuda_cpu12shared_arrayE",
    "_ZN7rooflab8cuda_cpu6detail10run_kernelE", "_ZN7rooflab8cuda_cpu6detail6atomicI",
    "_ZN7rooflab8cuda_cpu24register_device_variableE", "_ZN7rooflab8cuda_cpu18last_error_messageB5cxx11E",
    // WMMA (rooflab/cuda_cpu_wmma.hpp), cooperative groups,
    // __launch_bounds__ and cudaFuncSetAttribute
    "_ZN7rooflab8cuda_cpu15warp_collectiveE", "_ZN7rooflab8cuda_cpu11launch_drawE", "_ZN7rooflab8cuda_cpu10access_forE",
    "_ZN7rooflab8cuda_cpu17check_matrix_tileE", "_ZN7rooflab8cuda_cpu27count_tensor_core_operationE",
    "_ZN7rooflab8cuda_cpu7fail_atE", "_ZN7rooflab8cuda_cpu19check_launch_boundsE",
    "_ZN7rooflab8cuda_cpu18function_attributeE",
    // the tensor-core atoms (rooflab/tensor_core.hpp): ldmatrix and cp.async
    "_ZN7rooflab8cuda_cpu15read_matrix_rowE", "_ZN7rooflab8cuda_cpu14count_ldmatrixE",
    "_ZN7rooflab8cuda_cpu16async_copy_issueE", "_ZN7rooflab8cuda_cpu17async_copy_commitE",
    "_ZN7rooflab8cuda_cpu23async_copy_next_landingE", "_ZN7rooflab8cuda_cpu15async_copy_waitE"};

// Only strong definitions: the runtime's header makes template instances and
// inline functions in its namespace weak definitions of every CUDA object.
constexpr Rule kForbiddenStrongDefinitions[] = {
    {"_ZN7rooflab8cuda_cpu", "the CPU runtime for CUDA is the course's: a submission may not replace any of it"},
};

constexpr Rule kForbiddenCalls[] = {
    {"exit", "ends the process"},
    {"_exit", "ends the process"},
    {"_Exit", "ends the process"},
    {"quick_exit", "ends the process"},
    {"at_quick_exit", "hooks process exit"},
    {"atexit", "hooks process exit"},
    {"abort", "ends the process"},
    {"signal", "installs a signal handler"},
    {"sigaction", "installs a signal handler"},
    {"fork", "starts processes"},
    {"vfork", "starts processes"},
    {"execv", "starts programs"},
    {"execve", "starts programs"},
    {"execvp", "starts programs"},
    {"execl", "starts programs"},
    {"execlp", "starts programs"},
    {"system", "starts programs"},
    {"popen", "starts programs"},
    {"posix_spawn", "starts programs"},
    {"posix_spawnp", "starts programs"},
    {"dlopen", "loads code at run time"},
    {"ptrace", "inspects other processes"},
    {"_ZN7testing", "GoogleTest's internals belong to the tests"},
    {"_ZN7rooflab3rpc", "the grader's RPC internals are not the student's"},
    {"_ZN7rooflab8cuda_cpu19take_launch_records", "reads and clears the launch records the tests read"},
    {"_ZN7rooflab8cuda_cpu25take_device_to_host_words", "reads and clears the records of copies the tests read"},
    {"_ZN7rooflab7testing", "the tests' helpers belong to the tests"},
    {"_ZN7rooflab10count_call", "would count calls of provided code that never happened"},
    {"_ZN7rooflab16take_call_counts", "clears the call counts the tests read"},
};

// "…/a01_roofline_student.dir/src/memory.cpp.o" -> "src/memory.cpp", and a
// CUDA file's CPU twin "…/a05_…_student.dir/cuda_on_cpu/src/k.cu.cpp.o" -> "src/k.cu".
std::string source_of(std::string object) {
  const std::size_t dir = object.find(".dir/");
  if (dir != std::string::npos) object = object.substr(dir + 5);
  if (text::ends_with(object, ".o")) object.resize(object.size() - 2);
  if (text::starts_with(object, "cuda_on_cpu/") && text::ends_with(object, ".cu.cpp"))
    object = object.substr(12, object.size() - 12 - 4);
  return object;
}

bool is_forbidden_definition(const std::string& symbol, std::string_view pattern) {
  // Whole names for plain C symbols, prefixes for namespaces and families.
  if (pattern == "main") return symbol == "main";
  return text::starts_with(symbol, pattern);
}

bool is_forbidden_call(const std::string& symbol, std::string_view pattern) {
  if (text::starts_with(pattern, "_ZN")) return text::starts_with(symbol, pattern);
  // "exit" and "exit@GLIBC_2.2.5" alike.
  return symbol == pattern || text::starts_with(symbol, std::string(pattern) + "@");
}

// Calls that a compiler's own code makes in every object it compiles, and the
// function that makes them.
struct RuntimeCall {
  std::string_view symbol;
  std::string_view function;
};
constexpr RuntimeCall kNvccRegistration[] = {{"atexit", "_ZL24__sti____cudaRegisterAllv"}};

// "atexit-0x4", "atexit+0x10" or "atexit@GLIBC_2.2.5" -> "atexit".
std::string relocation_symbol(const std::string& value) {
  const std::size_t end = value.find_first_of("+-@");
  return end == std::string::npos ? value : value.substr(0, end);
}

// How many relocations of any section refer to `symbol` (`objdump -r` output).
std::size_t count_references(const std::string& objdump_r, const std::string& symbol) {
  std::size_t count = 0;
  for (const std::string& line : text::split_lines(objdump_r)) {
    std::istringstream fields(line);
    std::string offset, type, value;
    if (fields >> offset >> type >> value && text::starts_with(type, "R_") && relocation_symbol(value) == symbol)
      ++count;
  }
  return count;
}

// "…/a04_student_cuda.dir/flash_attention_thrust_cuda.cu.o:                 U atexit"
struct Use {
  std::string object;
  std::string symbol;
  bool defined = false;
  bool strong = false;  // defined, and not weak
};

std::vector<Use> parse_nm(const std::string& nm_output) {
  std::vector<Use> uses;
  for (const std::string& line : text::split_lines(nm_output)) {
    // "path.o:0000000000000000 T symbol" or "path.o:                 U symbol"
    const std::size_t colon = line.find(".o:");
    if (colon == std::string::npos) continue;
    std::istringstream fields(line.substr(colon + 3));
    std::vector<std::string> words{std::istream_iterator<std::string>(fields), std::istream_iterator<std::string>()};
    if (words.size() < 2) continue;
    const std::string& type = words[words.size() - 2];
    const bool defined = type != "U" && type != "w" && type != "v";
    // Strong: a global definition (upper case) that is not weak; local ones
    // (lower case, e.g. a template instance over an anonymous-namespace type)
    // cannot replace anything.
    const bool strong =
        defined && type.size() == 1 && std::isupper(static_cast<unsigned char>(type[0])) && type != "W" && type != "V";
    uses.push_back({line.substr(0, colon + 2), words.back(), defined, strong});
  }
  return uses;
}

std::vector<std::string> problems_of(const Use& use) {
  std::vector<std::string> problems;
  if (use.defined) {
    for (const auto& [pattern, why] : kForbiddenDefinitions)
      if (is_forbidden_definition(use.symbol, pattern))
        problems.push_back(source_of(use.object) + " defines " + use.symbol + ": " + std::string(why));
    for (const auto& [pattern, why] : kForbiddenStrongDefinitions)
      if (use.strong && problems.empty() && is_forbidden_definition(use.symbol, pattern))
        problems.push_back(source_of(use.object) + " defines " + use.symbol + ": " + std::string(why));
  } else {
    for (const auto& [pattern, why] : kForbiddenCalls)
      if (is_forbidden_call(use.symbol, pattern))
        problems.push_back(source_of(use.object) + " calls " + use.symbol + ", which graded code must not call (it " +
                           std::string(why) + ")");
    if (problems.empty() && text::starts_with(use.symbol, "_ZN7rooflab8cuda_cpu") &&
        std::none_of(std::begin(kRuntimeEntryPoints), std::end(kRuntimeEntryPoints),
                     [&](std::string_view entry) { return text::starts_with(use.symbol, std::string(entry)); }))
      problems.push_back(source_of(use.object) + " calls " + use.symbol +
                         ", the CPU runtime's own business: kernel code may use what CUDA's names stand for, nothing "
                         "else of the runtime");
  }
  return problems;
}

// "a06::dot(float const*)" for "_ZN3a063dotEPKf"; the symbol where it is not a C++ name.
std::string demangled(const std::string& symbol) {
  int status = 0;
  const std::unique_ptr<char, void (*)(void*)> name(abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status),
                                                    std::free);
  return status == 0 && name ? std::string(name.get()) : symbol;
}

// Strong definitions of the student's objects that are not a CUDA file's CPU
// build: code compiled without the runtime's instrumentation. Symbol -> source.
std::map<std::string, std::string> defined_outside_cuda_files(const std::vector<Use>& uses) {
  std::map<std::string, std::string> defined;
  for (const Use& use : uses)
    if (use.strong && !text::ends_with(use.object, ".cu.cpp.o") && !text::ends_with(use.object, ".cu.o"))
      defined.emplace(use.symbol, source_of(use.object));
  return defined;
}

// "foo+0x10" or "foo-0x4" -> ("foo", 0x10 or -4).
std::pair<std::string, long long> symbol_and_addend(const std::string& value) {
  const std::size_t sign = value.find_first_of("+-", 1);
  if (sign == std::string::npos) return {value, 0};
  long long addend = 0;
  try {
    addend = std::stoll(value.substr(sign + 1), nullptr, 16);
  } catch (const std::exception&) {
    return {value.substr(0, sign), 0};
  }
  return {value.substr(0, sign), value[sign] == '-' ? -addend : addend};
}

}  // namespace

std::set<std::string> symbols_kernel_code_reaches(const std::string& objdump_output) {
  struct Function {
    std::string name, section;
    unsigned long long start = 0;
    std::set<std::string> calls;  // functions of this object, and symbols elsewhere
  };
  std::vector<Function> functions;
  std::map<std::string, std::vector<std::size_t>> by_section;  // in order of start
  std::string section;
  // Relocations against a section symbol (".text+0x49c", a call of a local
  // function in another section) are resolved after every label is known.
  std::vector<std::tuple<std::size_t, std::string, long long>> section_references;
  for (const std::string& line : text::split_lines(objdump_output)) {
    if (text::starts_with(line, "Disassembly of section ")) {
      section = line.substr(23, line.size() - 24);
      continue;
    }
    const std::size_t open = line.find(" <"), close = line.rfind(">:");
    if (!line.empty() && line[0] != ' ' && line[0] != '\t' && open != std::string::npos && close != std::string::npos &&
        close > open) {
      functions.push_back(
          {line.substr(open + 2, close - open - 2), section, std::stoull(line.substr(0, open), nullptr, 16), {}});
      by_section[section].push_back(functions.size() - 1);
      continue;
    }
    if (functions.empty()) continue;
    Function& current = functions.back();
    std::istringstream fields(line);
    std::string offset, type, value;
    if (fields >> offset >> type >> value && text::ends_with(offset, ":") && text::starts_with(type, "R_")) {
      const auto [symbol, addend] = symbol_and_addend(value);
      if (!symbol.empty() && symbol[0] == '.')
        section_references.emplace_back(functions.size() - 1, symbol, addend + 4);  // PC-relative: the target
      else
        current.calls.insert(symbol);
      continue;
    }
    // A call or jump resolved within its section: "  1d:\tcall   22 <name+0x22>".
    const std::size_t target = line.find('<'), target_end = line.rfind('>');
    if ((line.find("call") != std::string::npos || line.find("\tj") != std::string::npos) &&
        target != std::string::npos && target_end > target)
      current.calls.insert(symbol_and_addend(line.substr(target + 1, target_end - target - 1)).first);
  }
  for (const auto& [from, in_section, target] : section_references) {
    const auto found = by_section.find(in_section);
    if (found == by_section.end()) continue;
    for (auto it = found->second.rbegin(); it != found->second.rend(); ++it)
      if (functions[*it].start <= static_cast<unsigned long long>(std::max(0LL, target))) {
        functions[from].calls.insert(functions[*it].name);
        break;
      }
  }
  // From the runtime's kernel entry points (detail::Call<…>::entry, which the
  // launch instantiates here), through every function of this object they call.
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < functions.size(); ++i) index.emplace(functions[i].name, i);
  std::vector<std::size_t> pending;
  std::set<std::size_t> reached;
  for (std::size_t i = 0; i < functions.size(); ++i)
    if (text::starts_with(functions[i].name, "_ZN7rooflab8cuda_cpu6detail4CallI") &&
        text::ends_with(functions[i].name, "5entryEPv"))
      pending.push_back(i);
  std::set<std::string> symbols;
  while (!pending.empty()) {
    const std::size_t i = pending.back();
    pending.pop_back();
    if (!reached.insert(i).second) continue;
    for (const std::string& called : functions[i].calls) {
      symbols.insert(called);
      if (const auto found = index.find(called); found != index.end()) pending.push_back(found->second);
    }
  }
  return symbols;
}

namespace {

// Kernel code in a CUDA file that calls a function of the lab's other
// student files, which are compiled without the CPU runtime's
// instrumentation: what it does there is unchecked and uncounted (and on a
// GPU, a __global__ function cannot call a host function at all). Host code
// in the CUDA file may call them.
std::vector<std::string> kernels_calling_unchecked_code(const std::vector<Use>& uses, const ToolRunner& run) {
  const std::map<std::string, std::string> outside = defined_outside_cuda_files(uses);
  std::set<std::string> objects_to_read;
  for (const Use& use : uses)
    if (!use.defined && text::ends_with(use.object, ".cu.cpp.o") && outside.count(use.symbol))
      objects_to_read.insert(use.object);
  std::vector<std::string> problems;
  for (const std::string& object : objects_to_read) {
    for (const std::string& symbol :
         symbols_kernel_code_reaches(run({"objdump", "-dr", "--no-show-raw-insn", object}))) {
      const auto found = outside.find(symbol);
      if (found == outside.end()) continue;
      problems.push_back(source_of(object) + ": kernel code calls " + demangled(symbol) + ", defined in " +
                         found->second +
                         ", which is not a CUDA file: the CPU runtime checks and counts only code compiled from the "
                         "lab's CUDA files, and on a GPU a kernel cannot call a host function; what kernel code "
                         "calls belongs in the .cu file, as a __device__ function");
    }
  }
  return problems;
}

}  // namespace

std::vector<std::string> check_source(const std::filesystem::path& file, const std::string& display_name) {
  static const std::regex include(R"(^\s*#\s*(include|include_next|embed)\s*[<"]([^>"]*)[>"])");
  static const std::regex has_include(R"(__has_include(_next)?\s*\(\s*[<"]([^>"]*)[>"])");
  static const std::regex incbin(R"(\.incbin)");
  std::vector<std::string> problems;
  int number = 0;
  for (const std::string& line : text::split_lines(text::read_file(file))) {
    ++number;
    const std::string where = display_name + ":" + std::to_string(number);
    std::smatch match;
    std::string path;
    if (std::regex_search(line, match, include) || std::regex_search(line, match, has_include)) path = match[2];
    if (!path.empty() && (path.front() == '/' || path == ".." || text::starts_with(path, "../") ||
                          path.find("/../") != std::string::npos || text::ends_with(path, "/..")))
      problems.push_back(where + ": includes \"" + path +
                         "\": a submission may include the course's headers, not paths outside its assignment");
    if (std::regex_search(line, incbin))
      problems.push_back(where + ": uses .incbin, which copies arbitrary files into the program");
  }
  return problems;
}

std::vector<std::string> check_symbols(const std::string& nm_output) {
  std::vector<std::string> problems;
  for (const Use& use : parse_nm(nm_output)) {
    const auto found = problems_of(use);
    problems.insert(problems.end(), found.begin(), found.end());
  }
  return problems;
}

std::vector<std::string> functions_referring_to(const std::string& objdump_output, const std::string& symbol) {
  std::vector<std::string> functions;
  std::string current;
  for (const std::string& line : text::split_lines(objdump_output)) {
    // A function's label: "000000000000039a <_ZL24__sti____cudaRegisterAllv>:".
    const std::size_t open = line.find(" <"), close = line.rfind(">:");
    if (!line.empty() && line[0] != ' ' && line[0] != '\t' && open != std::string::npos && close != std::string::npos &&
        close > open) {
      current = line.substr(open + 2, close - open - 2);
      continue;
    }
    // A relocation under an instruction: "\t\t\t3ed: R_X86_64_PLT32\tatexit-0x4".
    std::istringstream fields(line);
    std::string offset, type, value;
    if (fields >> offset >> type >> value && text::ends_with(offset, ":") && text::starts_with(type, "R_") &&
        relocation_symbol(value) == symbol)
      functions.push_back(current);
  }
  return functions;
}

std::vector<std::string> check_objects(const std::vector<std::filesystem::path>& objects, const ToolRunner& run) {
  if (objects.empty()) return {};
  std::vector<std::string> nm{"nm", "-A"};
  for (const auto& object : objects) nm.push_back(object.string());
  std::vector<std::string> problems;
  const std::vector<Use> uses = parse_nm(run(nm));
  const auto outside = kernels_calling_unchecked_code(uses, run);
  problems.insert(problems.end(), outside.begin(), outside.end());
  for (const Use& use : uses) {
    std::vector<std::string> found = problems_of(use);
    const auto registration = std::find_if(std::begin(kNvccRegistration), std::end(kNvccRegistration),
                                           [&](const RuntimeCall& call) { return call.symbol == use.symbol; });
    if (!found.empty() && !use.defined && text::ends_with(use.object, ".cu.o") &&
        registration != std::end(kNvccRegistration)) {
      const auto functions =
          functions_referring_to(run({"objdump", "-dr", "--no-show-raw-insn", use.object}), use.symbol);
      const std::size_t references = count_references(run({"objdump", "-r", use.object}), use.symbol);
      // Every reference, in code or data, from the registration function.
      const bool only_registration = !functions.empty() && functions.size() == references &&
                                     std::all_of(functions.begin(), functions.end(), [&](const std::string& function) {
                                       return function == registration->function;
                                     });
      if (only_registration) {
        found.clear();  // nvcc's registration of the kernels, not the student's call
      } else {
        std::string callers;
        for (const auto& function : functions)
          if (function != registration->function && callers.find(function) == std::string::npos)
            callers += (callers.empty() ? "" : ", ") + function;
        found = {source_of(use.object) + " calls " + use.symbol + " from " +
                 (callers.empty() ? std::string("outside any function") : callers) +
                 ", which graded code must not do (only nvcc's own registration code may)"};
      }
    }
    problems.insert(problems.end(), found.begin(), found.end());
  }
  return problems;
}

}  // namespace rooflab
