#!/usr/bin/env bash
# The registers per thread the GPU model takes for a05's reference kernels and
# the ladder's earlier rungs (kReferenceRegistersSm90 in
# solutions/a05_cuda_attention/profile/kernel_counts.hpp, kLadderRegistersSm90
# in solutions/a05_cuda_attention/literate/gpu_model_calibration.hpp) are
# what nvcc gives them for sm_90 (`--resource-usage`). Skips (77) without nvcc.
# usage: reference_registers_test.sh SOURCE_DIR
set -uo pipefail
root=$1
nvcc=$(command -v nvcc || true)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
[ -n "$nvcc" ] || { echo "SKIPPED: no nvcc on this machine"; exit 77; }
lab=$root/solutions/a05_cuda_attention
# nvcc's ptxas lines, per file: "<mangled kernel> <registers>".
usage=""
for file in "$lab"/src/*.cu "$lab"/literate/ladder/*.cu; do
  out=$("$nvcc" -arch=sm_90 -cubin --resource-usage -o /dev/null -I "$lab/include" -I "$lab/literate" \
    -I "$root/common/include" "$file" 2>&1) || { echo "$out"; echo "FAIL: nvcc could not compile $file"; exit 1; }
  usage+=$(awk '/Compiling entry function/ {match($0, /'"'"'[^'"'"']*'"'"'/); name = substr($0, RSTART + 1, RLENGTH - 2)}
                /Used [0-9]+ registers/ {match($0, /Used [0-9]+/); print name, substr($0, RSTART + 5, RLENGTH - 5)}' <<<"$out")
  usage+=$'\n'
done
# The tables' entries: {"kernel", head_dim, registers}.
entries=$(grep -hoE '\{"[a-z_]+", [0-9]+, [0-9]+\}' "$lab/profile/kernel_counts.hpp" "$lab/literate/gpu_model_calibration.hpp" |
  tr -d '{}",' )
[ "$(wc -l <<<"$entries")" -ge 8 ] || { echo "FAIL: the register tables were not found: $entries"; exit 1; }
failed=0
while read -r kernel head_dim registers; do
  # Mangled names hold the kernel's name after its length (13flash_forward),
  # and a template's d as ILi64E, after any type argument (I6__halfLi64E):
  # every instance of one d must agree.
  pattern="${#kernel}${kernel}"
  [ "$head_dim" != 0 ] && pattern+="I[A-Za-z0-9_]*Li${head_dim}E"
  found=$(grep -E -- "$pattern" <<<"$usage" | grep -v -F -- "${#kernel}${kernel}_" | awk '{print $2}' | sort -u)
  if [ "$found" = "$registers" ]; then
    echo "ok: $kernel (d = $head_dim): $registers registers"
  else
    echo "FAIL: $kernel (d = $head_dim): the table says $registers registers, nvcc ${found:-compiles no such kernel}"
    failed=1
  fi
done <<<"$entries"
exit $failed
