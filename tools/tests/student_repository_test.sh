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
"$rooflab" export-student "$repo" --git || fail "export-student failed"

# --git: a repository with one commit holding every file, ready to push as the template.
[ "$(git -C "$repo" rev-list --count HEAD 2>/dev/null)" = 1 ] || fail "export-student --git: not a repository with one commit"
[ -z "$(git -C "$repo" status --porcelain)" ] || fail "export-student --git: files left out of the commit"

# --assignment: one Classroom assignment's repository grades only its labs;
# --feedback-only makes its graders worth nothing. An unknown lab writes nothing.
one="$work/one-assignment"
"$rooflab" export-student "$one" --assignment a01_roofline --assignment a06_kv_cache_decode --feedback-only \
  >/dev/null || fail "export-student --assignment failed"
graded=$(grep -o 'test-name: "a0[0-9]_[a-z_]*' "$one/.github/workflows/classroom.yml" | sort -u | cut -d'"' -f2 | tr '\n' ' ')
[ "$graded" = "a01_roofline a06_kv_cache_decode " ] || fail "export-student --assignment: the workflow grades: $graded"
! grep -q "max-score: [1-9]" "$one/.github/workflows/classroom.yml" || fail "--feedback-only: a grader is worth points"
grep -q 'graded on `a01_roofline`, `a06_kv_cache_decode`' "$one/README.md" || fail "the README does not name the graded labs"
out=$("$rooflab" export-student "$work/unknown" --assignment a99_nothing 2>&1) && fail "export-student took an unknown lab"
grep -q -- "--assignment a99_nothing: no such lab" <<<"$out" && [ ! -e "$work/unknown" ] ||
  fail "export-student --assignment a99_nothing: unclear refusal or files written: $out"

# Every path and command the student's pages name is in the repository.
python3 "$(dirname "$0")/student_pages_check.py" "$repo" || fail "a student page names what the repository lacks"

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
      stubs:./lab\ score*)
        [ $status -ne 0 ] || fail "[$phase] '$command' passed on the stubs"
        grep -qE "^score: 0 / [1-9]" "$log" || { cat "$log"; fail "[$phase] '$command': not a score of 0"; } ;;
      stubs:./lab\ example*)
        # A stub that nothing catches ends the program cleanly: exit 1, no abort.
        [ $status -eq 1 ] || { cat "$log"; fail "[$phase] '$command' exited $status, not 1"; }
        ! grep -q "terminate called" "$log" || fail "[$phase] '$command' aborted"
        grep -q "not implemented yet" "$log" || fail "[$phase] '$command' did not say 'not implemented'" ;;
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
          ./lab\ score*)
            grep -qE "^score: ([0-9.]+) / \1 " "$log" || fail "[$phase] '$command': not the full score" ;;
        esac ;;
    esac
  done
}

run_all stubs
# The GPU benchmarks include the student's kernels and run only on a GPU: a
# student build compiles them only where one is (tools/CMakeLists.txt).
if ! nvidia-smi -L 2>/dev/null | grep -q "^GPU [0-9]"; then
  ! grep -qE "Building CUDA object .*gpu_(attention|decode)_bench" "$work/stubs-1.log" ||
    fail "the student build compiled the GPU benchmarks on a machine without a GPU"
fi
# The tools compile from the same text here as in the reference build, so the
# compiler cache serves them: generate.cpp includes the most labs' headers
# (tools/CMakeLists.txt's lab_headers links).
python3 "$(dirname "$0")/same_preprocessed_text.py" tools/cli/generate.cpp "$source_dir" "$(dirname "$rooflab")" \
  "$repo" "$repo/build/student" || fail "the student build compiles the tools from other text than the reference build"
