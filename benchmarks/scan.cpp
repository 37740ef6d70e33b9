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

namespace {
/// walk() through the C API's opaque reader: one cbor_reader_next() per item,
/// or cbor_reader_next_batch() 256 items at a time.
checksum walk_capi(const uint8_t* data, size_t size, bool batch, bool* ok) noexcept {
  checksum c;
  cbor_reader* r = nullptr;
  if (cbor_reader_new(data, size, nullptr, &r) != CBOR_FAST_OK) {
    *ok = false;
    return c;
  }
  cbor_fast_item items[256];
  items[0] = cbor_fast_item CBOR_FAST_ITEM_INIT;
  cbor_fast_status s;
  for (;;) {
    size_t count = 1;
    s = batch ? cbor_reader_next_batch(r, items, 256, &count) : cbor_reader_next(r, items);
    if (s != CBOR_FAST_OK) break;
    for (size_t i = 0; i < count; ++i) {
      const cbor_fast_item& it = items[i];
      switch (it.type) {
        case CBOR_FAST_TYPE_UINT: c.on_uint(it.value); break;
        case CBOR_FAST_TYPE_NEGATIVE: c.on_negative(it.value); break;
        case CBOR_FAST_TYPE_BYTES:
        case CBOR_FAST_TYPE_TEXT:
          if ((it.flags & CBOR_FAST_ITEM_INDEFINITE) != 0)
            c.on_container(0);
          else
            c.on_string(it.data, it.size);
          break;
        case CBOR_FAST_TYPE_ARRAY:
        case CBOR_FAST_TYPE_MAP:
          c.on_container((it.flags & CBOR_FAST_ITEM_INDEFINITE) != 0 ? 0 : it.value);
          break;
        case CBOR_FAST_TYPE_TAG: c.on_tag(it.value); break;
        case CBOR_FAST_TYPE_BOOL: c.on_bool(it.value == 21); break;
        case CBOR_FAST_TYPE_FLOAT: c.on_float(it.float_value); break;
        case CBOR_FAST_TYPE_NULL:
        case CBOR_FAST_TYPE_UNDEFINED:
        case CBOR_FAST_TYPE_SIMPLE: c.on_simple(); break;
        default: break;
      }
    }
  }
  cbor_reader_free(r);
  *ok = s == CBOR_FAST_END;
  return c;
}
}  // namespace

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
