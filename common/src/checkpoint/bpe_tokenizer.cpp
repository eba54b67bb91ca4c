// GPT-2's byte-level BPE (rooflab/bpe_tokenizer.hpp): the byte map, the
// pre-tokenisation matcher, the two file formats, and the merge loop. Where
// GPT-2's reference code and Hugging Face's `tokenizers` could differ, this
// follows `tokenizers`, whose ids the test fixture holds.
#include "rooflab/bpe_tokenizer.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <cstddef>
#include <cstdio>
#include <fstream>
#include <functional>
#include <limits>
#include <mutex>
#include <queue>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "unicode_categories.hpp"

namespace rooflab {
namespace {

using Json = nlohmann::json;

// ---------------------------------------------------------------- byte map

// The bytes GPT-2 keeps as themselves: printable Latin-1, less the space, the
// soft hyphen (173) and the non-breaking space (160), so that no token holds
// a character that prints as nothing or is easily mangled.
constexpr bool byte_stands_for_itself(int byte) {
  return (byte >= 33 && byte <= 126) || (byte >= 161 && byte <= 172) || (byte >= 174 && byte <= 255);
}

constexpr int kFirstStandIn = 256;        // the other bytes' characters start here...
constexpr int kStandInCount = 256 - 188;  // ...one for each byte not standing for itself

struct ByteMap {
  std::array<char32_t, 256> char_of_byte{};
  std::array<int, kFirstStandIn + kStandInCount> byte_of_char{};  // -1: no byte

