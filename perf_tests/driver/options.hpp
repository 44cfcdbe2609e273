#pragma once
// Command-line options of kspmv_perf (Kokkos-free). `--help` prints usage().

#include <cstdint>
#include <string>
#include <vector>

namespace kspmv::perf {

struct Options {
  std::string suite = "quick";  // quick | nightly
  double scale = 0;             // generator scale; 0: the suite's default
  std::string matrix_dir;       // Matrix Market files (.mtx, .mtx.gz); empty: none
  int max_real_matrices = -1;   // -1: the suite's default
  std::vector<std::string> precisions{"fp64", "fp32"};
  std::vector<std::string> only;  // globs over record keys matrix/backend/algorithm/precision
  int warmup_calls = 3;
  int batches = 7;               // median over this many timed batches
  double min_batch_seconds = 0;  // 0: the suite's default
  double copy_bytes = 0;         // bandwidth probe size (read + written); 0: default
  double plant_slowdown = 1.0;   // > 1 stretches every timed batch, to test the gate
  std::uint64_t seed = 0;        // 0: the generators' default seed
  std::string output_dir = "perf_results";
  std::string json_path;   // default <output_dir>/run.json
  std::string csv_path;    // default <output_dir>/run.csv
  std::string git_commit;  // default: the commit the driver was configured at
  bool list_only = false;  // print the record keys the run would measure, then stop
};

// Throws std::invalid_argument naming the bad option; returns false when --help was asked for.
bool parse_options(int argc, char** argv, Options& options);
std::string usage();

// Whether a record key matches one of the --only globs (all match when there are none).
bool selected(const Options& options, const std::string& record_key);

}  // namespace kspmv::perf
