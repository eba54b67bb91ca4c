// How many shared-memory wavefronts an ldmatrix takes, by the hardware's bank
// rule: it serves its 8 × 8 matrices one at a time (a phase of 8 rows of 16
// bytes, 4 words each, in 4 of the 32 banks of 4 bytes), and a phase takes as
// many wavefronts as the bank most asked for has distinct words (rows at one
// address are read once). 1 per matrix at best. The CPU runtime counts each
// ldmatrix by it (src/cuda_cpu/tensor_core_memory.cpp); the docs' swizzle
// figures come from it.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

namespace rooflab::cuda {

// `rows[8·m + r]`: the address of row r of matrix m, for `matrices` (1, 2 or 4).
inline unsigned ldmatrix_wavefronts(const std::uintptr_t* rows, int matrices) {
  unsigned wavefronts = 0;
  for (int matrix = 0; matrix < matrices; ++matrix) {
    std::array<std::uintptr_t, 32> words{};  // the phase's distinct words
    unsigned count = 0;
    for (int r = 0; r < 8; ++r)
      for (std::uintptr_t word = rows[8 * matrix + r] / 4; word < rows[8 * matrix + r] / 4 + 4; ++word)
        if (std::find(words.begin(), words.begin() + count, word) == words.begin() + count) words[count++] = word;
    std::array<unsigned, 32> per_bank{};
    for (unsigned i = 0; i < count; ++i) ++per_bank[words[i] % 32];
    wavefronts += *std::max_element(per_bank.begin(), per_bank.end());
  }
  return wavefronts;
}

}  // namespace rooflab::cuda
