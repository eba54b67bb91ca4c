#include "plots/scaling_plots.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "rooflab/temp_folder_testing.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace {

// This program's temp folder, removed after its last test.
const std::filesystem::path kTemp = rooflab::testing::program_temp_folder("plots-test");

TEST(ScalingPlots, ParsesRowsAndKeepsOtherLinesAsMessages) {
  std::vector<std::string> messages;
  const auto rows = parse_profile(
      "method,seq_len,seconds,peak_bytes,estimated_bytes\nstandard,128,0.5,1024,1000\n"
      "flash at N=256: not implemented\nlinear,256,1e-3,2.5e6,0\n",
      messages);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].method, "standard");
  EXPECT_EQ(rows[0].seq_len, 128);
  EXPECT_EQ(rows[1].peak_bytes, 2.5e6);
  EXPECT_EQ(messages, std::vector<std::string>{"flash at N=256: not implemented"});
}

TEST(ScalingPlots, RefusesRowsThatCouldReachTheGnuplotScript) {
  // Student code prints the submission's rows: only plain names and finite numbers pass.
  std::vector<std::string> messages;
  const auto rows = parse_profile(
      "x' ; system 'rm -rf /,128,1,1,1\nstandard,nan,1,1,1\nstandard,128,1,inf,1\nStandard,1,1,1,1\nstandard,1,1,1\n",
      messages);
  EXPECT_TRUE(rows.empty());
  EXPECT_EQ(messages.size(), 5u);
}

TEST(ScalingPlots, WritesOnlyMethodsTheReferenceKnows) {
  const auto dir = (kTemp / "plots");
  std::filesystem::remove_all(dir);
  const std::vector<ProfileRow> reference{{"flash", 128, 0.1, 100, 90}, {"flash", 256, 0.2, 200, 180}};
  const std::vector<ProfileRow> submission{{"flash", 128, 0.3, 400, 0}, {"other", 128, 1, 1, 1}};
  const ScalingFigures figures = render_scaling_plots("a04", submission, reference, dir, dir);
  const std::string csv = text::read_file(dir / figures.csv);
  EXPECT_NE(csv.find("submission,flash,128,0.3,400,0,0"), std::string::npos) << csv;
  EXPECT_NE(csv.find("reference,flash,256,0.2,200,180,0"), std::string::npos) << csv;
  EXPECT_EQ(csv.find("other"), std::string::npos) << csv;
  // With gnuplot, two PNGs; without it, a note that says how to get them.
  if (figures.images.empty()) {
    ASSERT_EQ(figures.notes.size(), 1u);
    EXPECT_NE(figures.notes[0].find("gnuplot"), std::string::npos);
  } else {
    EXPECT_EQ(figures.images.size(), 2u);
    for (const auto& image : figures.images) EXPECT_TRUE(std::filesystem::exists(dir / image));
  }
  std::filesystem::remove_all(dir);
}

TEST(ScalingPlots, BytesReadAddAThroughputFigure) {
  // A sixth column, the bytes a call reads: memory-bound work is drawn in GB/s.
  std::vector<std::string> messages;
  const auto rows = parse_profile(
      "method,seq_len,seconds,peak_bytes,estimated_bytes,bytes_read\ncontiguous,1024,0.001,4096,0,6e6\n"
      "paged,1024,0.002,4096,0,-1\n",
      messages);
  ASSERT_EQ(rows.size(), 1u);  // a negative byte count is refused
  EXPECT_EQ(rows[0].bytes_read, 6e6);
  EXPECT_EQ(messages.size(), 1u);

  const auto dir = (kTemp / "throughput");
  std::filesystem::remove_all(dir);
  const std::vector<ProfileRow> reference{{"contiguous", 1024, 0.001, 4096, 0, 6e6},
                                          {"contiguous", 2048, 0.002, 4096, 0, 12e6}};
  const ScalingFigures figures = render_scaling_plots("a06", reference, reference, dir, dir);
  EXPECT_NE(text::read_file(dir / figures.csv).find("reference,contiguous,2048,0.002,4096,0,1.2e+07"),
            std::string::npos);
  if (!figures.images.empty()) {
    ASSERT_EQ(figures.images.size(), 3u);
    EXPECT_EQ(figures.images[2].filename(), "a06_throughput.png");
    EXPECT_TRUE(std::filesystem::exists(dir / figures.images[2]));
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace rooflab
