// Provided: the GPT-2-shaped transformer of transformer.hpp. Its linear layers
// read each weight once per step whatever the batch (the batch's rows ride
// along), so a decode step costs what the roofline says it should: the
// weights' bytes, plus the cache's. (Prefill here is a step per prompt token;
// a batched prefill would use a05's flash attention.)
#include "a06_kv_cache_decode/transformer.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>

#include "a06_kv_cache_decode/decode_attention.hpp"
#include "rooflab/call_counts.hpp"

namespace a06_kv_cache_decode {
namespace {

// A model size that must be at least 1.
void require_size(std::int64_t value, const char* name) {
  if (value <= 0) throw std::invalid_argument(std::string(name) + ": must be positive");
}

void require_valid(const ModelConfig& c) {
  require_size(c.layers, "layers");
  require_size(c.d_model, "d_model");
  require_size(c.heads, "heads");
  require_size(c.kv_heads, "kv_heads");
  require_size(c.d_ff, "d_ff");
  require_size(c.vocab, "vocab");
  require_size(c.context, "context");
  if (c.d_model % c.heads != 0) throw std::invalid_argument("heads: must divide d_model");
  if (c.heads % c.kv_heads != 0) throw std::invalid_argument("kv_heads: must divide heads");
}

std::int64_t kv_width(const ModelConfig& c) { return c.kv_heads * c.head_dim(); }

std::vector<float> normal(std::size_t count, std::mt19937_64& engine, float scale = 0.02f) {
  std::vector<float> values(count);
  std::normal_distribution<float> distribution(0.0f, scale);
  for (float& v : values) v = distribution(engine);
  return values;
}

// y (rows × out) = x (rows × in) · W (in × out) + b, reading W once from
// start to end whatever the batch: each thread streams a contiguous band of
// W's rows (the hardware prefetcher's best case) into its own partial sums,
// and the partial sums are added at the end. Decoding's few rows ride along.
void linear(const float* x, std::int64_t rows, const std::vector<float>& w, const std::vector<float>& b,
            std::int64_t in, std::int64_t out, float* y) {
  const int threads = omp_get_max_threads();
  std::vector<float> partial(static_cast<std::size_t>(threads) * static_cast<std::size_t>(rows * out), 0.0f);
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num(), count = omp_get_num_threads();
    const std::int64_t begin = in * t / count, end = in * (t + 1) / count;
    float* sums = partial.data() + static_cast<std::ptrdiff_t>(t) * rows * out;
    for (std::int64_t i = begin; i < end; ++i) {
      const float* w_row = w.data() + i * out;
      for (std::int64_t r = 0; r < rows; ++r) {
        const float xi = x[r * in + i];
        float* sum = sums + r * out;
#pragma omp simd
        for (std::int64_t j = 0; j < out; ++j) sum[j] += xi * w_row[j];
      }
    }
  }
  for (std::int64_t r = 0; r < rows; ++r) {
    float* y_row = y + r * out;
    std::copy(b.data(), b.data() + out, y_row);
    for (int t = 0; t < threads; ++t) {
      const float* sum = partial.data() + (static_cast<std::ptrdiff_t>(t) * rows + r) * out;
      for (std::int64_t j = 0; j < out; ++j) y_row[j] += sum[j];
    }
  }
}

void layer_norm(const float* x, std::int64_t rows, std::int64_t d, const std::vector<float>& scale,
                const std::vector<float>& shift, float* y) {
  for (std::int64_t r = 0; r < rows; ++r) {
    const float* row = x + r * d;
    double mean = 0, variance = 0;
    for (std::int64_t i = 0; i < d; ++i) mean += row[i];
    mean /= static_cast<double>(d);
    for (std::int64_t i = 0; i < d; ++i) variance += (row[i] - mean) * (row[i] - mean);
    const auto inverse = static_cast<float>(1.0 / std::sqrt(variance / static_cast<double>(d) + 1e-5));
    for (std::int64_t i = 0; i < d; ++i)
      y[r * d + i] = (row[i] - static_cast<float>(mean)) * inverse * scale[static_cast<std::size_t>(i)] +
                     shift[static_cast<std::size_t>(i)];
  }
}

// GPT-2's GELU, the tanh approximation.
float gelu(float x) { return 0.5f * x * (1.0f + std::tanh(0.7978845608f * (x + 0.044715f * x * x * x))); }

// logits (rows × vocab) = h · Eᵀ: the LM head, tied to the token embedding.
void lm_head(const Model& model, const float* h, std::int64_t rows, float* logits) {
  const std::int64_t d = model.config.d_model, vocab = model.config.vocab;
#pragma omp parallel for schedule(static)
  for (std::int64_t v = 0; v < vocab; ++v) {
    const float* e = model.token_embedding.data() + v * d;
    for (std::int64_t r = 0; r < rows; ++r) {
      float dot = 0.0f;
#pragma omp simd reduction(+ : dot)
      for (std::int64_t i = 0; i < d; ++i) dot += h[r * d + i] * e[i];
      logits[r * vocab + v] = dot;
    }
  }
}

// Everything a layer does to x (rows × d_model) in place, given what its
// attention returns for the normalised rows' queries, keys and values.
template <class Attend>
void run_layer(const Model& model, const LayerWeights& layer, float* x, std::int64_t rows, Attend attend) {
  const ModelConfig& c = model.config;
  const std::int64_t d = c.d_model, width = d + 2 * kv_width(c);
  std::vector<float> normed(static_cast<std::size_t>(rows * d)), qkv(static_cast<std::size_t>(rows * width));
  std::vector<float> attended(static_cast<std::size_t>(rows * d)), projected(static_cast<std::size_t>(rows * d));
  layer_norm(x, rows, d, layer.norm1_scale, layer.norm1_shift, normed.data());
  linear(normed.data(), rows, layer.qkv, layer.qkv_bias, d, width, qkv.data());
  attend(qkv.data(), width, attended.data());
  linear(attended.data(), rows, layer.out, layer.out_bias, d, d, projected.data());
  for (std::int64_t i = 0; i < rows * d; ++i) x[i] += projected[static_cast<std::size_t>(i)];

  std::vector<float> hidden(static_cast<std::size_t>(rows * c.d_ff));
  layer_norm(x, rows, d, layer.norm2_scale, layer.norm2_shift, normed.data());
  linear(normed.data(), rows, layer.up, layer.up_bias, d, c.d_ff, hidden.data());
  for (float& h : hidden) h = gelu(h);
  linear(hidden.data(), rows, layer.down, layer.down_bias, c.d_ff, d, projected.data());
  for (std::int64_t i = 0; i < rows * d; ++i) x[i] += projected[static_cast<std::size_t>(i)];
}

void embed(const Model& model, std::int64_t token, std::int64_t position, float* x) {
  const std::int64_t d = model.config.d_model;
  for (std::int64_t i = 0; i < d; ++i)
    x[i] = model.token_embedding[static_cast<std::size_t>(token * d + i)] +
           model.position_embedding[static_cast<std::size_t>(position * d + i)];
}

}  // namespace

