// The data behind the course's figures, computed by the reference solutions:
// file name → CSV text. Each assignment's literate/*.gp renders them (plots/render.sh).
#pragma once

#include <filesystem>
#include <map>
#include <string>

namespace rooflab::plots {

using Files = std::map<std::string, std::string>;

// Every assignment's literate/plot_data.cpp, in course order (generated:
// cmake/course_literate.cmake). Each adds its figures' files.
void add_registered(Files& files);

// Files whose numbers come out of training (a07's): every step's float sums
// are ordered by the machine's vector width (the build is -march=native), and
// the differences grow over hundreds of steps, so an AVX2 and an AVX-512
// machine print different last digits. The check holds such a file to the
// reference cell by cell: text cells equal, numbers within `relative` of the
// larger of the two or within `absolute`. A plot_data.cpp declares its own.
struct Tolerance {
  double relative = 0, absolute = 0;
};
std::map<std::string, Tolerance>& machine_dependent_files();

// Writes every registered file into `dir` (`write`), or checks that `dir`
// holds them unchanged, naming each stale file (returns 1). Prints what it did.
int update_plot_data(const std::filesystem::path& dir, bool write);

}  // namespace rooflab::plots
