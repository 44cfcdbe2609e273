#include "kspmv/bench/options.hpp"

#include <sstream>
#include <stdexcept>

#include "kspmv/matrices/finite_number.hpp"

namespace kspmv::bench {
namespace {

std::vector<std::string> split_commas(const std::string& list) {
  std::vector<std::string> items;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) {
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

double to_number(const std::string& option, const std::string& text) {
  const auto value = matrices::finite_number(text);
  if (!value) throw std::invalid_argument(option + " needs a number, not '" + text + "'");
  return *value;
}

int to_count(const std::string& option, const std::string& text, int minimum) {
  const double value = to_number(option, text);
  if (value != static_cast<int>(value) || value < minimum) {
    throw std::invalid_argument(option + " needs a whole number >= " + std::to_string(minimum) +
                                ", not '" + text + "'");
  }
  return static_cast<int>(value);
}

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

void apply_suite_defaults(Options& options) {
  const bool quick = options.suite == "quick";  // nightly and sweep: the full sizes
  if (options.scale == 0) options.scale = quick ? 0.002 : 1.0;
  if (options.max_real_matrices < 0) options.max_real_matrices = quick ? 4 : 1 << 30;
  if (options.min_batch_seconds <= 0) options.min_batch_seconds = quick ? 0.002 : 0.01;
  if (options.copy_bytes <= 0) options.copy_bytes = quick ? 256.0 * (1 << 20) : 1024.0 * (1 << 20);
  if (options.repetitions <= 0) options.repetitions = quick ? 3 : 5;
}

}  // namespace

std::string usage(const std::string& program) {
  return program + R"(: the kspmv performance suite, on Google Benchmark.

  --suite quick|nightly|sweep
                          quick: small generated matrices, one bandwidth-bound stencil and the
                          smallest few files of --matrices (seconds on 2 CPU cores); nightly: the
                          full-size generated set and every file; sweep: instead of the families,
                          27 generated shapes of 1M rows (at --scale 1) crossing mean row length 3,
                          12, 48, spread 0, 1, 4 and column reach 256, 16384, anywhere, and every
                          file
  --shape SPEC            add a generated matrix of that shape, unscaled (repeatable): SPEC is
                          rows=R,mean=M,spread=S,reach=D|all[,cols=C], e.g.
                          rows=1000000,mean=12,spread=1,reach=16384 (spread: the coefficient of
                          variation of the row lengths; reach: columns within D of the diagonal)
  --matrices DIR          Matrix Market files (.mtx, .mtx.gz) to add to the generated matrices
  --max-real-matrices N   at most N files of DIR, smallest first (quick: 4, nightly: all)
  --scale S               generator row-count factor (quick: 0.002, nightly: 1)
  --precision LIST        fp64, fp32, c128 (complex double), c64 (complex float) and/or
                          fp32_fp64 (a matrix in fp32 with fp64 vectors and sums),
                          comma-separated or repeated (default fp64,fp32,c128)
  --batches N             timed batches per repetition (default 5)
  --min-batch-seconds T   calls per batch grow until a batch lasts T (quick: 0.002, nightly: 0.01)
  --warmup N              untimed calls before each repetition (default 3)
  --copy-bytes B          bytes read + written by the bandwidth probe (quick: 256 MiB, nightly: 1 GiB)
  --repetitions N         Google Benchmark repetitions (quick: 3, nightly: 5), interleaved at random
  --seed N                generator seed
  --output-dir DIR        write DIR/run.json (Google Benchmark's JSON)
  --git-commit SHA        recorded in the context (default: the commit the build was configured at)
  --reference LABEL       time every record batch by batch beside this implementation, e.g.
                          cuSPARSE/ALG1, where the operation has it (default: the driver's first
                          baseline; a slow one, such as Kokkos Kernels' native mode H on complex
                          values, can take most of a run)
  --plant-slowdown F      kspmv's records run F times the calls of every batch but count the nominal
                          number: a real slowdown by F, for testing the regression gate

Google Benchmark's flags pass through, e.g. --benchmark_filter=REGEX over the record names
matrix/backend/algorithm/precision, --benchmark_list_tests=true, --benchmark_out=FILE,
--benchmark_enable_random_interleaving=false; see --help of Google Benchmark.
)";
}

CommandLine parse_command_line(int argc, char** argv) {
  CommandLine parsed;
  Options& options = parsed.options;
  bool precisions_given = false;
  const std::vector<std::string> args(argv + 1, argv + argc);
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& option = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw std::invalid_argument(option + " needs a value");
      return args[++i];
    };
    if (starts_with(option, "--benchmark_") || starts_with(option, "--kokkos-")) {
      parsed.passthrough.push_back(option);
    } else if (option == "--help" || option == "-h") {
      parsed.help = true;
    } else if (option == "--suite") {
      options.suite = value();
      if (options.suite != "quick" && options.suite != "nightly" && options.suite != "sweep") {
        throw std::invalid_argument("--suite is quick, nightly or sweep, not '" + options.suite +
                                    "'");
      }
    } else if (option == "--shape") {
      options.shapes.push_back(matrices::parse_shape(value()));
    } else if (option == "--matrices") {
      options.matrix_dir = value();
    } else if (option == "--max-real-matrices") {
      options.max_real_matrices = to_count(option, value(), 0);
    } else if (option == "--scale") {
      options.scale = to_number(option, value());
      if (!(options.scale > 0)) throw std::invalid_argument("--scale must be positive");
    } else if (option == "--precision") {
      if (!precisions_given) options.precisions.clear();
      precisions_given = true;
      for (const auto& p : split_commas(value())) {
        if (p != "fp64" && p != "fp32" && p != "c128" && p != "c64" && p != "fp32_fp64") {
          throw std::invalid_argument(
              "--precision takes fp64, fp32, c128, c64 and/or fp32_fp64, not '" + p + "'");
        }
        options.precisions.push_back(p);
      }
    } else if (option == "--batches") {
      options.batches = to_count(option, value(), 1);
    } else if (option == "--min-batch-seconds") {
      options.min_batch_seconds = to_number(option, value());
    } else if (option == "--warmup") {
      options.warmup_calls = to_count(option, value(), 0);
    } else if (option == "--copy-bytes") {
      options.copy_bytes = to_number(option, value());
    } else if (option == "--repetitions") {
      options.repetitions = to_count(option, value(), 1);
    } else if (option == "--seed") {
      options.seed = static_cast<std::uint64_t>(to_number(option, value()));
    } else if (option == "--output-dir") {
      options.output_dir = value();
    } else if (option == "--git-commit") {
      options.git_commit = value();
    } else if (option == "--reference") {
      options.reference = value();
    } else if (option == "--plant-slowdown") {
      options.plant_slowdown = to_number(option, value());
      if (options.plant_slowdown < 1) throw std::invalid_argument("--plant-slowdown must be >= 1");
    } else {
      throw std::invalid_argument("unknown option '" + option + "' (see --help)");
    }
  }
  apply_suite_defaults(options);
  return parsed;
}

}  // namespace kspmv::bench
