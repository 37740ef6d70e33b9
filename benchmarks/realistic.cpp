// Scenario: the walk rows with the realistic consumer (realistic.hpp), and
// single-item documents.
//
//  walk  every item of the input through the consumer:
//        cbor_fast              while (r.next(it) == ok) consumer(it)
//        cbor_fast_visit        r.visit(consumer) per top-level item
//        cbor_fast_capi         one cbor_reader_next() per item
//        cbor_fast_capi_batch   cbor_reader_next_batch(), 256 items a call
//        cbor_fast_capi_visit   cbor_reader_visit(), C callbacks per item kind
//                               (realistic_capi_visit.cpp)
//        cbor_fast_visit_bound  visit() with a tiny visitor (an upper bound,
//                               not what users see; not checked by hash)
//        libcbor, nlohmann      their streaming interfaces, same consumer
//  doc   one small document per call, reader construction included:
//        cbor_fast (a reader on the stack per document), cbor_fast_reset (one
//        reader, reset() per document), cbor_fast_capi (cbor_reader_new/free
//        per document), cbor_fast_capi_reset (one handle, cbor_reader_reset),
//        libcbor (cbor_stream_decode).
//
// The rows are registered by scan.cpp. This file is compiled with the
// project's ordinary flags; nothing in it asks for inlining (the sources of
// the resumable rows are kept out of line, as a socket read is).
#include "realistic.hpp"

#include <cstring>
#include <string>
#include <vector>

#include "capi_loop.hpp"
#include "cbor_fast.h"
#include "cbor_fast/stream.hpp"

#if defined(__GNUC__) || defined(__clang__)
#define CBOR_FAST_BENCH_NOINLINE __attribute__((noinline))
#else
#define CBOR_FAST_BENCH_NOINLINE
#endif

namespace cbor_fast_bench {

using cbor_fast::item;
using cbor_fast::item_type;
using cbor_fast::status;

realistic_hash realistic_next(const uint8_t* data, size_t size, bool* ok) noexcept {
  realistic_hash h;
  const realistic_consumer consume{&h};
  cbor_fast::reader r(data, size);
  item it;
  status s;
  while ((s = r.next(it)) == status::ok) consume(it);
  *ok = s == status::end;
  return h;
}

realistic_hash realistic_visit(const uint8_t* data, size_t size, bool* ok) noexcept {
  realistic_hash h;
  cbor_fast::reader r(data, size);
  status s;
  while ((s = r.visit(realistic_consumer{&h})) == status::ok) {}
  *ok = s == status::end;
  return h;
}

namespace {
// The resumable loops below have the shape the README recommends, which
// compiles like realistic_next(): the item loop is the one-shot loop plus one
// branch; the reader is the looping function's own (reached through a
// reference it may alias the item next() writes) and starts over no bytes, so
// all of them come through feed() (over a buffer with a size, its
// constructor's failure path for null data changed GCC's register allocation
// of the whole loop: canada walk_grown_4k took 10.20M instructions, 9.86M
// now); and what happens when bytes arrive is in a source object whose
// arrive() is out of line, as a socket read is. With the arrival bookkeeping
// inline, GCC kept the level's item count and the hash's in memory (a store
// and a load per item) instead of in registers.

/// The bytes arrive `chunk` at a time into a window buffer, as from a socket:
/// each chunk is copied in after the bytes already there, and the unread tail
/// moves to the window's front only when the next chunk does not fit (with
/// UntilNeeded, chunks come until at least needed() bytes have, before the
/// reader is fed). The window is 16 KiB (or one chunk, if more), a socket
/// reader's usual receive buffer, which stays in the L1 cache; it doubles
/// when an item does not fit in it.
template <bool UntilNeeded>
struct window_source {
  static constexpr size_t k_window = size_t(16) << 10;

  const uint8_t* data;
  size_t size;
  size_t chunk;
  std::vector<uint8_t> window = std::vector<uint8_t>(chunk > k_window ? chunk : k_window);
  size_t start = 0;   // stream offset of window[0]
  size_t filled = 0;  // bytes in the window
  size_t arrived = 0;

  window_source(const uint8_t* d, size_t n, size_t c) noexcept : data(d), size(n), chunk(c) {}

  /// After need_more: false on a failure.
  CBOR_FAST_BENCH_NOINLINE bool arrive(cbor_fast::reader& r) noexcept {
    if (arrived == size) {
      r.end_input();
      return true;
    }
    const size_t want = UntilNeeded ? r.needed() : 0;
    size_t got = 0;
    do {
      const size_t n = chunk < size - arrived ? chunk : size - arrived;
      if (filled + n > window.size()) {
        // No room behind the bytes there: drop what the reader is done with,
        // and double the window while the item being read leaves no room.
        const size_t keep = r.keep_from();
        std::memmove(window.data(), window.data() + (keep - start), filled - (keep - start));
        filled -= keep - start;
        start = keep;
        size_t cap = window.size();
        while (filled + n > cap) cap *= 2;
        if (cap != window.size()) window.resize(cap);
      }
      std::memcpy(window.data() + filled, data + arrived, n);
      filled += n;
      arrived += n;
      got += n;
    } while (got < want && arrived < size);
    return r.feed(window.data(), filled, start) == status::ok;
  }
};

/// The input is in memory already and each arrival shows the reader `chunk`
/// more bytes of it.
struct grown_source {
  const uint8_t* data;
  size_t size;
  size_t chunk;
  size_t shown;

  grown_source(const uint8_t* d, size_t n, size_t c) noexcept
      : data(d), size(n), chunk(c), shown(0) {}

