// Adversarial submission "include_hidden_absolute": includes a hidden test by its absolute path
#include "a01_roofline/memory.hpp"
#include "@REPO@/solutions/a01_roofline/grading/tests/hidden_memory_test.cpp"
namespace a01_roofline {
namespace {
double answer(double x) { return x; }
}  // namespace

double bytes_per_element(DType dtype) { return answer(static_cast<double>(dtype)); }
double model_memory_bytes(double num_params, double bytes_per_param) { return answer(num_params * bytes_per_param); }
double model_memory_bytes(double num_params, DType dtype) { return answer(num_params + static_cast<double>(dtype)); }
double max_decode_tokens_per_s(double bytes, double bandwidth) { return answer(bandwidth / bytes); }
double kv_cache_bytes(const KvCacheShape& shape) { return answer(shape.batch); }

}  // namespace a01_roofline
