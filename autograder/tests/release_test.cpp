#include "release/release.hpp"

#include "release/classroom_workflow.hpp"
#include "release/include_pruning.hpp"
#include "release/student_readme.hpp"

#include <gtest/gtest.h>

#include <unistd.h>
#include <regex>

#include "rooflab/temp_folder_testing.hpp"
#include "text/text.hpp"

namespace rooflab::release {
namespace {

// This program's temp folder, removed after its last test.
const std::filesystem::path kTemp = rooflab::testing::program_temp_folder("release-test");

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
  const fs::path solutions = (kTemp / "release");
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
  const auto bounded =
      parse_function_header("__global__ void __launch_bounds__(kThreads, 4)\n    k(const float* q, int n)");
  ASSERT_TRUE(bounded);
  EXPECT_EQ(bounded->name, "k");
  EXPECT_TRUE(bounded->kernel);
  EXPECT_TRUE(bounded->returns_void);
  EXPECT_EQ(bounded->parameters, (std::vector<std::string>{"q", "n"}));
}

const std::string kStubWithHints =
    "#include <bit>\n"
    "#include <cstring>\n"
    "#include <vector>\n"
    "\n"
    "#include \"a04_flash_attention/flash_attention.hpp\"\n"
    "#include \"rooflab/fast_exp.hpp\"  // keep: a helper students should see\n"
    "#include \"rooflab/not_implemented.hpp\"\n"
    "\n"
    "std::vector<int> f() { rooflab::todo(\"a04_flash_attention::f\"); }\n";

TEST(IncludePruning, DropsWhatTheStubCompilesWithout) {
  // This stub needs <vector> only: dropping <bit> and <cstring> still compiles.
  int compiles = 0;
  const std::string pruned = prune_includes(kStubWithHints, "a04_flash_attention", [&](const std::string& version) {
    ++compiles;
    return contains(version, "#include <vector>");
  });
  EXPECT_FALSE(contains(pruned, "<bit>"));
  EXPECT_FALSE(contains(pruned, "<cstring>"));
  EXPECT_TRUE(contains(pruned, "#include <vector>"));
  // Never candidates: the assignment's own header, not_implemented and a `// keep`.
  EXPECT_TRUE(contains(pruned, "a04_flash_attention/flash_attention.hpp"));
  EXPECT_TRUE(contains(pruned, "rooflab/not_implemented.hpp"));
  EXPECT_TRUE(contains(pruned, "rooflab/fast_exp.hpp"));
  EXPECT_TRUE(contains(pruned, "std::vector<int> f()"));
  EXPECT_EQ(compiles, 1 + 3 + 1);  // all at once, then each of the three, then the result
  EXPECT_TRUE(same_but_pruned_includes(kStubWithHints, pruned, "a04_flash_attention"));
}

TEST(IncludePruning, OneCompileWhenNoCandidateIsNeeded) {
  int compiles = 0;
  const std::string pruned = prune_includes(kStubWithHints, "a04_flash_attention", [&](const std::string&) {
    ++compiles;
    return true;
  });
  EXPECT_EQ(compiles, 1);
  EXPECT_FALSE(contains(pruned, "#include <vector>"));
  EXPECT_FALSE(contains(pruned, "\n\n\n")) << "dropping a block of includes leaves no double blank line";
}

TEST(IncludePruning, KeepsEverythingWhenNothingCompilesWithoutIt) {
  EXPECT_EQ(prune_includes(kStubWithHints, "a04_flash_attention",
                           [](const std::string& version) { return version == kStubWithHints; }),
            kStubWithHints);
}

TEST(IncludePruning, CheckAcceptsOnlyDroppedIncludes) {
  const std::string without_bit = without_lines(kStubWithHints, {0});
  EXPECT_TRUE(same_but_pruned_includes(kStubWithHints, without_bit, "a04_flash_attention"));
  EXPECT_TRUE(same_but_pruned_includes(kStubWithHints, kStubWithHints, "a04_flash_attention"));
  // Dropping the assignment's own header, or changing code, is staleness.
  EXPECT_FALSE(same_but_pruned_includes(kStubWithHints, without_lines(kStubWithHints, {4}), "a04_flash_attention"));
  std::string edited = kStubWithHints;
  edited.replace(edited.find("f()"), 3, "g()");
  EXPECT_FALSE(same_but_pruned_includes(kStubWithHints, edited, "a04_flash_attention"));
}

TEST(ClassroomWorkflow, GlobsBecomeCtestRegexes) {
  const std::regex group(ctest_regex("a05_cuda_attention", {"Kernels/CudaAttention.*/standard", "Launch.?"}));
  EXPECT_TRUE(std::regex_search(
      "a05_cuda_attention.public.Kernels/CudaAttention.Matches/standard  # GetParam() = standard", group));
  EXPECT_TRUE(std::regex_search("a05_cuda_attention.public.Launch.X", group));
  EXPECT_FALSE(
      std::regex_search("a05_cuda_attention.public.Kernels/CudaAttention.Matches/flash  # GetParam() = flash", group));
  EXPECT_FALSE(std::regex_search("a05_cuda_attention.hidden.Launch.X", group));
  EXPECT_FALSE(std::regex_search("a05_cuda_attention.public.KernelsXCudaAttention.Matches/standard", group))
      << "a glob's '.' is a literal dot";
}

RubricGroup rubric_group(std::string name, std::string test, double points, std::string visibility = "visible") {
  RubricGroup group;
  group.name = std::move(name);
  group.tests = {std::move(test)};
  group.points = points;
  group.visibility = std::move(visibility);
  return group;
}

Rubric rubric_of(std::string assignment, std::vector<RubricGroup> groups) {
  Rubric rubric;
  rubric.assignment = std::move(assignment);
  rubric.groups = std::move(groups);
  return rubric;
}

std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
  return count;
}

