#include "plots/curve_plots.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

#include "os/process.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t kCaptionCap = 600;

bool parse_number(const std::string& text, double& value) {
  const char* end = text.data() + text.size();
  const auto [ptr, error] = std::from_chars(text.data(), end, value);
  return error == std::errc() && ptr == end && std::isfinite(value);
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream stream(line);
  for (std::string field; std::getline(stream, field, ',');) fields.push_back(field);
  if (!line.empty() && line.back() == ',') fields.emplace_back();  // an empty last field (no target)
  return fields;
}

// Figure and series names go into the gnuplot script and file names: only [a-z0-9_].
bool plain_name(const std::string& name) {
  return !name.empty() && name.size() <= 40 && std::all_of(name.begin(), name.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);  // a submission's bytes may be above 127
    return std::islower(byte) || std::isdigit(byte) || c == '_';
  });
}

// Labels and titles (the reference's) go between single quotes in the gnuplot
// script: no quote, backslash or control character gets there.
bool plain_label(const std::string& label) {
  static const std::string kPunctuation = " %()[].,:;/+-=<>_";
  return label.size() <= 120 && std::all_of(label.begin(), label.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || kPunctuation.find(c) != std::string::npos;
         });
}

std::string number(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

std::vector<std::string> series_of(const std::vector<CurvePoint>& points, const std::string& figure) {
  std::vector<std::string> series;
  for (const CurvePoint& point : points)
    if (point.figure == figure && std::find(series.begin(), series.end(), point.series) == series.end())
      series.push_back(point.series);
  return series;
}

// One series' points, in order of x (the curve is drawn and read that way).
std::vector<CurvePoint> curve(const std::vector<CurvePoint>& points, const std::string& figure,
                              const std::string& series) {
  std::vector<CurvePoint> selected;
  for (const CurvePoint& point : points)
    if (point.figure == figure && point.series == series) selected.push_back(point);
  std::stable_sort(selected.begin(), selected.end(),
                   [](const CurvePoint& a, const CurvePoint& b) { return a.x < b.x; });
  return selected;
}

std::optional<double> first_reaching(const std::vector<CurvePoint>& points, double target) {
  for (const CurvePoint& point : points)
    if (point.y >= target) return point.x;
  return std::nullopt;
}

// "90 %" from a target of 90 and a y label that ends in "(%)".
std::string threshold_text(const CurveFigure& figure) {
  std::string text = number(*figure.target);
  const auto open = figure.y_label.rfind('(');
  if (open != std::string::npos && !figure.y_label.empty() && figure.y_label.back() == ')')
    text += " " + figure.y_label.substr(open + 1, figure.y_label.size() - open - 2);
  return text;
}

// The submission's points on the reference's figures and series, at most
// kMaxPointsPerSeries each; the others are counted in `dropped`.
std::vector<CurvePoint> known_points(const std::vector<CurvePoint>& submission,
                                     const std::vector<CurvePoint>& reference, std::size_t& dropped) {
  std::map<std::pair<std::string, std::string>, std::size_t> kept;
  for (const CurvePoint& point : reference) kept[{point.figure, point.series}] = 0;
  std::vector<CurvePoint> known;
  for (const CurvePoint& point : submission) {
    const auto found = kept.find({point.figure, point.series});
    if (found == kept.end() || found->second == kMaxPointsPerSeries) {
      ++dropped;
      continue;
    }
    ++found->second;
    known.push_back(point);
  }
  return known;
}

std::string series_plot(const std::string& csv, const std::string& source, const std::string& figure,
                        const std::string& series, int colour, const std::string& style, const std::string& title) {
  return "'" + csv + "' using (strcol(1) eq '" + source + "' && strcol(2) eq '" + figure + "' && strcol(3) eq '" +
         series + "' ? $4 : NaN):5 with " + style + " lc " + std::to_string(colour) + " title '" + title + "'";
}

std::string gnuplot_script(const std::string& assignment, const CurveFigure& figure,
                           const std::vector<CurvePoint>& submission, const std::vector<CurvePoint>& reference,
                           const fs::path& csv, const fs::path& png) {
  std::vector<CurvePoint> drawn;
  for (const auto* points : {&submission, &reference})
    for (const CurvePoint& point : *points)
      if (point.figure == figure.name) drawn.push_back(point);
  const auto [low, high] = std::minmax_element(drawn.begin(), drawn.end(),
                                               [](const CurvePoint& a, const CurvePoint& b) { return a.x < b.x; });
  const bool whole_x =
      std::all_of(drawn.begin(), drawn.end(), [](const CurvePoint& p) { return p.x == std::round(p.x); });
  const bool positive_y = std::all_of(drawn.begin(), drawn.end(), [](const CurvePoint& p) { return p.y >= 0; });
  std::ostringstream script;
  script << "set terminal pngcairo size 900,560 noenhanced font ',10'\n"
         << "set output '" << png.string() << "'\n"
         << "set datafile separator ','\nset grid\nset key outside right top\n"
         // The data's own range and a margin, not the next tic: an accuracy axis ends near 100.
         << "set autoscale xfix\nset autoscale yfixmax\nset offsets graph 0.06, graph 0.06, graph 0.06, 0\n"
         << (positive_y ? "set yrange [0:*]\n" : "") << (whole_x && high->x - low->x <= 12 ? "set xtics 1\n" : "")
         << "set xlabel '" << figure.x_label << "'\n"
         << "set ylabel '" << figure.y_label << "'\n"
         << "set title '" << assignment << ": " << figure.title << "'\n";
  std::vector<std::string> plots;
  int colour = 1;
  for (const std::string& series : series_of(reference, figure.name)) {
    if (!curve(submission, figure.name, series).empty())
      plots.push_back(series_plot(csv.string(), "submission", figure.name, series, colour, "linespoints lw 2 pt 7",
                                  series + " (submission)"));
    plots.push_back(series_plot(csv.string(), "reference", figure.name, series, colour, "linespoints dt 2 pt 6",
                                series + " (reference)"));
    ++colour;
  }
  if (figure.target)
    plots.push_back(number(*figure.target) + " with lines dt 4 lw 1 lc rgb '#808080' title '" + threshold_text(figure) +
                    "'");
  script << "plot ";
  for (std::size_t i = 0; i < plots.size(); ++i) script << (i ? ", \\\n     " : "") << plots[i];
  script << "\n";
  return script.str();
}

}  // namespace

