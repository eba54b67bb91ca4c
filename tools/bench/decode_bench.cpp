// `rooflab bench decode`: a06's decode attention on the CPU (the reference, or
// a student's own code in a student build), in
// GB/s of cache read, beside this machine's copy bandwidth measured in the
// same run (bandwidth.hpp), for the contiguous and the paged cache.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <numeric>
#include <random>
#include <vector>

#include "a06_kv_cache_decode/a06_kv_cache_decode.hpp"
#include "attention_bench.hpp"
#include "rooflab/bandwidth.hpp"
#include "rooflab/timing.hpp"

namespace rooflab::bench {

int run_decode_bench(const DecodeBenchOptions& options) {
  using namespace a06_kv_cache_decode;
  const rooflab::Bandwidth bandwidth = rooflab::measure_bandwidth();
  const double copy = bandwidth.copy_bytes_per_s;
  const std::int64_t heads = options.heads, kv_heads = options.kv_heads, d = options.head_dim;
  std::printf(
      "One sequence, %lld query heads over %lld kv heads of %lld, fp32; best of %d. GB/s = the K and V "
      "bytes one step reads / time. Copy bandwidth in the same run: %.1f GB/s (triad %.1f, read %.1f).\n\n",
      static_cast<long long>(heads), static_cast<long long>(kv_heads), static_cast<long long>(d), options.repeats,
      copy / 1e9, bandwidth.triad_bytes_per_s / 1e9, bandwidth.read_bytes_per_s / 1e9);
  std::printf("| L | cache MiB | contiguous GB/s | of copy |");
  for (const long long page_size : options.page_sizes)
    std::printf(" %lld-token pages GB/s | time / contiguous |", page_size);
  std::printf("\n|---:|---:|---:|---:|");
  for (std::size_t i = 0; i < options.page_sizes.size(); ++i) std::printf("---:|---:|");
  std::printf("\n");
  try {
    for (std::int64_t length = options.min_length; length <= options.max_length; length *= 2) {
      std::fprintf(stderr, "bench decode: L = %lld ...\n", static_cast<long long>(length));
      const Tensor4 keys = rooflab::random_normal(1, kv_heads, length, d, 1);
      const Tensor4 values = rooflab::random_normal(1, kv_heads, length, d, 2);
      const Tensor4 q = rooflab::random_normal(1, heads, 1, d, 3);
      const double bytes = 2.0 * static_cast<double>(length * kv_heads * d) * sizeof(float);
      const ContiguousKvCache contiguous = append(make_contiguous_cache(1, kv_heads, d, length), 0, keys, values);
      const double contiguous_s = rooflab::best_seconds(options.repeats, [&] { decode_attention(q, contiguous, {}); });
      std::printf("| %lld | %.1f | %.1f | %.0f %% |", static_cast<long long>(length), bytes / (1 << 20),
                  bytes / contiguous_s / 1e9, 100 * bytes / contiguous_s / copy);
      for (const long long page_size : options.page_sizes) {
        std::vector<std::int64_t> pages(static_cast<std::size_t>((length + page_size - 1) / page_size));
        std::iota(pages.begin(), pages.end(), 0);
        std::shuffle(pages.begin(), pages.end(), std::mt19937_64(4));  // pages scattered, as in a server
        const PagedKvCache paged = append(make_paged_cache(1, kv_heads, d, page_size, pages), 0, keys, values);
        const double paged_s = rooflab::best_seconds(options.repeats, [&] { decode_attention(q, paged, {}); });
        std::printf(" %.1f | %.2f |", bytes / paged_s / 1e9, paged_s / contiguous_s);
      }
      std::printf("\n");
      std::fflush(stdout);
    }
  } catch (const std::exception& error) {  // a student's stub: "not implemented"
    std::printf("\nstopped: %s\n", error.what());
    return 1;
  }
  std::printf("\nTargets for L ≥ 8192: contiguous ≥ 80 %% of copy; paged at most 10 %% slower (ratio ≤ 1.10).\n");
  return 0;
}

}  // namespace rooflab::bench
