#include "os/stop_signals.hpp"

#include <atomic>
#include <csignal>
#include <string>

namespace rooflab {
namespace {

// Written by the handler, read by every grading thread's waits.
std::atomic<int> g_stop_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "a signal handler may touch only lock-free atomics");

extern "C" void on_stop_signal(int signal) {
  int none = 0;
  if (g_stop_signal.compare_exchange_strong(none, signal)) return;
  // A reader that went away (`rooflab grade … | head`) raises SIGPIPE at every
  // later write: only the first counts, and the grading cleans up.
  if (signal == SIGPIPE) return;
  // A second one: whoever sent it does not want to wait for the cleanup.
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

std::string signal_name(int signal) {
  switch (signal) {
    case SIGTERM:
      return "SIGTERM";
    case SIGINT:
      return "SIGINT";
    case SIGHUP:
      return "SIGHUP";
    case SIGPIPE:
      return "SIGPIPE (its output's reader went away)";
    default:
      return "signal " + std::to_string(signal);
  }
}

}  // namespace

Stopped::Stopped(int signal)
    : std::runtime_error("stopped by " + signal_name(signal) +
                         ": the processes it started were ended, and their cgroups and scratch folders removed"),
      signal_(signal) {}

void note_stop_signals() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGTERM, SIGINT, SIGHUP, SIGPIPE}) ::sigaction(signal, &action, nullptr);
}

int stop_signal() { return g_stop_signal.load(); }

void throw_if_stopped() {
  if (const int signal = g_stop_signal.load()) throw Stopped(signal);
}

}  // namespace rooflab
