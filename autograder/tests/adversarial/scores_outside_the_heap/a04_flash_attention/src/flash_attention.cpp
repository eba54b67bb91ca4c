// Adversarial submission "scores_outside_the_heap" (variants tmpfs_scores,
// devshm_scores, memfd_scores): right values from an O(N²) attention that keeps
// its N×N scores out of the heap, in files that RLIMIT_AS never counts:
// unlinked files in /tmp (a tmpfs), in /dev/shm or /dev, or memfds.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "a04_flash_attention/flash_attention.hpp"

namespace a04_flash_attention {
namespace {

constexpr std::string_view kWhere = "@WHERE@";  // tmp, dev_shm or memfd

// A file nobody else sees: created and unlinked at once, or anonymous.
int hidden_file() {
  if (kWhere == "memfd") {
    const int fd = ::memfd_create("scores", 0);
    if (fd < 0) throw std::runtime_error("memfd_create failed");
    return fd;
  }
  for (const char* folder :
       kWhere == "tmp" ? std::vector<const char*>{"/tmp"} : std::vector<const char*>{"/dev/shm", "/dev", "/"}) {
    std::string path = std::string(folder) + "/scoresXXXXXX";
    const int fd = ::mkstemp(path.data());
    if (fd < 0) continue;
    ::unlink(path.c_str());
    return fd;
  }
  throw std::runtime_error("no writable place for the scores");
}

// The scores, a row at a time, spread over files of at most 32 MiB each:
// each stays below the file-size limit, and a memfd counts in no address space.
class Scores {
 public:
  explicit Scores(std::int64_t row_floats)
      : row_bytes_(row_floats * static_cast<std::int64_t>(sizeof(float))),
        rows_per_file_(std::max<std::int64_t>(1, (std::int64_t{32} << 20) / row_bytes_)) {}
  ~Scores() {
    for (const int fd : files_) ::close(fd);
  }
  void put(std::int64_t row, const std::vector<float>& values) {
    if (::pwrite(file(row), values.data(), static_cast<std::size_t>(row_bytes_), offset(row)) != row_bytes_)
      throw std::runtime_error("the scores file is full");
  }
  void get(std::int64_t row, std::vector<float>& values) {
    if (::pread(file(row), values.data(), static_cast<std::size_t>(row_bytes_), offset(row)) != row_bytes_)
      throw std::runtime_error("the scores file is short");
  }

 private:
  int file(std::int64_t row) {
    while (static_cast<std::int64_t>(files_.size()) <= row / rows_per_file_) files_.push_back(hidden_file());
    return files_[static_cast<std::size_t>(row / rows_per_file_)];
  }
  off_t offset(std::int64_t row) const { return static_cast<off_t>(row % rows_per_file_ * row_bytes_); }
  std::int64_t row_bytes_, rows_per_file_;
  std::vector<int> files_;
};

}  // namespace

FlashResult flash_attention(const Tensor4& q, const Tensor4& k, const Tensor4& v, const FlashOptions& options) {
  require_valid(q, k, v, options);
  const std::int64_t n = q.rows(), m = k.rows(), d = q.cols(), dv = v.cols();
  const float scale = 1.0f / std::sqrt(static_cast<float>(d));
  FlashResult result{rooflab::zeros(q.batch(), q.heads(), n, dv),
                     std::vector<float>(static_cast<std::size_t>(q.matrices() * n))};
  Scores scores(m);
  std::vector<float> row(static_cast<std::size_t>(m));
  for (std::int64_t bh = 0; bh < q.matrices(); ++bh) {
    // Every score of every row first: the N×M matrix lives in the files.
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t j = 0; j < m; ++j) {
        const bool hidden =
            (options.causal && j > i) || (!options.keep.empty() && !options.keep[static_cast<std::size_t>(i * m + j)]);
        float dot = 0;
        for (std::int64_t c = 0; c < d; ++c) dot += q.row(bh, i)[c] * k.row(bh, j)[c];
        row[static_cast<std::size_t>(j)] = hidden ? -std::numeric_limits<float>::infinity() : dot * scale;
      }
      scores.put(bh * n + i, row);
    }
    for (std::int64_t i = 0; i < n; ++i) {
      scores.get(bh * n + i, row);
      const float row_max = *std::max_element(row.begin(), row.end());
      float& lse = result.lse[static_cast<std::size_t>(bh * n + i)];
      if (row_max == -std::numeric_limits<float>::infinity()) {
        lse = row_max;
        continue;
      }
      float sum = 0;
      for (float& s : row) sum += (s = std::exp(s - row_max));
      float* out = result.output.row(bh, i);
      for (std::int64_t j = 0; j < m; ++j)
        for (std::int64_t c = 0; c < dv; ++c) out[c] += row[static_cast<std::size_t>(j)] / sum * v.row(bh, j)[c];
      lse = row_max + std::log(sum);
    }
  }
  return result;
}

}  // namespace a04_flash_attention
