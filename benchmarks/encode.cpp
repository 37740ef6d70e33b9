// Scenario: producing CBOR.
//  encode      streaming encoders fed from a tape of the input's items (recorded
//              untimed): cbor_fast = writer into a caller buffer, cbor_fast_grow
//              = writer into its own growing buffer, libcbor = cbor_encode_*()
//              into a caller buffer. Every output must equal the input bytes.
//  encode_doc  a decoded document back to bytes: cbor_fast = cbor_encode() into
//              a caller-buffer writer (with CBOR_FAST_BENCH_DOCUMENT), libcbor =
//              cbor_serialize() into a caller buffer, nlohmann = to_cbor() into
//              a reused vector.
#include <cstdio>
#include <memory>

#include "peers.hpp"
#include "suite.hpp"

#ifdef CBOR_FAST_BENCH_DOCUMENT
#include "cbor_fast.h"
#endif

namespace cbor_fast_bench {

using cbor_fast::status;

namespace {

struct tape_state {
  tape items;
  std::vector<uint8_t> out;
};

#ifdef CBOR_FAST_BENCH_DOCUMENT
struct doc_state {
  std::unique_ptr<cbor_doc, void (*)(cbor_doc*)> doc{nullptr, cbor_doc_free};
  std::unique_ptr<cbor_writer, void (*)(cbor_writer*)> w{nullptr, cbor_writer_free};
  std::vector<uint8_t> out;
};
#endif

}  // namespace

void register_encode(const std::vector<input>& inputs) {
  for (const input& in : inputs) {
    if (in.group == "sequence") continue;
    const uint8_t* p = in.bytes.data();
    const size_t n = in.bytes.size();
    const auto tape_setup = [p, n] { return tape_state{record(p, n), std::vector<uint8_t>(n)}; };

    add(
        "encode", "cbor_fast", in, tape_setup,
        [&in](tape_state& s) {
          cbor_fast::writer w(s.out.data(), s.out.size());
          const status st = replay(s.items, w);
          if (st != status::ok)
            die("encode/cbor_fast/" + in.name + ": " + cbor_fast::status_name(st));
          expect_bytes("encode/cbor_fast", in, s.out.data(), w.size());
        },
        [](tape_state& s) {
          cbor_fast::writer w(s.out.data(), s.out.size());
          status st = replay(s.items, w);
          benchmark::DoNotOptimize(st);
          benchmark::DoNotOptimize(s.out.data());
          benchmark::ClobberMemory();
        });
    add(
        "encode", "cbor_fast_grow", in, tape_setup,
        [&in](tape_state& s) {
          cbor_fast::writer w;
          const status st = replay(s.items, w);
          if (st != status::ok)
            die("encode/cbor_fast_grow/" + in.name + ": " + cbor_fast::status_name(st));
          expect_bytes("encode/cbor_fast_grow", in, w.data(), w.size());
        },
        [](tape_state& s) {
          cbor_fast::writer w;
          status st = replay(s.items, w);
          benchmark::DoNotOptimize(st);
          benchmark::DoNotOptimize(w.data());
          benchmark::ClobberMemory();
        });

#ifdef CBOR_FAST_BENCH_DOCUMENT
    const auto doc_setup = [p, n] {
      doc_state s;
      cbor_doc* doc = nullptr;
      if (cbor_decode(p, n, CBOR_FAST_DECODE_NONE, nullptr, &doc, nullptr) != CBOR_FAST_OK)
        die("encode_doc/cbor_fast: cbor_decode failed");
      s.doc.reset(doc);
      s.out.resize(n);
      cbor_writer* w = nullptr;
      if (cbor_writer_new_buffer(s.out.data(), s.out.size(), nullptr, &w) != CBOR_FAST_OK)
        die("encode_doc/cbor_fast: cbor_writer_new_buffer failed");
      s.w.reset(w);
      return s;
    };
    add(
        "encode_doc", "cbor_fast", in, doc_setup,
        [&in](doc_state& s) {
          const uint8_t* data = nullptr;
          size_t size = 0;
          cbor_writer_reset(s.w.get());
          if (cbor_encode(s.doc.get(), CBOR_FAST_ENCODE_NONE, s.w.get()) != CBOR_FAST_OK ||
              cbor_writer_finish(s.w.get(), &data, &size) != CBOR_FAST_OK)
            die("encode_doc/cbor_fast/" + in.name + ": cbor_encode failed");
          expect_bytes("encode_doc/cbor_fast", in, data, size);
        },
        [](doc_state& s) {
          const uint8_t* data = nullptr;
          size_t size = 0;
          cbor_writer_reset(s.w.get());
          cbor_fast_status st = cbor_encode(s.doc.get(), CBOR_FAST_ENCODE_NONE, s.w.get());
          cbor_writer_finish(s.w.get(), &data, &size);
          benchmark::DoNotOptimize(st);
          benchmark::DoNotOptimize(data);
          benchmark::ClobberMemory();
        });
#endif

#ifdef CBOR_FAST_BENCH_LIBCBOR
    if (in.peers & peer_libcbor) {
      add(
          "encode", "libcbor", in, tape_setup,
          [&in](tape_state& s) {
            const size_t size = libcbor::encode_tape(s.items, s.out.data(), s.out.size());
            expect_bytes("encode/libcbor", in, s.out.data(), size);
          },
          [](tape_state& s) {
            size_t size = libcbor::encode_tape(s.items, s.out.data(), s.out.size());
            benchmark::DoNotOptimize(size);
            benchmark::DoNotOptimize(s.out.data());
            benchmark::ClobberMemory();
          });

      struct item_state {
        std::unique_ptr<void, void (*)(void*)> item{nullptr, libcbor::release};
        std::vector<uint8_t> out;
      };
      add(
          "encode_doc", "libcbor", in,
          [p, n] {
            item_state s;
            s.item.reset(libcbor::load(p, n));
            if (!s.item) die("encode_doc/libcbor: cbor_load failed");
            s.out.resize(n + n / 4 + 64);  // room in case libcbor picks other widths
            return s;
          },
          [&in](item_state& s) {
            const size_t size = libcbor::serialize(s.item.get(), s.out.data(), s.out.size());
            if (size == 0) die("encode_doc/libcbor/" + in.name + ": cbor_serialize failed");
            if (size != in.bytes.size() || std::memcmp(s.out.data(), in.bytes.data(), size) != 0) {
              // Not byte-identical: accept it only if it holds the same items.
              status st;
              const checksum c = walk(s.out.data(), size, false, &st);
              expect_sum("encode_doc/libcbor (re-read)", in, c, st == status::ok);
              std::fprintf(stderr, "note: encode_doc/libcbor/%s: same items, other bytes\n",
                           in.name.c_str());
            }
          },
          [](item_state& s) {
            size_t size = libcbor::serialize(s.item.get(), s.out.data(), s.out.size());
            benchmark::DoNotOptimize(size);
            benchmark::DoNotOptimize(s.out.data());
            benchmark::ClobberMemory();
          });
    }
#endif

#ifdef CBOR_FAST_BENCH_NLOHMANN
    if (in.peers & peer_nlohmann) {
      struct json_state {
        std::unique_ptr<nlohmann_json::document, void (*)(nlohmann_json::document*)> doc{
            nullptr, nlohmann_json::release};
        std::vector<uint8_t> out;
      };
      add(
          "encode_doc", "nlohmann", in,
          [p, n] {
            json_state s;
            s.doc.reset(nlohmann_json::decode(p, n));
            if (!s.doc) die("encode_doc/nlohmann: from_cbor failed");
            s.out.reserve(n + n / 4 + 64);
            return s;
          },
          [&in](json_state& s) {
            // nlohmann sorts object keys and shortens lossless doubles to
            // singles: compare the items, not the bytes.
            nlohmann_json::encode(s.doc.get(), s.out);
            status st;
            const checksum c = walk(s.out.data(), s.out.size(), false, &st);
            expect_sum("encode_doc/nlohmann (re-read)", in, c, st == status::ok);
          },
          [](json_state& s) {
            nlohmann_json::encode(s.doc.get(), s.out);
            benchmark::DoNotOptimize(s.out.data());
            benchmark::ClobberMemory();
          });
    }
#endif
  }
}

}  // namespace cbor_fast_bench
