"""PyTorch's CPU attention for `lab bench attention`, every point in one process.

usage: torch_attention.py THREADS REPEATS SPEC...
  SPEC is N:D:CAUSAL:FORM with CAUSAL 0 or 1 and FORM one of
    sdpa     torch.nn.functional.scaled_dot_product_attention (its CPU flash kernel)
    unfused  matmul, softmax, matmul (N x N scores in memory)
prints one line per SPEC: "SPEC SECONDS", the best of REPEATS timed runs after
a warm-up, B = H = 1, fp32, THREADS threads (as rooflab's side of the table).
"""
import sys
import time

import torch
import torch.nn.functional as F


def unfused(q, k, v, causal):
    scores = torch.matmul(q, k.transpose(-2, -1)) * q.shape[-1] ** -0.5
    if causal:
        n = q.shape[-2]
        scores = scores.masked_fill(torch.ones(n, n, dtype=torch.bool).triu(1), float("-inf"))
    return torch.matmul(torch.softmax(scores, dim=-1), v)


def sdpa(q, k, v, causal):
    return F.scaled_dot_product_attention(q, k, v, is_causal=causal)


def best_seconds(spec, repeats):
    n, d, causal, form = spec.split(":")
    n, d, causal = int(n), int(d), causal == "1"
    run = {"sdpa": sdpa, "unfused": unfused}[form]
    generator = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(1, 1, n, d, generator=generator) for _ in range(3))
    best = float("inf")
    with torch.inference_mode():
        for _ in range(repeats + 1):  # the first run warms up the allocator and threads
            start = time.perf_counter()
            run(q, k, v, causal)
            best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    threads, repeats = int(sys.argv[1]), int(sys.argv[2])
    torch.set_num_threads(threads)
    for spec in sys.argv[3:]:
        print(f"{spec} {best_seconds(spec, repeats):.9f}", flush=True)


if __name__ == "__main__":
    main()
