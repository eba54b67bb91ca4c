// The a07 tests' yardstick, in fp64 and written apart from the code under
// test: attention with an additive mask, the model's forward pass from its
// float weights, cross-entropy, Adam, and central finite differences. Tests
// compare your results with these; none of it calls a function you write.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include "a07_associative_recall/a07_associative_recall.hpp"

namespace a07_associative_recall::reference {

inline std::size_t at(std::int64_t index) { return static_cast<std::size_t>(index); }

// ---- attention ----

// The additive causal mask, built here so that attention tests do not rest on
// your causal_mask(): 0 where j <= i, −∞ where j > i.
inline std::vector<float> causal(std::int64_t n) {
  std::vector<float> mask(at(n * n));
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) mask[at(i * n + j)] = j > i ? -INFINITY : 0.0f;
  return mask;
}

// An additive mask of finite values in [−spread, spread], with about a
// quarter of the entries −∞ but never a whole row (each row keeps one key
// drawn at random): the softmax must honour any finite mask, not only 0.
inline std::vector<float> random_additive(std::int64_t n, std::uint64_t seed, float spread = 3.0f) {
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<float> value(-spread, spread);
  std::bernoulli_distribution hidden(0.25);
  std::vector<float> mask(at(n * n));
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t kept = std::uniform_int_distribution<std::int64_t>(0, n - 1)(engine);
    for (std::int64_t j = 0; j < n; ++j) {
      const float finite = value(engine);
      mask[at(i * n + j)] = hidden(engine) && j != kept ? -INFINITY : finite;
    }
  }
  return mask;
}

// One (b, h) matrix: q (n × d), k (n × d), v (n × dv) in double, row-major.
struct Heads {
  std::int64_t n = 0, d = 0, dv = 0;
  std::vector<double> q, k, v;
};

// Matrix bh of q, k and v, widened to double.
inline Heads heads_of(const Tensor4& q, const Tensor4& k, const Tensor4& v, std::int64_t bh) {
  Heads x{q.rows(), q.cols(), v.cols(), {}, {}, {}};
  x.q.assign(q.row(bh, 0), q.row(bh, 0) + x.n * x.d);
  x.k.assign(k.row(bh, 0), k.row(bh, 0) + x.n * x.d);
  x.v.assign(v.row(bh, 0), v.row(bh, 0) + x.n * x.dv);
  return x;
}

// softmax(q·kᵀ/√d + mask)·v for one matrix, straight from the definition;
// writes the output (n × dv) and, when asked, the probabilities (n × n).
inline void attend(const Heads& x, const std::vector<float>& mask, double* output, double* probs = nullptr) {
  const double scale = 1.0 / std::sqrt(static_cast<double>(x.d));
  std::vector<double> weight(at(x.n));
  for (std::int64_t i = 0; i < x.n; ++i) {
    double largest = -std::numeric_limits<double>::infinity();
    for (std::int64_t j = 0; j < x.n; ++j) {
      double dot = 0;
      for (std::int64_t c = 0; c < x.d; ++c) dot += x.q[at(i * x.d + c)] * x.k[at(j * x.d + c)];
      weight[at(j)] = dot * scale + static_cast<double>(mask[at(i * x.n + j)]);
      largest = std::max(largest, weight[at(j)]);
    }
    double total = 0;
    for (double& w : weight) total += (w = std::exp(w - largest));  // a hidden key: exp(−∞) = 0
    for (std::int64_t c = 0; c < x.dv; ++c) output[i * x.dv + c] = 0;
    for (std::int64_t j = 0; j < x.n; ++j) {
      const double p = weight[at(j)] / total;
      if (probs) probs[i * x.n + j] = p;
      for (std::int64_t c = 0; c < x.dv; ++c) output[i * x.dv + c] += p * x.v[at(j * x.dv + c)];
    }
  }
}

struct Attention {
  std::vector<double> output;  // (B, H, N, dv)
  std::vector<double> probs;   // (B, H, N, N)
};

inline Attention attention(const Tensor4& q, const Tensor4& k, const Tensor4& v, const std::vector<float>& mask) {
  const std::int64_t n = q.rows(), dv = v.cols();
  Attention result{std::vector<double>(at(q.matrices() * n * dv)), std::vector<double>(at(q.matrices() * n * n))};
  for (std::int64_t bh = 0; bh < q.matrices(); ++bh)
    attend(heads_of(q, k, v, bh), mask, result.output.data() + bh * n * dv, result.probs.data() + bh * n * n);
  return result;
}

// The reference's probabilities as the fp32 tensor attention_backward takes,
// so that backward tests do not rest on your attention_forward.
inline Tensor4 probs_as_float(const Attention& reference, const Tensor4& q) {
  Tensor4 probs = rooflab::zeros(q.batch(), q.heads(), q.rows(), q.rows());
  std::transform(reference.probs.begin(), reference.probs.end(), probs.data.begin(),
                 [](double p) { return static_cast<float>(p); });
  return probs;
}

