// rooflab_gpu_decode_bench: a06's CUDA decode attention (split_kv, then
// merge_splits) timed on a GPU against the GPU's own copy bandwidth, for a
// contiguous cache and a paged one (pages in shuffled order), as
// tools/gpu/run_all.sh records it.
//
// Decoding one token reads the whole cache once: 2 · length · kv_heads · d
// floats per sequence. No kernel reads memory faster than a device-to-device
// copy does, so the copy's rate (bytes read plus bytes written per second,
// measured here) is the bound, as `lab bench decode` makes the CPU's copy
// bandwidth the bound there. The goal: 80 % of it from 8k tokens on, and
// paged within 10 % of contiguous.
//
// Like rooflab_gpu_attention_bench, this includes the reference .cu file and
// launches its kernels as the launcher does, on a cache already on the
// device: CUDA events, the L2 flushed before every run, the median of --runs.
//
// usage: rooflab_gpu_decode_bench [--length L] [--sequences S] [--heads H] [--kv-heads G] [--d D]
//                                 [--page-size P] [--runs R]
// prints: layout,length,sequences,median_ms,gb_per_s,copy_gb_per_s
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "a06_kv_cache_decode/decode_attention.hpp"
#include "gpu_timing.cuh"
#include "rooflab/cuda_helpers.hpp"
#include "rooflab/not_implemented.hpp"

// The reference file in a namespace of its own, as in gpu_attention_bench.cu.
namespace decode {
using namespace ::a06_kv_cache_decode;
#include "a06_kv_cache_decode/src/decode_attention.cu"
}  // namespace decode

namespace {

using rooflab::bench::median_ms;

namespace dk = decode::a06_kv_cache_decode;
using rooflab::cuda::DeviceBuffer;

struct Options {
  long long length = 8192;
  int sequences = 1, heads = 12, kv_heads = 12, d = 64, page_size = 16, runs = 50;
};

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const long long value = std::atoll(argv[i + 1]);
    if (flag == "--length")
      options.length = value;
    else if (flag == "--sequences")
      options.sequences = static_cast<int>(value);
    else if (flag == "--heads")
      options.heads = static_cast<int>(value);
    else if (flag == "--kv-heads")
      options.kv_heads = static_cast<int>(value);
    else if (flag == "--d")
      options.d = static_cast<int>(value);
    else if (flag == "--page-size")
      options.page_size = static_cast<int>(value);
    else if (flag == "--runs")
      options.runs = static_cast<int>(value);
    else
      throw std::invalid_argument(flag + ": unknown flag");
  }
  if (options.length <= 0 || options.sequences <= 0 || options.heads <= 0 || options.kv_heads <= 0 ||
      options.heads % options.kv_heads != 0 || options.d <= 0 || options.d > 256 || options.page_size <= 0 ||
      options.length % options.page_size != 0 || options.runs <= 0)
    throw std::invalid_argument(
        "--length, --sequences, --heads, --kv-heads (dividing --heads), --d (at most 256), --page-size (dividing "
        "--length) and --runs must be positive");
  return options;
}

// The GPU's copy bandwidth: bytes read plus bytes written per second by a
// device-to-device copy of 1 GiB, the best of a few.
double copy_bytes_per_s() {
  const std::size_t bytes = std::size_t{1} << 30;
  DeviceBuffer<char> from(bytes), to(bytes);
  ROOFLAB_CUDA_CHECK(cudaMemset(from.get(), 1, bytes));
  const double ms =
      median_ms(10, [&] { ROOFLAB_CUDA_CHECK(cudaMemcpy(to.get(), from.get(), bytes, cudaMemcpyDeviceToDevice)); });
  return 2.0 * static_cast<double>(bytes) / (ms * 1e-3);
}

