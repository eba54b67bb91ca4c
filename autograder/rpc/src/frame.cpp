#include "frame.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace rooflab::rpc {
namespace {

struct Header {
  std::uint32_t magic;
  std::uint32_t sequence;
  std::uint32_t code;
  std::uint32_t reserved;
  std::uint64_t size;
};

bool write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

bool read_all(int fd, char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::read(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

bool write_frame(int fd, const Frame& frame) {
  const Header header{frame.magic, frame.sequence, frame.code, 0, frame.payload.size()};
  return write_all(fd, reinterpret_cast<const char*>(&header), sizeof header) &&
         write_all(fd, frame.payload.data(), frame.payload.size());
}

bool read_frame(int fd, std::uint32_t magic, Frame& frame) {
  Header header{};
  if (!read_all(fd, reinterpret_cast<char*>(&header), sizeof header)) return false;
  if (header.magic != magic || header.size > kMaxPayload) return false;
  frame.magic = header.magic;
  frame.sequence = header.sequence;
  frame.code = header.code;
  frame.payload.resize(header.size);
  return read_all(fd, frame.payload.data(), frame.payload.size());
}

}  // namespace rooflab::rpc
