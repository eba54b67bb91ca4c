// a01_roofline — contract, part 3: what attention costs.
//
// Conventions (docs/02_roofline.md): 2 FLOPs per multiply-add; softmax costs
// 5 FLOPs per score (max, subtract, exp, sum, divide).
//
// Validation as in memory.hpp: each input a function lists as checked must be a
// positive finite number, else std::invalid_argument whose message names that
// input (a field by its field name) and no other input of the function.
#pragma once

namespace a01_roofline {

struct AttentionShape {
  double batch = 1;
  double num_heads = 1;
  double seq_len_q = 1;   // queries (1 per request in decode)
  double seq_len_kv = 1;  // keys/values attended to
  double head_dim = 1;
};

// FLOPs of QKᵀ + softmax + PV over all heads and requests:
// batch × heads × seq_q × seq_kv × (2·head_dim + 5 + 2·head_dim).
// Checks every field, each named by itself: batch, num_heads, seq_len_q,
// seq_len_kv, head_dim.
double attention_flops(const AttentionShape& shape);

// Cost of one step; intensity = flops / bytes.
struct StepCost {
  double flops = 0;
  double bytes = 0;
  double intensity = 0;
};

// Standard attention for one head of sequence length n and head dimension d,
// materialising S and P in memory (n×n each):
//   scores  S = QKᵀ:        read Q, K (2nd), write S (n²);          2n²d FLOPs
//   softmax P = softmax(S): read S (n²), write P (n²);               5n² FLOPs
//   output  O = PV:         read P (n²), V (nd), write O (nd);       2n²d FLOPs
// bytes are element counts × bytes_per_element. attention_breakdown checks
// seq_len, head_dim and bytes_per_element.
struct AttentionBreakdown {
  StepCost scores;
  StepCost softmax;
  StepCost output;
  StepCost total;
};

AttentionBreakdown attention_breakdown(double seq_len, double head_dim, double bytes_per_element);

}  // namespace a01_roofline
