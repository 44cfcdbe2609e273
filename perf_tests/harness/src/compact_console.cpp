#include "kspmv/bench/compact_console.hpp"

#include <unistd.h>

namespace kspmv::bench {

CompactConsoleReporter::CompactConsoleReporter()
    : ConsoleReporter(isatty(STDOUT_FILENO) ? OO_ColorTabular : OO_Tabular) {}

void CompactConsoleReporter::ReportRuns(const std::vector<Run>& runs) {
  std::vector<Run> compact = runs;
  for (Run& run : compact) {
    benchmark::UserCounters kept;
    const auto bandwidth = run.counters.find("bytes_per_second");
    if (bandwidth != run.counters.end()) kept.insert(*bandwidth);
    run.counters = kept;
  }
  ConsoleReporter::ReportRuns(compact);
}

}  // namespace kspmv::bench
