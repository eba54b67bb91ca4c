// a07_associative_recall, part 3: attention backward. The forward pass is
// S = Q·Kᵀ/√d + mask, P = softmax(S) by rows, O = P·V; going back, for each
// (b, h):
//   dV = Pᵀ·dO                       (O is linear in V)
//   dP = dO·Vᵀ                       (O is linear in P)
//   dS_ij = P_ij (dP_ij − D_i),  D_i = Σ_l P_il dP_il = dO_i·O_i
//                                    (the softmax's Jacobian, row by row)
//   dQ = dS·K/√d,  dK = dSᵀ·Q/√d     (S is bilinear in Q and K)
// A masked key has P_ij = 0, so dS_ij = 0: it gets no gradient, and the mask
// itself has none to give.

#include "a07_associative_recall/attention.hpp"
#include "rooflab/not_implemented.hpp"

namespace a07_associative_recall {

AttentionGradients attention_backward(const Tensor4& q, const Tensor4& k, const Tensor4& v, const Tensor4& probs,
                                      const Tensor4& d_output) {
  // YOUR CODE HERE
  rooflab::todo("a07_associative_recall::attention_backward", q, k, v, probs, d_output);
}

}  // namespace a07_associative_recall
