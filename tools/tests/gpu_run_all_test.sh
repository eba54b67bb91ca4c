#!/usr/bin/env bash
# tools/gpu/run_all.sh where no GPU is: it says so and exits 2 before it
# builds anything, names a bad flag, and `lab bench attention --gpu-results`
# prints the ladder's table, with both targets' ratios, from a run it recorded.
# On a machine with a GPU the script would run for minutes: skipped there.
# usage: gpu_run_all_test.sh ROOFLAB SOURCE_DIR WORK_DIR
set -uo pipefail
rooflab=$1 source_dir=$2 work=$3
script=$source_dir/tools/gpu/run_all.sh
fail() { echo "FAIL: $*" >&2; exit 1; }
if command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q "^GPU "; then
  echo "skipped: this machine has a GPU, where run_all.sh measures for minutes"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"

out=$("$script" --out "$work/run" 2>&1)
status=$?
[ $status = 2 ] || fail "run_all.sh without a GPU exited $status, not 2: $out"
grep -q "no GPU here" <<<"$out" || fail "run_all.sh without a GPU does not say so: $out"
[ "$(cat "$work/run/steps.csv")" = "step,status,seconds" ] || fail "run_all.sh ran steps without a GPU: $(cat "$work/run/steps.csv")"
out=$("$script" --budget-s soon 2>&1) && fail "run_all.sh took --budget-s soon"
grep -q -- "--budget-s, --max-n and --runs take whole numbers" <<<"$out" || fail "unclear refusal: $out"
out=$("$script" --fast 2>&1) && fail "run_all.sh took --fast"
grep -q "unknown argument --fast" <<<"$out" || fail "unclear refusal: $out"
"$script" --help | grep -q "^usage: tools/gpu/run_all.sh" || fail "--help prints no usage"

# A recorded run's CSV, as run_all.sh writes it (two points, PyTorch at one).
cat >"$work/attention_gpu.csv" <<'CSV'
kernel,n,d,causal,median_ms,tflops
standard,1024,64,0,0.1000,5.00
flash,1024,64,0,0.0400,12.50
tensor_core,1024,64,0,0.0100,50.00
torch_flash,1024,64,0,0.0050,100.00
standard,2048,64,0,0.4000,5.00
flash,2048,64,0,0.1000,20.00
tensor_core,2048,64,0,0.0400,50.00
CSV
out=$("$rooflab" bench attention --gpu-results "$work/attention_gpu.csv" 2>&1) || fail "--gpu-results failed: $out"
grep -qF "| 1024 | 64 | no | 5.0 | 12.5 | 50.0 | 100.0 | — | 2.50 | 0.50 |" <<<"$out" || fail "--gpu-results: row 1024: $out"
grep -qF "| 2048 | 64 | no | 5.0 | 20.0 | 50.0 | — | — | 4.00 | — |" <<<"$out" || fail "--gpu-results: row 2048: $out"
grep -qF "geometric mean over 1 points: 0.50" <<<"$out" || fail "--gpu-results: no geometric mean: $out"
# With the ladder's mma.sync rung, in fp16 and bf16: its columns, and the
# target's ratio taken from it, both dtypes in the geometric mean.
cat >"$work/ladder_gpu.csv" <<'CSV'
kernel,n,d,causal,median_ms,tflops
standard,1024,64,0,0.1000,5.00
flash,1024,64,0,0.0400,12.50
tensor_core,1024,64,0,0.0100,50.00
mma_sync,1024,64,0,0.0100,80.00
mma_sync_bf16,1024,64,0,0.0100,90.00
torch_flash,1024,64,0,0.0050,100.00
torch_flash_bf16,1024,64,0,0.0050,100.00
CSV
out=$("$rooflab" bench attention --gpu-results "$work/ladder_gpu.csv" 2>&1) || fail "--gpu-results failed: $out"
grep -qF "| standard | flash | tensor_core | mma_sync | mma_sync bf16 | PyTorch flash | PyTorch cuDNN | PyTorch flash bf16 | flash / standard | mma_sync / PyTorch flash | mma_sync bf16 / PyTorch flash bf16 |" <<<"$out" ||
  fail "--gpu-results: the ladder's header: $out"
grep -qF "| 1024 | 64 | no | 5.0 | 12.5 | 50.0 | 80.0 | 90.0 | 100.0 | — | 100.0 | 2.50 | 0.80 | 0.90 |" <<<"$out" ||
  fail "--gpu-results: the ladder's row: $out"
grep -qF "mma_sync / PyTorch flash (fp16 and bf16), geometric mean over 2 points: 0.85" <<<"$out" ||
  fail "--gpu-results: the ladder's geometric mean: $out"
out=$("$rooflab" bench attention --gpu-results "$work/missing.csv" 2>&1) && fail "--gpu-results took a missing file"
grep -q "missing.csv" <<<"$out" || fail "--gpu-results: the error does not name the file: $out"

# Step 8's check of a grading on the GPU: every point, and a cross-check that agreed.
check=$source_dir/tools/gpu/check_grading.py
cat >"$work/agreed.json" <<'JSON'
{"score": 115, "output": "Note (a05_cuda_attention): GPU cross-check: the tests ran again on this machine's GPU: 54 agreed with the CPU runtime, 6 ran in the runtime only (its counters). The score is the CPU runtime's, the same on every machine.\n",
 "tests": [{"name": "a05_cuda_attention: A.B", "status": "passed", "score": 5, "max_score": 5, "output": ""},
           {"name": "a05_cuda_attention: leaderboard", "score": 0, "max_score": 0, "output": "1.0"}]}
JSON
out=$(python3 "$check" "$work/agreed.json" 2>&1) || fail "check_grading.py refused an agreeing grading: $out"
grep -q "^score 115" <<<"$out" || fail "check_grading.py prints no score: $out"
sed 's/"output": ""}/"output": "[GPU cross-check: on this machine'"'"'s GPU this test failed: wrong]"}/' "$work/agreed.json" >"$work/disagreed.json"
out=$(python3 "$check" "$work/disagreed.json" 2>&1) && fail "check_grading.py took a test the GPU failed"
grep -q "A.B: the GPU disagreed" <<<"$out" || fail "check_grading.py does not name the test: $out"
sed 's/GPU cross-check: the tests ran again/no cross-check/' "$work/agreed.json" >"$work/unchecked.json"
out=$(python3 "$check" "$work/unchecked.json" 2>&1) && fail "check_grading.py took a grading without a cross-check"
grep -q "no GPU cross-check ran" <<<"$out" || fail "check_grading.py: unclear: $out"
rm -rf "$work"
echo "run_all.sh: refuses without a GPU and names bad flags; --gpu-results prints the recorded ladder; step 8's check"
