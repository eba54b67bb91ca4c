// rooflab: the course's one command line. `./lab` installs packages and builds;
// every other command it hands to this program, so there is one parser and one
// help text (`rooflab --help`, `rooflab COMMAND --help`). A student build has
// the commands that run on the student's own code (analyze, bench, generate, train);
// the reference build adds the instructor's (ROOFLAB_INSTRUCTOR_TOOLS).
#include <iostream>
#include <string>

#include "commands.hpp"

int main(int argc, char** argv) {
#if ROOFLAB_INSTRUCTOR_TOOLS
  CLI::App app{"rooflab: grade submissions, release the student template, and the course's tools"};
#else
  CLI::App app{std::string("rooflab: the course's tools, run on ") + rooflab::cli::kWhoseCode};
#endif
  app.require_subcommand(1);
  int exit_code = 0;
#if ROOFLAB_INSTRUCTOR_TOOLS
  rooflab::cli::add_grade(app, exit_code);
  rooflab::cli::add_grade_all(app, exit_code);
  rooflab::cli::add_release(app, exit_code);
  rooflab::cli::add_export_student(app, exit_code);
#endif
  rooflab::cli::add_analyze(app, exit_code);
#if ROOFLAB_INSTRUCTOR_TOOLS
  rooflab::cli::add_docs(app, exit_code);
  rooflab::cli::add_plots(app, exit_code);
#endif
  CLI::App& bench = rooflab::cli::add_bench(app, exit_code);
#if ROOFLAB_INSTRUCTOR_TOOLS
  rooflab::cli::add_bench_grade(bench, exit_code);
#else
  (void)bench;
#endif
  rooflab::cli::add_generate(app, exit_code);
  rooflab::cli::add_train(app, exit_code);
#if ROOFLAB_INSTRUCTOR_TOOLS
  rooflab::cli::add_contract(app, exit_code);
#endif
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
