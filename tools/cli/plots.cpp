// `rooflab plots [--check]`: the figures' data from the reference code into
// plots/data, rendered by gnuplot (plots/render.sh) into plots/figures.
#include <unistd.h>

#include <iostream>

#include "commands.hpp"
#include "os/process.hpp"
#include "plot_data.hpp"

namespace rooflab::cli {

void add_plots(CLI::App& app, int& exit_code) {
  auto data = std::make_shared<std::filesystem::path>(kSourceDir / "plots" / "data");
  auto figures = std::make_shared<std::filesystem::path>(kSourceDir / "plots" / "figures");
  auto check = std::make_shared<bool>(false);
  CLI::App* command =
      app.add_subcommand("plots", "Regenerate the figures: CSV data from the reference code, rendered by gnuplot");
  command->add_option("--data", *data, "folder of the CSV files (default: plots/data)");
  command->add_option("--figures", *figures, "folder of the rendered PNG and SVG files (default: plots/figures)");
  command->add_flag("--check", *check, "Only check that the CSV files are current; exit 1 naming the stale ones");
  command->callback([data, figures, check, &exit_code] {
    exit_code = plots::update_plot_data(*data, !*check);
    if (*check || exit_code != 0) return;
    const std::filesystem::path log =
        std::filesystem::temp_directory_path() / ("rooflab-plots-" + std::to_string(::getpid()) + ".log");
    const ProcessResult rendered =
        run_process({(kSourceDir / "plots" / "render.sh").string(), data->string(), figures->string()}, kSourceDir, log,
                    ProcessLimits::timeout(300));
    std::error_code ignored;  // the output is in `rendered`: the log leaves /tmp as it was
    std::filesystem::remove(log, ignored);
    std::cout << rendered.output;
    if (!rendered.succeeded()) {
      std::cerr << "rooflab plots: plots/render.sh " << rendered.describe(300)
                << " (gnuplot is Debian's gnuplot-nox)\n";
      exit_code = 1;
    }
  });
}

}  // namespace rooflab::cli
