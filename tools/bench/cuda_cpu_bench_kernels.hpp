// The kernels `rooflab bench cuda-cpu` times (cuda_cpu_bench_kernels.cu),
// built twice: `checked` as every CUDA source is (each access reaches the
// runtime's checker and counters), `unchecked` without the instrumentation.
#pragma once

namespace rooflab::bench {

// Seconds (best of `repeats`) for one launch of each kernel, and the number
// of loads and stores its threads make.
struct KernelTiming {
  const char* kernel;
  double seconds;
  double accesses;
};

#define ROOFLAB_BENCH_KERNELS(variant)                                                          \
  namespace variant {                                                                           \
  KernelTiming time_copy(int repeats);        /* 4 M floats, coalesced */                       \
  KernelTiming time_transpose(int repeats);   /* 1024 × 1024 through padded tiles */           \
  KernelTiming time_row_softmax(int repeats); /* 1024 rows of 1024, a warp a row */             \
  KernelTiming time_barriers(int repeats);    /* 8 blocks × 256 threads × 1000 barriers */    \
  KernelTiming time_tiny_blocks(int repeats); /* 2000 blocks of 32 threads */                   \
  KernelTiming time_wmma_gemm(int repeats);   /* 256³ fp16 through WMMA, 4096 mma_sync */      \
  KernelTiming time_mma_gemm(int repeats);    /* the same on cp.async, ldmatrix and mma.sync */ \
  }
ROOFLAB_BENCH_KERNELS(checked)
ROOFLAB_BENCH_KERNELS(unchecked)
#undef ROOFLAB_BENCH_KERNELS

}  // namespace rooflab::bench
