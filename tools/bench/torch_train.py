"""PyTorch eager running a07's model for `lab bench train`: one training step
(forward, cross-entropy, backward, Adam) of the same attention-only
transformer on the same shapes as rooflab's (a07's ModelConfig and
TrainConfig defaults).

The model, as a07_associative_recall/model.hpp: token and learned position
embeddings, LAYERS layers of causal multi-head attention with a residual
(no MLP, no layer norm, no biases), the last position's hidden state
unembedded, cross-entropy against the answer, torch.optim.Adam at lr 3e-3.
Attention is timed twice: written as a07 writes it (matmul, mask, softmax,
matmul) and as F.scaled_dot_product_attention.

usage: torch_train.py STEPS THREADS  ->  prints "matmul SECONDS" and
"sdpa SECONDS", each the median step after warm-up
"""
import math
import statistics
import sys
import time

import torch
import torch.nn.functional as F

# a07's defaults: 16 keys and 16 values, 8 pairs (17 tokens); d_model 64,
# 2 heads, 2 layers; batch 64; Adam lr 3e-3.
KEYS, VALUES, PAIRS = 16, 16, 8
VOCAB, LENGTH = KEYS + VALUES, 2 * PAIRS + 1
D_MODEL, HEADS, LAYERS = 64, 2, 2
BATCH, LEARNING_RATE = 64, 3e-3
WARM_UP = 5


class AttentionOnly(torch.nn.Module):
    def __init__(self, fused: bool) -> None:
        super().__init__()
        self.fused = fused
        projection = D_MODEL ** -0.5

        def weight(*shape: int, scale: float) -> torch.nn.Parameter:
            return torch.nn.Parameter(torch.randn(*shape) * scale)

        self.token_embedding = weight(VOCAB, D_MODEL, scale=0.2)
        self.position_embedding = weight(LENGTH, D_MODEL, scale=0.2)
        self.projections = torch.nn.ParameterList(
            weight(D_MODEL, D_MODEL, scale=projection) for _ in range(4 * LAYERS))  # wq, wk, wv, wo per layer
        self.unembed = weight(D_MODEL, VOCAB, scale=projection)
        mask = torch.full((LENGTH, LENGTH), -math.inf).triu(1)  # −∞ above the diagonal: later tokens hidden
        self.register_buffer("mask", mask)

    def heads(self, x: torch.Tensor) -> torch.Tensor:  # (B, N, D) -> (B, H, N, d)
        return x.view(x.shape[0], LENGTH, HEADS, D_MODEL // HEADS).transpose(1, 2)

    def attention(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        if self.fused:
            return F.scaled_dot_product_attention(q, k, v, is_causal=True)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]) + self.mask
        return torch.softmax(scores, dim=-1) @ v

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        x = self.token_embedding[tokens] + self.position_embedding
        for layer in range(LAYERS):
            wq, wk, wv, wo = self.projections[4 * layer:4 * layer + 4]
            mixed = self.attention(self.heads(x @ wq), self.heads(x @ wk), self.heads(x @ wv))
            x = x + mixed.transpose(1, 2).reshape(x.shape) @ wo
        return x[:, -1] @ self.unembed  # the answer position's logits, (B, vocab)


def batches(count: int, generator: torch.Generator) -> list[tuple[torch.Tensor, torch.Tensor]]:
    """Recall sequences as a07 makes them: P distinct keys, each followed by a
    value, then one of the keys; the answer is its value."""
    made = []
    for _ in range(count):
        keys = torch.stack([torch.randperm(KEYS, generator=generator)[:PAIRS] for _ in range(BATCH)])
        values = torch.randint(KEYS, VOCAB, (BATCH, PAIRS), generator=generator)
        asked = torch.randint(0, PAIRS, (BATCH, 1), generator=generator)
        tokens = torch.cat([torch.stack([keys, values], dim=2).flatten(1), keys.gather(1, asked)], dim=1)
        made.append((tokens, values.gather(1, asked).squeeze(1)))
    return made


def median_step_seconds(fused: bool, steps: int) -> float:
    torch.manual_seed(1)
    model = AttentionOnly(fused)
    optimizer = torch.optim.Adam(model.parameters(), lr=LEARNING_RATE)
    data = batches(WARM_UP + steps, torch.Generator().manual_seed(1))
    times = []
    for tokens, answers in data:
        start = time.perf_counter()
        loss = F.cross_entropy(model(tokens), answers)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        times.append(time.perf_counter() - start)
    return statistics.median(times[WARM_UP:])


def main() -> None:
    steps, threads = (int(arg) for arg in sys.argv[1:3])
    torch.set_num_threads(threads)
    for name, fused in (("matmul", False), ("sdpa", True)):
        print(f"{name} {median_step_seconds(fused, steps):.9f}", flush=True)


if __name__ == "__main__":
    main()