TEST(ClassroomWorkflow, OneGraderPerPublicGroupThenTheReporter) {
  const Rubric rubric =
      rubric_of("a01_roofline", {rubric_group("memory", "ModelMemory.*", 8),
                                 rubric_group("memory (hidden)", "HiddenMemory.*", 12, "after_due_date"),
                                 rubric_group("tensor cores (GPU only)", "Tc.*", 5),
                                 rubric_group("a \"quoted\": name", "Roofline.*", 2.5)});
  const std::string yaml = classroom_workflow({rubric});
  EXPECT_TRUE(contains(yaml, "id: a01_roofline_1\n"));
  EXPECT_FALSE(contains(yaml, "a01_roofline_2")) << "hidden groups stay with the course's grader";
  EXPECT_FALSE(contains(yaml, "a01_roofline_3")) << "Classroom's runners have no GPU";
  EXPECT_TRUE(contains(yaml, "test-name: \"a01_roofline: a \\\"quoted\\\": name\"")) << yaml;
  EXPECT_TRUE(contains(yaml, "max-score: 8\n"));
  EXPECT_TRUE(contains(yaml, "max-score: 2.5\n"));
  EXPECT_TRUE(contains(yaml, "A01_ROOFLINE_4_RESULTS: \"${{ steps.a01_roofline_4.outputs.result }}\""));
  EXPECT_TRUE(contains(yaml, "runners: a01_roofline_1,a01_roofline_4\n"));
  EXPECT_TRUE(contains(yaml, "uses: actions/checkout@v5\n"));
}

// A step id with a hyphen sends the reporter down an error path that names
// neither the id nor the variable: ids and <ID>_RESULTS are letters, digits, _.
TEST(ClassroomWorkflow, StepIdsHaveNoHyphens) {
  const std::string yaml = classroom_workflow({rubric_of("a07-odd.name", {rubric_group("g", "T.*", 1)})});
  EXPECT_TRUE(contains(yaml, "id: a07_odd_name_1\n")) << yaml;
  EXPECT_TRUE(contains(yaml, "A07_ODD_NAME_1_RESULTS:")) << yaml;
}