  CBOR_FAST_BENCH_NOINLINE bool arrive(cbor_fast::reader& r) noexcept {
    if (shown == size) {
      r.end_input();
      return true;
    }
    shown = chunk < size - shown ? shown + chunk : size;
    return r.feed(data, shown, 0) == status::ok;
  }
};

/// The next() loop over what the source hands the reader.
template <class Source>
realistic_hash resumable_loop(const uint8_t* data, size_t size, size_t chunk, bool* ok) noexcept {
  realistic_hash h;
  const realistic_consumer consume{&h};
  *ok = false;
  Source src(data, size, chunk);
  cbor_fast::reader_options o;
  o.streaming = true;
  cbor_fast::reader r(static_cast<const uint8_t*>(nullptr), 0, o);  // nothing has come yet
  item it;
  for (;;) {
    const status s = r.next(it);
    if (s == status::ok) {
      consume(it);
      continue;
    }
    if (s != status::need_more) {
      *ok = s == status::end;
      return h;
    }
    if (!src.arrive(r)) return h;
  }
}

template <bool UntilNeeded>
realistic_hash fed_loop(const uint8_t* data, size_t size, size_t chunk, bool* ok) noexcept {
  return resumable_loop<window_source<UntilNeeded>>(data, size, chunk, ok);
}
}  // namespace

realistic_hash realistic_fed(const uint8_t* data, size_t size, size_t chunk, bool* ok) noexcept {
  return fed_loop<false>(data, size, chunk, ok);
}

realistic_hash realistic_fed_needed(const uint8_t* data, size_t size, size_t chunk,
                                    bool* ok) noexcept {
  return fed_loop<true>(data, size, chunk, ok);
}

realistic_hash realistic_grown(const uint8_t* data, size_t size, size_t chunk, bool* ok) noexcept {
  return resumable_loop<grown_source>(data, size, chunk, ok);
}

namespace {
struct chunk_source {
  const uint8_t* data;
  size_t size;
  size_t at;
  size_t chunk;
  static bool read(void* ctx, uint8_t* buf, size_t cap, size_t* got) {
    chunk_source& s = *static_cast<chunk_source*>(ctx);
    size_t n = s.size - s.at;
    if (n > s.chunk) n = s.chunk;
    if (n > cap) n = cap;
    std::memcpy(buf, s.data + s.at, n);
    s.at += n;
    *got = n;
    return true;
  }
};
}  // namespace

realistic_hash realistic_stream(const uint8_t* data, size_t size, size_t chunk, bool* ok) noexcept {
  realistic_hash h;
  const realistic_consumer consume{&h};
  chunk_source src{data, size, 0, chunk};
  cbor_fast::stream_options so;
  so.block_size = chunk;
  cbor_fast::stream st(&chunk_source::read, &src, so);
  item it;
  status s;
  while ((s = st.next(it)) == status::ok) consume(it);
  *ok = s == status::end;
  return h;
}

namespace {
/// The consumer for C items: the same switch over the C type numbers.
inline void consume_c(realistic_hash& h, const cbor_fast_item& it) noexcept {
  switch (it.type) {
    case CBOR_FAST_TYPE_UINT: h.mix(1, it.value); break;
    case CBOR_FAST_TYPE_NEGATIVE: h.mix(2, it.value); break;
    case CBOR_FAST_TYPE_BYTES: h.string(3, it.data, it.size); break;
    case CBOR_FAST_TYPE_TEXT: h.string(4, it.data, it.size); break;
    case CBOR_FAST_TYPE_ARRAY: h.mix(5, it.value); break;
    case CBOR_FAST_TYPE_MAP: h.mix(6, it.value); break;
    case CBOR_FAST_TYPE_TAG: h.mix(7, it.value); break;
    case CBOR_FAST_TYPE_SIMPLE: h.mix(8, it.value); break;
    case CBOR_FAST_TYPE_BOOL: h.mix(9, it.value == 21 ? 1 : 0); break;
    case CBOR_FAST_TYPE_NULL: h.mix(10, 0); break;
    case CBOR_FAST_TYPE_UNDEFINED: h.mix(11, 0); break;
    case CBOR_FAST_TYPE_FLOAT: h.floating(it.float_value); break;
    default: break;
  }
}
}  // namespace

realistic_hash realistic_capi(const uint8_t* data, size_t size, bool batch, bool* ok) noexcept {
  realistic_hash h;
  *ok = for_each_c_item(data, size, batch,
                        [&h](const cbor_fast_item& it) noexcept { consume_c(h, it); });
  return h;
}

uint64_t tiny_visit(const uint8_t* data, size_t size, bool* ok) noexcept {
  cbor_fast::reader r(data, size);
  uint64_t n = 0;
  status s;
  while ((s = r.visit([&n](const item& it) noexcept { n += it.type != item_type::end; })) ==
         status::ok) {}
  *ok = s == status::end;
  return n;
}

realistic_hash doc_reset(cbor_fast::reader& r, const uint8_t* data, size_t size,
                         bool* ok) noexcept {
  realistic_hash h;
  const realistic_consumer consume{&h};
  r.reset(data, size);
  item it;
  status s;
  while ((s = r.next(it)) == status::ok) consume(it);
  *ok = s == status::end;
  return h;
}

realistic_hash doc_capi_reset(cbor_reader* r, const uint8_t* data, size_t size, bool* ok) noexcept {
  realistic_hash h;
  *ok = false;
  if (cbor_reader_reset(r, data, size) != CBOR_FAST_OK) return h;
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  cbor_fast_status s;
  while ((s = cbor_reader_next(r, &it)) == CBOR_FAST_OK) consume_c(h, it);
  *ok = s == CBOR_FAST_END;
  return h;
}

}  // namespace cbor_fast_bench
