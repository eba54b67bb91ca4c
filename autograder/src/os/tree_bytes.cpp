#include "os/tree_bytes.hpp"

#include <system_error>

namespace rooflab {
namespace fs = std::filesystem;

std::uint64_t tree_bytes(const fs::path& dir) {
  std::uint64_t total = 0;
  std::error_code error;
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, error), end;
       !error && it != end; it.increment(error)) {
    std::error_code gone;
    if (!it->is_regular_file(gone) || it->is_symlink(gone)) continue;
    const std::uintmax_t bytes = it->file_size(gone);
    if (!gone) total += bytes;
  }
  return total;
}

}  // namespace rooflab