bool is_curve_row(const std::string& line) {
  return text::starts_with(line, "figure,") || text::starts_with(line, "point,");
}

std::vector<CurveFigure> parse_curve_figures(const std::string& output, std::vector<std::string>& refused) {
  std::vector<CurveFigure> figures;
  for (const std::string& raw : text::split_lines(output)) {
    const std::string line = text::trim(raw);
    if (!text::starts_with(line, "figure,")) continue;
    const auto fields = split(line);
    CurveFigure figure;
    double target = 0;
    bool ok = fields.size() >= 6 && plain_name(fields[1]) && plain_label(fields[2]) && plain_label(fields[3]) &&
              (fields[4].empty() || parse_number(fields[4], target));
    if (ok) {
      figure.name = fields[1];
      figure.x_label = fields[2];
      figure.y_label = fields[3];
      if (!fields[4].empty()) figure.target = target;
      for (std::size_t i = 5; i < fields.size(); ++i) figure.title += (i > 5 ? "," : "") + fields[i];
      ok = plain_label(figure.title) &&
           std::none_of(figures.begin(), figures.end(), [&](const CurveFigure& f) { return f.name == figure.name; });
    }
    if (ok)
      figures.push_back(figure);
    else
      refused.push_back(text::truncate(line, 300));
  }
  return figures;
}

std::vector<CurvePoint> parse_curve_points(const std::string& output, std::size_t& refused) {
  std::vector<CurvePoint> points;
  for (const std::string& raw : text::split_lines(output)) {
    const std::string line = text::trim(raw);
    if (!text::starts_with(line, "point,")) continue;
    const auto fields = split(line);
    CurvePoint point;
    if (fields.size() == 5 && plain_name(fields[1]) && plain_name(fields[2]) && parse_number(fields[3], point.x) &&
        parse_number(fields[4], point.y)) {
      point.figure = fields[1];
      point.series = fields[2];
      points.push_back(point);
    } else {
      ++refused;
    }
  }
  return points;
}

