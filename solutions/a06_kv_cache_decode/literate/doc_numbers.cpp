// Every number docs/07 quotes, from the reference: the memory a contiguous
// and a paged cache set aside for one ragged batch, measured on caches the
// reference fills, and what a decode step reads from the cache (a01's formula);
// and, decoding the small checkpoints of data/checkpoints/ for real, what the
// target continues a prompt with, its weights' bytes in fp32 and fp16, and
// speculative decoding's acceptance against a02's formula (greedy, so the
// counts are the same on every machine; times are not quoted).
#include <string>
#include <vector>

#include "a01_roofline/a01_roofline.hpp"
#include "a02_transformer_costs/a02_transformer_costs.hpp"
#include "a06_kv_cache_decode/a06_kv_cache_decode.hpp"
#include "doc_regions.hpp"
#include "gpt2_checkpoint.hpp"
#include "rooflab/bpe_tokenizer.hpp"
#include "rooflab/build_paths.hpp"
#include "speculative.hpp"
#include "text_generation.hpp"

namespace rooflab::docs {
namespace {

constexpr double kMiB = 1 << 20;
constexpr std::int64_t kKvHeads = 12, kHeadDim = 64;  // one GPT-2 small layer
const std::vector<std::int64_t> kLengths{1, 17, 339, 20000};

// Keys and values of `length` tokens for one sequence (their values do not matter here).
Tensor4 tokens(std::int64_t length) { return zeros(1, kKvHeads, length, kHeadDim); }

double contiguous_mib() {
  using namespace a06_kv_cache_decode;
  ContiguousKvCache cache =
      make_contiguous_cache(static_cast<std::int64_t>(kLengths.size()), kKvHeads, kHeadDim, 20000);
  for (std::size_t s = 0; s < kLengths.size(); ++s)
    cache = append(std::move(cache), static_cast<std::int64_t>(s), tokens(kLengths[s]), tokens(kLengths[s]));
  return static_cast<double>((cache.keys.size() + cache.values.size()) * sizeof(float)) / kMiB;
}

// The pages the batch's block tables hold, in MiB.
double paged_mib(std::int64_t page_size) {
  using namespace a06_kv_cache_decode;
  std::vector<std::int64_t> pages(static_cast<std::size_t>(20000 / page_size + 1 + 400 / page_size + 4));
  for (std::size_t p = 0; p < pages.size(); ++p) pages[p] = static_cast<std::int64_t>(p);
  PagedKvCache cache =
      make_paged_cache(static_cast<std::int64_t>(kLengths.size()), kKvHeads, kHeadDim, page_size, pages);
  for (std::size_t s = 0; s < kLengths.size(); ++s)
    cache = append(std::move(cache), static_cast<std::int64_t>(s), tokens(kLengths[s]), tokens(kLengths[s]));
  std::size_t used = 0;
  for (const auto& table : cache.block_tables) used += table.size();
  return static_cast<double>(used) * 2 * static_cast<double>(page_size * kKvHeads * kHeadDim) * sizeof(float) / kMiB;
}

std::string reserved_table() {
  double held = 0;
  for (const std::int64_t length : kLengths) held += static_cast<double>(length);
  held *= 2.0 * kKvHeads * kHeadDim * sizeof(float) / kMiB;
  std::string table = "| cache | MiB set aside | of which holds tokens |\n|---|---:|---:|\n";
  const auto row = [&](const std::string& name, double mib) {
    table += "| " + name + " | " + fmt("%.2f", mib) + " | " + fmt("%.1f", 100.0 * held / mib) + " % |\n";
  };
  row("contiguous, capacity 20000", contiguous_mib());
  for (const std::int64_t page_size : {256, 16, 1})
    row("paged, " + fmt("%.0f", double(page_size)) + "-token pages", paged_mib(page_size));
  return table;
}

// What one decode step reads from GPT-2 small's cache at `length` tokens, fp32.
double gpt2_cache_mib(double length) {
  a01_roofline::KvCacheShape shape;
  shape.seq_len = length;
  shape.num_layers = 12;
  shape.num_kv_heads = 12;
  shape.head_dim = 64;
  shape.bytes_per_element = 4;
  return a01_roofline::kv_cache_bytes(shape) / kMiB;
}

std::filesystem::path checkpoint(const char* name) { return build_paths::source_dir() / "data" / "checkpoints" / name; }

constexpr const char* kPrompt = "The model reads";
constexpr std::int64_t kSpeculativeTokens = 60;

// The target's greedy continuation of kPrompt, as text on one line.
std::string greedy_text() {
  const decode::Gpt2Checkpoint target = decode::load_gpt2_checkpoint(checkpoint("tiny-gpt2"));
  const BpeTokenizer tokenizer = BpeTokenizer::from_folder(checkpoint("tiny-gpt2"));
  decode::Sampler greedy({});
  std::string text =
      tokenizer.decode(decode::continue_prompt(target.model, tokenizer.encode(kPrompt), 24, greedy).tokens);
  for (char& c : text)
    if (c == '\n') c = ' ';
  return text;
}

double weight_mb(const char* name) {
  return static_cast<double>(decode::load_gpt2_checkpoint(checkpoint(name)).stored_weight_bytes) / 1e6;
}

// What the fp16 checkpoint's weights take in memory, kept 16-bit (true) or widened.
double held_mb(bool keep_16_bit) {
  return static_cast<double>(a06_kv_cache_decode::weight_bytes(
             decode::load_gpt2_checkpoint(checkpoint("tiny-gpt2-fp16"), keep_16_bit).model)) /
         1e6;
}

// Greedy speculative decoding of kSpeculativeTokens tokens after kPrompt, one
// row per k: the measured acceptance rate and tokens per target pass beside
// what a02's formula expects from that acceptance rate.
std::string speculative_table() {
  const decode::Gpt2Checkpoint target = decode::load_gpt2_checkpoint(checkpoint("tiny-gpt2"));
  const decode::Gpt2Checkpoint draft = decode::load_gpt2_checkpoint(checkpoint("tiny-gpt2-draft"));
  const std::vector<std::int64_t> prompt = BpeTokenizer::from_folder(checkpoint("tiny-gpt2")).encode(kPrompt);
  std::string table =
      "| k | acceptance rate α | target passes | tokens per pass | a02's (1 − α^(k+1)) / (1 − α) |\n"
      "|---:|---:|---:|---:|---:|\n";
  for (const std::int64_t k : {1, 2, 4, 8}) {
    const decode::SpeculativeRun run =
        decode::speculative_continue(target.model, draft.model, prompt, kSpeculativeTokens, k, {});
    table +=
        "| " + std::to_string(k) + " | " + fmt("%.2f", run.acceptance_rate()) + " | " +
        std::to_string(run.target_passes) + " | " + fmt("%.2f", run.tokens_per_pass()) + " | " +
        fmt("%.2f", a02_transformer_costs::expected_tokens_per_pass(run.acceptance_rate(), static_cast<double>(k))) +
        " |\n";
  }
  return table;
}

}  // namespace

void add_a06_kv_cache_decode_numbers(Values& values) {
  values["a06.real_greedy_text"] = [] { return greedy_text(); };
  values["a06.tiny_fp32_mb"] = [] { return fmt("%.2f", weight_mb("tiny-gpt2")); };
  values["a06.tiny_fp16_mb"] = [] { return fmt("%.2f", weight_mb("tiny-gpt2-fp16")); };
  values["a06.tiny_fp16_held_mb"] = [] { return fmt("%.2f", held_mb(true)); };
  values["a06.tiny_fp16_widened_mb"] = [] { return fmt("%.2f", held_mb(false)); };
  values["a06.tiny_fp16_bound_ratio"] = [] { return fmt("%.2f", held_mb(false) / held_mb(true)); };
  values["a06.speculative_table"] = [] { return speculative_table(); };
  values["a06.reserved_table"] = [] { return reserved_table(); };
  values["a06.gpt2_cache_1024_mib"] = [] { return fmt("%.1f", gpt2_cache_mib(1024)); };
  values["a06.gpt2_cache_token_kib"] = [] { return fmt("%.0f", gpt2_cache_mib(1) * 1024); };
}

}  // namespace rooflab::docs
