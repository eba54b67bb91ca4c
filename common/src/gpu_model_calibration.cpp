#include "rooflab/gpu_model_calibration.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace rooflab::gpu_model {
namespace fs = std::filesystem;
namespace {

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream stream(line);
  for (std::string field; std::getline(stream, field, ',');) fields.push_back(field);
  if (!line.empty() && line.back() == ',') fields.emplace_back();
  return fields;
}

std::string fixed(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// The value at `n` of the polynomial of degree two through (x[i], y[i]).
double through_three(const std::vector<long long>& x, const double (&y)[3], long long n) {
  double value = 0;
  for (int i = 0; i < 3; ++i) {
    double weight = 1;
    for (int j = 0; j < 3; ++j)
      if (j != i) weight *= static_cast<double>(n - x[j]) / static_cast<double>(x[i] - x[j]);
    value += weight * y[i];
  }
  return value;
}

}  // namespace

std::vector<RecordedTiming> read_recorded_timings(const fs::path& folder, const std::vector<std::string>& methods) {
  std::vector<fs::path> runs;
  if (fs::is_directory(folder))
    for (const auto& entry : fs::directory_iterator(folder))
      if (entry.is_directory()) runs.push_back(entry.path());
  std::sort(runs.begin(), runs.end());
  static const std::regex run_name(R"((\d{4}-\d{2}-\d{2})_([a-z0-9]+))");
  std::vector<RecordedTiming> timings;
  for (const fs::path& run : runs) {
    std::smatch parts;
    const std::string name = run.filename().string();
    if (!std::regex_match(name, parts, run_name))
      throw std::runtime_error(run.string() + ": a recorded run's folder is named <yyyy-mm-dd>_<gpu id>");
    const std::string date = parts[1], gpu = parts[2];
    find_architecture(gpu);  // throws naming the id
    const fs::path csv = run / "attention_gpu.csv";
    std::ifstream in(csv);
    if (!in) continue;  // a run without the attention benchmark
    int number = 0;
    for (std::string line; std::getline(in, line);) {
      ++number;
      const std::vector<std::string> fields = split(line);
      if (fields.empty() || std::find(methods.begin(), methods.end(), fields[0]) == methods.end()) continue;
      RecordedTiming timing{gpu, date, fields[0]};
      try {
        if (fields.size() != 6) throw std::invalid_argument("fields");
        std::size_t used = 0;
        timing.n = std::stoll(fields[1], &used);
        timing.d = std::stoi(fields[2]);
        timing.causal = std::stoi(fields[3]) != 0;
        timing.ms = std::stod(fields[4]);
        if (timing.n <= 0 || timing.d <= 0 || !(timing.ms > 0) || !std::isfinite(timing.ms))
          throw std::invalid_argument("values");
      } catch (const std::exception&) {
        throw std::runtime_error(csv.string() + ":" + std::to_string(number) +
                                 ": not a <method>,<n>,<d>,<causal>,<ms>,<tflops> line: " + line);
      }
      timings.push_back(timing);
    }
  }
  return timings;
}

std::vector<kernels::KernelRow> extrapolate(const std::vector<std::vector<kernels::KernelRow>>& at_lengths,
                                            const std::vector<long long>& lengths, long long n, double batch_heads) {
  if (at_lengths.size() != 3 || lengths.size() != 3)
    throw std::invalid_argument("extrapolate: three lengths, and the rows counted at each");
  std::vector<kernels::KernelRow> carried;
  for (const kernels::KernelRow& last : at_lengths[2]) {
    const kernels::KernelRow* rows[3];
    for (int i = 0; i < 3; ++i) {
      const auto found = std::find_if(at_lengths[i].begin(), at_lengths[i].end(),
                                      [&](const kernels::KernelRow& row) { return row.kernel == last.kernel; });
      if (found == at_lengths[i].end())
        throw std::runtime_error("extrapolate: kernel " + last.kernel +
                                 " did not run at N = " + std::to_string(lengths[i]));
      rows[i] = &*found;
    }
    kernels::KernelRow row = last;
    row.n = n;
    row.lines.clear();
    // Every count a polynomial of N; launches and the block's size are not.
    for (double kernels::KernelRow::*field :
         {&kernels::KernelRow::flops, &kernels::KernelRow::dram_bytes, &kernels::KernelRow::load_requests,
          &kernels::KernelRow::load_sectors, &kernels::KernelRow::store_requests, &kernels::KernelRow::store_sectors,
          &kernels::KernelRow::shared_requests, &kernels::KernelRow::shared_bank_conflicts,
          &kernels::KernelRow::tensor_core_flops, &kernels::KernelRow::blocks,
          &kernels::KernelRow::heaviest_warp_requests, &kernels::KernelRow::async_copy_requests,
          &kernels::KernelRow::async_copy_waits}) {
      const double y[3] = {rows[0]->*field, rows[1]->*field, rows[2]->*field};
      // One warp's requests do not grow with the batch and heads; the rest do.
      const double scale = field == &kernels::KernelRow::heaviest_warp_requests ? 1.0 : batch_heads;
      row.*field = std::max(0.0, std::round(through_three(lengths, y, n))) * scale;
    }
    carried.push_back(std::move(row));
  }
  return carried;
}