// One lab that does not compile must not cost the others their points: the
// build keeps going and does not stop the job, and every grader and the
// reporter run whatever happened before them.
TEST(ClassroomWorkflow, ABrokenLabNeverSkipsTheOtherGraders) {
  const RubricGroup group = rubric_group("memory", "ModelMemory.*", 8);
  const std::string yaml = classroom_workflow({rubric_of("a01_roofline", {group, group})});
  EXPECT_TRUE(contains(yaml, "continue-on-error: true\n        run: ./lab build --keep-going\n")) << yaml;
  EXPECT_EQ(occurrences(yaml, "if: ${{ !cancelled() }}"), 3u) << "two graders and the reporter\n" << yaml;
}

// Classroom's autograding sums its graders' maximum scores: a bonus group's
// grader runs, as feedback, worth 0 there.
TEST(ClassroomWorkflow, ABonusGroupsGraderIsWorthNothingThere) {
  RubricGroup bonus = rubric_group("extra", "Extra.*", 5);
  bonus.bonus = true;
  const std::string yaml =
      classroom_workflow({rubric_of("a05_cuda_attention", {rubric_group("memory", "M.*", 8), bonus})});
  EXPECT_TRUE(contains(yaml, "test-name: \"a05_cuda_attention: extra\"")) << yaml;
  EXPECT_TRUE(contains(yaml, "max-score: 8\n")) << yaml;
  EXPECT_TRUE(contains(yaml, "max-score: 0\n")) << yaml;
  EXPECT_FALSE(contains(yaml, "max-score: 5\n")) << yaml;
}

TEST(ClassroomWorkflow, FeedbackOnlyGradersAreWorthNothing) {
  const std::string yaml = classroom_workflow({rubric_of("a01_roofline", {rubric_group("memory", "ModelMemory.*", 8)})},
                                              {.feedback_only = true});
  EXPECT_TRUE(contains(yaml, "max-score: 0\n")) << yaml;
  EXPECT_FALSE(contains(yaml, "max-score: 8\n")) << yaml;
}

// A repository exported for some labs: the README's tested commands run the
// first of them, its table lists them alone, and a01 is named nowhere else.
TEST(StudentReadme, StartsWithTheFirstExportedLab) {
  const std::string readme =
      "Clone it. <!-- graded labs -->\n\n<!-- commands: run by the course's tests, in this order -->\n```bash\n"
      "./lab build                          # builds\n./lab test a01_roofline              # a01's tests\n"
      "./lab analyze --model gpt2-xl\n```\n\ndocker run x ./lab test a01_roofline\n\n| lab | what |\n|---|---|\n"
      "| [a01_roofline](assignments/a01_roofline/README.md) | roofline |\n"
      "| [a05_cuda_attention](assignments/a05_cuda_attention/README.md) | kernels |\n"
      "| [a06_kv_cache_decode](assignments/a06_kv_cache_decode/README.md) | decode |\n";
  const std::string written = readme_for_labs(readme, {{"a05_cuda_attention", true, true}});
  EXPECT_TRUE(
      contains(written,
               "```bash\n./lab build                          # installs missing packages, builds your code and "
               "the public tests\n./lab test a05_cuda_attention        # a05's public tests"))
      << written;
  EXPECT_TRUE(contains(written, "./lab example a05_cuda_attention     # a05's worked examples")) << written;
  EXPECT_TRUE(contains(written, "./lab profile a05_cuda_attention     # a05's profile")) << written;
  EXPECT_FALSE(contains(written, "analyze")) << written;
  EXPECT_FALSE(contains(written, "a01")) << written;
  EXPECT_FALSE(contains(written, "a06")) << written;
  EXPECT_TRUE(contains(written, "docker run x ./lab test a05_cuda_attention\n")) << written;
  EXPECT_TRUE(contains(written, "| [a05_cuda_attention](assignments/a05_cuda_attention/README.md) | kernels |\n"))
      << written;
}

}  // namespace
}  // namespace rooflab::release
