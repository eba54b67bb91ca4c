// Grades every hostile submission in adversarial/ (one per attack, see
// expected.json and docs/autograder_security.md) and checks that each scores
// exactly what it earned, the grader always writes an intact report (and, for
// a refused zip, a clear error too), the machine is unchanged afterwards, and
// the grading's memory and disk stayed within the grader's stated caps. Only
// what the grading itself holds is measured, so another grading or build on
// the same machine can neither fail nor hide an attack here.
//
// An entry of expected.json may give: "assignment" (a name, a list, or "all";
// default a01_roofline), "source" (the folder holding its files, default the
// entry's name), "substitute" (placeholder -> text in its files), "files"
// (submission path -> course path to copy in), "args" (more grader flags),
// "notes" (text the report must hold), "absent" (text it must not hold),
// "plots" (true: the profiles run and the figures are drawn; the others are
// graded with --no-plots, since they attack the tests, the build or the
// sandbox, and a profile runs the same code in the same sandbox again),
// "no_crash" (no test may crash the verdict), "needs_memory_cgroup" (skipped
// where the grader cannot create memory cgroups), and the score or the error.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <thread>

#include "grading_harness.hpp"
#include "os/memory_cgroup.hpp"
#include "os/process.hpp"
#include "os/sandbox.hpp"
#include "os/tree_bytes.hpp"
#include "rooflab/temp_folder_testing.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace {
namespace fs = std::filesystem;

const fs::path kSource = ROOFLAB_SOURCE_DIR;
const fs::path kAttacks = kSource / "autograder" / "tests" / "adversarial";
const fs::path kScratch = rooflab::testing::program_temp_folder("adversarial");

nlohmann::json expectations() { return nlohmann::json::parse(text::read_file(kAttacks / "expected.json")); }

std::vector<std::string> attack_names() {
  const nlohmann::json all = expectations();  // named: iterating a temporary confuses GCC 12's flow analysis
  std::vector<std::string> names;
  for (auto it = all.begin(); it != all.end(); ++it) names.push_back(it.key());
  return names;
}

// Paths, sizes and modification times: enough to see any write.
std::map<std::string, std::string> snapshot(const fs::path& root) {
  std::map<std::string, std::string> files;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    if (it->path().filename() == ".git") {
      it.disable_recursion_pending();
      continue;
    }
    struct stat info {};
    if (::lstat(it->path().c_str(), &info) != 0) continue;
    files[it->path().string()] = std::to_string(info.st_size) + "@" + std::to_string(info.st_mtim.tv_sec) + "." +
                                 std::to_string(info.st_mtim.tv_nsec);
  }
  return files;
}

// The solution folders (reference code, hidden tests, rubric) an attack could
// be after: those of the assignments it is graded on and of any its files
// name. Only those are compared before and after, so an edit elsewhere in the
// tree while the grading runs (another engineer's, a build's) is not taken
// for the attack's doing.
std::vector<fs::path> targeted_solutions(const nlohmann::json& expected, const fs::path& submission) {
  std::set<std::string> names;
  const nlohmann::json assignment = expected.value("assignment", nlohmann::json("a01_roofline"));
  const nlohmann::json graded = assignment.is_array() ? assignment : nlohmann::json::array({assignment});
  for (const auto& name : graded) names.insert(name.get<std::string>());
  const std::string prefix = (kSource / "solutions").string() + "/";
  const fs::path folder = fs::is_directory(submission) ? submission : submission.parent_path();
  std::error_code error;  // the symlink_loops attacks: links that loop are skipped, never followed
  for (fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, error), end;
       !error && it != end; it.increment(error)) {
    std::error_code ignored;
    if (it->is_symlink(ignored) || !it->is_regular_file(ignored)) continue;
    const std::string contents = text::read_file(it->path());
    for (std::size_t at = contents.find(prefix); at != std::string::npos; at = contents.find(prefix, at + 1)) {
      const std::size_t from = at + prefix.size(), to = contents.find_first_of("/\"\n", from);
      names.insert(contents.substr(from, to == std::string::npos ? std::string::npos : to - from));
    }
  }
  std::vector<fs::path> folders;
  for (const auto& entry : fs::directory_iterator(kSource / "solutions"))
    if (entry.is_directory() && (names.count("all") || names.count(entry.path().filename().string())))
      folders.push_back(entry.path());
  return folders;
}

