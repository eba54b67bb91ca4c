// rooflab_gpu_attention_bench: a05's reference kernels timed on a GPU, for
// `rooflab bench attention --gpu` (which runs PyTorch beside it in the same run).
//
// The launchers copy inputs in and results out; a benchmark must time the
// kernels alone. So this file includes the reference .cu files themselves and
// launches their kernels as the launchers do, on device-resident inputs:
// timing with CUDA events, L2 flushed before every run (a write larger than the
// L2 cache), the median of --runs runs after warm-ups. It is a program of its
// own, never linked with the a05 library, whose launchers it would duplicate.
//
// usage: rooflab_gpu_attention_bench --n N --d D --causal 0|1 [--runs R] [--batch B] [--heads H]
// prints one CSV row per kernel: kernel,n,d,causal,median_ms,tflops (standard,
// flash, tensor_core, mma_sync, mma_sync_bf16, and where the reference's
// literate/ folder is, the ladder's earlier rungs flash_one_row_per_thread,
// flash_float_loads and tensor_core_unpadded)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "a05_cuda_attention/cuda_attention.hpp"
#include "gpu_timing.cuh"
#include "rooflab/cuda_helpers.hpp"
#include "rooflab/not_implemented.hpp"
#include "rooflab/tensor_core.hpp"

// Each reference file in a namespace of its own: their internal names
// (kBlockRows, shared_bytes, …) repeat from file to file. Every header they
// include is included above, so #pragma once keeps it out of these namespaces.
namespace standard {
using namespace ::a05_cuda_attention;
#include "a05_cuda_attention/src/standard_attention.cu"
}  // namespace standard
namespace flash {
using namespace ::a05_cuda_attention;
#include "a05_cuda_attention/src/flash_attention.cu"
}  // namespace flash
namespace tensor_core {
using namespace ::a05_cuda_attention;
#include "a05_cuda_attention/src/flash_attention_tensor_core.cu"
}  // namespace tensor_core
namespace mma_sync {
using namespace ::a05_cuda_attention;
#include "a05_cuda_attention/src/flash_attention_mma_sync.cu"
}  // namespace mma_sync

// The ladder's earlier rungs, which the reference kernels replaced, timed
// beside them: each step's gain, measured (instructor-side: a student's
// repository has no literate/ folder).
#if __has_include("a05_cuda_attention/literate/ladder/ladder.hpp")
#define ROOFLAB_BENCH_LADDER 1
#include "a05_cuda_attention/literate/ladder/ladder.hpp"
namespace one_row {
using namespace ::a05_cuda_attention;
#include "a05_cuda_attention/literate/ladder/flash_one_row_per_thread.cu"
}  // namespace one_row
namespace float_loads {
using namespace ::a05_cuda_attention;
#include "a05_cuda_attention/literate/ladder/flash_float_loads.cu"
}  // namespace float_loads
namespace unpadded {
using namespace ::a05_cuda_attention;
#include "a05_cuda_attention/literate/ladder/flash_tensor_core_unpadded.cu"
}  // namespace unpadded
#endif

namespace {

using rooflab::bench::median_ms;

struct Options {
  int n = 4096, d = 64, batch = 1, heads = 16, runs = 50;
  bool causal = false;
};

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const int value = std::atoi(argv[i + 1]);
    if (flag == "--n")
      options.n = value;
    else if (flag == "--d")
      options.d = value;
    else if (flag == "--causal")
      options.causal = value != 0;
    else if (flag == "--runs")
      options.runs = value;
    else if (flag == "--batch")
      options.batch = value;
    else if (flag == "--heads")
      options.heads = value;
    else
      throw std::invalid_argument(flag + ": unknown flag");
  }
  if (options.n <= 0 || options.runs <= 0 || options.batch <= 0 || options.heads <= 0 ||
      (options.d != 64 && options.d != 128))
    throw std::invalid_argument("--n, --runs, --batch, --heads must be positive and --d 64 or 128");
  return options;
}

