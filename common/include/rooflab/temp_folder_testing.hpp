// A test's own folder in the temp directory (TMPDIR, else /tmp), removed when
// it goes, passing or failing: the test suite leaves the temp directory as it
// found it. With ROOFLAB_KEEP_TEST_TMP=1 in the environment a failing test
// keeps its folder, and says where it is; without it, a failing test says
// that the variable would have kept it.
//
//   const rooflab::testing::TempFolder folder("checks-twin");  // rooflab-checks-twin-<pid>-<n>
//   compile(folder.path() / "k.cu.cpp");
//
// A folder every test of a program shares (a global) is program_temp_folder:
// named at start-up, made by the tests that use it, removed after the last.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

namespace rooflab::testing {

inline bool keep_failing_test_folders() {
  const char* keep = std::getenv("ROOFLAB_KEEP_TEST_TMP");
  return keep && *keep && std::string(keep) != "0";
}

// Removes `folder` (when it exists), or keeps it where `failed` and the
// variable asks; says which on a failure.
inline void remove_test_folder(const std::filesystem::path& folder, bool failed) {
  std::error_code error;
  if (!std::filesystem::exists(folder, error)) return;
  if (failed && keep_failing_test_folders()) {
    std::cerr << "note: kept " << folder.string() << " (ROOFLAB_KEEP_TEST_TMP is set)\n";
    return;
  }
  std::filesystem::remove_all(folder, error);
  if (failed)
    std::cerr << "note: removed " << folder.string()
              << "; run the test again with ROOFLAB_KEEP_TEST_TMP=1 to keep a failing test's folder\n";
}

class TempFolder {
 public:
  explicit TempFolder(const std::string& name) {
    static std::atomic<int> serial{0};
    path_ = std::filesystem::temp_directory_path() /
            ("rooflab-" + name + "-" + std::to_string(::getpid()) + "-" + std::to_string(serial++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempFolder() { remove_test_folder(path_, ::testing::Test::HasFailure()); }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

namespace detail {
class RemoveAtTheEnd : public ::testing::Environment {
 public:
  explicit RemoveAtTheEnd(std::filesystem::path folder) : folder_(std::move(folder)) {}
  void TearDown() override { remove_test_folder(folder_, !::testing::UnitTest::GetInstance()->Passed()); }

 private:
  std::filesystem::path folder_;
};
}  // namespace detail

// "<temp>/rooflab-<name>-<pid>", which the program's tests create as they
// need it; removed after the last test (a listing of the tests makes none).
inline std::filesystem::path program_temp_folder(const std::string& name) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("rooflab-" + name + "-" + std::to_string(::getpid()));
  ::testing::AddGlobalTestEnvironment(new detail::RemoveAtTheEnd(folder));
  return folder;
}

}  // namespace rooflab::testing
