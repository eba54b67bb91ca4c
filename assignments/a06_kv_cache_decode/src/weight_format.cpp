// Provided: holding a model's big matrices in fp16 or bf16 (transformer.hpp).
#include "weight_format.hpp"

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#include "a06_kv_cache_decode/transformer.hpp"

namespace a06_kv_cache_decode {
namespace weight_format {

namespace {

std::uint32_t bits_of(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

}  // namespace

std::uint16_t float_to_bfloat16(float value) {
  const std::uint32_t bits = bits_of(value);
  if (std::isnan(value)) return static_cast<std::uint16_t>((bits >> 16) | 0x40u);  // quiet, sign kept
  // Round to nearest, ties to even: add half an ulp of bf16, plus one if the kept part is odd.
  return static_cast<std::uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

std::uint16_t float_to_half(float value) {
  const std::uint32_t bits = bits_of(value);
  const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
  const float magnitude = std::fabs(value);
  if (std::isnan(value)) return static_cast<std::uint16_t>(sign | 0x7e00u);
  if (magnitude >= 65520.0f) return static_cast<std::uint16_t>(sign | 0x7c00u);  // rounds past the largest: inf
  if (magnitude < 6.103515625e-05f) {
    // Subnormal (or zero): a multiple of 2^−24, rounded to nearest even by
    // the FPU's own rounding of the scaled value.
    const float scaled = std::nearbyint(std::ldexp(magnitude, 24));
    return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(scaled));
  }
  // Normal: drop 13 mantissa bits, ties to even; a carry into the exponent is right.
  const std::uint32_t rebased = (bits & 0x7fffffffu) - (112u << 23);
  const std::uint32_t rounded = rebased + 0xfffu + ((rebased >> 13) & 1u);
  return static_cast<std::uint16_t>(sign | (rounded >> 13));
}

}  // namespace weight_format

namespace {

std::vector<std::uint16_t> narrowed(std::vector<float>& values, WeightFormat format) {
  std::vector<std::uint16_t> bits(values.size());
  for (std::size_t i = 0; i < values.size(); ++i)
    bits[i] = format == WeightFormat::f16 ? weight_format::float_to_half(values[i])
                                          : weight_format::float_to_bfloat16(values[i]);
  values = {};  // the memory goes back now, not when the model does
  return bits;
}

std::vector<float> widened(std::vector<std::uint16_t>& bits, WeightFormat format) {
  std::vector<float> values(bits.size());
  for (std::size_t i = 0; i < bits.size(); ++i)
    values[i] =
        format == WeightFormat::f16 ? weight_format::half_to_float(bits[i]) : weight_format::bfloat16_to_float(bits[i]);
  bits = {};
  return values;
}

// Each big matrix with its 16-bit place.
template <class Model, class Visit>
void for_each_matrix(Model& model, Visit visit) {
  visit(model.token_embedding, model.token_embedding_16);
  for (auto& layer : model.layers) {
    visit(layer.qkv, layer.qkv_16);
    visit(layer.out, layer.out_16);
    visit(layer.up, layer.up_16);
    visit(layer.down, layer.down_16);
  }
}

}  // namespace

const char* weight_format_name(WeightFormat format) {
  switch (format) {
    case WeightFormat::f16:
      return "fp16";
    case WeightFormat::bf16:
      return "bf16";
    default:
      return "fp32";
  }
}

Model with_weight_format(Model model, WeightFormat format) {
  if (format != WeightFormat::f32 && format != WeightFormat::f16 && format != WeightFormat::bf16)
    throw std::invalid_argument("format: " + std::to_string(static_cast<int>(format)) +
                                " is not f32 (0), f16 (1) or bf16 (2)");
  if (format == model.format) return model;
  if (model.format != WeightFormat::f32)  // through fp32: every 16-bit value widens exactly
    for_each_matrix(
        model, [&](std::vector<float>& f32, std::vector<std::uint16_t>& b16) { f32 = widened(b16, model.format); });
  if (format != WeightFormat::f32)
    for_each_matrix(model,
                    [&](std::vector<float>& f32, std::vector<std::uint16_t>& b16) { b16 = narrowed(f32, format); });
  model.format = format;
  return model;
}

std::uint64_t weight_bytes(const Model& model) {
  std::uint64_t bytes = 0;
  const auto add = [&](const auto& values) { bytes += values.size() * sizeof(values[0]); };
  for_each_matrix(model, [&](const std::vector<float>& f32, const std::vector<std::uint16_t>& b16) {
    add(f32);
    add(b16);
  });
  add(model.position_embedding);
  add(model.final_scale);
  add(model.final_shift);
  for (const LayerWeights& layer : model.layers)
    for (const auto* values : {&layer.norm1_scale, &layer.norm1_shift, &layer.qkv_bias, &layer.out_bias,
                               &layer.norm2_scale, &layer.norm2_shift, &layer.up_bias, &layer.down_bias})
      add(*values);
  return bytes;
}

std::uint64_t values_held_in_16_bits(const Model& model) {
  std::uint64_t values = 0;
  for_each_matrix(model,
                  [&](const std::vector<float>&, const std::vector<std::uint16_t>& b16) { values += b16.size(); });
  return values;
}

}  // namespace a06_kv_cache_decode
