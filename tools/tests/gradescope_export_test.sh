#!/usr/bin/env bash
# Gradescope's autograder, end to end, in a simulated /autograder:
#   `lab export-gradescope --assignment a02_transformer_costs` writes the zip, with a02's
#   hidden material and no other lab's; it is unpacked into
#   WORK/autograder/source as Gradescope does; setup.sh builds the reference kit
#   there and closes solutions/ and the build to other users (nobody, who runs
#   student code) but the grading kit; run_autograder grades the bundled example
#   submission's a02 from WORK/autograder/submission into
#   WORK/autograder/results/results.json, whose score must be the example's
#   expected a02 score, whose tests carry Gradescope's visibility and whose
#   output shows only the visible subtotal; with a budget too short to grade,
#   results.json still appears and says why. AUTOGRADER_ROOT is the scripts'
#   path override.
# usage: gradescope_export_test.sh SOURCE_DIR WORK_DIR
set -uo pipefail

source_dir=$1 work=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
root="$work/autograder"
assignment=a02_transformer_costs  # the example's lab whose tests take milliseconds
rm -rf "$work" && mkdir -p "$root/source" "$root/submission" "$root/results" || fail "cannot create $work"

# Bad input names the flag and writes nothing.
out=$("$source_dir/lab" export-gradescope --assignment a99_nothing "$work/x.zip" 2>&1) && fail "an unknown assignment was exported"
grep -q -- "--assignment a99_nothing" <<<"$out" || fail "the error does not name --assignment: $out"
[ ! -e "$work/x.zip" ] || fail "a zip was written for an unknown assignment"

"$source_dir/lab" export-gradescope --assignment "$assignment" "$work/$assignment.zip" || fail "export-gradescope failed"
out=$("$source_dir/lab" export-gradescope --assignment "$assignment" "$work/$assignment.zip" 2>&1) && fail "an existing zip was overwritten"
grep -q "exists" <<<"$out" || fail "overwriting: unclear refusal: $out"

(cd "$root/source" && unzip -q "$work/$assignment.zip") || fail "the zip does not unpack"
for script in setup.sh run_autograder; do
  [ -x "$root/source/$script" ] || fail "$script is not an executable at the zip's root"
done
grep -q "assignment=\"$assignment\"" "$root/source/run_autograder" || fail "run_autograder does not grade $assignment"
grep -q "assignment=\"$assignment\"" "$root/source/setup.sh" || fail "setup.sh does not build $assignment's verdict"
# Only the graded lab's hidden tests and rubric leave the instructor's machine.
[ -f "$root/source/solutions/$assignment/grading/rubric.toml" ] || fail "$assignment's rubric is not in the zip"
ls "$root/source/solutions/$assignment/grading/tests/"*.cpp >/dev/null 2>&1 || fail "$assignment's hidden tests are not in the zip"
others=$(cd "$root/source" && find solutions -mindepth 2 -maxdepth 2 -name grading ! -path solutions/$assignment/grading)
[ -z "$others" ] || fail "other labs' hidden material is in the zip: $others"

echo "== setup.sh (builds the reference kit: minutes)"
# Under `./lab test`, which exports its compiler cache (CCACHE_DIR, with paths
# relative to the course), setup.sh's cmake compiles through it: the zip holds
# the sources the reference build has just compiled, so the build takes
# seconds and gives the same objects. Run alone, it compiles everything.
launcher=()
if [ -n "${CCACHE_DIR:-}" ] && command -v ccache >/dev/null; then
  launcher=(CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_CUDA_COMPILER_LAUNCHER=ccache)
fi
env "${launcher[@]}" AUTOGRADER_ROOT="$root" bash "$root/source/setup.sh" >"$work/setup.log" 2>&1 ||
  { tail -n 30 "$work/setup.log"; fail "setup.sh failed"; }

# Nobody (student code, when the grader is root) reads no solution and no
# reference build but the grading kit, which every staged course copies.
open=$(cd "$root/source" && find solutions build ! -type l -perm /o=r ! -path 'build/solution/grading_kit*')
[ -z "$open" ] || fail "readable by other users after setup.sh: $(head -n 5 <<<"$open")"
[ -n "$(find "$root/source/build/solution/grading_kit" -type f -perm -o=r)" ] || fail "the grading kit was closed too"
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
  as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
  ! as_nobody cat "$root/source/solutions/$assignment/grading/rubric.toml" >/dev/null 2>&1 || fail "nobody reads the rubric"
  ! as_nobody ls "$root/source/build/solution/course" >/dev/null 2>&1 || fail "nobody lists the reference build"
  kit_file=$(find "$root/source/build/solution/grading_kit" -type f | head -n 1)
  as_nobody cat "$kit_file" >/dev/null || fail "nobody cannot read the grading kit ($kit_file)"
fi

cp -r "$source_dir/examples/submissions/partial/." "$root/submission/"
echo "== run_autograder"
AUTOGRADER_ROOT="$root" "$root/source/run_autograder" >"$work/run.log" 2>&1 || { tail -n 30 "$work/run.log"; fail "run_autograder failed"; }
python3 - "$root/results/results.json" "$source_dir/examples/submissions/expected_scores.json" "$assignment" <<'PY' || fail "results.json"
import json, sys
results = json.load(open(sys.argv[1]))
expected = json.load(open(sys.argv[2]))["partial"]["assignments"][sys.argv[3]]
assert abs(results["score"] - expected) < 1e-6, f"score {results['score']}, expected {expected}"
tests = results["tests"]
assert tests, "no tests in results.json"
shown = {test.get("visibility", results.get("visibility", "visible")) for test in tests}
assert "after_due_date" in shown and "visible" in shown, f"visibilities: {shown}"
assert all("name" in test and "score" in test and "max_score" in test for test in tests)
# Before the due date students see the visible subtotal, never the whole total.
output = results["output"]
visible = [test for test in tests if test.get("visibility") == "visible" and "status" in test]
now = sum(test["score"] for test in visible)
assert "Score on the tests shown now:" in output and "after the due date" in output, output
assert f"Score {results['score']:.2f}".rstrip("0").rstrip(".") + " /" not in output, output
total = [test for test in tests if test["name"] == "Total, with every test"]
assert len(total) == 1 and total[0]["visibility"] == "after_due_date", total
# Gradescope shows a test without a status as passed: only zero-point notes lack one.
assert all("status" in test or test["max_score"] == 0 for test in tests)
assert len(json.dumps(results)) < 1 << 20, "results.json must stay small"
print(f"visible now: {now:.2f}; ", end="")
print(f"results.json: score {results['score']:.4f} (expected {expected:.4f}), {len(tests)} tests, visibility {sorted(shown)}")
PY

echo "== run_autograder with too little time"
rm -rf "$root/results" && mkdir -p "$root/results"
AUTOGRADER_ROOT="$root" ROOFLAB_GRADESCOPE_BUDGET_S=1 "$root/source/run_autograder" >"$work/short.log" 2>&1 ||
  fail "run_autograder failed when out of time"
python3 - "$root/results/results.json" <<'PY' || fail "results.json when out of time"
import json, sys
results = json.load(open(sys.argv[1]))
assert results["score"] == 0 and "did not finish within 1 s" in results["output"], results
print("out of time: results.json says so, score 0")
PY
echo "Gradescope autograder: exported, set up, graded, and out of time handled"
