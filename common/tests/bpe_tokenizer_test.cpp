// GPT-2's byte-level BPE tokenizer (rooflab/bpe_tokenizer.hpp): the byte map,
// the pre-tokenisation pattern on hand-checked strings, BPE on a tiny
// hand-made vocabulary whose every merge can be followed on paper, the errors
// a broken file gives, and parity with Hugging Face's `tokenizers` library on
// a fixture it made (tools/checkpoints/make_tokenizer_fixture.py).
#include "rooflab/bpe_tokenizer.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "rooflab/temp_folder_testing.hpp"

namespace rooflab {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using Ids = std::vector<std::int64_t>;
using Pieces = std::vector<std::string_view>;

#ifdef ROOFLAB_BPE_FIXTURE_DIR
const fs::path kFixture = ROOFLAB_BPE_FIXTURE_DIR;
#else
const fs::path kFixture = fs::path(__FILE__).parent_path() / "data" / "bpe_tokenizer";
#endif

std::string utf8_of(char32_t code_point) {
  std::string text;
  if (code_point < 0x80) {
    text += static_cast<char>(code_point);
  } else if (code_point < 0x800) {
    text += static_cast<char>(0xC0 | (code_point >> 6));
    text += static_cast<char>(0x80 | (code_point & 0x3F));
  } else {
    text += static_cast<char>(0xE0 | (code_point >> 12));
    text += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    text += static_cast<char>(0x80 | (code_point & 0x3F));
  }
  return text;
}

// The byte's one-character token ("Ġ" for ' ').
std::string token_of_byte(unsigned char byte) { return utf8_of(gpt2_byte_to_char(byte)); }

void write_file(const fs::path& path, const std::string& contents) {
  std::ofstream out(path, std::ios::binary);
  out << contents;
  ASSERT_TRUE(out.good()) << "cannot write " << path;
}

// The message of the exception `action` throws, or a failure when it throws
// none or another type.
template <typename Exception>
std::string message_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const Exception& error) {
    return error.what();
  }
  ADD_FAILURE() << "expected an exception";
  return "";
}

// ------------------------------------------------------------------ byte map

TEST(Gpt2ByteMap, IsABijectionOverTheBytes) {
  std::set<char32_t> characters;
  for (int byte = 0; byte < 256; ++byte) {
    const char32_t character = gpt2_byte_to_char(static_cast<std::uint8_t>(byte));
    characters.insert(character);
    ASSERT_EQ(gpt2_char_to_byte(character), std::optional<std::uint8_t>(byte)) << "byte " << byte;
  }
  EXPECT_EQ(characters.size(), 256u);
  EXPECT_EQ(gpt2_char_to_byte(U'\u00A0'), std::nullopt);  // byte 160 is not itself: it is a stand-in's byte
  EXPECT_EQ(gpt2_char_to_byte(U'\u0144'), std::nullopt);  // one past the 68 stand-ins
  EXPECT_EQ(gpt2_char_to_byte(U'\U0001F600'), std::nullopt);
}

TEST(Gpt2ByteMap, FollowsGpt2sRule) {
  char32_t next_stand_in = 0x100;
  for (int byte = 0; byte < 256; ++byte) {
    const bool printable = (byte >= 33 && byte <= 126) || (byte >= 161 && byte <= 172) || (byte >= 174);
    const char32_t expected = printable ? static_cast<char32_t>(byte) : next_stand_in++;
    EXPECT_EQ(gpt2_byte_to_char(static_cast<std::uint8_t>(byte)), expected) << "byte " << byte;
  }
  EXPECT_EQ(next_stand_in, char32_t{0x100 + 68});
  EXPECT_EQ(gpt2_byte_to_char(' '), U'\u0120');   // 'Ġ'
  EXPECT_EQ(gpt2_byte_to_char('\n'), U'\u010A');  // 'Ċ'
  EXPECT_EQ(gpt2_byte_to_char(0), U'\u0100');
  EXPECT_EQ(gpt2_byte_to_char(173), U'\u0143');  // the soft hyphen, the last stand-in
  EXPECT_EQ(gpt2_byte_to_char('A'), U'A');
  EXPECT_EQ(gpt2_char_to_byte(U'\u0120'), std::optional<std::uint8_t>(' '));
  EXPECT_EQ(gpt2_char_to_byte(U'\u010A'), std::optional<std::uint8_t>('\n'));
}

