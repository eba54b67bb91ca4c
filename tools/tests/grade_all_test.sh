#!/usr/bin/env bash
# `rooflab grade-all` on a small class (a02 only, seed 1), run for real:
#   - a roster folder: alice/ and bob.zip (the example submission: its known
#     a02 score), carol/ (an empty folder) and dave.zip (not a zip): one bad
#     submission never stops the rest, and each gets a report;
#   - gradebook.csv (student × assignment × group), summary.md, histogram.csv;
#   - rerun: nothing is regraded; a changed submission alone is, and its
#     earlier report is kept;
#   - gradebook_wide.csv (one row per student, the roster's identifier, one
#     column per lab) and each student's own seed, derived from --seed and
#     their identifier, the one their report was graded with;
#   - a CSV roster with a relative path and a git URL; bad rosters and output folders are
#     errors that name the file, the line or the column;
#   - a GitHub Classroom export graded with --deadline: a local repository
#     with commits either side of it is graded at the one before (and left
#     untouched), a URL with none before it, a clone that fails and a row
#     without a repository are failed rows with their reason, an empty
#     roster_identifier falls back to github_username with a warning, a zip
#     is graded as it is with a note, and a formula as an identifier stays text;
#   - the resume key holds the grader: the same program's bytes elsewhere
#     regrade nothing, one changed byte regrades everything;
#   - --slurm (a stand-in sbatch that records its command): --mem from the
#     rubrics' limits, or the instructor's own;
#   - only its own: the gradings' temp files go to a TMPDIR of this test's,
#     which they leave empty, and no fork of one grading failed because of the
#     other grading beside it (-j 2), whatever else runs on the machine.
# usage: grade_all_test.sh ROOFLAB SOURCE_DIR WORK_DIR
set -uo pipefail

rooflab=$1 source_dir=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work/roster" "$work/tmp" || fail "cannot create $work"
export TMPDIR=$work/tmp
# The grader's bytes are part of the resume key: grade with a copy, so that a
# rebuild in the same tree while this runs does not regrade half the class.
cp "$rooflab" "$work/rooflab" && rooflab=$work/rooflab || fail "cannot copy $rooflab"
partial="$source_dir/examples/submissions/partial"
# The example's lab graded here: what is tested is the class, not the lab, and
# a02's tests take milliseconds (its a01 waits out five endless tests).
assignment=a02_transformer_costs
cp -r "$partial" "$work/roster/alice"
(cd "$partial" && zip -qr "$work/roster/bob.zip" .) || fail "zip"
mkdir "$work/roster/carol"
echo "not a zip" >"$work/roster/dave.zip"
expected=$(python3 -c "import json; print(json.load(open('$source_dir/examples/submissions/expected_scores.json'))['partial']['assignments']['$assignment'])")

grade_with() { local program=$1; shift; "$program" grade-all "$@" --assignment "$assignment" --seed 1 -j 2; }
grade_all() { grade_with "$rooflab" "$@"; }

echo "== first grading"
grade_all "$work/roster" --out "$work/out" 2>"$work/first.log" || { cat "$work/first.log"; fail "grade-all failed"; }
cat "$work/first.log"
for student in alice bob carol dave; do
  [ -s "$work/out/$student/report/results.json" ] || fail "$student has no report"
done
grep -q "\[4/4\]" "$work/first.log" || fail "no progress lines"
# Two gradings ran side by side: their steps each had a pids cgroup (or the
# shared RLIMIT_NPROC, which the report names), and no fork failed.
if grep -rl "Resource temporarily unavailable" "$work/out"; then fail "a fork failed while two gradings ran"; fi
[ -z "$(ls -A "$TMPDIR")" ] || { ls -A "$TMPDIR"; fail "the gradings left files in their temp folder"; }
python3 - "$work/out/gradebook.csv" "$expected" "$assignment" <<'PY' || fail "gradebook.csv"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
expected = float(sys.argv[2])
total = {row["student"]: float(row["score"]) for row in rows if row["assignment"] == "total"}
assert set(total) == {"alice", "bob", "carol", "dave"}, total
assert abs(total["alice"] - expected) < 1e-3 and abs(total["bob"] - expected) < 1e-3, total
assert total["carol"] == 0 and total["dave"] == 0, total
groups = [row for row in rows if row["student"] == "alice" and row["assignment"] == sys.argv[3]]
assert len(groups) > 3 and abs(sum(float(row["score"]) for row in groups) - expected) < 1e-3, groups
print(f"gradebook: {len(rows)} rows; alice and bob {expected:.2f}, carol and dave 0; {len(groups)} groups each")
PY
grep -q "| 4 | 4 | 0 | 0 |" "$work/out/summary.md" || { cat "$work/out/summary.md"; fail "summary.md"; }
[ -s "$work/out/histogram.csv" ] || fail "no histogram.csv"
# a02 has no leaderboard: the files are there, with no rows (ranking: class_leaderboard_test.cpp).
[ "$(cat "$work/out/leaderboard.csv")" = "metric,rank,identifier,folder,value" ] || fail "leaderboard.csv"
grep -q "No graded lab has a leaderboard" "$work/out/leaderboard.md" || fail "leaderboard.md"
# Each student's seed: splitmix64(1 XOR FNV-1a(identifier)), the one their report names.
python3 - "$work/out" "$expected" "$assignment" <<'PY' || fail "gradebook_wide.csv"
import csv, json, re, sys
out, expected, lab = sys.argv[1], float(sys.argv[2]), sys.argv[3]
M = 2**64
def fnv1a(text):
    h = 14695981039346656037
    for c in text.encode(): h = ((h ^ c) * 1099511628211) % M
    return h
