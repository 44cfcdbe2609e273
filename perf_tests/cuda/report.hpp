#pragma once
// The benchmark's records and their JSON and CSV files.

#include <cmath>
#include <cstdint>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

namespace kspmv::bench {

struct Record {
  std::string matrix;
  std::string source;  // "generated" (large, memory-bound) or "file" (mostly L2-resident)
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t nnz = 0;
  std::string precision;
  std::string algorithm;  // kspmv's (Auto names its choice: "Auto:Adaptive") or cuSPARSE-ALG1/2
  double setup_us = 0;
  double time_us = 0;
  double gb_per_s = 0;     // compulsory bytes / time
  double roofline = 0;     // gb_per_s / measured copy bandwidth
  double rel_error = 0;    // ||y - reference|| / ||reference||
  double vs_cusparse = 0;  // best cuSPARSE time / this time (> 1: faster than cuSPARSE)
};

struct Run {
  std::string device;
  std::string compiler;
  std::string commit;
  double copy_gb_per_s = 0;
  std::vector<Record> records;
};

inline std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

inline std::string number(double v) {
  if (!std::isfinite(v)) return "null";
  std::ostringstream out;
  out << std::setprecision(6) << v;
  return out.str();
}

inline void write_json(const std::string& path, const Run& run) {
  std::ofstream out(path);
  out << "{\n  \"device\": " << json_string(run.device)
      << ",\n  \"compiler\": " << json_string(run.compiler)
      << ",\n  \"commit\": " << json_string(run.commit)
      << ",\n  \"copy_gb_per_s\": " << number(run.copy_gb_per_s) << ",\n  \"records\": [\n";
  for (std::size_t i = 0; i < run.records.size(); ++i) {
    const Record& r = run.records[i];
    out << "    {\"matrix\": " << json_string(r.matrix) << ", \"source\": " << json_string(r.source)
        << ", \"rows\": " << r.rows << ", \"cols\": " << r.cols << ", \"nnz\": " << r.nnz
        << ", \"precision\": " << json_string(r.precision)
        << ", \"algorithm\": " << json_string(r.algorithm)
        << ", \"setup_us\": " << number(r.setup_us) << ", \"time_us\": " << number(r.time_us)
        << ", \"gb_per_s\": " << number(r.gb_per_s) << ", \"roofline\": " << number(r.roofline)
        << ", \"rel_error\": " << number(r.rel_error)
        << ", \"vs_cusparse\": " << number(r.vs_cusparse) << "}"
        << (i + 1 < run.records.size() ? ",\n" : "\n");
  }
  out << "  ]\n}\n";
}

inline void write_csv(const std::string& path, const Run& run) {
  std::ofstream out(path);
  out << "device,compiler,commit,copy_gb_per_s,matrix,source,rows,cols,nnz,precision,algorithm,"
         "setup_us,time_us,gb_per_s,roofline,rel_error,vs_cusparse\n";
  for (const Record& r : run.records) {
    out << '"' << run.device << "\",\"" << run.compiler << "\"," << run.commit << ','
        << number(run.copy_gb_per_s) << ',' << r.matrix << ',' << r.source << ',' << r.rows << ','
        << r.cols << ',' << r.nnz << ',' << r.precision << ',' << r.algorithm << ','
        << number(r.setup_us) << ',' << number(r.time_us) << ',' << number(r.gb_per_s) << ','
        << number(r.roofline) << ',' << number(r.rel_error) << ',' << number(r.vs_cusparse) << '\n';
  }
}

}  // namespace kspmv::bench
