// Step 7 of grading: the scaling plots. An assignment with a PROFILE program
// (course_add_assignment) has it run twice, built with the submission and built
// with the reference; this file turns the two CSV outputs into figures of peak
// memory vs N and time vs N, with the reference's estimate as the theory curve,
// and of GB/s vs N for profiles that report the bytes they read.
//
// The submission's run executes student code, which could print anything: its
// rows are only drawn for methods the reference also reports, its numbers are
// parsed as numbers, and nothing here is scored.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace rooflab {

// One line of a profile's CSV: method,seq_len,seconds,peak_bytes,estimated_bytes
// and, optionally, bytes_read: the bytes the call reads, for profiles of
// memory-bound work (a06's decode), whose report then adds a GB/s figure.
struct ProfileRow {
  std::string method;
  long long seq_len = 0;
  double seconds = 0;
  double peak_bytes = 0;
  double estimated_bytes = 0;
  double bytes_read = 0;
};

// The rows of a profile's output (stdout and stderr interleaved); any other
// non-empty line (a message on stderr) is appended to `messages`.
std::vector<ProfileRow> parse_profile(const std::string& output, std::vector<std::string>& messages);

struct ScalingFigures {
  std::filesystem::path csv;                  // both runs, one row per point, relative to the report folder
  std::vector<std::filesystem::path> images;  // PNGs, relative to the report folder
  std::vector<std::string> notes;             // what could not be drawn, and why
};

// Writes <report_dir>/plots/<assignment>.csv and, when gnuplot is installed,
// <assignment>_memory.png and <assignment>_time.png (log–log), and
// <assignment>_throughput.png (GB/s = bytes_read / seconds) where the
// reference's rows carry bytes_read.
ScalingFigures render_scaling_plots(const std::string& assignment, const std::vector<ProfileRow>& submission,
                                    const std::vector<ProfileRow>& reference, const std::filesystem::path& report_dir,
                                    const std::filesystem::path& scratch);

}  // namespace rooflab