# So do a lab's public tests, provided code and profile (they compile through
# course/<lab>/lab, a link to the lab's folder in either tree).
for file in a06_kv_cache_decode/tests/kv_cache_test.cpp a06_kv_cache_decode/src/transformer.cpp \
            a05_cuda_attention/profile/kernels.cpp; do
  python3 "$(dirname "$0")/same_preprocessed_text.py" "solutions/$file" "$source_dir" "$(dirname "$rooflab")" \
    "$repo" "$repo/build/student" "assignments/$file" ||
    fail "the student build compiles $file from other text than the reference build"
done
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

# One lab that does not compile costs only its own graders: the build keeps
# going (as the Classroom workflow's does) and every other grader passes.
broken=$(ls "$repo"/assignments/a03_attention_memory/src/*.cpp | head -n 1)
cp "$broken" "$work/unbroken.cpp"
echo "this does not compile;" >>"$broken"
(cd "$repo" && ./lab score) >"$work/score-broken.log" 2>&1 && fail "./lab score passed with a lab that does not compile"
cp "$work/unbroken.cpp" "$broken"
grep -E "^  (pass|FAIL) " "$work/score-broken.log" | sed 's/^/   | /'
! grep -E "^  FAIL " "$work/score-broken.log" | grep -qv " a03_attention_memory: " ||
  fail "./lab score: a lab that compiles lost points to a03's compile error"
grep -qE "^  FAIL .* a03_attention_memory: " "$work/score-broken.log" || fail "./lab score: a03 did not compile, yet passed"
grep -qE "^  pass .* a06_kv_cache_decode: " "$work/score-broken.log" || fail "./lab score: a06 lost its points"

# A repository for one lab (one Classroom assignment) holds and builds that
# lab alone, starts its README there, and its tools and commands say what they
# can do there. Its build finds most of its objects in the compiler cache.
a05="$work/a05-only"
"$rooflab" export-student "$a05" --assignment a05_cuda_attention >/dev/null || fail "export-student --assignment a05 failed"
[ "$(ls "$a05/assignments")" = "$(printf 'CMakeLists.txt\na05_cuda_attention')" ] ||
  fail "the a05 repository holds: $(ls "$a05/assignments" | tr '\n' ' ')"
start=$(awk '/<!-- commands: run by the course.s tests/ {armed = 1; next} armed && /^```bash/ {inside = 1; next}
             inside && /^```/ {exit} inside && NF {print $1 " " $2 " " $3}' "$a05/README.md" | tr '\n' '|')
[ "$start" = "./lab build #|./lab test a05_cuda_attention|./lab score a05_cuda_attention|./lab example a05_cuda_attention|./lab profile a05_cuda_attention|" ] ||
  fail "the a05 repository's README starts with: $start"
! grep -q "a01_roofline" "$a05/README.md" || fail "the a05 repository's README names a01_roofline"
for command in build test score example profile format; do
  out=$(cd "$a05" && ./lab "$command" --help 2>&1) || fail "./lab $command --help failed: $out"
  grep -q "^  $command" <<<"$out" || fail "./lab $command --help does not describe $command: $out"
done
(cd "$a05" && ./lab score) >"$work/a05-score-stubs.log" 2>&1 && fail "the a05 stubs passed ./lab score"
grep -q "^score: 0 / 40 " "$work/a05-score-stubs.log" || { tail -n 20 "$work/a05-score-stubs.log"; fail "a05 stubs: not 0 / 40"; }
! grep -qE "Building|did not compile" "$work/a05-score-stubs.log" || fail "./lab score printed the build's lines"
grep -o "Building [A-Z]* object [^ ]*" "$a05/build/student/score/build.log" | grep -E "a0[1-467]_" &&
  fail "the a05 repository built other labs"
out=$(cd "$a05" && ./lab bench cuda-cpu 2>&1) && fail "./lab bench ran without the labs it needs"
grep -q "does not hold" <<<"$out" || fail "./lab bench: unclear refusal: $out"
for file in standard_attention.cu flash_attention.cu flash_attention_tensor_core.cu flash_attention_mma_sync.cu; do
  cp "$source_dir/solutions/a05_cuda_attention/src/$file" "$a05/assignments/a05_cuda_attention/src/$file"
done
(cd "$a05" && ./lab score) >"$work/a05-score-solved.log" 2>&1 || { tail -n 20 "$work/a05-score-solved.log"; fail "a05 solved: ./lab score failed"; }
grep -q "^score: 40 / 40 " "$work/a05-score-solved.log" || fail "a05 solved: not 40 / 40"
! grep -qE "failing grader|failed in part" "$work/a05-score-solved.log" || fail "a05 solved: ./lab score speaks of failures"
# A planted bug, K read past its end in the flash kernel: every launch it
# breaks is one failure at the test's line, quoting the runtime's message,
# which names the kernel, the student's own file and line, and the buffer.
flash="$a05/assignments/a05_cuda_attention/src/flash_attention.cu"
sed -i 's/load_tile(k_tile, qk, k_rows, d, qk_width(d), key0, kBlockCols, m);/load_tile(k_tile, qk, k_rows, d, qk_width(d), key0, kBlockCols, m + kBlockCols);/' "$flash"
grep -q 'm + kBlockCols);' "$flash" || fail "could not plant the bug in flash_attention.cu"
line=$(grep -n 'value = \*reinterpret_cast<const float4\*>(from);' "$flash" | cut -d: -f1)
[ -n "$line" ] || fail "could not plant the bug in flash_attention.cu"
(cd "$a05" && ./lab test a05_cuda_attention) >"$work/a05-planted.log" 2>&1 && fail "a05 passed with K read past its end"
! grep -q "unknown file" "$work/a05-planted.log" || fail "a05 planted bug: gtest's 'unknown file' failure"
grep -qE "failed: kernel flash_forward: invalid read of 16 bytes .* at src/flash_attention.cu:$line: device buffer of [0-9]+ bytes \(the kernel's argument 2\), byte [0-9]+: past its end" \
  "$work/a05-planted.log" || { grep -m3 -A3 Failure "$work/a05-planted.log"; fail "a05 planted bug: the message does not name the kernel, file, line and buffer"; }
failures=$(awk '/\[ RUN +\] .*OneQueryAgainstManyKeys\/flash/ {inside = 1} inside && /: Failure/ {n++}
                inside && /\[ +FAILED +\]/ {exit} END {print n + 0}' "$work/a05-planted.log")
[ "$failures" = 2 ] || fail "a05 planted bug: OneQueryAgainstManyKeys/flash launches twice but reports $failures failures"
cp "$source_dir/solutions/a05_cuda_attention/src/flash_attention.cu" "$flash"
if command -v nvcc >/dev/null; then
  # Code only nvcc compiles (__CUDACC__) that does not compile costs no
  # grader here: the score is whole, and says what the error means.
  printf '#ifdef __CUDACC__\nthis does not compile;\n#endif\n' >>"$a05/assignments/a05_cuda_attention/src/flash_attention_tensor_core.cu"
  (cd "$a05" && ./lab score) >"$work/a05-score-nvcc.log" 2>&1 || fail "a05 with an nvcc error: ./lab score failed"
  grep -q "^score: 40 / 40 " "$work/a05-score-nvcc.log" || fail "a05 with an nvcc error: not 40 / 40"
  [ "$(grep -c "flash_attention_tensor_core.cu(.*error" "$work/a05-score-nvcc.log")" = 1 ] ||
    fail "a05 with an nvcc error: the error is not shown once"
  grep -q "every grader passed: the build's errors above" "$work/a05-score-nvcc.log" ||
    fail "a05 with an nvcc error: ./lab score does not say what the error means"
fi
rm -rf "$a05"

# The student's lab says what it is, and refuses the instructor's commands.
(cd "$repo" && ./lab help) | grep -q "your repository" || fail "./lab help does not speak to a student"
out=$(cd "$repo" && ./lab grade 2>&1) && fail "./lab grade ran in a student repository"
grep -q "not a command here" <<<"$out" || fail "./lab grade: unclear refusal: $out"
echo "student repository: every README command ran, on the stubs and on finished code"
