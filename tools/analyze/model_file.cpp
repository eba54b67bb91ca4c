#include "model_file.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "a01_roofline/memory.hpp"
#include "a02_transformer_costs/models.hpp"
#include "rooflab/toml_document.hpp"

namespace rooflab::analyze {
namespace fs = std::filesystem;
namespace {

using a02_transformer_costs::TransformerConfig;

class Reader {
 public:
  Reader(const fs::path& path, const toml::Value& table) : path_(path), table_(table) {}

  // "file:line: field 'x' why", with the line of the field's value where it has one.
  [[noreturn]] void fail(const std::string& field, const std::string& why) const {
    const toml::Value* value = table_.find(field);
    const std::string line = value && value->line() > 0 ? std::string(":") + std::to_string(value->line()) : "";
    throw std::runtime_error(path_.string() + line + ": field '" + field + "' " + why);
  }

  const toml::Value& node(const std::string& field) const {
    const toml::Value* found = table_.find(field);
    if (!found) fail(field, "is missing");
    return *found;
  }

  double number(const std::string& field) const {
    const std::optional<double> value = node(field).as_number();  // an integer, widened
    if (!value) fail(field, "must be a number");
    if (!(*value > 0) || !std::isfinite(*value))
      fail(field, "must be a positive number, got " + std::to_string(*value));
    return *value;
  }

  std::string text(const std::string& field) const {
    const std::string* value = node(field).as_string();
    if (!value) fail(field, "must be a string");
    return *value;
  }

  bool flag(const std::string& field) const {
    const std::optional<bool> value = node(field).as_boolean();
    if (!value) fail(field, "must be true or false");
    return *value;
  }

  // One of `choices`, returned as its index.
  std::size_t choice(const std::string& field, const std::vector<std::string>& choices) const {
    const std::string value = text(field);
    const auto at = std::find(choices.begin(), choices.end(), value);
    if (at != choices.end()) return static_cast<std::size_t>(at - choices.begin());
    std::string list;
    for (const auto& c : choices) list += (list.empty() ? "" : ", ") + c;
    fail(field, "is \"" + value + "\"; expected one of " + list);
  }

  void reject_unknown(const std::vector<std::string>& known) const {
    for (const std::string& name : table_.keys())
      if (std::find(known.begin(), known.end(), name) == known.end()) fail(name, "is not a model field (a typo?)");
  }

 private:
  fs::path path_;
  const toml::Value& table_;
};

}  // namespace

ModelFile load_model_file(const fs::path& path) {
  if (!fs::is_regular_file(path)) throw std::runtime_error(path.string() + ": no such model file");
  // toml::ParseError is a std::runtime_error naming the file and the line.
  const toml::Value table = toml::parse_file(path);
  const Reader read(path, table);
  read.reject_unknown({"name", "num_layers", "d_model", "num_heads", "num_kv_heads", "d_ff", "vocab_size",
                       "context_len", "dtype", "mlp", "bias", "tied_embeddings", "positions", "norm", "parameters"});
  ModelFile file;
  file.path = path;
  TransformerConfig& c = file.config;
  c.name = read.text("name");
  c.num_layers = read.number("num_layers");
  c.d_model = read.number("d_model");
  c.num_heads = read.number("num_heads");
  c.num_kv_heads = read.number("num_kv_heads");
  c.d_ff = read.number("d_ff");
  c.vocab_size = read.number("vocab_size");
  c.context_len = read.number("context_len");
  try {
    c.bytes_per_element = a01_roofline::bytes_per_element(a01_roofline::parse_dtype(read.text("dtype")));
  } catch (const std::invalid_argument& error) {
    read.fail("dtype", error.what());
  }
  c.mlp = read.choice("mlp", {"gelu", "gated"}) == 0 ? a02_transformer_costs::MlpKind::gelu
                                                     : a02_transformer_costs::MlpKind::gated;
  c.bias = read.flag("bias");
  c.tied_embeddings = read.flag("tied_embeddings");
  c.positions = read.choice("positions", {"learned", "rotary"}) == 0 ? a02_transformer_costs::PositionKind::learned
                                                                     : a02_transformer_costs::PositionKind::rotary;
  c.norm = read.choice("norm", {"layer_norm", "rms_norm"}) == 0 ? a02_transformer_costs::NormKind::layer_norm
                                                                : a02_transformer_costs::NormKind::rms_norm;
  file.published_parameters = read.number("parameters");
  try {
    a02_transformer_costs::require_valid(c);
  } catch (const std::invalid_argument& error) {
    throw std::runtime_error(path.string() + ": " + error.what());
  }
  return file;
}

std::vector<std::string> known_models(const fs::path& models_dir) {
  std::vector<std::string> names;
  if (fs::is_directory(models_dir))
    for (const auto& entry : fs::directory_iterator(models_dir))
      if (entry.path().extension() == ".toml") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

ModelFile find_model(const fs::path& models_dir, const std::string& name) {
  if (fs::path(name).extension() == ".toml") return load_model_file(name);
  const fs::path path = models_dir / (name + ".toml");
  if (fs::exists(path)) return load_model_file(path);
  std::string list;
  for (const auto& known : known_models(models_dir)) list += (list.empty() ? "" : ", ") + known;
  throw std::runtime_error("--model " + name + ": unknown model; known: " + list + " (or a path to a .toml file)");
}

}  // namespace rooflab::analyze