  ByteMap() {
    byte_of_char.fill(-1);
    char32_t next_stand_in = kFirstStandIn;
    for (int byte = 0; byte < 256; ++byte) {
      const char32_t character = byte_stands_for_itself(byte) ? static_cast<char32_t>(byte) : next_stand_in++;
      char_of_byte[byte] = character;
      byte_of_char[character] = byte;
    }
  }
};

const ByteMap& byte_map() {
  static const ByteMap map;
  return map;
}

// ------------------------------------------------------------------- UTF-8

void append_utf8(char32_t code_point, std::string& out) {
  if (code_point < 0x80) {
    out += static_cast<char>(code_point);
  } else if (code_point < 0x800) {
    out += static_cast<char>(0xC0 | (code_point >> 6));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else if (code_point < 0x10000) {
    out += static_cast<char>(0xE0 | (code_point >> 12));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code_point >> 18));
    out += static_cast<char>(0x80 | ((code_point >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  }
}

struct DecodedChar {
  char32_t code_point;
  std::size_t length;  // in bytes
};

// The character that starts at `at`. Strict UTF-8 (no overlong forms, no
// surrogates, nothing past U+10FFFF); a byte that does not start a valid
// sequence is one character U+FFFD of one byte, so that the next byte gets its
// own chance to start one.
DecodedChar decode_utf8_at(std::string_view text, std::size_t at) {
  constexpr DecodedChar kInvalidByte{0xFFFD, 1};
  const auto byte_at = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte_at(at);
  if (lead < 0x80) return {lead, 1};

  std::size_t length = 0;
  char32_t value = 0;
  unsigned char second_low = 0x80, second_high = 0xBF;  // the second byte's range rules out the bad forms
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    value = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    value = lead & 0x0F;
    if (lead == 0xE0) second_low = 0xA0;   // overlong
    if (lead == 0xED) second_high = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    value = lead & 0x07;
    if (lead == 0xF0) second_low = 0x90;   // overlong
    if (lead == 0xF4) second_high = 0x8F;  // past U+10FFFF
  } else {
    return kInvalidByte;
  }
  if (at + length > text.size()) return kInvalidByte;
  for (std::size_t i = 1; i < length; ++i) {
    const unsigned char next = byte_at(at + i);
    const unsigned char low = i == 1 ? second_low : 0x80, high = i == 1 ? second_high : 0xBF;
    if (next < low || next > high) return kInvalidByte;
    value = (value << 6) | (next & 0x3F);
  }
  return {value, length};
}

// ------------------------------------------------------- pre-tokenisation

// The pattern's classes: \p{L}, \p{N}, \s, and everything else
// ([^\s\p{L}\p{N}]), which every code point is exactly one of.
enum class CharClass { letter, number, space, other };

CharClass class_of(char32_t code_point) {
  if (is_unicode_letter(code_point)) return CharClass::letter;
  if (is_unicode_number(code_point)) return CharClass::number;
  if (is_unicode_space(code_point)) return CharClass::space;
  return CharClass::other;
}

struct TextChar {
  char32_t code_point;
  CharClass kind;
};

// How many characters, from `at`, the pattern's first matching alternative
// takes. The alternatives are tried in the pattern's order and the first that
// matches wins, as in a backtracking engine (not the longest); some
// alternative always matches, since every character has a class.
std::size_t piece_length(const std::vector<TextChar>& chars, std::size_t at) {
  const std::size_t size = chars.size();
  const auto is = [&](std::size_t i, char32_t c) { return i < size && chars[i].code_point == c; };

  // 's|'t|'re|'ve|'m|'ll|'d: ASCII and case-sensitive, as GPT-2's pattern is.
  if (is(at, U'\'')) {
    if (is(at + 1, U's') || is(at + 1, U't') || is(at + 1, U'm') || is(at + 1, U'd')) return 2;
    if ((is(at + 1, U'r') && is(at + 2, U'e')) || (is(at + 1, U'v') && is(at + 2, U'e')) ||
        (is(at + 1, U'l') && is(at + 2, U'l')))
      return 3;
  }

  // ' ?\p{L}+', ' ?\p{N}+', ' ?[^\s\p{L}\p{N}]+': the optional space is taken
  // only when the run follows it; without it, the space itself would have to
  // start the run, and a space is in none of these classes.
  for (const CharClass kind : {CharClass::letter, CharClass::number, CharClass::other}) {
    const std::size_t run_start = is(at, U' ') && at + 1 < size && chars[at + 1].kind == kind ? at + 1 : at;
    std::size_t run_end = run_start;
    while (run_end < size && chars[run_end].kind == kind) ++run_end;
    if (run_end > run_start) return run_end - at;
  }

  // '\s+(?!\S)|\s+': what is left is a whitespace run. Up to the end of the
  // text it is one piece; before a non-space, the engine backs off one
  // character so that (?!\S) holds, leaving the last whitespace character to
  // start the next piece (" world" keeps its space); a run of one cannot
  // back off and falls to the plain '\s+'.
  std::size_t run_end = at;
  while (run_end < size && chars[run_end].kind == CharClass::space) ++run_end;
  const std::size_t run = run_end - at;
  return run_end == size || run == 1 ? run : run - 1;
}

// --------------------------------------------------------------- loading

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw std::runtime_error(where + ": " + what);
}

std::string read_file(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error))
    fail(path.string(), std::filesystem::exists(path, error) ? "not a regular file" : "no such file");
  std::ifstream in(path, std::ios::binary);
  std::ostringstream contents;
  contents << in.rdbuf();
  if (!in) fail(path.string(), "cannot be read");
  return contents.str();
}

Json read_json(const std::filesystem::path& path) {
  try {
    return Json::parse(read_file(path));
  } catch (const Json::parse_error& error) {
    fail(path.string(), std::string("invalid JSON: ") + error.what());
  }
}

// One merge as a file gives it, with where it was, for the errors about it.
struct MergeRule {
  std::string left;
  std::string right;
  std::string where;  // "merges.txt:12" or "tokenizer.json: model.merges[10]"
};

// "a b" with exactly one space and two non-empty parts (no token holds a
// space: byte 32 is 'Ġ'), as the `tokenizers` library reads merges.txt.
bool split_merge(std::string_view line, std::string_view& left, std::string_view& right) {
  const std::size_t space = line.find(' ');
  if (space == std::string_view::npos || space == 0 || space + 1 == line.size()) return false;
  if (line.find(' ', space + 1) != std::string_view::npos) return false;
  left = line.substr(0, space), right = line.substr(space + 1);
  return true;
}