std::string curve_caption(const std::string& assignment, const CurveFigure& figure,
                          const std::vector<CurvePoint>& submission, const std::vector<CurvePoint>& reference) {
  std::string caption = assignment + ": " + figure.title;
  if (!figure.target) return caption;
  const std::string threshold = threshold_text(figure);
  const std::vector<std::string> series = series_of(reference, figure.name);
  const auto at = [&](const std::vector<CurvePoint>& points, const std::string& name) -> std::string {
    const std::vector<CurvePoint> points_of = curve(points, figure.name, name);
    if (points_of.empty()) return "no data";
    const auto x = first_reaching(points_of, *figure.target);
    return x ? number(*x) : "never";
  };
  if (series.size() == 1) {
    const std::string theirs = at(reference, series[0]), yours = at(submission, series[0]);
    caption += theirs == "never" ? "; the reference never reaches " + threshold
                                 : "; the reference reaches " + threshold + " at " + figure.x_label + " " + theirs;
    caption += yours == "no data" ? ", yours drew no points"
               : yours == "never" ? ", yours never does"
                                  : ", yours at " + figure.x_label + " " + yours;
  } else {
    caption += "; " + figure.x_label + " at which each reaches " + threshold + ", the reference's and yours:";
    for (std::size_t i = 0; i < series.size(); ++i)
      caption += (i ? ", " : " ") + series[i] + " " + at(reference, series[i]) + " and " + at(submission, series[i]);
  }
  return text::truncate(caption, kCaptionCap);
}

CurveFigures render_curve_figures(const std::string& assignment, const std::string& submission_output,
                                  const std::string& reference_output, const fs::path& report_dir,
                                  const fs::path& scratch) {
  CurveFigures result;
  std::vector<std::string> refused_figures;
  const std::vector<CurveFigure> figures = parse_curve_figures(reference_output, refused_figures);
  for (const std::string& line : refused_figures)
    result.notes.push_back("the reference profile declared a figure that cannot be drawn: " + line);
  if (figures.empty()) return result;  // a profile without curves
  std::size_t ignored = 0, dropped = 0;
  const std::vector<CurvePoint> reference = parse_curve_points(reference_output, ignored);
  const std::vector<CurvePoint> submission =
      known_points(parse_curve_points(submission_output, dropped), reference, dropped);
  if (dropped > 0)
    result.notes.push_back(std::to_string(dropped) +
                           " of your profile's point rows were not drawn: a name or number that does not parse, a "
                           "series the reference does not draw, or more than " +
                           std::to_string(kMaxPointsPerSeries) + " points in one series");
  if (submission.empty())
    result.notes.push_back("your profile reported no points: only the reference's curves are drawn");

  // One series after another (a source's points of one series together, in
  // order of x): gnuplot breaks a line at every row of another series.
  result.csv = fs::path("plots") / (assignment + "_curves.csv");
  std::ostringstream csv;
  csv << "source,figure,series,x,y\n";
  for (const CurveFigure& figure : figures)
    for (const auto& [source, points] : {std::pair{"submission", &submission}, std::pair{"reference", &reference}})
      for (const std::string& series : series_of(reference, figure.name))
        for (const CurvePoint& point : curve(*points, figure.name, series))
          csv << source << "," << figure.name << "," << series << "," << number(point.x) << "," << number(point.y)
              << "\n";
  text::write_file(report_dir / result.csv, csv.str());

  for (const CurveFigure& figure : figures) {
    if (series_of(reference, figure.name).empty()) {
      result.notes.push_back("the reference profile drew no points on " + figure.name + ": no figure");
      continue;
    }
    if (!submission.empty() && series_of(submission, figure.name).empty())
      result.notes.push_back("your profile reported no points on " + figure.name + ": only the reference is drawn");
    const fs::path image = fs::path("plots") / (assignment + "_" + figure.name + ".png");
    const fs::path script = scratch / (assignment + "_" + figure.name + ".gp");
    text::write_file(script, gnuplot_script(assignment, figure, submission, reference,
                                            fs::absolute(report_dir / result.csv), fs::absolute(report_dir / image)));
    ProcessResult drawn;
    try {
      drawn = run_process({"gnuplot", script.string()}, scratch, scratch / "gnuplot-curves.log",
                          ProcessLimits::timeout(60));
    } catch (const std::exception& error) {
      result.notes.push_back(std::string("gnuplot could not run (") + error.what() + "): no figures, data in " +
                             result.csv.string());
      return result;
    }
    if (!drawn.signaled && !drawn.timed_out && drawn.exit_code == 127) {
      result.notes.push_back("gnuplot is not installed (Debian package gnuplot-nox): no figures; the data is in " +
                             result.csv.string());
      return result;
    }
    if (!drawn.succeeded() || !fs::exists(report_dir / image)) {
      result.notes.push_back("gnuplot failed (" + drawn.describe(60) + "): " + text::truncate(drawn.output, 500));
      continue;
    }
    result.images.push_back(image);
    result.captions[image] = curve_caption(assignment, figure, submission, reference);
  }
  return result;
}

}  // namespace rooflab
