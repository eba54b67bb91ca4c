#include "gpt2_checkpoint.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace rooflab::decode {
namespace fs = std::filesystem;
namespace {

using a06_kv_cache_decode::LayerWeights;
using a06_kv_cache_decode::ModelConfig;

std::runtime_error config_error(const fs::path& file, const std::string& field, const std::string& what) {
  return std::runtime_error(file.string() + ": field \"" + field + "\" " + what);
}

nlohmann::json read_json(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(file.string() + ": cannot read it (a GPT-2 folder holds config.json)");
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& error) {
    throw std::runtime_error(file.string() + ": not valid JSON: " + error.what());
  }
}

std::int64_t positive_int(const nlohmann::json& json, const fs::path& file, const std::string& field) {
  if (!json.contains(field)) throw config_error(file, field, "is missing");
  const nlohmann::json& value = json.at(field);
  if (!value.is_number_integer() || value.get<std::int64_t>() <= 0)
    throw config_error(file, field, "must be a positive integer, not " + value.dump());
  return value.get<std::int64_t>();
}

// A setting a06's model computes one way only: the file must say that way
// (or say nothing, where transformers' default is that way).
template <class T>
void require_setting(const nlohmann::json& json, const fs::path& file, const std::string& field, const T& expected,
                     const std::string& why) {
  if (!json.contains(field) || json.at(field).is_null()) return;
  const nlohmann::json& value = json.at(field);
  bool same = false;
  if constexpr (std::is_same_v<T, double>)
    same = value.is_number() && std::abs(value.get<double>() - expected) <= 1e-12;
  else
    same = value == nlohmann::json(expected);
  if (!same) throw config_error(file, field, "is " + value.dump() + ": " + why);
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::ostringstream text;
  text << "[";
  for (std::size_t i = 0; i < shape.size(); ++i) text << (i ? ", " : "") << shape[i];
  return text.str() + "]";
}

// The tensors of one model.safetensors, found under GPT-2's names with or
// without the "transformer." prefix that GPT2LMHeadModel's save_pretrained
// writes, each checked against the shape config.json implies.
class Weights {
 public:
  Weights(const fs::path& path, const ModelConfig& config) : file_(SafetensorsFile::open(path)), config_(config) {}

  std::vector<float> read(const std::string& name, const std::vector<std::int64_t>& shape) {
    const TensorInfo& info = find(name);
    if (info.shape != shape)
      throw std::runtime_error(file_.path().string() + ": tensor \"" + info.name + "\" has shape " +
                               shape_text(info.shape) + " but config.json implies " + shape_text(shape));
    if (info.dtype != TensorDtype::f32 && info.dtype != TensorDtype::f16 && info.dtype != TensorDtype::bf16)
      throw std::runtime_error(file_.path().string() + ": tensor \"" + info.name + "\" is " + to_string(info.dtype) +
                               ": GPT-2's weights are read in F32, F16 or BF16");
    if (dtype_seen_ && info.dtype != dtype_)
      throw std::runtime_error(file_.path().string() + ": tensor \"" + info.name + "\" is " + to_string(info.dtype) +
                               " where the others are " + to_string(dtype_) + ": one dtype per checkpoint");
    dtype_ = info.dtype;
    dtype_seen_ = true;
    bytes_ += info.end - info.begin;
    return file_.read_as_float(info.name);
  }

  const TensorInfo* maybe(const std::string& name) const {
    if (const TensorInfo* info = file_.find("transformer." + name)) return info;
    return file_.find(name);
  }
  const SafetensorsFile& file() const { return file_; }
  TensorDtype dtype() const { return dtype_; }
  std::uint64_t bytes() const { return bytes_; }

 private:
  const TensorInfo& find(const std::string& name) const {
    if (const TensorInfo* info = maybe(name)) return *info;
    throw std::runtime_error(file_.path().string() + ": tensor \"" + name + "\" (or \"transformer." + name +
                             "\") is missing: a GPT-2 checkpoint of " + std::to_string(config_.layers) +
                             " layers needs it");
  }

  SafetensorsFile file_;
  ModelConfig config_;
  TensorDtype dtype_ = TensorDtype::f32;
  bool dtype_seen_ = false;
  std::uint64_t bytes_ = 0;
};

LayerWeights read_layer(Weights& weights, const ModelConfig& c, std::int64_t l) {
  const std::string h = "h." + std::to_string(l) + ".";
  const std::int64_t d = c.d_model, width = 3 * d;
  LayerWeights layer;
  layer.norm1_scale = weights.read(h + "ln_1.weight", {d});
  layer.norm1_shift = weights.read(h + "ln_1.bias", {d});
  // Conv1D stores W as (in, out), row-major: x·W, as a06 computes it, in the tile order it holds it in.
  layer.qkv = a06_kv_cache_decode::to_tiled(weights.read(h + "attn.c_attn.weight", {d, width}), d, width);
  layer.qkv_bias = weights.read(h + "attn.c_attn.bias", {width});
  layer.out = a06_kv_cache_decode::to_tiled(weights.read(h + "attn.c_proj.weight", {d, d}), d, d);
  layer.out_bias = weights.read(h + "attn.c_proj.bias", {d});
  layer.norm2_scale = weights.read(h + "ln_2.weight", {d});
  layer.norm2_shift = weights.read(h + "ln_2.bias", {d});
  layer.up = a06_kv_cache_decode::to_tiled(weights.read(h + "mlp.c_fc.weight", {d, c.d_ff}), d, c.d_ff);
  layer.up_bias = weights.read(h + "mlp.c_fc.bias", {c.d_ff});
  layer.down = a06_kv_cache_decode::to_tiled(weights.read(h + "mlp.c_proj.weight", {c.d_ff, d}), c.d_ff, d);
  layer.down_bias = weights.read(h + "mlp.c_proj.bias", {d});
  return layer;
}

}  // namespace

