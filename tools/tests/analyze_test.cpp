// `lab analyze`: model files load and match their published sizes; bad files
// and flags are errors that name what is wrong; the table adds up.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "a02_transformer_costs/a02_transformer_costs.hpp"
#include "analysis.hpp"
#include "model_file.hpp"
#include "rooflab/temp_folder_testing.hpp"

namespace rooflab::analyze {
namespace {

// This program's temp folder, removed after its last test.
const std::filesystem::path kTemp = rooflab::testing::program_temp_folder("analyze-test");
namespace fs = std::filesystem;
namespace a02 = a02_transformer_costs;

const fs::path kModels = ROOFLAB_MODELS_DIR;

TEST(ModelFiles, EveryModelMatchesItsPublishedParameterCount) {
  ASSERT_GE(known_models(kModels).size(), 5u);
  for (const std::string& name : known_models(kModels)) {
    const ModelFile file = find_model(kModels, name);
    EXPECT_EQ(file.config.name, name) << file.path;
    EXPECT_DOUBLE_EQ(a02::parameter_count(file.config), file.published_parameters) << name;
  }
}

TEST(ModelFiles, Gpt2XlFileIsTheLabsModel) {
  const a02::TransformerConfig file = find_model(kModels, "gpt2-xl").config;
  const a02::TransformerConfig lab = a02::gpt2_xl();
  EXPECT_EQ(file.name, lab.name);
  for (auto field :
       {&a02::TransformerConfig::num_layers, &a02::TransformerConfig::d_model, &a02::TransformerConfig::num_heads,
        &a02::TransformerConfig::num_kv_heads, &a02::TransformerConfig::d_ff, &a02::TransformerConfig::vocab_size,
        &a02::TransformerConfig::context_len, &a02::TransformerConfig::bytes_per_element})
    EXPECT_EQ(file.*field, lab.*field);
  EXPECT_EQ(file.mlp, lab.mlp);
  EXPECT_EQ(file.bias, lab.bias);
  EXPECT_EQ(file.tied_embeddings, lab.tied_embeddings);
  EXPECT_EQ(file.positions, lab.positions);
  EXPECT_EQ(file.norm, lab.norm);
}

// gpt2-xl.toml with one line replaced (or dropped when `line` is empty).
fs::path edited_model(const std::string& key, const std::string& line) {
  std::ifstream in(kModels / "gpt2-xl.toml");
  const fs::path path = kTemp / "model.toml";
  std::filesystem::create_directories(kTemp);
  std::ofstream out(path);
  for (std::string text; std::getline(in, text);) {
    if (text.rfind(key + " =", 0) == 0) {
      if (!line.empty()) out << line << "\n";
    } else {
      out << text << "\n";
    }
  }
  return path;
}

std::string load_error(const fs::path& path) {
  try {
    load_model_file(path);
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(ModelFiles, BadFieldsAreNamedWithTheFile) {
  const auto expect_error = [](const std::string& key, const std::string& line, const std::string& needle) {
    const fs::path path = edited_model(key, line);
    const std::string error = load_error(path);
    EXPECT_NE(error.find(path.string()), std::string::npos) << error;
    EXPECT_NE(error.find(needle), std::string::npos) << "expected \"" << needle << "\" in: " << error;
    fs::remove(path);
  };
  expect_error("d_ff", "", "field 'd_ff' is missing");
  expect_error("num_layers", "num_layers = -48", "field 'num_layers' must be a positive number");
  expect_error("num_layers", "num_layers = \"many\"", "field 'num_layers' must be a number");
  expect_error("mlp", "mlp = \"swiglu\"", "field 'mlp' is \"swiglu\"; expected one of gelu, gated");
  expect_error("dtype", "dtype = \"fp12\"", "field 'dtype'");
  expect_error("bias", "bias = 1", "field 'bias' must be true or false");
  expect_error("norm", "norm = \"layer_norm\"\nd_modle = 3", "field 'd_modle' is not a model field");
  expect_error("num_kv_heads", "num_kv_heads = 4", "num_kv_heads");
  expect_error("name", "name = \"unterminated", ":");
  EXPECT_NE(load_error("/no/such.toml").find("no such model file"), std::string::npos);
}

TEST(ModelFiles, UnknownNamesListTheKnownOnes) {
  try {
    find_model(kModels, "gpt5");
    FAIL() << "no error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("known: gpt2, gpt2-large"), std::string::npos) << error.what();
  }
}

TEST(Analyze, ComponentsAddUpToTheModel) {
  for (const bool decode : {false, true}) {
    const Analysis a = analyze(a02::gpt2_xl(), a02::lab_t4(), 4, 512, decode);
    double flops = 0, bytes = 0;
    for (const Row& row : a.components) {
      flops += row.cost.flops;
      bytes += row.cost.bytes;
    }
    EXPECT_NEAR(flops / a.total.cost.flops, 1.0, 1e-12);
    EXPECT_NEAR(bytes / a.total.cost.bytes, 1.0, 1e-12);
    // Decode has no causal mask row; prefill has one.
    const bool has_mask =
        std::any_of(a.components.begin(), a.components.end(), [](const Row& row) { return row.name == "causal mask"; });
    EXPECT_EQ(has_mask, !decode);
  }
  const nlohmann::json json = to_json(analyze(a02::gpt2_xl(), a02::lab_t4(), 1, 32, false));
  EXPECT_EQ(json["pass"]["kind"], "prefill");
  EXPECT_EQ(json["components"].size(), 8u);
  EXPECT_EQ(json["total"]["bound"], "memory");
}

TEST(Analyze, FlagsAreCheckedAndNamed) {
  const auto error = [](auto&& call) -> std::string {
    try {
      call();
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "(no error)";
  };
  EXPECT_NE(error([] {
              analyze(a02::gpt2_xl(), a02::lab_t4(), 1, 4096, true);
            }).find("--seq 4096 exceeds gpt2-xl's context_len 1024"),
            std::string::npos);
  EXPECT_NE(error([] { analyze(a02::gpt2_xl(), a02::lab_t4(), 0, 32, true); }).find("--batch"), std::string::npos);
  EXPECT_NE(error([] { resolve_gpu("custom", 1e12, std::nullopt); }).find("--gpu custom needs both"),
            std::string::npos);
  EXPECT_NE(error([] { resolve_gpu("h900", std::nullopt, std::nullopt); }).find("--gpu: gpu \"h900\""),
            std::string::npos);
  EXPECT_NE(error([] { resolve_gpu("t4", -3.0, std::nullopt); }).find("--bandwidth must be a positive"),
            std::string::npos);
  const a02::Hardware t4 = resolve_gpu("t4", 300e9, std::nullopt);
  EXPECT_EQ(t4.bandwidth_bytes_per_s, 300e9);
  EXPECT_EQ(t4.peak_flops_per_s, 65e12);
}

}  // namespace
}  // namespace rooflab::analyze
