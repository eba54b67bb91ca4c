// The subcommands of `rooflab`, one file each. Every add_* registers its
// subcommand on `app`; when parsing selects it, its callback runs the command
// and stores the process's exit code in `exit_code`.
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>

namespace rooflab::cli {

// Where this build's defaults point: the repository and the reference build
// (compiled in by tools/CMakeLists.txt).
inline const std::filesystem::path kSourceDir = ROOFLAB_SOURCE_DIR;
inline const std::filesystem::path kBinaryDir = ROOFLAB_BINARY_DIR;

void add_grade(CLI::App& app, int& exit_code);     // grade.cpp
void add_release(CLI::App& app, int& exit_code);   // release.cpp
void add_contract(CLI::App& app, int& exit_code);  // contract.cpp (run by the build)
void add_analyze(CLI::App& app, int& exit_code);   // analyze.cpp
void add_docs(CLI::App& app, int& exit_code);      // docs.cpp
void add_plots(CLI::App& app, int& exit_code);     // plots.cpp
void add_bench(CLI::App& app, int& exit_code);     // bench.cpp
void add_generate(CLI::App& app, int& exit_code);  // generate.cpp

}  // namespace rooflab::cli
