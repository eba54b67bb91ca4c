// Worker side of rooflab::rpc: runs inside the grader's sandbox with the
// student's code, answers requests until the verdict process hangs up.
#include <new>
#include <stdexcept>
#include <string>

#include "frame.hpp"
#include "rooflab/not_implemented.hpp"
#include "rooflab/rpc.hpp"

namespace rooflab::cuda_cpu {
// Weak: a worker without the CPU runtime (no CUDA code, or kernels on a GPU)
// has no launches to leave unrun.
[[gnu::weak]] void set_launch_shapes_only(bool on);
}  // namespace rooflab::cuda_cpu

namespace rooflab::rpc {
namespace {

std::string error_payload(ErrorKind kind, const std::string& message) {
  wire::Writer out;
  wire::encode(out, kind);
  wire::encode(out, message);
  return out.take();
}

// Catch order matters: most derived first, so the verdict side can rethrow the
// same standard type the student threw.
std::string describe_current_exception() {
  try {
    throw;
  } catch (const NotImplemented& e) {
    return error_payload(ErrorKind::not_implemented, e.function());
  } catch (const std::invalid_argument& e) {
    return error_payload(ErrorKind::invalid_argument, e.what());
  } catch (const std::out_of_range& e) {
    return error_payload(ErrorKind::out_of_range, e.what());
  } catch (const std::domain_error& e) {
    return error_payload(ErrorKind::domain_error, e.what());
  } catch (const std::length_error& e) {
    return error_payload(ErrorKind::length_error, e.what());
  } catch (const std::logic_error& e) {
    return error_payload(ErrorKind::logic_error, e.what());
  } catch (const std::overflow_error& e) {
    return error_payload(ErrorKind::overflow_error, e.what());
  } catch (const std::range_error& e) {
    return error_payload(ErrorKind::range_error, e.what());
  } catch (const std::runtime_error& e) {
    return error_payload(ErrorKind::runtime_error, e.what());
  } catch (const std::bad_alloc&) {
    return error_payload(ErrorKind::bad_alloc, "std::bad_alloc");
  } catch (const std::exception& e) {
    return error_payload(ErrorKind::other_std_exception, e.what());
  } catch (...) {
    return error_payload(ErrorKind::not_a_std_exception, "");
  }
}

}  // namespace

int serve_forever(int fd, const Entry* table, std::size_t table_size, std::string (*report)()) {
  Frame request;
  while (read_frame(fd, kRequestMagic, request)) {
    Frame reply{kReplyMagic, request.sequence, static_cast<std::uint32_t>(ReplyStatus::returned), {}};
    if (request.code == kGreeting) {
      if (!write_frame(fd, reply)) return 4;
      continue;
    }
    if (request.code == kLaunchShapesOnly) {
      if (&cuda_cpu::set_launch_shapes_only != nullptr) cuda_cpu::set_launch_shapes_only(request.payload == "1");
      if (!write_frame(fd, reply)) return 4;
      continue;
    }
    if (request.code == kWorkerReport) {
      reply.payload = report ? report() : std::string();
      if (!write_frame(fd, reply)) return 4;
      continue;
    }
    if (request.code >= table_size) return 3;  // a client built for another contract
    try {
      wire::Reader in(request.payload, wire::Checks::none);  // arguments may be malformed on purpose
      wire::Writer out;
      table[request.code].serve(in, out);
      reply.payload = out.take();
    } catch (...) {
      reply.code = static_cast<std::uint32_t>(ReplyStatus::threw);
      reply.payload = describe_current_exception();
    }
    if (!write_frame(fd, reply)) return 4;
  }
  return 0;
}

}  // namespace rooflab::rpc