Estimate estimate_row(const kernels::KernelRow& row, const Architecture& gpu, int registers) {
  KernelWork work;
  work.launches = row.launches;
  work.cuda_core_flops = row.flops;
  work.tensor_core_flops = row.tensor_core_flops;
  work.dram_bytes = row.dram_bytes;
  work.global_requests = row.load_requests + row.store_requests;
  work.global_sectors = row.load_sectors + row.store_sectors;
  work.shared_requests = row.shared_requests;
  work.shared_bank_conflicts = row.shared_bank_conflicts;
  work.heaviest_warp_requests = row.heaviest_warp_requests;
  work.async_copy_requests = row.async_copy_requests;
  work.async_copy_waits = row.async_copy_waits;
  // A submission's profile prints what it likes: sizes past any GPU's are
  // capped before they become integers (the block then does not fit).
  LaunchShape shape;
  shape.blocks = row.blocks;
  shape.threads_per_block = static_cast<int>(std::min(row.threads_per_block, 1e6));
  shape.shared_bytes_per_block = static_cast<std::size_t>(std::min(row.shared_bytes_per_block, 1e12));
  shape.registers_per_thread = registers;
  return estimate(work, shape, gpu);
}

std::string calibration_csv(const std::vector<CalibrationRow>& rows) {
  std::string text =
      "method,n,d,causal,gpu,measured_on,measured_ms,model_ms,model_over_measured,measured_kernel,limited_by\n";
  for (const CalibrationRow& row : rows)
    text += row.method + "," + std::to_string(row.n) + "," + std::to_string(row.d) + "," + (row.causal ? "1" : "0") +
            "," + row.gpu + "," + row.measured_on + "," + fixed("%.4f", row.measured_ms) + "," +
            fixed("%.4f", row.model_ms) + "," + fixed("%.3f", row.model_ms / row.measured_ms) + "," +
            row.measured_kernel + "," + row.limited_by + "\n";
  return text;
}

std::vector<CalibrationRow> parse_calibration_csv(const std::string& text) {
  std::vector<CalibrationRow> rows;
  std::stringstream stream(text);
  int number = 0;
  for (std::string line; std::getline(stream, line);) {
    if (++number == 1 || line.empty()) continue;  // the header
    const std::vector<std::string> fields = split(line);
    CalibrationRow row;
    try {
      if (fields.size() != 11) throw std::invalid_argument("fields");
      row.method = fields[0];
      row.n = std::stoll(fields[1]);
      row.d = std::stoi(fields[2]);
      row.causal = fields[3] == "1";
      row.gpu = fields[4];
      row.measured_on = fields[5];
      row.measured_ms = std::stod(fields[6]);
      row.model_ms = std::stod(fields[7]);
      row.measured_kernel = fields[9];
      row.limited_by = fields[10];
      if (row.measured_kernel.empty() || !(row.measured_ms > 0) || !(row.model_ms > 0))
        throw std::invalid_argument("values");
    } catch (const std::exception&) {
      throw std::runtime_error("gpu_model_calibration.csv:" + std::to_string(number) +
                               ": not a calibration row: " + line);
    }
    rows.push_back(row);
  }
  return rows;
}

std::string calibration_summary(const std::vector<CalibrationRow>& rows) {
  if (rows.empty()) return "";
  // method -> "GPU, date" -> rows, in the rows' order.
  std::vector<std::pair<std::string, std::string>> order;
  std::map<std::pair<std::string, std::string>, std::vector<const CalibrationRow*>> groups;
  for (const CalibrationRow& row : rows) {
    const auto key = std::make_pair(row.method, row.gpu + ", " + row.measured_on);
    if (!groups.count(key)) order.push_back(key);
    groups[key].push_back(&row);
  }
  std::string table =
      "| method | measured on | kernel | points | model / measured: least | geometric mean | most | within 2× | the "
      "model's usual limit |\n|---|---|---|---:|---:|---:|---:|---:|---|\n";
  for (const auto& key : order) {
    const auto& group = groups[key];
    std::map<std::string, int> limits;
    for (const CalibrationRow* row : group) ++limits[row->limited_by];
    const std::string usual = std::max_element(limits.begin(), limits.end(), [](const auto& a, const auto& b) {
                                return a.second < b.second;
                              })->first;
    double least = 1e300, most = 0, log_sum = 0;
    int within = 0;
    for (const CalibrationRow* row : group) {
      const double ratio = row->model_ms / row->measured_ms;
      least = std::min(least, ratio);
      most = std::max(most, ratio);
      log_sum += std::log(ratio);
      within += ratio >= 0.5 && ratio <= 2.0;
    }
    table += "| " + key.first + " | " + key.second + " | " + group.front()->measured_kernel + " | " +
             std::to_string(group.size()) + " | " + fixed("%.2f", least) + " | " +
             fixed("%.2f", std::exp(log_sum / static_cast<double>(group.size()))) + " | " + fixed("%.2f", most) +
             " | " + std::to_string(within) + " of " + std::to_string(group.size()) + " | " + usual + " |\n";
  }
  return table;
}

}  // namespace rooflab::gpu_model
