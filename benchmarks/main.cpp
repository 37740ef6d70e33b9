// The benchmark binary: builds every input, then registers the scenarios
// (scan.cpp, decode.cpp, encode.cpp, sequence.cpp) and runs Google Benchmark.
// The corpus directory is CBOR_FAST_CORPUS_DIR (CMake cache variable), or the
// environment variable of the same name when set.
#include <cstdlib>
#include <string>
#include <vector>

#include "suite.hpp"

int main(int argc, char** argv) {
  using namespace cbor_fast_bench;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  const char* env = std::getenv("CBOR_FAST_CORPUS_DIR");
  const std::string dir = env != nullptr && *env != '\0' ? env : CBOR_FAST_CORPUS_DIR;
  // Benchmarks keep pointers into these until the end of main.
  static const std::vector<input> inputs = make_all_inputs(dir);

  std::string peers = "libcbor_fast";
#ifdef CBOR_FAST_BENCH_LIBCBOR
  peers += " libcbor";
#endif
#ifdef CBOR_FAST_BENCH_NLOHMANN
  peers += " nlohmann";
#endif
#ifdef CBOR_FAST_BENCH_DOCUMENT
  peers += " (documents)";
#endif
  benchmark::AddCustomContext("implementations", peers);
  benchmark::AddCustomContext("corpus_dir", dir);

  register_scan(inputs);
  register_decode(inputs);
  register_encode(inputs);
  register_sequence(inputs);
  register_canonical(inputs);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
