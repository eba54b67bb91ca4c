// The bench's FLOP/s ceiling: attention's two matmuls run as OpenBLAS sgemm
// calls. Whether OpenBLAS is there is decided by the build (tools/CMakeLists.txt
// picks sgemm_openblas.cpp or sgemm_absent.cpp), nowhere else.
#pragma once

#include <optional>
#include <string>

namespace rooflab::bench {

// Empty when sgemm can run; otherwise why not (for the table's note).
std::string sgemm_unavailable_reason();

// Best wall time of S = Q Kᵀ followed by O = S V with Q, K, V (n×d) fp32, on
// `threads` threads; nullopt without OpenBLAS.
std::optional<double> attention_matmuls_seconds(long long n, long long d, int threads, int repeats);

}  // namespace rooflab::bench