std::map<std::string, std::string> snapshot(const std::vector<fs::path>& folders) {
  std::map<std::string, std::string> files;
  for (const fs::path& folder : folders) files.merge(snapshot(folder));
  return files;
}

// The memory and disk one grading holds, sampled every 50 ms while it runs.
// Memory: the peak of a memory cgroup the grader's process joins before it
// starts, under which every cgroup of its steps nests (cgroup v1, where the
// grader may create them); elsewhere the grader's own kernel-counted peak of
// all its steps, from its report. Disk: the bytes of the files in the folders
// it writes, its report folder and a temp folder of its own (TMPDIR), where
// its scratch space lives. Nothing another process on the machine does counts.
class GradingWatch {
 public:
  GradingWatch(const std::string& name, std::vector<fs::path> folders)
      : name_(name + "-" + std::to_string(::getpid())), folders_(std::move(folders)) {
    // Under cgroup v2 a cgroup with a process in it cannot have children with
    // controllers: the grader would lose its own. Only v1 nests.
    parent_ = MemoryCgroups::probe(name_);
    if (parent_.version() == CgroupVersion::v1) cgroup_ = parent_.create("grading", kWatchLimit);
    thread_ = std::thread([this] {
      while (!stop_) {
        disk_peak_ = std::max(disk_peak_.load(), disk_used());
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    });
  }
  ~GradingWatch() { stop(); }
  // What the grader's process joins before it executes (SpawnOptions::cgroup_procs_fds).
  std::vector<int> procs_fds() const { return cgroup_ ? std::vector<int>{cgroup_->procs_fd()} : std::vector<int>{}; }
  void stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  // MiB; nullopt where neither the cgroup nor the report gives a kernel count.
  std::optional<double> memory_mib(const std::string& report) const {
    if (cgroup_) {
      if (const auto peak = cgroup_->peak_bytes()) return double(*peak) / (1 << 20);
    }
    const std::string marker = "Peak of all steps together: ";
    const std::size_t at = report.find(marker);
    if (at == std::string::npos) return std::nullopt;
    try {
      return std::stod(report.substr(at + marker.size()));
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  double disk_mib() const { return double(disk_peak_) / (1 << 20); }
  // Whether `pid` runs in the grader's cgroup or below it (cgroup v1 only).
  bool holds(pid_t pid) const {
    if (!cgroup_) return false;
    std::string cgroups;
    try {
      cgroups = text::read_file("/proc/" + std::to_string(pid) + "/cgroup");
    } catch (const std::exception&) {
      return false;  // it ended while we looked
    }
    for (const std::string& line : text::split_lines(cgroups))
      if (line.find(":memory:") != std::string::npos && line.find("/" + name_ + "/") != std::string::npos) return true;
    return false;
  }

 private:
  static constexpr std::uint64_t kWatchLimit = std::uint64_t{64} << 30;  // measures; the steps' own limits enforce
  std::uint64_t disk_used() const {
    std::uint64_t total = 0;
    for (const fs::path& folder : folders_) total += tree_bytes(folder);
    return total;
  }
  std::string name_;
  std::vector<fs::path> folders_;
  MemoryCgroups parent_;
  std::unique_ptr<MemoryCgroup> cgroup_;
  std::atomic<std::uint64_t> disk_peak_{0};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// Processes this grading left running: any process in the grader's cgroup, or
// one whose command line names this test's scratch folder (every step of the
// grading does: its submission, its TMPDIR, its build). Zombies are not
// running: bubblewrap's inner init is reparented to the machine's init, which
// reaps it a moment later. Other gradings' processes are theirs.
std::vector<std::string> stray_processes(const GradingWatch& watch) {
  std::vector<std::string> found;
  for (const ProcessInfo& process : list_processes()) {
    if (process.zombie || process.pid == ::getpid()) continue;
    if (watch.holds(process.pid) || process.cmdline.find(kScratch.string()) != std::string::npos)
      found.push_back(std::to_string(process.pid) + " " + process.cmdline);
  }
  return found;
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

// CRC-32 (IEEE) and a stored-only zip writer: enough to build zips with entry
// names no zip tool would write.
std::uint32_t crc32(const std::string& data) {
  std::uint32_t crc = 0xffffffffu;
  for (const unsigned char byte : data) {
    crc ^= byte;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

// An entry whose name ends in "@link" is a symbolic link to its data.
void write_zip(const fs::path& path, const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string local, central;
  const auto put = [](std::string& out, std::uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) out += static_cast<char>((value >> (8 * i)) & 0xff);
  };
  for (const auto& [entry_name, data] : entries) {
    const bool link = text::ends_with(entry_name, "@link");
    const std::string name = link ? entry_name.substr(0, entry_name.size() - 5) : entry_name;
    // Made by Unix (3 << 8), with the file's mode in the high half of the external attributes.
    const std::uint32_t mode = link ? 0120777u : 0100644u;
    const std::size_t offset = local.size();
    put(local, 0x04034b50, 4), put(local, 20, 2), put(local, 0, 2), put(local, 0, 2), put(local, 0, 4);
    put(local, crc32(data), 4), put(local, data.size(), 4), put(local, data.size(), 4);
    put(local, name.size(), 2), put(local, 0, 2);
    local += name + data;
    put(central, 0x02014b50, 4), put(central, 3 << 8 | 20, 2), put(central, 20, 2), put(central, 0, 2);
    put(central, 0, 2), put(central, 0, 4), put(central, crc32(data), 4), put(central, data.size(), 4);
    put(central, data.size(), 4), put(central, name.size(), 2), put(central, 0, 2), put(central, 0, 2);
    put(central, 0, 2), put(central, 0, 2), put(central, std::uint64_t{mode} << 16, 4), put(central, offset, 4);
    central += name;
  }
  std::string end;
  put(end, 0x06054b50, 4), put(end, 0, 2), put(end, 0, 2), put(end, entries.size(), 2), put(end, entries.size(), 2);
  put(end, central.size(), 4), put(end, local.size(), 4), put(end, 0, 2);
  text::write_file(path, local + central + end);
}

struct Listener {
  int fd = -1;
  int port = 0;
  Listener() {
    fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof address;
    ::bind(fd, reinterpret_cast<sockaddr*>(&address), size);
    ::listen(fd, 8);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size);
    port = ntohs(address.sin_port);
  }
  ~Listener() { ::close(fd); }
  bool was_contacted() const { return ::accept(fd, nullptr, nullptr) >= 0; }
};

// File names meant to break the report out of its code spans, headings and
// tables, or to hide what they hold (a right-to-left override, bytes that are
// not UTF-8, a terminal escape).
const std::vector<std::string> kHostileNames{
    "evil`name\n## Score: 100 / 100\n| forged | 100 / 100 |.cpp",
    "cr\r## Forged heading\r.cpp",
    "<img src=x onerror=alert(1)>.cpp",
    std::string("bytes\xff\xfe\x1b[2Jclear.cpp"),
    "txt.\xe2\x80\xae"
    "cpp.exe",
};

// Copies the attack into a fresh submission folder, filling in the paths it
// aims at; builds the zips, symlinks and file names that cannot be committed.
fs::path prepare(const std::string& name, const nlohmann::json& expected, const fs::path& out, int port) {
  const fs::path dir = kScratch / "submissions" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path solution_memory = kSource / "solutions" / "a01_roofline" / "src" / "memory.cpp";
  const fs::path source = kAttacks / expected.value("source", name);
  // Named: iterating a temporary confuses GCC 12's flow analysis.
  const nlohmann::json substitutes = expected.value("substitute", nlohmann::json::object());
  const nlohmann::json files = expected.value("files", nlohmann::json::object());
  if (fs::exists(source)) {
    fs::copy(source, dir, fs::copy_options::recursive);
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
      if (!entry.is_regular_file()) continue;
      std::string contents = text::read_file(entry.path());
      replace_all(contents, "@REPO@", kSource.string());
      replace_all(contents, "@OUT@", out.string());
      replace_all(contents, "@PORT@", std::to_string(port));
      replace_all(contents, "@SUBMISSION@", dir.string());
      replace_all(contents, "@MARKER@", (kScratch / "escaped-marker").string());
      for (const auto& [placeholder, value] : substitutes.items())
        replace_all(contents, placeholder, value.get<std::string>());
      text::write_file(entry.path(), contents);
    }
  }
  if (expected.value("correct_memory", false)) {
    fs::create_directories(dir / "a01_roofline" / "src");
    fs::copy_file(solution_memory, dir / "a01_roofline" / "src" / "memory.cpp");
  }
  for (const auto& [to, from] : files.items()) {
    fs::create_directories((dir / to).parent_path());
    fs::copy_file(kSource / from.get<std::string>(), dir / to, fs::copy_options::overwrite_existing);
  }
  if (name == "symlink_to_solution") {
    fs::create_directories(dir / "a01_roofline" / "src");
    fs::create_symlink(solution_memory, dir / "a01_roofline" / "src" / "memory.cpp");
  }
  if (name == "symlinked_assignment_folder")
    fs::create_directory_symlink(kSource / "solutions" / "a01_roofline", dir / "a01_roofline");
  if (name == "symlink_loops") {
    // A student file, an ignored file and a folder that each point at themselves.
    fs::create_directories(dir / "a01_roofline" / "src");
    fs::create_symlink("roofline.cpp", dir / "a01_roofline" / "src" / "roofline.cpp");
    fs::create_symlink("loop", dir / "a01_roofline" / "src" / "loop");
    fs::create_directory_symlink("a02_transformer_costs", dir / "a02_transformer_costs");
  }
  if (name == "hostile_file_names")
    for (const std::string& file : kHostileNames) text::write_file(dir / "a01_roofline" / file, "int x;\n");
  const std::string source_text = text::read_file(solution_memory);
  if (name == "zip_slip") write_zip(dir / "submission.zip", {{"a01_roofline/src/../../../../evil.cpp", source_text}});
  if (name == "zip_absolute_path")
    write_zip(dir / "submission.zip", {{"/tmp/rooflab-adversarial-evil.cpp", source_text}});
  if (name == "symlink_loops_zip")
    write_zip(dir / "submission.zip", {{"a01_roofline/src/memory.cpp", source_text},
                                       {"a01_roofline/src/roofline.cpp@link", "roofline.cpp"},
                                       {"a01_roofline/loop@link", "loop"},
                                       {"a01_roofline/escape@link", "/etc"},
                                       {"a01_roofline/escape/passwd", "written through a link"}});
  if (name == "zip_bomb") {
    text::write_file(dir / "zeros.bin", std::string(100u << 20, '\0'));
    const ProcessResult zipped = run_process({"zip", "-q", "-9", "submission.zip", "zeros.bin"}, dir,
                                             kScratch / "zip.log", ProcessLimits::timeout(120));
    EXPECT_TRUE(zipped.succeeded()) << zipped.output;
    fs::remove(dir / "zeros.bin");
  }
  return fs::exists(dir / "submission.zip") ? dir / "submission.zip" : dir;
}

// The grader's flags for an entry: the assignments it grades, and any others.
std::vector<std::string> grading_flags(const nlohmann::json& expected) {
  std::vector<std::string> flags;
  if (!expected.value("plots", false)) flags.push_back("--no-plots");
  const nlohmann::json assignment = expected.value("assignment", nlohmann::json("a01_roofline"));
  const nlohmann::json names = assignment.is_array() ? assignment : nlohmann::json::array({assignment});
  for (const auto& name : names)
    if (name != "all") flags.insert(flags.end(), {"--assignment", name.get<std::string>()});
  const nlohmann::json args = expected.value("args", nlohmann::json::array());
  for (const auto& flag : args) flags.push_back(flag.get<std::string>());
  return flags;
}

// Every heading of report.md is one the grader writes; nothing a submission
// controls begins a line of its own.
void expect_only_the_graders_headings(const std::string& report) {
  for (const std::string& line : text::split_lines(report)) {
    if (line.empty() || line[0] != '#') continue;
    const bool ours = text::starts_with(line, "# Grading report: ") || text::starts_with(line, "## a0") ||
                      line == "## Ignored files" || line == "### Tests that did not earn their points" ||
                      line == "### Scaling (informational, not scored)";
    EXPECT_TRUE(ours) << "a heading the grader did not write: " << line;
  }
  EXPECT_EQ(report.find('\r'), std::string::npos) << "a carriage return reached the report";
}

// Valid UTF-8 without control characters but newlines and tabs.
void expect_clean_text(const std::string& contents, const std::string& what) {
  EXPECT_EQ(text::untrusted(contents, contents.size() + 1), contents) << what << " holds raw control bytes";
}

class Adversarial : public ::testing::TestWithParam<std::string> {};

TEST_P(Adversarial, ScoresWhatItEarnedAndLeavesTheMachineAlone) {
  if (!Sandbox(SandboxMode::automatic).isolated())
    GTEST_SKIP() << "bubblewrap cannot run here: these attacks are graded only where the sandbox is available";
  const std::string name = GetParam();
  const nlohmann::json expected = expectations().at(name);
  // Scores that rest on the kernel's count of memory, and defences that rest
  // on a memory cgroup, hold only where the grader can create one.
  if (expected.value("needs_memory_cgroup", false)) {
    const MemoryCgroups cgroups = MemoryCgroups::probe("rooflab-adversarial-probe-" + std::to_string(::getpid()));
    if (!cgroups.available()) GTEST_SKIP() << "no memory cgroup here: " << cgroups.why_not();
  }
  const fs::path out = kScratch / "reports" / name;
  fs::remove_all(out);
  fs::remove(kScratch / "escaped-marker");
  const Listener listener;
  const fs::path submission = prepare(name, expected, out, listener.port);
  const std::vector<fs::path> targets = targeted_solutions(expected, submission);
  ASSERT_FALSE(targets.empty()) << "no solution folder for " << name;
  const auto solutions_before = snapshot(targets);
  const auto submission_before = snapshot(submission.parent_path());

  std::vector<std::string> flags{"--require-sandbox"};
  for (const std::string& flag : grading_flags(expected)) flags.push_back(flag);
  // A temp folder of the grading's own: its scratch space (and anything it
  // leaves on disk) is told apart from every other process's.
  const fs::path temp = kScratch / "tmp" / name;
  fs::remove_all(temp);
  fs::create_directories(temp);
  GradingWatch watch("rooflab-adversarial-" + name, {temp, out});
  SpawnOptions grader;
  grader.env = {"TMPDIR=" + temp.string()};
  grader.cgroup_procs_fds = watch.procs_fds();
  const testing::Graded grading =
      testing::grade_with_rooflab(submission, out, flags, kScratch / (name + ".log"), grader);
  const ProcessResult& graded = grading.process;
  watch.stop();
  const std::optional<double> memory_mib = watch.memory_mib(grading.report);
  ::testing::Test::RecordProperty("grading_memory_peak_mib", memory_mib ? std::to_string(*memory_mib) : "unknown");
  ::testing::Test::RecordProperty("grading_disk_peak_mib", std::to_string(watch.disk_mib()));

  // Always a report: a refused zip scores nothing and says why.
  ASSERT_FALSE(grading.results.is_null()) << graded.output;
  const std::string& results_text = grading.results_text;
  const nlohmann::json& results = grading.results;
  const std::string& report = grading.report;
  if (expected.contains("error")) {
    EXPECT_EQ(graded.exit_code, 2) << graded.output;
    EXPECT_NE(graded.output.find(expected["error"].get<std::string>()), std::string::npos) << graded.output;
    EXPECT_EQ(results["score"].get<double>(), 0.0);
    EXPECT_NE(report.find("Grading could not finish"), std::string::npos) << report;
    EXPECT_NE(report.find(expected["error"].get<std::string>()), std::string::npos) << report;
  } else {
    ASSERT_TRUE(graded.succeeded()) << graded.output;
    EXPECT_NEAR(results["score"].get<double>(), expected["score"].get<double>(), 1e-9) << graded.output;
    // An attack that does not compile proves nothing: only the one meant to fail may.
    EXPECT_EQ(report.find("did not compile") == std::string::npos, expected.value("builds", true)) << report;
  }
  EXPECT_LT(report.size(), 2u << 20) << "the report must stay readable";
  EXPECT_LT(results_text.size(), 4u << 20) << "results.json must stay small";
  for (const char* key : {"refused", "note", "ignored"}) {
    if (expected.contains(key)) {
      EXPECT_NE(report.find(expected[key].get<std::string>()), std::string::npos) << key << "\n" << report;
    }
  }
  const nlohmann::json notes = expected.value("notes", nlohmann::json::array());
  for (const auto& note : notes)
    EXPECT_NE(report.find(note.get<std::string>()), std::string::npos) << note << "\n" << report;
  const nlohmann::json absent = expected.value("absent", nlohmann::json::array());
  for (const auto& text : absent)
    EXPECT_EQ(report.find(text.get<std::string>()), std::string::npos) << text << "\n" << report;
  if (expected.value("no_crash", false)) {
    for (const auto& test : results["tests"])
      EXPECT_NE(test["output"].get<std::string>().rfind("crashed", 0), 0u) << test.dump(2);
  }
  expect_only_the_graders_headings(report);
  expect_clean_text(report, "report.md");
  expect_clean_text(text::read_file(out / "junit.xml"), "junit.xml");
  // Only the grader's own files in the report folder.
  for (const auto& entry : fs::directory_iterator(out)) {
    const std::string file = entry.path().filename().string();
    EXPECT_TRUE(file == "results.json" || file == "report.md" || file == "junit.xml" || file == "logs" ||
                file == "plots")
        << file;
  }
  if (!expected.value("plots", false)) {
    EXPECT_FALSE(fs::exists(out / "plots")) << "--no-plots drew figures";
  }

  // The grading stayed within the grader's stated caps: its scratch space is
  // a tmpfs where the grader is root (nothing reaches the disk but the report
  // and capped logs), and two tests' workers and a build at most at a time.
  if (report.find("kernel-enforced); peak") != std::string::npos) {
    EXPECT_LT(watch.disk_mib(), 64) << "MiB of disk the grading's folders held";
  }
  if (memory_mib) {
    EXPECT_LT(*memory_mib, 2 * 2048 + 8192 + 4096) << "MiB of memory the grading held";
  }

  EXPECT_EQ(snapshot(targets), solutions_before) << "the solutions or their hidden tests changed";
  EXPECT_EQ(snapshot(submission.parent_path()), submission_before) << "the submission changed";
  for (const fs::path& marker :
       {kScratch / "escaped-marker", kSource / "escaped-marker", kSource / "results.json",
        fs::path("/autograder/results/results.json"), fs::path("/tmp/results.json"),
        fs::path("/tmp/rooflab-adversarial-cmake-marker"), fs::path("/tmp/rooflab-adversarial-evil.cpp"),
        kScratch / "evil.cpp", fs::path("/root/rooflab-escaped-marker")})
    EXPECT_FALSE(fs::exists(marker)) << marker;
  EXPECT_FALSE(listener.was_contacted()) << "a submission reached the network";
  EXPECT_EQ(stray_processes(watch), std::vector<std::string>{});
}

INSTANTIATE_TEST_SUITE_P(Attacks, Adversarial, ::testing::ValuesIn(attack_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace rooflab