template <int D>
void run(const Options& o) {
  using rooflab::cuda::ceil_div;
  using rooflab::cuda::DeviceBuffer;
  const int matrices = o.batch * o.heads;
  const std::size_t elements = static_cast<std::size_t>(matrices) * o.n * D;
  const std::vector<float> values(elements, 0.01f);
  const DeviceBuffer<float> q(values), k(values), v(values);
  DeviceBuffer<float> out(elements), lse(static_cast<std::size_t>(matrices) * o.n);
  const float scale = 1.0f / std::sqrt(static_cast<float>(D));
  // 4·B·H·N²·d FLOPs (two products of 2·N²·d each), half of them under the causal mask.
  const double flops = 4.0 * matrices * o.n * static_cast<double>(o.n) * D * (o.causal ? 0.5 : 1.0);
  const auto report = [&](const char* kernel, double ms) {
    std::printf("%s,%d,%d,%d,%.4f,%.2f\n", kernel, o.n, D, o.causal ? 1 : 0, ms, flops / (ms * 1e-3) / 1e12);
    std::fflush(stdout);
  };

  // Standard attention needs the B·H·N² scores: only where they fit in 8 GiB.
  if (static_cast<double>(matrices) * o.n * o.n * 4 <= 8.0 * (1u << 30)) {
    DeviceBuffer<float> scores(static_cast<std::size_t>(matrices) * o.n * o.n);
    namespace sa = standard::a05_cuda_attention;
    const dim3 tile(sa::kTile, sa::kTile);
    const long long rows = static_cast<long long>(matrices) * o.n;
    report("standard", median_ms(o.runs, [&] {
             sa::attention_scores<<<dim3(ceil_div(o.n, 16), ceil_div(o.n, 16), matrices), tile>>>(
                 q.get(), k.get(), scores.get(), o.n, o.n, D, scale, o.causal);
             sa::softmax_rows<<<static_cast<unsigned>(ceil_div(rows, 4LL)), 128>>>(scores.get(), lse.get(), rows, o.n);
             sa::weighted_values<<<dim3(ceil_div(D, 16), ceil_div(o.n, 16), matrices), tile>>>(
                 scores.get(), v.get(), out.get(), o.n, o.n, D, o.causal);
           }));
  }

  namespace fa = flash::a05_cuda_attention;
  const std::size_t flash_shared = fa::shared_bytes(D, D);
  ROOFLAB_CUDA_CHECK(cudaFuncSetAttribute(fa::flash_forward, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(flash_shared)));
  const float scale_log2 = 1.4426950408889634f * scale;  // the flash kernel's scores are in base 2
  report("flash", median_ms(o.runs, [&] {
           fa::flash_forward<<<dim3(ceil_div(o.n, fa::kBlockRows), matrices), fa::kThreads, flash_shared>>>(
               q.get(), k.get(), v.get(), out.get(), lse.get(), o.n, o.n, D, D, scale_log2, o.causal);
         }));

  namespace tc = tensor_core::a05_cuda_attention;
  const std::vector<__half> halves = tc::to_half(values);
  const DeviceBuffer<__half> hq(halves), hk(halves), hv(halves);
  const std::size_t tc_shared = tc::shared_bytes<D>();
  ROOFLAB_CUDA_CHECK(cudaFuncSetAttribute(tc::flash_forward_tensor_core<D>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(tc_shared)));
  const unsigned tc_threads = tc::kWarps * 32;
  report("tensor_core", median_ms(o.runs, [&] {
           tc::flash_forward_tensor_core<D><<<dim3(ceil_div(o.n, tc::kBlockRows), matrices), tc_threads, tc_shared>>>(
               hq.get(), hk.get(), hv.get(), out.get(), lse.get(), o.n, o.n, scale, o.causal);
         }));

#ifdef ROOFLAB_BENCH_LADDER
  namespace one = one_row::a05_cuda_attention::ladder;
  const std::size_t one_shared = one::shared_bytes(D, D);
  report("flash_one_row_per_thread", median_ms(o.runs, [&] {
           one::flash_forward_one_row_per_thread<<<dim3(ceil_div(o.n, one::kBlockRows), matrices), one::kBlockRows,
                                                   one_shared>>>(q.get(), k.get(), v.get(), out.get(), lse.get(), o.n,
                                                                 o.n, D, D, scale, o.causal);
         }));
  namespace fl = float_loads::a05_cuda_attention::ladder;
  const std::size_t fl_shared = fl::shared_bytes(D, D);
  ROOFLAB_CUDA_CHECK(cudaFuncSetAttribute(fl::flash_forward_float_loads, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(fl_shared)));
  report("flash_float_loads", median_ms(o.runs, [&] {
           fl::flash_forward_float_loads<<<dim3(ceil_div(o.n, fl::kBlockRows), matrices), fl::kThreads, fl_shared>>>(
               q.get(), k.get(), v.get(), out.get(), lse.get(), o.n, o.n, D, D, scale_log2, o.causal);
         }));
  namespace un = unpadded::a05_cuda_attention::ladder;
  const std::size_t un_shared = un::shared_bytes<D>();
  ROOFLAB_CUDA_CHECK(cudaFuncSetAttribute(un::flash_forward_tensor_core_unpadded<D>,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(un_shared)));
  report("tensor_core_unpadded", median_ms(o.runs, [&] {
           un::flash_forward_tensor_core_unpadded<D>
               <<<dim3(ceil_div(o.n, un::kBlockRows), matrices), un::kWarps * 32, un_shared>>>(
                   hq.get(), hk.get(), hv.get(), out.get(), lse.get(), o.n, o.n, scale, o.causal);
         }));
#endif

  namespace ms = mma_sync::a05_cuda_attention;
  const auto time_mma_sync = [&](const char* name, auto element) {
    using T = decltype(element);
    const std::vector<T> inputs = ms::to_16_bits<T>(values);
    const DeviceBuffer<T> mq(inputs), mk(inputs), mv(inputs);
    const std::size_t ms_shared = ms::shared_bytes<D>();
    ROOFLAB_CUDA_CHECK(cudaFuncSetAttribute(ms::flash_forward_mma_sync<T, D>,
                                            cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(ms_shared)));
    report(name, median_ms(o.runs, [&] {
             ms::flash_forward_mma_sync<T, D>
                 <<<dim3(ceil_div(o.n, ms::kBlockRows), matrices), ms::kThreads, ms_shared>>>(
                     mq.get(), mk.get(), mv.get(), out.get(), lse.get(), o.n, o.n, scale_log2, o.causal);
           }));
  };
  time_mma_sync("mma_sync", __half{});
  time_mma_sync("mma_sync_bf16", __nv_bfloat16{});
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options options = parse(argc, argv);
    int gpus = 0;
    if (cudaGetDeviceCount(&gpus) != cudaSuccess || gpus == 0) {
      std::fprintf(stderr, "rooflab_gpu_attention_bench: no GPU on this machine\n");
      return 2;
    }
    if (options.d == 64)
      run<64>(options);
    else
      run<128>(options);
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "rooflab_gpu_attention_bench: %s\n", error.what());
    return 1;
  }
}
