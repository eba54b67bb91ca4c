// Each student's hidden-test seed under `grade-all --seed N`: derived from the
// course seed and the student's roster identifier, so that a regrade (or
// `rooflab grade --seed S` on one submission) reproduces it exactly, while
// students do not share inputs (one student's hidden-test failures tell
// another nothing). Header-only, pure: autograder/tests/class_seed_test.cpp.
#pragma once

#include <cstdint>
#include <string>

namespace rooflab {

// 64-bit FNV-1a: stable across builds and machines (std::hash is not).
inline std::uint64_t fnv1a64(const std::string& bytes, std::uint64_t hash = 14695981039346656037ull) {
  for (const unsigned char c : bytes) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

// splitmix64's finaliser: spreads FNV's weak low bits over the whole word, so
// that identifiers differing in one letter get unrelated seeds.
inline std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// splitmix64(course seed XOR FNV-1a(identifier)). The identifier is the
// roster's original one (not the folder name), so renaming the output folder
// or switching between a folder and a CSV roster of the same names keeps it.
inline std::uint64_t student_seed(std::uint64_t course_seed, const std::string& identifier) {
  return splitmix64(course_seed ^ fnv1a64(identifier));
}

}  // namespace rooflab
