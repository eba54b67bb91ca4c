#include "plots/scaling_plots.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <sstream>

#include "os/process.hpp"
#include "plots/curve_plots.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace fs = std::filesystem;
namespace {

bool parse_number(const std::string& text, double& value) {
  const char* end = text.data() + text.size();
  const auto [ptr, error] = std::from_chars(text.data(), end, value);
  return error == std::errc() && ptr == end && std::isfinite(value);
}

std::vector<std::string> split(const std::string& line, char separator) {
  std::vector<std::string> fields;
  std::stringstream stream(line);
  for (std::string field; std::getline(stream, field, separator);) fields.push_back(field);
  return fields;
}

// Method names go into the gnuplot script: only [a-z0-9_] gets there.
bool plain_name(const std::string& name) {
  return !name.empty() && name.size() <= 40 &&
         std::all_of(name.begin(), name.end(), [](char c) { return std::islower(c) || std::isdigit(c) || c == '_'; });
}

std::vector<std::string> methods_of(const std::vector<ProfileRow>& rows) {
  std::vector<std::string> methods;
  for (const auto& row : rows)
    if (std::find(methods.begin(), methods.end(), row.method) == methods.end()) methods.push_back(row.method);
  return methods;
}

bool has(const std::vector<ProfileRow>& rows, const std::string& method) {
  return std::any_of(rows.begin(), rows.end(), [&](const ProfileRow& row) { return row.method == method; });
}

// The plot command's series for one column (y) of one source and method.
std::string series(const std::string& csv, const std::string& source, const std::string& method, const std::string& y,
                   int colour, const std::string& style, const std::string& title) {
  return "'" + csv + "' using (strcol(1) eq '" + source + "' && strcol(2) eq '" + method + "' ? $3 : NaN):(" + y +
         ") with " + style + " lc " + std::to_string(colour) + " title '" + title + "'";
}

enum class Figure { memory, time, throughput };

struct FigureKind {
  const char* suffix;  // of the PNG and the script
  const char* ylabel;
  const char* title;
  const char* y;  // gnuplot's expression over the CSV's columns
  bool logscale_y;
};

FigureKind kind_of(Figure figure) {
  switch (figure) {
    case Figure::memory:
      return {"memory", "peak extra heap (MiB)", "peak memory", "$5/1048576", true};
    case Figure::time:
      return {"time", "wall time (ms)", "time", "$4*1000", true};
    case Figure::throughput:
      return {"throughput", "GB/s (bytes read / time)", "throughput", "($7 > 0 ? $7/$4/1e9 : NaN)", false};
  }
  return {"", "", "", "", true};
}

std::string gnuplot_script(const std::string& assignment, const std::vector<ProfileRow>& submission,
                           const std::vector<ProfileRow>& reference, const fs::path& csv, const fs::path& png,
                           Figure figure) {
  const FigureKind kind = kind_of(figure);
  std::ostringstream script;
  script << "set terminal pngcairo size 900,560 noenhanced font ',10'\n"
         << "set output '" << png.string() << "'\n"
         << "set datafile separator ','\nset logscale x 2\n"
         << (kind.logscale_y ? "set logscale y 2\n" : "set yrange [0:*]\n") << "set grid\nset key top left\n"
         << "set format y '%g'\nset xlabel 'sequence length N (shapes: see the profile program)'\n"
         << "set ylabel '" << kind.ylabel << "'\n"
         << "set title '" << assignment << ": " << kind.title << " vs N'\n";
  std::vector<std::string> plots;
  int colour = 1;
  for (const std::string& method : methods_of(reference)) {
    if (has(submission, method))
      plots.push_back(series(csv.string(), "submission", method, kind.y, colour, "linespoints lw 2 pt 7",
                             method + " (submission)"));
    plots.push_back(
        series(csv.string(), "reference", method, kind.y, colour, "linespoints dt 2 pt 6", method + " (reference)"));
    if (figure == Figure::memory)
      plots.push_back(
          series(csv.string(), "reference", method, "$6/1048576", colour, "lines dt 3 lw 1", method + " (theory)"));
    ++colour;
  }
  script << "plot ";
  for (std::size_t i = 0; i < plots.size(); ++i) script << (i ? ", \\\n     " : "") << plots[i];
  script << "\n";
  return script.str();
}

}  // namespace

