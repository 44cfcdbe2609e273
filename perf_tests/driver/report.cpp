#include "report.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace kspmv::perf {
namespace {

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
          out += escaped;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

// JSON has no NaN or infinity: "not measured" is null.
std::string number(double v) {
  if (!std::isfinite(v)) return "null";
  std::ostringstream s;
  s << std::setprecision(17) << v;
  return s.str();
}

std::ofstream open_output(const std::string& path) {
  const auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  std::ofstream out(path);
  if (!out) throw std::invalid_argument("cannot write " + path);
  return out;
}

void write_record(std::ostream& out, const Record& r) {
  out << "    {\"key\": " << quoted(r.key()) << ", \"matrix\": " << quoted(r.matrix)
      << ", \"source\": " << quoted(r.source) << ",\n     \"backend\": " << quoted(r.backend)
      << ", \"algorithm\": " << quoted(r.algorithm)
      << ", \"chosen_algorithm\": " << quoted(r.chosen_algorithm)
      << ", \"precision\": " << quoted(r.precision) << ",\n     \"rows\": " << r.shape.rows
      << ", \"cols\": " << r.shape.cols << ", \"nnz\": " << r.shape.nnz
      << ", \"vectors\": " << r.shape.vectors << ", \"scalar_bytes\": " << r.shape.scalar_bytes
      << ", \"ordinal_bytes\": " << r.shape.ordinal_bytes
      << ", \"offset_bytes\": " << r.shape.offset_bytes
      << ",\n     \"setup_seconds\": " << number(r.setup_seconds)
      << ", \"seconds_per_call\": " << number(r.seconds_per_call)
      << ", \"calls_per_batch\": " << r.calls_per_batch << ", \"batch_seconds_per_call\": [";
  for (std::size_t i = 0; i < r.batch_seconds_per_call.size(); ++i) {
    out << (i ? ", " : "") << number(r.batch_seconds_per_call[i]);
  }
  out << "],\n     \"compulsory_bytes\": " << number(r.bytes)
      << ", \"gb_per_s\": " << number(r.gb_per_s) << ", \"gflop_per_s\": " << number(r.gflop_per_s)
      << ", \"arithmetic_intensity\": " << number(r.arithmetic_intensity)
      << ", \"roofline_fraction\": " << number(r.roofline_fraction)
      << ", \"cache_resident\": " << (r.cache_resident ? "true" : "false")
      << ",\n     \"relative_error\": " << number(r.relative_error)
      << ", \"correct\": " << (r.wrong_result.empty() ? "true" : "false")
      << ", \"error_detail\": " << quoted(r.wrong_result) << ", \"speedup_vs\": {";
  bool first = true;
  for (const auto& [baseline, ratio] : r.speedup_vs) {
    out << (first ? "" : ", ") << quoted(baseline) << ": " << number(ratio);
    first = false;
  }
  out << "}}";
}

std::string fixed(double v, int digits) {
  if (!std::isfinite(v)) return "-";
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << v;
  return s.str();
}

std::string scientific(double v) {
  if (!std::isfinite(v)) return "-";
  std::ostringstream s;
  s << std::scientific << std::setprecision(1) << v;
  return s.str();
}

}  // namespace

void write_json(const RunInfo& run, const std::vector<Record>& records,
                const std::vector<Skipped>& skipped, const std::string& path) {
  auto out = open_output(path);
  out << "{\n  \"schema\": \"kspmv-perf/1\",\n  \"suite\": " << quoted(run.suite)
      << ",\n  \"started_utc\": " << quoted(run.started_utc)
      << ",\n  \"device\": {\"execution_space\": " << quoted(run.execution_space)
      << ", \"name\": " << quoted(run.device_name) << ", \"concurrency\": " << run.concurrency
      << ", \"last_level_cache_bytes\": " << number(run.last_level_cache_bytes)
      << "},\n  \"compiler\": " << quoted(run.compiler)
      << ",\n  \"kokkos_version\": " << quoted(run.kokkos_version)
      << ",\n  \"git_commit\": " << quoted(run.git_commit)
      << ",\n  \"command_line\": " << quoted(run.command_line)
      << ",\n  \"parameters\": {\"scale\": " << number(run.scale)
      << ", \"alpha\": " << number(run.alpha) << ", \"beta\": " << number(run.beta)
      << "},\n  \"bandwidth\": {\"bytes_per_copy\": " << number(run.bandwidth.bytes_per_copy)
      << ", \"seconds\": " << number(run.bandwidth.seconds)
      << ", \"gb_per_s\": " << number(run.bandwidth.gb_per_s) << ", \"batch_gb_per_s\": [";
  for (std::size_t i = 0; i < run.bandwidth.batch_gb_per_s.size(); ++i) {
    out << (i ? ", " : "") << number(run.bandwidth.batch_gb_per_s[i]);
  }
  out << "]},\n  \"records\": [\n";
  for (std::size_t i = 0; i < records.size(); ++i) {
    write_record(out, records[i]);
    out << (i + 1 < records.size() ? ",\n" : "\n");
  }
  out << "  ],\n  \"skipped\": [";
  for (std::size_t i = 0; i < skipped.size(); ++i) {
    out << (i ? ",\n    " : "\n    ") << "{\"matrix\": " << quoted(skipped[i].matrix)
        << ", \"reason\": " << quoted(skipped[i].reason) << "}";
  }
  out << (skipped.empty() ? "]\n}\n" : "\n  ]\n}\n");
  if (!out) throw std::invalid_argument("writing " + path + " failed");
}