std::vector<MergeRule> read_merges_txt(const std::filesystem::path& path) {
  const std::string text = read_file(path);
  std::vector<MergeRule> rules;
  std::size_t line_start = 0;
  for (std::size_t line_number = 1; line_start < text.size(); ++line_number) {
    const std::size_t newline = text.find('\n', line_start);
    const std::size_t line_end = newline == std::string::npos ? text.size() : newline;
    std::string_view line(text.data() + line_start, line_end - line_start);
    line_start = line_end + 1;
    // A file written on Windows: '\r' cannot be part of a token (byte 13 is 'č').
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line_number == 1 && line.substr(0, 8) == "#version") continue;

    const std::string where = path.string() + ":" + std::to_string(line_number);
    std::string_view left, right;
    if (!split_merge(line, left, right))
      fail(where, "expected a merge \"a b\" (two tokens, one space between), found \"" + std::string(line) + "\"");
    rules.push_back({std::string(left), std::string(right), where});
  }
  return rules;
}

std::vector<MergeRule> merges_of_tokenizer_json(const Json& merges, const std::string& file) {
  std::vector<MergeRule> rules;
  for (std::size_t i = 0; i < merges.size(); ++i) {
    const Json& merge = merges[i];
    const std::string where = file + ": model.merges[" + std::to_string(i) + "]";
    // Older `tokenizers` versions write "a b", newer ones ["a", "b"].
    std::string_view left, right;
    if (merge.is_string() && split_merge(merge.get_ref<const std::string&>(), left, right)) {
      rules.push_back({std::string(left), std::string(right), where});
    } else if (merge.is_array() && merge.size() == 2 && merge[0].is_string() && merge[1].is_string()) {
      rules.push_back({merge[0].get<std::string>(), merge[1].get<std::string>(), where});
    } else {
      fail(where, "expected \"a b\" or [\"a\", \"b\"], found " + merge.dump());
    }
  }
  return rules;
}

// True where `object` does not set `key`, or sets it to GPT-2's value.
bool unset_or(const Json& object, const char* key, const Json& gpt2_value) {
  const auto found = object.find(key);
  return found == object.end() || found->is_null() || *found == gpt2_value;
}

// tokenizer.json can ask for behaviour this class does not have (a
// normaliser, a prefix space, dropout, ...). Such a file is refused, since
// following it in part would give ids that differ from the library's without
// a word.
void check_gpt2_settings(const Json& document, const Json& model, const std::string& file) {
  if (!unset_or(model, "type", "BPE"))
    fail(file + ": model.type", model.at("type").dump() + " is not supported, only \"BPE\"");
  if (!unset_or(document, "normalizer", nullptr))
    fail(file + ": normalizer",
         "GPT-2 has none; " + document.at("normalizer").dump().substr(0, 80) + " is not supported");

  const auto pre_tokenizer = document.find("pre_tokenizer");
  const bool byte_level = pre_tokenizer != document.end() && pre_tokenizer->is_object() &&
                          pre_tokenizer->contains("type") && pre_tokenizer->at("type") == "ByteLevel";
  if (!byte_level)
    fail(file + ": pre_tokenizer",
         "expected GPT-2's {\"type\": \"ByteLevel\"}, found " +
             (pre_tokenizer == document.end() ? std::string("none") : pre_tokenizer->dump().substr(0, 80)));
  if (!unset_or(*pre_tokenizer, "add_prefix_space", false))
    fail(file + ": pre_tokenizer.add_prefix_space", "true is not supported (GPT-2's is false)");
  if (!unset_or(*pre_tokenizer, "use_regex", true))
    fail(file + ": pre_tokenizer.use_regex", "false is not supported (GPT-2's is true)");

  const std::pair<const char*, Json> gpt2_model_settings[] = {
      {"dropout", nullptr}, {"continuing_subword_prefix", ""}, {"end_of_word_suffix", ""}, {"ignore_merges", false}};
  for (const auto& [key, gpt2_value] : gpt2_model_settings) {
    if (!unset_or(model, key, gpt2_value))
      fail(file + ": model." + key, model.at(key).dump() + " is not supported (GPT-2's is " + gpt2_value.dump() + ")");
  }
}

std::string describe_code_point(char32_t code_point) {
  char text[16];
  std::snprintf(text, sizeof text, "U+%04X", static_cast<unsigned>(code_point));
  return text;
}

}  // namespace

// -------------------------------------------------------------- byte map API

