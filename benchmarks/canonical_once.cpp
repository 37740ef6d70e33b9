// Callgrind driver for canonical encoding: decodes a file once, then encodes
// the document `iterations` times with the given encode flags (0 plain, 2 core,
// 4 length-first, 8 CTAP2) into a caller buffer. Instructions per encode =
// (Ir(iterations = N) - Ir(iterations = 0)) / N.
//
//   valgrind --tool=callgrind build/bench/benchmarks/cbor_fast_canonical_once \\
//       ../shared/corpus/citm_catalog.cbor 2 10
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cbor_fast/document.hpp"
#include "common.hpp"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s FILE FLAGS ITERATIONS\n", argv[0]);
    return 2;
  }
  const std::vector<uint8_t> in = cbor_fast_bench::read_file(argv[1]);
  const auto flags = uint32_t(std::strtoul(argv[2], nullptr, 10));
  const long iterations = std::strtol(argv[3], nullptr, 10);
  cbor_fast::document doc;
  if (cbor_fast::decode(in.data(), in.size(), doc) != cbor_fast::status::ok) return 1;
  std::vector<uint8_t> out(in.size() + in.size() / 2 + 64);
  size_t size = 0;
  for (long i = 0; i < iterations; ++i) {
    cbor_fast::writer w(out.data(), out.size());
    if (cbor_fast::encode(doc, w, flags) != cbor_fast::status::ok) return 1;
    size = w.size();
  }
  std::printf("%zu bytes in, %zu bytes out\n", in.size(), size);
  return 0;
}
