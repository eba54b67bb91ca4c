// `lab release`: solutions/ (annotated source of truth) -> assignments/ (student template).
//
// Every region between "// BEGIN SOLUTION" and "// END SOLUTION" is replaced by
// "// YOUR CODE HERE" and, inside a function, a stub that compiles warning-free
// and throws rooflab::NotImplemented naming the function:
//     rooflab::todo("a01_roofline::model_memory_bytes", num_params, bytes_per_param);
// A __global__ kernel's region becomes an empty body that only marks its
// parameters used, and a __device__ function's the same plus `return {};`
// (device code cannot throw); the host launcher (an ordinary function) that
// calls them throws as above.
// A region at namespace scope (helpers) is removed, leaving the comment.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace rooflab::release {

// A marker problem, reported as "file:line: message".
class ReleaseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Function {
  std::string name;                     // as written, e.g. "model_memory_bytes" or "Foo::bar"
  std::vector<std::string> parameters;  // names, in order (unnamed ones omitted)
  bool kernel = false;                  // declared __global__
  bool device = false;                  // declared __device__ (not __host__): cannot throw
  bool returns_void = false;            // its return type is void
};

// The function whose body encloses byte offset `offset` of `source`, or nullopt
// when the offset is at namespace/file scope. Comments and literals are skipped.
std::optional<Function> enclosing_function(const std::string& source, std::size_t offset);

// Parses a function header such as "double f(double a, int b = 2) const".
std::optional<Function> parse_function_header(const std::string& header);

// Replaces every solution region of `source`. `qualifier` prefixes stub names
// (the assignment, e.g. "a01_roofline"); `file` is used in error messages.
// Returns the source unchanged when it has no markers.
std::string strip_solutions(const std::string& source, const std::string& qualifier, const std::string& file);

// True when `source` contains a solution marker.
bool has_markers(const std::string& source);

// An assignment's folders that are the instructor's alone: grading/ (rubric and
// hidden tests) and literate/ (the code behind the docs' numbers and figures).
// They are never released, and so never staged when a submission is graded.
inline bool is_instructor_only(const std::string& folder) { return folder == "grading" || folder == "literate"; }

// The generated tree: relative path -> contents, for every file under
// `solutions` but the instructor-only folders of each assignment.
std::map<std::filesystem::path, std::string> generate(const std::filesystem::path& solutions);

}  // namespace rooflab::release
