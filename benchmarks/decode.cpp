// Scenario: decoding a whole item into a document, then freeing it.
//  cbor_fast  cbor_decode() + cbor_doc_free() (zero-copy strings), when the
//             document API is built (CBOR_FAST_BENCH_DOCUMENT)
//  cbor_fast_cxx  the same through cbor_fast::decode() and a C++ document
//  libcbor    cbor_load() + cbor_decref()
//  nlohmann   json::from_cbor() + destruction
#include "peers.hpp"
#include "suite.hpp"

#ifdef CBOR_FAST_BENCH_DOCUMENT
#include "cbor_fast.h"
#include "cbor_fast/document.hpp"
#endif

namespace cbor_fast_bench {

void register_decode(const std::vector<input>& inputs) {
  for (const input& in : inputs) {
    if (in.group == "sequence") continue;  // sequence.cpp decodes those item by item
    const uint8_t* p = in.bytes.data();
    const size_t n = in.bytes.size();
    (void)p, (void)n;

#ifdef CBOR_FAST_BENCH_DOCUMENT
    add(
        "decode", "cbor_fast", in, no_setup,
        [&in, p, n](none) {
          cbor_doc* doc = nullptr;
          const cbor_fast_status s =
              cbor_decode(p, n, CBOR_FAST_DECODE_EXACT, nullptr, &doc, nullptr);
          const checksum c = s == CBOR_FAST_OK ? document_checksum(doc) : checksum{};
          cbor_doc_free(doc);
          expect_sum("decode/cbor_fast", in, c, s == CBOR_FAST_OK);
        },
        [p, n](none) {
          cbor_doc* doc = nullptr;
          cbor_fast_status s = cbor_decode(p, n, CBOR_FAST_DECODE_NONE, nullptr, &doc, nullptr);
          benchmark::DoNotOptimize(s);
          benchmark::DoNotOptimize(doc);
          cbor_doc_free(doc);
        });
    // The same decoder through the C++ API, for the C API's overhead.
    add(
        "decode", "cbor_fast_cxx", in, no_setup,
        [&in, p, n](none) {
          cbor_fast::document d;
          if (cbor_fast::decode(p, n, d) != cbor_fast::status::ok)
            die("decode/cbor_fast_cxx/" + in.name + " failed");
        },
        [p, n](none) {
          cbor_fast::document d;
          cbor_fast::status s = cbor_fast::decode(p, n, d);
          benchmark::DoNotOptimize(s);
          benchmark::DoNotOptimize(d);
        });
#endif

#ifdef CBOR_FAST_BENCH_LIBCBOR
    if (in.peers & peer_libcbor) {
      add(
          "decode", "libcbor", in, no_setup,
          [&in, p, n](none) {
            void* item = libcbor::load(p, n);
            const checksum c = item ? libcbor::tree_checksum(item) : checksum{};
            libcbor::release(item);
            expect_sum("decode/libcbor", in, c, item != nullptr);
          },
          [p, n](none) {
            bool ok = libcbor::load_and_free(p, n);
            benchmark::DoNotOptimize(ok);
          });
    }
#endif

#ifdef CBOR_FAST_BENCH_NLOHMANN
    if (in.peers & peer_nlohmann) {
      add(
          "decode", "nlohmann", in, no_setup,
          [&in, p, n](none) {
            nlohmann_json::document* doc = nlohmann_json::decode(p, n);
            const checksum c = doc ? nlohmann_json::tree_checksum(doc) : checksum{};
            nlohmann_json::release(doc);
            expect_sum("decode/nlohmann", in, c, doc != nullptr);
          },
          [p, n](none) {
            bool ok = nlohmann_json::decode_and_free(p, n);
            benchmark::DoNotOptimize(ok);
          });
    }
#endif
  }
}

}  // namespace cbor_fast_bench
