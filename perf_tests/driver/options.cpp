#include "options.hpp"

#include <fnmatch.h>

#include <sstream>
#include <stdexcept>

namespace kspmv::perf {
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
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty()) {
    throw std::invalid_argument(option + " needs a number, not '" + text + "'");
  }
  return value;
}

int to_count(const std::string& option, const std::string& text, int minimum) {
  const double value = to_number(option, text);
  if (value != static_cast<int>(value) || value < minimum) {
    throw std::invalid_argument(option + " needs a whole number >= " + std::to_string(minimum) +
                                ", not '" + text + "'");
  }
  return static_cast<int>(value);
}

}  // namespace

std::string usage() {
  return R"(kspmv_perf: the kspmv performance suite on Kokkos' default execution space.

  --suite quick|nightly   quick: small generated matrices (seconds on 2 CPU cores) and the smallest
                          few files of --matrices; nightly: the full-size generated set and every file
  --matrices DIR          Matrix Market files (.mtx, .mtx.gz) to add to the generated matrices
  --max-real N            at most N files of DIR, smallest first (quick: 4, nightly: all)
  --scale S               generator row-count factor (quick: 0.002, nightly: 1)
  --precision LIST        fp64,fp32 (default both)
  --only GLOB             measure only records whose key matrix/backend/algorithm/precision matches
                          (repeatable; shell globs, e.g. 'stencil*/kspmv/*/fp64')
  --batches N             timed batches per record, the median is reported (default 7)
  --min-batch-seconds T   calls per batch grow until a batch lasts T (quick: 0.005, nightly: 0.02)
  --warmup N              untimed calls before timing (default 3)
  --copy-bytes B          bytes read + written by the bandwidth probe (default 1 GiB, quick 256 MiB)
  --seed N                generator seed
  --output-dir DIR        where run.json and run.csv go (default perf_results)
  --json FILE, --csv FILE other output paths
  --git-commit SHA        recorded in the JSON (default: the commit the build was configured at)
  --plant-slowdown F      run F times the calls of every batch but count the nominal number, a real
                          slowdown by F for testing the regression gate
  --list                  print the record keys this run would measure and stop
)";
}

bool parse_options(int argc, char** argv, Options& options) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& option = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw std::invalid_argument(option + " needs a value");
      return args[++i];
    };
    if (option.rfind("--kokkos-", 0) == 0) {
      continue;  // Kokkos' own options (Kokkos 4 leaves them in argv)
    } else if (option == "--help" || option == "-h") {
      return false;
    } else if (option == "--suite") {
      options.suite = value();
      if (options.suite != "quick" && options.suite != "nightly") {
        throw std::invalid_argument("--suite is quick or nightly, not '" + options.suite + "'");
      }
    } else if (option == "--matrices") {
      options.matrix_dir = value();
    } else if (option == "--max-real") {
      options.max_real_matrices = to_count(option, value(), 0);
    } else if (option == "--scale") {
      options.scale = to_number(option, value());
      if (!(options.scale > 0)) throw std::invalid_argument("--scale must be positive");
    } else if (option == "--precision") {
      options.precisions = split_commas(value());
      for (const auto& p : options.precisions) {
        if (p != "fp64" && p != "fp32") {
          throw std::invalid_argument("--precision takes fp64 and/or fp32, not '" + p + "'");
        }
      }
    } else if (option == "--only") {
      options.only.push_back(value());
    } else if (option == "--batches") {
      options.batches = to_count(option, value(), 1);
    } else if (option == "--min-batch-seconds") {
      options.min_batch_seconds = to_number(option, value());
    } else if (option == "--warmup") {
      options.warmup_calls = to_count(option, value(), 0);
    } else if (option == "--copy-bytes") {
      options.copy_bytes = to_number(option, value());
    } else if (option == "--seed") {
      options.seed = static_cast<std::uint64_t>(to_number(option, value()));
    } else if (option == "--output-dir") {
      options.output_dir = value();
    } else if (option == "--json") {
      options.json_path = value();
    } else if (option == "--csv") {
      options.csv_path = value();
    } else if (option == "--git-commit") {
      options.git_commit = value();
    } else if (option == "--plant-slowdown") {
      options.plant_slowdown = to_number(option, value());
      if (options.plant_slowdown < 1) throw std::invalid_argument("--plant-slowdown must be >= 1");
    } else if (option == "--list") {
      options.list_only = true;
    } else {
      throw std::invalid_argument("unknown option '" + option + "' (see --help)");
    }
  }
  const bool quick = options.suite == "quick";
  if (options.scale == 0) options.scale = quick ? 0.002 : 1.0;
  if (options.max_real_matrices < 0) options.max_real_matrices = quick ? 4 : 1 << 30;
  if (options.min_batch_seconds <= 0) options.min_batch_seconds = quick ? 0.005 : 0.02;
  if (options.copy_bytes <= 0) options.copy_bytes = quick ? 256.0 * (1 << 20) : 1024.0 * (1 << 20);
  if (options.json_path.empty()) options.json_path = options.output_dir + "/run.json";
  if (options.csv_path.empty()) options.csv_path = options.output_dir + "/run.csv";
  return true;
}

bool selected(const Options& options, const std::string& record_key) {
  if (options.only.empty()) return true;
  for (const auto& glob : options.only) {
    if (fnmatch(glob.c_str(), record_key.c_str(), 0) == 0) return true;
  }
  return false;
}

}  // namespace kspmv::perf
