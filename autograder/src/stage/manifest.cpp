#include "stage/manifest.hpp"

#include <nlohmann/json.hpp>

#include <stdexcept>

#include "text/text.hpp"

namespace rooflab {

Manifest Manifest::load(const std::filesystem::path& path) {
  const auto field_error = [&](const std::string& field, const std::string& what) {
    return std::runtime_error(path.string() + ": field \"" + field + "\" " + what);
  };
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(text::read_file(path));
  } catch (const nlohmann::json::parse_error& error) {
    throw std::runtime_error(path.string() + ": not valid JSON: " + error.what());
  }
  const auto get = [&](const nlohmann::json& object, const std::string& field) -> const nlohmann::json& {
    if (!object.contains(field)) throw field_error(field, "is missing");
    return object.at(field);
  };
  // Older manifests joined two lists into one string, leaving empty entries.
  const auto file_list = [](const nlohmann::json& array) {
    std::vector<std::string> files;
    for (const std::string& file : array.get<std::vector<std::string>>())
      if (!file.empty()) files.push_back(file);
    return files;
  };
  Manifest manifest;
  try {
    manifest.source_dir = get(json, "source_dir").get<std::string>();
    manifest.binary_dir = get(json, "binary_dir").get<std::string>();
    manifest.with_cuda = get(json, "with_cuda").get<bool>();
    // Manifests written before the field existed: kernels ran on a GPU where CUDA was in.
    manifest.kernels_on_gpu =
        json.contains("kernels_on") ? json.at("kernels_on").get<std::string>() == "gpu" : manifest.with_cuda;
    manifest.thrust_dir = get(json, "thrust_dir").get<std::string>();
    // Manifests written before the field existed: no nvcc for the report's registers.
    if (json.contains("nvcc")) manifest.nvcc = json.at("nvcc").get<std::string>();
    for (const auto& entry : get(json, "assignments")) {
      AssignmentInfo assignment;
      assignment.name = get(entry, "name").get<std::string>();
      assignment.dir = get(entry, "dir").get<std::string>();
      assignment.student_files = get(entry, "student_files").get<std::vector<std::string>>();
      assignment.public_tests = get(entry, "public_tests").get<std::vector<std::string>>();
      assignment.has_hidden_tests = get(entry, "has_hidden_tests").get<bool>();
      assignment.has_profile = get(entry, "has_profile").get<bool>();
      assignment.rubric = get(entry, "rubric").get<std::string>();
      assignment.cuda_files = file_list(get(entry, "cuda_files"));
      // Manifests written before the field existed name no Thrust files.
      if (entry.contains("thrust_files")) assignment.thrust_files = file_list(entry.at("thrust_files"));
      manifest.assignments.push_back(std::move(assignment));
    }
  } catch (const nlohmann::json::type_error& error) {
    throw std::runtime_error(path.string() + ": a field has the wrong type: " + error.what());
  }
  return manifest;
}

std::filesystem::path Manifest::verdict_binary(const AssignmentInfo& assignment) const {
  return binary_dir / "course" / assignment.dir / (assignment.name + "_verdict");
}

std::filesystem::path Manifest::grading_kit() const { return binary_dir / "grading_kit"; }

std::string Manifest::worker_target(const AssignmentInfo& assignment) { return assignment.name + "_worker"; }

std::filesystem::path Manifest::worker_binary(const std::filesystem::path& build_dir,
                                              const AssignmentInfo& assignment) {
  return build_dir / "course" / assignment.dir / worker_target(assignment);
}

std::filesystem::path Manifest::profile_binary(const std::filesystem::path& build_dir,
                                               const AssignmentInfo& assignment) {
  return build_dir / "course" / assignment.dir / (assignment.name + "_profile");
}

std::vector<std::filesystem::path> Manifest::student_objects(const std::filesystem::path& build_dir,
                                                             const AssignmentInfo& assignment) {
  const auto cmake_files = build_dir / "course" / assignment.dir / "CMakeFiles";
  std::vector<std::filesystem::path> folders{cmake_files / (assignment.name + "_student.dir")};
  if (std::filesystem::exists(cmake_files / (assignment.name + "_student_cuda.dir")))
    folders.push_back(cmake_files / (assignment.name + "_student_cuda.dir"));
  return folders;
}

}  // namespace rooflab
