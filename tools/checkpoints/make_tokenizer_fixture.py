#!/usr/bin/env python3
"""Writes the BPE tokenizer's parity fixture, common/tests/data/bpe_tokenizer/:
a tiny byte-level BPE tokenizer trained by Hugging Face's `tokenizers` library
on tools/checkpoints/tiny_corpus.txt, in both of its file formats, and the ids
that the library itself gives a handful of awkward texts. The C++ test
(common/tests/bpe_tokenizer_test.cpp) loads the same files and must give the
same ids: the library is the reference, so the expected ids come from it and
never from our code.

    .venv/bin/python3 tools/checkpoints/make_tokenizer_fixture.py

Files written:
  vocab.json, merges.txt   GPT-2's two-file format (save_model)
  tokenizer.json           the library's one-file format (save)
  expected.json            [{"text": ..., "pieces": [...], "ids": [...]}, ...]:
                           pieces are the library's pre-tokenisation of the
                           text (as text, not as byte characters), ids its
                           encoding without special tokens

The committed fixture was made with tokenizers 0.23.3 (Python 3.11).
Rerunning with another version may train a different vocabulary (ties between
equally frequent pairs); that is fine, since the expected ids are rewritten
with it, but say so in the commit.
"""

import json
import pathlib

import tokenizers
from tokenizers import Tokenizer
from tokenizers.implementations import ByteLevelBPETokenizer
from tokenizers.pre_tokenizers import ByteLevel

REPO = pathlib.Path(__file__).resolve().parents[2]
CORPUS = REPO / "tools" / "checkpoints" / "tiny_corpus.txt"
FIXTURE = REPO / "common" / "tests" / "data" / "bpe_tokenizer"

VOCAB_SIZE = 400  # 256 byte characters plus about 140 merges: enough merges to matter, small enough to read
MIN_FREQUENCY = 2

# Each text exercises a part of GPT-2's pre-tokenisation pattern or of the byte
# map; together they cover the cases the C++ matcher handles by hand.
TEXTS = [
    "Hello, world! The lab opens at 9:30.",
    "We don't guess; they're sure it's fine, I'll say we've done it, and I'd agree I'm right.",
    "SHOUTING DON'T SPLIT, but 'quotes' and rock'n'roll do.",
    "multiple   spaces\tand\t\ttabs  between  words",
    "line one\nline two\n\n  indented line\r\nwindows line\n",
    "Zoë's café serves crème brûlée; a naïve façade, résumé.",
    "中文字符 and Ελληνικά γράμματα, 日本語も。",
    "emoji 😀👍🏽 and a flag 🇫🇷 cost bytes 🚀!!",
    "Numbers: 3.14159, 2024, 1,000,000 and 42nd; x²+y½ ٣ Ⅻ.",
    # U+00A0 and U+3000 are whitespace to \s, U+001C..U+001F are not (though str.isspace() says they are).
    "no-break\u00a0space, a \u00a0b, ideographic\u3000\u3000space, separators\x1c\x1cend \x1f\x1f.",
    "trailing whitespace   \n\t  ",
    "",
]


def train():
    tokenizer = ByteLevelBPETokenizer(add_prefix_space=False)
    # ByteLevelBPETokenizer.train passes initial_alphabet=ByteLevel.alphabet()
    # to its trainer (tokenizers 0.23), so every byte has a token however rare
    # it is in the corpus; the check below makes sure of it in any version.
    tokenizer.train([str(CORPUS)], vocab_size=VOCAB_SIZE, min_frequency=MIN_FREQUENCY, show_progress=False)
    vocab = tokenizer.get_vocab()
    missing = [c for c in ByteLevel.alphabet() if c not in vocab]
    if missing:
        raise SystemExit(f"the trained vocabulary lacks {len(missing)} byte characters: {missing[:8]}")
    return tokenizer


def pre_tokenize(tokenizer, text):
    """The library's pre-tokenisation of `text`, as slices of the text (its
    pieces themselves are in byte characters; their offsets are in the text)."""
    pieces = [text[start:end] for _, (start, end) in tokenizer.pre_tokenizer.pre_tokenize_str(text)]
    if "".join(pieces) != text:
        raise SystemExit(f"the pre-tokenizer's offsets do not tile {text!r}")
    return pieces


def main():
    FIXTURE.mkdir(parents=True, exist_ok=True)
    tokenizer = train()
    tokenizer.save_model(str(FIXTURE))
    tokenizer.save(str(FIXTURE / "tokenizer.json"))

    # The ids come from the saved file, loaded back the way a user would, and
    # must agree with the in-memory tokenizer: a check on the saving itself.
    reloaded = Tokenizer.from_file(str(FIXTURE / "tokenizer.json"))
    cases = []
    for text in TEXTS:
        ids = reloaded.encode(text, add_special_tokens=False).ids
        if ids != tokenizer.encode(text, add_special_tokens=False).ids:
            raise SystemExit(f"tokenizer.json and the trained tokenizer disagree on {text!r}")
        if reloaded.decode(ids) != text:
            raise SystemExit(f"the library does not round-trip {text!r}")
        cases.append({"text": text, "pieces": pre_tokenize(reloaded, text), "ids": ids})

    # One case to a line: a reviewer can read the diff of a regenerated fixture.
    lines = ",\n".join("  " + json.dumps(case, ensure_ascii=False) for case in cases)
    (FIXTURE / "expected.json").write_text(f"[\n{lines}\n]\n", encoding="utf-8")
    print(f"wrote {FIXTURE} with tokenizers {tokenizers.__version__} "
          f"({len(tokenizer.get_vocab())} tokens, {len(cases)} texts)")


if __name__ == "__main__":
    main()
