"""PyTorch's scaled_dot_product_attention on the GPU, for `rooflab bench attention --gpu`.

usage: torch_gpu_attention.py N D CAUSAL RUNS BATCH HEADS
prints one CSV row per backend and dtype that runs here: backend,n,d,causal,median_ms,tflops
(torch_flash: FlashAttention-2 inside PyTorch; torch_cudnn: cuDNN's fused attention;
fp16, and bf16 as torch_flash_bf16 and torch_cudnn_bf16), timed with CUDA events
after an L2 flush, the median of up to RUNS runs (as many as fit in 250 ms, at
least three: tools/bench/gpu_timing.cuh times the course's kernels alike).
"""
import statistics
import sys

import torch
from torch.nn.attention import SDPBackend, sdpa_kernel


def median_ms(runs, launch):
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")  # larger than any L2 cache today
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)

    def timed(run):
        flush.fill_(run % 256)
        start.record()
        launch()
        stop.record()
        stop.synchronize()
        return start.elapsed_time(stop)

    first = timed(0)
    if first < 10:
        timed(1), timed(2)
    runs = max(3, min(runs, int(250 / max(first, 1e-3))))
    return statistics.median(timed(run) for run in range(runs))


def main() -> None:
    n, d, causal, runs, batch, heads = (int(arg) for arg in sys.argv[1:7])
    shape = (batch, heads, n, d)
    flops = 4.0 * batch * heads * n * n * d * (0.5 if causal else 1.0)
    for dtype, suffix in ((torch.float16, ""), (torch.bfloat16, "_bf16")):
        q, k, v = (torch.full(shape, 0.01, dtype=dtype, device="cuda") for _ in range(3))
        for name, backend in (("torch_flash", SDPBackend.FLASH_ATTENTION), ("torch_cudnn", SDPBackend.CUDNN_ATTENTION)):
            name += suffix
            try:
                with sdpa_kernel(backend):
                    ms = median_ms(
                        runs, lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=bool(causal))
                    )
            except RuntimeError as error:  # this backend does not run here (GPU, dtype or shape)
                print(f"{name}: not available: {error}".splitlines()[0], file=sys.stderr)
                continue
            print(f"{name},{n},{d},{causal},{ms:.4f},{flops / (ms * 1e-3) / 1e12:.2f}", flush=True)


if __name__ == "__main__":
    main()
