// `rooflab release [--check]`: regenerate assignments/ from solutions/.
#include "commands.hpp"
#include "release/release_command.hpp"

namespace rooflab::cli {

void add_release(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ReleaseOptions>();
  options->solutions = kSourceDir / "solutions";
  options->assignments = kSourceDir / "assignments";
  auto compile_commands = std::make_shared<std::filesystem::path>(kBinaryDir / "compile_commands.json");
  CLI::App* command = app.add_subcommand("release", "Regenerate assignments/ (the student template) from solutions/");
  command->add_option("--solutions", options->solutions, "solutions/ folder (default: this repository's)")
      ->check(CLI::ExistingDirectory);
  command->add_option("--assignments", options->assignments,
                      "assignments/ folder to write (default: this repository's)");
  command
      ->add_option("--compile-commands", *compile_commands,
                   "compile_commands.json of a solutions build: every stub compiles before anything is written "
                   "(default: this build's)")
      ->check(CLI::ExistingFile);
  command->add_flag("--check", options->check, "Only check that assignments/ is current; exit 1 naming what is stale");
  command->callback([options, compile_commands, &exit_code] {
    ReleaseOptions chosen = *options;
    if (!chosen.check) chosen.compile_commands = *compile_commands;
    exit_code = run_release(chosen);
  });
}

}  // namespace rooflab::cli
