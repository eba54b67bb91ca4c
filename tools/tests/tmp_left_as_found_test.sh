#!/usr/bin/env bash
# A grading leaves the temp directory as it found it: everything it writes
# there (its scratch space, its builds, the sandboxes' logs) is gone when it
# ends. Its TMPDIR, a folder of this test's own, must be empty afterwards;
# where this test may make a mount namespace (root, with the course outside
# /tmp), a second grading runs with a private, empty /tmp and TMPDIR unset,
# and that /tmp must be empty afterwards too.
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
