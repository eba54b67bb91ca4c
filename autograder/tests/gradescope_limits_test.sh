#!/usr/bin/env bash
# The Gradescope container as setup.sh and run_autograder see it, without
# building anything: -j from fake cgroup trees (v2 cpu.max, v1 cfs quota,
# none), the out-of-memory counter, the sentence results.json gives when
# grading wrote none (a timeout, a SIGKILL before the budget ran out: memory,
# any other failure), and setup.sh's packages with a fake apt that lacks one.
# A fake `rooflab` stands in for the grader.
# usage: gradescope_limits_test.sh SOURCE_DIR WORK_DIR
set -uo pipefail
source_dir=$1 work=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
# shellcheck source=../gradescope/limits.sh
source "$source_dir/autograder/gradescope/limits.sh"
cores=$(nproc)
expect() {  # WHAT ACTUAL EXPECTED
  [ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"
}
jobs_with() {  # ROOT: cpu_jobs with that fake cgroup root
  ROOFLAB_CGROUP_ROOT=$1 cpu_jobs
}

echo "== -j from the CPU quota"
mkdir -p "$work/v2-half" "$work/v2-four" "$work/v2-none" "$work/v2-junk" "$work/empty"
echo "50000 100000" >"$work/v2-half/cpu.max"
echo "400000 100000" >"$work/v2-four/cpu.max"
echo "max 100000" >"$work/v2-none/cpu.max"
echo "lots" >"$work/v2-junk/cpu.max"
expect "v2, half a CPU (Gradescope's default)" "$(jobs_with "$work/v2-half")" 1
expect "v2, four CPUs" "$(jobs_with "$work/v2-four")" "$((cores < 4 ? cores : 4))"
expect "v2, no quota" "$(jobs_with "$work/v2-none")" "$cores"
expect "v2, unreadable quota" "$(jobs_with "$work/v2-junk")" "$cores"
expect "no cgroup files" "$(jobs_with "$work/empty")" "$cores"
mkdir -p "$work/v1-one/cpu,cpuacct" "$work/v1-none/cpu"
echo 150000 >"$work/v1-one/cpu,cpuacct/cpu.cfs_quota_us"
echo 100000 >"$work/v1-one/cpu,cpuacct/cpu.cfs_period_us"
echo -1 >"$work/v1-none/cpu/cpu.cfs_quota_us"
echo 100000 >"$work/v1-none/cpu/cpu.cfs_period_us"
expect "v1, one and a half CPUs" "$(jobs_with "$work/v1-one")" 1
expect "v1, no quota" "$(jobs_with "$work/v1-none")" "$cores"

echo "== the out-of-memory counter"
mkdir -p "$work/oom"
printf 'low 0\nhigh 0\nmax 4\noom 2\noom_kill 3\n' >"$work/oom/memory.events.local"
expect "memory.events.local" "$(ROOFLAB_CGROUP_ROOT="$work/oom" oom_kills)" 3
expect "no counter" "$(ROOFLAB_CGROUP_ROOT="$work/empty" oom_kills)" ""

echo "== why there are no results"
why_no_results 124 540 540 | grep -q "did not finish within 540 s" || fail "124 is the timeout"
why_no_results 137 560 540 | grep -q "did not finish within 540 s" || fail "137 past the budget is the timeout"
why_no_results 137 12 540 | grep -q "ran out of memory" || fail "137 before the budget is memory"
why_no_results 137 560 540 0 1 | grep -q "ran out of memory" || fail "a grown oom_kill counter is memory"
why_no_results 2 3 540 | grep -q "exit status 2" || fail "another status is named"

echo "== setup.sh's packages: what apt has, the rest named"
# Fake dpkg-query (git installed), apt-cache (no libtomlplusplus-dev) and apt-get (logs).
fake="$work/fake-apt"
mkdir -p "$fake"
cat >"$fake/dpkg-query" <<'FAKE'
#!/usr/bin/env bash
[ "${!#}" = git ] && printf 'install ok installed'
exit 0
FAKE
cat >"$fake/apt-cache" <<'FAKE'
#!/usr/bin/env bash
[ "$2" != libtomlplusplus-dev ]
FAKE
cat >"$fake/apt-get" <<FAKE
#!/usr/bin/env bash
echo "apt-get \$*" >>"$fake/apt.log"
FAKE
chmod +x "$fake/dpkg-query" "$fake/apt-cache" "$fake/apt-get"
# shellcheck source=../gradescope/apt.sh
source "$source_dir/autograder/gradescope/apt.sh"
said=$(PATH="$fake:$PATH" install_available git cmake libtomlplusplus-dev zip) || fail "install_available failed"
grep -q "libtomlplusplus-dev is not in this image's apt sources" <<<"$said" || fail "the missing package is not named: $said"
grep -q -- "install -y --no-install-recommends cmake zip$" "$fake/apt.log" ||
  fail "apt-get should install exactly cmake and zip: $(cat "$fake/apt.log")"
: >"$fake/apt.log"
PATH="$fake:$PATH" install_available git >/dev/null || fail "install_available failed"
[ ! -s "$fake/apt.log" ] || fail "apt ran with nothing to install: $(cat "$fake/apt.log")"

echo "== run_autograder with a fake grader"
run() {  # NAME GRADER_SCRIPT [ENV...]: runs run_autograder, prints results.json
  local root="$work/$1/autograder"
  mkdir -p "$root/source/build/solution" "$root/source/autograder/gradescope" "$root/submission"
  cp "$source_dir/autograder/gradescope/limits.sh" "$root/source/autograder/gradescope/"
  sed -e 's/@ASSIGNMENT@/a01_roofline/' -e 's/@BUDGET_S@/540/' "$source_dir/autograder/gradescope/run_autograder" \
    >"$root/run_autograder"
  printf '#!/usr/bin/env bash\n%s\n' "$2" >"$root/source/build/solution/rooflab"
  chmod +x "$root/run_autograder" "$root/source/build/solution/rooflab"
  shift 2
  env AUTOGRADER_ROOT="$root" "$@" "$root/run_autograder" >"$work/run.log" 2>&1 || fail "run_autograder failed: $(cat "$work/run.log")"
  python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["output"])' "$root/results/results.json" ||
    fail "results.json is not JSON: $(cat "$root/results/results.json")"
}
# The grader's flags: -j from the quota; results.json copied as written.
grader='out=""; while [ $# -gt 0 ]; do case $1 in --out) out=$2; shift;; -j) jobs=$2; shift;; esac; shift; done
mkdir -p "$out"; printf "{\"score\": 1, \"output\": \"-j %s\", \"tests\": []}" "$jobs" >"$out/results.json"'
output=$(run quota "$grader" ROOFLAB_CGROUP_ROOT="$work/v2-half") || exit 1
expect "run_autograder's -j under half a CPU" "$output" "-j 1"
output=$(run killed 'kill -9 $$') || exit 1
grep -q "ran out of memory" <<<"$output" || fail "a SIGKILL before the budget: $output"
output=$(run slow 'sleep 30' ROOFLAB_GRADESCOPE_BUDGET_S=1) || exit 1
grep -q "did not finish within 1 s" <<<"$output" || fail "a timeout: $output"
# The grader, stopped by the time limit's SIGTERM, cleans up and writes a
# report without a score: the timeout's sentence is what students read.
stopped='out=""; while [ $# -gt 0 ]; do case $1 in --out) out=$2; shift;; esac; shift; done
on_term() { kill $! 2>/dev/null; mkdir -p "$out"; echo "{\"score\": 0, \"output\": \"stopped by SIGTERM\", \"tests\": []}" >"$out/results.json"; exit 2; }
trap on_term TERM; sleep 30 & wait'
output=$(run stopped "$stopped" ROOFLAB_GRADESCOPE_BUDGET_S=1) || exit 1
grep -q "did not finish within 1 s" <<<"$output" || fail "a grader stopped by the time limit: $output"
output=$(run broken 'exit 3') || exit 1
grep -q "exit status 3" <<<"$output" || fail "a failure: $output"
echo "Gradescope limits: -j from the quota, memory told from time"
