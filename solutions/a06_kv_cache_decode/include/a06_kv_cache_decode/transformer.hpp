// A GPT-2-shaped transformer in fp32 (provided): token and learned position
// embeddings, pre-norm layers (layer norm, attention, layer norm, GELU MLP,
// each with its residual), a final layer norm and an LM head tied to the
// token embedding. Its weights are random but reproducible from a seed:
// decoding speed does not depend on what the weights say. Its big matrices
// may also be held in fp16 or bf16 (WeightFormat), as a checkpoint stores
// them; the arithmetic stays fp32.
//
// Decoding runs through your KV cache and decode attention: step() appends
// each new token's keys and values to every layer's cache and attends from
// its query to everything cached. full_logits() recomputes a sequence from
// scratch with no cache, the yardstick the tests hold step() to.
#pragma once

#include <cstdint>
#include <vector>

#include "a06_kv_cache_decode/kv_cache.hpp"
#include "a06_kv_cache_decode/weight_layout.hpp"

namespace a06_kv_cache_decode {

struct ModelConfig {
  std::int64_t layers = 12, d_model = 768, heads = 12, kv_heads = 12, d_ff = 3072;
  std::int64_t vocab = 50257, context = 1024;
  std::int64_t head_dim() const { return d_model / heads; }
};

// How a model holds its big matrices (qkv, out, up, down and the token
// embedding, which is also the LM head): fp32, or the 16 bits of fp16 or bf16
// that a checkpoint stored, widened to fp32 as each is read, so that a step
// reads half the bytes. The arithmetic is fp32 either way, and a 16-bit value
// widens exactly: the logits do not change.
enum class WeightFormat : std::int32_t { f32 = 0, f16 = 1, bf16 = 2 };

// The four matrices (y = x·W + bias) are held in tile order, block by block
// as the decode kernels read them (weight_layout.hpp: to_tiled and
// to_row_major convert, tiled_index finds one element); the rest row-major,
// but for the token embedding (Model below).
struct LayerWeights {
  std::vector<float> norm1_scale, norm1_shift;  // (d_model)
  std::vector<float> qkv, qkv_bias;             // (d_model, d_model + 2·kv_heads·head_dim), tiled
  std::vector<float> out, out_bias;             // (d_model, d_model), tiled
  std::vector<float> norm2_scale, norm2_shift;  // (d_model)
  std::vector<float> up, up_bias;               // (d_model, d_ff), tiled
  std::vector<float> down, down_bias;           // (d_ff, d_model), tiled
  // With Model::format f16 or bf16: qkv, out, up and down as 16-bit values,
  // the float vectors above then empty (biases and norms stay fp32).
  std::vector<std::uint16_t> qkv_16, out_16, up_16, down_16;
};

struct Model {
  ModelConfig config;
  // The token embedding E (vocab × d_model), held as the LM head reads it:
  // Eᵀ (d_model × vocab) in tile order, logits = h·Eᵀ. Token t's embedding is
  // column t: element (i, t) is at tiled_index(d_model, vocab, i, t), and
  // transposed_to_tiled(E, d_model, vocab) converts E to it.
  std::vector<float> token_embedding;
  std::vector<float> position_embedding;  // (context, d_model)
  std::vector<LayerWeights> layers;
  std::vector<float> final_scale, final_shift;  // (d_model)
  WeightFormat format = WeightFormat::f32;
  std::vector<std::uint16_t> token_embedding_16;  // with f16 or bf16: the token embedding, token_embedding empty
};

// "fp32", "fp16" or "bf16".
const char* weight_format_name(WeightFormat format);

// The model with its big matrices held in `format` (f16 or bf16), each value
// rounded to nearest, ties to even (exact for values that were widened from
// that format, as a checkpoint's are); f32 widens them back. Throws
// std::invalid_argument naming format for a value outside the enum.
Model with_weight_format(Model model, WeightFormat format);

// Bytes the model's weights take in memory: the big matrices at their
// format's 2 or 4 bytes a value, the rest at 4. A decode step reads nearly
// all of them (every matrix, and the token embedding as the LM head): what
// `rooflab generate` divides the bandwidth by.
std::uint64_t weight_bytes(const Model& model);

// How many of those values the model holds in 16 bits (0 in fp32): each one
// two bytes fewer than fp32 reads.
std::uint64_t values_held_in_16_bits(const Model& model);

// Weights ~ N(0, 0.02²) from `seed` (norm scales 1, shifts and biases 0).
// Throws std::invalid_argument naming layers, d_model, heads, kv_heads, d_ff,
// vocab or context when one is not positive, or when heads does not divide
// d_model or kv_heads does not divide heads.
Model random_model(const ModelConfig& config, std::uint64_t seed);

// Every layer's cache for a batch of sequences: contiguous (capacity tokens
// each) or paged (pages of page_size tokens, pool of as many as capacity
// needs, in a shuffled order). make_decode_state throws std::invalid_argument
// naming sequences, capacity or (paged) page_size when one is not positive.
struct DecodeState {
  bool paged = false;
  std::vector<ContiguousKvCache> contiguous;  // one per layer
  std::vector<PagedKvCache> pages;            // one per layer
};
DecodeState make_decode_state(const ModelConfig& config, std::int64_t sequences, std::int64_t capacity, bool paged,
                              std::int64_t page_size = 16);

// One decode step: tokens[s] is sequence s's next token, or −1 where sequence s
// sits this step out. Returns (sequences × vocab) logits, a row of zeros for a
// sequence that sat out. Throws std::invalid_argument naming tokens (wrong
// count, or a token outside the vocabulary) or context (a sequence full).
std::vector<float> step(const Model& model, DecodeState& state, const std::vector<std::int64_t>& tokens);

// Several positions of one sequence in one forward pass: tokens[i] goes to
// position L + i (L: what the sequence holds), appends its keys and values to
// every layer's cache and attends to the cache up to itself. Returns
// (tokens.size() × vocab) logits, row i the logits after tokens[i]. It is
// speculative decoding's verification pass: the target reads its weights once
// for all the draft's tokens. Throws std::invalid_argument naming sequence
// (not in [0, sequences)), tokens (none, or one outside the vocabulary) or
// context (the sequence would pass it).
std::vector<float> extend(const Model& model, DecodeState& state, std::int64_t sequence,
                          const std::vector<std::int64_t>& tokens);

// Forgets the tokens of `sequence` from position `length` on, in every
// layer's cache: speculative decoding's rollback past a rejected draft token.
// It is your truncate() (kv_cache.hpp) on each layer's cache. Throws std::invalid_argument naming sequence (not in
// [0, sequences)) or length (negative, or more than the sequence holds).
void rollback(DecodeState& state, std::int64_t sequence, std::int64_t length);

// The logits after the last of `tokens`, recomputed from scratch with no
// cache: plain causal attention over the whole sequence. Throws
// std::invalid_argument naming tokens unless 1 <= tokens.size() <= context.
std::vector<float> full_logits(const Model& model, const std::vector<std::int64_t>& tokens);

}  // namespace a06_kv_cache_decode
