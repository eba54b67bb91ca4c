#include "checks.hpp"

#include <gtest/gtest.h>

#include "text.hpp"

namespace rooflab {
namespace {

std::vector<std::string> check(const std::string& source) {
  const auto path = std::filesystem::temp_directory_path() / "rooflab-checks-test.cpp";
  text::write_file(path, source);
  return check_source(path, "a01/src/x.cpp");
}

TEST(Checks, IncludesOutsideTheAssignmentAreRefusedWithFileAndLine) {
  EXPECT_TRUE(check("#include \"a01_roofline/memory.hpp\"\n#include <vector>\n").empty());
  const auto relative = check("// fine\n#include \"../../../autograder/a01_roofline/tests/x.cpp\"\n");
  ASSERT_EQ(relative.size(), 1u);
  EXPECT_NE(relative[0].find("a01/src/x.cpp:2"), std::string::npos) << relative[0];
  EXPECT_EQ(check("  #  include </course/solutions/memory.cpp>\n").size(), 1u);
  EXPECT_EQ(check("#if __has_include(\"/etc/passwd\")\n#endif\n").size(), 1u);
  EXPECT_EQ(check("asm(\".incbin \\\"x\\\"\");\n").size(), 1u);
}

TEST(Checks, ForbiddenSymbolsAreNamedWithTheirSource) {
  const std::string nm =
      "/b/CMakeFiles/a01_student.dir/src/memory.cpp.o:0000000000000000 T main\n"
      "/b/CMakeFiles/a01_student.dir/src/memory.cpp.o:                 U exit\n"
      "/b/CMakeFiles/a01_student.dir/src/memory.cpp.o:                 U quick_exit@GLIBC_2.24\n"
      "/b/CMakeFiles/a01_student.dir/src/roofline.cpp.o:0000000000000010 T _ZN12a01_roofline11ridge_pointEdd\n"
      "/b/CMakeFiles/a01_student.dir/src/roofline.cpp.o:                 U _ZN7testing8internal9EqFailureEv\n"
      "/b/CMakeFiles/a01_student.dir/src/roofline.cpp.o:                 U _ZNSt6vectorIdSaIdEE9push_backEv\n"
      "/b/CMakeFiles/a01_student.dir/src/roofline.cpp.o:                 U exit_helper\n";
  const auto problems = check_symbols(nm);
  ASSERT_EQ(problems.size(), 4u) << text::trim(problems.empty() ? "" : problems.back());
  EXPECT_NE(problems[0].find("src/memory.cpp defines main"), std::string::npos) << problems[0];
  EXPECT_NE(problems[1].find("src/memory.cpp calls exit"), std::string::npos) << problems[1];
  EXPECT_NE(problems[2].find("calls quick_exit"), std::string::npos) << problems[2];
  EXPECT_NE(problems[3].find("src/roofline.cpp calls _ZN7testing"), std::string::npos) << problems[3];
}

}  // namespace
}  // namespace rooflab
