#include "release/release.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include "text/text.hpp"

namespace rooflab::release {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(Release, FunctionBodyBecomesTodoWithEveryParameter) {
  const std::string source =
      "#include <x>\nnamespace a {\n"
      "double f(double num_params, const Shape& shape, int count = 3) {\n"
      "  // BEGIN SOLUTION\n  return num_params * count;\n  // END SOLUTION\n}\n}\n";
  const std::string out = strip_solutions(source, "a01", "f.cpp");
  EXPECT_TRUE(contains(out, "  // YOUR CODE HERE\n  rooflab::todo(\"a01::f\", num_params, shape, count);\n}"));
  EXPECT_FALSE(contains(out, "return num_params"));
  EXPECT_FALSE(contains(out, "SOLUTION"));
}

TEST(Release, NamespaceScopeRegionLeavesOnlyTheComment) {
  const std::string source = "namespace a {\n// BEGIN SOLUTION\nint helper() { return 1; }\n// END SOLUTION\n}\n";
  EXPECT_EQ(strip_solutions(source, "a01", "h.cpp"), "namespace a {\n// YOUR CODE HERE\n}\n");
}

TEST(Release, KernelBodyOnlyMarksParametersUsed) {
  const std::string source =
      "__global__ void add(const float* x, float* y, int n) {\n  // BEGIN SOLUTION\n  y[0] = x[0];\n  // END "
      "SOLUTION\n}\n";
  const std::string out = strip_solutions(source, "a04", "k.cu");
  EXPECT_TRUE(contains(out, "(void)x;\n  (void)y;\n  (void)n;\n"));
  EXPECT_FALSE(contains(out, "todo"));
}

TEST(Release, DeviceFunctionBodyReturnsAValueInsteadOfThrowing) {
  // Device code cannot throw: the stub compiles and returns a default value.
  const std::string source =
      "__device__ float warp_max(float x) {\n  // BEGIN SOLUTION\n  return x;\n  // END SOLUTION\n}\n"
      "__device__ void store(float* p) {\n  // BEGIN SOLUTION\n  *p = 0;\n  // END SOLUTION\n}\n"
      "__host__ __device__ int both(int x) {\n  // BEGIN SOLUTION\n  return x;\n  // END SOLUTION\n}\n";
  const std::string out = strip_solutions(source, "a05", "k.cu");
  EXPECT_TRUE(contains(out, "(void)x;\n  return {};\n}\n__device__ void")) << out;
  EXPECT_TRUE(contains(out, "(void)p;\n}\n")) << out;
  EXPECT_TRUE(contains(out, "rooflab::todo(\"a05::both\", x);")) << out;
}

TEST(Release, BracesInCommentsAndStringsDoNotConfuseTheScope) {
  const std::string source =
      "// a comment with { a brace\nconst char* s = \"}{\";\nint g(int x) /* { */ {\n"
      "  // BEGIN SOLUTION\n  return x;\n  // END SOLUTION\n}\n";
  EXPECT_TRUE(contains(strip_solutions(source, "a01", "g.cpp"), "rooflab::todo(\"a01::g\", x);"));
}

TEST(Release, RegionInsideNestedBlockUsesTheFunction) {
  const std::string source =
      "int g(int x, int) {\n  if (x) {\n    // BEGIN SOLUTION\n    return 1;\n    // END SOLUTION\n  }\n  return "
      "0;\n}\n";
  EXPECT_TRUE(contains(strip_solutions(source, "a01", "g.cpp"), "rooflab::todo(\"a01::g\", x);"));
}

TEST(Release, UnbalancedMarkersNameFileAndLine) {
  try {
    strip_solutions("int f() {\n  // BEGIN SOLUTION\n  return 1;\n}\n", "a01", "src/f.cpp");
    FAIL() << "no error";
  } catch (const ReleaseError& error) {
    EXPECT_TRUE(contains(error.what(), "src/f.cpp:2:")) << error.what();
    EXPECT_TRUE(contains(error.what(), "never closed")) << error.what();
  }
  try {
    strip_solutions("int f() {\n  return 1;\n  // END SOLUTION\n}\n", "a01", "src/f.cpp");
    FAIL() << "no error";
  } catch (const ReleaseError& error) {
    EXPECT_TRUE(contains(error.what(), "src/f.cpp:3:")) << error.what();
  }
  EXPECT_THROW(strip_solutions("// BEGIN SOLUTION\n// BEGIN SOLUTION\n// END SOLUTION\n", "a", "x.cpp"), ReleaseError);
  EXPECT_THROW(strip_solutions("int x; // BEGIN SOLUTION\n", "a", "x.cpp"), ReleaseError);
}

TEST(Release, FilesWithoutMarkersAreCopiedVerbatim) {
  const std::string source = "no markers here\nwithout a final newline";
  EXPECT_EQ(strip_solutions(source, "a01", "x.md"), source);
}

// grading/ and literate/ are the instructor's: the generated tree never holds
// them, while a file of the same name elsewhere is released as usual.
TEST(Release, LeavesEachAssignmentsGradingAndLiterateFoldersOut) {
  namespace fs = std::filesystem;
  const fs::path solutions = fs::temp_directory_path() / ("rooflab-release-" + std::to_string(::getpid()));
  fs::remove_all(solutions);
  for (const char* file : {"a01/src/f.cpp", "a01/grading/rubric.toml", "a01/grading/tests/hidden_test.cpp",
                           "a01/literate/doc_numbers.cpp", "a01/docs/grading/notes.md"}) {
    fs::create_directories((solutions / file).parent_path());
    text::write_file(solutions / file, "int x;\n");
  }
  const auto tree = generate(solutions);
  fs::remove_all(solutions);
  std::vector<std::string> released;
  for (const auto& [path, contents] : tree) released.push_back(path.generic_string());
  EXPECT_EQ(released, (std::vector<std::string>{"a01/docs/grading/notes.md", "a01/src/f.cpp"}));
}

TEST(Release, HeaderParsing) {
  const auto f = parse_function_header(
      "\nInferenceAnalysis analyze(const ModelConfig& model, const GpuSpec& gpu,\n double batch) ");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->name, "analyze");
  EXPECT_EQ(f->parameters, (std::vector<std::string>{"model", "gpu", "batch"}));
  const auto unnamed = parse_function_header("void g(double, std::vector<int> v, float a[4])");
  ASSERT_TRUE(unnamed);
  EXPECT_EQ(unnamed->parameters, (std::vector<std::string>{"v", "a"}));
  EXPECT_FALSE(parse_function_header("if (x) "));
}

}  // namespace
}  // namespace rooflab::release
