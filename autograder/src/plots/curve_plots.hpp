// The plots stage's curve figures: a profile that measures something other
// than time and memory at growing N (a07's held-out accuracy against the
// number of layers) declares its own figures and prints their points:
//
//   figure,<name>,<x label>,<y label>,<target y, or empty>,<title>
//   point,<figure>,<series>,<x>,<y>
//
// Each figure becomes <assignment>_<name>.png, the submission's curves beside
// the reference's, with the target as a horizontal line, and a one-line caption
// that says at which x each series first reaches the target.
//
// Only the reference's output declares figures: their labels and titles are the
// course's text. The submission's points come from student code: only figures
// and series the reference reports are drawn, names must be plain
// ([a-z0-9_], at most 40 bytes), numbers finite, and each series keeps at most
// kMaxPointsPerSeries points. Nothing here is scored.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rooflab {

inline constexpr std::size_t kMaxPointsPerSeries = 1000;

struct CurveFigure {
  std::string name, x_label, y_label, title;
  std::optional<double> target;  // a horizontal line, and the caption's threshold
};

struct CurvePoint {
  std::string figure, series;
  double x = 0, y = 0;
};

// Whether a profile's line is a curve row (a figure or a point), which the
// scaling rows' parser leaves to this file.
bool is_curve_row(const std::string& line);

// The figures a (reference) profile declares, in order. A declaration whose
// name or labels do not parse is appended to `refused`.
std::vector<CurveFigure> parse_curve_figures(const std::string& output, std::vector<std::string>& refused);

// The point rows of a profile's output; a point row that does not parse is
// counted in `refused`.
std::vector<CurvePoint> parse_curve_points(const std::string& output, std::size_t& refused);

// The line under a figure: its title and, where it declares a target, the
// first x at which each of the reference's series reaches it, the reference's
// and the submission's ("never", or "no data" where a source drew no point).
std::string curve_caption(const std::string& assignment, const CurveFigure& figure,
                          const std::vector<CurvePoint>& submission, const std::vector<CurvePoint>& reference);

struct CurveFigures {
  std::filesystem::path csv;                              // empty when the reference declares no figure
  std::vector<std::filesystem::path> images;              // relative to the report folder
  std::map<std::filesystem::path, std::string> captions;  // one line per image
  std::vector<std::string> notes;
};

// Writes <report_dir>/plots/<assignment>_curves.csv (source,figure,series,x,y)
// and, when gnuplot is installed, one PNG per declared figure.
CurveFigures render_curve_figures(const std::string& assignment, const std::string& submission_output,
                                  const std::string& reference_output, const std::filesystem::path& report_dir,
                                  const std::filesystem::path& scratch);

}  // namespace rooflab
