// a01_roofline — contract, part 2: arithmetic intensity and the roofline.
//
// Conventions (docs/02_roofline.md): 2 FLOPs per multiply-add; peaks are dense
// (not 2:4-sparse) tensor FLOP/s; bandwidth in bytes/s. Every function throws
// std::invalid_argument naming the argument when an input is non-positive or
// non-finite.
#pragma once

namespace a01_roofline {

// FLOPs per byte moved: flops / bytes. Throws std::invalid_argument naming
// flops or bytes, whichever is not a positive finite number.
double arithmetic_intensity(double flops, double bytes);

// The roofline's knee, in FLOP/byte: peak FLOP/s / bandwidth. Throws
// std::invalid_argument naming peak_flops_per_s or bandwidth_bytes_per_s,
// whichever is not a positive finite number.
double ridge_point(double peak_flops_per_s, double bandwidth_bytes_per_s);

// True when an operation of this intensity is limited by memory bandwidth,
// i.e. its intensity is strictly below the ridge point. Throws
// std::invalid_argument naming intensity, peak_flops_per_s or
// bandwidth_bytes_per_s, whichever is not a positive finite number.
bool is_memory_bound(double intensity, double peak_flops_per_s, double bandwidth_bytes_per_s);

// Highest FLOP/s reachable at this intensity: min(peak, bandwidth × intensity).
// Throws std::invalid_argument naming intensity, peak_flops_per_s or
// bandwidth_bytes_per_s, whichever is not a positive finite number.
double attainable_flops_per_s(double intensity, double peak_flops_per_s, double bandwidth_bytes_per_s);

// Intensity of C = A·B with A (m×k), B (k×n), reading A and B once and writing C
// once: 2mkn / (bytes_per_element × (mk + kn + mn)). Throws
// std::invalid_argument naming m, k, n or bytes_per_element, whichever is not a
// positive finite number.
double matmul_arithmetic_intensity(double m, double k, double n, double bytes_per_element);

}  // namespace a01_roofline
