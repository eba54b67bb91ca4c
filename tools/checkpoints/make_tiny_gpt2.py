"""Writes the small GPT-2 checkpoints the course's tests and docs decode with.

Nothing is downloaded: a byte-level BPE tokenizer is trained by `tokenizers` on
decoding_corpus.txt (beside this script), and two GPT-2 models of a few layers
are trained by torch on the same text for a few hundred steps, so that they
continue a prompt with words, not noise, and greedy decoding has clear
winners. `transformers` writes each folder (save_pretrained: config.json,
model.safetensors) and computes the reference the C++ side must match:

  data/checkpoints/tiny-gpt2/        the target: fp32
  data/checkpoints/tiny-gpt2-fp16/   the same weights rounded to fp16
  data/checkpoints/tiny-gpt2-draft/  a smaller model, speculative decoding's draft

Each folder also holds the tokenizer (vocab.json, merges.txt, tokenizer.json)
and reference.json: for fixed prompts, their ids, the logits at every position
and transformers' greedy continuation (model.generate, do_sample=False), with
the smallest gap between the best and second-best logit along the way (a
continuation whose gap is tiny would hang on rounding; the script refuses it).
The fp16 folder's logits are the fp32 model's run on the fp16-rounded weights,
which is what a reader that widens fp16 to fp32 on load computes.

usage: .venv/bin/python3 tools/checkpoints/make_tiny_gpt2.py [--out data/checkpoints]
(./lab peers installs torch and transformers into .venv; tokenizers comes with them.)
"""
import argparse
import json
import pathlib
import random

import torch
from tokenizers import ByteLevelBPETokenizer, pre_tokenizers
from transformers import GPT2Config, GPT2LMHeadModel

HERE = pathlib.Path(__file__).resolve().parent
VOCAB_SIZE = 512
CONTEXT = 128
PROMPTS = [
    "The model reads",
    "Speculative decoding lets",
    "The cache grows by one row",
    "A sampler turns",
    "In fp16 each weight",
]
GREEDY_TOKENS = 24
SHAPES = {  # name: (layers, d_model, heads, training steps)
    "tiny-gpt2": (2, 64, 4, 600),
    "tiny-gpt2-draft": (1, 32, 2, 400),
}


def train_tokenizer(corpus: pathlib.Path) -> ByteLevelBPETokenizer:
    tokenizer = ByteLevelBPETokenizer()
    # Its trainer starts from every byte's character: no text is unknown to it.
    tokenizer.train([str(corpus)], vocab_size=VOCAB_SIZE, min_frequency=2, special_tokens=["<|endoftext|>"],
                    show_progress=False)
    assert all(tokenizer.token_to_id(c) is not None for c in pre_tokenizers.ByteLevel.alphabet())
    return tokenizer


def train_model(ids: list, layers: int, d_model: int, heads: int, steps: int, vocab: int,
                end_of_text: int) -> GPT2LMHeadModel:
    torch.manual_seed(layers * 1000 + d_model)
    config = GPT2Config(vocab_size=vocab, n_positions=CONTEXT, n_embd=d_model, n_layer=layers, n_head=heads,
                        n_inner=4 * d_model, bos_token_id=end_of_text, eos_token_id=end_of_text)
    model = GPT2LMHeadModel(config)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.0)
    data = torch.tensor(ids, dtype=torch.long)
    window, batch = 64, 16
    generator = random.Random(7)
    model.train()
    for _ in range(steps):
        starts = [generator.randrange(0, len(ids) - window - 1) for _ in range(batch)]
        inputs = torch.stack([data[s:s + window] for s in starts])
        loss = model(input_ids=inputs, labels=inputs).loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    return model


def reference(model: GPT2LMHeadModel, tokenizer: ByteLevelBPETokenizer) -> dict:
    entries, smallest_gap = [], float("inf")
    with torch.inference_mode():
        for text in PROMPTS:
            ids = tokenizer.encode(text).ids
            logits = model(input_ids=torch.tensor([ids])).logits[0]
            out = model.generate(torch.tensor([ids]), attention_mask=torch.ones(1, len(ids), dtype=torch.long),
                                 max_new_tokens=GREEDY_TOKENS, min_new_tokens=GREEDY_TOKENS, do_sample=False,
                                 pad_token_id=model.config.eos_token_id,
                                 output_logits=True, return_dict_in_generate=True)
            greedy = out.sequences[0, len(ids):].tolist()
            for step_logits in out.logits:
                top = torch.topk(step_logits[0].float(), 2).values
                smallest_gap = min(smallest_gap, float(top[0] - top[1]))
            entries.append({"text": text, "ids": ids, "logits": [[round(float(v), 6) for v in row] for row in logits],
                            "greedy": greedy, "greedy_text": tokenizer.decode(greedy)})
    return {"prompts": entries, "smallest_top2_gap": smallest_gap}


def save(model: GPT2LMHeadModel, tokenizer: ByteLevelBPETokenizer, folder: pathlib.Path, note: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(folder)
    tokenizer.save_model(str(folder))  # vocab.json, merges.txt
    tokenizer.save(str(folder / "tokenizer.json"))
    ref = reference(model, tokenizer)
    if ref["smallest_top2_gap"] < 1e-3:
        raise SystemExit(f"{folder}: greedy decoding has a near tie ({ref['smallest_top2_gap']:.2e}): train longer")
    ref["note"] = note
    (folder / "reference.json").write_text(json.dumps(ref, separators=(",", ":")) + "\n")
    print(f"{folder}: {sum(p.numel() for p in model.parameters())} parameters, "
          f"smallest top-2 gap {ref['smallest_top2_gap']:.3f}; "
          f"'{PROMPTS[0]}' -> '{ref['prompts'][0]['greedy_text']}'")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(HERE.parent.parent / "data" / "checkpoints"))
    out = pathlib.Path(parser.parse_args().out)
    torch.set_num_threads(2)
    corpus = HERE / "decoding_corpus.txt"
    tokenizer = train_tokenizer(corpus)
    ids = tokenizer.encode(corpus.read_text()).ids
    vocab = tokenizer.get_vocab_size()
    end_of_text = tokenizer.token_to_id("<|endoftext|>")
    models = {name: train_model(ids, *shape, vocab, end_of_text) for name, shape in SHAPES.items()}
    save(models["tiny-gpt2"], tokenizer, out / "tiny-gpt2", "fp32 weights, trained on decoding_corpus.txt")
    save(models["tiny-gpt2-draft"], tokenizer, out / "tiny-gpt2-draft", "the draft for speculative decoding")
    # fp16: save the rounded weights, and compute the reference on them widened
    # to fp32 (what the C++ reader does).
    half = models["tiny-gpt2"].half()
    half_folder = out / "tiny-gpt2-fp16"
    half_folder.mkdir(parents=True, exist_ok=True)
    half.save_pretrained(half_folder)
    widened = half.float()
    tokenizer.save_model(str(half_folder))
    tokenizer.save(str(half_folder / "tokenizer.json"))
    ref = reference(widened, tokenizer)
    ref["note"] = "fp16 weights; logits of the fp32 model on those weights widened"
    (half_folder / "reference.json").write_text(json.dumps(ref, separators=(",", ":")) + "\n")
    print(f"{half_folder}: fp16, smallest top-2 gap {ref['smallest_top2_gap']:.3f}")


if __name__ == "__main__":
    main()
