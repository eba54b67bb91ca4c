// rooflab: the course's one command line. `./lab` installs packages and builds
// the reference; every other command it hands to this program, so there is
// one parser and one help text (`rooflab --help`, `rooflab COMMAND --help`).
#include <iostream>

#include "commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"rooflab: grade submissions, release the student template, and the course's tools"};
  app.require_subcommand(1);
  int exit_code = 0;
  rooflab::cli::add_grade(app, exit_code);
  rooflab::cli::add_release(app, exit_code);
  rooflab::cli::add_analyze(app, exit_code);
  rooflab::cli::add_docs(app, exit_code);
  rooflab::cli::add_plots(app, exit_code);
  rooflab::cli::add_bench(app, exit_code);
  rooflab::cli::add_generate(app, exit_code);
  rooflab::cli::add_contract(app, exit_code);
  try {
    app.parse(argc, argv);  // runs the chosen subcommand's callback
  } catch (const CLI::ParseError& error) {
    return app.exit(error);
  } catch (const std::exception& error) {
    const auto chosen = app.get_subcommands();
    std::cerr << "rooflab" << (chosen.empty() ? "" : " " + chosen.front()->get_name()) << ": " << error.what() << "\n";
    return 2;
  }
  return exit_code;
}
