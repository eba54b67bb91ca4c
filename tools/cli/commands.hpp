// The subcommands of `rooflab`, one file each. Every add_* registers its
// subcommand on `app`; when parsing selects it, its callback runs the command
// and stores the process's exit code in `exit_code`.
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <string>

#include "rooflab/build_paths.hpp"

namespace rooflab::cli {

// Where this build's defaults point: the repository and this build, and whose
// code the tools run (rooflab/build_paths.hpp).
inline const std::filesystem::path kSourceDir = build_paths::source_dir();
inline const std::filesystem::path kBinaryDir = build_paths::binary_dir();
inline const char* const kWhoseCode = build_paths::whose_code();

// "machine: 2 cores, 23 GiB, 2026-11-23": the line every benchmark starts with.
std::string machine_line();  // bench.cpp

// In every build: the tools that run the course tree's code.
void add_analyze(CLI::App& app, int& exit_code);     // analyze.cpp
CLI::App& add_bench(CLI::App& app, int& exit_code);  // bench.cpp; returns `bench` for more subcommands
void add_generate(CLI::App& app, int& exit_code);    // generate.cpp
void add_train(CLI::App& app, int& exit_code);       // train.cpp

// The reference build only (ROOFLAB_INSTRUCTOR_TOOLS).

void add_grade(CLI::App& app, int& exit_code);           // grade.cpp
void add_grade_all(CLI::App& app, int& exit_code);       // grade_all.cpp
void add_release(CLI::App& app, int& exit_code);         // release.cpp
void add_export_student(CLI::App& app, int& exit_code);  // export_student.cpp
void add_contract(CLI::App& app, int& exit_code);        // contract.cpp (run by the build)
void add_docs(CLI::App& app, int& exit_code);            // docs.cpp
void add_plots(CLI::App& app, int& exit_code);           // plots.cpp
void add_bench_grade(CLI::App& bench, int& exit_code);   // bench_grade.cpp: `bench grade`

}  // namespace rooflab::cli
