#include "rooflab/not_implemented.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>

namespace rooflab {
namespace {

std::terminate_handler previous_handler = nullptr;

// A program that runs a stub (a lab's example, a tool) and lets NotImplemented
// escape main would otherwise end in "terminate called ..." and SIGABRT (exit
// 134, a core file): an unwritten function is not a crash, so say what to
// write and exit 1. Any other uncaught exception goes to the handler before.
[[noreturn]] void report_unwritten_function() {
  if (const std::exception_ptr current = std::current_exception()) {
    try {
      std::rethrow_exception(current);
    } catch (const NotImplemented& stub) {
      std::fprintf(stderr, "error: %s\n", stub.what());
      std::fflush(stdout);
      std::fflush(stderr);
      std::_Exit(1);
    } catch (...) {
    }
  }
  if (previous_handler != nullptr) previous_handler();
  std::abort();
}

}  // namespace

NotImplemented::NotImplemented(const std::string& function)
    : std::logic_error(function + " is not implemented yet (YOUR CODE HERE)"), function_(function) {}

void throw_not_implemented(const char* function) {
  // Installed by the first stub that runs: only a program holding stubs needs it.
  static std::once_flag installed;
  std::call_once(installed, [] { previous_handler = std::set_terminate(report_unwritten_function); });
  throw NotImplemented(function);
}

}  // namespace rooflab
