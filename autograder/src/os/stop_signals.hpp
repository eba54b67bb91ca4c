// A grading stopped from outside (Gradescope's or Slurm's time limit sends
// SIGTERM, a terminal Ctrl-C sends SIGINT) must not leave its children
// running, nor its cgroups and scratch folder behind: the signal is only
// noted here, and the grader's waits (wait_process) stop their child and
// throw Stopped, whose unwinding runs every cleanup a normal end runs.
#pragma once

#include <stdexcept>

namespace rooflab {

// The grading's end, because a stop signal arrived; never a test's failure.
class Stopped : public std::runtime_error {
 public:
  explicit Stopped(int signal);
  int signal() const { return signal_; }

 private:
  int signal_;
};

// From now on SIGTERM, SIGINT and SIGHUP are noted instead of ending the
// process at once (a second one of them ends it as usual).
void note_stop_signals();

// The first stop signal that arrived, or 0.
int stop_signal();

// Throws Stopped once a stop signal arrived.
void throw_if_stopped();

}  // namespace rooflab