char32_t gpt2_byte_to_char(std::uint8_t byte) { return byte_map().char_of_byte[byte]; }

std::optional<std::uint8_t> gpt2_char_to_byte(char32_t character) {
  const auto& byte_of_char = byte_map().byte_of_char;
  if (character >= byte_of_char.size() || byte_of_char[character] < 0) return std::nullopt;
  return static_cast<std::uint8_t>(byte_of_char[character]);
}

std::vector<std::string_view> gpt2_pre_tokenize(std::string_view utf8_text) {
  std::vector<TextChar> chars;
  std::vector<std::size_t> byte_offsets;  // where each character starts, then the text's end
  for (std::size_t at = 0; at < utf8_text.size();) {
    const DecodedChar decoded = decode_utf8_at(utf8_text, at);
    chars.push_back({decoded.code_point, class_of(decoded.code_point)});
    byte_offsets.push_back(at);
    at += decoded.length;
  }
  byte_offsets.push_back(utf8_text.size());

  std::vector<std::string_view> pieces;
  for (std::size_t at = 0; at < chars.size();) {
    const std::size_t end = at + piece_length(chars, at);
    pieces.push_back(utf8_text.substr(byte_offsets[at], byte_offsets[end] - byte_offsets[at]));
    at = end;
  }
  return pieces;
}

// ------------------------------------------------------------------ tables

struct BpeTokenizer::Tables {
  struct IdPair {
    std::int64_t left;
    std::int64_t right;
    bool operator==(const IdPair& other) const { return left == other.left && right == other.right; }
  };
  struct IdPairHash {
    std::size_t operator()(const IdPair& pair) const {
      const std::hash<std::int64_t> hash;
      return hash(pair.left) * 0x9E3779B97F4A7C15ull ^ hash(pair.right);
    }
  };
  struct Merge {
    std::size_t rank;  // the line's place among the merges: lower merges first
    std::int64_t merged_id;
  };

  std::unordered_map<std::string, std::int64_t> id_of_token;
  std::unordered_map<std::int64_t, std::string> token_of_id;
  std::unordered_map<IdPair, Merge, IdPairHash> merges;
  std::array<std::optional<std::int64_t>, 256> id_of_byte;  // each byte's one-character token

  // The ids of pieces seen before: text repeats words, and BPE on a word
  // costs far more than a lookup. Bounded, so that a long run over varied
  // text cannot grow it without end; once full it keeps what it has.
  static constexpr std::size_t kCacheCapacity = 1 << 16;
  mutable std::mutex cache_mutex;
  mutable std::unordered_map<std::string, std::vector<std::int64_t>> cache;