// ---- central finite differences ----

// ∂f/∂x_i ≈ (f(x + h·e_i) − f(x − h·e_i)) / 2h for every i: in double the
// error is O(h²) from the truncation plus O(ε·|f|/h) from rounding, about
// 1e-10 each for h = 1e-5 and the small losses the tests build.
inline std::vector<double> central_differences(std::vector<double> x,
                                               const std::function<double(const std::vector<double>&)>& f,
                                               double h = 1e-5) {
  std::vector<double> gradient(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double kept = x[i];
    x[i] = kept + h;
    const double above = f(x);
    x[i] = kept - h;
    const double below = f(x);
    x[i] = kept;
    gradient[i] = (above - below) / (2 * h);
  }
  return gradient;
}

struct Gradients {
  std::vector<double> dq, dk, dv;  // laid out as q, k and v
};

// The gradients of L = Σ d_output ⊙ attention(q, k, v, mask).output by
// central differences. Each (b, h) matrix only moves its own share of L, so
// each is differentiated on its own.
inline Gradients finite_difference_gradients(const Tensor4& q, const Tensor4& k, const Tensor4& v,
                                             const std::vector<float>& mask, const Tensor4& d_output) {
  const std::int64_t n = q.rows(), d = q.cols(), dv = v.cols();
  Gradients result{std::vector<double>(q.data.size()), std::vector<double>(k.data.size()),
                   std::vector<double>(v.data.size())};
  for (std::int64_t bh = 0; bh < q.matrices(); ++bh) {
    const Heads x = heads_of(q, k, v, bh);
    const float* d_out = d_output.row(bh, 0);
    std::vector<double> output(at(n * dv));
    const auto loss = [&](const Heads& perturbed) {
      attend(perturbed, mask, output.data());
      double total = 0;
      for (std::int64_t e = 0; e < n * dv; ++e) total += static_cast<double>(d_out[e]) * output[at(e)];
      return total;
    };
    const auto differentiate = [&](std::vector<double> Heads::*member, std::vector<double>& into, std::int64_t width) {
      Heads perturbed = x;
      const std::vector<double> g = central_differences(x.*member, [&](const std::vector<double>& values) {
        perturbed.*member = values;
        return loss(perturbed);
      });
      std::copy(g.begin(), g.end(), into.begin() + bh * n * width);
    };
    differentiate(&Heads::q, result.dq, d);
    differentiate(&Heads::k, result.dk, d);
    differentiate(&Heads::v, result.dv, dv);
  }
  return result;
}

// ---- the model ----

// Logits (B·N × vocab) at every position, in double from the model's float
// weights laid out as weight_layout() documents; the causal mask is built here.
// With only_last, the last position of each sequence alone (B × vocab).
inline std::vector<double> model_logits(const Model& model, const std::vector<std::int64_t>& tokens,
                                        bool only_last = false) {
  const ModelConfig& config = model.config;
  const WeightLayout layout = weight_layout(config);
  const std::int64_t n = config.task.length(), dm = config.d_model, vocab = config.task.vocab();
  const std::int64_t heads = config.heads, hd = config.head_dim();
  const auto sequences = static_cast<std::int64_t>(tokens.size()) / n;
  const auto weight = [&](std::int64_t offset, std::int64_t row, std::int64_t column, std::int64_t columns) {
    return static_cast<double>(model.weights[at(offset + row * columns + column)]);
  };
  // x = x·W for (rows × dm) x and (dm × columns) W at `offset`.
  const auto times = [&](const std::vector<double>& x, std::int64_t offset, std::int64_t columns) {
    const std::int64_t rows = static_cast<std::int64_t>(x.size()) / dm;
    std::vector<double> y(at(rows * columns), 0.0);
    for (std::int64_t r = 0; r < rows; ++r)
      for (std::int64_t p = 0; p < dm; ++p) {
        const double xp = x[at(r * dm + p)];
        for (std::int64_t c = 0; c < columns; ++c) y[at(r * columns + c)] += xp * weight(offset, p, c, columns);
      }
    return y;
  };
  const std::vector<float> mask = causal(n);
  std::vector<double> logits;
  std::vector<double> x(at(n * dm)), output(at(n * hd)), mixed(at(n * dm));
  for (std::int64_t b = 0; b < sequences; ++b) {
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t c = 0; c < dm; ++c)
        x[at(i * dm + c)] =
            weight(layout.token_embedding, tokens[at(b * n + i)], c, dm) + weight(layout.position_embedding, i, c, dm);
    for (std::int64_t l = 0; l < config.layers; ++l) {
      const std::vector<double> q = times(x, layout.wq[at(l)], dm), k = times(x, layout.wk[at(l)], dm),
                                v = times(x, layout.wv[at(l)], dm);
      for (std::int64_t h = 0; h < heads; ++h) {
        Heads head{n,
                   hd,
                   hd,
                   std::vector<double>(at(n * hd)),
                   std::vector<double>(at(n * hd)),
                   std::vector<double>(at(n * hd))};
        for (std::int64_t i = 0; i < n; ++i)
          for (std::int64_t c = 0; c < hd; ++c) {
            head.q[at(i * hd + c)] = q[at(i * dm + h * hd + c)];
            head.k[at(i * hd + c)] = k[at(i * dm + h * hd + c)];
            head.v[at(i * hd + c)] = v[at(i * dm + h * hd + c)];
          }
        attend(head, mask, output.data());
        for (std::int64_t i = 0; i < n; ++i)
          for (std::int64_t c = 0; c < hd; ++c) mixed[at(i * dm + h * hd + c)] = output[at(i * hd + c)];
      }
      const std::vector<double> added = times(mixed, layout.wo[at(l)], dm);
      for (std::size_t e = 0; e < x.size(); ++e) x[e] += added[e];  // the residual stream
    }
    const std::vector<double> all = times(x, layout.unembed, vocab);
    logits.insert(logits.end(), all.begin() + (only_last ? (n - 1) * vocab : 0), all.end());
  }
  return logits;
}

