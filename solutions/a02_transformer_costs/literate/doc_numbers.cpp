// Every number docs/03 and the a02 lab README quote, from the reference.
#include <string>
#include <vector>

#include "a02_transformer_costs/a02_transformer_costs.hpp"
#include "analysis.hpp"
#include "doc_regions.hpp"

namespace rooflab::docs {
namespace {

using namespace a02_transformer_costs;

std::string ms(double seconds) { return fmt(seconds < 0.1e-3 ? "%.4f" : "%.2f", 1e3 * seconds); }

std::string pass_name(const Pass& pass) { return fmt("B = %.0f, ", pass.batch) + fmt("N = %.0f", pass.context); }

// Per-component costs of one pass of GPT-2 XL, all 48 layers together: the
// rows `lab analyze` prints, so both list the components from one place.
std::string component_table(bool decode_step) {
  const analyze::Analysis analysis = analyze::analyze(gpt2_xl(), lab_t4(), 1, 1024, decode_step);
  std::string table = "| component | GFLOP | GB moved | FLOP/byte |\n|---|---:|---:|---:|\n";
  const auto row = [&](const std::string& name, const Cost& cost) {
    table += "| " + name + " | " + fmt("%.3f", cost.flops / 1e9) + " | " + fmt("%.4f", cost.bytes / 1e9) + " | " +
             fmt("%.2f", cost.flops / cost.bytes) + " |\n";
  };
  for (const analyze::Row& component : analysis.components) row(component.name, component.cost);
  row("**whole model**", analysis.total.cost);
  return table;
}

// The four (B, N) cases, without the cache (a forward pass over all N tokens)
// and with it (one decode step against N cached positions), on the lab's T4.
std::string four_cases_table(bool cached) {
  std::string table =
      "| case | GFLOP | GB moved | FLOP/byte | T_compute (ms) | T_memory (ms) | bound |\n"
      "|---|---:|---:|---:|---:|---:|---|\n";
  for (double batch : {1.0, 64.0})
    for (double n : {32.0, 1024.0}) {
      const Pass pass = cached ? decode(batch, n) : prefill(batch, n);
      const Cost cost = model_cost(gpt2_xl(), pass);
      const Timing t = roofline_time(cost, lab_t4());
      table += "| " + pass_name(pass) + " | " + fmt("%.1f", cost.flops / 1e9) + " | " + fmt("%.2f", cost.bytes / 1e9) +
               " | " + fmt("%.1f", cost.flops / cost.bytes) + " | " + ms(t.compute_s) + " | " + ms(t.memory_s) + " | " +
               (t.memory_bound ? "memory" : "compute") + " |\n";
    }
  return table;
}

std::string speedup_table() {
  std::string table = "| case | recompute (ms) | cached step (ms) | speed-up |\n|---|---:|---:|---:|\n";
  for (double batch : {1.0, 64.0})
    for (double n : {32.0, 1024.0}) {
      const Timing recompute = roofline_time(model_cost(gpt2_xl(), prefill(batch, n)), lab_t4());
      const Timing cached = roofline_time(model_cost(gpt2_xl(), decode(batch, n)), lab_t4());
      table += "| " + pass_name(prefill(batch, n)) + " | " + ms(recompute.time_s) + " | " + ms(cached.time_s) + " | " +
               fmt("%.1f×", cached_decode_speedup(gpt2_xl(), batch, n, lab_t4())) + " |\n";
    }
  return table;
}

std::string speculative_table() {
  const DecodeTime step = decode_time_breakdown(gpt2_xl(), 1024, lab_t4());
  std::string table =
      "| α | γ | tokens per target pass | weight time per token (ms) | speed-up, c = 0.05 |\n"
      "|---:|---:|---:|---:|---:|\n";
  for (double alpha : {0.6, 0.8, 0.9})
    for (double gamma : {2.0, 4.0, 8.0}) {
      const double tokens = expected_tokens_per_pass(alpha, gamma);
      table += fmt("| %.1f", alpha) + fmt(" | %.0f", gamma) + fmt(" | %.2f", tokens) + " | " +
               ms(step.weights_s / tokens) + fmt(" | %.2f× |\n", speculative_speedup(alpha, gamma, 0.05));
    }
  return table;
}

}  // namespace

void add_a02_transformer_costs_numbers(Values& values) {
  const TransformerConfig m = gpt2_xl();
  const Hardware t4 = lab_t4();
  values["a02.usage_output"] = [] { return program_output_block(ROOFLAB_EXAMPLE_PATH_PREFIX "usage"); };
  values["a02.params"] = [=] { return fmt("%.0f", parameter_count(m)); };
  values["a02.weight_gb"] = [=] { return fmt("%.2f", weight_bytes(m) / 1e9); };
  values["a02.kv_b1_n1024_mb"] = [=] { return fmt("%.1f", kv_cache_bytes(m, 1, 1024) / 1e6); };
  values["a02.kv_b64_n1024_gb"] = [=] { return fmt("%.1f", kv_cache_bytes(m, 64, 1024) / 1e9); };
  values["a02.t4_ridge"] = [=] { return fmt("%.1f", t4.peak_flops_per_s / t4.bandwidth_bytes_per_s); };
  values["a02.components_prefill_b1_n1024"] = [] { return component_table(false); };
  values["a02.components_decode_b1_n1024"] = [] { return component_table(true); };
  values["a02.four_cases_recompute"] = [] { return four_cases_table(false); };
  values["a02.four_cases_cached"] = [] { return four_cases_table(true); };
  values["a02.speedup_table"] = speedup_table;
  values["a02.attention_bytes_share_prefill_b1_n1024"] = [=] {
    const Pass pass = prefill(1, 1024);
    const Cost scores = m.num_layers * (attention_scores_cost(m, pass) + causal_mask_cost(m, pass) +
                                        softmax_cost(m, pass) + attention_values_cost(m, pass));
    return fmt("%.0f", 100.0 * scores.bytes / model_cost(m, pass).bytes);
  };
  const DecodeTime step = decode_time_breakdown(m, 1024, t4);
  values["a02.decode_weights_ms"] = [=] { return ms(step.weights_s); };
  values["a02.decode_other_ms"] = [=] { return ms(step.other_memory_s); };
  values["a02.decode_compute_ms"] = [=] { return ms(step.compute_s); };
  values["a02.decode_weight_share"] = [=] {
    return fmt("%.0f", 100.0 * step.weights_s / (step.weights_s + step.other_memory_s));
  };
  values["a02.decode_tokens_per_s"] = [=] { return fmt("%.0f", 1.0 / step.step_s); };
  values["a02.speculative_table"] = speculative_table;
  values["a02.spec_a08_g4"] = [] { return fmt("%.2f", speculative_speedup(0.8, 4, 0.05)); };
  values["a02.spec_tokens_a08_g4"] = [] { return fmt("%.2f", expected_tokens_per_pass(0.8, 4)); };
}

}  // namespace rooflab::docs
