// `rooflab contract`: the build runs it to generate an assignment's RPC client
// and worker dispatch from the reference's objects (cmake/course_rpc.cmake).
#include "release/contract.hpp"
#include "commands.hpp"

namespace rooflab::cli {

void add_contract(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ContractOptions>();
  CLI::App* command =
      app.add_subcommand("contract", "Generate an assignment's RPC client and worker dispatch (the build runs it)");
  command->group("Build steps");  // listed apart from the commands people type
  command->add_option("--namespace", options->name_space, "the assignment's namespace")->required();
  command->add_option("--header", options->header, "include path of its umbrella header")->required();
  command->add_option("--nm", options->nm, "nm executable");
  command->add_option("--client", options->client_out, "verdict-side source to write")->required();
  command->add_option("--dispatch", options->dispatch_out, "worker-side source to write")->required();
  command->add_option("objects", options->objects, "the reference's student object files")
      ->required()
      ->check(CLI::ExistingFile);
  command->callback([options, &exit_code] { exit_code = run_contract(*options); });
}

}  // namespace rooflab::cli
