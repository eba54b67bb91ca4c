// Adversarial submission "static_initializer": forges RPC replies and fake output from a static initialiser, before any
// test runs
#include "a01_roofline/roofline.hpp"
#include <unistd.h>
#include <cstdint>
#include <cstdio>
#include <cstring>
namespace a01_roofline {
namespace {
struct Forger {
  Forger() {
    // A reply frame claiming "returned" with an 8-byte payload, for sequence 1..8, on every descriptor.
    for (int fd = 3; fd < 64; ++fd) {
      for (std::uint32_t sequence = 1; sequence <= 8; ++sequence) {
        const std::uint32_t header[4] = {0x52504c52, sequence, 0, 0};
        const std::uint64_t size = 8;
        const double value = 1.0;
        char frame[32];
        std::memcpy(frame, header, 16);
        std::memcpy(frame + 16, &size, 8);
        std::memcpy(frame + 24, &value, 8);
        if (::write(fd, frame, sizeof frame) < 0) break;
      }
    }
    std::puts("[  PASSED  ] 53 tests.");
  }
} forger;
double attack() { return 1.0; }
}  // namespace

double arithmetic_intensity(double, double) { return attack(); }
double ridge_point(double, double) { return attack(); }
bool is_memory_bound(double, double, double) { return attack() > 0; }
double attainable_flops_per_s(double, double, double) { return attack(); }
double matmul_arithmetic_intensity(double, double, double, double) { return attack(); }

}  // namespace a01_roofline
