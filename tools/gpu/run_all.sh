#!/usr/bin/env bash
# Everything the course measures on a GPU, in one command, inside a time
# budget (a lent GPU machine gives minutes): run it whenever a GPU is at hand.
#
#   1. the device, driver and toolkit                        -> device.txt
#   2. a build of the reference for this GPU (kernels on it)  -> run.log
#   3. the ladder benchmark: a05's reference kernels, the ladder's earlier
#      rungs and its mma.sync rung (fp16 and bf16) beside PyTorch's flash and
#      cuDNN attention (fp16 and bf16), TFLOP/s per shape, N = 1k-16k
#                                                             -> attention_gpu.csv
#   4. a06's decode kernels (split-KV and merge, contiguous and paged) against
#      the GPU's copy bandwidth, 1k-64k tokens, 1 and 8 sequences -> decode_gpu.csv
#   5. every public and hidden test of a03-a06 on the GPU, and the tensor-core
#      atoms' and 16-bit types' tests (common.gpu.*)         -> run.log
#   6. compute-sanitizer (memcheck, racecheck, synccheck, initcheck) over a05's
#      and a06's public tests (ctest -L gpu)                  -> run.log
#   7. Nsight Compute on the reference kernels at the profile's shape, the
#      counters docs/benchmarks.md compares with the CPU runtime's -> ncu.csv
#   8. the grader on this GPU: the solutions' a05 graded (in the CPU runtime,
#      as everywhere) with the GPU cross-check; every point earned, and the
#      GPU agreeing with the runtime on every test  -> grading/ (its report)
# and a line per step (status, seconds) in steps.csv. Each step has a cap and
# the whole run a budget: a step that would start with too little time left is
# skipped and says so, and what finished is written as it finishes, so a run
# cut short still returns its figures. The most wanted come first.
#
# usage: tools/gpu/run_all.sh [--out DIR] [--budget-s S] [--deps DIR] [--max-n N] [--runs R]
#   --out       where the results go (default: $OUT if set, else build/gpu-run)
#   --budget-s  seconds for the whole run (default 540)
#   --deps      .deb files to unpack where the machine lacks the course's
#               packages (tools/gpu/prepare.sh makes them; default build/gpu-deps)
#   --max-n     the benchmark's longest sequence (default 16384; from 1024, doubling)
#   --runs      timed runs per benchmark point (default 20)
#   --build-only  steps 1 and 2 alone, with or without a GPU: checks, on any
#               machine with nvcc, that the GPU build and the packages work
# Exit: 0 when every step that ran passed, 1 when one failed, 2 without a GPU.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-$root/build/gpu-run}
budget=540 deps=$root/build/gpu-deps max_n=16384 runs=20 build_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=${2:?--out needs a folder}; shift 2 ;;
    --budget-s) budget=${2:?--budget-s needs seconds}; shift 2 ;;
    --deps) deps=${2:?--deps needs a folder}; shift 2 ;;
    --max-n) max_n=${2:?--max-n needs a length}; shift 2 ;;
    --runs) runs=${2:?--runs needs a count}; shift 2 ;;
    --build-only) build_only=1; shift ;;
    -h | --help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "run_all.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ $budget =~ ^[0-9]+$ && $max_n =~ ^[0-9]+$ && $runs =~ ^[0-9]+$ ]] ||
  { echo "run_all.sh: --budget-s, --max-n and --runs take whole numbers" >&2; exit 2; }
build=$root/build/gpu
mkdir -p "$out" || exit 2
log=$out/run.log steps=$out/steps.csv
: >"$log"
echo "step,status,seconds" >"$steps"
started=$SECONDS
failed=0
say() { echo "[run_all $((SECONDS - started))s] $*" | tee -a "$log" >&2; }
seconds_left() { echo $((budget - (SECONDS - started))); }