// -------------------------------------------------------- pre-tokenisation

TEST(Gpt2PreTokenize, SplitsHandCheckedStrings) {
  EXPECT_EQ(gpt2_pre_tokenize("Hello world"), (Pieces{"Hello", " world"}));
  EXPECT_EQ(gpt2_pre_tokenize("I'm here"), (Pieces{"I", "'m", " here"}));
  // \s+(?!\S) backs off one space before "b", which then takes it.
  EXPECT_EQ(gpt2_pre_tokenize("a  b"), (Pieces{"a", " ", " b"}));
  // The same for "\n\n"; the lone "\n" before "y" falls to the plain \s+.
  EXPECT_EQ(gpt2_pre_tokenize("x\n\ny"), (Pieces{"x", "\n", "\n", "y"}));
  EXPECT_EQ(gpt2_pre_tokenize("123abc"), (Pieces{"123", "abc"}));
  // Accented letters are letters; an emoji and '!' are both "other", so one run.
  EXPECT_EQ(gpt2_pre_tokenize(" émigré 😀!!"), (Pieces{" émigré", " 😀!!"}));
  // Whitespace up to the end of the text is one piece.
  EXPECT_EQ(gpt2_pre_tokenize("end   "), (Pieces{"end", "   "}));
  EXPECT_EQ(gpt2_pre_tokenize(""), Pieces{});
}

TEST(Gpt2PreTokenize, TakesContractionsAsGpt2Does) {
  // ASCII lower case only: "'T" is an apostrophe, then a word.
  EXPECT_EQ(gpt2_pre_tokenize("DON'T"), (Pieces{"DON", "'", "T"}));
  EXPECT_EQ(gpt2_pre_tokenize("they're we've I'll I'd it's"),
            (Pieces{"they", "'re", " we", "'ve", " I", "'ll", " I", "'d", " it", "'s"}));
  // At each place the first alternative that matches wins: "'''" is a run of
  // punctuation before the contraction could start.
  EXPECT_EQ(gpt2_pre_tokenize("'''s"), (Pieces{"'''", "s"}));
  EXPECT_EQ(gpt2_pre_tokenize("rock'n'roll"), (Pieces{"rock", "'", "n", "'", "roll"}));
}

TEST(Gpt2PreTokenize, UsesUnicodeWhitespaceNotIsspace) {
  // Both as the `tokenizers` library splits them (pre_tokenize_str): U+00A0 is
  // \s, U+001C is not (Python's str.isspace() says it is; the regex engines
  // that define GPT-2's behaviour do not).
  EXPECT_EQ(gpt2_pre_tokenize("a \u00A0b"), (Pieces{"a", " ", "\u00A0", "b"}));
  EXPECT_EQ(gpt2_pre_tokenize("a\x1c\x1c"
                              "b"),
            (Pieces{"a", "\x1c\x1c", "b"}));
  EXPECT_EQ(gpt2_pre_tokenize("ideographic\u3000\u3000space"), (Pieces{"ideographic", "\u3000", "\u3000", "space"}));
  EXPECT_EQ(gpt2_pre_tokenize("x\t\t y"), (Pieces{"x", "\t\t", " y"}));
}

TEST(Gpt2PreTokenize, KeepsInvalidUtf8BytesAsOtherCharacters) {
  // Each bad byte counts as U+FFFD (neither letter, number nor space).
  EXPECT_EQ(gpt2_pre_tokenize("ab\xff\xfe"
                              "cd"),
            (Pieces{"ab", "\xff\xfe", "cd"}));
  EXPECT_EQ(gpt2_pre_tokenize(" \xc3"
                              "x"),
            (Pieces{" \xc3", "x"}));                                       // a lead byte without its continuation
  EXPECT_EQ(gpt2_pre_tokenize("\xed\xa0\x80"), (Pieces{"\xed\xa0\x80"}));  // a surrogate: three bad bytes
}

