#include "release/release_command.hpp"

#include <nlohmann/json.hpp>

#include <iostream>
#include <set>

#include "os/process.hpp"
#include "release/release.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace fs = std::filesystem;
namespace {

// Compiles each generated file that holds stubs with the exact command the
// solutions build used for its solution twin, so a stub that would not compile
// (or would warn under -Werror) fails the release with its file and line.
bool stubs_compile(const std::map<fs::path, std::string>& tree, const ReleaseOptions& options) {
  const nlohmann::json commands = nlohmann::json::parse(text::read_file(options.compile_commands));
  const fs::path scratch = fs::temp_directory_path() / ("rooflab-release-" + std::to_string(::getpid()));
  fs::remove_all(scratch);
  for (const auto& [relative, contents] : tree) text::write_file(scratch / relative, contents);

  bool ok = true;
  for (const auto& [relative, contents] : tree) {
    const fs::path solution = fs::weakly_canonical(options.solutions / relative);
    if (!release::has_markers(text::read_file(solution))) continue;
    for (const auto& entry : commands) {
      if (fs::weakly_canonical(entry.at("file").get<std::string>()) != solution) continue;
      std::string command = entry.at("command").get<std::string>();
      const auto replace_all = [&](const std::string& from, const std::string& to) {
        for (auto at = command.find(from); at != std::string::npos; at = command.find(from, at + to.size()))
          command.replace(at, from.size(), to);
      };
      replace_all(entry.at("file").get<std::string>(), (scratch / relative).string());
      if (const auto out = command.find(" -o "); out != std::string::npos) {
        const auto end = command.find(' ', out + 4);
        command.replace(out, end - out, " -o /dev/null");
      }
      const ProcessResult result = run_process({"/bin/sh", "-c", command}, entry.at("directory").get<std::string>(),
                                               scratch / "compile.log", ProcessLimits::timeout(300));
      if (!result.succeeded()) {
        ok = false;
        std::cerr << "release: the stub generated from " << (options.solutions / relative).string()
                  << " does not compile:\n"
                  << result.output << '\n';
      }
    }
  }
  fs::remove_all(scratch);
  return ok;
}

}  // namespace

int run_release(const ReleaseOptions& options) {
  std::map<fs::path, std::string> tree;
  try {
    tree = release::generate(options.solutions);
  } catch (const release::ReleaseError& error) {
    std::cerr << "release: " << error.what() << '\n';
    return 1;
  }

  if (options.check) {
    std::vector<std::string> stale;
    std::set<fs::path> expected;
    for (const auto& [relative, contents] : tree) {
      expected.insert(relative);
      const fs::path target = options.assignments / relative;
      if (!fs::exists(target))
        stale.push_back("missing  " + target.string());
      else if (text::read_file(target) != contents)
        stale.push_back("changed  " + target.string());
    }
    if (fs::exists(options.assignments)) {
      for (const auto& entry : fs::recursive_directory_iterator(options.assignments)) {
        const fs::path relative = entry.path().lexically_relative(options.assignments);
        if (entry.is_regular_file() && !expected.count(relative)) stale.push_back("extra    " + entry.path().string());
      }
    }
    if (stale.empty()) {
      std::cout << "release --check: " << options.assignments.string() << " is up to date (" << tree.size()
                << " files)\n";
      return 0;
    }
    std::cerr << "release --check: " << options.assignments.string()
              << " is out of date with solutions/; run ./lab release\n";
    for (const auto& line : stale) std::cerr << "  " << line << '\n';
    return 1;
  }

  if (!options.compile_commands.empty() && !stubs_compile(tree, options)) return 1;
  fs::remove_all(options.assignments);
  for (const auto& [relative, contents] : tree) text::write_file(options.assignments / relative, contents);
  std::cout << "release: wrote " << tree.size() << " files to " << options.assignments.string() << '\n';
  return 0;
}

}  // namespace rooflab
