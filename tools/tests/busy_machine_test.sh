#!/usr/bin/env bash
# `rooflab bench bandwidth` beside one spinning process per core (and one more)
# must warn that the machine was busy, and still print its figures. Only the
# spinners this test starts are stopped.
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
# ... and still prints its table, and the read rate's spread pass by pass.
grep -qE "^\| read \(a sum\) \| [0-9.]+ \|$" <<<"$out" || { echo "FAIL: no read row" >&2; exit 1; }
grep -qE "30 passes one after another: slowest [0-9.]+, median [0-9.]+, fastest [0-9.]+ GB/s" <<<"$out" ||
  { echo "FAIL: no pass-by-pass line" >&2; exit 1; }
echo "bench warned that the machine was busy"
