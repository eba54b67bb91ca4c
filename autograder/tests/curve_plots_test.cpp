// The report's curve figures (plots/curve_plots.hpp): figures the reference's
// profile declares, the submission's points beside the reference's, and the
// caption that says where each curve first reaches the target.
#include "plots/curve_plots.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "plots/scaling_plots.hpp"
#include "report/results.hpp"
#include "rooflab/temp_folder_testing.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace {

// This program's temp folder, removed after its last test.
const std::filesystem::path kTemp = rooflab::testing::program_temp_folder("curve-plots");

namespace fs = std::filesystem;

// What a07's layer sweep prints, shortened: one figure with a target and one
// series, one with a series per layer count, one without a target.
const std::string kReference =
    "figure,accuracy_by_layers,layers,held-out accuracy (%),90,held-out accuracy after 1000 steps against layers\n"
    "figure,accuracy_by_step,step,held-out accuracy (%),90,held-out accuracy against the training step\n"
    "figure,step_time,layers,ms per step,,training time per step against layers\n"
    "point,accuracy_by_step,layers_1,100,22\npoint,accuracy_by_step,layers_1,200,26\n"
    "point,accuracy_by_step,layers_2,100,25\npoint,accuracy_by_step,layers_2,200,99\n"
    "point,accuracy_by_layers,accuracy,1,26\npoint,accuracy_by_layers,accuracy,2,99\n"
    "point,step_time,ms_per_step,1,3.5\npoint,step_time,ms_per_step,2,7\n";

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = (kTemp / name);
  fs::remove_all(dir);
  return dir;
}

TEST(CurvePlots, ParsesTheReferencesFiguresAndPoints) {
  std::vector<std::string> refused;
  const auto figures = parse_curve_figures(kReference, refused);
  ASSERT_EQ(figures.size(), 3u);
  EXPECT_TRUE(refused.empty());
  EXPECT_EQ(figures[0].name, "accuracy_by_layers");
  EXPECT_EQ(figures[0].x_label, "layers");
  EXPECT_EQ(figures[0].target, 90.0);
  EXPECT_EQ(figures[0].title, "held-out accuracy after 1000 steps against layers");
  EXPECT_FALSE(figures[2].target.has_value());
  std::size_t bad = 0;
  const auto points = parse_curve_points(kReference, bad);
  EXPECT_EQ(points.size(), 8u);
  EXPECT_EQ(bad, 0u);
  EXPECT_EQ(points[3].series, "layers_2");
  EXPECT_EQ(points[3].y, 99.0);
}

TEST(CurvePlots, RefusesRowsThatCouldReachTheGnuplotScript) {
  // The submission prints points: only plain names and finite numbers pass.
  std::size_t bad = 0;
  const auto points = parse_curve_points(
      "point,accuracy_by_layers,x' ; system 'rm -rf /,1,1\npoint,accuracy_by_layers,accuracy,nan,1\n"
      "point,accuracy_by_layers,accuracy,1,inf\npoint,Accuracy,accuracy,1,1\npoint,accuracy_by_layers,accuracy,1\n"
      "point,accuracy_by_layers,accuracy,1,2,3\npoint,accuracy_by_layers,accuracy,2,50\n",
      bad);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(points[0].x, 2.0);
  EXPECT_EQ(bad, 6u);
  // A declaration's labels go between quotes: a quote or a backslash refuses it.
  std::vector<std::string> refused;
  EXPECT_TRUE(parse_curve_figures("figure,f,x'label,y,,t\nfigure,g,x,y\\,,t\nfigure,h,x,y,high,t\n", refused).empty());
  EXPECT_EQ(refused.size(), 3u);
}

TEST(CurvePlots, ScalingRowsLeaveCurveRowsAlone) {
  // A profile with curves only: no scaling rows, and no curve row is a "message".
  std::vector<std::string> messages;
  EXPECT_TRUE(parse_profile(kReference + "training 1 layer: not implemented\n", messages).empty());
  EXPECT_EQ(messages, std::vector<std::string>{"training 1 layer: not implemented"});
}

