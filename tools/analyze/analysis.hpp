// `lab analyze`: a model's per-component FLOPs, bytes and roofline times for
// one pass, computed by the reference a02 solution.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "a02_transformer_costs/a02_transformer_costs.hpp"

namespace rooflab::analyze {

struct Row {
  std::string name;
  a02_transformer_costs::Cost cost;      // all layers together
  a02_transformer_costs::Timing timing;  // alone on the GPU
};

struct Analysis {
  a02_transformer_costs::TransformerConfig model;
  a02_transformer_costs::Hardware gpu;
  a02_transformer_costs::Pass pass;
  bool decode = false;
  std::vector<Row> components;  // sum to `total`
  Row total;
  double weight_bytes = 0;
  double kv_cache_bytes = 0;  // the cache this pass reads (decode) or fills (prefill)
};

// Prefill of batch × seq tokens, or (decode) one step with seq cached positions.
// Throws std::runtime_error naming the flag when seq exceeds the model's context.
Analysis analyze(const a02_transformer_costs::TransformerConfig& model, const a02_transformer_costs::Hardware& gpu,
                 double batch, double seq, bool decode);

// A catalog GPU (a01's), or "custom"; --bandwidth and --flops override (custom needs both).
a02_transformer_costs::Hardware resolve_gpu(const std::string& id, std::optional<double> bandwidth,
                                            std::optional<double> flops);

std::string format_table(const Analysis& analysis);
nlohmann::json to_json(const Analysis& analysis);

}  // namespace rooflab::analyze
