#pragma once
// The run's outputs (Kokkos-free): JSON (schema in perf_tests/README.md), CSV, and the terminal
// table.

#include <ostream>
#include <string>
#include <vector>

#include "record.hpp"

namespace kspmv::perf {

void write_json(const RunInfo& run, const std::vector<Record>& records,
                const std::vector<Skipped>& skipped, const std::string& path);
void write_csv(const std::vector<Record>& records, const std::string& path);

std::string progress_line(const Record& r);
void print_table(const RunInfo& run, const std::vector<Record>& records, std::ostream& out);

}  // namespace kspmv::perf
