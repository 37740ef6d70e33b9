// Scenario: reading without building anything.
//  walk      every item through the realistic consumer (realistic.hpp)
//  doc       single-item documents, reader set-up included
//  validate  well-formedness only (libcbor_fast: reader::skip() over the input;
//            cbor_fast_utf8 also checks every text string is UTF-8)
//  copy      memcpy of the same bytes: the ceiling
#include <cstring>
#include <memory>
#include <string>

#include "cbor_fast.h"
#include "peers.hpp"
#include "realistic.hpp"
#include "suite.hpp"

namespace cbor_fast_bench {

using cbor_fast::status;

namespace {

/// Registers "walk/<impl>/<input>" for a walker returning a realistic_hash:
/// checked once against the next() loop's hash, then timed.
template <typename Walker>
void add_realistic(const std::string& op, const std::string& impl, const input& in,
                   const realistic_hash& want, Walker walker) {
  const uint8_t* p = in.bytes.data();
  const size_t n = in.bytes.size();
  add(
      op, impl, in, no_setup,
      [&in, p, n, walker, want, what = op + "/" + impl](none) {
        bool ok = false;
        const realistic_hash got = walker(p, n, &ok);
        if (!ok) die(what + "/" + in.name + ": the implementation failed to read the input");
        if (got != want)
          die(what + "/" + in.name + ": hash differs from the next() loop's (items " +
              std::to_string(got.items) + ", expected " + std::to_string(want.items) + ")");
      },
      [p, n, walker](none) {
        bool ok;
        realistic_hash h = walker(p, n, &ok);
        benchmark::DoNotOptimize(h);
        benchmark::DoNotOptimize(ok);
      });
}

/// One document per call through a reader kept across calls (reset per document).
struct reused_reader {
  cbor_fast::reader r{static_cast<const uint8_t*>(nullptr), 0};
};
struct reused_handle {
  cbor_reader* r = nullptr;
  reused_handle() {
    if (cbor_reader_new(nullptr, 0, nullptr, &r) != CBOR_FAST_OK) die("cbor_reader_new failed");
  }
  ~reused_handle() { cbor_reader_free(r); }
  reused_handle(const reused_handle&) = delete;
  reused_handle& operator=(const reused_handle&) = delete;
};

/// The single-item documents: a 64 KiB text, a 1 MiB byte string, a small int.
std::vector<input> make_doc_inputs() {
  std::vector<input> v;
  const auto doc = [&v](const char* name, std::vector<uint8_t> bytes) {
    input in;
    in.name = name;
    in.group = "doc";
    in.bytes = std::move(bytes);
    in.sum.items = 1;
    v.push_back(std::move(in));
  };
  std::vector<uint8_t> text = {0x7a, 0x00, 0x01, 0x00, 0x00};  // 65536 bytes follow
  for (size_t i = 0; i < 65536; ++i) text.push_back(uint8_t('a' + i % 26));
  doc("doc_text_64k", std::move(text));
  std::vector<uint8_t> bytes = {0x5a, 0x00, 0x10, 0x00, 0x00};  // 1 MiB follows
  bytes.resize(bytes.size() + (size_t(1) << 20), 0x5a);
  doc("doc_bytes_1M", std::move(bytes));
  doc("doc_int", {0x18, 0x2a});  // 42
  return v;
}

}  // namespace

void register_walks(const std::vector<input>& inputs) {
  for (const input& in : inputs) {
    if (in.group == "sequence") continue;  // sequence.cpp reads those
    bool ok = false;
    const realistic_hash want = realistic_next(in.bytes.data(), in.bytes.size(), &ok);
    if (!ok || want.items != in.sum.items)
      die("walk/cbor_fast/" + in.name + ": the next() loop disagrees with the reference walk");
    add_realistic("walk", "cbor_fast", in, want, realistic_next);
    add_realistic("walk", "cbor_fast_visit", in, want, realistic_visit);
    add_realistic("walk", "cbor_fast_capi", in, want,
                  [](const uint8_t* p, size_t n, bool* o) noexcept {
                    return realistic_capi(p, n, false, o);
                  });
    add_realistic(
        "walk", "cbor_fast_capi_batch", in, want,
        [](const uint8_t* p, size_t n, bool* o) noexcept { return realistic_capi(p, n, true, o); });
    add_realistic("walk", "cbor_fast_capi_visit", in, want, realistic_capi_visit);
    // Input in parts (reader_options::streaming), as from a socket or pipe.
    add_realistic(
        "walk", "cbor_fast_fed_4k", in, want,
        [](const uint8_t* p, size_t n, bool* o) noexcept { return realistic_fed(p, n, 4096, o); });
    add_realistic(
        "walk", "cbor_fast_fed_64", in, want,
        [](const uint8_t* p, size_t n, bool* o) noexcept { return realistic_fed(p, n, 64, o); });
    // The same caller waiting for needed() bytes before it calls again (not
    // the row the target is set on: that one calls after every chunk).
    add_realistic("walk", "cbor_fast_fed_needed_64", in, want,
                  [](const uint8_t* p, size_t n, bool* o) noexcept {
                    return realistic_fed_needed(p, n, 64, o);
                  });
    add_realistic("walk", "cbor_fast_grown_4k", in, want,
                  [](const uint8_t* p, size_t n, bool* o) noexcept {
                    return realistic_grown(p, n, 4096, o);
                  });
    add_realistic(
        "walk", "cbor_fast_grown_64", in, want,
        [](const uint8_t* p, size_t n, bool* o) noexcept { return realistic_grown(p, n, 64, o); });
    add_realistic("walk", "cbor_fast_stream_4k", in, want,
                  [](const uint8_t* p, size_t n, bool* o) noexcept {
                    return realistic_stream(p, n, 4096, o);
                  });
    // The bound row counts items only: checked by that count.
    {
      const uint8_t* p = in.bytes.data();
      const size_t n = in.bytes.size();
      add(
          "walk", "cbor_fast_visit_bound", in, no_setup,
          [&in, p, n](none) {
            bool o = false;
            if (tiny_visit(p, n, &o) != in.sum.items || !o)
              die("walk/cbor_fast_visit_bound/" + in.name + ": wrong item count");
          },
          [p, n](none) {
            bool o;
            uint64_t items = tiny_visit(p, n, &o);
            benchmark::DoNotOptimize(items);
          });
    }
#ifdef CBOR_FAST_BENCH_LIBCBOR
    if (in.peers & peer_libcbor)
      add_realistic("walk", "libcbor", in, want, libcbor::realistic_walk);
#endif
#ifdef CBOR_FAST_BENCH_NLOHMANN
    if (in.peers & peer_nlohmann)
      add_realistic("walk", "nlohmann", in, want, nlohmann_json::realistic_walk);
#endif
  }

  static const std::vector<input> docs = make_doc_inputs();
  for (const input& in : docs) {
    bool ok = false;
    const realistic_hash want = realistic_next(in.bytes.data(), in.bytes.size(), &ok);
    if (!ok || want.items != 1) die("doc/cbor_fast/" + in.name + ": not one item");
    add_realistic("doc", "cbor_fast", in, want, realistic_next);
    const uint8_t* p = in.bytes.data();
    const size_t n = in.bytes.size();
    const auto check = [&in, p, n, want](const std::string& what, bool ok2,
                                         const realistic_hash& got) {
      if (!ok2 || got != want) die(what + "/" + in.name + ": differs from the next() loop");
    };
    add(
        "doc", "cbor_fast_reset", in, [] { return std::make_shared<reused_reader>(); },
        [check, p, n](const std::shared_ptr<reused_reader>& s) {
          bool o = false;
          const realistic_hash got = doc_reset(s->r, p, n, &o);
          check("doc/cbor_fast_reset", o, got);
        },
        [p, n](const std::shared_ptr<reused_reader>& s) {
          bool o;
          realistic_hash h = doc_reset(s->r, p, n, &o);
          benchmark::DoNotOptimize(h);
        });
    add_realistic("doc", "cbor_fast_capi", in, want,
                  [](const uint8_t* q, size_t m, bool* o) noexcept {
                    return realistic_capi(q, m, false, o);
                  });
    add(
        "doc", "cbor_fast_capi_reset", in, [] { return std::make_shared<reused_handle>(); },
        [check, p, n](const std::shared_ptr<reused_handle>& s) {
          bool o = false;
          const realistic_hash got = doc_capi_reset(s->r, p, n, &o);
          check("doc/cbor_fast_capi_reset", o, got);
        },
        [p, n](const std::shared_ptr<reused_handle>& s) {
          bool o;
          realistic_hash h = doc_capi_reset(s->r, p, n, &o);
          benchmark::DoNotOptimize(h);
        });
#ifdef CBOR_FAST_BENCH_LIBCBOR
    add_realistic("doc", "libcbor", in, want, libcbor::realistic_walk);
#endif
  }
}

void register_scan(const std::vector<input>& inputs) {
  register_walks(inputs);
  for (const input& in : inputs) {
    const uint8_t* p = in.bytes.data();
    const size_t n = in.bytes.size();

    add(
        "copy", "memcpy", in, [n] { return std::vector<uint8_t>(n); }, [](std::vector<uint8_t>&) {},
        [p, n](std::vector<uint8_t>& dst) {
          std::memcpy(dst.data(), p, n);
          benchmark::DoNotOptimize(dst.data());
          benchmark::ClobberMemory();
        });

    if (in.group == "sequence") continue;  // sequence.cpp reads those

    add(
        "validate", "cbor_fast", in, no_setup,
        [&in, p, n](none) {
          if (validate(p, n, false) != status::ok) die("validate/cbor_fast/" + in.name + " failed");
        },
        [p, n](none) {
          status st = validate(p, n, false);
          benchmark::DoNotOptimize(st);
        });
    add(
        "validate", "cbor_fast_utf8", in, no_setup,
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
      add(
          "validate", "libcbor", in, no_setup,
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
      add(
          "validate", "nlohmann", in, no_setup,
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
