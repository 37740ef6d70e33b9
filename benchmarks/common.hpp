// Benchmark support: generated and real inputs, the checksum every implementation
// folds over the items it sees, and libcbor_fast's reference walk, validation and
// writer replay. Peers (libcbor, nlohmann::json) live in peers.hpp.
#ifndef CBOR_FAST_BENCH_COMMON_HPP
#define CBOR_FAST_BENCH_COMMON_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cbor_fast/item.hpp"
#include "cbor_fast/reader.hpp"
#include "cbor_fast/writer.hpp"

namespace cbor_fast_bench {

/// What every implementation folds over the items it sees, so a benchmark can
/// prove before timing that libcbor_fast and each peer read the same data.
/// Every field is a sum, so the order of traversal (nlohmann keeps objects
/// sorted) does not matter. End items and break bytes are not items.
struct checksum {
  uint64_t items = 0;    ///< data items: scalars, strings (and chunks), containers, tags, keys
  uint64_t ints = 0;     ///< sum of the integers mod 2^64, a negative one as -1 - n
  uint64_t lengths = 0;  ///< sum of definite string lengths and definite container counts
  uint64_t firsts = 0;   ///< sum of the first byte of every non-empty string
  uint64_t floats = 0;   ///< sum of the bit patterns of the floats widened to double
  uint64_t tags = 0;     ///< sum of the tag numbers
  uint64_t trues = 0;    ///< number of true values

  bool operator==(const checksum& o) const noexcept {
    return items == o.items && ints == o.ints && lengths == o.lengths && firsts == o.firsts &&
           floats == o.floats && tags == o.tags && trues == o.trues;
  }
  bool operator!=(const checksum& o) const noexcept { return !(*this == o); }
  checksum& operator+=(const checksum& o) noexcept {
    items += o.items, ints += o.ints, lengths += o.lengths, firsts += o.firsts;
    floats += o.floats, tags += o.tags, trues += o.trues;
    return *this;
  }

  void on_uint(uint64_t v) noexcept { ++items, ints += v; }
  /// The integer -1 - n, folded modulo 2^64 (equals ~n).
  void on_negative(uint64_t n) noexcept { ++items, ints += ~n; }
  void on_int64(int64_t v) noexcept { ++items, ints += uint64_t(v); }
  void on_string(const void* data, size_t size) noexcept {
    ++items, lengths += size;
    if (size != 0) firsts += *static_cast<const uint8_t*>(data);
  }
  /// Definite containers add their count; indefinite ones (and indefinite string starts) 0.
  void on_container(uint64_t count) noexcept { ++items, lengths += count; }
  void on_tag(uint64_t tag) noexcept { ++items, tags += tag; }
  void on_float(double d) noexcept {
    uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    ++items, floats += bits;
  }
  void on_bool(bool b) noexcept { ++items, trues += b ? 1 : 0; }
  /// null, undefined, other simple values.
  void on_simple() noexcept { ++items; }
};

std::string describe(const checksum& c);

/// Which peers can read an input at all (nlohmann::json has no undefined, no
/// tags and only text map keys; libcbor 0.8 has no other simple values).
enum peer_bits : uint32_t { peer_none = 0, peer_libcbor = 1, peer_nlohmann = 2, peer_all = 3 };

/// One benchmark input.
struct input {
  std::string name;
  std::string group;  ///< "kind", "corpus" or "sequence"
  std::vector<uint8_t> bytes;
  std::vector<size_t> docs;  ///< sequences: start of each top-level item, then bytes.size()
  uint32_t peers = peer_all;
  checksum sum;  ///< libcbor_fast's walk: what every peer must match
};

[[noreturn]] void die(const std::string& message);
std::vector<uint8_t> read_file(const std::string& path);

/// The item-kind matrix: each input is one array holding many items of one kind.
std::vector<input> make_kind_inputs();
/// twitter, citm_catalog and canada from `dir`; a missing file is reported and skipped.
std::vector<input> make_corpus_inputs(const std::string& dir);
/// Buffers holding 1000 small top-level documents (one synthetic, one cut from citm_catalog).
std::vector<input> make_sequence_inputs(const std::string& dir);
/// Every input above, with `sum` and `docs` filled in.
std::vector<input> make_all_inputs(const std::string& corpus_dir);

// ---- libcbor_fast reference operations -----------------------------------------

/// Visits every item of a sequence, reads every scalar and touches every string
/// view. *st receives ok or the reader's error.
checksum walk(const uint8_t* data, size_t size, bool validate_utf8, cbor_fast::status* st) noexcept;
/// walk() through reader::visit(): the same items, delivered to an inlined visitor.
checksum walk_visit(const uint8_t* data, size_t size, bool validate_utf8,
                    cbor_fast::status* st) noexcept;
/// walk() through the C API's opaque reader: one cbor_reader_next() per item,
/// or cbor_reader_next_batch() 256 items at a time. *ok: the input was read to its end.
checksum walk_capi(const uint8_t* data, size_t size, bool batch, bool* ok) noexcept;
/// Well-formedness only: skip() over every top-level item. ok or the error.
cbor_fast::status validate(const uint8_t* data, size_t size, bool validate_utf8) noexcept;
/// Offsets of each top-level item, then `size` (aborts on malformed input).
std::vector<size_t> split_sequence(const uint8_t* data, size_t size);

/// The items of a document as the reader yields them (end items included), to
/// replay into a writer or another encoder without reading in the timed loop.
using tape = std::vector<cbor_fast::item>;
tape record(const uint8_t* data, size_t size);
/// Writes the tape with the writer: floats at their recorded width, so the
/// output equals the input for every preferred-serialization input.
cbor_fast::status replay(const tape& t, cbor_fast::writer& w) noexcept;

#ifdef CBOR_FAST_BENCH_DOCUMENT
/// Checksum of a decoded document (cbor_doc*) through the C API's node getters.
checksum document_checksum(const void* doc);
#endif

}  // namespace cbor_fast_bench

#endif  // CBOR_FAST_BENCH_COMMON_HPP