def splitmix(x):
    x = (x + 0x9e3779b97f4a7c15) % M
    x = ((x ^ (x >> 30)) * 0xbf58476d1ce4e5b9) % M
    x = ((x ^ (x >> 27)) * 0x94d049bb133111eb) % M
    return x ^ (x >> 31)
reader = csv.DictReader(open(f"{out}/gradebook_wide.csv"))
assert reader.fieldnames == ["identifier", "folder", lab, "total", "status", "seed", "commit"], reader.fieldnames
rows = {row["identifier"]: row for row in reader}
assert set(rows) == {"alice", "bob", "carol", "dave"}, rows
for who, row in rows.items():
    assert row["folder"] == who and row["status"] == "graded", row
    seed = str(splitmix(1 ^ fnv1a(who)))
    assert row["seed"] == seed, (who, row["seed"], seed)
    report = json.load(open(f"{out}/{who}/report/results.json"))["output"]
    assert re.search(rf"Hidden-test inputs: seed {seed}\b", report), (who, seed)
assert abs(float(rows["alice"][lab]) - expected) < 1e-3 and abs(float(rows["bob"]["total"]) - expected) < 1e-3, rows
assert rows["alice"]["seed"] != rows["bob"]["seed"]
print(f"gradebook_wide.csv: 4 rows; seeds per student, as their reports say")
PY

echo "== rerun: nothing changed"
grade_all "$work/roster" --out "$work/out" 2>"$work/second.log" || fail "second grade-all failed"
[ "$(grep -c "unchanged, not regraded" "$work/second.log")" = 4 ] || { cat "$work/second.log"; fail "a submission was regraded"; }

echo "== rerun: carol changed"
echo "// started" >"$work/roster/carol/notes.cpp"
grade_all "$work/roster" --out "$work/out" 2>"$work/third.log" || fail "third grade-all failed"
grep -q "carol: graded" "$work/third.log" || { cat "$work/third.log"; fail "carol was not regraded"; }
[ "$(grep -c "unchanged, not regraded" "$work/third.log")" = 3 ] || fail "others were regraded"
[ -d "$work/out/carol/report.1" ] || fail "carol's earlier report was not kept"

echo "== a CSV roster"
# frank's is a git URL (file://: no network), cloned before grading.
git init -q "$work/frank.git" && cp -r "$partial/." "$work/frank.git/" &&
  git -C "$work/frank.git" add -A && git -C "$work/frank.git" -c user.name=t -c user.email=t@t commit -qm s ||
  fail "git repository"
printf 'student,submission\n"erin e.",roster/alice\nfrank,file://%s/frank.git\n' "$work" >"$work/class.csv"
# (relative paths, as typed: the roster and the output folder)
(cd "$work" && grade_all class.csv --out out-csv) 2>"$work/csv.log" || { cat "$work/csv.log"; fail "CSV roster"; }
[ -s "$work/out-csv/erin_e./report/results.json" ] || fail "a relative --out: the report is not where it should be"
grep -q "^frank,total,,${expected:0:7}" "$work/out-csv/gradebook.csv" || { cat "$work/out-csv/gradebook.csv"; fail "the git URL was not graded"; }
grep -q "^erin_e.,total,," "$work/out-csv/gradebook.csv" || fail "the CSV student's name was not made folder-safe"
grep -q '^erin e\.,erin_e\.,' "$work/out-csv/gradebook_wide.csv" || { cat "$work/out-csv/gradebook_wide.csv"; fail "the roster's identifier was not kept"; }
[ "$(cat "$work/out-csv/frank/graded_commit")" = "$(git -C "$work/frank.git" rev-parse HEAD)" ] || fail "frank's commit was not recorded"

