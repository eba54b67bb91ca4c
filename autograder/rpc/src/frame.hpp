// The bytes on the wire between verdict and worker processes: a fixed header
// then a payload. Requests carry a function id, replies a status.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace rooflab::rpc {

inline constexpr std::uint32_t kRequestMagic = 0x52514c52;  // "RLQR"
inline constexpr std::uint32_t kReplyMagic = 0x52504c52;    // "RLPR"
// The verdict side never accepts a reply larger than this: a worker cannot make
// it allocate without bound.
inline constexpr std::uint64_t kMaxPayload = std::uint64_t{1} << 30;

// The function id of the greeting: the worker answers it with an empty reply
// without calling any student code (rpc::Client::greet).
inline constexpr std::uint32_t kGreeting = 0xffffffff;
// The function id of the worker report (rooflab/worker_report.hpp): the worker
// answers from the course's own records, without calling student code.
inline constexpr std::uint32_t kWorkerReport = 0xfffffffe;
// The function id that turns the worker's launch-shapes-only mode on (payload
// "1") or off (rooflab::testing::LaunchShapesOnly); it calls no student code.
inline constexpr std::uint32_t kLaunchShapesOnly = 0xfffffffd;

enum class ReplyStatus : std::uint32_t { returned = 0, threw = 1 };

struct Frame {
  std::uint32_t magic = 0;
  std::uint32_t sequence = 0;
  std::uint32_t code = 0;  // function id (request) or ReplyStatus (reply)
  std::string payload;
};

// Both return false on end of file or a broken descriptor; read_frame also when
// the header is not `magic` or the payload exceeds kMaxPayload.
bool write_frame(int fd, const Frame& frame);
bool read_frame(int fd, std::uint32_t magic, Frame& frame);

}  // namespace rooflab::rpc
