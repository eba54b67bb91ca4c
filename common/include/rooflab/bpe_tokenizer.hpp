// GPT-2's byte-level BPE tokenizer: text to token ids and back, from the files
// a Hugging Face checkpoint ships (vocab.json + merges.txt, or tokenizer.json),
// giving the ids that Hugging Face's `tokenizers` library gives
// (common/tests/bpe_tokenizer_test.cpp checks it on a fixture the library made).
//
//   const auto tokenizer = rooflab::BpeTokenizer::from_folder("checkpoints/gpt2");
//   std::vector<std::int64_t> ids = tokenizer.encode("Hello world");  // {15496, 995}
//   std::string text = tokenizer.decode(ids);                         // "Hello world"
//
// The algorithm, in three steps:
//   1. pre-tokenisation: GPT-2's pattern
//        's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//      cuts the text into pieces (words with their leading space, numbers,
//      punctuation runs, whitespace), matched by hand on Unicode code points;
//   2. every byte of a piece becomes one printable character (the byte map
//      below), so that a token is a string of those characters;
//   3. BPE: starting from single characters, the adjacent pair that comes
//      first in merges.txt is merged, again and again, until no pair is a merge.
//
// Not covered: added (special) tokens such as "<|endoftext|>" are not found
// in text (encode splits them like any text; their ids still decode when the
// vocabulary has them), and tokenizer.json settings other than GPT-2's are
// refused rather than half-followed.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rooflab {

// GPT-2's byte map: each of the 256 bytes as one printable code point. Bytes
// 33..126, 161..172 and 174..255 stand for themselves; the other 68 take
// U+0100, U+0101, ... in increasing byte order (so ' ' is U+0120 'Ġ' and
// '\n' is U+010A 'Ċ').
char32_t gpt2_byte_to_char(std::uint8_t byte);
std::optional<std::uint8_t> gpt2_char_to_byte(char32_t character);  // nullopt: not one of the 256

// GPT-2's pre-tokenisation (step 1 above): the pieces, in order, as views
// into `utf8_text` (they tile it), so the text must outlive them (not
// `for (auto piece : gpt2_pre_tokenize(make_string()))`). A byte that is not
// part of valid UTF-8 is a piece's byte like any other, classed as U+FFFD
// would be (neither letter, number nor space); the `tokenizers` library never
// sees one, since it takes only valid UTF-8.
std::vector<std::string_view> gpt2_pre_tokenize(std::string_view utf8_text);

class BpeTokenizer {
 public:
  // GPT-2's two files: vocab.json ({"token": id, ...}) and merges.txt (one
  // merge "a b" a line, highest priority first, after an optional
  // "#version" line). Throws std::runtime_error naming the file and the line
  // or field at fault.
  static BpeTokenizer from_files(const std::filesystem::path& vocab_json, const std::filesystem::path& merges_txt);
  // The `tokenizers` library's one file: model.vocab and model.merges (each
  // merge "a b" or ["a", "b"], as the library's version wrote it); the model
  // must be BPE and the pre-tokenizer ByteLevel, as GPT-2's are.
  static BpeTokenizer from_tokenizer_json(const std::filesystem::path& tokenizer_json);
  // vocab.json + merges.txt where the folder has both, else tokenizer.json.
  static BpeTokenizer from_folder(const std::filesystem::path& folder);

  // Thread-safe: encode() may be called from several threads at once (a
  // cache of encoded pieces is shared behind a mutex, also among copies).
  // Throws std::runtime_error when a byte of the text has no token of its
  // own, which only a vocabulary without all 256 byte characters allows.
  std::vector<std::int64_t> encode(std::string_view utf8_text) const;
  // The bytes of the tokens, concatenated. Not checked to be UTF-8: a run of
  // ids that ends inside a character (decoding token by token while
  // generating, say) gives that character's first bytes, where the
  // `tokenizers` library would give U+FFFD. Throws std::out_of_range naming
  // an id that is not in the vocabulary.
  std::string decode(const std::vector<std::int64_t>& ids) const;

  std::int64_t vocab_size() const;                                  // the number of tokens in the vocabulary
  std::optional<std::int64_t> id_of(std::string_view token) const;  // token in byte characters ("Ġthe")

 private:
  struct Tables;  // the vocabulary, the merges and the cache (bpe_tokenizer.cpp)
  explicit BpeTokenizer(std::shared_ptr<const Tables> tables);

  // Shared, not copied: a copy is cheap, and the tables never change after
  // loading (only the cache does, under its mutex).
  std::shared_ptr<const Tables> tables_;
};

}  // namespace rooflab