// ------------------------------------------------------------- tiny model

// All 256 byte characters with their byte as id, and six merges, in
// priority order: "Ġt"=256, "he"=257, "Ġthe"=258, "ll"=259, "ell"=260, "th"=261.
const char* const kTinyMerges = "#version: 0.2\nĠ t\nh e\nĠt he\nl l\ne ll\nt h\n";

Json tiny_vocab() {
  Json vocab = Json::object();
  for (int byte = 0; byte < 256; ++byte) vocab[token_of_byte(static_cast<unsigned char>(byte))] = byte;
  vocab["Ġt"] = 256;
  vocab["he"] = 257;
  vocab["Ġthe"] = 258;
  vocab["ll"] = 259;
  vocab["ell"] = 260;
  vocab["th"] = 261;
  return vocab;
}

Json tiny_tokenizer_json(const Json& merges) {
  return Json{{"version", "1.0"},
              {"normalizer", nullptr},
              {"pre_tokenizer", {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", true}}},
              {"model", {{"type", "BPE"}, {"dropout", nullptr}, {"vocab", tiny_vocab()}, {"merges", merges}}}};
}

class TinyBpe : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file(folder_.path() / "vocab.json", tiny_vocab().dump());
    write_file(folder_.path() / "merges.txt", kTinyMerges);
  }
  fs::path path(const std::string& name) const { return folder_.path() / name; }
  BpeTokenizer tokenizer() const { return BpeTokenizer::from_folder(folder_.path()); }

 private:
  rooflab::testing::TempFolder folder_{"bpe-tokenizer"};
};

TEST_F(TinyBpe, MergesByRankNotByPosition) {
  const BpeTokenizer bpe = tokenizer();
  // "the": "h e" (rank 1) goes before "t h" (rank 5), though "t h" comes
  // first in the text, and "t he" is no merge. " hello": "h e" takes the 'e'
  // before "l l" (rank 3) can lead to "e ll". " the": "Ġ t" first, then
  // "h e", then "Ġt he".
  EXPECT_EQ(bpe.encode("the hello the"), (Ids{'t', 257, ' ', 257, 259, 'o', 258}));
  EXPECT_EQ(bpe.encode("bell"), (Ids{'b', 260}));  // "l l", then "e ll"
  EXPECT_EQ(bpe.encode("lll"), (Ids{259, 'l'}));   // equal ranks: the leftmost first
  EXPECT_EQ(bpe.encode("thing"), (Ids{261, 'i', 'n', 'g'}));
  EXPECT_EQ(bpe.encode(""), Ids{});
}

TEST_F(TinyBpe, RoundTripsAnyBytes) {
  const BpeTokenizer bpe = tokenizer();
  std::string every_byte;
  Ids byte_ids;
  for (int byte = 0; byte < 256; ++byte) {
    every_byte += static_cast<char>(byte);
    byte_ids.push_back(byte);
  }
  EXPECT_EQ(bpe.encode(every_byte), byte_ids);  // no merge applies to them in this order
  for (const std::string& text : {std::string("Hello, the world! 123"), std::string("émigré Ελληνικά 中文字符"),
                                  std::string("😀👍🏽 🇫🇷!!"), std::string("tabs\t\tand\r\nlines\n\n  "),
                                  std::string("\x00\x01\x7f\xff\xfe", 5), every_byte}) {
    EXPECT_EQ(bpe.decode(bpe.encode(text)), text) << text;
  }
}

TEST_F(TinyBpe, LongPiecesStayCheap) {
  // One piece of 200,000 letters: a merge loop that rescans the piece after
  // every merge would take minutes here; the priority queue takes milliseconds.
  const BpeTokenizer bpe = tokenizer();
  const Ids ids = bpe.encode(std::string(200000, 'l'));
  ASSERT_EQ(ids.size(), 100000u);
  EXPECT_EQ(ids.front(), 259);
  EXPECT_EQ(ids.back(), 259);
}

