#include "release/release_command.hpp"

#include <nlohmann/json.hpp>

#include <iostream>
#include <map>
#include <optional>
#include <set>

#include "os/process.hpp"
#include "release/include_pruning.hpp"
#include "release/release.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace fs = std::filesystem;
namespace {

// The compile commands of a solutions build, and the scratch folder where a
// generated file is compiled in place of its solution twin.
class StubCompiler {
 public:
  StubCompiler(const ReleaseOptions& options, const std::map<fs::path, std::string>& tree)
      : options_(options), scratch_(fs::temp_directory_path() / ("rooflab-release-" + std::to_string(::getpid()))) {
    // Each source's compile commands, found once (a stub is compiled several
    // times while its includes are pruned).
    for (const auto& entry : nlohmann::json::parse(text::read_file(options.compile_commands)))
      commands_[fs::weakly_canonical(entry.at("file").get<std::string>())].push_back(entry);
    fs::remove_all(scratch_);
    // The whole tree, so that a stub's own includes resolve as they will for students.
    for (const auto& [relative, contents] : tree) text::write_file(scratch_ / relative, contents);
  }
  ~StubCompiler() { fs::remove_all(scratch_); }
  StubCompiler(const StubCompiler&) = delete;
  StubCompiler& operator=(const StubCompiler&) = delete;

  // Compiles `contents` as `relative` with the exact command(s) the solutions
  // build used for its solution twin (g++, and nvcc for a .cu file where it
  // exists). Empty when every command succeeded, else the compiler's output.
  // A file that no command compiles (a header) succeeds.
  std::optional<std::string> errors(const fs::path& relative, const std::string& contents) {
    // The version pruning settled on was compiled last: not again.
    if (const auto last = last_.find(relative); last != last_.end() && last->second.first == contents)
      return last->second.second;
    text::write_file(scratch_ / relative, contents);
    const auto found = commands_.find(fs::weakly_canonical(options_.solutions / relative));
    std::string output;
    for (const auto& entry : found == commands_.end() ? std::vector<nlohmann::json>{} : found->second) {
      std::string command = entry.at("command").get<std::string>();
      const auto replace_all = [&](const std::string& from, const std::string& to) {
        for (auto at = command.find(from); at != std::string::npos; at = command.find(from, at + to.size()))
          command.replace(at, from.size(), to);
      };
      replace_all(entry.at("file").get<std::string>(), (scratch_ / relative).string());
      if (const auto out = command.find(" -o "); out != std::string::npos) {
        const auto end = command.find(' ', out + 4);
        command.replace(out, end - out, " -o /dev/null");
      }
      const ProcessResult result = run_process({"/bin/sh", "-c", command}, entry.at("directory").get<std::string>(),
                                               scratch_ / "compile.log", ProcessLimits::timeout(300));
      if (!result.succeeded()) output += result.output;
    }
    const std::optional<std::string> result = output.empty() ? std::nullopt : std::optional<std::string>(output);
    last_[relative] = {contents, result};
    return result;
  }

 private:
  const ReleaseOptions& options_;
  std::map<fs::path, std::vector<nlohmann::json>> commands_;  // canonical source -> its compile commands
  std::map<fs::path, std::pair<std::string, std::optional<std::string>>> last_;  // relative -> last compile
  fs::path scratch_;
};

// The assignment a generated file belongs to: its first path component.
std::string assignment_of(const fs::path& relative) { return relative.begin()->string(); }

// Drops the includes each stub does not need (include_pruning.hpp), then
// compiles every stub: one that would not compile (or would warn under
// -Werror) fails the release with its file and line.
bool prune_and_compile_stubs(std::map<fs::path, std::string>& tree, const ReleaseOptions& options) {
  StubCompiler compiler(options, tree);
  bool ok = true;
  for (auto& [relative, contents] : tree) {
    if (!release::has_markers(text::read_file(options.solutions / relative))) continue;
    const std::string before = contents;
    contents = release::prune_includes(contents, assignment_of(relative), [&](const std::string& version) {
      return !compiler.errors(relative, version).has_value();
    });
    if (contents != before)
      std::cout << "release: " << relative.string() << ": dropped includes the stub does not need\n";
    if (const auto errors = compiler.errors(relative, contents)) {
      ok = false;
      std::cerr << "release: the stub generated from " << (options.solutions / relative).string()
                << " does not compile:\n"
                << *errors << '\n';
    }
  }
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
      else if (const std::string released = text::read_file(target);
               released != contents && !release::same_but_pruned_includes(contents, released, assignment_of(relative)))
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

  if (!options.compile_commands.empty() && !prune_and_compile_stubs(tree, options)) return 1;
  fs::remove_all(options.assignments);
  for (const auto& [relative, contents] : tree) text::write_file(options.assignments / relative, contents);
  std::cout << "release: wrote " << tree.size() << " files to " << options.assignments.string() << '\n';
  return 0;
}

}  // namespace rooflab
