#include "kspmv/bench/host_info.hpp"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>

namespace kspmv::bench {

std::string cpu_model_name() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown CPU";
}

// sysfs writes cache sizes like "32768K".
double largest_cpu_cache_bytes() {
  double largest = 0;
  std::error_code error;
  for (const auto& index :
       std::filesystem::directory_iterator("/sys/devices/system/cpu/cpu0/cache", error)) {
    std::ifstream file(index.path() / "size");
    double size = 0;
    std::string unit;
    if (file >> size) {
      file >> unit;
      if (unit == "K") size *= 1024;
      if (unit == "M") size *= 1024 * 1024;
      largest = std::max(largest, size);
    }
  }
  return largest;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}

}  // namespace kspmv::bench