TEST_F(TinyBpe, AnswersVocabularyQuestions) {
  const BpeTokenizer bpe = tokenizer();
  EXPECT_EQ(bpe.vocab_size(), 262);
  EXPECT_EQ(bpe.id_of("Ġthe"), std::optional<std::int64_t>(258));
  EXPECT_EQ(bpe.id_of("Ċ"), std::optional<std::int64_t>('\n'));
  EXPECT_EQ(bpe.id_of("the"), std::nullopt);
  EXPECT_EQ(bpe.decode({258, 'r', 'e'}), " there");
}

TEST_F(TinyBpe, ReadsBothFormatsOfTokenizerJsonMerges) {
  // Older `tokenizers` versions wrote merges as "a b", newer ones as ["a", "b"].
  Json as_strings = Json::array(), as_pairs = Json::array();
  for (const auto& [left, right] : std::vector<std::pair<std::string, std::string>>{
           {"Ġ", "t"}, {"h", "e"}, {"Ġt", "he"}, {"l", "l"}, {"e", "ll"}, {"t", "h"}}) {
    as_strings.push_back(left + " " + right);
    as_pairs.push_back(Json::array({left, right}));
  }
  write_file(path("strings.json"), tiny_tokenizer_json(as_strings).dump());
  write_file(path("pairs.json"), tiny_tokenizer_json(as_pairs).dump());
  const std::string text = "the hello, the bell, thing";
  const Ids expected = BpeTokenizer::from_files(path("vocab.json"), path("merges.txt")).encode(text);
  EXPECT_EQ(BpeTokenizer::from_tokenizer_json(path("strings.json")).encode(text), expected);
  EXPECT_EQ(BpeTokenizer::from_tokenizer_json(path("pairs.json")).encode(text), expected);
}

TEST_F(TinyBpe, FromFolderFallsBackToTokenizerJson) {
  const rooflab::testing::TempFolder only_json("bpe-tokenizer-json");
  write_file(only_json.path() / "tokenizer.json", tiny_tokenizer_json(Json::array({"Ġ t", "h e", "Ġt he"})).dump());
  write_file(only_json.path() / "vocab.json", "{ this file alone is not enough, and is not read");
  EXPECT_EQ(BpeTokenizer::from_folder(only_json.path()).encode(" the"), Ids{258});
}

TEST_F(TinyBpe, EncodeNamesAByteWithoutAToken) {
  Json vocab = tiny_vocab();
  vocab.erase(token_of_byte('\n'));
  write_file(path("vocab.json"), vocab.dump());
  write_file(path("merges.txt"), "");
  const BpeTokenizer bpe = tokenizer();
  EXPECT_EQ(bpe.encode("ok"), (Ids{'o', 'k'}));
  const std::string message = message_of<std::runtime_error>([&] { bpe.encode("a\nb"); });
  EXPECT_NE(message.find("byte 10 (U+010A)"), std::string::npos) << message;
}

// ------------------------------------------------------------------ errors

TEST_F(TinyBpe, ErrorsNameTheMergesLine) {
  write_file(path("merges.txt"), "#version: 0.2\nĠ t\nhe\n");
  std::string message = message_of<std::runtime_error>([&] { tokenizer(); });
  EXPECT_NE(message.find(path("merges.txt").string() + ":3:"), std::string::npos) << message;
  EXPECT_NE(message.find("\"he\""), std::string::npos) << message;

  write_file(path("merges.txt"), "Ġ t\nh ezz\n");
  message = message_of<std::runtime_error>([&] { tokenizer(); });
  EXPECT_NE(message.find(path("merges.txt").string() + ":2:"), std::string::npos) << message;
  EXPECT_NE(message.find("\"ezz\" is not in the vocabulary"), std::string::npos) << message;

  write_file(path("merges.txt"), "a b\n");  // both parts are tokens; "ab" is not
  message = message_of<std::runtime_error>([&] { tokenizer(); });
  EXPECT_NE(message.find(":1:"), std::string::npos) << message;
  EXPECT_NE(message.find("its result \"ab\""), std::string::npos) << message;

  write_file(path("merges.txt"), "Ġ  t\n");  // two spaces: three parts
  message = message_of<std::runtime_error>([&] { tokenizer(); });
  EXPECT_NE(message.find(":1:"), std::string::npos) << message;
}

