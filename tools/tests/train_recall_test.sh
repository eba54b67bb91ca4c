#!/usr/bin/env bash
# `rooflab train recall` as a person types it: a short run prints a progress
# line per evaluation and the final accuracy; a short sweep prints a row per
# layer count, the minimum line and its CSV files; bad flags are named, exit 2.
# usage: train_recall_test.sh ROOFLAB SCRATCH_DIR
set -uo pipefail
rooflab=$1
scratch=$2
rm -rf "$scratch" && mkdir -p "$scratch"
failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }

# run EXPECTED_EXIT_CODE ARGS...: the output (stdout and stderr) in $out.
run() {
  local expected=$1 code
  shift
  out=$("$rooflab" train recall "$@" 2>&1)
  code=$?
  echo "\$ rooflab train recall $*  (exit $code)"
  echo "$out"
  [ "$code" -eq "$expected" ] || fail "train recall $*: exit $code, not $expected"
}
# expect LINE_REGEX WHAT: some line of $out matches the extended regex.
expect() { grep -Eq -- "$1" <<<"$out" || fail "$2: no line matching /$1/"; }

run 0 --layers 2 --steps 20 --eval-every 10
for step in 10 20; do
  expect "^step +$step  loss [0-9]+\.[0-9]{4}  held-out accuracy +[0-9]+\.[0-9] %  [0-9]+\.[0-9] steps/s$" \
    "the progress line of step $step"
done
expect "^final held-out accuracy [0-9]+\.[0-9] % after 20 steps in [0-9]+\.[0-9] s$" "the final line"

run 0 --sweep 1..2 --steps 10 --csv "$scratch/sweep.csv"
expect "^\| layers \| held-out accuracy \| first step at ≥ 90 % \| seconds \|$" "the sweep's header"
for layers in 1 2; do
  expect "^\| $layers \| [0-9]+\.[0-9] % \| ([0-9]+|—) \| [0-9]+\.[0-9] \|$" "the sweep's row for $layers layers"
done
expect "^minimum layers reaching 90 %: (1|2|none .*)$" "the minimum line"
[ "$(cut -d, -f1 "$scratch/sweep.csv" | tr '\n' ' ')" = "layers 1 2 " ] ||
  fail "sweep.csv: not a header and one row per layer count: $(cat "$scratch/sweep.csv")"
# 10 steps, an evaluation every 100: one evaluation (the last step) per run.
[ "$(cut -d, -f1,2 "$scratch/sweep_curves.csv" | tr '\n' ' ')" = "layers,step 1,10 2,10 " ] ||
  fail "sweep_curves.csv: not one row per evaluation: $(cat "$scratch/sweep_curves.csv")"

run 2 --layers 0 --steps 10
expect "^rooflab train: --layers: must be positive" "--layers 0"
run 2 --sweep 3..1
expect "^rooflab train: --sweep 3\.\.1: A\.\.B needs A <= B" "--sweep 3..1"
run 2 --lr 0 --steps 10
expect "^rooflab train: --lr: " "--lr 0"

[ "$failed" -eq 0 ] && echo "train recall: progress, sweep, CSV and flag errors as expected"
exit "$failed"
