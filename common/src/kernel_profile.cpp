#include "rooflab/kernel_profile.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <tuple>

#include "rooflab/gpu_model_calibration.hpp"
#include "rooflab/ptxas_registers.hpp"
#include "rooflab/worker_report.hpp"

namespace rooflab::kernels {
namespace {

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

std::string fixed(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// Names from a profile's output: identifiers only, at most 64 characters.
bool plain_name(const std::string& name) {
  return !name.empty() && name.size() <= 64 && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

double per(double part, double whole) { return whole > 0 ? part / whole : 0; }

// "12.3 µs" style, for times from nanoseconds to seconds.
std::string duration(double seconds) {
  if (seconds < 1e-6) return fixed("%.0f ns", seconds * 1e9);
  if (seconds < 1e-3) return fixed("%.1f µs", seconds * 1e6);
  if (seconds < 1) return fixed("%.2f ms", seconds * 1e3);
  return fixed("%.2f s", seconds);
}

std::string bytes(double value) {
  if (value >= 1 << 20) return fixed("%.2f MiB", value / (1 << 20));
  if (value >= 1 << 10) return fixed("%.1f KiB", value / (1 << 10));
  return fixed("%.0f B", value);
}

// "0.04", or "10.11 (over the graded 1.00)" past the kernel's limit.
std::string conflicts_cell(const std::string& kernel, double conflicts, double requests,
                           const std::vector<GradedLimit>& limits) {
  const double rate = per(conflicts, requests);
  std::string cell = fixed("%.2f", rate);
  for (const GradedLimit& limit : limits)
    if (limit.kernel == kernel && rate > limit.bank_conflicts_per_request)
      cell += " (over the graded " + fixed("%.2f", limit.bank_conflicts_per_request) + ")";
  return cell;
}

const KernelRow* match(const std::vector<KernelRow>& rows, const KernelRow& row) {
  for (const KernelRow& other : rows)
    if (other.method == row.method && other.kernel == row.kernel) return &other;
  return nullptr;
}

// A table's rows, each of `rows` followed by the reference's row of the same
// kernel, then the reference's rows that `rows` lacks: `line(row, whose)`
// writes one.
std::string beside_reference(const std::vector<KernelRow>& rows, const std::vector<KernelRow>& reference,
                             const std::function<std::string(const KernelRow&, const char*)>& line) {
  std::string lines;
  for (const KernelRow& row : rows) {
    lines += line(row, reference.empty() ? "" : " (yours)");
    if (const KernelRow* theirs = match(reference, row)) lines += line(*theirs, " (reference)");
  }
  for (const KernelRow& theirs : reference)
    if (!match(rows, theirs)) lines += line(theirs, " (reference)");
  return lines;
}

// The lines with the most traffic of one kernel's launches: instructions
// merged across launches, then by line (a line's several instructions, or an
// inlined helper's, are one row), the heaviest kept.
std::vector<LineRow> heaviest_lines(const std::vector<const testing::KernelLaunch*>& launches) {
  std::map<std::tuple<std::uint64_t, bool, bool>, testing::InstructionRequests> by_pc;
  for (const testing::KernelLaunch* launch : launches)
    for (const testing::InstructionRequests& counted : launch->instructions) {
      testing::InstructionRequests& sum = by_pc[{counted.pc, counted.shared, counted.store}];
      sum.pc = counted.pc;
      sum.shared = counted.shared;
      sum.store = counted.store;
      sum.requests += counted.requests;
      sum.sectors += counted.sectors;
      sum.wavefronts += counted.wavefronts;
      sum.bank_conflicts += counted.bank_conflicts;
    }
  std::map<std::tuple<std::string, bool, bool>, LineRow> by_line;
  for (const auto& [key, counted] : by_pc) {
    const std::string line = testing::source_line(counted.pc);
    LineRow& row = by_line[{line, counted.shared, counted.store}];
    row.line = line;
    row.shared = counted.shared;
    row.store = counted.store;
    row.requests += static_cast<double>(counted.requests);
    row.units += static_cast<double>(counted.shared ? counted.wavefronts : counted.sectors);
    row.bank_conflicts += static_cast<double>(counted.bank_conflicts);
  }
  std::vector<LineRow> lines;
  for (auto& [key, row] : by_line) lines.push_back(std::move(row));
  // Bank conflicts first (a line with any is where to look), then traffic.
  std::sort(lines.begin(), lines.end(), [](const LineRow& a, const LineRow& b) {
    if (a.bank_conflicts != b.bank_conflicts) return a.bank_conflicts > b.bank_conflicts;
    return a.units != b.units ? a.units > b.units : a.line < b.line;
  });
  if (lines.size() > kLinesPerKernel) lines.resize(kLinesPerKernel);
  return lines;
}

}  // namespace

std::vector<KernelRow> profile_kernels(const std::string& method, long long n, const std::function<void()>& call,
                                       const std::function<double(const std::string& kernel)>& flops) {
  testing::take_worker_report();  // what ran before is not this call's
  call();
  const testing::WorkerReport report = testing::take_worker_report();
  std::vector<KernelRow> rows;
  for (const testing::KernelLaunch& launch : report.launches) {
    auto found =
        std::find_if(rows.begin(), rows.end(), [&](const KernelRow& row) { return row.kernel == launch.kernel; });
    if (found == rows.end()) {
      KernelRow fresh;
      fresh.method = method;
      fresh.kernel = launch.kernel;
      fresh.n = n;
      rows.push_back(std::move(fresh));
      found = rows.end() - 1;
    }
    KernelRow& row = *found;
    row.launches += 1;
    row.dram_bytes += static_cast<double>(launch.dram_read_bytes + launch.dram_write_bytes);
    row.load_requests += static_cast<double>(launch.global_load_requests);
    row.load_sectors += static_cast<double>(launch.global_load_sectors);
    row.store_requests += static_cast<double>(launch.global_store_requests);
    row.store_sectors += static_cast<double>(launch.global_store_sectors);
    row.shared_requests += static_cast<double>(launch.shared_load_requests + launch.shared_store_requests);
    row.shared_bank_conflicts += static_cast<double>(launch.shared_bank_conflicts);
    row.tensor_core_flops += static_cast<double>(launch.tensor_core_flops);
    row.blocks += static_cast<double>(launch.grid[0]) * launch.grid[1] * launch.grid[2];  // averaged below
    row.threads_per_block = static_cast<double>(launch.block[0]) * launch.block[1] * launch.block[2];
    row.shared_bytes_per_block = static_cast<double>(launch.dynamic_shared_bytes + launch.static_shared_bytes);
    row.heaviest_warp_requests =
        std::max(row.heaviest_warp_requests, static_cast<double>(launch.heaviest_warp_requests));
    row.async_copy_requests += static_cast<double>(launch.async_copy_requests);
    row.async_copy_waits += static_cast<double>(launch.async_copy_waits);
  }
  // The formula counts a kernel's FLOPs whichever unit does them: what the
  // tensor cores did is theirs, the rest the CUDA cores'.
  for (KernelRow& row : rows) {
    row.blocks /= row.launches;
    row.flops = std::max(0.0, flops(row.kernel) - row.tensor_core_flops);
    std::vector<const testing::KernelLaunch*> launches;
    for (const testing::KernelLaunch& launch : report.launches)
      if (launch.kernel == row.kernel) launches.push_back(&launch);
    row.lines = heaviest_lines(launches);
  }
  return rows;
}

std::string lines_table(const std::vector<KernelRow>& rows, const std::vector<GradedLimit>& limits) {
  std::ostringstream table;
  for (const KernelRow& row : rows)
    for (const LineRow& line : row.lines) {
      if (table.tellp() == 0)
        table << "| kernel | line | access | requests | sectors / request (global), wavefronts / request (shared) | "
                 "bank conflicts / request |\n|---|---|---|---:|---:|---:|\n";
      table << "| " << row.kernel << " | " << line.line << " | " << (line.shared ? "shared " : "global ")
            << (line.store ? "store" : "load") << " | " << fixed("%.0f", line.requests) << " | "
            << fixed("%.1f", per(line.units, line.requests)) << " | "
            << (line.shared ? conflicts_cell(row.kernel, line.bank_conflicts, line.requests, limits) : std::string("—"))
            << " |\n";
    }
  return table.str();
}

std::string csv_header() {
  return "kernel,method,name,n,launches,flops,dram_bytes,load_requests,load_sectors,store_requests,store_sectors,"
         "shared_requests,shared_bank_conflicts,tensor_core_flops,blocks,threads_per_block,shared_bytes_per_block,"
         "heaviest_warp_requests,async_copy_requests,async_copy_waits";
}

std::string csv_row(const KernelRow& row) {
  std::string line = "kernel,";  // appended piece by piece: GCC 12 misreports chains of + (-Wrestrict)
  line += row.method;
  line += ',';
  line += row.kernel;
  line += ',';
  line += std::to_string(row.n);
  for (const double value : {row.launches, row.flops, row.dram_bytes, row.load_requests, row.load_sectors,
                             row.store_requests, row.store_sectors, row.shared_requests, row.shared_bank_conflicts,
                             row.tensor_core_flops, row.blocks, row.threads_per_block, row.shared_bytes_per_block,
                             row.heaviest_warp_requests, row.async_copy_requests, row.async_copy_waits}) {
    line += ',';
    line += number(value);
  }
  return line;
}

bool parse_csv_row(const std::string& line, KernelRow& row) {
  std::vector<std::string> fields;
  std::stringstream stream(line);
  for (std::string field; std::getline(stream, field, ',');) fields.push_back(field);
  // 20 fields; 18 in a CSV from before cp.async was counted, 14 from before
  // launch shapes were recorded, 13 from before the tensor-core FLOPs were.
  if ((fields.size() != 13 && fields.size() != 14 && fields.size() != 18 && fields.size() != 20) ||
      fields[0] != "kernel" || !plain_name(fields[1]) || !plain_name(fields[2]))
    return false;
  KernelRow parsed;
  parsed.method = fields[1];
  parsed.kernel = fields[2];
  double* targets[] = {&parsed.launches,
                       &parsed.flops,
                       &parsed.dram_bytes,
                       &parsed.load_requests,
                       &parsed.load_sectors,
                       &parsed.store_requests,
                       &parsed.store_sectors,
                       &parsed.shared_requests,
                       &parsed.shared_bank_conflicts,
                       &parsed.tensor_core_flops,
                       &parsed.blocks,
                       &parsed.threads_per_block,
                       &parsed.shared_bytes_per_block,
                       &parsed.heaviest_warp_requests,
                       &parsed.async_copy_requests,
                       &parsed.async_copy_waits};
  try {
    std::size_t used = 0;
    parsed.n = std::stoll(fields[3], &used);
    if (used != fields[3].size() || parsed.n < 0) return false;
    for (std::size_t i = 0; 4 + i < fields.size(); ++i) {
      *targets[i] = std::stod(fields[4 + i], &used);
      if (used != fields[4 + i].size() || !std::isfinite(*targets[i]) || *targets[i] < 0) return false;
    }
  } catch (const std::exception&) {
    return false;
  }
  row = parsed;
  return true;
}

std::vector<KernelRow> parse_csv(const std::string& text) {
  std::vector<KernelRow> rows;
  std::stringstream stream(text);
  for (std::string line; std::getline(stream, line);) {
    KernelRow row;
    if (parse_csv_row(line, row)) rows.push_back(row);
  }
  return rows;
}

std::string markdown_table(const std::vector<KernelRow>& rows, const std::vector<KernelRow>& reference,
                           const roofline::CudaCoreGpu& gpu, const std::vector<GradedLimit>& limits) {
  std::string table =
      "| method | kernel | N | global sectors / request (load, store) | bank conflicts / shared request | DRAM "
      "bytes | CUDA-core FLOPs | tensor-core FLOPs | FLOPs / byte | " +
      gpu.name + ": bound | at 30–75 % |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  const auto line = [&](const KernelRow& row, const char* whose) {
    const roofline::Estimate e = roofline::estimate(row.flops, row.dram_bytes, gpu, row.tensor_core_flops);
    const char* bound = e.memory_bound ? " (memory)" : e.tensor_core_bound ? " (tensor cores)" : " (CUDA cores)";
    return "| " + row.method + " | " + row.kernel + whose + " | " + std::to_string(row.n) + " | " +
           fixed("%.1f", per(row.load_sectors, row.load_requests)) + ", " +
           fixed("%.1f", per(row.store_sectors, row.store_requests)) + " | " +
           conflicts_cell(row.kernel, row.shared_bank_conflicts, row.shared_requests, limits) + " | " +
           bytes(row.dram_bytes) + " | " + fixed("%.3g", row.flops) + " | " +
           (row.tensor_core_flops > 0 ? fixed("%.3g", row.tensor_core_flops) : "—") + " | " +
           fixed("%.2f", e.intensity) + " | " + duration(e.bound_s) + bound + " | " +
           duration(e.bound_s / roofline::kTypicalEfficiencyHigh) + "–" +
           duration(e.bound_s / roofline::kTypicalEfficiencyLow) + " |\n";
  };
  return table + beside_reference(rows, reference, line);
}

std::string registers_csv(const RegisterCounts& registers) {
  std::string csv;
  for (const auto& [whose, counts] : {std::pair{"reference", &registers.reference}, {"yours", &registers.yours}})
    for (const auto& [kernel, count] : *counts)
      csv += std::string("registers,") + whose + "," + kernel + "," + std::to_string(count) + "\n";
  return csv;
}

RegisterCounts parse_registers_csv(const std::string& text) {
  RegisterCounts registers;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string> fields;
    std::istringstream stream(line);
    for (std::string field; std::getline(stream, field, ',');) fields.push_back(field);
    if (fields.size() != 4 || fields[0] != "registers" || !plain_name(fields[2])) continue;
    char* end = nullptr;
    const long count = std::strtol(fields[3].c_str(), &end, 10);
    if (fields[3].empty() || *end != '\0' || count <= 0 || count > 255) continue;  // sm_90 allows 255
    if (fields[1] == "reference") registers.reference[fields[2]] = static_cast<int>(count);
    if (fields[1] == "yours") registers.yours[fields[2]] = static_cast<int>(count);
  }
  return registers;
}

std::string registers_source(const RegisterCounts& registers, bool nvcc_ran) {
  if (!nvcc_ran)
    return registers.reference.empty()
               ? "assumed, for every kernel (nvcc counts them: `nvcc -arch=sm_90 --resource-usage`)"
               : "the reference's kernel of that name stands in for yours, which may differ (no nvcc here: "
                 "`nvcc -arch=sm_90 --resource-usage` counts yours)";
  return registers.yours.empty()
             ? "nvcc compiled none of your kernels, so the reference's kernel of that name stands in for yours"
             : "yours where nvcc compiled your file (`nvcc -arch=sm_90 --resource-usage`), else the reference's "
               "kernel of that name";
}

namespace {

// The registers the model takes for `row`, 0 where assumed, and where they
// come from: yours from nvcc where it compiled your file, else the
// reference's kernel of that name.
int registers_of(const RegisterCounts& registers, const KernelRow& row, bool yours, const char** source = nullptr) {
  const auto known = [&](const Registers& counts, const char* name) {
    const auto found = counts.find(row.kernel);
    if (found == counts.end()) return 0;
    if (source) *source = name;
    return found->second;
  };
  if (yours)
    if (const int count = known(registers.yours, "nvcc, yours")) return count;
  if (const int count = known(registers.reference, yours ? "the reference's" : "nvcc")) return count;
  if (source) *source = "assumed";
  return 0;
}

// The model's estimate of `row`, or nothing for a row without a launch shape
// or with a block that does not fit.
bool modelled(const KernelRow& row, const gpu_model::Architecture& gpu, int registers, gpu_model::Estimate& estimate) {
  if (row.blocks <= 0 || row.threads_per_block <= 0) return false;
  try {
    estimate = gpu_model::estimate_row(row, gpu, registers);
  } catch (const std::invalid_argument&) {
    return false;
  }
  return true;
}

}  // namespace

std::string model_table(const std::vector<KernelRow>& rows, const std::vector<KernelRow>& reference,
                        const gpu_model::Architecture& gpu, const RegisterCounts& registers) {
  std::string table =
      "| method | kernel | blocks × threads | shared / block | registers | blocks / SM (limit) | occupancy | SMs "
      "used | rounds | limit | model | model TFLOP/s | roofline bound |\n"
      "|---|---|---:|---:|---:|---|---:|---:|---:|---|---:|---:|---:|\n";
  const auto line = [&](const KernelRow& row, const char* whose) {
    std::string cells = "| " + row.method + " | " + row.kernel + whose + " | ";
    const char* source = "";
    const int known = registers_of(registers, row, std::string_view(whose) != " (reference)", &source);
    gpu_model::Estimate e;
    if (!modelled(row, gpu, known, e)) {
      if (row.blocks <= 0) return cells + "no launch shape recorded | | | | | | | | | | |\n";
      return cells + fixed("%.0f", row.blocks) + " × " + fixed("%.0f", row.threads_per_block) + " | " +
             bytes(row.shared_bytes_per_block) + " | | the block does not fit on an SM | | | | | | | |\n";
    }
    const double all_flops = row.flops + row.tensor_core_flops;
    const roofline::Estimate bound =
        roofline::estimate(row.flops, row.dram_bytes, roofline::find_cuda_core_gpu(gpu.id), row.tensor_core_flops);
    return cells + fixed("%.0f", row.blocks) + " × " + fixed("%.0f", row.threads_per_block) + " | " +
           bytes(row.shared_bytes_per_block) + " | " +
           std::to_string(known > 0 ? known : gpu_model::kAssumedRegisters) + " (" + source + ") | " +
           std::to_string(e.occupancy.blocks_per_sm) + " (" + e.occupancy.limited_by + ") | " +
           fixed("%.0f %%", e.occupancy.fraction * 100) + " | " + fixed("%.0f %%", e.sm_coverage * 100) + " | " +
           fixed("%.0f", e.rounds) + " | " + e.limited_by + " | " + duration(e.seconds) + " | " +
           fixed("%.2f", all_flops / e.seconds / 1e12) + " | " + duration(bound.bound_s) + " |\n";
  };
  return table + beside_reference(rows, reference, line);
}

std::string roofline_script(const std::vector<KernelRow>& rows, const std::vector<KernelRow>& reference,
                            const roofline::CudaCoreGpu& gpu, const std::string& png, const RegisterCounts& registers) {
  // x y source label_y "label": kernels are labelled once (the reference's,
  // or the submission's where there is no reference), and labels of points
  // that coincide are stacked.
  std::string data;
  std::vector<std::pair<double, double>> labelled;
  int compute_labels = 0;
  const auto point = [&](const KernelRow& row, int source, bool label) {
    const roofline::Estimate e = roofline::estimate(row.flops, row.dram_bytes, gpu, row.tensor_core_flops);
    if (e.intensity <= 0) return;
    const double x = e.intensity, y = e.attainable_flops_per_s / 1e12;
    // Above the memory-bound side of the roof, stacked where points
    // coincide; below its flat top, one line per compute-bound kernel (they
    // all sit at the peak, and their labels would run into each other).
    double label_y = y;
    if (e.memory_bound) {
      for (const auto& [lx, ly] : labelled)
        if (std::abs(std::log(lx / x)) < 0.2 && std::abs(std::log(ly / label_y)) < 0.3) label_y *= 1.5;
    } else {
      label_y = y / std::pow(1.6, 1.0 + static_cast<double>(compute_labels));
      if (label) ++compute_labels;
    }
    if (label) labelled.emplace_back(x, label_y);
    data += number(x) + " " + number(y) + " " + std::to_string(source) + " " + number(label_y) + " \"" +
            (label ? row.method + ": " + row.kernel : std::string()) + "\"\n";
  };
  for (const KernelRow& row : reference) point(row, 1, true);
  for (const KernelRow& row : rows) point(row, 0, reference.empty());
  // Below the roof: where the GPU model puts each kernel (source 2 yours, 3
  // the reference's), unlabelled: the label above it names it.
  const gpu_model::Architecture* model = nullptr;
  for (const gpu_model::Architecture& architecture : gpu_model::architectures())
    if (architecture.id == gpu.id) model = &architecture;
  const auto modelled_point = [&](const KernelRow& row, int source) {
    gpu_model::Estimate e;
    const roofline::Estimate bound = roofline::estimate(row.flops, row.dram_bytes, gpu, row.tensor_core_flops);
    if (!model || bound.intensity <= 0 || !modelled(row, *model, registers_of(registers, row, source == 2), e)) return;
    const double y = (row.flops + row.tensor_core_flops) / e.seconds / 1e12;
    data += number(bound.intensity) + " " + number(y) + " " + std::to_string(source) + " " + number(y) + " \"\"\n";
  };
  for (const KernelRow& row : reference) modelled_point(row, 3);
  for (const KernelRow& row : rows) modelled_point(row, 2);
  // Two roofs: the CUDA cores' fp32 peak, and above it the tensor cores'.
  const double peak = gpu.fp32_flops_per_s / 1e12, tensor_peak = gpu.tensor_flops_per_s / 1e12,
               bandwidth = gpu.bytes_per_s / 1e12;
  std::string script = "set terminal pngcairo size 900,560 noenhanced\nset output '" + png + "'\n";
  script += "$kernels << EOD\n" + data + "EOD\n";
  script += "set title '" + gpu.name +
            ": each kernel at its arithmetic intensity, on the roof (a bound) and where the GPU model puts it "
            "(triangles)'\n";
  script +=
      "set logscale xy\nset xrange [0.01:10000]\nset yrange [0.001:" + number(std::max(peak, tensor_peak) * 3) + "]\n";
  script += "set xlabel 'FLOPs per DRAM byte'\nset ylabel 'attainable TFLOP/s'\nset key bottom right\nset grid\n";
  script += "roof(x, p) = x * " + number(bandwidth) + " < p ? x * " + number(bandwidth) + " : p\n";
  script += "plot roof(x, " + number(peak) + ") with lines lw 2 lc rgb '#444444' title 'CUDA cores, fp32 (" +
            fixed("%.1f", peak) + " TFLOP/s, " + fixed("%.2f", bandwidth) + " TB/s)', \\\n";
  script += "     roof(x, " + number(tensor_peak) +
            ") with lines lw 2 dt 2 lc rgb '#888888' title 'tensor cores, fp16 (" + fixed("%.1f", tensor_peak) +
            " TFLOP/s)', \\\n";
  script += "     $kernels using 1:($3 == 0 ? $2 : NaN) with points pt 7 ps 1.5 lc rgb '#1b7837' title 'yours', \\\n";
  script +=
      "     $kernels using 1:($3 == 1 ? $2 : NaN) with points pt 6 ps 2.2 lc rgb '#762a83' title 'reference', \\\n";
  script +=
      "     $kernels using 1:($3 == 2 ? $2 : NaN) with points pt 11 ps 1.5 lc rgb '#1b7837' title 'yours, "
      "modelled', \\\n";
  script +=
      "     $kernels using 1:($3 == 3 ? $2 : NaN) with points pt 10 ps 2.2 lc rgb '#762a83' title 'reference, "
      "modelled', \\\n";
  script += "     $kernels using 1:4:5 with labels offset 1.2,0.8 left font ',8' notitle\n";
  return script;
}

namespace {

bool read_text(const std::string& path, std::string& text) {
  std::FILE* file = std::fopen(path.c_str(), "r");
  if (!file) return false;
  char buffer[4096];
  for (std::size_t got; (got = std::fread(buffer, 1, sizeof buffer, file)) > 0;) text.append(buffer, got);
  std::fclose(file);
  return true;
}

}  // namespace

int report_kernels(const std::function<std::vector<KernelRow>()>& count_rows, int argc, char** argv,
                   const std::vector<GradedLimit>& limits, const Registers& reference_registers, long long head_dim) {
  bool table = false, registers_only = false;
  std::string gpu_id = "h100", reference_file, plot_file, calibration_file, nvcc_file;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    bool missing = false;
    const auto value = [&](std::string& into) {
      if (i + 1 < argc)
        into = argv[++i];
      else
        missing = true;
    };
    if (flag == "--table") {
      table = true;
    } else if (flag == "--registers") {
      registers_only = true;
    } else if (flag == "--gpu") {
      value(gpu_id);
    } else if (flag == "--reference") {
      value(reference_file);
    } else if (flag == "--plot") {
      value(plot_file);
    } else if (flag == "--calibration") {
      value(calibration_file);
    } else if (flag == "--nvcc-registers") {
      value(nvcc_file);
    } else {
      std::fprintf(stderr,
                   "profile: unknown flag %s (known: --table, --registers, --gpu ID, --reference FILE, --plot "
                   "FILE.gp, --calibration FILE, --nvcc-registers FILE)\n",
                   flag.c_str());
      return 2;
    }
    if (missing) {
      std::fprintf(stderr, "profile: %s needs a value\n", flag.c_str());
      return 2;
    }
  }
  RegisterCounts registers{reference_registers, {}};
  if (!nvcc_file.empty()) {
    std::string text;
    if (!read_text(nvcc_file, text)) {
      std::fprintf(stderr, "profile: --nvcc-registers %s: cannot read it\n", nvcc_file.c_str());
      return 2;
    }
    registers.yours = registers_at(parse_ptxas_registers(text), head_dim);
  }
  if (registers_only) {
    std::printf("%s", registers_csv(registers).c_str());
    return 0;
  }
  const std::vector<KernelRow> rows = count_rows();
  if (!table) {
    for (const KernelRow& row : rows) std::printf("%s\n", csv_row(row).c_str());
    return 0;
  }
  const roofline::CudaCoreGpu* gpu = nullptr;
  const gpu_model::Architecture* architecture = nullptr;
  try {
    gpu = &roofline::find_cuda_core_gpu(gpu_id);
    architecture = &gpu_model::find_architecture(gpu_id);
  } catch (const std::invalid_argument& error) {
    std::fprintf(stderr, "profile: %s\n", error.what());
    return 2;
  }
  std::vector<KernelRow> reference;
  if (!reference_file.empty()) {
    std::string text;
    if (!read_text(reference_file, text)) {
      std::fprintf(stderr, "profile: --reference %s: cannot read it\n", reference_file.c_str());
      return 2;
    }
    reference = parse_csv(text);
  }
  std::vector<gpu_model::CalibrationRow> calibration;
  if (!calibration_file.empty()) {
    std::string text;
    if (!read_text(calibration_file, text)) {
      std::fprintf(stderr, "profile: --calibration %s: cannot read it\n", calibration_file.c_str());
      return 2;
    }
    try {
      calibration = gpu_model::parse_calibration_csv(text);
    } catch (const std::runtime_error& error) {
      std::fprintf(stderr, "profile: --calibration %s: %s\n", calibration_file.c_str(), error.what());
      return 2;
    }
  }
  if (rows.empty())
    std::printf("\nNo kernel ran in the CPU runtime (not implemented yet, or the kernels ran on a GPU).\n");
  std::printf(
      "\nYour kernels as the CPU runtime counted them, on the roofline of the %s: CUDA-core FLOPs at its fp32 "
      "peak (%.1f TFLOP/s), tensor-core FLOPs apart at its dense fp16 tensor peak (%.1f TFLOP/s), the bound the "
      "slowest of those and the DRAM bytes (a bound, not a measured time; real kernels reach about %.0f–%.0f %% "
      "of it):\n\n%s",
      gpu->name.c_str(), gpu->fp32_flops_per_s / 1e12, gpu->tensor_flops_per_s / 1e12,
      roofline::kTypicalEfficiencyLow * 100, roofline::kTypicalEfficiencyHigh * 100,
      markdown_table(rows, reference, *gpu, limits).c_str());
  if (const std::string lines = lines_table(rows, limits); !lines.empty())
    std::printf(
        "\nWhere each kernel's traffic comes from: its %zu source lines with the most bank conflicts, then the most "
        "sectors (global memory) and wavefronts (shared memory), as Nsight Compute's source view counts them. 4 "
        "sectors a request is a warp "
        "reading 128 consecutive bytes; a bank conflict is a wavefront more than the request's bytes need:\n\n%s",
        kLinesPerKernel, lines.c_str());
  std::printf(
      "\nWhere the GPU model (rooflab/gpu_model.hpp) puts each kernel on the %s (%d SMs at %.2f GHz): how many "
      "blocks fit on an SM and what limits them, the SMs the grid covers, the rounds of resident blocks on the "
      "busiest SM, and the largest of instruction issue, shared-memory wavefronts, L1 sectors, tensor-core FLOPs, "
      "DRAM bytes and the latency its warps cannot hide. Registers per thread are nvcc's for sm_90: %s. An "
      "estimate to reason with, not a measurement nor a score:\n\n%s",
      architecture->name.c_str(), architecture->multiprocessors, architecture->clock_hz / 1e9,
      registers_source(registers, !nvcc_file.empty()).c_str(),
      model_table(rows, reference, *architecture, registers).c_str());
  // The record of this lab's launchers only (another lab's profile has none).
  std::erase_if(calibration, [&](const gpu_model::CalibrationRow& point) {
    const auto same = [&](const KernelRow& row) { return row.method == point.method; };
    return std::none_of(rows.begin(), rows.end(), same) && std::none_of(reference.begin(), reference.end(), same);
  });
  if (const std::string summary = gpu_model::calibration_summary(calibration); !summary.empty())
    std::printf(
        "\nHow far to trust it: the model against every measurement of the reference kernels recorded on a GPU "
        "(%s; docs/benchmarks.md):\n\n%s",
        calibration_file.c_str(), summary.c_str());
  if (!plot_file.empty()) {
    const std::string png = plot_file.substr(0, plot_file.rfind('.')) + ".png";
    std::FILE* file = std::fopen(plot_file.c_str(), "w");
    if (!file) {
      std::fprintf(stderr, "profile: --plot %s: cannot write it\n", plot_file.c_str());
      return 2;
    }
    const std::string script = roofline_script(rows, reference, *gpu, png, registers);
    std::fwrite(script.data(), 1, script.size(), file);
    std::fclose(file);
  }
  return 0;
}

}  // namespace rooflab::kernels
