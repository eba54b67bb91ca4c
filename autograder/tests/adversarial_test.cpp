// Grades every hostile submission in adversarial/ (one per attack, see
// expected.json and docs/autograder_security.md) and checks that each scores
// exactly what it earned, the grader finishes with a clear report or a clear
// refusal, and the machine is unchanged afterwards.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>

#include "process.hpp"
#include "sandbox.hpp"
#include "text.hpp"

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

void write_zip(const fs::path& path, const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string local, central;
  const auto put = [](std::string& out, std::uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) out += static_cast<char>((value >> (8 * i)) & 0xff);
  };
  for (const auto& [name, data] : entries) {
    const std::size_t offset = local.size();
    put(local, 0x04034b50, 4), put(local, 20, 2), put(local, 0, 2), put(local, 0, 2), put(local, 0, 4);
    put(local, crc32(data), 4), put(local, data.size(), 4), put(local, data.size(), 4);
    put(local, name.size(), 2), put(local, 0, 2);
    local += name + data;
    put(central, 0x02014b50, 4), put(central, 20, 2), put(central, 20, 2), put(central, 0, 2), put(central, 0, 2);
    put(central, 0, 4), put(central, crc32(data), 4), put(central, data.size(), 4), put(central, data.size(), 4);
    put(central, name.size(), 2), put(central, 0, 2), put(central, 0, 2), put(central, 0, 2), put(central, 0, 2);
    put(central, 0, 4), put(central, offset, 4);
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

// Copies the attack into a fresh submission folder, filling in the paths it
// aims at; builds the zips and symlinks that cannot be committed.
fs::path prepare(const std::string& name, const nlohmann::json& expected, const fs::path& out, int port) {
  const fs::path dir = kScratch / "submissions" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path solution_memory = kSource / "solutions" / "a01_roofline" / "src" / "memory.cpp";
  if (fs::exists(kAttacks / name)) {
    fs::copy(kAttacks / name, dir, fs::copy_options::recursive);
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
      if (!entry.is_regular_file()) continue;
      std::string contents = text::read_file(entry.path());
      replace_all(contents, "@REPO@", kSource.string());
      replace_all(contents, "@OUT@", out.string());
      replace_all(contents, "@PORT@", std::to_string(port));
      replace_all(contents, "@SUBMISSION@", dir.string());
      replace_all(contents, "@MARKER@", (kScratch / "escaped-marker").string());
      text::write_file(entry.path(), contents);
    }
  }
  if (expected.value("correct_memory", false)) {
    fs::create_directories(dir / "a01_roofline" / "src");
    fs::copy_file(solution_memory, dir / "a01_roofline" / "src" / "memory.cpp");
  }
  if (name == "symlink_to_solution") {
    fs::create_directories(dir / "a01_roofline" / "src");
    fs::create_symlink(solution_memory, dir / "a01_roofline" / "src" / "memory.cpp");
  }
  if (name == "symlinked_assignment_folder")
    fs::create_directory_symlink(kSource / "solutions" / "a01_roofline", dir / "a01_roofline");
  const std::string source = text::read_file(solution_memory);
  if (name == "zip_slip") write_zip(dir / "submission.zip", {{"a01_roofline/src/../../../../evil.cpp", source}});
  if (name == "zip_absolute_path") write_zip(dir / "submission.zip", {{"/tmp/rooflab-adversarial-evil.cpp", source}});
  if (name == "zip_bomb") {
    text::write_file(dir / "zeros.bin", std::string(100u << 20, '\0'));
    const ProcessResult zipped = run_process({"zip", "-q", "-9", "submission.zip", "zeros.bin"}, dir,
                                             kScratch / "zip.log", ProcessLimits::timeout(120));
    EXPECT_TRUE(zipped.succeeded()) << zipped.output;
    fs::remove(dir / "zeros.bin");
  }
  return fs::exists(dir / "submission.zip") ? dir / "submission.zip" : dir;
}

class Adversarial : public ::testing::TestWithParam<std::string> {};

TEST_P(Adversarial, ScoresWhatItEarnedAndLeavesTheMachineAlone) {
  if (!Sandbox(SandboxMode::automatic).isolated())
    GTEST_SKIP() << "bubblewrap cannot run here: these attacks are graded only where the sandbox is available";
  const std::string name = GetParam();
  const nlohmann::json expected = expectations().at(name);
  const fs::path out = kScratch / "reports" / name;
  fs::remove_all(out);
  fs::remove(kScratch / "escaped-marker");
  const Listener listener;
  const fs::path submission = prepare(name, expected, out, listener.port);
  const auto hidden_before = snapshot(kSource / "autograder" / "a01_roofline");
  const auto solutions_before = snapshot(kSource / "solutions");
  const auto submission_before = snapshot(submission.parent_path());

  const ProcessResult graded =
      run_process({ROOFLAB_TOOL, "grade", submission.string(), "--manifest", ROOFLAB_MANIFEST, "--out", out.string(),
                   "-j", "2", "--require-sandbox", "--assignment", "a01_roofline"},
                  kScratch, kScratch / (name + ".log"), ProcessLimits::timeout(900));

  if (expected.contains("error")) {
    EXPECT_EQ(graded.exit_code, 2) << graded.output;
    EXPECT_NE(graded.output.find(expected["error"].get<std::string>()), std::string::npos) << graded.output;
    EXPECT_FALSE(fs::exists(out / "results.json"));
  } else {
    ASSERT_TRUE(graded.succeeded()) << graded.output;
    const auto results = nlohmann::json::parse(text::read_file(out / "results.json"));
    EXPECT_NEAR(results["score"].get<double>(), expected["score"].get<double>(), 1e-9) << graded.output;
    const std::string report = text::read_file(out / "report.md");
    // An attack that does not compile proves nothing: only the one meant to fail may.
    EXPECT_EQ(report.find("did not compile") == std::string::npos, expected.value("builds", true)) << report;
    EXPECT_LT(report.size(), 2u << 20) << "the report must stay readable";
    for (const char* key : {"refused", "note", "ignored"}) {
      if (expected.contains(key)) {
        EXPECT_NE(report.find(expected[key].get<std::string>()), std::string::npos) << key << "\n" << report;
      }
    }
    // Only the grader's own files in the report folder.
    for (const auto& entry : fs::directory_iterator(out)) {
      const std::string file = entry.path().filename().string();
      EXPECT_TRUE(file == "results.json" || file == "report.md" || file == "junit.xml" || file == "logs") << file;
    }
  }

  EXPECT_EQ(snapshot(kSource / "autograder" / "a01_roofline"), hidden_before) << "the hidden tests changed";
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