# step NAME CAP_S NEEDS_S COMMAND...: runs COMMAND (output into run.log) for at
# most CAP_S seconds and what is left of the budget; skipped when less than
# NEEDS_S is left.
step() {
  local name=$1 cap=$2 needs=$3 left status begun=$SECONDS
  shift 3
  left=$(seconds_left)
  if [ "$left" -lt "$needs" ]; then
    say "$name: skipped, ${left}s of the budget left (needs ${needs}s)"
    echo "$name,skipped,0" >>"$steps"
    return 0
  fi
  [ "$cap" -gt "$left" ] && cap=$left
  say "$name: up to ${cap}s"
  { echo "===== $name"; } >>"$log"
  # timeout runs programs, not this script's functions: those run in a bash
  # that receives them (export -f below) with the variables they read.
  timeout --kill-after=10 "$cap" bash -c '"$@"' step "$@" >>"$log" 2>&1
  status=$?
  case $status in
    0) echo "$name,passed,$((SECONDS - begun))" >>"$steps"; say "$name: passed in $((SECONDS - begun))s" ;;
    124 | 137) echo "$name,timed out,$((SECONDS - begun))" >>"$steps"; say "$name: stopped at its ${cap}s"; failed=1 ;;
    *) echo "$name,failed ($status),$((SECONDS - begun))" >>"$steps"; say "$name: failed ($status), see run.log"; failed=1 ;;
  esac
}

# 1. The device.
if [ "$build_only" = 0 ] && { ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L 2>/dev/null | grep -q "^GPU "; }; then
  say "no GPU here (nvidia-smi finds none): nothing to measure; docs/benchmarks.md keeps the figures of the last GPU"
  exit 2
fi
{
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.memory --format=csv ||
    echo "no GPU (--build-only)"
  nvcc --version | tail -n 2
  echo "compiler: $(c++ --version | head -n 1)"
  echo "cpus: $(nproc)"
  python3 -c 'import torch; print("torch:", torch.__version__)' 2>/dev/null || echo "torch: not importable"
  command -v ncu >/dev/null && ncu --version | tail -n 1
  command -v compute-sanitizer >/dev/null && compute-sanitizer --version | tail -n 1
} >"$out/device.txt" 2>&1
sed 's/^/  /' "$out/device.txt" >&2

