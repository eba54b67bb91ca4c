#include "launch_records.hpp"

#include <algorithm>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <utility>

namespace rooflab::cuda_cpu::detail {
namespace {

std::mutex lock;
std::deque<LaunchRecord> launches;
constexpr std::size_t kMaxLaunches = 4096;
// (writer, the word's bits), oldest first.
std::deque<std::pair<WriterTag, std::uint32_t>> copied_back;

}  // namespace

void record_launch(LaunchRecord record) {
  const std::lock_guard guard(lock);
  launches.push_back(std::move(record));
  if (launches.size() > kMaxLaunches) launches.pop_front();
}

void record_device_to_host(const unsigned char* source, const WriterTag* writers, std::size_t bytes) {
  const auto address = reinterpret_cast<std::uintptr_t>(source);
  const std::size_t skip = (4 - address % 4) % 4;  // words as the device's alignment has them
  const std::lock_guard guard(lock);
  for (std::size_t i = skip; i + 4 <= bytes; i += 4) {
    if (writers[i] != writers[i + 1] || writers[i] != writers[i + 2] || writers[i] != writers[i + 3]) continue;
    std::uint32_t word;
    std::memcpy(&word, source + i, 4);
    copied_back.emplace_back(writers[i], word);
  }
  while (copied_back.size() > kMaxDeviceToHostWords) copied_back.pop_front();
}

}  // namespace rooflab::cuda_cpu::detail

namespace rooflab::cuda_cpu {

std::vector<LaunchRecord> take_launch_records() {
  const std::lock_guard guard(detail::lock);
  std::vector<LaunchRecord> taken(std::make_move_iterator(detail::launches.begin()),
                                  std::make_move_iterator(detail::launches.end()));
  detail::launches.clear();
  return taken;
}

std::vector<DeviceToHostWords> take_device_to_host_words() {
  std::deque<std::pair<detail::WriterTag, std::uint32_t>> taken;
  {
    const std::lock_guard guard(detail::lock);
    taken.swap(detail::copied_back);
  }
  std::map<detail::WriterTag, std::vector<std::uint32_t>> by_writer;
  for (const auto& [writer, word] : taken) by_writer[writer].push_back(word);
  std::vector<DeviceToHostWords> result;
  for (auto& [writer, words] : by_writer) {
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    result.push_back({detail::writer_name(writer), std::move(words)});
  }
  return result;
}

}  // namespace rooflab::cuda_cpu
