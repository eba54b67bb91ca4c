// Provided: the order a Model holds its big matrices in: the layers' qkv,
// out, up and down, and the token embedding E transposed, as the LM head
// h·Eᵀ reads it. A decode step at batch 8 or 32 applies each block of W to
// every row of the batch while it is in L1, so W is stored block by block:
// chunks of W's rows, each cut into tiles of a few vector registers' width,
// each (chunk, tile) block one contiguous run of memory. The hardware then
// streams whole blocks, and the next blocks can be asked for while this one
// is in use; row-major, a block's rows lie a whole matrix row apart
// (docs/benchmarks.md measures both). The block sizes follow the build's
// vector width, so convert with these functions rather than computing
// positions yourself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace a06_kv_cache_decode {

// Where element (p, j) of an (in × out) matrix sits in tile order. Throws
// std::invalid_argument naming in, out, p or j when a size is not positive or
// an index is outside the matrix.
std::size_t tiled_index(std::int64_t in, std::int64_t out, std::int64_t p, std::int64_t j);

// An (in × out) matrix, row-major, in tile order, and back. Throw
// std::invalid_argument naming row_major or tiled when it does not hold
// in · out values (and in or out when one is not positive).
std::vector<float> to_tiled(const std::vector<float>& row_major, std::int64_t in, std::int64_t out);
std::vector<float> to_row_major(const std::vector<float>& tiled, std::int64_t in, std::int64_t out);

// W (in × out) in tile order from its transpose (out × in, row-major): the
// token embedding (vocab × d_model) as the LM head reads it, Eᵀ (d_model ×
// vocab). Throws std::invalid_argument naming transposed when it does not
// hold in · out values (and in or out when one is not positive).
std::vector<float> transposed_to_tiled(const std::vector<float>& transposed, std::int64_t in, std::int64_t out);

}  // namespace a06_kv_cache_decode
