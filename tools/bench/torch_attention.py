"""PyTorch's CPU attention (matmul, softmax, matmul) for `lab bench attention`.

usage: torch_attention.py N D THREADS REPEATS  ->  prints the best time in seconds
"""
import sys
import time

import torch


def main() -> None:
    n, d, threads, repeats = (int(arg) for arg in sys.argv[1:5])
    torch.set_num_threads(threads)
    generator = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(1, 1, n, d, generator=generator) for _ in range(3))
    scale = d ** -0.5
    best = float("inf")
    with torch.no_grad():
        for _ in range(repeats + 1):  # the first run warms up allocator and threads
            start = time.perf_counter()
            weights = torch.softmax(torch.matmul(q, k.transpose(-2, -1)) * scale, dim=-1)
            torch.matmul(weights, v)
            best = min(best, time.perf_counter() - start)
    print(f"{best:.9f}")


if __name__ == "__main__":
    main()
