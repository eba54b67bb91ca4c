// The reference's profile kept between gradings (plots/reference_profile.hpp):
// what a kept run is valid for, and its file read back exactly, or not at all.
#include "plots/reference_profile.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "rooflab/temp_folder_testing.hpp"

namespace rooflab {
namespace {
namespace fs = std::filesystem;

const fs::path kTemp = rooflab::testing::program_temp_folder("reference-profile");

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

TEST(ReferenceProfile, AKeptRunIsForOneBinaryAndThreadCount) {
  const fs::path binary = kTemp / "key" / "a07_profile";
  EXPECT_EQ(reference_profile_key(binary, 2), "") << "no binary, no key: it runs";
  write(binary, "first build");
  const std::string key = reference_profile_key(binary, 2);
  ASSERT_FALSE(key.empty());
  EXPECT_NE(key.find(binary.string()), std::string::npos);
  EXPECT_NE(key.find(" on " + machine_name() + " "), std::string::npos) << "another machine's run is not this one's";
  EXPECT_EQ(reference_profile_key(binary, 2), key);
  EXPECT_NE(reference_profile_key(binary, 4), key) << "another thread count";
  write(binary, "a rebuilt reference, longer");
  EXPECT_NE(reference_profile_key(binary, 2), key) << "another build";
}

TEST(ReferenceProfile, AKeptRunReadsBackAsItWasAndOnlyForItsKey) {
  ReferenceProfile run;
  // Rows as a profile prints them, and lines that look like the header's.
  run.output = "figure,step_time,layers,ms per step,,title\npoint,step_time,ms_per_step,1,2.5\nkey other\nran x\n";
  run.ran_at = "2026-11-29 17:40 UTC";
  run.quiet = false;
  const std::string text = kept_profile_text("k 1", run);
  const std::optional<ReferenceProfile> back = parse_kept_profile(text, "k 1");
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->output, run.output);
  EXPECT_EQ(back->ran_at, run.ran_at);
  EXPECT_FALSE(back->quiet) << "a busy run is kept as busy: the next grading runs it again";
  EXPECT_TRUE(back->kept);
  run.quiet = true;
  EXPECT_TRUE(parse_kept_profile(kept_profile_text("k 1", run), "k 1")->quiet);

  EXPECT_FALSE(parse_kept_profile(text, "k 2")) << "another build's run";
  EXPECT_FALSE(parse_kept_profile("", "k 1"));
  EXPECT_FALSE(parse_kept_profile(text.substr(0, text.find("\nran")), "k 1")) << "a cut header";
  EXPECT_FALSE(parse_kept_profile("something else\n" + text, "k 1"));
  std::string unknown_quiet = text;
  unknown_quiet.replace(unknown_quiet.find("quiet 0"), 7, "quiet ?");
  EXPECT_FALSE(parse_kept_profile(unknown_quiet, "k 1"));
  run.output.clear();
  EXPECT_EQ(parse_kept_profile(kept_profile_text("k 1", run), "k 1")->output, "") << "a profile that printed nothing";
}

}  // namespace
}  // namespace rooflab