ModelConfig read_gpt2_config(const fs::path& config_json) {
  const nlohmann::json json = read_json(config_json);
  if (!json.is_object()) throw std::runtime_error(config_json.string() + ": not a JSON object");
  if (json.contains("model_type") && json.at("model_type") != "gpt2")
    throw config_error(config_json, "model_type", "is " + json.at("model_type").dump() + ", not \"gpt2\"");
  require_setting(json, config_json, "activation_function", std::string("gelu_new"),
                  "a06's model computes GPT-2's GELU, gelu_new (the tanh form)");
  require_setting(json, config_json, "layer_norm_epsilon", 1e-5, "a06's layer norm adds 1e-5");
  require_setting(json, config_json, "scale_attn_weights", true, "a06's attention scales scores by 1/√head_dim");
  require_setting(json, config_json, "scale_attn_by_inverse_layer_idx", false,
                  "a06's attention scales every layer alike");
  require_setting(json, config_json, "tie_word_embeddings", true, "a06's LM head is the token embedding");
  ModelConfig config;
  config.layers = positive_int(json, config_json, "n_layer");
  config.d_model = positive_int(json, config_json, "n_embd");
  config.heads = positive_int(json, config_json, "n_head");
  config.kv_heads = config.heads;
  config.vocab = positive_int(json, config_json, "vocab_size");
  config.context = positive_int(json, config_json, "n_positions");
  config.d_ff = json.contains("n_inner") && !json.at("n_inner").is_null() ? positive_int(json, config_json, "n_inner")
                                                                          : 4 * config.d_model;
  if (config.d_model % config.heads != 0)
    throw config_error(
        config_json, "n_head",
        "(" + std::to_string(config.heads) + ") does not divide n_embd (" + std::to_string(config.d_model) + ")");
  return config;
}

Gpt2Checkpoint load_gpt2_checkpoint(const fs::path& folder, bool keep_16_bit) {
  if (!fs::is_directory(folder))
    throw std::runtime_error(folder.string() +
                             ": not a folder (a GPT-2 checkpoint folder holds config.json and "
                             "model.safetensors)");
  Gpt2Checkpoint checkpoint;
  checkpoint.folder = folder;
  const ModelConfig config = read_gpt2_config(folder / "config.json");
  if (!fs::exists(folder / "model.safetensors"))
    throw std::runtime_error((folder / "model.safetensors").string() +
                             ": missing (this reader takes one safetensors file, not pytorch_model.bin or shards)");
  Weights weights(folder / "model.safetensors", config);
  a06_kv_cache_decode::Model& model = checkpoint.model;
  model.config = config;
  {
    const std::vector<float> wte = weights.read("wte.weight", {config.vocab, config.d_model});
    // The LM head is tied: a file may repeat it, but only as wte's copy.
    if (const TensorInfo* head = weights.file().find("lm_head.weight")) {
      if (head->shape != std::vector<std::int64_t>{config.vocab, config.d_model} ||
          weights.file().read_as_float("lm_head.weight") != wte)
        throw std::runtime_error(weights.file().path().string() +
                                 ": tensor \"lm_head.weight\" differs from the token embedding (wte): a06's LM "
                                 "head is tied to it, as GPT-2's is");
    }
    // Held as the LM head reads it: Eᵀ (n_embd × vocab_size) in tile order.
    model.token_embedding = a06_kv_cache_decode::transposed_to_tiled(wte, config.d_model, config.vocab);
  }
  model.position_embedding = weights.read("wpe.weight", {config.context, config.d_model});
  for (std::int64_t l = 0; l < config.layers; ++l) model.layers.push_back(read_layer(weights, config, l));
  model.final_scale = weights.read("ln_f.weight", {config.d_model});
  model.final_shift = weights.read("ln_f.bias", {config.d_model});
  checkpoint.stored_dtype = weights.dtype();
  checkpoint.stored_weight_bytes = weights.bytes();
  // The file's 16 bits back from their exact fp32 widening: nothing rounds.
  if (keep_16_bit && checkpoint.stored_dtype != TensorDtype::f32)
    model = a06_kv_cache_decode::with_weight_format(std::move(model), checkpoint.stored_dtype == TensorDtype::f16
                                                                          ? a06_kv_cache_decode::WeightFormat::f16
                                                                          : a06_kv_cache_decode::WeightFormat::bf16);
  return checkpoint;
}

}  // namespace rooflab::decode
