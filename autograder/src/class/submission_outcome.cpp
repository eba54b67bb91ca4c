#include "class/submission_outcome.hpp"

#include <nlohmann/json.hpp>

#include "text/text.hpp"

namespace rooflab::class_grading {
namespace fs = std::filesystem;

void write_outcome(const fs::path& out, const Outcome& outcome) {
  const char* kind = outcome.kind == Outcome::Kind::graded      ? "graded"
                     : outcome.kind == Outcome::Kind::unchanged ? "unchanged"
                                                                : "failed";
  const nlohmann::json json{{"kind", kind},
                            {"why", outcome.why},
                            {"note", outcome.note},
                            {"seed", outcome.seed},
                            {"commit", outcome.commit},
                            {"seconds", outcome.seconds},
                            {"identifier", outcome.identifier}};
  // Replacement, not a throw: a reason may quote bytes of a URL or of git's output.
  text::write_file(out / outcome.student / "outcome.json",
                   json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

std::optional<Outcome> read_outcome(const fs::path& out, const RosterEntry& entry) {
  const fs::path path = out / entry.student / "outcome.json";
  if (!fs::exists(path)) return std::nullopt;
  const nlohmann::json json = nlohmann::json::parse(text::read_file(path), nullptr, false);
  if (json.is_discarded() || !json.is_object()) return std::nullopt;
  const auto field = [&](const char* name) {
    return json.contains(name) && json[name].is_string() ? json[name].get<std::string>() : std::string();
  };
  Outcome outcome;
  outcome.student = entry.student;
  outcome.identifier = entry.identifier;
  const std::string kind = field("kind");
  outcome.kind = kind == "graded"      ? Outcome::Kind::graded
                 : kind == "unchanged" ? Outcome::Kind::unchanged
                                       : Outcome::Kind::failed;
  outcome.why = kind == "graded" || kind == "unchanged" || !field("why").empty() ? field("why")
                                                                                 : "its outcome.json is unreadable";
  outcome.note = field("note");
  outcome.seed = field("seed");
  outcome.commit = field("commit");
  outcome.seconds = json.contains("seconds") && json["seconds"].is_number() ? json["seconds"].get<double>() : 0.0;
  return outcome;
}

}  // namespace rooflab::class_grading
