// The contract of an assignment, as the grader's RPC layer sees it: every free
// function the reference's STUDENT_FILES define in the assignment's namespace.
// It is read from the compiled reference objects (nm), so there is no second
// list to keep in sync with the headers.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace rooflab {

struct ContractFunction {
  std::string name;                 // "a01_roofline::ridge_point"
  std::vector<std::string> params;  // {"double", "double"}, as the demangler spells them
  std::string signature() const;    // "a01_roofline::ridge_point(double, double)"
};

// Parses `nm -C --defined-only -g` output. Keeps text symbols ('T') in
// `name_space`; throws std::runtime_error naming the symbol for one that cannot
// be called across processes (a member function, nested namespace, operator).
// The result is sorted by signature, so ids are stable across builds.
std::vector<ContractFunction> parse_contract(const std::string& nm_output, const std::string& name_space);

// The verdict side: a definition of each contract function that forwards to the worker.
std::string client_source(const std::vector<ContractFunction>& functions, const std::string& header);
// The worker side: the table serve_forever() dispatches on, same ids.
std::string dispatch_source(const std::vector<ContractFunction>& functions, const std::string& header);

struct ContractOptions {
  std::string name_space;
  std::string header;  // include path of the assignment's umbrella header
  std::string nm = "nm";
  std::vector<std::filesystem::path> objects;
  std::filesystem::path client_out;
  std::filesystem::path dispatch_out;
};

// Runs nm on the objects and writes both sources (only when they change, so
// builds stay incremental). Returns the exit code for `rooflab contract`.
int run_contract(const ContractOptions& options);

}  // namespace rooflab