  void add_vocabulary(const Json& vocab, const std::string& where) {
    if (!vocab.is_object()) fail(where, "expected an object {\"token\": id, ...}, found " + vocab.dump().substr(0, 80));
    for (const auto& [token, value] : vocab.items()) {
      const std::string field = where + ": \"" + token + "\"";
      const bool fits = value.is_number_integer() &&
                        !(value.is_number_unsigned() &&
                          value.get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max()));
      if (!fits || value.get<std::int64_t>() < 0) fail(field, "the id is not a non-negative integer: " + value.dump());
      const auto id = value.get<std::int64_t>();
      const auto [existing, added] = token_of_id.emplace(id, token);
      if (!added)
        fail(where,
             "id " + std::to_string(id) + " is given to both \"" + existing->second + "\" and \"" + token + "\"");
      id_of_token.emplace(token, id);
    }
    for (int byte = 0; byte < 256; ++byte) {
      std::string character;
      append_utf8(gpt2_byte_to_char(static_cast<std::uint8_t>(byte)), character);
      const auto found = id_of_token.find(character);
      if (found != id_of_token.end()) id_of_byte[byte] = found->second;
    }
  }

  void add_merges(const std::vector<MergeRule>& rules) {
    for (std::size_t rank = 0; rank < rules.size(); ++rank) {
      const MergeRule& rule = rules[rank];
      const auto id_in_vocabulary = [&](const std::string& token, const char* role) {
        const auto found = id_of_token.find(token);
        if (found == id_of_token.end())
          fail(rule.where, "merge \"" + rule.left + " " + rule.right + "\": " + role + " \"" + token +
                               "\" is not in the vocabulary");
        return found->second;
      };
      const IdPair pair{id_in_vocabulary(rule.left, "its left part"), id_in_vocabulary(rule.right, "its right part")};
      const std::int64_t merged = id_in_vocabulary(rule.left + rule.right, "its result");
      // A pair listed twice keeps its later rank, as in both GPT-2's encoder
      // and the `tokenizers` library (each builds a map, later lines overwriting).
      merges[pair] = Merge{rank, merged};
    }
  }

  // BPE on one piece: start from the bytes' one-character tokens and merge
  // the adjacent pair of lowest rank, the leftmost of equals, until no pair
  // is a merge. A priority queue of candidate pairs over a linked list of
  // symbols keeps it O(n log n), as in the `tokenizers` library (whose order
  // of merging this is), so that a long piece (a page of spaces) stays cheap.
  std::vector<std::int64_t> merge_piece(std::string_view piece) const {
    constexpr std::int64_t kMergedAway = -1;  // the right symbol of a merge: ids are never negative
    constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
    struct Symbol {
      std::int64_t id;
      std::size_t previous, next;
    };
    std::vector<Symbol> symbols;
    symbols.reserve(piece.size());
    for (std::size_t i = 0; i < piece.size(); ++i) {
      const auto byte = static_cast<std::uint8_t>(piece[i]);
      if (!id_of_byte[byte])
        throw std::runtime_error("BpeTokenizer::encode: the vocabulary has no token for byte " + std::to_string(byte) +
                                 " (" + describe_code_point(gpt2_byte_to_char(byte)) + ")");
      symbols.push_back({*id_of_byte[byte], i == 0 ? kNone : i - 1, i + 1 == piece.size() ? kNone : i + 1});
    }

    struct Candidate {
      std::size_t rank;
      std::size_t left;  // the left symbol's index: keeps its place in the text through merges
      std::int64_t left_id, right_id, merged_id;
    };
    const auto later = [](const Candidate& a, const Candidate& b) {
      return std::tie(a.rank, a.left) > std::tie(b.rank, b.left);
    };
    std::priority_queue<Candidate, std::vector<Candidate>, decltype(later)> candidates(later);
    const auto offer_pair_at = [&](std::size_t left) {
      const std::size_t right = symbols[left].next;
      if (right == kNone) return;
      const auto merge = merges.find(IdPair{symbols[left].id, symbols[right].id});
      if (merge != merges.end())
        candidates.push({merge->second.rank, left, symbols[left].id, symbols[right].id, merge->second.merged_id});
    };
    for (std::size_t i = 0; i < symbols.size(); ++i) offer_pair_at(i);

    while (!candidates.empty()) {
      const Candidate candidate = candidates.top();
      candidates.pop();
      // A candidate is stale once either of its symbols has merged with
      // another; one whose two ids are still side by side is current, since
      // a pair's rank depends on its ids alone.
      Symbol& left = symbols[candidate.left];
      if (left.id != candidate.left_id || left.next == kNone || symbols[left.next].id != candidate.right_id) continue;
      Symbol& right = symbols[left.next];
      left.id = candidate.merged_id;
      left.next = right.next;
      if (right.next != kNone) symbols[right.next].previous = candidate.left;
      right.id = kMergedAway;
      if (left.previous != kNone) offer_pair_at(left.previous);
      offer_pair_at(candidate.left);
    }

    std::vector<std::int64_t> ids;
    for (std::size_t i = symbols.empty() ? kNone : 0; i != kNone; i = symbols[i].next) ids.push_back(symbols[i].id);
    return ids;
  }

  std::vector<std::int64_t> encode_piece(std::string_view piece) const {
    const std::string key(piece);
    {
      const std::lock_guard<std::mutex> lock(cache_mutex);
      const auto cached = cache.find(key);
      if (cached != cache.end()) return cached->second;
    }
    std::vector<std::int64_t> ids = merge_piece(piece);  // outside the lock: other threads go on meanwhile
    const std::lock_guard<std::mutex> lock(cache_mutex);
    if (cache.size() < kCacheCapacity) cache.emplace(key, ids);
    return ids;
  }
};