echo "== a GitHub Classroom export, graded at a deadline"
at() { GIT_AUTHOR_DATE=$1 GIT_COMMITTER_DATE=$1 git -C "$2" -c user.name=t -c user.email=t@t commit -qm "$3"; }
# grace: her submission on the 30th, then everything deleted on the 2nd (after the deadline).
git init -q "$work/grace" && cp -r "$partial/." "$work/grace/" && git -C "$work/grace" add -A &&
  at 2026-11-30T10:00:00Z "$work/grace" "on time" && git -C "$work/grace" rm -rq . &&
  echo late >"$work/grace/late.txt" && git -C "$work/grace" add -A && at 2026-12-02T10:00:00Z "$work/grace" "late" ||
  fail "grace's repository"
on_time=$(git -C "$work/grace" rev-list -1 HEAD~1)
git init -q "$work/henry.git" && echo late >"$work/henry.git/late.txt" && git -C "$work/henry.git" add -A &&
  at 2026-12-05T10:00:00Z "$work/henry.git" "only late" || fail "henry's repository"
# Every file of grace's repository, .git's included (git --no-optional-locks: status rewrites no index).
snapshot() { (cd "$1" && git --no-optional-locks status --porcelain && git worktree list && find . -printf '%p %s %T@\n' | sort) | md5sum; }
grace_before=$(snapshot "$work/grace")
{
  echo 'assignment_name,assignment_url,starter_code_url,github_username,roster_identifier,student_repository_url,student_repository_name,submission_timestamp,points_awarded,points_available'
  echo 'a01,u,s,grace-gh,grace@uni.edu,grace,r,,0,100'
  echo "a01,u,s,henry-gh,,file://$work/henry.git,r,,0,100"
  echo 'a01,u,s,ivy-gh,"Ivy, I.",,r,,0,100'
  echo "a01,u,s,jack-gh,jack@uni.edu,file://$work/nothing.git,r,,0,100"
  echo 'a01,u,s,mallory-gh,"=HYPERLINK(""http://evil"",""x"")",roster/dave.zip,r,,0,100'
} >"$work/classroom.csv"
deadline=2026-12-01T23:59:00-08:00
# A copy of the grader for this part, whose bytes nothing rebuilds under it.
cp "$rooflab" "$work/rooflab-copy" || fail "copy rooflab"
grade_with "$work/rooflab-copy" "$work/classroom.csv" --out "$work/out-classroom" --deadline "$deadline" \
  2>"$work/classroom.log" && fail "failed gradings, yet grade-all exited 0"
cat "$work/classroom.log"
grep -q "warning: .*classroom.csv:3: roster_identifier is empty; graded under github_username henry-gh" "$work/classroom.log" ||
  fail "no warning for the row without a roster_identifier"
[ "$(snapshot "$work/grace")" = "$grace_before" ] || fail "grading changed grace's repository"
[ "$(cat "$work/out-classroom/grace_uni.edu/graded_commit")" = "$on_time" ] || fail "grace's graded_commit"
python3 - "$work/out-classroom" "$expected" "$on_time" <<'PY' || { cat "$work/out-classroom/gradebook_wide.csv"; fail "the Classroom gradebook"; }
import csv, sys
out, expected, on_time = sys.argv[1], float(sys.argv[2]), sys.argv[3]
rows = {row["identifier"]: row for row in csv.DictReader(open(f"{out}/gradebook_wide.csv"))}
assert set(rows) == {"grace@uni.edu", "henry-gh", "Ivy, I.", "jack@uni.edu", "'=HYPERLINK(\"http://evil\",\"x\")"}, rows
grace = rows["grace@uni.edu"]
assert grace["status"] == "graded" and grace["commit"] == on_time and abs(float(grace["total"]) - expected) < 1e-3, grace
henry = rows["henry-gh"]
assert henry["status"].startswith("failed: no commit at or before the deadline 2026-12-02T07:59:00Z"), henry
assert henry["total"] == "0" and henry["seed"], henry
assert rows["Ivy, I."]["status"].startswith("failed: the roster names no submission"), rows["Ivy, I."]
assert rows["jack@uni.edu"]["status"].startswith("failed: cannot clone"), rows["jack@uni.edu"]
mallory = rows["'=HYPERLINK(\"http://evil\",\"x\")"]
assert mallory["status"] == "graded" and mallory["commit"] == "", mallory
long = [row for row in csv.DictReader(open(f"{out}/gradebook.csv")) if row["assignment"] == "total"]
assert len(long) == 5 and sum(row["status"].startswith("failed: ") for row in long) == 3, long
print("Classroom export: grace graded at her commit before the deadline; three failed rows with their reasons")
PY
summary="$work/out-classroom/summary.md"
grep -q "| 5 | 2 | 0 | 3 |" "$summary" || { cat "$summary"; fail "summary.md of the Classroom export"; }
grep -q "## Roster warnings" "$summary" && grep -q "henry-gh" "$summary" || fail "summary.md has no roster warning"
grep -q "not a git repository: graded as submitted" "$summary" || fail "summary.md has no note for the zip"

