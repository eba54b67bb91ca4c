# shellcheck shell=bash
# What the Gradescope container allows, for run_autograder (sourced, bash).
# Gradescope runs each submission in a container whose CPU and memory are
# capped by cgroups (by default half a CPU and 768 MB), on a host with many
# more cores: nproc counts the host's, the cgroup says what we may use.
# ROOFLAB_CGROUP_ROOT (default /sys/fs/cgroup) lets a test point these at a
# fake cgroup tree.

# The cgroup v2 folder this process belongs to, under the cgroup root: the
# container's own where Gradescope gives it a cgroup namespace ("0::/").
_rooflab_cgroup2_dir() {
  local root=$1 path
  path=$(sed -n 's/^0::\(.*\)$/\1/p' /proc/self/cgroup 2>/dev/null | head -n 1)
  if [ -n "$path" ] && [ -d "$root$path" ]; then echo "$root$path"; else echo "$root"; fi
}

# cpu_jobs: parallel grading jobs, the CPU quota rounded down (half a CPU is
# 1), never more than the cores there are, at least 1. Without a quota: nproc.
cpu_jobs() {
  local root=${ROOFLAB_CGROUP_ROOT:-/sys/fs/cgroup} cores quota="" period="" dir best=""
  cores=$(nproc 2>/dev/null || echo 1)
  # cgroup v2: "QUOTA PERIOD" or "max PERIOD" in cpu.max, on this cgroup and
  # every one above it; the smallest quota rules.
  dir=$(_rooflab_cgroup2_dir "$root")
  while :; do
    if [ -r "$dir/cpu.max" ] && read -r quota period <"$dir/cpu.max" && [[ "$quota" =~ ^[0-9]+$ ]] &&
      [[ "$period" =~ ^[1-9][0-9]*$ ]]; then
      local jobs=$((quota / period))
      if [ -z "$best" ] || [ "$jobs" -lt "$best" ]; then best=$jobs; fi
    fi
    [ "$dir" = "$root" ] || [ "$dir" = / ] && break
    dir=$(dirname "$dir")
  done
  # cgroup v1: cpu.cfs_quota_us (-1: none) over cpu.cfs_period_us.
  if [ -z "$best" ]; then
    for dir in "$root/cpu" "$root/cpu,cpuacct" "$root/cpuacct,cpu"; do
      if [ ! -r "$dir/cpu.cfs_quota_us" ] || [ ! -r "$dir/cpu.cfs_period_us" ]; then continue; fi
      quota=$(cat "$dir/cpu.cfs_quota_us") period=$(cat "$dir/cpu.cfs_period_us")
      if [[ "$quota" =~ ^[0-9]+$ ]] && [[ "$period" =~ ^[1-9][0-9]*$ ]]; then
        best=$((quota / period))
        break
      fi
    done
  fi
  [ -n "$best" ] && [ "$best" -lt "$cores" ] && cores=$best
  [ "$cores" -ge 1 ] 2>/dev/null || cores=1
  echo "$cores"
}

# oom_kills: how many processes the kernel has killed for the container's
# memory limit so far, or nothing where no cgroup file says. v2's
# memory.events.local counts only kills at the container's own limit (the
# grader's per-test cgroups below it stop student code on purpose).
oom_kills() {
  local root=${ROOFLAB_CGROUP_ROOT:-/sys/fs/cgroup} dir file
  dir=$(_rooflab_cgroup2_dir "$root")
  for file in "$dir/memory.events.local" "$dir/memory.events" "$root/memory/memory.oom_control"; do
    if [ -r "$file" ]; then
      awk '$1 == "oom_kill" {print $2; found = 1} END {exit !found}' "$file" 2>/dev/null && return 0
    fi
  done
  return 0
}

# why_no_results STATUS ELAPSED_S BUDGET_S OOM_BEFORE OOM_AFTER: the sentence
# results.json gives when grading wrote none. timeout(1) exits 124 when its
# TERM ended grading; 137 is a SIGKILL, its own (--kill-after, past the
# budget) or the kernel's for memory (a counter that grew, or a kill before
# the budget ran out).
why_no_results() {
  local status=$1 elapsed=$2 budget=$3 before=${4:-} after=${5:-}
  local timed_out="Grading did not finish within $budget s. Look for a test that never ends, or ask your instructor."
  local out_of_memory="Grading was stopped by the kernel after $elapsed s, most likely because the autograder ran out of memory. Ask your instructor to raise the assignment's memory in Gradescope's autograder settings."
  if [ "$status" -eq 124 ]; then
    echo "$timed_out"
  elif [ "$status" -eq 137 ]; then
    if [ -n "$before" ] && [ -n "$after" ] && [ "$after" -gt "$before" ]; then
      echo "$out_of_memory"
    elif [ "$elapsed" -ge "$budget" ]; then
      echo "$timed_out"
    else
      echo "$out_of_memory"
    fi
  else
    echo "Grading stopped before it could write results (exit status $status). Please tell your instructor."
  fi
}
