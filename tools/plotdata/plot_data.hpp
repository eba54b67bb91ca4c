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

// Writes every registered file into `dir` (`write`), or checks that `dir`
// holds them unchanged, naming each stale file (returns 1). Prints what it did.
int update_plot_data(const std::filesystem::path& dir, bool write);

}  // namespace rooflab::plots
