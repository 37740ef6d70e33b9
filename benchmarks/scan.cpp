// Scenario: reading without building anything.
//  walk      visit every item, read every scalar, touch every string view
//  validate  well-formedness only (libcbor_fast: reader::skip() over the input;
//            cbor_fast_utf8 also checks every text string is UTF-8)
//  copy      memcpy of the same bytes: the ceiling
#include <cstring>

#include "cbor_fast.h"
#include "peers.hpp"
#include "suite.hpp"

namespace cbor_fast_bench {

using cbor_fast::status;


void register_scan(const std::vector<input>& inputs) {
  for (const input& in : inputs) {
    const uint8_t* p = in.bytes.data();
    const size_t n = in.bytes.size();

    add("copy", "memcpy", in,
        [n] { return std::vector<uint8_t>(n); },
        [](std::vector<uint8_t>&) {},
        [p, n](std::vector<uint8_t>& dst) {
          std::memcpy(dst.data(), p, n);
          benchmark::DoNotOptimize(dst.data());
          benchmark::ClobberMemory();
        });

    if (in.group == "sequence") continue;  // sequence.cpp reads those

    add_walk("walk", "cbor_fast", in, walk_plain);
    add_walk("walk", "cbor_fast_visit", in, walk_visitor);
    for (const bool batch : {false, true}) {
      const std::string impl = batch ? "cbor_fast_capi_batch" : "cbor_fast_capi";
      add_walk("walk", impl, in, [batch](const uint8_t* data, size_t size, bool* ok) noexcept {
        return walk_capi(data, size, batch, ok);
      });
    }
    add("validate", "cbor_fast", in, no_setup,
        [&in, p, n](none) {
          if (validate(p, n, false) != status::ok) die("validate/cbor_fast/" + in.name + " failed");
        },
        [p, n](none) {
          status st = validate(p, n, false);
          benchmark::DoNotOptimize(st);
        });
    add("validate", "cbor_fast_utf8", in, no_setup,
        [&in, p, n](none) {
          if (validate(p, n, true) != status::ok)
            die("validate/cbor_fast_utf8/" + in.name + " failed");
          status st;
          const checksum c = walk(p, n, true, &st);
          expect_sum("walk/cbor_fast_utf8", in, c, st == status::ok);
        },
        [p, n](none) {
          status st = validate(p, n, true);
          benchmark::DoNotOptimize(st);
        });

#ifdef CBOR_FAST_BENCH_LIBCBOR
    if (in.peers & peer_libcbor) {
      add_walk("walk", "libcbor", in, libcbor::walk);
      add("validate", "libcbor", in, no_setup,
          [&in, p, n](none) {
            if (!libcbor::validate(p, n)) die("validate/libcbor/" + in.name + " failed");
          },
          [p, n](none) {
            bool ok = libcbor::validate(p, n);
            benchmark::DoNotOptimize(ok);
          });
    }
#endif

#ifdef CBOR_FAST_BENCH_NLOHMANN
    if (in.peers & peer_nlohmann) {
      add_walk("walk", "nlohmann", in, nlohmann_json::sax_walk);
      add("validate", "nlohmann", in, no_setup,
          [&in, p, n](none) {
            if (!nlohmann_json::sax_validate(p, n)) die("validate/nlohmann/" + in.name + " failed");
          },
          [p, n](none) {
            bool ok = nlohmann_json::sax_validate(p, n);
            benchmark::DoNotOptimize(ok);
          });
    }
#endif
  }
}

}  // namespace cbor_fast_bench
