// The reference's own student objects pass the grader's symbol checks, the
// nvcc-compiled Thrust twins among them where CUDA is compiled in: a right
// CUDA submission must not be refused for the runtime's registration code.
#include <gtest/gtest.h>

#include <filesystem>

#include "build/checks.hpp"
#include "os/process.hpp"
#include "rooflab/temp_folder_testing.hpp"
#include "stage/manifest.hpp"

namespace rooflab {
namespace {
namespace fs = std::filesystem;

// This program's temp folder, removed after its last test.
const std::filesystem::path kTemp = rooflab::testing::program_temp_folder("reference-objects");

TEST(ReferenceObjects, PassTheSymbolChecksNvccTwinsIncluded) {
  const Manifest manifest = Manifest::load(ROOFLAB_MANIFEST);
  const fs::path scratch = (kTemp / "reference-objects");
  fs::create_directories(scratch);
  const ToolRunner run = [&](const std::vector<std::string>& argv) {
    const ProcessResult ran = run_process(argv, scratch, scratch / "tool.log", ProcessLimits::timeout(120));
    if (!ran.succeeded()) throw std::runtime_error(argv[0] + " failed: " + ran.output);
    return ran.output;
  };
  int cuda_objects = 0;
  for (const AssignmentInfo& info : manifest.assignments) {
    std::vector<fs::path> objects;
    for (const fs::path& folder : Manifest::student_objects(manifest.binary_dir, info))
      for (const auto& entry : fs::recursive_directory_iterator(folder))
        if (entry.path().extension() == ".o") objects.push_back(entry.path());
    ASSERT_FALSE(objects.empty()) << info.name;
    for (const auto& object : objects) cuda_objects += object.string().ends_with(".cu.o");
    EXPECT_EQ(check_objects(objects, run), std::vector<std::string>{}) << info.name;
  }
  if (manifest.with_cuda) {
    EXPECT_GT(cuda_objects, 0) << "CUDA is compiled in, so nvcc twins were expected";
  }
  fs::remove_all(scratch);
}

}  // namespace
}  // namespace rooflab
