// The realistic consumer: what a user's item loop does with each item.
//
// A 12-case switch over the item type that folds the value, length, first
// byte, float bits and tag of every item into one order-dependent hash (end
// items add nothing: not every peer reports them). It is plain code: no
// attribute asks the compiler to inline it anywhere, so the walk rows measure
// what an ordinary `switch (it.type)` loop or visitor gets. libcbor's
// callbacks (peers_libcbor.cpp) and nlohmann's SAX handler fold the same
// numbers with the same arithmetic, so every row is checked against the
// next() loop's hash before it is timed.
#ifndef CBOR_FAST_BENCH_REALISTIC_HPP
#define CBOR_FAST_BENCH_REALISTIC_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cbor_fast/item.hpp"
#include "cbor_fast/reader.hpp"

struct cbor_reader;

namespace cbor_fast_bench {

/// FNV-1a over one 64-bit word per item, salted by the item's kind.
struct realistic_hash {
  uint64_t h = 0xcbf29ce484222325u;
  uint64_t items = 0;

  /// `kind` is the item type number (item_type / CBOR_FAST_TYPE_*).
  void mix(uint64_t kind, uint64_t x) noexcept {
    h = (h ^ (x + kind * 0x9e3779b97f4a7c15u)) * 0x100000001b3u;
    ++items;
  }
  /// Definite strings and chunks; an indefinite string's start is (nullptr, 0).
  void string(uint64_t kind, const void* data, size_t size) noexcept {
    const uint64_t first = size != 0 ? *static_cast<const uint8_t*>(data) : 0;
    mix(kind, uint64_t(size) ^ (first << 56));
  }
  void floating(double d) noexcept {
    uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    mix(12, bits);
  }
  bool operator==(const realistic_hash& o) const noexcept { return h == o.h && items == o.items; }
  bool operator!=(const realistic_hash& o) const noexcept { return !(*this == o); }
};

/// The consumer for C++ items: the visitor of the visit() rows, the loop
/// body of the next() rows.
struct realistic_consumer {
  realistic_hash* s;
  void operator()(const cbor_fast::item& it) const noexcept {
    using cbor_fast::item_type;
    switch (it.type) {
      case item_type::unsigned_int: s->mix(1, it.value()); break;
      case item_type::negative_int: s->mix(2, it.value()); break;
      case item_type::byte_string: s->string(3, it.u.data, size_t(it.arg)); break;
      case item_type::text_string: s->string(4, it.u.data, size_t(it.arg)); break;
      case item_type::array: s->mix(5, it.count()); break;
      case item_type::map: s->mix(6, it.count()); break;
      case item_type::tag: s->mix(7, it.tag_number()); break;
      case item_type::simple: s->mix(8, it.simple_value()); break;
      case item_type::boolean: s->mix(9, it.boolean_value() ? 1 : 0); break;
      case item_type::null: s->mix(10, 0); break;
      case item_type::undefined: s->mix(11, 0); break;
      case item_type::floating: s->floating(it.float_value()); break;
      default: break;  // end, none
    }
  }
};

// The walks (realistic.cpp). *ok: the input was read to its end.
realistic_hash realistic_next(const uint8_t* data, size_t size, bool* ok) noexcept;
realistic_hash realistic_visit(const uint8_t* data, size_t size, bool* ok) noexcept;
realistic_hash realistic_capi(const uint8_t* data, size_t size, bool batch, bool* ok) noexcept;
/// cbor_reader_visit() with C callbacks (realistic_capi_visit.cpp).
realistic_hash realistic_capi_visit(const uint8_t* data, size_t size, bool* ok) noexcept;
/// The next() loop over input that arrives `chunk` bytes at a time, as from a
/// socket: a streaming reader over a window buffer (the next chunk copied in
/// after the bytes there, the unread tail moved to the front first when it
/// does not fit) fed after each need_more.
realistic_hash realistic_fed(const uint8_t* data, size_t size, size_t chunk, bool* ok) noexcept;
/// realistic_fed() with a caller that uses needed(): after need_more it takes
/// chunks from the socket (copied into the window one by one, as above) until
/// at least needed() bytes came, and only then feeds and calls next() again.
realistic_hash realistic_fed_needed(const uint8_t* data, size_t size, size_t chunk,
                                    bool* ok) noexcept;
/// The same without copying: the input is all in memory already and each feed
/// shows the reader `chunk` more bytes of it (what resuming itself costs).
realistic_hash realistic_grown(const uint8_t* data, size_t size, size_t chunk, bool* ok) noexcept;
/// The same through cbor_fast::stream with a source handing out `chunk`-byte reads.
realistic_hash realistic_stream(const uint8_t* data, size_t size, size_t chunk, bool* ok) noexcept;
/// The "bound" row: visit() with a tiny visitor (what the engine alone costs).
/// Returns the number of items that are not end items.
uint64_t tiny_visit(const uint8_t* data, size_t size, bool* ok) noexcept;

/// One document through a reader (or C handle) kept across documents:
/// reset() (cbor_reader_reset()) and a next() loop.
realistic_hash doc_reset(cbor_fast::reader& r, const uint8_t* data, size_t size, bool* ok) noexcept;
realistic_hash doc_capi_reset(struct cbor_reader* r, const uint8_t* data, size_t size,
                              bool* ok) noexcept;

}  // namespace cbor_fast_bench

#endif  // CBOR_FAST_BENCH_REALISTIC_HPP
