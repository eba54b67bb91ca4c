#!/usr/bin/env bash
# `rooflab grade-all` on a small class (a01 only, seed 1), run for real:
#   - a roster folder: alice/ and bob.zip (the example submission: its known
#     a01 score), carol/ (an empty folder) and dave.zip (not a zip): one bad
#     submission never stops the rest, and each gets a report;
#   - gradebook.csv (student × assignment × group), summary.md, histogram.csv;
#   - rerun: nothing is regraded; a changed submission alone is, and its
#     earlier report is kept;
#   - a CSV roster with a relative path and a git URL; bad rosters and output folders are
#     errors that name the file, the line or the column.
# usage: grade_all_test.sh ROOFLAB SOURCE_DIR WORK_DIR
set -uo pipefail

rooflab=$1 source_dir=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work/roster" || fail "cannot create $work"
partial="$source_dir/examples/submissions/partial"
cp -r "$partial" "$work/roster/alice"
(cd "$partial" && zip -qr "$work/roster/bob.zip" .) || fail "zip"
mkdir "$work/roster/carol"
echo "not a zip" >"$work/roster/dave.zip"
expected=$(python3 -c "import json; print(json.load(open('$source_dir/examples/submissions/expected_scores.json'))['partial']['assignments']['a01_roofline'])")

grade_all() { "$rooflab" grade-all "$@" --assignment a01_roofline --seed 1 -j 2; }

echo "== first grading"
grade_all "$work/roster" --out "$work/out" 2>"$work/first.log" || { cat "$work/first.log"; fail "grade-all failed"; }
cat "$work/first.log"
for student in alice bob carol dave; do
  [ -s "$work/out/$student/report/results.json" ] || fail "$student has no report"
done
grep -q "\[4/4\]" "$work/first.log" || fail "no progress lines"
python3 - "$work/out/gradebook.csv" "$expected" <<'PY' || fail "gradebook.csv"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
expected = float(sys.argv[2])
total = {row["student"]: float(row["score"]) for row in rows if row["assignment"] == "total"}
assert set(total) == {"alice", "bob", "carol", "dave"}, total
assert abs(total["alice"] - expected) < 1e-3 and abs(total["bob"] - expected) < 1e-3, total
assert total["carol"] == 0 and total["dave"] == 0, total
groups = [row for row in rows if row["student"] == "alice" and row["assignment"] == "a01_roofline"]
assert len(groups) > 3 and abs(sum(float(row["score"]) for row in groups) - expected) < 1e-3, groups
print(f"gradebook: {len(rows)} rows; alice and bob {expected:.2f}, carol and dave 0; {len(groups)} groups each")
PY
grep -q "| 4 | 4 | 0 | 0 |" "$work/out/summary.md" || { cat "$work/out/summary.md"; fail "summary.md"; }
[ -s "$work/out/histogram.csv" ] || fail "no histogram.csv"

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

echo "== bad input"
printf 'name,path\nfrank,roster/alice\n' >"$work/bad.csv"
out=$(grade_all "$work/bad.csv" --out "$work/out-bad" 2>&1) && fail "a roster without a student column was accepted"
grep -q "bad.csv:1: the header needs a \`student\`" <<<"$out" || fail "unclear error: $out"
printf 'student,submission\ngina,roster/nobody\n' >"$work/missing.csv"
out=$(grade_all "$work/missing.csv" --out "$work/out-bad" 2>&1) && fail "a missing submission was accepted"
grep -q "missing.csv:2: submission roster/nobody does not exist" <<<"$out" || fail "unclear error: $out"
mkdir -p "$work/precious" && echo keep >"$work/precious/notes.txt"
out=$(grade_all "$work/roster" --out "$work/precious" 2>&1) && fail "grade-all wrote into a folder that is not its own"
[ "$(cat "$work/precious/notes.txt")" = keep ] || fail "a file of the output folder was touched"
echo "grade-all: a class graded, resumed, and bad rosters refused"