void write_csv(const std::vector<Record>& records, const std::string& path) {
  auto out = open_output(path);
  out << "matrix,backend,algorithm,chosen_algorithm,precision,rows,cols,nnz,setup_seconds,"
         "seconds_per_call,gb_per_s,gflop_per_s,arithmetic_intensity,roofline_fraction,"
         "cache_resident,relative_error,speedup_vs\n";
  for (const auto& r : records) {
    std::string ratios;
    for (const auto& [baseline, ratio] : r.speedup_vs) {
      ratios += (ratios.empty() ? "" : " ") + baseline + "=" + number(ratio);
    }
    out << r.matrix << ',' << r.backend << ',' << r.algorithm << ',' << r.chosen_algorithm << ','
        << r.precision << ',' << r.shape.rows << ',' << r.shape.cols << ',' << r.shape.nnz << ','
        << number(r.setup_seconds) << ',' << number(r.seconds_per_call) << ',' << number(r.gb_per_s)
        << ',' << number(r.gflop_per_s) << ',' << number(r.arithmetic_intensity) << ','
        << number(r.roofline_fraction) << ',' << (r.cache_resident ? 1 : 0) << ','
        << number(r.relative_error) << ',' << ratios << '\n';
  }
  if (!out) throw std::invalid_argument("writing " + path + " failed");
}

std::string progress_line(const Record& r) {
  std::ostringstream s;
  s << std::left << std::setw(24) << r.matrix << ' ' << r.precision << ' ' << std::setw(24)
    << r.implementation() << std::right << std::setw(11) << fixed(r.seconds_per_call * 1e6, 2)
    << " us" << std::setw(9) << fixed(r.gb_per_s, 1) << " GB/s" << std::setw(7)
    << fixed(100 * r.roofline_fraction, 1) << " %bw  err " << scientific(r.relative_error)
    << (r.wrong_result.empty() ? "" : "  WRONG");
  return s.str();
}

void print_table(const RunInfo& run, const std::vector<Record>& records, std::ostream& out) {
  out << "\n"
      << run.device_name << " (" << run.execution_space << "), copy bandwidth "
      << fixed(run.bandwidth.gb_per_s, 1) << " GB/s; %bw = compulsory bytes / time / bandwidth"
      << "; * = fits in the last-level cache\n";
  out << std::left << std::setw(26) << "matrix" << std::setw(6) << "prec" << std::setw(26)
      << "implementation" << std::setw(15) << "ran" << std::right << std::setw(12) << "us/call"
      << std::setw(10) << "setup us" << std::setw(9) << "GB/s" << std::setw(9) << "GFLOP/s"
      << std::setw(7) << "%bw" << std::setw(10) << "rel.err"
      << "  speedup vs baselines\n";
  for (const auto& r : records) {
    std::string ratios;
    for (const auto& [baseline, ratio] : r.speedup_vs) {
      ratios += (ratios.empty() ? "" : ", ") + fixed(ratio, 2) + "x " + baseline;
    }
    out << std::left << std::setw(26) << (r.matrix + (r.cache_resident ? " *" : "")) << std::setw(6)
        << r.precision << std::setw(26) << r.implementation() << std::setw(15) << r.chosen_algorithm
        << std::right << std::setw(12) << fixed(r.seconds_per_call * 1e6, 2) << std::setw(10)
        << fixed(r.setup_seconds * 1e6, 1) << std::setw(9) << fixed(r.gb_per_s, 1) << std::setw(9)
        << fixed(r.gflop_per_s, 2) << std::setw(7) << fixed(100 * r.roofline_fraction, 1)
        << std::setw(10) << scientific(r.relative_error) << "  " << ratios << "\n";
  }
}

}  // namespace kspmv::perf