Model random_model(const ModelConfig& config, std::uint64_t seed) {
  require_valid(config);
  const std::int64_t d = config.d_model, width = d + 2 * kv_width(config);
  std::mt19937_64 engine(seed);
  Model model;
  model.config = config;
  model.token_embedding = normal(static_cast<std::size_t>(config.vocab * d), engine);
  model.position_embedding = normal(static_cast<std::size_t>(config.context * d), engine, 0.01f);
  const auto ones = std::vector<float>(static_cast<std::size_t>(d), 1.0f);
  const auto zeros = [](std::int64_t n) { return std::vector<float>(static_cast<std::size_t>(n), 0.0f); };
  for (std::int64_t l = 0; l < config.layers; ++l) {
    LayerWeights layer;
    layer.norm1_scale = ones;
    layer.norm1_shift = zeros(d);
    layer.qkv = normal(static_cast<std::size_t>(d * width), engine);
    layer.qkv_bias = zeros(width);
    layer.out = normal(static_cast<std::size_t>(d * d), engine);
    layer.out_bias = zeros(d);
    layer.norm2_scale = ones;
    layer.norm2_shift = zeros(d);
    layer.up = normal(static_cast<std::size_t>(d * config.d_ff), engine);
    layer.up_bias = zeros(config.d_ff);
    layer.down = normal(static_cast<std::size_t>(config.d_ff * d), engine);
    layer.down_bias = zeros(d);
    model.layers.push_back(std::move(layer));
  }
  model.final_scale = ones;
  model.final_shift = zeros(d);
  return model;
}