std::vector<ProfileRow> parse_profile(const std::string& output, std::vector<std::string>& messages) {
  std::vector<ProfileRow> rows;
  for (const std::string& raw : text::split_lines(output)) {
    const std::string line = text::trim(raw);
    if (line.empty() || line == "method,seq_len,seconds,peak_bytes,estimated_bytes" ||
        line == "method,seq_len,seconds,peak_bytes,estimated_bytes,bytes_read" || text::starts_with(line, "kernel,") ||
        is_curve_row(line))
      continue;  // kernel rows are plots/kernel_plots.hpp's, figure and point rows plots/curve_plots.hpp's
    const auto fields = split(line, ',');
    ProfileRow row;
    double seq_len = 0;
    if ((fields.size() == 5 || fields.size() == 6) && plain_name(fields[0]) && parse_number(fields[1], seq_len) &&
        seq_len >= 1 && parse_number(fields[2], row.seconds) && parse_number(fields[3], row.peak_bytes) &&
        parse_number(fields[4], row.estimated_bytes) &&
        (fields.size() == 5 || (parse_number(fields[5], row.bytes_read) && row.bytes_read >= 0))) {
      row.method = fields[0];
      row.seq_len = static_cast<long long>(seq_len);
      rows.push_back(row);
    } else {
      messages.push_back(text::truncate(line, 300));
    }
  }
  return rows;
}

ScalingFigures render_scaling_plots(const std::string& assignment, const std::vector<ProfileRow>& submission,
                                    const std::vector<ProfileRow>& reference, const fs::path& report_dir,
                                    const fs::path& scratch) {
  ScalingFigures figures;
  figures.csv = fs::path("plots") / (assignment + ".csv");
  std::ostringstream csv;
  csv << "source,method,seq_len,seconds,peak_bytes,estimated_bytes,bytes_read\n";
  const std::vector<std::string> known = methods_of(reference);
  // One series after another (a source's rows of one method together): gnuplot
  // breaks a line at every row of another series.
  for (const auto& [source, rows] : {std::pair{"submission", &submission}, std::pair{"reference", &reference}})
    for (const std::string& method : known)
      for (const ProfileRow& row : *rows)
        if (row.method == method)
          csv << source << "," << row.method << "," << row.seq_len << "," << row.seconds << "," << row.peak_bytes << ","
              << row.estimated_bytes << "," << row.bytes_read << "\n";
  text::write_file(report_dir / figures.csv, csv.str());

  if (reference.empty()) {
    figures.notes.push_back("the reference profile printed no rows: no plots");
    return figures;
  }
  std::vector<Figure> wanted{Figure::memory, Figure::time};
  if (std::any_of(reference.begin(), reference.end(), [](const ProfileRow& row) { return row.bytes_read > 0; }))
    wanted.push_back(Figure::throughput);
  for (const Figure figure : wanted) {
    const std::string suffix = kind_of(figure).suffix;
    const fs::path image = fs::path("plots") / (assignment + "_" + suffix + ".png");
    const fs::path script = scratch / (assignment + "_" + suffix + ".gp");
    text::write_file(script, gnuplot_script(assignment, submission, reference, fs::absolute(report_dir / figures.csv),
                                            fs::absolute(report_dir / image), figure));
    ProcessResult drawn;
    try {
      drawn = run_process({"gnuplot", script.string()}, scratch, scratch / "gnuplot.log", ProcessLimits::timeout(60));
    } catch (const std::exception& error) {
      figures.notes.push_back(std::string("gnuplot could not run (") + error.what() + "): no plots, data in " +
                              figures.csv.string());
      return figures;
    }
    if (!drawn.signaled && !drawn.timed_out && drawn.exit_code == 127) {
      figures.notes.push_back("gnuplot is not installed (Debian package gnuplot-nox): no plots; the data is in " +
                              figures.csv.string());
      return figures;
    }
    if (!drawn.succeeded() || !fs::exists(report_dir / image)) {
      figures.notes.push_back("gnuplot failed (" + drawn.describe(60) + "): " + text::truncate(drawn.output, 500));
      continue;
    }
    figures.images.push_back(image);
  }
  return figures;
}

}  // namespace rooflab
