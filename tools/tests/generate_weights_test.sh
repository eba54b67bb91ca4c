#!/usr/bin/env bash
# `rooflab generate --weights DIR --prompt TEXT` as a person types it: the
# small checkpoint's greedy continuation printed as text, equal to the one
# transformers wrote into its reference.json; sampling with a seed twice the
# same; speculative decoding with the draft checkpoint giving plain greedy
# decoding's output; with --compare (where transformers is installed), transformers' own
# continuation the same token for token; a bad checkpoint folder or flag
# named, with a non-zero exit.
# usage: generate_weights_test.sh ROOFLAB CHECKPOINTS_DIR SCRATCH_DIR
set -uo pipefail
rooflab=$1 checkpoints=$2 scratch=$3
rm -rf "$scratch" && mkdir -p "$scratch"
failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }

# The continuation as `generate` prints it: from "continuation (N tokens): "
# to the blank line before the table.
continuation() { python3 -c '
import sys
text = sys.stdin.read()
start = text.index("continuation (")
start = text.index("): ", start) + 3
print(text[start:text.index("\n\n| measure", start)], end="")'; }

for name in tiny-gpt2 tiny-gpt2-fp16; do
  folder=$checkpoints/$name
  expected=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["prompts"][0]["greedy_text"], end="")' \
    "$folder/reference.json")
  prompt=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["prompts"][0]["text"], end="")' \
    "$folder/reference.json")
  out=$("$rooflab" generate --weights "$folder" --prompt "$prompt" --tokens 24 2>"$scratch/err") ||
    fail "$name: generate exited $?: $(cat "$scratch/err")"
  got=$(continuation <<<"$out")
  [ "$got" = "$expected" ] || fail "$name: continuation '$got', transformers' '$expected'"
  grep -q "achieved / bound" <<<"$out" || fail "$name: no bound in the table: $out"
done
grep -q "F16 weights in the file" <<<"$out" || fail "the fp16 checkpoint's dtype is not named: $out"
# Kept 16-bit in memory, its bound counts two bytes a weight; --fp32-weights widens it.
grep -q "fp16 in memory" <<<"$out" && grep -q "bytes read per step: fp16 weights" <<<"$out" ||
  fail "the fp16 checkpoint is not held, nor bounded, as fp16: $out"
bytes() { sed -n 's/.*bytes read per step[^|]*| \([0-9.]*\) MB.*/\1/p'; }
half=$(bytes <<<"$out")
out=$("$rooflab" generate --weights "$checkpoints/tiny-gpt2-fp16" --prompt "$prompt" --tokens 24 --fp32-weights \
  2>"$scratch/err") || fail "--fp32-weights exited $?: $(cat "$scratch/err")"
[ "$(continuation <<<"$out")" = "$expected" ] || fail "--fp32-weights changed the continuation"
full=$(bytes <<<"$out")
python3 -c 'import sys; h, f = map(float, sys.argv[1:]); sys.exit(0 if 0.5 < h / f < 0.6 else 1)' "$half" "$full" ||
  fail "fp16 in memory reads $half MB a step, fp32 $full MB: not about half"

sample() { "$rooflab" generate --weights "$checkpoints/tiny-gpt2" --prompt "The cache" --tokens 20 \
  --temperature 0.9 --top-k 20 --top-p 0.95 --seed "$1" 2>/dev/null | continuation; }
[ "$(sample 7)" = "$(sample 7)" ] || fail "one seed gave two continuations"

# Speculative decoding with the draft: greedy, exactly plain greedy decoding's output.
out=$("$rooflab" generate --weights "$checkpoints/tiny-gpt2" --draft "$checkpoints/tiny-gpt2-draft" --speculate 3 \
  --prompt "The roofline has" --tokens 30 --repeats 1 2>&1) || fail "--draft exited $?: $out"
grep -q "speculative greedy output: plain greedy decoding's, token for token" <<<"$out" || fail "--draft: $out"
grep -q "speed-up, a02's prediction" <<<"$out" || fail "--draft: no prediction: $out"
out=$("$rooflab" generate --weights "$checkpoints/tiny-gpt2" --speculate 3 --prompt "x" 2>&1) &&
  fail "--speculate without --draft ran"
grep -q -- "--speculate requires --draft" <<<"$out" || fail "--speculate without --draft: $out"

# A folder that is not a checkpoint, a broken config, a flag without --weights.
mkdir -p "$scratch/broken"
cp "$checkpoints/tiny-gpt2/"* "$scratch/broken/"
python3 -c 'import json, sys; c = json.load(open(sys.argv[1])); c["n_embd"] = 96; json.dump(c, open(sys.argv[1], "w"))' \
  "$scratch/broken/config.json"
out=$("$rooflab" generate --weights "$scratch/broken" --prompt "x" 2>&1) && fail "a broken checkpoint decoded"
grep -q "broken/model.safetensors: tensor \"transformer.wte.weight\" has shape \[512, 64\] but config.json implies \[512, 96\]" <<<"$out" ||
  fail "the broken checkpoint's error: $out"
out=$("$rooflab" generate --prompt "x" 2>&1) && fail "--prompt without --weights ran"
grep -q -- "--prompt requires --weights" <<<"$out" || fail "--prompt without --weights: $out"
out=$("$rooflab" generate --weights "$checkpoints/tiny-gpt2" --prompt "x" --top-p 2 2>&1) && fail "--top-p 2 ran"
grep -q "top_p: must be in (0, 1]" <<<"$out" || fail "--top-p 2: $out"
out=$("$rooflab" generate --weights "$checkpoints/tiny-gpt2" 2>&1) && fail "--weights without --prompt ran"
grep -q -- "--prompt" <<<"$out" || fail "--weights without --prompt: $out"

out=$("$rooflab" generate --weights "$checkpoints/tiny-gpt2" --prompt "x" --compare --temperature 1 2>&1) &&
  fail "--compare with sampling ran"
grep -q "checks greedy decoding token for token" <<<"$out" || fail "--compare --temperature: $out"

# transformers' own continuation of the same folder, where a python has it
# (./lab peers); torch's temporary files in this test's own folder.
mkdir -p "$scratch/tmp"
out=$(TMPDIR=$scratch/tmp "$rooflab" generate --weights "$checkpoints/tiny-gpt2-fp16" --prompt "The cache grows" \
  --tokens 16 --compare --repeats 1 2>/dev/null)
if grep -q "^Hugging Face: " <<<"$out"; then
  echo "skipped --compare's agreement: $(grep "^Hugging Face: " <<<"$out")"
else
  grep -q "the same 16 tokens, token for token" <<<"$out" || fail "--compare: $out"
fi

rm -rf "$scratch"
[ $failed = 0 ] && echo "generate --weights: transformers' greedy text, seeded sampling, errors named"
exit $failed
