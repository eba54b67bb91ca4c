#include "grading_harness.hpp"

#include "text/text.hpp"

namespace rooflab::testing {

Graded grade_with_rooflab(const std::filesystem::path& submission, const std::filesystem::path& out,
                          const std::vector<std::string>& extra, const std::filesystem::path& log,
                          const SpawnOptions& options) {
  std::vector<std::string> argv{
      ROOFLAB_TOOL, "grade", submission.string(), "--manifest", ROOFLAB_MANIFEST, "--out", out.string(), "-j", "2"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  std::filesystem::create_directories(log.parent_path());
  Graded graded;
  graded.process = run_process(argv, log.parent_path(), log, ProcessLimits::timeout(900), options);
  if (std::filesystem::exists(out / "results.json")) {
    graded.results_text = text::read_file(out / "results.json");
    graded.results = nlohmann::json::parse(graded.results_text);
  }
  if (std::filesystem::exists(out / "report.md")) graded.report = text::read_file(out / "report.md");
  return graded;
}

}  // namespace rooflab::testing
