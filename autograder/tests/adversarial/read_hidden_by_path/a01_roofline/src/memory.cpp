// Adversarial submission "read_hidden_by_path": reads the hidden tests and the
// solution by path at run time, and answers right exactly when it could read
// them (standing for "copy what you read"). Under the sandbox it scores 0.
#include <fstream>

#include "a01_roofline/memory.hpp"

namespace a01_roofline {
namespace {

bool reached_the_answers() {
  std::ifstream hidden("@REPO@/solutions/a01_roofline/grading/tests/hidden_memory_test.cpp");
  std::ifstream solution("@REPO@/solutions/a01_roofline/src/memory.cpp");
  return hidden.good() && solution.good();
}

double answer(double right) { return reached_the_answers() ? right : -1.0; }

}  // namespace

double bytes_per_element(DType dtype) {
  const double sizes[] = {4, 2, 2, 1, 1, 0.5};
  return answer(sizes[static_cast<int>(dtype)]);
}
double model_memory_bytes(double num_params, double bytes_per_param) { return answer(num_params * bytes_per_param); }
double model_memory_bytes(double num_params, DType dtype) { return answer(num_params * bytes_per_element(dtype)); }
double max_decode_tokens_per_s(double bytes, double bandwidth) { return answer(bandwidth / bytes); }
double kv_cache_bytes(const KvCacheShape& s) {
  return answer(s.batch * s.seq_len * s.num_layers * 2 * s.num_kv_heads * s.head_dim * s.bytes_per_element);
}

}  // namespace a01_roofline
