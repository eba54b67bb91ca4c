#pragma once
// The registers per thread nvcc gives each kernel, read from what ptxas prints
// with `nvcc --resource-usage` ("Compiling entry function '<mangled>'" then
// "Used N registers"): what `lab profile` hands the GPU model for a student's
// own kernels where nvcc is installed, instead of the reference's count.
#include <map>
#include <string>
#include <vector>

namespace rooflab::kernels {

struct PtxasKernel {
  std::string name;                          // the kernel's own name, no namespace: "flash_forward_mma_sync"
  std::vector<long long> integer_arguments;  // its template's integer arguments: {128} for <__half, 128>
  int registers = 0;
};

// Every entry function in `ptxas_output`, in the order ptxas compiled them.
// Lines that are not ptxas's are ignored; an entry without a "Used N
// registers" line is left out.
std::vector<PtxasKernel> parse_ptxas_registers(const std::string& ptxas_output);

// The kernel's name and integer template arguments of an Itanium-mangled
// entry (what nvcc and g++ both produce), demangled; false when it is not one.
bool kernel_of_mangled_name(const std::string& mangled, std::string& name, std::vector<long long>& integer_arguments);

// Registers by kernel name for the instances at `head_dim`: a kernel that is
// not a template on integers counts at every d; of a name's several
// instances at d (one per element type), the most registers.
std::map<std::string, int> registers_at(const std::vector<PtxasKernel>& kernels, long long head_dim);

}  // namespace rooflab::kernels
