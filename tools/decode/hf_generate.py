"""Hugging Face's greedy continuation of a checkpoint folder, the peer of
`rooflab generate --weights DIR --prompt TEXT --compare`.

transformers' GPT2LMHeadModel.from_pretrained(FOLDER), fp32 (16-bit weights
widened, as rooflab's reader does), eval mode under torch.inference_mode,
decodes the prompt's ids greedily through its KV cache exactly as rooflab's
side does: the prompt in one untimed forward pass, then TOKENS − 1 timed steps,
each feeding back the argmax. The ids come from rooflab's tokenizer, so the
comparison is of the models alone.

usage: hf_generate.py FOLDER --ids 464,2746,... --tokens N --threads T --repeats R
prints "versions torch X transformers Y", "tokens ID ID ..." (the greedy
continuation, N ids) and "seconds S" (the best of R timed runs of the N − 1
steps after one warm-up run). Prints "missing transformers" (exit code 3)
when transformers is not installed.
"""
import argparse
import sys
import time
import warnings

import torch

try:
    import transformers
    from transformers import GPT2LMHeadModel
except ImportError:
    print("missing transformers", flush=True)
    sys.exit(3)


def greedy(model, ids: list, tokens: int) -> tuple:
    """The continuation's ids and the seconds its steps after the prompt took."""
    with torch.inference_mode():
        out = model(input_ids=torch.tensor([ids]), use_cache=True)
        past, logits = out.past_key_values, out.logits[0, -1]
        chosen = [int(torch.argmax(logits))]
        start = time.perf_counter()
        for _ in range(tokens - 1):
            out = model(input_ids=torch.tensor([[chosen[-1]]]), past_key_values=past, use_cache=True)
            past = out.past_key_values
            chosen.append(int(torch.argmax(out.logits[0, -1])))
        return chosen, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("folder")
    parser.add_argument("--ids", required=True)
    for name, default in (("tokens", 32), ("threads", 2), ("repeats", 3)):
        parser.add_argument(f"--{name}", type=int, default=default)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    warnings.filterwarnings("ignore")
    transformers.logging.set_verbosity_error()
    model = GPT2LMHeadModel.from_pretrained(args.folder, dtype=torch.float32).eval()
    ids = [int(i) for i in args.ids.split(",")]
    print(f"versions torch {torch.__version__} transformers {transformers.__version__}", flush=True)
    chosen, _ = greedy(model, ids, args.tokens)  # warm-up
    print("tokens " + " ".join(str(i) for i in chosen), flush=True)
    best = min(greedy(model, ids, args.tokens)[1] for _ in range(args.repeats))
    print(f"seconds {best:.9f}", flush=True)


if __name__ == "__main__":
    main()