DecodeState make_decode_state(const ModelConfig& config, std::int64_t sequences, std::int64_t capacity, bool paged,
                              std::int64_t page_size) {
  require_valid(config);
  // Checked here, before the pool's size divides by them (the caches check them too).
  if (sequences <= 0) throw std::invalid_argument("sequences: must be positive");
  if (capacity <= 0) throw std::invalid_argument("capacity: must be positive");
  if (paged && page_size <= 0) throw std::invalid_argument("page_size: must be positive");
  DecodeState state;
  state.paged = paged;
  for (std::int64_t l = 0; l < config.layers; ++l) {
    if (!paged) {
      state.contiguous.push_back(make_contiguous_cache(sequences, config.kv_heads, config.head_dim(), capacity));
      continue;
    }
    // Enough pages for every sequence at full capacity, handed out shuffled.
    std::vector<std::int64_t> pool(static_cast<std::size_t>(sequences * ((capacity + page_size - 1) / page_size)));
    std::iota(pool.begin(), pool.end(), 0);
    std::shuffle(pool.begin(), pool.end(), std::mt19937_64(static_cast<std::uint64_t>(l) + 1));
    state.pages.push_back(make_paged_cache(sequences, config.kv_heads, config.head_dim(), page_size, pool));
  }
  return state;
}

std::vector<float> step(const Model& model, DecodeState& state, const std::vector<std::int64_t>& tokens) {
  rooflab::count_call("a06_kv_cache_decode::step");  // a decode loop's tests count these
  const ModelConfig& c = model.config;
  const std::int64_t d = c.d_model, hd = c.head_dim(), kv = kv_width(c);
  const auto sequences = static_cast<std::int64_t>(state.paged ? state.pages.front().lengths.size()
                                                               : state.contiguous.front().lengths.size());
  if (static_cast<std::int64_t>(tokens.size()) != sequences)
    throw std::invalid_argument("tokens: one per sequence (" + std::to_string(sequences) + "), −1 to sit out");
  const auto length = [&](std::int64_t s) {
    return state.paged ? state.pages.front().lengths[static_cast<std::size_t>(s)]
                       : state.contiguous.front().lengths[static_cast<std::size_t>(s)];
  };
  std::vector<std::int64_t> active;  // the sequences that take a step
  for (std::int64_t s = 0; s < sequences; ++s) {
    const std::int64_t token = tokens[static_cast<std::size_t>(s)];
    if (token == -1) continue;
    if (token < 0 || token >= c.vocab)
      throw std::invalid_argument("tokens: " + std::to_string(token) + " is not in the vocabulary");
    if (length(s) >= c.context) throw std::invalid_argument("context: sequence " + std::to_string(s) + " is full");
    active.push_back(s);
  }
  const auto rows = static_cast<std::int64_t>(active.size());
  std::vector<float> x(static_cast<std::size_t>(rows * d));
  for (std::int64_t r = 0; r < rows; ++r)
    embed(model, tokens[static_cast<std::size_t>(active[r])], length(active[r]), x.data() + r * d);

  for (std::size_t l = 0; l < model.layers.size(); ++l) {
    run_layer(model, model.layers[l], x.data(), rows, [&](const float* qkv, std::int64_t width, float* attended) {
      // Append each active row's key and value, then one query per sequence
      // (zeros for those sitting out: their rows are not used).
      Tensor4 q = rooflab::zeros(sequences, c.heads, 1, hd);
      for (std::int64_t r = 0; r < rows; ++r) {
        const float* row = qkv + r * width;
        std::copy(row, row + d, q.row(active[static_cast<std::size_t>(r)] * c.heads, 0));
        Tensor4 k{{1, c.kv_heads, 1, hd}, std::vector<float>(row + d, row + d + kv)};
        Tensor4 v{{1, c.kv_heads, 1, hd}, std::vector<float>(row + d + kv, row + d + 2 * kv)};
        if (state.paged)
          state.pages[l] = append(std::move(state.pages[l]), active[static_cast<std::size_t>(r)], k, v);
        else
          state.contiguous[l] = append(std::move(state.contiguous[l]), active[static_cast<std::size_t>(r)], k, v);
      }
      const DecodeResult result =
          state.paged ? decode_attention(q, state.pages[l], {}) : decode_attention(q, state.contiguous[l], {});
      for (std::int64_t r = 0; r < rows; ++r) {
        const float* out = result.output.row(active[static_cast<std::size_t>(r)] * c.heads, 0);
        std::copy(out, out + d, attended + r * d);
      }
    });
  }

  std::vector<float> normed(x.size()), active_logits(static_cast<std::size_t>(rows * c.vocab));
  layer_norm(x.data(), rows, d, model.final_scale, model.final_shift, normed.data());
  lm_head(model, normed.data(), rows, active_logits.data());
  std::vector<float> logits(static_cast<std::size_t>(sequences * c.vocab), 0.0f);
  for (std::int64_t r = 0; r < rows; ++r)
    std::copy(active_logits.begin() + r * c.vocab, active_logits.begin() + (r + 1) * c.vocab,
              logits.begin() + active[static_cast<std::size_t>(r)] * c.vocab);
  return logits;
}

