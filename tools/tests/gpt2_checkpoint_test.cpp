// The small GPT-2 checkpoints of data/checkpoints/ (tools/checkpoints/
// make_tiny_gpt2.py writes them with transformers) read into a06's model:
// the same logits as transformers at every position of every reference
// prompt, through the KV cache; the same prompt ids from the tokenizer; the
// same greedy continuation, token for token and as text; fp16 and bf16
// weights widened on load; and a bad folder named, with the field or tensor.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "gpt2_checkpoint.hpp"
#include "rooflab/bpe_tokenizer.hpp"
#include "rooflab/safetensors.hpp"
#include "rooflab/temp_folder_testing.hpp"
#include "text_generation.hpp"

namespace rooflab::decode {
namespace {
namespace fs = std::filesystem;

const fs::path kCheckpoints = ROOFLAB_CHECKPOINTS_DIR;
const fs::path kScratch = testing::program_temp_folder("gpt2_checkpoint");

nlohmann::json reference_of(const fs::path& folder) {
  std::ifstream in(folder / "reference.json");
  return nlohmann::json::parse(in);
}

// The logits of every prompt position, through the cache, within fp32's
// rounding of transformers' (a different order of the same sums).
void expect_reference_logits(const fs::path& folder) {
  const Gpt2Checkpoint checkpoint = load_gpt2_checkpoint(folder);
  const a06_kv_cache_decode::Model& model = checkpoint.model;
  const nlohmann::json reference = reference_of(folder);
  ASSERT_FALSE(reference["prompts"].empty());
  for (const auto& prompt : reference["prompts"]) {
    const auto ids = prompt["ids"].get<std::vector<std::int64_t>>();
    a06_kv_cache_decode::DecodeState state =
        a06_kv_cache_decode::make_decode_state(model.config, 1, static_cast<std::int64_t>(ids.size()), false);
    for (std::size_t t = 0; t < ids.size(); ++t) {
      const std::vector<float> logits = a06_kv_cache_decode::step(model, state, {ids[t]});
      const auto expected = prompt["logits"][t].get<std::vector<float>>();
      ASSERT_EQ(logits.size(), expected.size());
      double worst = 0;
      std::size_t at = 0;
      for (std::size_t v = 0; v < logits.size(); ++v) {
        const double error = std::abs(logits[v] - expected[v]) / (1e-4 + 1e-4 * std::abs(expected[v]));
        if (error > worst) worst = error, at = v;
      }
      EXPECT_LE(worst, 1.0) << folder.filename() << " \"" << prompt["text"].get<std::string>() << "\" position " << t
                            << ": token " << at << "'s logit " << logits[at] << " but transformers' " << expected[at];
    }
  }
}

TEST(Gpt2Checkpoint, Fp32LogitsMatchTransformersAtEveryPosition) {
  expect_reference_logits(kCheckpoints / "tiny-gpt2");
}

TEST(Gpt2Checkpoint, Fp16WeightsWidenedMatchTransformersOnTheSameWeights) {
  const Gpt2Checkpoint checkpoint = load_gpt2_checkpoint(kCheckpoints / "tiny-gpt2-fp16");
  EXPECT_EQ(checkpoint.stored_dtype, TensorDtype::f16);
  const Gpt2Checkpoint fp32 = load_gpt2_checkpoint(kCheckpoints / "tiny-gpt2");
  EXPECT_EQ(checkpoint.stored_weight_bytes * 2, fp32.stored_weight_bytes) << "two bytes a weight, not four";
  expect_reference_logits(kCheckpoints / "tiny-gpt2-fp16");
}

TEST(Gpt2Checkpoint, GreedyContinuationIsTransformersTokenForTokenAndAsText) {
  for (const char* name : {"tiny-gpt2", "tiny-gpt2-fp16", "tiny-gpt2-draft"}) {
    const fs::path folder = kCheckpoints / name;
    const Gpt2Checkpoint checkpoint = load_gpt2_checkpoint(folder);
    const BpeTokenizer tokenizer = BpeTokenizer::from_folder(folder);
    for (const auto& prompt : reference_of(folder)["prompts"]) {
      const auto ids = tokenizer.encode(prompt["text"].get<std::string>());
      EXPECT_EQ(ids, prompt["ids"].get<std::vector<std::int64_t>>()) << name << ": the tokenizer's ids";
      const auto greedy = prompt["greedy"].get<std::vector<std::int64_t>>();
      Sampler sampler({});
      const Continuation continuation =
          continue_prompt(checkpoint.model, ids, static_cast<std::int64_t>(greedy.size()), sampler);
      EXPECT_EQ(continuation.tokens, greedy) << name << " \"" << prompt["text"].get<std::string>() << "\"";
      EXPECT_EQ(tokenizer.decode(continuation.tokens), prompt["greedy_text"].get<std::string>()) << name;
    }
  }
}

// A copy of the fp32 checkpoint whose every tensor `rewrite` may change.
fs::path copy_checkpoint(const fs::path& to, const std::function<void(std::vector<TensorToWrite>&)>& rewrite) {
  fs::create_directories(to);
  fs::copy_file(kCheckpoints / "tiny-gpt2" / "config.json", to / "config.json", fs::copy_options::overwrite_existing);
  const SafetensorsFile file = SafetensorsFile::open(kCheckpoints / "tiny-gpt2" / "model.safetensors");
  std::vector<TensorToWrite> tensors;
  for (const TensorInfo& info : file.tensors())
    tensors.push_back({info.name, info.dtype, info.shape, file.read_bytes(info.name)});
  rewrite(tensors);
  write_safetensors(to / "model.safetensors", tensors);
  return to;
}

TEST(Gpt2Checkpoint, Bf16WeightsAreTheFp32ModelOnBf16RoundedWeights) {
  const fs::path folder = kScratch / "bf16";
  copy_checkpoint(folder, [](std::vector<TensorToWrite>& tensors) {
    for (TensorToWrite& tensor : tensors) {
      std::vector<float> values(tensor.bytes.size() / 4);
      std::memcpy(values.data(), tensor.bytes.data(), tensor.bytes.size());
      tensor.dtype = TensorDtype::bf16;
      tensor.bytes.resize(values.size() * 2);
      for (std::size_t i = 0; i < values.size(); ++i) {
        const std::uint16_t bits = float_to_bf16_bits(values[i]);
        std::memcpy(tensor.bytes.data() + 2 * i, &bits, 2);
      }
    }
  });
  const Gpt2Checkpoint bf16 = load_gpt2_checkpoint(folder);
  EXPECT_EQ(bf16.stored_dtype, TensorDtype::bf16);
  a06_kv_cache_decode::Model rounded = load_gpt2_checkpoint(kCheckpoints / "tiny-gpt2").model;
  for_each_weight(rounded, [](std::vector<float>& values) {
    for (float& value : values) value = bf16_bits_to_float(float_to_bf16_bits(value));
  });
  const std::vector<std::int64_t> tokens{3, 141, 59, 26, 5};
  EXPECT_EQ(a06_kv_cache_decode::full_logits(bf16.model, tokens), a06_kv_cache_decode::full_logits(rounded, tokens));
  fs::remove_all(folder);
}

// The message of what `load` throws, or "" when it throws nothing.
template <class Load>
std::string error_of(Load load) {
  try {
    load();
  } catch (const std::exception& error) {
    return error.what();
  }
  return "";
}

void set_config(const fs::path& folder, const std::string& field, const nlohmann::json& value) {
  nlohmann::json config = nlohmann::json::parse(std::ifstream(folder / "config.json"));
  if (value.is_discarded())
    config.erase(field);
  else
    config[field] = value;
  std::ofstream(folder / "config.json") << config.dump(2);
}

TEST(Gpt2Checkpoint, BadFoldersNameTheFileAndTheFieldOrTensor) {
  const fs::path scratch = kScratch / "bad";
  const auto keep_all = [](std::vector<TensorToWrite>&) {};

  const fs::path missing = copy_checkpoint(scratch / "missing", [](std::vector<TensorToWrite>& tensors) {
    std::erase_if(tensors, [](const TensorToWrite& t) { return t.name == "transformer.h.1.mlp.c_fc.bias"; });
  });
  std::string message = error_of([&] { load_gpt2_checkpoint(missing); });
  EXPECT_NE(message.find("model.safetensors: tensor \"h.1.mlp.c_fc.bias\""), std::string::npos) << message;
  EXPECT_NE(message.find("missing"), std::string::npos) << message;

  const fs::path shape = copy_checkpoint(scratch / "shape", keep_all);
  set_config(shape, "n_inner", 128);
  message = error_of([&] { load_gpt2_checkpoint(shape); });
  EXPECT_NE(message.find("tensor \"transformer.h.0.mlp.c_fc.weight\" has shape [64, 256] but config.json implies "
                         "[64, 128]"),
            std::string::npos)
      << message;

  const fs::path layers = copy_checkpoint(scratch / "layers", keep_all);
  set_config(layers, "n_layer", nlohmann::json(nlohmann::json::value_t::discarded));
  message = error_of([&] { load_gpt2_checkpoint(layers); });
  EXPECT_NE(message.find("config.json: field \"n_layer\" is missing"), std::string::npos) << message;
  set_config(layers, "n_layer", "two");
  message = error_of([&] { load_gpt2_checkpoint(layers); });
  EXPECT_NE(message.find("field \"n_layer\" must be a positive integer"), std::string::npos) << message;

  const fs::path activation = copy_checkpoint(scratch / "activation", keep_all);
  set_config(activation, "activation_function", "relu");
  message = error_of([&] { load_gpt2_checkpoint(activation); });
  EXPECT_NE(message.find("field \"activation_function\" is \"relu\""), std::string::npos) << message;

  const fs::path truncated = copy_checkpoint(scratch / "truncated", keep_all);
  fs::resize_file(truncated / "model.safetensors", fs::file_size(truncated / "model.safetensors") - 100);
  message = error_of([&] { load_gpt2_checkpoint(truncated); });
  EXPECT_NE(message.find("model.safetensors"), std::string::npos) << message;

  const fs::path untied = copy_checkpoint(scratch / "untied", [](std::vector<TensorToWrite>& tensors) {
    for (const TensorToWrite& tensor : tensors)
      if (tensor.name == "transformer.wte.weight") {
        TensorToWrite head = tensor;
        head.name = "lm_head.weight";
        head.bytes[0] ^= 1;
        tensors.push_back(head);
        return;
      }
  });
  message = error_of([&] { load_gpt2_checkpoint(untied); });
  EXPECT_NE(message.find("tensor \"lm_head.weight\" differs from the token embedding"), std::string::npos) << message;

  message = error_of([&] { load_gpt2_checkpoint(scratch / "nowhere"); });
  EXPECT_NE(message.find("nowhere: not a folder"), std::string::npos) << message;
  fs::remove_all(scratch);
}

}  // namespace
}  // namespace rooflab::decode
