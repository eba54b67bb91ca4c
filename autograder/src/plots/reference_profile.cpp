#include "plots/reference_profile.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <ctime>
#include <sstream>

#include "os/process.hpp"
#include "rooflab/machine_load.hpp"
#include "run/test_runner.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace fs = std::filesystem;
namespace {

constexpr const char* kFormat = "rooflab kept reference profile 1";

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &utc);
  return text;
}

}  // namespace

std::string machine_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0 || !name[0]) return "this-machine";
  std::string safe;
  for (const char* c = name; *c; ++c)
    safe += std::isalnum(static_cast<unsigned char>(*c)) || *c == '-' || *c == '.' ? *c : '_';
  return safe;
}

std::string reference_profile_key(const fs::path& binary, int cores) {
  struct stat info {};
  if (::stat(binary.c_str(), &info) != 0) return "";
  return binary.string() + " " + std::to_string(info.st_size) + " " + std::to_string(info.st_mtim.tv_sec) + "." +
         std::to_string(info.st_mtim.tv_nsec) + " on " + machine_name() + " threads " + std::to_string(cores);
}

std::string kept_profile_text(const std::string& key, const ReferenceProfile& profile) {
  return std::string(kFormat) + "\nkey " + key + "\nran " + profile.ran_at + "\nquiet " + (profile.quiet ? "1" : "0") +
         "\n" + profile.output;
}

std::optional<ReferenceProfile> parse_kept_profile(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  std::string format, key_line, ran, quiet;
  if (!std::getline(in, format) || format != kFormat || !std::getline(in, key_line) || key_line != "key " + key ||
      !std::getline(in, ran) || ran.rfind("ran ", 0) != 0 || !std::getline(in, quiet) ||
      (quiet != "quiet 1" && quiet != "quiet 0"))
    return std::nullopt;
  ReferenceProfile profile;
  profile.ran_at = ran.substr(4);
  profile.quiet = quiet == "quiet 1";
  profile.kept = true;
  const auto header = static_cast<std::size_t>(in.tellg());
  profile.output = header <= text.size() ? text.substr(header) : "";
  return profile;
}

fs::path kept_profile_file(const Manifest& manifest, const AssignmentInfo& info, int cores) {
  return manifest.binary_dir / "grading_cache" /
         (info.name + "." + machine_name() + "." + std::to_string(cores) + "-threads.reference-profile");
}

ReferenceProfile reference_profile(const Grading& grading, const AssignmentInfo& info, int cores) {
  const fs::path binary = Manifest::profile_binary(grading.manifest.binary_dir, info);
  const std::string key = reference_profile_key(binary, cores);
  const fs::path kept_file = kept_profile_file(grading.manifest, info, cores);
  std::optional<ReferenceProfile> kept;
  if (!key.empty() && fs::exists(kept_file)) {
    try {
      kept = parse_kept_profile(text::read_file(kept_file), key);
    } catch (const std::exception&) {
      kept.reset();  // unreadable: run it
    }
  }
  if (kept && kept->quiet) return *kept;

  SpawnOptions options;
  options.env = openmp_environment(cores);
  const LoadWatch watch;
  const ProcessResult ran =
      run_process({binary.string()}, grading.scratch, grading.scratch / (info.name + ".reference-profile.log"),
                  ProcessLimits::timeout(kProfileTimeout_s), options);
  ReferenceProfile now;
  now.output = ran.output;
  now.ran_at = utc_now();
  now.quiet = watch.warning(cores).empty();
  if (!ran.succeeded()) return kept ? *kept : now;  // a whole kept run, even a busy one, before a broken one
  if (!key.empty() && (!kept || now.quiet)) {
    try {
      text::write_file(kept_file, kept_profile_text(key, now));
    } catch (const std::exception&) {
      // A reference build it may not write to: every grading runs it, as before.
    }
  }
  return now;
}

}  // namespace rooflab