std::vector<float> full_logits(const Model& model, const std::vector<std::int64_t>& tokens) {
  rooflab::count_call("a06_kv_cache_decode::full_logits");
  const ModelConfig& c = model.config;
  const std::int64_t d = c.d_model, hd = c.head_dim(), kv = kv_width(c), n = static_cast<std::int64_t>(tokens.size());
  const std::int64_t group = c.heads / c.kv_heads;
  if (n == 0 || n > c.context) throw std::invalid_argument("tokens: between 1 and context of them");
  std::vector<float> x(static_cast<std::size_t>(n * d));
  for (std::int64_t t = 0; t < n; ++t) embed(model, tokens[static_cast<std::size_t>(t)], t, x.data() + t * d);
  for (const LayerWeights& layer : model.layers) {
    run_layer(model, layer, x.data(), n, [&](const float* qkv, std::int64_t width, float* attended) {
      // Causal attention written out: row t sees keys 0…t.
      std::vector<double> scores(static_cast<std::size_t>(n));
      for (std::int64_t t = 0; t < n; ++t) {
        for (std::int64_t h = 0; h < c.heads; ++h) {
          const float* query = qkv + t * width + h * hd;
          const std::int64_t g = h / group;
          double top = -INFINITY;
          for (std::int64_t j = 0; j <= t; ++j) {
            const float* key = qkv + j * width + d + g * hd;
            double dot = 0;
            for (std::int64_t i = 0; i < hd; ++i) dot += double{query[i]} * key[i];
            scores[static_cast<std::size_t>(j)] = dot / std::sqrt(static_cast<double>(hd));
            top = std::max(top, scores[static_cast<std::size_t>(j)]);
          }
          double sum = 0;
          for (std::int64_t j = 0; j <= t; ++j)
            sum += (scores[static_cast<std::size_t>(j)] = std::exp(scores[static_cast<std::size_t>(j)] - top));
          for (std::int64_t i = 0; i < hd; ++i) {
            double o = 0;
            for (std::int64_t j = 0; j <= t; ++j)
              o += scores[static_cast<std::size_t>(j)] * qkv[j * width + d + kv + g * hd + i];
            attended[t * d + h * hd + i] = static_cast<float>(o / sum);
          }
        }
      }
    });
  }
  std::vector<float> normed(static_cast<std::size_t>(d)), logits(static_cast<std::size_t>(c.vocab));
  layer_norm(x.data() + (n - 1) * d, 1, d, model.final_scale, model.final_shift, normed.data());
  lm_head(model, normed.data(), 1, logits.data());
  return logits;
}

}  // namespace a06_kv_cache_decode