# 2. The build: the course's packages from --deps where the system lacks them,
# unpacked into the build folder, and the reference with its kernels on this GPU.
prefix=""
if ls "$deps"/*.deb >/dev/null 2>&1; then
  prefix=$build/deps
  mkdir -p "$prefix"
  for deb in "$deps"/*.deb; do dpkg -x "$deb" "$prefix" || { say "cannot unpack $deb"; exit 1; }; done
  export LD_LIBRARY_PATH=$prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  say "unpacked $(ls "$deps"/*.deb | wc -l) packages from $deps into $prefix"
fi
generator=""
command -v ninja >/dev/null && generator=Ninja
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .')
jobs=$(nproc)
configure() {
  local extra=()
  [ -n "$generator" ] && extra+=(-G "$generator")
  [ -n "$prefix" ] && extra+=(-DCMAKE_PREFIX_PATH="$prefix/usr")
  cmake -S "$root" -B "$build" "${extra[@]}" -DCMAKE_BUILD_TYPE=Release -DROOFLAB_COURSE_DIR="$root/solutions" \
    -DROOFLAB_HIDDEN_TESTS=ON -DROOFLAB_BUILD_TOOLS=ON -DROOFLAB_CUDA_KERNELS=gpu -DCMAKE_CUDA_ARCHITECTURES="${arch:-90}"
}
# Read by the steps' functions, which run in a bash of their own (see step).
export root out build max_n runs generator prefix arch
export -f configure
step configure 120 30 configure
# Only what the steps below run: the benchmark, the labs' test programs, a05's
# and a06's profile programs.
targets=(rooflab_gpu_attention_bench rooflab_gpu_decode_bench a05_cuda_attention_profile a06_kv_cache_decode_profile
  common_gpu_tests)
for lab in a03_attention_memory a04_flash_attention a05_cuda_attention a06_kv_cache_decode; do
  targets+=("${lab}_public_tests" "${lab}_hidden_tests")
done
step build 360 60 cmake --build "$build" -j "$jobs" --target "${targets[@]}"
if [ "$build_only" = 1 ]; then
  say "--build-only: done in $((SECONDS - started))s"
  exit $failed
fi

# 3. The ladder benchmark, every point as soon as it is measured.
bench_all() {
  local bench=$build/tools/rooflab_gpu_attention_bench csv=$out/attention_gpu.csv n d causal
  [ -x "$bench" ] || { echo "no $bench: the build failed"; return 1; }
  echo "kernel,n,d,causal,median_ms,tflops" >"$csv"
  for d in 64 128; do
    for causal in 0 1; do
      for ((n = 1024; n <= max_n; n *= 2)); do
        echo "N = $n, d = $d, causal = $causal"
        "$bench" --n "$n" --d "$d" --causal "$causal" --runs "$runs" --batch 1 --heads 16 >>"$csv" || return 1
        python3 "$root/tools/bench/torch_gpu_attention.py" "$n" "$d" "$causal" "$runs" 1 16 >>"$csv" ||
          echo "PyTorch did not run at N = $n, d = $d, causal = $causal"
      done
    done
  done
}
export -f bench_all
step bench_attention 300 30 bench_all

# 4. Decode attention against the copy bandwidth.
decode_all() {
  local bench=$build/tools/rooflab_gpu_decode_bench csv=$out/decode_gpu.csv length sequences
  [ -x "$bench" ] || { echo "no $bench: the build failed"; return 1; }
  echo "layout,length,sequences,median_ms,gb_per_s,copy_gb_per_s" >"$csv"
  for sequences in 1 8; do
    for ((length = 1024; length <= 65536; length *= 2)); do
      "$bench" --length "$length" --sequences "$sequences" --runs "$runs" >>"$csv" || return 1
    done
  done
}
export -f decode_all
step bench_decode 120 20 decode_all

# 5. The labs' tests on the GPU (the seed sweeps left out: the ordinary entries run the hidden tests once), and
#    the tensor-core atoms' and the 16-bit types' tests (common.gpu.*: the CPU runtime's answers, on the GPU).
step tests 240 30 bash -c "cd '$build' && ctest -j '$jobs' --output-on-failure -R '^(a0[3-6]_[a-z_]*[.](public|hidden)[.]|common[.]gpu[.])' -E 'every_seed'"

# 6. compute-sanitizer over a05's and a06's public tests.
step compute_sanitizer 300 60 bash -c "cd '$build' && ctest -j 4 --output-on-failure -L gpu -E '^common[.]gpu[.]'"

# 7. Nsight Compute on the reference kernels at the profile's shape.
ncu_all() {
  local metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
  metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
  metrics+=,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
  metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  metrics+=,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,launch__registers_per_thread
  metrics+=,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,sm__warps_active.avg.pct_of_peak_sustained_active
  command -v ncu >/dev/null || { echo "ncu not found"; return 1; }
  : >"$out/ncu.csv"
  for lab in a05_cuda_attention a06_kv_cache_decode; do
    # The profile program's own exit (it finds no CPU-runtime counters on a
    # GPU) does not matter here: the rows ncu wrote do.
    ncu --csv --clock-control none --cache-control all --metrics "$metrics" \
      "$build/course/$lab/${lab}_profile" >>"$out/ncu.csv" || echo "ncu over ${lab}_profile exited $?"
  done
  grep -q '"ID"' "$out/ncu.csv" || { echo "ncu wrote no rows"; return 1; }
}
export -f ncu_all
step ncu 120 20 ncu_all

# 8. The grader on this GPU: the score is the CPU runtime's, and the GPU's runs
# of the same tests must agree with it (pipeline/gpu_cross_check.hpp).
grade_on_gpu() {
  cmake --build "$build" -j "$jobs" --target rooflab rooflab_grading_kit a05_cuda_attention_verdict \
    a05_cuda_attention_worker || return 1
  "$build/rooflab" grade "$root/solutions" --assignment a05_cuda_attention --no-plots --seed 1 -j "$jobs" \
    --out "$out/grading" --force || return 1
  python3 "$root/tools/gpu/check_grading.py" "$out/grading/results.json"
}
export jobs
export -f grade_on_gpu
step grading 240 90 grade_on_gpu

say "done in $((SECONDS - started))s of ${budget}s: $(grep -c ',passed,' "$steps") steps passed, results in $out"
column -s, -t <"$steps" >&2 2>/dev/null || cat "$steps" >&2
exit $failed
