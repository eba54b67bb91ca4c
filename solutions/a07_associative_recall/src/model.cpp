// The attention-only transformer (provided): see model.hpp for the math. The
// forward pass keeps every layer's input, projections and attention; the
// backward pass walks the layers in reverse, each one's gradient flowing both
// straight down the residual stream and back through its attention.
#include "a07_associative_recall/model.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

#include "linear_algebra.hpp"

namespace a07_associative_recall {
namespace {

std::size_t at(std::int64_t index) { return static_cast<std::size_t>(index); }

// (B·N, D) rows → (B, H, N, d) heads: token n of sequence b, columns h·d … h·d+d−1.
Tensor4 split_heads(const std::vector<float>& x, std::int64_t sequences, std::int64_t tokens, std::int64_t heads,
                    std::int64_t head_dim) {
  Tensor4 t = rooflab::zeros(sequences, heads, tokens, head_dim);
  for (std::int64_t b = 0; b < sequences; ++b)
    for (std::int64_t h = 0; h < heads; ++h)
      for (std::int64_t n = 0; n < tokens; ++n)
        std::copy_n(x.data() + ((b * tokens + n) * heads + h) * head_dim, head_dim, t.row(b * heads + h, n));
  return t;
}

// The inverse: (B, H, N, d) → (B·N, D).
std::vector<float> merge_heads(const Tensor4& t) {
  const std::int64_t sequences = t.batch(), heads = t.heads(), tokens = t.rows(), head_dim = t.cols();
  std::vector<float> x(t.data.size());
  for (std::int64_t b = 0; b < sequences; ++b)
    for (std::int64_t h = 0; h < heads; ++h)
      for (std::int64_t n = 0; n < tokens; ++n)
        std::copy_n(t.row(b * heads + h, n), head_dim, x.data() + ((b * tokens + n) * heads + h) * head_dim);
  return x;
}

std::int64_t sequences_in(const ModelConfig& config, const std::vector<std::int64_t>& tokens) {
  const std::int64_t length = config.task.length();
  if (tokens.empty() || static_cast<std::int64_t>(tokens.size()) % length != 0)
    throw std::invalid_argument("tokens: holds " + std::to_string(tokens.size()) +
                                " tokens, not a positive multiple of the sequence length " + std::to_string(length));
  for (const std::int64_t token : tokens)
    if (token < 0 || token >= config.task.vocab())
      throw std::invalid_argument("tokens: " + std::to_string(token) + " is outside the vocabulary [0, " +
                                  std::to_string(config.task.vocab()) + ")");
  return static_cast<std::int64_t>(tokens.size()) / length;
}

// Runs the layers, returning x^L at every position (B·N, D).
std::vector<float> run_layers(const Model& model, const std::vector<std::int64_t>& tokens, std::int64_t sequences,
                              std::vector<LayerActivations>* keep) {
  const ModelConfig& config = model.config;
  const WeightLayout layout = weight_layout(config);
  const std::int64_t n = config.task.length(), dm = config.d_model, rows = sequences * n;
  const float* w = model.weights.data();
  std::vector<float> x(at(rows * dm));
  for (std::int64_t r = 0; r < rows; ++r) {
    const float* token = w + layout.token_embedding + tokens[at(r)] * dm;
    const float* position = w + layout.position_embedding + (r % n) * dm;
    for (std::int64_t c = 0; c < dm; ++c) x[at(r * dm + c)] = token[c] + position[c];
  }
  const std::vector<float> mask = causal_mask(n);
  std::vector<float> projected(at(rows * dm));
  for (std::int64_t l = 0; l < config.layers; ++l) {
    LayerActivations layer;
    layer.input = x;
    const auto project = [&](std::int64_t offset) {
      linear::matmul(x.data(), w + offset, projected.data(), rows, dm, dm);
      return split_heads(projected, sequences, n, config.heads, config.head_dim());
    };
    layer.q = project(layout.wq[at(l)]);
    layer.k = project(layout.wk[at(l)]);
    layer.v = project(layout.wv[at(l)]);
    layer.attention = attention_forward(layer.q, layer.k, layer.v, mask);
    const std::vector<float> mixed = merge_heads(layer.attention.output);
    linear::matmul(mixed.data(), w + layout.wo[at(l)], x.data(), rows, dm, dm, /*accumulate=*/true);  // residual
    if (keep) keep->push_back(std::move(layer));
  }
  return x;
}

}  // namespace

void require_valid(const ModelConfig& config) {
  require_valid(config.task);
  if (config.layers <= 0) throw std::invalid_argument("layers: must be positive");
  if (config.d_model <= 0) throw std::invalid_argument("d_model: must be positive");
  if (config.heads <= 0 || config.d_model % config.heads != 0)
    throw std::invalid_argument("heads: must be positive and divide d_model (" + std::to_string(config.d_model) + ")");
}

WeightLayout weight_layout(const ModelConfig& config) {
  require_valid(config);
  const std::int64_t dm = config.d_model;
  WeightLayout layout;
  std::int64_t next = 0;
  const auto take = [&next](std::int64_t count) {
    const std::int64_t start = next;
    next += count;
    return start;
  };
  layout.token_embedding = take(config.task.vocab() * dm);
  layout.position_embedding = take(config.task.length() * dm);
  for (std::int64_t l = 0; l < config.layers; ++l) {
    layout.wq.push_back(take(dm * dm));
    layout.wk.push_back(take(dm * dm));
    layout.wv.push_back(take(dm * dm));
    layout.wo.push_back(take(dm * dm));
  }
  layout.unembed = take(dm * config.task.vocab());
  layout.total = next;
  return layout;
}

Model init_model(const ModelConfig& config, std::uint64_t seed) {
  const WeightLayout layout = weight_layout(config);
  Model model{config, std::vector<float>(at(layout.total))};
  std::mt19937_64 engine(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  const auto fill = [&](std::int64_t start, std::int64_t count, float scale) {
    for (std::int64_t i = start; i < start + count; ++i) model.weights[at(i)] = normal(engine) * scale;
  };
  const std::int64_t dm = config.d_model;
  const float projection = 1.0f / std::sqrt(static_cast<float>(dm));
  fill(layout.token_embedding, config.task.vocab() * dm, 0.2f);
  fill(layout.position_embedding, config.task.length() * dm, 0.2f);
  for (std::int64_t l = 0; l < config.layers; ++l)
    for (const std::int64_t start : {layout.wq[at(l)], layout.wk[at(l)], layout.wv[at(l)], layout.wo[at(l)]})
      fill(start, dm * dm, projection);
  fill(layout.unembed, dm * config.task.vocab(), projection);
  return model;
}

ForwardPass forward(const Model& model, const std::vector<std::int64_t>& tokens) {
  const ModelConfig& config = model.config;
  ForwardPass pass;
  pass.sequences = sequences_in(config, tokens);
  pass.tokens = tokens;
  const std::vector<float> x = run_layers(model, tokens, pass.sequences, &pass.layers);
  const std::int64_t n = config.task.length(), dm = config.d_model, vocab = config.task.vocab();
  pass.last_hidden.resize(at(pass.sequences * dm));
  for (std::int64_t b = 0; b < pass.sequences; ++b)
    std::copy_n(x.data() + ((b + 1) * n - 1) * dm, dm, pass.last_hidden.data() + b * dm);
  pass.logits.resize(at(pass.sequences * vocab));
  linear::matmul(pass.last_hidden.data(), model.weights.data() + weight_layout(config).unembed, pass.logits.data(),
                 pass.sequences, dm, vocab);
  return pass;
}

std::vector<float> backward(const Model& model, const ForwardPass& pass, const std::vector<float>& d_logits) {
  const ModelConfig& config = model.config;
  const WeightLayout layout = weight_layout(config);
  const std::int64_t n = config.task.length(), dm = config.d_model, vocab = config.task.vocab();
  const std::int64_t sequences = pass.sequences, rows = sequences * n;
  if (static_cast<std::int64_t>(d_logits.size()) != sequences * vocab)
    throw std::invalid_argument("d_logits: must be (sequences × vocab)");
  const float* w = model.weights.data();
  std::vector<float> grads(at(layout.total), 0.0f);

  // logits = x_last·W_u: dW_u = x_lastᵀ·dlogits, dx_last = dlogits·W_uᵀ (other positions get 0).
  linear::matmul_transposed_a_accumulate(pass.last_hidden.data(), d_logits.data(), grads.data() + layout.unembed,
                                         sequences, dm, vocab);
  const std::vector<float> unembed_t = linear::transpose(w + layout.unembed, dm, vocab);
  std::vector<float> d_last(at(sequences * dm));
  linear::matmul(d_logits.data(), unembed_t.data(), d_last.data(), sequences, vocab, dm);
  std::vector<float> dx(at(rows * dm), 0.0f);
  for (std::int64_t b = 0; b < sequences; ++b)
    std::copy_n(d_last.data() + b * dm, dm, dx.data() + ((b + 1) * n - 1) * dm);

  std::vector<float> d_mixed(at(rows * dm));
  for (std::int64_t l = config.layers - 1; l >= 0; --l) {
    const LayerActivations& layer = pass.layers[at(l)];
    // x^{l+1} = x^l + A·W_o: dW_o = Aᵀ·dx, dA = dx·W_oᵀ; dx flows on to x^l unchanged.
    const std::vector<float> mixed = merge_heads(layer.attention.output);
    linear::matmul_transposed_a_accumulate(mixed.data(), dx.data(), grads.data() + layout.wo[at(l)], rows, dm, dm);
    const std::vector<float> wo_t = linear::transpose(w + layout.wo[at(l)], dm, dm);
    linear::matmul(dx.data(), wo_t.data(), d_mixed.data(), rows, dm, dm);
    const Tensor4 d_output = split_heads(d_mixed, sequences, n, config.heads, config.head_dim());
    const AttentionGradients g = attention_backward(layer.q, layer.k, layer.v, layer.attention.probs, d_output);
    // Q = x·W_q (and K, V): dW_q = xᵀ·dQ, and dx^l += dQ·W_qᵀ.
    const auto through = [&](const Tensor4& d_heads, std::int64_t offset) {
      const std::vector<float> d_projected = merge_heads(d_heads);
      linear::matmul_transposed_a_accumulate(layer.input.data(), d_projected.data(), grads.data() + offset, rows, dm,
                                             dm);
      const std::vector<float> w_t = linear::transpose(w + offset, dm, dm);
      linear::matmul(d_projected.data(), w_t.data(), dx.data(), rows, dm, dm, /*accumulate=*/true);
    };
    through(g.dq, layout.wq[at(l)]);
    through(g.dk, layout.wk[at(l)]);
    through(g.dv, layout.wv[at(l)]);
  }
  // x⁰ = token_embedding[token] + position_embedding[position].
  float* d_token = grads.data() + layout.token_embedding;
  float* d_position = grads.data() + layout.position_embedding;
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < dm; ++c) {
      d_token[pass.tokens[at(r)] * dm + c] += dx[at(r * dm + c)];
      d_position[(r % n) * dm + c] += dx[at(r * dm + c)];
    }
  return grads;
}

std::vector<float> logits_at_every_position(const Model& model, const std::vector<std::int64_t>& tokens) {
  const std::int64_t sequences = sequences_in(model.config, tokens);
  const std::vector<float> x = run_layers(model, tokens, sequences, nullptr);
  const std::int64_t rows = sequences * model.config.task.length(), vocab = model.config.task.vocab();
  std::vector<float> logits(at(rows * vocab));
  linear::matmul(x.data(), model.weights.data() + weight_layout(model.config).unembed, logits.data(), rows,
                 model.config.d_model, vocab);
  return logits;
}

double accuracy(const std::vector<float>& logits, std::int64_t vocab, const std::vector<std::int64_t>& answers) {
  if (answers.empty() || vocab <= 0 || logits.size() != answers.size() * static_cast<std::size_t>(vocab))
    throw std::invalid_argument("logits: must be (answers × vocab)");
  std::int64_t right = 0;
  for (std::size_t s = 0; s < answers.size(); ++s) {
    const float* row = logits.data() + s * static_cast<std::size_t>(vocab);
    right += std::max_element(row, row + vocab) - row == answers[s] ? 1 : 0;
  }
  return static_cast<double>(right) / static_cast<double>(answers.size());
}

}  // namespace a07_associative_recall
