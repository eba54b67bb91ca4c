// main() of every assignment's worker: `<assignment>_worker FD` serves the
// generated dispatch table on file descriptor FD, which the grader opened.
#include <cstdlib>
#include <iostream>
#include <string>

#include "rooflab/rpc.hpp"

// Defined by the generated <assignment>_rpc_dispatch.cpp.
extern const rooflab::rpc::Entry rooflab_rpc_table[];
extern const std::size_t rooflab_rpc_table_size;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " FD (started by `rooflab grade`, not by hand)\n";
    return 2;
  }
  return rooflab::rpc::serve_forever(std::atoi(argv[1]), rooflab_rpc_table, rooflab_rpc_table_size,
                                     rooflab::rpc::encode_worker_report);
}
