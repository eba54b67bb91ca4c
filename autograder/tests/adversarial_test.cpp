// Grades every hostile submission in adversarial/ (one per attack, see
// expected.json and docs/autograder_security.md) and checks that each scores
// exactly what it earned, the grader always writes an intact report (and, for
// a refused zip, a clear error too), the machine is unchanged afterwards, and
// the machine's memory and disk stayed within the grader's stated caps.
//
// An entry of expected.json may give: "assignment" (a name, a list, or "all";
// default a01_roofline), "source" (the folder holding its files, default the
// entry's name), "substitute" (placeholder -> text in its files), "files"
// (submission path -> course path to copy in), "args" (more grader flags),
// "notes" (text the report must hold), "absent" (text it must not hold),
// "no_crash" (no test may crash the verdict), "needs_memory_cgroup" (skipped
// where the grader cannot create memory cgroups), and the score or the error.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <sstream>
#include <thread>

#include "grading_harness.hpp"
#include "os/memory_cgroup.hpp"
#include "os/process.hpp"
#include "os/sandbox.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace {
namespace fs = std::filesystem;

const fs::path kSource = ROOFLAB_SOURCE_DIR;
const fs::path kAttacks = kSource / "autograder" / "tests" / "adversarial";
const fs::path kScratch = fs::temp_directory_path() / ("rooflab-adversarial-" + std::to_string(::getpid()));

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

// Every assignment's hidden tests and rubric (solutions/<assignment>/grading/).
std::map<std::string, std::string> hidden_snapshot() {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::directory_iterator(kSource / "solutions"))
    if (fs::is_directory(entry.path() / "grading")) files.merge(snapshot(entry.path() / "grading"));
  return files;
}

// Processes a grading could leave running: any worker, or anything run as
// nobody. Zombies are not running: bubblewrap's inner init is reparented to the
// machine's init, which reaps it a moment later.
std::vector<std::string> stray_processes() {
  std::vector<std::string> found;
  for (const ProcessInfo& process : list_processes()) {
    if (process.zombie) continue;
    if (process.uid == 65534 || process.cmdline.find("_worker") != std::string::npos)
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
  const nlohmann::json assignment = expected.value("assignment", nlohmann::json("a01_roofline"));
  const nlohmann::json names = assignment.is_array() ? assignment : nlohmann::json::array({assignment});
  for (const auto& name : names)
    if (name != "all") flags.insert(flags.end(), {"--assignment", name.get<std::string>()});
  const nlohmann::json args = expected.value("args", nlohmann::json::array());
  for (const auto& flag : args) flags.push_back(flag.get<std::string>());
  return flags;
}

// The most of the machine's memory in use, and of the temp folder's disk,
// while a grading runs: sampled every 50 ms, minus what was in use before.
class MachineWatch {
 public:
  MachineWatch() : memory_before_(memory_used()), disk_before_(disk_used()) {
    thread_ = std::thread([this] {
      while (!stop_) {
        memory_peak_ = std::max(memory_peak_.load(), memory_used());
        disk_peak_ = std::max(disk_peak_.load(), disk_used());
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    });
  }
  ~MachineWatch() { stop(); }
  void stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  double memory_mib() const { return (double(memory_peak_) - double(memory_before_)) / (1 << 20); }
  double disk_mib() const { return (double(disk_peak_) - double(disk_before_)) / (1 << 20); }

 private:
  static std::uint64_t memory_used() {
    std::uint64_t total = 0, available = 0;
    std::istringstream meminfo(text::read_file("/proc/meminfo"));
    for (std::string key, unit; meminfo >> key;) {
      std::uint64_t kib = 0;
      meminfo >> kib;
      std::getline(meminfo, unit);
      if (key == "MemTotal:") total = kib;
      if (key == "MemAvailable:") available = kib;
    }
    return (total - available) * 1024;
  }
  static std::uint64_t disk_used() {
    struct statvfs info {};
    if (::statvfs(fs::temp_directory_path().c_str(), &info) != 0) return 0;
    return std::uint64_t(info.f_blocks - info.f_bfree) * info.f_frsize;
  }
  std::uint64_t memory_before_, disk_before_;
  std::atomic<std::uint64_t> memory_peak_{0}, disk_peak_{0};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

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
  const auto hidden_before = hidden_snapshot();
  const auto solutions_before = snapshot(kSource / "solutions");
  const auto submission_before = snapshot(submission.parent_path());

  std::vector<std::string> flags{"--require-sandbox"};
  for (const std::string& flag : grading_flags(expected)) flags.push_back(flag);
  MachineWatch watch;
  const testing::Graded grading = testing::grade_with_rooflab(submission, out, flags, kScratch / (name + ".log"));
  const ProcessResult& graded = grading.process;
  watch.stop();
  ::testing::Test::RecordProperty("machine_memory_peak_mib", std::to_string(watch.memory_mib()));
  ::testing::Test::RecordProperty("machine_disk_peak_mib", std::to_string(watch.disk_mib()));

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

  // The machine stayed within the grader's stated caps: its scratch space is
  // a tmpfs where the grader is root (nothing reaches the disk but the report
  // and capped logs), and two tests' workers and a build at most at a time.
  if (report.find("kernel-enforced); peak") != std::string::npos) {
    EXPECT_LT(watch.disk_mib(), 64) << "MiB of disk used while grading";
  }
  EXPECT_LT(watch.memory_mib(), 2 * 2048 + 8192 + 4096) << "MiB of the machine's memory used while grading";

  EXPECT_EQ(hidden_snapshot(), hidden_before) << "the hidden tests changed";
  EXPECT_EQ(snapshot(kSource / "solutions"), solutions_before) << "the solutions changed";
  EXPECT_EQ(snapshot(submission.parent_path()), submission_before) << "the submission changed";
  for (const fs::path& marker :
       {kScratch / "escaped-marker", kSource / "escaped-marker", kSource / "results.json",
        fs::path("/autograder/results/results.json"), fs::path("/tmp/results.json"),
        fs::path("/tmp/rooflab-adversarial-cmake-marker"), fs::path("/tmp/rooflab-adversarial-evil.cpp"),
        kScratch / "evil.cpp", fs::path("/root/rooflab-escaped-marker")})
    EXPECT_FALSE(fs::exists(marker)) << marker;
  EXPECT_FALSE(listener.was_contacted()) << "a submission reached the network";
  EXPECT_EQ(stray_processes(), std::vector<std::string>{});
}

INSTANTIATE_TEST_SUITE_P(Attacks, Adversarial, ::testing::ValuesIn(attack_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace rooflab
