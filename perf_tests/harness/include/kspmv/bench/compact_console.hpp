#pragma once
// Google Benchmark's console reporter, less the counters that describe a record's shape: a
// record's line shows its time per call, its bandwidth by the byte model (bytes_per_second)
// and what it ran (chosen=..., the label). The JSON file keeps every counter.

#include <benchmark/benchmark.h>

#include <vector>

namespace kspmv::bench {

class CompactConsoleReporter : public benchmark::ConsoleReporter {
 public:
  CompactConsoleReporter();  // in colour on a terminal only
  void ReportRuns(const std::vector<Run>& runs) override;
};

}  // namespace kspmv::bench
