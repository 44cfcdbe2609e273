#pragma once
// The harness's entry points. A benchmark program's main():
//
//   kspmv::bench::CommandLine command_line;
//   if (auto status = kspmv::bench::parse_or_explain(argc, argv, command_line)) return *status;
//   ... start the device (Kokkos::ScopeGuard) ...
//   MyDriver driver;
//   return kspmv::bench::run_suite(command_line, driver, argc, argv);
//
// Every (matrix, implementation, precision) of the suite becomes a Google Benchmark named
// matrix/backend/algorithm/precision: its first call is checked against the reference oracle (y
// poisoned first) and sets the implementation up, then each repetition warms up and times
// --batches batches of back-to-back calls between two fences of the device, a batch long enough
// for the fences to vanish in it. The reported time is per call. Repetitions are interleaved at
// random, so that load from other work falls on every record alike. See perf_tests/README.md for
// the counters and the context a run records.

#include <optional>

#include "kspmv/bench/driver.hpp"
#include "kspmv/bench/options.hpp"

namespace kspmv::bench {

// Parses the command line; returns the exit status when the program should stop here (--help: 0,
// a usage error: 2, reported on stderr), before any device is started.
std::optional<int> parse_or_explain(int argc, char** argv, CommandLine& command_line);

// Registers and runs the suite. Returns 0, 2 for Google Benchmark flags it does not know, or 3
// when an implementation computed a wrong result. Releases every workload before it returns.
int run_suite(const CommandLine& command_line, Driver& driver, int argc, char** argv);

}  // namespace kspmv::bench
