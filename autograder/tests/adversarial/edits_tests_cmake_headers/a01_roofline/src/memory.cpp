// Adversarial submission "edits_tests_cmake_headers": relies on its own copy of
// the header, which declares nothing, and on tests and CMake files it rewrote.
#include "a01_roofline/memory.hpp"

namespace a01_roofline {
double everything_passes() { return 1.0; }
}  // namespace a01_roofline