// One layout's decode step, timed: `page_size` tokens per page and each
// sequence's pages in `tables` (table_width entries each).
double time_layout(const Options& o, int page_size, int table_width, const std::vector<long long>& tables,
                   const DeviceBuffer<float>& keys, const DeviceBuffer<float>& values) {
  const DeviceBuffer<long long> device_tables(tables);
  const DeviceBuffer<long long> lengths(std::vector<long long>(static_cast<std::size_t>(o.sequences), o.length));
  const dk::DeviceCache cache{keys.get(),  values.get(), device_tables.get(), lengths.get(),
                              table_width, page_size,    o.kv_heads,          o.d};
  // The launcher's split rule: enough warps to fill a GPU, chunks of at least 64 keys.
  const int splits = static_cast<int>(std::max<long long>(
      1, std::min<long long>((1024 + o.sequences * o.heads - 1) / (o.sequences * o.heads), (o.length + 63) / 64)));
  const auto slots = static_cast<std::size_t>(o.sequences) * o.heads * splits;
  const DeviceBuffer<float> q(std::vector<float>(static_cast<std::size_t>(o.sequences) * o.heads * o.d, 0.01f));
  DeviceBuffer<float> maxima(slots), sums(slots), weighted(slots * o.d);
  DeviceBuffer<float> out(static_cast<std::size_t>(o.sequences) * o.heads * o.d),
      lse(static_cast<std::size_t>(o.sequences) * o.heads);
  const float scale = 1.0f / std::sqrt(static_cast<float>(o.d));
  return median_ms(o.runs, [&] {
    dk::split_kv<<<dim3(splits, o.heads, o.sequences), dk::kWarp>>>(q.get(), cache, o.heads, splits, scale,
                                                                    maxima.get(), sums.get(), weighted.get());
    dk::merge_splits<<<dim3(o.heads, o.sequences), dk::kWarp>>>(maxima.get(), sums.get(), weighted.get(), o.heads,
                                                                splits, o.d, out.get(), lse.get());
    ROOFLAB_CUDA_CHECK(cudaGetLastError());
  });
}

void run(const Options& o) {
  const long long tokens = o.length * o.sequences;
  const auto floats = static_cast<std::size_t>(tokens) * o.kv_heads * o.d;
  std::vector<float> host(floats);
  std::mt19937 engine(1);
  std::normal_distribution<float> normal;
  for (float& value : host) value = normal(engine);
  const DeviceBuffer<float> keys(host), values(host);
  const double cache_bytes = 2.0 * static_cast<double>(floats) * sizeof(float);
  const double copy = copy_bytes_per_s();
  const auto report = [&](const char* layout, double ms) {
    std::printf("%s,%lld,%d,%.4f,%.1f,%.1f\n", layout, o.length, o.sequences, ms, cache_bytes / (ms * 1e-3) / 1e9,
                copy / 1e9);
    std::fflush(stdout);
  };

  // Contiguous: sequence s is one page of `length` tokens, page s.
  std::vector<long long> contiguous(static_cast<std::size_t>(o.sequences));
  std::iota(contiguous.begin(), contiguous.end(), 0LL);
  report("contiguous", time_layout(o, static_cast<int>(o.length), 1, contiguous, keys, values));

  // Paged: the same memory as pages of page_size tokens, each sequence's in shuffled order.
  const long long per_sequence = o.length / o.page_size;
  std::vector<long long> pages(static_cast<std::size_t>(per_sequence * o.sequences));
  std::iota(pages.begin(), pages.end(), 0LL);
  std::shuffle(pages.begin(), pages.end(), std::mt19937_64(4));
  report("paged", time_layout(o, o.page_size, static_cast<int>(per_sequence), pages, keys, values));
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options options = parse(argc, argv);
    int gpus = 0;
    if (cudaGetDeviceCount(&gpus) != cudaSuccess || gpus == 0) {
      std::fprintf(stderr, "rooflab_gpu_decode_bench: no GPU on this machine\n");
      return 2;
    }
    run(options);
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "rooflab_gpu_decode_bench: %s\n", error.what());
    return 1;
  }
}
