// The mappings that hold the memory checker's shadow words, kept from one
// launch to the next. A launch's shadow is 16 bytes per byte it touches
// (memory_checker.cpp's Word: a cache line per 4-byte word), mapped on first
// use; unmapped after every launch, each launch paid again for every page it
// touched: a fault and the kernel zeroing the page (a tenth of a tensor-core
// test's time). Kept, a page is touched once per process.
//
// A kept mapping still holds the words of launches before: a word is current
// only while its `owner` is the one its region gives now (Region::word starts
// a word afresh otherwise), so every owner a launch uses is new in the
// process (take_owners). Internal.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rooflab::cuda_cpu::detail {

struct ShadowMapping {
  void* address = nullptr;
  std::size_t bytes = 0;  // what was mapped: at least what was asked
};

// A mapping of at least `bytes`, zeroed where never used, else holding the
// words of earlier launches (their owners all taken before).
ShadowMapping take_shadow(std::size_t bytes);

// Back to the pool, or unmapped where the pool would hold more than
// kKeptShadowBytes: what a process keeps between launches stays a small
// part of a test's memory limit (2 GiB for the CUDA labs).
void give_back_shadow(ShadowMapping mapping);
inline constexpr std::size_t kKeptShadowBytes = std::size_t{256} << 20;

// Owners a launch takes for its blocks at most (a million blocks: minutes
// in the CPU runtime); a larger grid uses them again, each time after
// emptying shared memory's shadow.
inline constexpr std::uint32_t kBlockOwnersPerLaunch = std::uint32_t{1} << 20;

// The largest owner: Word::owner has 28 bits, and 0 is a word never used.
inline constexpr std::uint32_t kLastOwner = (std::uint32_t{1} << 28) - 1;

// `count` owners no word in any mapping holds: the first of them, the rest
// following it. When the 28 bits run out, every kept mapping is unmapped
// first, and owners start again at 1 (call it before the launch maps any
// shadow). At most kLastOwner − 1.
std::uint32_t take_owners(std::uint32_t count);

}  // namespace rooflab::cuda_cpu::detail
