#!/usr/bin/env bash
# Says at the end of a failed ctest run why each failed test failed: the
# lines of its output that name the failure (GoogleTest's "Failure" blocks,
# errors), at most a screenful per test. ctest --output-on-failure prints a
# test's output when the test ends, hundreds of lines before the summary;
# a CI service that keeps only the end of a log would show the failing test's
# name and nothing of why.
#
# usage: tools/ctest_failures.sh BUILD_DIR   (reads BUILD_DIR/Testing/Temporary/LastTest.log)
set -euo pipefail
log="${1:?usage: ctest_failures.sh BUILD_DIR}/Testing/Temporary/LastTest.log"
[ -r "$log" ] || { echo "ctest_failures: no test log at $log" >&2; exit 0; }

awk -v per_test=40 '
  # A test'"'"'s section: "N/M Testing: NAME", its output between "Output:" and
  # "<end of output>", then "Test Passed." or "Test Failed." (or a reason).
  /^[0-9]+\/[0-9]+ Testing: / { name = $3; took = "?"; capturing = 0; count = 0; delete lines; next }
  /^Output:$/ { getline; capturing = 1; next }
  /^<end of output>$/ { capturing = 0; next }
  capturing { lines[++count] = $0; next }
  /^Test time = / { took = $4 " s"; next }
  /^Test (Failed|Timeout|Exception)/ || /^Test .*(Failed|Timeout|Killed)/ {
    status = $0; sub(/Errors while running CTest.*/, "", status)
    printf "\n--- %s: %s (after %s)\n", name, status, took
    shown = 0; after = 0
    for (i = 1; i <= count && shown < per_test; ++i) {
      line = lines[i]
      if (line ~ /Failure$|: error:|[Ee]rror:|FAILED|Timeout|timed out|what\(\)|CMake Error|failed for seed/) after = 12
      if (after > 0) { print "  " substr(line, 1, 240); ++shown; --after }
    }
    if (shown == 0)  # nothing named the failure: its last lines
      for (i = (count > 15 ? count - 14 : 1); i <= count; ++i) print "  " substr(lines[i], 1, 240)
  }
' "$log"