echo "== rerun: the same grader elsewhere, then a changed grader"
cp "$work/rooflab-copy" "$work/rooflab-moved" || fail "copy rooflab"
grade_with "$work/rooflab-moved" "$work/classroom.csv" --out "$work/out-classroom" --deadline "$deadline" 2>"$work/moved.log"
[ "$(grep -c "unchanged, not regraded" "$work/moved.log")" = 2 ] || { cat "$work/moved.log"; fail "the same grader's bytes regraded"; }
printf x >>"$work/rooflab-moved"  # one byte more: another grader, as after fixing a hidden test
grade_with "$work/rooflab-moved" "$work/classroom.csv" --out "$work/out-classroom" --deadline "$deadline" 2>"$work/changed.log"
grep -q "grace_uni.edu: graded" "$work/changed.log" || { cat "$work/changed.log"; fail "a changed grader did not regrade"; }
grep -q "unchanged, not regraded" "$work/changed.log" && fail "a changed grader kept a report"
[ -d "$work/out-classroom/grace_uni.edu/report.1" ] || fail "grace's earlier report was not kept"

echo "== --slurm: the job array's memory"
mkdir -p "$work/bin" && printf '#!/bin/sh\nprintf "%%s\\n" "$@" >"%s/sbatch.args"\n' "$work" >"$work/bin/sbatch" &&
  chmod +x "$work/bin/sbatch" || fail "a stand-in sbatch"
PATH="$work/bin:$PATH" grade_all "$work/roster" --out "$work/out-slurm" --slurm --test-jobs 2 2>"$work/slurm.log"
mem=$(python3 - "$source_dir/solutions/$assignment/grading/rubric.toml" <<'PY'
import sys, tomllib
rubric = tomllib.load(open(sys.argv[1], "rb"))
largest = max([1024, rubric.get("memory_limit_mb", 2048)] + [g.get("memory_limit_mb", 0) for g in rubric["group"]])
print(f"--mem={2 * largest + 4096 + 512}M")  # 2 test jobs, the scratch tmpfs, the grader
PY
)
grep -qx -- "$mem" "$work/sbatch.args" || { cat "$work/sbatch.args"; fail "sbatch was not given $mem"; }
grep -q -- "$mem" "$work/out-slurm/slurm/sbatch_command.sh" || fail "slurm/sbatch_command.sh"
grep -qE -- "--seed 1( |$)" "$work/out-slurm/slurm/grade_one.sh" || fail "the tasks do not get the course seed"
PATH="$work/bin:$PATH" grade_all "$work/roster" --out "$work/out-slurm" --slurm --sbatch-option=--mem=3G 2>>"$work/slurm.log"
[ "$(grep -c -- "^--mem" "$work/sbatch.args")" = 1 ] && grep -qx -- "--mem=3G" "$work/sbatch.args" ||
  { cat "$work/sbatch.args"; fail "the instructor's --mem was not the only one"; }

echo "== bad input"
printf 'name,path\nfrank,roster/alice\n' >"$work/bad.csv"
out=$(grade_all "$work/bad.csv" --out "$work/out-bad" 2>&1) && fail "a roster without a student column was accepted"
grep -q "bad.csv:1: the header needs a \`student\`" <<<"$out" || fail "unclear error: $out"
printf 'student,submission\ngina,roster/nobody\n' >"$work/missing.csv"
out=$(grade_all "$work/missing.csv" --out "$work/out-bad" 2>&1) && fail "a missing submission was accepted"
grep -q "missing.csv:2: submission roster/nobody does not exist" <<<"$out" || fail "unclear error: $out"
out=$(grade_all "$work/roster" --out "$work/out-bad" --deadline 2026-12-01T23:59 2>&1) && fail "a deadline without a zone was accepted"
grep -q -- "--deadline 2026-12-01T23:59: not an ISO 8601 time with a zone" <<<"$out" || fail "unclear error: $out"
mkdir -p "$work/precious" && echo keep >"$work/precious/notes.txt"
out=$(grade_all "$work/roster" --out "$work/precious" 2>&1) && fail "grade-all wrote into a folder that is not its own"
[ "$(cat "$work/precious/notes.txt")" = keep ] || fail "a file of the output folder was touched"
echo "grade-all: a class graded, resumed, and bad rosters refused"