// The share of the batch's sequences whose highest fp64 logit is the answer.
inline double accuracy(const Model& model, const RecallBatch& batch) {
  const std::vector<double> logits = model_logits(model, batch.tokens, /*only_last=*/true);
  const std::int64_t vocab = model.config.task.vocab();
  std::int64_t right = 0;
  for (std::int64_t s = 0; s < batch.sequences; ++s) {
    const auto row = logits.begin() + s * vocab;
    right += std::max_element(row, row + vocab) - row == batch.answers[at(s)] ? 1 : 0;
  }
  return static_cast<double>(right) / static_cast<double>(batch.sequences);
}

// ---- cross-entropy ----

// (1/R) Σ_r (log Σ_c exp(z_rc) − z_r,target), the log-sum-exp with each
// row's maximum taken out; `logits` in double so differences can move them.
inline double cross_entropy_loss(const std::vector<double>& logits, std::int64_t vocab,
                                 const std::vector<std::int64_t>& targets) {
  double total = 0;
  for (std::size_t r = 0; r < targets.size(); ++r) {
    const auto row = logits.begin() + static_cast<std::ptrdiff_t>(r) * vocab;
    const double largest = *std::max_element(row, row + vocab);
    double sum = 0;
    for (std::int64_t c = 0; c < vocab; ++c) sum += std::exp(row[c] - largest);
    total += largest + std::log(sum) - row[targets[r]];
  }
  return total / static_cast<double>(targets.size());
}

// Its gradient, (softmax(z_r) − onehot(target_r)) / R, from the formula.
inline std::vector<double> cross_entropy_gradient(const std::vector<double>& logits, std::int64_t vocab,
                                                  const std::vector<std::int64_t>& targets) {
  std::vector<double> gradient(logits.size());
  const auto rows = static_cast<double>(targets.size());
  for (std::size_t r = 0; r < targets.size(); ++r) {
    const std::size_t first = r * at(vocab);
    const double largest = *std::max_element(logits.begin() + static_cast<std::ptrdiff_t>(first),
                                             logits.begin() + static_cast<std::ptrdiff_t>(first) + vocab);
    double sum = 0;
    for (std::int64_t c = 0; c < vocab; ++c) sum += std::exp(logits[first + at(c)] - largest);
    for (std::int64_t c = 0; c < vocab; ++c)
      gradient[first + at(c)] = (std::exp(logits[first + at(c)] - largest) / sum - (c == targets[r] ? 1 : 0)) / rows;
  }
  return gradient;
}

// ---- Adam ----

struct AdamState {
  std::vector<double> params, m, v;
};

// Update number `step` in double, term by term as adam.hpp writes it.
inline void adam_step(AdamState& state, const std::vector<float>& grads, const AdamConfig& config, std::int64_t step) {
  const double t = static_cast<double>(step);
  for (std::size_t i = 0; i < state.params.size(); ++i) {
    const double g = grads[i];
    state.m[i] = config.beta1 * state.m[i] + (1 - config.beta1) * g;
    state.v[i] = config.beta2 * state.v[i] + (1 - config.beta2) * g * g;
    const double m_hat = state.m[i] / (1 - std::pow(config.beta1, t));
    const double v_hat = state.v[i] / (1 - std::pow(config.beta2, t));
    state.params[i] -= config.learning_rate * m_hat / (std::sqrt(v_hat) + config.epsilon);
  }
}

}  // namespace a07_associative_recall::reference
