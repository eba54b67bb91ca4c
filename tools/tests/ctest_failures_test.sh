#!/usr/bin/env bash
# tools/ctest_failures.sh on a ctest log of three tests: it names the failed
# one with the lines of its GoogleTest failure, and nothing of the passed one;
# a failed test whose output names no failure shows its last lines.
# usage: ctest_failures_test.sh SOURCE_DIR WORK_DIR
set -uo pipefail
source_dir=$1 work=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work/Testing/Temporary" || fail "cannot create $work"
log=$work/Testing/Temporary/LastTest.log

section() {  # NAME STATUS OUTPUT
  printf '%s\n' "----------------------------------------------------------" "1/3 Testing: $1" "1/3 Test: $1" \
    "Command: \"/bin/true\"" "Output:" "----------------------------------------------------------" "$3" \
    "<end of output>" "Test time =   1.00 sec" "----------------------------------------------------------" "$2" \
    "\"$1\" end time: Nov 30 01:00 UTC"
}
{
  section suite.passes "Test Passed." "[ RUN      ] A.B
passing output that must not appear"
  section suite.fails "Test Failed." "[ RUN      ] Busy.Machine
noise before the failure
/src/busy_machine_test.cpp:58: Failure
Expected equality of these values:
  test[\"status\"]
    Which is: \"failed\"
  \"passed\"
[  FAILED  ] Busy.Machine (31 ms)"
  section suite.silent "Test Failed." "line one
the last line of a silent failure"
} >"$log"

out=$("$source_dir/tools/ctest_failures.sh" "$work" 2>&1) || fail "ctest_failures.sh exited $?: $out"
grep -q "^--- suite.fails: Test Failed. (after 1.00 s)" <<<"$out" || fail "the failed test is not named: $out"
grep -q "busy_machine_test.cpp:58: Failure" <<<"$out" || fail "its failure line is missing: $out"
grep -q 'Which is: "failed"' <<<"$out" || fail "the lines after its failure are missing: $out"
grep -q "noise before the failure" <<<"$out" && fail "lines before the failure are shown: $out"
grep -q "passing output" <<<"$out" && fail "a passed test's output is shown: $out"
grep -q "^--- suite.silent" <<<"$out" || fail "a failed test without a failure line is not named: $out"
grep -q "the last line of a silent failure" <<<"$out" || fail "its last lines are missing: $out"

# No log: says so, never fails the command that called it.
out=$("$source_dir/tools/ctest_failures.sh" "$work/nowhere" 2>&1) || fail "a missing log made it exit $?"
grep -q "no test log" <<<"$out" || fail "a missing log is not named: $out"
rm -rf "$work"
echo "ctest_failures.sh names each failed test with its failure lines"
