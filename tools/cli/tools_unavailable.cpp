// The course's tools in a student repository that holds some labs only (lab
// export-student --assignment): analyze, bench, generate and train run the
// labs a01–a04, a06 and a07, so each says which of them this repository lacks
// instead of running (tools/CMakeLists.txt builds this file in their place).
#include <iostream>
#include <string>

#include "commands.hpp"

namespace rooflab::cli {
namespace {

void add_unavailable(CLI::App& app, const std::string& name, int& exit_code) {
  CLI::App* command = app.add_subcommand(name, "not in this repository: it runs labs this repository does not hold (" +
                                                   std::string(ROOFLAB_MISSING_LABS) + ")");
  command->allow_extras();
  command->callback([name, &exit_code] {
    std::cerr << "rooflab " << name << ": this repository holds only the labs your course exported, and `" << name
              << "` runs labs it does not hold (" << ROOFLAB_MISSING_LABS
              << "). Each lab's own programs are here: ./lab example LAB, ./lab profile LAB.\n";
    exit_code = 2;
  });
}

}  // namespace

void add_analyze(CLI::App& app, int& exit_code) { add_unavailable(app, "analyze", exit_code); }
CLI::App& add_bench(CLI::App& app, int& exit_code) {
  add_unavailable(app, "bench", exit_code);
  return *app.get_subcommand("bench");
}
void add_generate(CLI::App& app, int& exit_code) { add_unavailable(app, "generate", exit_code); }
void add_train(CLI::App& app, int& exit_code) { add_unavailable(app, "train", exit_code); }

}  // namespace rooflab::cli