// ---------------------------------------------------------------- tokenizer

BpeTokenizer::BpeTokenizer(std::shared_ptr<const Tables> tables) : tables_(std::move(tables)) {}

BpeTokenizer BpeTokenizer::from_files(const std::filesystem::path& vocab_json,
                                      const std::filesystem::path& merges_txt) {
  auto tables = std::make_shared<Tables>();
  tables->add_vocabulary(read_json(vocab_json), vocab_json.string());
  tables->add_merges(read_merges_txt(merges_txt));
  return BpeTokenizer(std::move(tables));
}

BpeTokenizer BpeTokenizer::from_tokenizer_json(const std::filesystem::path& tokenizer_json) {
  const Json document = read_json(tokenizer_json);
  const std::string file = tokenizer_json.string();
  if (!document.is_object())
    fail(file, "expected a JSON object with a \"model\", found " + document.dump().substr(0, 80));
  const auto model = document.find("model");
  if (model == document.end() || !model->is_object()) fail(file + ": model", "missing, or not an object");
  check_gpt2_settings(document, *model, file);
  const auto vocab = model->find("vocab");
  if (vocab == model->end() || !vocab->is_object()) fail(file + ": model.vocab", "missing, or not an object");
  const auto merges = model->find("merges");
  if (merges == model->end() || !merges->is_array()) fail(file + ": model.merges", "missing, or not an array");

  auto tables = std::make_shared<Tables>();
  tables->add_vocabulary(*vocab, file + ": model.vocab");
  tables->add_merges(merges_of_tokenizer_json(*merges, file));
  return BpeTokenizer(std::move(tables));
}

BpeTokenizer BpeTokenizer::from_folder(const std::filesystem::path& folder) {
  const auto vocab_json = folder / "vocab.json", merges_txt = folder / "merges.txt";
  const auto tokenizer_json = folder / "tokenizer.json";
  std::error_code error;
  if (std::filesystem::is_regular_file(vocab_json, error) && std::filesystem::is_regular_file(merges_txt, error))
    return from_files(vocab_json, merges_txt);
  if (std::filesystem::is_regular_file(tokenizer_json, error)) return from_tokenizer_json(tokenizer_json);
  fail(folder.string(), "no tokenizer: looked for vocab.json with merges.txt, and for tokenizer.json");
}

std::vector<std::int64_t> BpeTokenizer::encode(std::string_view utf8_text) const {
  std::vector<std::int64_t> ids;
  for (const std::string_view piece : gpt2_pre_tokenize(utf8_text)) {
    const std::vector<std::int64_t> piece_ids = tables_->encode_piece(piece);
    ids.insert(ids.end(), piece_ids.begin(), piece_ids.end());
  }
  return ids;
}

std::string BpeTokenizer::decode(const std::vector<std::int64_t>& ids) const {
  std::string bytes;
  for (const std::int64_t id : ids) {
    const auto token = tables_->token_of_id.find(id);
    if (token == tables_->token_of_id.end())
      throw std::out_of_range("BpeTokenizer::decode: id " + std::to_string(id) + " is not in the vocabulary (" +
                              std::to_string(vocab_size()) + " tokens)");
    // A token with a character outside the byte map (an added token written
    // as plain text, say) stands for its own UTF-8, as in the `tokenizers`
    // library's ByteLevel decoder.
    std::string token_bytes;
    const std::string& text = token->second;
    for (std::size_t at = 0; at < text.size();) {
      const DecodedChar character = decode_utf8_at(text, at);
      const std::optional<std::uint8_t> byte = gpt2_char_to_byte(character.code_point);
      if (!byte) {
        token_bytes = text;
        break;
      }
      token_bytes += static_cast<char>(*byte);
      at += character.length;
    }
    bytes += token_bytes;
  }
  return bytes;
}

std::int64_t BpeTokenizer::vocab_size() const { return static_cast<std::int64_t>(tables_->token_of_id.size()); }

std::optional<std::int64_t> BpeTokenizer::id_of(std::string_view token) const {
  const auto found = tables_->id_of_token.find(std::string(token));
  if (found == tables_->id_of_token.end()) return std::nullopt;
  return found->second;
}

}  // namespace rooflab
