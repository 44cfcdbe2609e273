#pragma once
// What one run measures (Kokkos-free): the run's context and one record per
// (matrix, backend, algorithm, precision). The JSON schema in perf_tests/README.md mirrors these.

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "byte_model.hpp"

namespace kspmv::perf {

struct Bandwidth {
  double bytes_per_copy = 0;           // read + written
  double seconds = 0;                  // per copy, in the fastest batch
  double gb_per_s = 0;                 // the fastest batch's
  std::vector<double> batch_gb_per_s;  // every batch, for judging the noise
};

struct RunInfo {
  std::string suite;
  std::string started_utc;
  std::string execution_space;
  std::string device_name;
  int concurrency = 1;
  double last_level_cache_bytes = 0;  // 0 when unknown
  std::string compiler;
  std::string kokkos_version;
  std::string git_commit;
  std::string command_line;
  double scale = 1;
  double alpha = 1;
  double beta = 0;
  Bandwidth bandwidth;
};

// A matrix the run could not measure, and why (e.g. a complex matrix in a real-precision suite).
struct Skipped {
  std::string matrix;
  std::string reason;
};

struct Record {
  std::string matrix;
  std::string source;            // "generated" or the file's path
  std::string backend;           // kspmv, KokkosKernels, cuSPARSE
  std::string algorithm;         // what was requested
  std::string chosen_algorithm;  // what ran (Auto resolves to one)
  std::string precision;         // fp64, fp32
  SpmvShape shape;
  double setup_seconds = NAN;  // NaN: the backend has no separate setup
  double seconds_per_call = NAN;
  int calls_per_batch = 0;
  std::vector<double> batch_seconds_per_call;
  double relative_error = NAN;
  std::string wrong_result;  // empty when the result passed the oracle's rigorous error bound
  std::map<std::string, double> speedup_vs;  // baseline key -> its time / this time

  // Filled by finish():
  double bytes = 0;
  double gb_per_s = 0;
  double gflop_per_s = 0;
  double arithmetic_intensity = 0;
  double roofline_fraction = 0;
  bool cache_resident = false;

  std::string key() const { return matrix + "/" + backend + "/" + algorithm + "/" + precision; }
  std::string implementation() const { return backend + "/" + algorithm; }
};

inline void finish(Record& r, const RunInfo& run) {
  r.bytes = compulsory_bytes(r.shape);
  r.gb_per_s = r.bytes / r.seconds_per_call * 1e-9;
  r.gflop_per_s = flops(r.shape) / r.seconds_per_call * 1e-9;
  r.arithmetic_intensity = flops(r.shape) / r.bytes;
  r.roofline_fraction = r.gb_per_s / run.bandwidth.gb_per_s;
  r.cache_resident = run.last_level_cache_bytes > 0 && r.bytes <= run.last_level_cache_bytes;
}

}  // namespace kspmv::perf
