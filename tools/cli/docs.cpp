// `rooflab docs [--check] [--plots]`: rewrite (or check) the generated numbers
// in docs/, the lab READMEs and README.md from the reference code, and with
// --plots the figures' data in plots/data too. Both read runs that the
// reference computes once per process (a07's training sweep, a minute), so
// the test suite checks the two in one process.
#include "commands.hpp"
#include "plot_data.hpp"
#include "update_docs.hpp"

namespace rooflab::cli {

void add_docs(CLI::App& app, int& exit_code) {
  auto root = std::make_shared<std::filesystem::path>(kSourceDir);
  auto manifest = std::make_shared<std::filesystem::path>(kBinaryDir / "rooflab_manifest.json");
  auto check = std::make_shared<bool>(false);
  auto plots = std::make_shared<bool>(false);
  CLI::App* command = app.add_subcommand("docs", "Rewrite the generated numbers in docs/ and the lab READMEs");
  command->add_option("--root", *root, "repository to update (default: this one)")->check(CLI::ExistingDirectory);
  command->add_option("--manifest", *manifest, "rooflab_manifest.json of the reference build (default: this build's)")
      ->check(CLI::ExistingFile);
  command->add_flag("--check", *check, "Only check; exit 1 naming every stale number");
  command->add_flag("--plots", *plots,
                    "The figures' CSV data in plots/data as well, in the same process (rendering is `rooflab plots`)");
  command->callback([root, manifest, check, plots, &exit_code] {
    exit_code = docs::update_docs(*root, *manifest, !*check);
    if (*plots && plots::update_plot_data(*root / "plots" / "data", !*check) != 0) exit_code = 1;
  });
}

}  // namespace rooflab::cli
