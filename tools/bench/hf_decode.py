"""Hugging Face's GPT-2 decoding on the CPU, the peer of `lab generate --compare`.

transformers' GPT2LMHeadModel of the given shape (GPT-2 small by default,
as GPT2Config()), random weights, fp32, in eval mode under
torch.inference_mode, decodes greedily through its KV cache exactly as
rooflab's side does: a prompt of PROMPT tokens per sequence (token
(17·t + 5·s) mod vocab at position t of sequence s), then TOKENS steps, each
feeding back every sequence's argmax. Only the TOKENS steps are timed; the
prompt is one forward pass, untimed.

usage: hf_decode.py --threads T --prompt P --tokens N --repeats R [shape] --batches B...
prints "versions torch X transformers Y", then one line per batch,
"batch B SECONDS": the best of R timed runs of the N steps after one warm-up
run, at T threads (torch.set_num_threads, as rooflab's OpenMP threads).
Prints "missing transformers" (exit code 3) when transformers is not
installed.
"""
import argparse
import inspect
import sys
import time
import warnings

import torch

try:
    import transformers
    from transformers import GPT2Config, GPT2LMHeadModel
except ImportError:
    print("missing transformers", flush=True)
    sys.exit(3)


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    for name, default in (("threads", 2), ("prompt", 8), ("tokens", 32), ("repeats", 3), ("layers", 12),
                          ("d-model", 768), ("heads", 12), ("d-ff", 3072), ("vocab", 50257), ("context", 1024)):
        parser.add_argument(f"--{name}", type=int, default=default)
    parser.add_argument("--batches", type=int, nargs="+", default=[1, 8, 32])
    return parser.parse_args()


# transformers 5 names the cache argument and output `cache`, earlier versions `past_key_values`.
CACHE = "cache" if "cache" in inspect.signature(GPT2LMHeadModel.forward).parameters else "past_key_values"


def decode_seconds(model: GPT2LMHeadModel, batch: int, prompt: int, tokens: int) -> float:
    """One run: the prompt (untimed), then `tokens` greedy steps through the cache (timed)."""
    vocab = model.config.vocab_size
    ids = torch.tensor([[(17 * t + 5 * s) % vocab for t in range(prompt)] for s in range(batch)])
    out = model(input_ids=ids, use_cache=True)
    start = time.perf_counter()
    for _ in range(tokens):
        next_tokens = out.logits[:, -1].argmax(dim=-1, keepdim=True)
        out = model(input_ids=next_tokens, use_cache=True, **{CACHE: getattr(out, CACHE)})
    return time.perf_counter() - start


def main() -> None:
    args = arguments()
    warnings.filterwarnings("ignore")
    transformers.logging.set_verbosity_error()
    torch.set_num_threads(args.threads)
    torch.manual_seed(1)
    config = GPT2Config(n_layer=args.layers, n_embd=args.d_model, n_head=args.heads, n_inner=args.d_ff,
                        vocab_size=args.vocab, n_positions=args.context)
    model = GPT2LMHeadModel(config).eval()
    print(f"versions torch {torch.__version__} transformers {transformers.__version__}", flush=True)
    with torch.inference_mode():
        for batch in args.batches:
            decode_seconds(model, batch, args.prompt, args.tokens)  # warm-up: the allocator, threads, first calls
            best = min(decode_seconds(model, batch, args.prompt, args.tokens) for _ in range(args.repeats))
            print(f"batch {batch} {best:.9f}", flush=True)


if __name__ == "__main__":
    main()