TEST_F(TinyBpe, ErrorsNameTheVocabularyFileAndField) {
  const std::string vocab_json = path("vocab.json").string();
  write_file(path("vocab.json"), "{\"a\": 1,");
  std::string message = message_of<std::runtime_error>([&] { tokenizer(); });
  EXPECT_NE(message.find(vocab_json + ": invalid JSON"), std::string::npos) << message;

  write_file(path("vocab.json"), "{\"a\": 1, \"b\": \"2\"}");
  message = message_of<std::runtime_error>([&] { tokenizer(); });
  EXPECT_NE(message.find(vocab_json + ": \"b\""), std::string::npos) << message;

  write_file(path("vocab.json"), "{\"a\": 1, \"b\": 2.5}");
  message = message_of<std::runtime_error>([&] { tokenizer(); });
  EXPECT_NE(message.find(vocab_json + ": \"b\""), std::string::npos) << message;

  write_file(path("vocab.json"), "{\"a\": 7, \"b\": 7}");
  message = message_of<std::runtime_error>([&] { tokenizer(); });
  EXPECT_NE(message.find(vocab_json + ": id 7 is given to both \"a\" and \"b\""), std::string::npos) << message;
}

TEST_F(TinyBpe, ErrorsNameAMissingFileOrFolder) {
  const fs::path missing = path("no-such-vocab.json");
  std::string message = message_of<std::runtime_error>([&] { BpeTokenizer::from_files(missing, path("merges.txt")); });
  EXPECT_NE(message.find(missing.string() + ": no such file"), std::string::npos) << message;

  const rooflab::testing::TempFolder empty("bpe-tokenizer-empty");
  message = message_of<std::runtime_error>([&] { BpeTokenizer::from_folder(empty.path()); });
  for (const char* named : {"vocab.json", "merges.txt", "tokenizer.json"})
    EXPECT_NE(message.find(named), std::string::npos) << message;
  EXPECT_EQ(message.rfind(empty.path().string(), 0), 0u) << message;
}

TEST_F(TinyBpe, ErrorsNameTheTokenizerJsonField) {
  const auto error_for = [&](Json document) {
    write_file(path("tokenizer.json"), document.dump());
    return message_of<std::runtime_error>([&] { BpeTokenizer::from_tokenizer_json(path("tokenizer.json")); });
  };
  const std::string file = path("tokenizer.json").string();
  Json document = tiny_tokenizer_json(Json::array({"Ġ t"}));
  document["model"].erase("vocab");
  EXPECT_NE(error_for(document).find(file + ": model.vocab"), std::string::npos);

  document = tiny_tokenizer_json(Json::array({"Ġ t"}));
  document["model"].erase("merges");
  EXPECT_NE(error_for(document).find(file + ": model.merges"), std::string::npos);

  document = tiny_tokenizer_json(Json::array({"Ġ t"}));
  document["model"]["type"] = "WordPiece";
  EXPECT_NE(error_for(document).find(file + ": model.type: \"WordPiece\""), std::string::npos);

  document = tiny_tokenizer_json(Json::array({Json::array({"Ġ"})}));
  EXPECT_NE(error_for(document).find(file + ": model.merges[0]"), std::string::npos);

  document = tiny_tokenizer_json(Json::array({"Ġ t", "q zz"}));
  EXPECT_NE(error_for(document).find(file + ": model.merges[1]"), std::string::npos);

  document = tiny_tokenizer_json(Json::array({"Ġ t"}));
  document["model"]["vocab"]["Ġt"] = "256";
  EXPECT_NE(error_for(document).find(file + ": model.vocab: \"Ġt\""), std::string::npos);

  document = tiny_tokenizer_json(Json::array({"Ġ t"}));
  document["pre_tokenizer"] = {{"type", "Metaspace"}};
  EXPECT_NE(error_for(document).find(file + ": pre_tokenizer"), std::string::npos);

  document = tiny_tokenizer_json(Json::array({"Ġ t"}));
  document["pre_tokenizer"]["add_prefix_space"] = true;
  EXPECT_NE(error_for(document).find(file + ": pre_tokenizer.add_prefix_space"), std::string::npos);

  write_file(path("tokenizer.json"), "[1, 2");
  const std::string message =
      message_of<std::runtime_error>([&] { BpeTokenizer::from_tokenizer_json(path("tokenizer.json")); });
  EXPECT_NE(message.find(file + ": invalid JSON"), std::string::npos) << message;
}

