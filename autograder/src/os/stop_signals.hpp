// A grading stopped from outside (Gradescope's or Slurm's time limit sends
// SIGTERM, a terminal Ctrl-C sends SIGINT, a reader of its output that went
// away, as `rooflab grade … | head` does, SIGPIPE) must not leave its children
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

// From now on SIGTERM, SIGINT, SIGHUP and SIGPIPE are noted instead of
// ending the process at once (a second SIGTERM, SIGINT or SIGHUP ends it as
// usual; SIGPIPE comes again at every write to the closed pipe).
void note_stop_signals();

// The first stop signal that arrived, or 0.
int stop_signal();

// Throws Stopped once a stop signal arrived.
void throw_if_stopped();

}  // namespace rooflab
