// Scenario: a CBOR sequence (RFC 8742) of 1000 small documents.
//  seq_walk      every item of every document (one reader over the buffer;
//                libcbor's stream decoder; nlohmann's SAX per document)
//  seq_validate  find and check each document: reader::skip() per document
//                (cbor_fast), cbor_seq_next() (cbor_fast_capi, with
//                CBOR_FAST_BENCH_DOCUMENT), libcbor's stream decoder with empty
//                callbacks, nlohmann's SAX per document
//  seq_decode    a document per item, freed at once: cbor_seq_next_doc()
//                (cbor_fast), cbor_load() in a loop (libcbor), from_cbor()
//                (nlohmann)
// nlohmann::json cannot tell where an item ends, so it is handed each
// document's bounds (found untimed); the others find them themselves.
#include "peers.hpp"
#include "suite.hpp"

#ifdef CBOR_FAST_BENCH_DOCUMENT
#include "cbor_fast.h"
#endif

namespace cbor_fast_bench {

using cbor_fast::status;

void register_sequence(const std::vector<input>& inputs) {
  for (const input& in : inputs) {
    if (in.group != "sequence") continue;
    const uint8_t* p = in.bytes.data();
    const size_t n = in.bytes.size();
    const size_t docs = in.docs.size() - 1;
    const std::vector<size_t>* bounds = &in.docs;
    (void)bounds;

    add_walk("seq_walk", "cbor_fast", in, walk_plain);
    add_walk("seq_walk", "cbor_fast_visit", in, walk_visitor);
    add(
        "seq_validate", "cbor_fast", in, no_setup,
        [&in, p, n, docs](none) {
          cbor_fast::reader r(p, n);
          size_t count = 0;
          status st;
          while ((st = r.skip()) == status::ok) ++count;
          if (st != status::end || count != docs)
            die("seq_validate/cbor_fast/" + in.name + ": wrong document count");
        },
        [p, n](none) {
          cbor_fast::reader r(p, n);
          size_t count = 0;
          while (r.skip() == status::ok) ++count;
          benchmark::DoNotOptimize(count);
        });

#ifdef CBOR_FAST_BENCH_DOCUMENT
    add(
        "seq_validate", "cbor_fast_capi", in, no_setup,
        [&in, p, n, docs](none) {
          cbor_seq* seq = nullptr;
          if (cbor_seq_new(p, n, nullptr, &seq) != CBOR_FAST_OK) die("cbor_seq_new failed");
          size_t count = 0, at = 0, length = 0;
          cbor_fast_status st;
          while ((st = cbor_seq_next(seq, CBOR_FAST_DECODE_NONE, &at, &length)) == CBOR_FAST_OK) {
            if (at != in.docs[count] || at + length != in.docs[count + 1])
              die("seq_validate/cbor_fast_capi/" + in.name + ": wrong item bounds");
            ++count;
          }
          cbor_seq_free(seq);
          if (st != CBOR_FAST_END || count != docs)
            die("seq_validate/cbor_fast_capi/" + in.name + ": wrong document count");
        },
        [p, n](none) {
          cbor_seq* seq = nullptr;
          cbor_seq_new(p, n, nullptr, &seq);
          size_t count = 0;
          while (cbor_seq_next(seq, CBOR_FAST_DECODE_NONE, nullptr, nullptr) == CBOR_FAST_OK)
            ++count;
          cbor_seq_free(seq);
          benchmark::DoNotOptimize(count);
        });
    add(
        "seq_decode", "cbor_fast", in, no_setup,
        [&in, p, n, docs](none) {
          cbor_seq* seq = nullptr;
          if (cbor_seq_new(p, n, nullptr, &seq) != CBOR_FAST_OK) die("cbor_seq_new failed");
          checksum total;
          size_t count = 0;
          cbor_doc* doc = nullptr;
          cbor_fast_status st;
          while ((st = cbor_seq_next_doc(seq, CBOR_FAST_DECODE_NONE, &doc)) == CBOR_FAST_OK) {
            total += document_checksum(doc);
            cbor_doc_free(doc);
            ++count;
          }
          cbor_seq_free(seq);
          expect_sum("seq_decode/cbor_fast", in, total, st == CBOR_FAST_END && count == docs);
        },
        [p, n](none) {
          cbor_seq* seq = nullptr;
          cbor_seq_new(p, n, nullptr, &seq);
          cbor_doc* doc = nullptr;
          while (cbor_seq_next_doc(seq, CBOR_FAST_DECODE_NONE, &doc) == CBOR_FAST_OK) {
            benchmark::DoNotOptimize(doc);
            cbor_doc_free(doc);
          }
          cbor_seq_free(seq);
        });
#endif

#ifdef CBOR_FAST_BENCH_LIBCBOR
    add_walk("seq_walk", "libcbor", in, libcbor::walk);
    add(
        "seq_validate", "libcbor", in, no_setup,
        [&in, p, n](none) {
          if (!libcbor::validate(p, n)) die("seq_validate/libcbor/" + in.name + " failed");
        },
        [p, n](none) {
          bool ok = libcbor::validate(p, n);
          benchmark::DoNotOptimize(ok);
        });
    add(
        "seq_decode", "libcbor", in, no_setup,
        [&in, p, n, docs](none) {
          checksum total;
          const size_t count = libcbor::load_sequence(p, n, &total);
          expect_sum("seq_decode/libcbor", in, total, count == docs);
        },
        [p, n](none) {
          size_t count = libcbor::load_sequence(p, n, nullptr);
          benchmark::DoNotOptimize(count);
        });
#endif

#ifdef CBOR_FAST_BENCH_NLOHMANN
    add(
        "seq_walk", "nlohmann", in, no_setup,
        [&in, p, bounds](none) {
          checksum total;
          bool all = true;
          for (size_t i = 0; i + 1 < bounds->size(); ++i) {
            bool ok;
            total +=
                nlohmann_json::sax_walk(p + (*bounds)[i], (*bounds)[i + 1] - (*bounds)[i], &ok);
            all = all && ok;
          }
          expect_sum("seq_walk/nlohmann", in, total, all);
        },
        [p, bounds](none) {
          checksum total;
          for (size_t i = 0; i + 1 < bounds->size(); ++i) {
            bool ok;
            total +=
                nlohmann_json::sax_walk(p + (*bounds)[i], (*bounds)[i + 1] - (*bounds)[i], &ok);
          }
          benchmark::DoNotOptimize(total);
        });
    add(
        "seq_validate", "nlohmann", in, no_setup,
        [&in, p, bounds](none) {
          for (size_t i = 0; i + 1 < bounds->size(); ++i)
            if (!nlohmann_json::sax_validate(p + (*bounds)[i], (*bounds)[i + 1] - (*bounds)[i]))
              die("seq_validate/nlohmann/" + in.name + " failed");
        },
        [p, bounds](none) {
          bool all = true;
          for (size_t i = 0; i + 1 < bounds->size(); ++i)
            all &= nlohmann_json::sax_validate(p + (*bounds)[i], (*bounds)[i + 1] - (*bounds)[i]);
          benchmark::DoNotOptimize(all);
        });
    add(
        "seq_decode", "nlohmann", in, no_setup,
        [&in, p, bounds](none) {
          checksum total;
          for (size_t i = 0; i + 1 < bounds->size(); ++i) {
            nlohmann_json::document* doc =
                nlohmann_json::decode(p + (*bounds)[i], (*bounds)[i + 1] - (*bounds)[i]);
            if (doc == nullptr) die("seq_decode/nlohmann/" + in.name + ": from_cbor failed");
            total += nlohmann_json::tree_checksum(doc);
            nlohmann_json::release(doc);
          }
          expect_sum("seq_decode/nlohmann", in, total, true);
        },
        [p, bounds](none) {
          bool all = true;
          for (size_t i = 0; i + 1 < bounds->size(); ++i)
            all &=
                nlohmann_json::decode_and_free(p + (*bounds)[i], (*bounds)[i + 1] - (*bounds)[i]);
          benchmark::DoNotOptimize(all);
        });
#endif
  }
}

}  // namespace cbor_fast_bench
