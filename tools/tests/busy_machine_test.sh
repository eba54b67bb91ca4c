#!/usr/bin/env bash
# `rooflab bench bandwidth` beside one spinning process per core (and one more)
# must warn that the machine was busy. Only the spinners this test starts are
# stopped.
# usage: busy_machine_test.sh ROOFLAB
set -uo pipefail
rooflab=$1
spinners=()
trap 'kill "${spinners[@]}" 2>/dev/null' EXIT
for _ in $(seq 0 "$(nproc)"); do
  (while :; do :; done) &
  spinners+=($!)
done
out=$("$rooflab" bench bandwidth 2>&1)
echo "$out"
grep -q "warning: the machine was busy" <<<"$out" || { echo "FAIL: no busy-machine warning" >&2; exit 1; }
echo "bench warned that the machine was busy"
