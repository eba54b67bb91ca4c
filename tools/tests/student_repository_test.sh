#!/usr/bin/env bash
# The student repository works on its own: `rooflab export-student` writes it
# to a fresh folder, and the commands of its README's "Start here" block run
# there verbatim, in order:
#   1. on the stubs: the build succeeds, and every public test and tool fails
#      with "not implemented", nothing else;
#   2. with the reference solutions copied into the student's files (a student
#      who finished): every command succeeds and every public test passes.
# It also checks that nothing of the instructor's is in the repository, and
# runs GitHub Classroom's workflow locally (classroom_workflow_check.py).
# usage: student_repository_test.sh ROOFLAB SOURCE_DIR WORK_DIR
set -uo pipefail

rooflab=$1 source_dir=$2 work=$3
repo="$work/repository"
fail() { echo "FAIL: $*" >&2; exit 1; }

rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
"$rooflab" export-student "$repo" || fail "export-student failed"

# Nothing of the instructor's: no solutions, grader, example submissions or
# hidden tests, and no solution region left in any file.
for path in solutions autograder examples .ci tools/cli/grade.cpp tools/cli/release.cpp docs/autograder_security.md; do
  [ ! -e "$repo/$path" ] || fail "the student repository holds $path"
done
[ -z "$(find "$repo" -type d \( -name grading -o -name literate \))" ] || fail "a grading/ or literate/ folder was exported"
leaks=$(grep -rlE "BEGIN SOLUTION|END SOLUTION" "$repo" || true)
[ -z "$leaks" ] || fail "solution markers in: $leaks"
[ -x "$repo/lab" ] || fail "lab is not executable in the student repository"

# The README's tested block: the lines between the marker and the closing fence.
mapfile -t commands < <(awk '/<!-- commands: run by the course.s tests/ {armed = 1; next}
                              armed && /^```bash/ {inside = 1; next}
                              inside && /^```/ {exit}
                              inside && NF {print}' "$repo/README.md")
[ "${#commands[@]}" -ge 4 ] || fail "README.md: no tested command block found (${#commands[@]} commands)"
printf 'README commands:\n'; printf '  %s\n' "${commands[@]}"

# Each failing test's output (ctest --output-on-failure) must say "not implemented".
every_failure_not_implemented() {  # LOG
  awk '/\*\*\*Failed|\*\*\*Exception/ {if (open && !seen) bad++; open = 1; seen = 0; failed++; next}
       /^ *Start +[0-9]+:|tests passed, / {if (open && !seen) bad++; open = 0}
       open && /not implemented yet/ {seen = 1}
       END {if (open && !seen) bad++; if (failed == 0 || bad > 0) {print failed " failed, " bad " not for not implemented"; exit 1}}' "$1"
}

run_all() {  # PHASE: stubs | solved
  local phase=$1 i=0 status
  for command in "${commands[@]}"; do
    i=$((i + 1))
    local log="$work/$phase-$i.log"
    echo "== [$phase] $command"
    (cd "$repo" && bash -c "$command") >"$log" 2>&1
    status=$?
    tail -n 3 "$log" | sed 's/^/   | /'
    case "$phase:$command" in
      stubs:./lab\ build*)
        [ $status -eq 0 ] || { cat "$log"; fail "[$phase] '$command' exited $status"; } ;;
      stubs:./lab\ test*)
        [ $status -ne 0 ] || fail "[$phase] '$command' passed on the stubs"
        grep -q "0% tests passed" "$log" || fail "[$phase] '$command': some public test passed on the stubs"
        every_failure_not_implemented "$log" || fail "[$phase] '$command': a test failed for another reason ($log)" ;;
      stubs:*)
        grep -q "not implemented yet" "$log" || { cat "$log"; fail "[$phase] '$command' did not say 'not implemented'"; } ;;
      solved:*)
        [ $status -eq 0 ] || { cat "$log"; fail "[$phase] '$command' exited $status"; }
        ! grep -q "not implemented yet" "$log" || fail "[$phase] '$command' still says 'not implemented' ($log)"
        case "$command" in
          ./lab\ test*) grep -q "100% tests passed" "$log" || fail "[$phase] '$command': not every test passed" ;;
        esac ;;
    esac
  done
}

run_all stubs
python3 "$(dirname "$0")/classroom_workflow_check.py" "$repo" "$source_dir/solutions" stubs ||
  fail "GitHub Classroom's workflow on the stubs"

# A student who finished: the reference's version of every file a student
# writes, copied over the stubs.
for lab_dir in "$repo"/assignments/a*/; do
  lab=$(basename "$lab_dir")
  for stub in "$lab_dir"src/*; do
    cp "$source_dir/solutions/$lab/src/$(basename "$stub")" "$stub" || fail "no reference for $stub"
  done
done
run_all solved
python3 "$(dirname "$0")/classroom_workflow_check.py" "$repo" "$source_dir/solutions" solved ||
  fail "GitHub Classroom's workflow on finished code"
# ... and every lab's public tests pass in the repository alone.
(cd "$repo" && ./lab test) >"$work/solved-all.log" 2>&1 || { tail -n 40 "$work/solved-all.log"; fail "./lab test: a public test failed"; }
grep -q "100% tests passed" "$work/solved-all.log" || fail "./lab test: not every public test passed"
grep "tests passed" "$work/solved-all.log" | sed 's/^/   | /'

# The student's lab says what it is, and refuses the instructor's commands.
(cd "$repo" && ./lab help) | grep -q "your repository" || fail "./lab help does not speak to a student"
out=$(cd "$repo" && ./lab grade 2>&1) && fail "./lab grade ran in a student repository"
grep -q "not a command here" <<<"$out" || fail "./lab grade: unclear refusal: $out"
echo "student repository: every README command ran, on the stubs and on finished code"
