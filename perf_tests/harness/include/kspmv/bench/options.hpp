#pragma once
// The suite's own command-line options, shared by every benchmark program. Google Benchmark's
// flags (--benchmark_filter, --benchmark_repetitions, --benchmark_out, ...) pass through to it.

#include <cstdint>
#include <string>
#include <vector>

#include "kspmv/matrices/generators.hpp"

namespace kspmv::bench {

struct Options {
  std::string suite = "quick";              // quick | nightly | sweep
  std::vector<matrices::ShapeSpec> shapes;  // --shape: matrices of chosen shapes, added
  double scale = 0;                         // generator scale; 0: the suite's default
  std::string matrix_dir;                   // Matrix Market files (.mtx, .mtx.gz); empty: none
  int max_real_matrices = -1;               // -1: the suite's default
  std::vector<std::string> precisions{"fp64", "fp32", "c128"};
  int batches = 5;               // timed batches per repetition
  double min_batch_seconds = 0;  // 0: the suite's default
  int warmup_calls = 3;          // untimed calls before each repetition
  double copy_bytes = 0;         // bandwidth probe size (read + written); 0: the suite's default
  int repetitions = 0;           // Google Benchmark repetitions; 0: the suite's default
  double plant_slowdown = 1.0;   // > 1 stretches kspmv's batches, to test the gate
  std::uint64_t seed = 0;        // 0: the generators' default seed
  std::string output_dir;        // where run.json goes; empty: only --benchmark_out, if given
  std::string git_commit;        // default: the commit the build was configured at
  std::string reference;         // label every record is timed beside; empty: the first baseline
};

struct CommandLine {
  Options options;
  std::vector<std::string> passthrough;  // Google Benchmark's and Kokkos' flags, in order
  bool help = false;
};

// Throws std::invalid_argument naming the bad option.
CommandLine parse_command_line(int argc, char** argv);
std::string usage(const std::string& program);

}  // namespace kspmv::bench
