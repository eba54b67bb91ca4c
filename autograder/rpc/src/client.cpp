// Verdict side of rooflab::rpc: one worker connection per test process.
#include <gtest/gtest.h>
#include <signal.h>

#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>

#include "frame.hpp"
#include "rooflab/not_implemented.hpp"
#include "rooflab/rpc.hpp"

namespace rooflab::rpc {
namespace {

[[noreturn]] void rethrow(const char* signature, const std::string& payload) {
  wire::Reader in(payload);
  ErrorKind kind{};
  std::string message;
  try {
    wire::decode(in, kind);
    wire::decode(in, message);
  } catch (const wire::Error& error) {
    throw_malformed_reply(signature, error.what());
  }
  switch (kind) {
    case ErrorKind::invalid_argument:
      throw std::invalid_argument(message);
    case ErrorKind::out_of_range:
      throw std::out_of_range(message);
    case ErrorKind::domain_error:
      throw std::domain_error(message);
    case ErrorKind::length_error:
      throw std::length_error(message);
    case ErrorKind::not_implemented:
      throw NotImplemented(message);  // the worker sends the function's name
    case ErrorKind::logic_error:
      throw std::logic_error(message);
    case ErrorKind::overflow_error:
      throw std::overflow_error(message);
    case ErrorKind::range_error:
      throw std::range_error(message);
    case ErrorKind::runtime_error:
      throw std::runtime_error(message);
    case ErrorKind::bad_alloc:
      throw std::bad_alloc();
    case ErrorKind::other_std_exception:
      throw std::runtime_error(message);
    case ErrorKind::not_a_std_exception:
      throw std::runtime_error(std::string(signature) + " threw something that is not a std::exception");
  }
  throw_malformed_reply(signature, "unknown exception kind");
}

}  // namespace

[[noreturn]] static void fail(const std::string& why) {
  // A recorded failure, so that no EXPECT_ANY_THROW or catch(...) in a test can
  // turn a lost worker into a pass; then an exception to stop this call.
  ADD_FAILURE() << why;
  throw WorkerLost(why);
}

void throw_malformed_reply(const char* signature, const std::string& why) {
  fail(std::string("the worker running your code sent a malformed reply to ") + signature + " (" + why +
       "); nothing it sends can pass a test");
}

void Client::lose(const std::string& why) {
  lost_ = true;
  fail(why);
}

std::string Client::transact(std::uint32_t function_id, const char* signature, std::string arguments) {
  if (fd_ < 0)
    lose(std::string("no worker to call ") + signature +
         ": this test binary calls the student's code in a worker process; run it through `rooflab grade`");
  if (lost_) lose(std::string("the worker running your code is gone; cannot call ") + signature);
  const std::uint32_t sequence = ++sequence_;
  const std::string stopped = std::string("the worker running your code stopped ");
  const std::string why = " (it crashed, exited or was killed; the grader's report says how)";
  if (!write_frame(fd_, {kRequestMagic, sequence, function_id, std::move(arguments)}))
    lose(stopped + "before " + signature + why);
  Frame reply;
  if (!read_frame(fd_, kReplyMagic, reply)) lose(stopped + "during " + signature + why);
  if (reply.sequence != sequence)
    lose(std::string("the worker running your code answered out of turn in ") + signature);
  if (reply.code == static_cast<std::uint32_t>(ReplyStatus::threw)) rethrow(signature, reply.payload);
  if (reply.code != static_cast<std::uint32_t>(ReplyStatus::returned))
    throw_malformed_reply(signature, "unknown reply status");
  return std::move(reply.payload);
}

void Client::greet() {
  if (fd_ < 0 || lost_) return;
  Frame reply;
  const std::uint32_t sequence = ++sequence_;
  lost_ = !write_frame(fd_, {kRequestMagic, sequence, kGreeting, {}}) || !read_frame(fd_, kReplyMagic, reply) ||
          reply.sequence != sequence || reply.code != static_cast<std::uint32_t>(ReplyStatus::returned);
}

namespace {

Client& connection() {
  static Client client = [] {
    // A worker that died must surface as a failed call, not kill us by SIGPIPE.
    ::signal(SIGPIPE, SIG_IGN);
    const char* fd = std::getenv("ROOFLAB_RPC_FD");
    Client made(fd ? std::atoi(fd) : -1);
    made.greet();
    return made;
  }();
  return client;
}

// Connects before the first test: a worker starting up (the loader, static
// initialisers, the allocator's first pages) charges its memory cgroup, and a
// test's kernel_memory::Window opened meanwhile would count that as the call's.
class ConnectBeforeTheTests : public ::testing::Environment {
 public:
  void SetUp() override {
    if (std::getenv("ROOFLAB_RPC_FD")) connection();
  }
};
[[maybe_unused]] const ::testing::Environment* const kConnectFirst =
    ::testing::AddGlobalTestEnvironment(new ConnectBeforeTheTests);

}  // namespace

std::string transact(std::uint32_t function_id, const char* signature, std::string arguments) {
  return connection().transact(function_id, signature, std::move(arguments));
}

}  // namespace rooflab::rpc
