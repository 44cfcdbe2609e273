#pragma once
// Command line of kspmv_cuda_bench.

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace kspmv::bench {

struct Options {
  std::string matrices_dir;      // *.mtx / *.mtx.gz to benchmark (none when empty)
  double generated_scale = 1.0;  // row-count factor of the generated families (0: none)
  std::string out_dir = ".";     // where results.json and results.csv go
  std::vector<std::string> precisions{"fp64", "fp32"};
  std::vector<std::string> only;  // matrix names to keep (all when empty)
  std::string commit = "unknown";
};

inline const char* kUsage =
    "usage: kspmv_cuda_bench [--matrices DIR] [--generated-scale S] [--out DIR]\n"
    "                        [--precision fp32|fp64|both] [--only NAME...] [--commit SHA]\n";

inline Options parse_options(int argc, char** argv) {
  Options options;
  const auto value = [&](int& i) -> std::string {
    if (i + 1 >= argc)
      throw std::invalid_argument(std::string(argv[i]) + " needs a value\n" + kUsage);
    return argv[++i];
  };
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--matrices") {
      options.matrices_dir = value(i);
    } else if (arg == "--generated-scale") {
      options.generated_scale = std::stod(value(i));
    } else if (arg == "--out") {
      options.out_dir = value(i);
    } else if (arg == "--commit") {
      options.commit = value(i);
    } else if (arg == "--precision") {
      const std::string p = value(i);
      if (p == "both") {
        options.precisions = {"fp64", "fp32"};
      } else if (p == "fp32" || p == "fp64") {
        options.precisions = {p};
      } else {
        throw std::invalid_argument("--precision takes fp32, fp64 or both, not " + p);
      }
    } else if (arg == "--only") {
      while (i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0)
        options.only.push_back(argv[++i]);
    } else {
      throw std::invalid_argument("unknown option " + arg + "\n" + kUsage);
    }
  }
  return options;
}

}  // namespace kspmv::bench
