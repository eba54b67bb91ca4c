// The two-process call path, with the worker in a thread of this process: what
// crosses the descriptor is exactly what crosses it between real processes.
#include "rooflab/rpc.hpp"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <numeric>
#include <thread>

#include "rooflab/not_implemented.hpp"

namespace {

struct Pair {
  double sum = 0;
  std::string label;
};

// The "student" functions the worker serves.
double add(double a, double b) { return a + b; }
Pair describe(const std::vector<double>& values, std::string_view label) {
  return {std::accumulate(values.begin(), values.end(), 0.0), std::string(label) + "!"};
}
void scale(std::span<float> values, float by) {
  for (float& v : values) v *= by;
}
void rename(std::string& name) { name += "_renamed"; }
double reject(double x) {
  if (x < 0) throw std::invalid_argument("x: must be non-negative");
  throw rooflab::NotImplemented("reject");
}

const rooflab::rpc::Entry kTable[] = {
    {"add", [](rooflab::wire::Reader& in, rooflab::wire::Writer& out) { rooflab::rpc::serve(&add, in, out); }},
    {"describe",
     [](rooflab::wire::Reader& in, rooflab::wire::Writer& out) { rooflab::rpc::serve(&describe, in, out); }},
    {"scale", [](rooflab::wire::Reader& in, rooflab::wire::Writer& out) { rooflab::rpc::serve(&scale, in, out); }},
    {"rename", [](rooflab::wire::Reader& in, rooflab::wire::Writer& out) { rooflab::rpc::serve(&rename, in, out); }},
    {"reject", [](rooflab::wire::Reader& in, rooflab::wire::Writer& out) { rooflab::rpc::serve(&reject, in, out); }},
};

// The client connection is per process and reads ROOFLAB_RPC_FD once, so one
// worker thread serves every test of this binary.
class Rpc : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    int fds[2];
    ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
    ::setenv("ROOFLAB_RPC_FD", std::to_string(fds[0]).c_str(), 1);
    std::thread([fd = fds[1]] { rooflab::rpc::serve_forever(fd, kTable, std::size(kTable)); }).detach();
  }
};

TEST_F(Rpc, ValuesGoThereAndResultsComeBack) {
  double a = 1.25, b = 2.5;
  EXPECT_EQ((rooflab::rpc::call<double, double, double>(0, "add", a, b)), 3.75);
  std::vector<double> values{1, 2, 3};
  std::string_view label = "six";
  const Pair pair =
      rooflab::rpc::call<Pair, const std::vector<double>&, std::string_view>(1, "describe", values, label);
  EXPECT_EQ(pair.sum, 6);
  EXPECT_EQ(pair.label, "six!");
}

TEST_F(Rpc, MutableSpansAndReferencesComeBackFilled) {
  std::vector<float> data{1, 2, 3};
  std::span<float> view(data);
  float by = 2;
  rooflab::rpc::call<void, std::span<float>, float>(2, "scale", view, by);
  EXPECT_EQ(data, (std::vector<float>{2, 4, 6}));
  std::string name = "x";
  rooflab::rpc::call<void, std::string&>(3, "rename", name);
  EXPECT_EQ(name, "x_renamed");
}

TEST_F(Rpc, ExceptionsArriveAsTheSameStandardType) {
  double negative = -1, positive = 1;
  EXPECT_THROW((rooflab::rpc::call<double, double>(4, "reject", negative)), std::invalid_argument);
  try {
    rooflab::rpc::call<double, double>(4, "reject", positive);
    FAIL() << "expected NotImplemented";
  } catch (const rooflab::NotImplemented& error) {
    EXPECT_EQ(error.function(), "reject");
  }
}

// The greeting reaches no student function, and calls go on after it.
TEST(RpcGreeting, AnsweredByTheWorkerWithoutCallingStudentCode) {
  static int calls = 0;
  static const rooflab::rpc::Entry counted[] = {{"count", [](rooflab::wire::Reader&, rooflab::wire::Writer& out) {
                                                   ++calls;
                                                   rooflab::wire::encode(out, 1.0);
                                                 }}};
  int fds[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
  std::thread worker([fd = fds[1]] { rooflab::rpc::serve_forever(fd, counted, 1); });
  {
    rooflab::rpc::Client client(fds[0]);
    client.greet();
    EXPECT_EQ(calls, 0);
    client.transact(0, "count()", "");
    EXPECT_EQ(calls, 1);
  }
  ::shutdown(fds[0], SHUT_RDWR);
  worker.join();
  ::close(fds[0]);
  ::close(fds[1]);
}

TEST(RpcGreeting, AWorkerThatNeverAnswersIsReportedAtTheFirstCall) {
  int fds[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
  ::close(fds[1]);
  ::signal(SIGPIPE, SIG_IGN);
  rooflab::rpc::Client client(fds[0]);
  client.greet();  // records nothing: no test is running its code yet
  EXPECT_NONFATAL_FAILURE(
      {
        try {
          client.transact(0, "f(double)", "");
        } catch (...) {
        }
      },
      "is gone");
  ::close(fds[0]);
}

TEST(RpcWithoutWorker, ALostWorkerIsARecordedFailureThatNoCatchCanHide) {
  // A descriptor whose other end is closed: the worker "exited" before replying.
  int fds[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
  ::close(fds[1]);
  EXPECT_NONFATAL_FAILURE(
      {
        try {
          rooflab::rpc::Client client(fds[0]);
          ::signal(SIGPIPE, SIG_IGN);
          client.transact(0, "f(double)", "");
        } catch (...) {  // what a hostile EXPECT_ANY_THROW would do
        }
      },
      "stopped");
  ::close(fds[0]);
}

}  // namespace
