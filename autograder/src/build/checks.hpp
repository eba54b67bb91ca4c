// Checks on a submission's own files before and after it is compiled. They
// turn the most common attacks into clear messages. They are a courtesy, not
// the guarantee: a source check reads text (it matches a path spelled out in
// an #include, not one a macro builds), and inline assembly calls the kernel
// without any symbol. What makes such attacks useless anyway is the sandbox
// and the two-process verdict (docs/autograder_security.md).
#pragma once

#include <filesystem>
#include <functional>
#include <set>
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
// source file it came from. Calls the compiler's own code makes are told apart
// by check_objects, which can read the objects themselves.
std::vector<std::string> check_symbols(const std::string& nm_output);

// The function of each code reference to `symbol` in one object (one entry per
// reference), from `objdump -dr` output: a relocation belongs to the function
// whose label came before it.
std::vector<std::string> functions_referring_to(const std::string& objdump_output, const std::string& symbol);

// The symbols that kernel code in one CUDA file's CPU build reaches, from its
// `objdump -dr` output: everything called or referenced by the functions
// reachable from the runtime's kernel entry points (detail::Call<…>::entry),
// following calls within the object, relocated or not.
std::set<std::string> symbols_kernel_code_reaches(const std::string& objdump_output);

// Runs a binutils tool (nm, objdump) and returns what it printed; the grader
// runs it in the sandbox, tests run it directly. Throws when the tool fails.
using ToolRunner = std::function<std::string(const std::vector<std::string>& argv)>;

// check_symbols on the objects compiled from student files, and what only the
// objects themselves show: kernel code of a CUDA file that calls a function of
// the lab's other (uninstrumented) student files. Made precise
// where a compiler adds calls of its own: every object nvcc compiles carries
// a static constructor (__sti____cudaRegisterAll) that registers the kernels
// with the CUDA runtime and passes their unregistration to atexit. An atexit
// reference in a .cu object is allowed when every reference to it, in any
// section, comes from that constructor, which a .cu file cannot define itself
// (nvcc's would clash); any other call is refused naming the function.
std::vector<std::string> check_objects(const std::vector<std::filesystem::path>& objects, const ToolRunner& run);

}  // namespace rooflab
