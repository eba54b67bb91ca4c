// The bytes a folder holds, counted while other processes may be writing and
// removing its files (a grading's scratch space, watched as it runs).
#pragma once

#include <cstdint>
#include <filesystem>

namespace rooflab {

// The bytes of the regular files under `dir`, never following a link. A file
// removed while this walks counts nothing (its size query fails; the failure's
// value, uintmax_t(-1), is never added).
std::uint64_t tree_bytes(const std::filesystem::path& dir);

}  // namespace rooflab
