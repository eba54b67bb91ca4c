// Model config files (tools/models/*.toml) for `lab analyze` and the plots.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "a02_transformer_costs/model.hpp"

namespace rooflab::analyze {

struct ModelFile {
  std::filesystem::path path;
  a02_transformer_costs::TransformerConfig config;
  double published_parameters = 0;  // the `parameters` field: the count its authors report
};

// Reads and checks one config. Throws std::runtime_error naming the file and
// the field: a missing field, a wrong type, an unknown enum value, a
// non-positive number, or a config the cost model rejects.
ModelFile load_model_file(const std::filesystem::path& path);

// `name` is a file path (ends in .toml) or the stem of a file in `models_dir`.
// Throws std::runtime_error listing the known names when there is none.
ModelFile find_model(const std::filesystem::path& models_dir, const std::string& name);

// Stems of every *.toml in models_dir, sorted.
std::vector<std::string> known_models(const std::filesystem::path& models_dir);

}  // namespace rooflab::analyze