TEST_F(TinyBpe, DecodeNamesAnUnknownId) {
  const BpeTokenizer bpe = tokenizer();
  std::string message = message_of<std::out_of_range>([&] { bpe.decode({'a', 99999}); });
  EXPECT_NE(message.find("id 99999"), std::string::npos) << message;
  message = message_of<std::out_of_range>([&] { bpe.decode({-1}); });
  EXPECT_NE(message.find("id -1"), std::string::npos) << message;
}

// ------------------------------------------- parity with `tokenizers`

struct FixtureCase {
  std::string text;
  std::vector<std::string> pieces;
  Ids ids;
};

std::vector<FixtureCase> fixture_cases() {
  std::ifstream in(kFixture / "expected.json");
  EXPECT_TRUE(in.good()) << "no fixture at " << kFixture << " (tools/checkpoints/make_tokenizer_fixture.py makes it)";
  std::vector<FixtureCase> cases;
  if (!in) return cases;
  for (const Json& entry : Json::parse(in)) {
    cases.push_back({entry.at("text").get<std::string>(), entry.at("pieces").get<std::vector<std::string>>(),
                     entry.at("ids").get<Ids>()});
  }
  EXPECT_GE(cases.size(), 8u);
  return cases;
}

TEST(BpeTokenizerParity, PreTokenizesAsTheLibraryDoes) {
  for (const FixtureCase& fixture : fixture_cases()) {
    const Pieces pieces = gpt2_pre_tokenize(fixture.text);
    EXPECT_EQ(std::vector<std::string>(pieces.begin(), pieces.end()), fixture.pieces) << fixture.text;
  }
}

TEST(BpeTokenizerParity, EncodesAsTheLibraryDoesFromBothFormats) {
  const BpeTokenizer from_vocab_and_merges = BpeTokenizer::from_folder(kFixture);  // the folder has all three files
  const BpeTokenizer from_tokenizer_json = BpeTokenizer::from_tokenizer_json(kFixture / "tokenizer.json");
  EXPECT_EQ(from_vocab_and_merges.vocab_size(), from_tokenizer_json.vocab_size());
  for (const FixtureCase& fixture : fixture_cases()) {
    EXPECT_EQ(from_vocab_and_merges.encode(fixture.text), fixture.ids) << fixture.text;
    EXPECT_EQ(from_tokenizer_json.encode(fixture.text), fixture.ids) << fixture.text;
    EXPECT_EQ(from_vocab_and_merges.decode(fixture.ids), fixture.text);
    EXPECT_EQ(from_tokenizer_json.decode(from_tokenizer_json.encode(fixture.text)), fixture.text);
  }
}

TEST(BpeTokenizerParity, EncodesTheSameFromSeveralThreads) {
  const BpeTokenizer tokenizer = BpeTokenizer::from_folder(kFixture);
  const std::vector<FixtureCase> cases = fixture_cases();
  std::vector<std::vector<Ids>> results(4);
  std::vector<std::thread> threads;
  for (auto& result : results) {
    threads.emplace_back([&tokenizer, &cases, &result] {
      for (int round = 0; round < 20; ++round)
        for (const FixtureCase& fixture : cases) result.push_back(tokenizer.encode(fixture.text));
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (const auto& result : results) {
    ASSERT_EQ(result.size(), 20 * cases.size());
    for (std::size_t i = 0; i < result.size(); ++i) EXPECT_EQ(result[i], cases[i % cases.size()].ids);
  }
}

}  // namespace
}  // namespace rooflab
