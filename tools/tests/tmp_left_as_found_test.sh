#!/usr/bin/env bash
# A grading leaves the temp directory as it found it: everything it writes
# there (its scratch space, its builds, the sandboxes' logs) is gone when it
# ends. Its TMPDIR, a folder of this test's own, must be empty afterwards;
# where this test may make a mount namespace (root, with the course outside
# /tmp), a second grading runs with a private, empty /tmp and TMPDIR unset,
# and that /tmp must be empty afterwards too. A grading stopped by SIGTERM
# (a time limit) while it builds leaves nothing behind either, nor one whose
# output's reader went away (SIGPIPE).
# usage: tmp_left_as_found_test.sh ROOFLAB SOURCE_DIR WORK_DIR
set -uo pipefail
rooflab=$1 source_dir=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work/tmp" || fail "cannot create $work"
grade=(grade "$source_dir/examples/submissions/partial" --assignment a02_transformer_costs --no-plots --seed 1)

TMPDIR=$work/tmp "$rooflab" "${grade[@]}" --out "$work/out" >"$work/grade.log" 2>&1 ||
  { tail -n 20 "$work/grade.log"; fail "the grading failed"; }
left=$(ls -A "$work/tmp")
[ -z "$left" ] || fail "the grading left in its TMPDIR: $left"

# Stopped from outside (Gradescope's time limit sends SIGTERM) while it
# builds: its processes end, its cgroups and scratch go, its report says why.
mkdir -p "$work/tmp-stopped"
TMPDIR=$work/tmp-stopped "$rooflab" "${grade[@]}" --out "$work/out-stopped" >"$work/stopped.log" 2>&1 &
grader=$!
for _ in $(seq 600); do  # until its build runs (at most a minute)
  grep -q '^grading ' "$work/stopped.log" && [ -n "$(ls -A "$work/tmp-stopped")" ] && break
  kill -0 "$grader" 2>/dev/null || break
  sleep 0.1
done
sleep 1
kill -TERM "$grader" 2>/dev/null || fail "the grading ended before it could be stopped: $(tail -n 5 "$work/stopped.log")"
wait "$grader" && fail "a stopped grading exited 0"
grep -q 'stopped by SIGTERM' "$work/stopped.log" || { tail -n 20 "$work/stopped.log"; fail "a stopped grading does not say so"; }
grep -q 'stopped by SIGTERM' "$work/out-stopped/report.md" || fail "the stopped grading's report does not say why"
left=$(ls -A "$work/tmp-stopped")
[ -z "$left" ] || fail "the stopped grading left in its TMPDIR: $left"
running=$(pgrep -f -- "$work/tmp-stopped" || true)
[ -z "$running" ] || fail "the stopped grading left processes running: $(ps -o pid=,args= -p "$(echo $running | tr ' ' ,)")"
cgroups=$(ls -d /sys/fs/cgroup/rooflab-grade-"$grader"-* /sys/fs/cgroup/*/rooflab-grade-"$grader"-* 2>/dev/null || true)
[ -z "$cgroups" ] || fail "the stopped grading left its cgroups: $cgroups"
echo "a grading stopped by SIGTERM ended its processes and left no cgroup and nothing in its TMPDIR"

# Its output's reader goes away (`rooflab grade … | head -n 1`): SIGPIPE at
# its next line stops it the same way, and nothing is left behind.
mkdir -p "$work/tmp-piped"
mkfifo "$work/pipe" || fail "cannot make a fifo"
head -n 1 <"$work/pipe" >"$work/piped-head.txt" &
TMPDIR=$work/tmp-piped "$rooflab" "${grade[@]}" --out "$work/out-piped" >"$work/pipe" 2>"$work/piped.err" &
grader=$!
wait "$grader" && fail "a grading whose reader went away exited 0"
grep -q 'stopped by SIGPIPE' "$work/out-piped/report.md" ||
  { cat "$work/piped.err"; fail "the grading whose reader went away does not say why in its report"; }
left=$(ls -A "$work/tmp-piped")
[ -z "$left" ] || fail "the grading whose reader went away left in its TMPDIR: $left"
cgroups=$(ls -d /sys/fs/cgroup/rooflab-grade-"$grader"-* /sys/fs/cgroup/*/rooflab-grade-"$grader"-* 2>/dev/null || true)
[ -z "$cgroups" ] || fail "the grading whose reader went away left its cgroups: $cgroups"
echo "a grading whose reader went away (SIGPIPE) stopped and left no cgroup and nothing in its TMPDIR"

private=no
case "$source_dir/" in /tmp/*) ;; *)
  if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null && unshare --mount true 2>/dev/null; then private=yes; fi ;;
esac
if [ "$private" = yes ]; then
  # shellcheck disable=SC2016
  unshare --mount --propagation private sh -c '
    mount -t tmpfs rooflab-private-tmp /tmp || exit 90
    env -u TMPDIR "$0" "$@" >"'"$work"'/private.log" 2>&1 || exit 91
    ls -A /tmp' "$rooflab" "${grade[@]}" --out "$work/out-private" >"$work/left.txt"
  status=$?
  [ "$status" -ne 90 ] || fail "could not mount a private /tmp"
  [ "$status" -eq 0 ] || { tail -n 20 "$work/private.log"; fail "the grading with a private /tmp failed"; }
  [ ! -s "$work/left.txt" ] || fail "the grading left in /tmp: $(tr '\n' ' ' <"$work/left.txt")"
  echo "a grading left its TMPDIR and a private /tmp as it found them"
else
  echo "a grading left its TMPDIR as it found it (the private /tmp needs root and the course outside /tmp: not checked)"
fi
rm -rf "$work"
