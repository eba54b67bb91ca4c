// a01_roofline — contract, part 2: arithmetic intensity and the roofline.
//
// Conventions (docs/02_roofline.md): 2 FLOPs per multiply-add; peaks are dense
// (not 2:4-sparse) tensor FLOP/s; bandwidth in bytes/s.
//
// Validation as in memory.hpp: each input a function lists as checked must be a
// positive finite number, else std::invalid_argument whose message names that
// input (its parameter name below) and no other input of the function.
#pragma once

namespace a01_roofline {

// FLOPs per byte moved: flops / bytes. Checks flops and bytes.
double arithmetic_intensity(double flops, double bytes);

// The roofline's knee, in FLOP/byte: peak FLOP/s / bandwidth. Checks
// peak_flops_per_s and bandwidth_bytes_per_s.
double ridge_point(double peak_flops_per_s, double bandwidth_bytes_per_s);

// True when an operation of this intensity is limited by memory bandwidth,
// i.e. its intensity is strictly below the ridge point. Checks intensity,
// peak_flops_per_s and bandwidth_bytes_per_s.
bool is_memory_bound(double intensity, double peak_flops_per_s, double bandwidth_bytes_per_s);

// Highest FLOP/s reachable at this intensity: min(peak, bandwidth × intensity).
// Checks intensity, peak_flops_per_s and bandwidth_bytes_per_s.
double attainable_flops_per_s(double intensity, double peak_flops_per_s, double bandwidth_bytes_per_s);

// Intensity of C = A·B with A (m×k), B (k×n), reading A and B once and writing C
// once: 2mkn / (bytes_per_element × (mk + kn + mn)). Checks m, k, n and
// bytes_per_element.
double matmul_arithmetic_intensity(double m, double k, double n, double bytes_per_element);

}  // namespace a01_roofline
