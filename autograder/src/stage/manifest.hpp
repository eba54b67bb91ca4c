// The course manifest (rooflab_manifest.json) that CMake writes at configure
// time from the course_add_assignment() calls: the one list of assignments and
// of the STUDENT_FILES the grader takes from a submission.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace rooflab {

struct AssignmentInfo {
  std::string name;                        // "a01_roofline"
  std::filesystem::path dir;               // relative to the course tree
  std::vector<std::string> student_files;  // relative to dir
  std::vector<std::string> public_tests;   // relative to dir
  bool has_hidden_tests = false;
  bool has_profile = false;               // a PROFILE program for the report's scaling plots
  std::filesystem::path rubric;           // <assignment>/grading/rubric.toml in the reference tree; empty if none
  std::vector<std::string> cuda_files;    // CUDA_FILES and GPU_CUDA_FILES, relative to dir
  std::vector<std::string> thrust_files;  // THRUST_FILES: nvcc compiles their _cuda twins where CUDA is in

  // Whether nvcc compiles any of its student code where CUDA is compiled in:
  // then a GPU runs some of its tests, and the grader cross-checks them there.
  bool runs_on_gpu() const { return !cuda_files.empty() || !thrust_files.empty(); }
};

struct Manifest {
  std::filesystem::path source_dir;  // repository root (cmake/, common/, assignments/, solutions/)
  std::filesystem::path binary_dir;  // the reference build that wrote this manifest
  bool with_cuda = false;
  bool kernels_on_gpu = false;       // this build's CUDA_FILES run on a GPU, not in the CPU runtime
  std::filesystem::path nvcc;        // the nvcc it compiled with; empty without CUDA
  std::filesystem::path thrust_dir;  // the Thrust CMake package the reference build used
  std::vector<AssignmentInfo> assignments;

  // Throws std::runtime_error naming the file and the missing or mistyped field.
  static Manifest load(const std::filesystem::path& path);

  // The reference build's verdict binary (public + hidden tests, no student
  // code), and its grading kit: the course's own compiled objects that every
  // submission's worker links (cmake/grading_kit.cmake).
  std::filesystem::path verdict_binary(const AssignmentInfo& assignment) const;
  std::filesystem::path grading_kit() const;
  // In a submission's build tree: the worker target, its binary, and the
  // folders holding the objects compiled from STUDENT_FILES (the second, where
  // present, holds the THRUST_FILES' _cuda twins).
  static std::string worker_target(const AssignmentInfo& assignment);
  static std::filesystem::path worker_binary(const std::filesystem::path& build_dir, const AssignmentInfo& assignment);
  // <name>_profile in a build tree (the submission's, or binary_dir for the reference).
  static std::filesystem::path profile_binary(const std::filesystem::path& build_dir, const AssignmentInfo& assignment);
  static std::vector<std::filesystem::path> student_objects(const std::filesystem::path& build_dir,
                                                            const AssignmentInfo& assignment);
};

}  // namespace rooflab