TEST(CurvePlots, CaptionSaysWhereEachCurveFirstReachesTheTarget) {
  std::vector<std::string> refused;
  const auto figures = parse_curve_figures(kReference, refused);
  std::size_t bad = 0;
  const auto reference = parse_curve_points(kReference, bad);
  const auto yours = parse_curve_points(
      "point,accuracy_by_layers,accuracy,1,30\npoint,accuracy_by_layers,accuracy,2,40\n"
      "point,accuracy_by_step,layers_2,200,95\npoint,accuracy_by_step,layers_2,100,91\n",
      bad);
  EXPECT_EQ(curve_caption("a07", figures[0], yours, reference),
            "a07: held-out accuracy after 1000 steps against layers; the reference reaches 90 % at layers 2, yours "
            "never does");
  // Points in any order: the first x, not the first row, that reaches it.
  EXPECT_EQ(curve_caption("a07", figures[1], yours, reference),
            "a07: held-out accuracy against the training step; step at which each reaches 90 %, the reference's "
            "and yours: layers_1 never and no data, layers_2 200 and 100");
  EXPECT_EQ(curve_caption("a07", figures[0], {}, reference),
            "a07: held-out accuracy after 1000 steps against layers; the reference reaches 90 % at layers 2, yours "
            "drew no points");
  EXPECT_EQ(curve_caption("a07", figures[2], yours, reference), "a07: training time per step against layers");
}

TEST(CurvePlots, DrawsOnlyTheReferencesSeries) {
  const fs::path dir = fresh_dir("curves");
  const CurveFigures figures = render_curve_figures(
      "a07", "point,accuracy_by_layers,accuracy,1,30\npoint,accuracy_by_layers,other,1,1\n", kReference, dir, dir);
  const std::string csv = text::read_file(dir / figures.csv);
  EXPECT_NE(csv.find("submission,accuracy_by_layers,accuracy,1,30"), std::string::npos) << csv;
  EXPECT_NE(csv.find("reference,accuracy_by_step,layers_2,200,99"), std::string::npos) << csv;
  EXPECT_EQ(csv.find("other"), std::string::npos) << csv;
  ASSERT_FALSE(figures.notes.empty());
  EXPECT_NE(figures.notes[0].find("1 of your profile's point rows were not drawn"), std::string::npos);
  // With gnuplot, one PNG and one caption per figure; without it, a note that says how to get them.
  if (figures.images.empty()) {
    EXPECT_NE(figures.notes.back().find("gnuplot"), std::string::npos);
  } else {
    ASSERT_EQ(figures.images.size(), 3u);
    EXPECT_EQ(figures.images[0], fs::path("plots") / "a07_accuracy_by_layers.png");
    for (const auto& image : figures.images) {
      EXPECT_TRUE(fs::exists(dir / image));
      EXPECT_EQ(figures.captions.count(image), 1u);
    }
  }
  fs::remove_all(dir);
}

TEST(CurvePlots, AStubsProfileLeavesOneNoteAndTheReferencesCurves) {
  const fs::path dir = fresh_dir("curves-stub");
  const CurveFigures figures =
      render_curve_figures("a07", "training 1 layer: causal_mask is not implemented yet\n", kReference, dir, dir);
  ASSERT_FALSE(figures.notes.empty());
  EXPECT_EQ(figures.notes[0], "your profile reported no points: only the reference's curves are drawn");
  EXPECT_EQ(text::read_file(dir / figures.csv).find("submission,"), std::string::npos);
  if (!figures.images.empty()) {
    EXPECT_EQ(figures.notes.size(), 1u);
    EXPECT_NE(figures.captions.at(figures.images[0]).find("yours drew no points"), std::string::npos);
  }
  fs::remove_all(dir);
}

TEST(CurvePlots, AProfileWithoutFiguresDrawsNothing) {
  const fs::path dir = fresh_dir("curves-none");
  const CurveFigures figures = render_curve_figures("a04", "", "standard,128,0.5,1024,1000\n", dir, dir);
  EXPECT_TRUE(figures.csv.empty());
  EXPECT_TRUE(figures.images.empty());
  EXPECT_TRUE(figures.notes.empty());
  EXPECT_FALSE(fs::exists(dir));
}

TEST(CurvePlots, ReportShowsTheCaptionAsInertText) {
  GradeResult result;
  result.submission = "s";
  AssignmentResult assignment;
  assignment.name = "a07_associative_recall";
  assignment.built = true;
  assignment.plots = {fs::path("plots") / "a07_associative_recall_accuracy_by_layers.png"};
  assignment.plot_captions[assignment.plots[0]] = "a07: accuracy; the reference reaches 90 % at layers 2 [x](y)";
  result.assignments.push_back(assignment);
  const fs::path dir = fresh_dir("curves-report");
  write_markdown_report(result, dir / "report.md");
  const std::string report = text::read_file(dir / "report.md");
  EXPECT_NE(
      report.find(
          "![a07_associative_recall_accuracy_by_layers](plots/a07_associative_recall_accuracy_by_layers.png)\n\n*a07: "
          "accuracy; the reference reaches 90 % at layers 2 \\[x\\](y)*"),
      std::string::npos)
      << report;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace rooflab
