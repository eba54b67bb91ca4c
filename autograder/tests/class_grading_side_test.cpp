// The grading side of grade-all's resume key, and the memory a grading asks
// Slurm for (class/grade_all.hpp), on a made-up reference build: a manifest,
// a rubric, a verdict binary and a grading kit.
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "class/grade_all.hpp"
#include "rooflab/temp_folder_testing.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace {
namespace fs = std::filesystem;

// This program's temp folder, removed after its last test.
const std::filesystem::path kTemp = rooflab::testing::program_temp_folder("grading-side-test");

class ClassGradingSide : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (kTemp / "grading-side-test");
    fs::remove_all(dir_);
    nlohmann::json assignments = nlohmann::json::array();
    for (const char* name : {"a01", "a02"}) {
      const fs::path rubric = dir_ / "source" / name / "rubric.toml";
      text::write_file(rubric, std::string("assignment = \"") + name +
                                   "\"\nmemory_limit_mb = 1500\n[[group]]\nname = \"g\"\ntests = [\"A.*\"]\n"
                                   "points = 1\n[[group]]\nname = \"big\"\ntests = [\"B.*\"]\npoints = 1\n"
                                   "memory_limit_mb = " +
                                   (std::string(name) == "a02" ? "3000" : "512") + "\n");
      text::write_file(verdict(name), "verdict of " + std::string(name));
      assignments.push_back({{"name", name},
                             {"dir", name},
                             {"student_files", nlohmann::json::array()},
                             {"public_tests", nlohmann::json::array()},
                             {"has_hidden_tests", true},
                             {"has_profile", false},
                             {"rubric", rubric.string()},
                             {"cuda_files", nlohmann::json::array()}});
    }
    text::write_file(dir_ / "build" / "grading_kit" / "lib" / "kit.o", "kit");
    text::write_file(manifest(), nlohmann::json{{"source_dir", (dir_ / "source").string()},
                                                {"binary_dir", (dir_ / "build").string()},
                                                {"with_cuda", false},
                                                {"thrust_dir", ""},
                                                {"assignments", assignments}}
                                     .dump());
    text::write_file(rooflab(), "the grader");
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path manifest() const { return dir_ / "build" / "rooflab_manifest.json"; }
  fs::path rooflab() const { return dir_ / "build" / "rooflab"; }
  fs::path verdict(const std::string& name) const { return dir_ / "build" / "course" / name / (name + "_verdict"); }
  std::string fingerprint(const std::vector<std::string>& only = {}) const {
    return grading_fingerprint(rooflab(), manifest(), only);
  }
  fs::path dir_;
};

TEST_F(ClassGradingSide, FingerprintIsStableWhileNothingChanges) {
  EXPECT_EQ(fingerprint(), fingerprint());
  EXPECT_EQ(fingerprint().size(), 16u);
  // Bytes, not times: rewriting the same bytes keeps it.
  text::write_file(rooflab(), "the grader");
  EXPECT_EQ(fingerprint(), fingerprint());
}

TEST_F(ClassGradingSide, TheSameGraderCopiedElsewhereIsTheSameGrader) {
  fs::copy_file(rooflab(), dir_ / "moved-rooflab");
  EXPECT_EQ(grading_fingerprint(dir_ / "moved-rooflab", manifest(), {}), fingerprint());
}

TEST_F(ClassGradingSide, AChangedRubricChangesIt) {
  const std::string before = fingerprint();
  const fs::path rubric = dir_ / "source" / "a01" / "rubric.toml";
  text::write_file(rubric, text::read_file(rubric) + "# a fixed typo\n");
  EXPECT_NE(fingerprint(), before);
}

TEST_F(ClassGradingSide, AChangedHiddenTestChangesIt) {
  const std::string before = fingerprint();
  text::write_file(verdict("a01"), "verdict of a01, a hidden test fixed");
  EXPECT_NE(fingerprint(), before);
}

TEST_F(ClassGradingSide, AChangedGraderOrKitChangesIt) {
  const std::string before = fingerprint();
  text::write_file(rooflab(), "the grader, rebuilt");
  const std::string rebuilt = fingerprint();
  EXPECT_NE(rebuilt, before);
  text::write_file(dir_ / "build" / "grading_kit" / "lib" / "kit.o", "kit 2");
  EXPECT_NE(fingerprint(), rebuilt);
}

TEST_F(ClassGradingSide, OnlyTheGradedLabsCount) {
  const std::string a01 = fingerprint({"a01"});
  text::write_file(verdict("a02"), "verdict of a02, changed");
  EXPECT_EQ(fingerprint({"a01"}), a01);
  fs::remove(verdict("a01"));  // missing counts too: not silently "unchanged"
  EXPECT_NE(fingerprint({"a01"}), a01);
}

TEST_F(ClassGradingSide, MemoryIsTheLargestLimitPerTestJobPlusScratchAndGrader) {
  // a01's largest limit is its default, 1500; a02's a group's 3000.
  EXPECT_EQ(grading_memory_mb(manifest(), {"a01"}, 1), 1500u + 4096 + 512);
  EXPECT_EQ(grading_memory_mb(manifest(), {"a01"}, 4), 4 * 1500u + 4096 + 512);
  EXPECT_EQ(grading_memory_mb(manifest(), {}, 2), 2 * 3000u + 4096 + 512);
}

TEST_F(ClassGradingSide, SmallLimitsStillLeaveACompilerItsGigabyte) {
  const fs::path rubric = dir_ / "source" / "a01" / "rubric.toml";
  text::write_file(rubric,
                   "assignment = \"a01\"\nmemory_limit_mb = 256\n[[group]]\nname = \"g\"\ntests = [\"A.*\"]\n"
                   "points = 1\n");
  EXPECT_EQ(grading_memory_mb(manifest(), {"a01"}, 2), 2 * 1024u + 4096 + 512);
}

}  // namespace
}  // namespace rooflab
