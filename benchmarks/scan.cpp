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

    add("walk", "cbor_fast", in, no_setup,
        [&in, p, n](none) {
          status st;
          const checksum c = walk(p, n, false, &st);
          expect_sum("walk/cbor_fast", in, c, st == status::ok);
        },
        [p, n](none) {
          status st;
          checksum c = walk(p, n, false, &st);
          benchmark::DoNotOptimize(c);
          benchmark::DoNotOptimize(st);
        });
    add("walk", "cbor_fast_visit", in, no_setup,
        [&in, p, n](none) {
          status st;
          const checksum c = walk_visit(p, n, false, &st);
          expect_sum("walk/cbor_fast_visit", in, c, st == status::ok);
        },
        [p, n](none) {
          status st;
          checksum c = walk_visit(p, n, false, &st);
          benchmark::DoNotOptimize(c);
          benchmark::DoNotOptimize(st);
        });
    for (const bool batch : {false, true}) {
      const std::string impl = batch ? "cbor_fast_capi_batch" : "cbor_fast_capi";
      add("walk", impl, in, no_setup,
          [&in, p, n, batch, impl](none) {
            bool ok;
            const checksum c = walk_capi(p, n, batch, &ok);
            expect_sum("walk/" + impl, in, c, ok);
          },
          [p, n, batch](none) {
            bool ok;
            checksum c = walk_capi(p, n, batch, &ok);
            benchmark::DoNotOptimize(c);
            benchmark::DoNotOptimize(ok);
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
      add("walk", "libcbor", in, no_setup,
          [&in, p, n](none) {
            bool ok;
            const checksum c = libcbor::walk(p, n, &ok);
            expect_sum("walk/libcbor", in, c, ok);
          },
          [p, n](none) {
            bool ok;
            checksum c = libcbor::walk(p, n, &ok);
            benchmark::DoNotOptimize(c);
            benchmark::DoNotOptimize(ok);
          });
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
      add("walk", "nlohmann", in, no_setup,
          [&in, p, n](none) {
            bool ok;
            const checksum c = nlohmann_json::sax_walk(p, n, &ok);
            expect_sum("walk/nlohmann", in, c, ok);
          },
          [p, n](none) {
            bool ok;
            checksum c = nlohmann_json::sax_walk(p, n, &ok);
            benchmark::DoNotOptimize(c);
            benchmark::DoNotOptimize(ok);
          });
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
