// libcbor_fast: push writer with preferred serialization (RFC 8949 section 4.1).
#ifndef CBOR_FAST_WRITER_HPP
#define CBOR_FAST_WRITER_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "cbor_fast/allocator.hpp"
#include "cbor_fast/error.hpp"
#include "cbor_fast/item.hpp"

namespace cbor_fast {
inline namespace v1 {

/// Receives encoded bytes in chunks. Returns 0 on success; anything else stops
/// the writer with status::sink_failed.
using sink_fn = int (*)(void* context, const uint8_t* data, size_t size);

/// Push writer. Three destinations:
///  - writer(): a growable buffer the writer owns (data()/size()/detach());
///  - writer(buf, cap): a caller buffer; never writes past cap, keeps counting
///    on overflow so size() reports the bytes needed (status buffer_too_small);
///  - writer(sink, ctx): bytes go to a callback in chunks of about chunk_size.
///
/// Integers and lengths use the shortest head; write_float() picks the
/// shortest of half/single/double that keeps the value exactly (NaN payloads,
/// infinities and -0.0 included) unless a width is forced.
///
/// The writer tracks open containers: an item beyond a definite count, an
/// end() before the count is reached, or finish() with anything open is an
/// error. Every array and map, definite or not, is closed with end(). A tag
/// takes exactly one item and closes itself when that item (a scalar or a
/// whole container) is complete; end() while a tag still waits for its item
/// gives writer_count_mismatch. Structural errors, out_of_memory and
/// sink_failed are sticky; invalid_argument is not. A full caller buffer is
/// not sticky either: tracking goes on and each later write reports
/// buffer_too_small unless a structural error comes first.
///
/// writer(static_cast<uint8_t*>(nullptr), 0) writes nothing and only counts:
/// size() is then the encoded size of the document. A count that would pass
/// SIZE_MAX (declared lengths that no memory holds) is out_of_memory, sticky,
/// rather than a size that wrapped around.
class writer {
 public:
  /// alloc: memory hooks for the owned buffer, the sink staging buffer and the
  /// container stack; nullptr means malloc/realloc/free.
  explicit writer(const allocator* alloc = nullptr) noexcept;
  writer(uint8_t* buffer, size_t capacity, const allocator* alloc = nullptr) noexcept;
  writer(sink_fn sink, void* context, size_t chunk_size = 4096,
         const allocator* alloc = nullptr) noexcept;

  writer(const writer&) = delete;
  writer& operator=(const writer&) = delete;
  writer(writer&& other) noexcept;
  writer& operator=(writer&& other) noexcept;
  ~writer();

  // ---- scalars ----
  // The common calls have inline fast paths (below the class) for an item that
  // the innermost container may take and that fits the buffer as it is; every
  // other case goes to the out-of-line *_slow() functions.
  status write_uint(uint64_t v) noexcept;
  status write_int(int64_t v) noexcept;
  /// Major type 1: writes the integer -1 - n (so n = UINT64_MAX gives -2^64).
  status write_negative(uint64_t n) noexcept;
  /// An integer of any size from its big-endian magnitude bytes: for
  /// negative = false the value is the magnitude, for negative = true it is
  /// -1 - magnitude (the tag 3 convention). Leading zero bytes are ignored;
  /// a value that fits 64 bits is written as a plain integer (preferred
  /// serialization), anything larger as tag 2 or 3 over a byte string.
  status write_bignum(const uint8_t* magnitude, size_t size, bool negative) noexcept;
  status write_bytes(const void* data, size_t size) noexcept {
    return write_string(k_major_bytes, data, size);
  }
  status write_bytes(byte_view v) noexcept { return write_bytes(v.data, v.size); }
  status write_text(std::string_view s) noexcept {
    return write_string(k_major_text, s.data(), s.size());
  }
  status write_tag(uint64_t tag) noexcept;
  status write_bool(bool b) noexcept { return write_simple(b ? 21 : 20); }
  status write_null() noexcept { return write_simple(22); }
  status write_undefined() noexcept { return write_simple(23); }
  /// Simple value 0..255; 24..31 are not well-formed and give invalid_argument.
  status write_simple(uint8_t v) noexcept;
  /// A float: the shortest exact width, or the forced one (rounding to nearest even).
  status write_float(double v, float_width width = float_width::shortest) noexcept;
  /// A float that is a binary16 already, given as its bits (C++17 has no half
  /// type): written as they are, 0xf9 and two bytes, with no width search.
  status write_float16(uint16_t bits) noexcept { return write_float_bits(2, bits); }
  /// A float that is a binary32 already: 0xfa and its four bytes as they are
  /// (NaN payloads kept), with no width search.
  status write_float32(float v) noexcept {
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    return write_float_bits(4, bits);
  }
  /// A binary64: 0xfb and its eight bytes as they are; the same as
  /// write_float(v, float_width::double_).
  status write_float64(double v) noexcept {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    return write_float_bits(8, bits);
  }

  // ---- containers ----
  status begin_array(uint64_t count) noexcept;
  status begin_array_indefinite() noexcept;
  status begin_map(uint64_t pairs) noexcept;
  status begin_map_indefinite() noexcept;
  /// Indefinite-length strings: write_bytes()/write_text() calls in between
  /// are the chunks (each must be of the string's type), end() closes.
  status begin_bytes_indefinite() noexcept;
  status begin_text_indefinite() noexcept;
  /// Closes the innermost container: writes the break for indefinite ones,
  /// checks the count for definite ones.
  status end() noexcept;

  /// Wraps what follows in a byte string, up to end_embedded(): with_tag
  /// writes tag 24 (embedded CBOR, RFC 8949 3.4.5.1) first; without it the
  /// bare byte string, as COSE's protected headers and Sig_structure need
  /// (bstr .cbor). Any number of complete items may go in (zero gives h'').
  /// end_embedded() (or end()) writes the byte string's head with its
  /// shortest length, moving the content once (a 9-byte head is reserved and
  /// shrunk; in a caller buffer 1 byte, grown if needed, so output that fits
  /// the buffer never overflows it on the way). Works for every destination: a caller buffer (overflow is
  /// counted as usual, the size needed stays exact), the owned buffer, and a
  /// sink, which is not called while a wrap is open (the staging buffer grows
  /// to hold the wrapped bytes). While a wrap is open, size() counts the
  /// room reserved for its head (9 bytes, 1 in a caller buffer). Each close
  /// moves everything inside it, so wraps nested n deep move O(n^2) bytes
  /// (160,000 levels: 1.7 s in a probe). Returns as begin_array(). Since 0.4.
  status begin_embedded(bool with_tag = true) noexcept;
  /// Closes the innermost begin_embedded(): invalid_state (not sticky) when
  /// the innermost open item is something else; else as end(). Since 0.4.
  status end_embedded() noexcept;

  /// Writes one data item that is already encoded, data[0, size), as the
  /// next item (one item of the enclosing array or map, or a tag's content):
  /// what a canonical encoder that sorted keys by their bytes writes them
  /// with. The bytes must be exactly one well-formed item (checked with a
  /// reader, limits lifted: the writer never writes ill-formed CBOR), else
  /// invalid_argument (not sticky); writer_bad_chunk inside an indefinite
  /// string; otherwise as write_bytes(). Since 0.5.
  status write_encoded(const void* data, size_t size) noexcept;

  /// Checks that everything is closed and flushes a sink. Returns ok, the
  /// sticky error, writer_unclosed (sticky too: reset() goes on), or
  /// buffer_too_small for a full caller buffer.
  /// A sink writer destroyed without finish() drops its staged bytes.
  status finish() noexcept;

  /// Bytes produced so far (or needed, for an overflowed caller buffer).
  size_t size() const noexcept { return flushed_ + size_t(pos_ - buf_); }
  /// Owned or caller buffer: the bytes (not valid for a sink writer).
  const uint8_t* data() const noexcept { return buf_; }
  /// Owned buffer: a copy of the bytes.
  std::vector<uint8_t> to_vector() const;
  /// Owned buffer: hands the bytes to the caller, who frees them with the
  /// writer's allocator (free(context, ptr, capacity)); the writer is left empty.
  /// Returns nullptr for other modes. *size gets the byte count, *capacity the allocation size.
  /// "Empty" means fresh: no bytes, no open containers, no error, so the
  /// writer can encode the next document. Returns nullptr (sizes 0) when
  /// nothing was allocated yet. size and capacity may be nullptr.
  uint8_t* detach(size_t* size, size_t* capacity) noexcept;
  /// Open containers and tags.
  size_t depth() const noexcept { return depth_; }
  /// The sticky error if any, else buffer_too_small once a caller buffer
  /// overflowed, else ok.
  status error() const noexcept {
    return error_ != status::ok ? error_ : overflow_ ? status::buffer_too_small : status::ok;
  }

 private:
  enum class mode : uint8_t { owned, fixed, sink };
  static constexpr uint8_t k_major_bytes = 2;
  static constexpr uint8_t k_major_text = 3;
  static constexpr uint8_t k_major_array = 4;
  static constexpr uint8_t k_major_map = 5;
  static constexpr uint8_t k_kind_wrap = 24;  ///< frame of begin_embedded()
  static constexpr size_t k_max_head = 9;     ///< also the largest float: f9/fa/fb + 8 bytes
  static constexpr uint64_t k_unlimited = UINT64_MAX;

  /// One open container or tag; kind is its major type (2/3 indefinite
  /// strings, 4 array, 5 map, 6 tag).
  struct frame {
    /// A tag: 1 until its item starts, then 0. Any other frame: the value of
    /// quick_ to restore when it becomes the innermost again (stale while it
    /// is the innermost): items still due for a definite array or map,
    /// "unlimited" for an indefinite array, 0 for an indefinite map or string.
    uint64_t left;
    uint8_t kind;
    bool indefinite;  ///< also set for a wrap (so end()'s fast path leaves it alone)
    bool odd;         ///< indefinite map: an odd number of items so far (a value is due)
    size_t start;     ///< wrap: size() where its reserved 9-byte head starts
  };

  /// The low N bytes of v at out, most significant first.
  template <size_t N>
  static void put_be(uint8_t* out, uint64_t v) noexcept;
  /// Writes the shortest head for (major, arg) at out (room for 9 bytes); returns its size.
  static size_t put_head(uint8_t* out, uint8_t major, uint64_t arg) noexcept;
  /// binary64 bits that are exactly a normal number of the binary format with
  /// ExpBits exponent and MantBits fraction bits: true, and *out gets its bits.
  /// (Zeros, subnormals, infinities, NaNs and inexact values: false.)
  template <unsigned ExpBits, unsigned MantBits>
  static bool narrow_normal(uint64_t bits, uint64_t* out) noexcept;
  /// Room at pos_ for any head or float. Never true for a caller buffer that
  /// overflowed (cap_ is pinned to pos_ then).
  bool head_room() const noexcept { return size_t(cap_ - pos_) >= k_max_head; }
  /// The fast path of an item that is a head alone; false: take the slow path.
  bool quick_head(uint8_t major, uint64_t arg) noexcept;
  /// The fast path of a definite array or map (items: keys and values counted apart).
  bool quick_open(uint8_t major, uint64_t arg, uint64_t items) noexcept;

  status write_string(uint8_t major, const void* data, size_t size) noexcept;
  status write_head_slow(uint8_t major, uint64_t arg) noexcept;
  status write_string_slow(uint8_t major, const void* data, size_t size) noexcept;
  status write_simple_slow(uint8_t v) noexcept;
  status write_float_slow(double v, float_width width) noexcept;
  /// A float of `bytes` = 2, 4 or 8 bytes on the wire, from its bits.
  status write_float_bits(unsigned bytes, uint64_t bits) noexcept;
  status write_float_bits_slow(unsigned bytes, uint64_t bits) noexcept;
  status begin_slow(uint8_t major, uint64_t arg, uint64_t items) noexcept;
  status end_slow() noexcept;
  /// Writes the head of the wrap whose reserved head starts at size() == start.
  void close_wrap(size_t start) noexcept;
  /// Head bytes begin_embedded() reserves: 1 in a caller buffer, else 9.
  size_t wrap_reserve() const noexcept { return mode_ == mode::fixed ? 1 : 9; }

  status before_item(uint8_t major, bool is_chunk) noexcept;
  void after_item() noexcept;
  void reload_quick() noexcept;
  void head(uint8_t major, uint64_t arg) noexcept;
  void put(const void* p, size_t n) noexcept;
  void put_slow(const void* p, size_t n) noexcept;
  bool grow(size_t n) noexcept;
  void flush() noexcept;
  void open(uint8_t kind, bool indefinite, uint64_t count) noexcept;
  status fail(status s) noexcept;
  status result() const noexcept;
  void release_memory() noexcept;
  void take(writer& other) noexcept;

  /// Items the fast paths may write before the frames need a look: the count
  /// still due of the innermost definite array or map (kept here rather than
  /// in its frame), "unlimited" at the top level and in an indefinite array,
  /// and 0 when every item must take the slow path: a tag, an indefinite map
  /// or string innermost, a definite container that has all its items, or a
  /// sticky error.
  uint64_t quick_ = k_unlimited;
  mode mode_ = mode::owned;
  status error_ = status::ok;  ///< sticky: structural errors, out_of_memory, sink_failed
  bool overflow_ = false;      ///< caller buffer full: later bytes are only counted
  uint8_t* buf_ = nullptr;     ///< owned buffer, caller buffer or sink staging buffer
  uint8_t* pos_ = nullptr;
  uint8_t* cap_ = nullptr;  ///< end of buf_; pinned to pos_ once a caller buffer overflows
  size_t flushed_ = 0;      ///< bytes already handed to the sink / counted past a full buffer
  const allocator* alloc_;  ///< never nullptr after construction
  sink_fn sink_ = nullptr;
  void* sink_ctx_ = nullptr;
  frame* stack_ = nullptr;  ///< open containers [0, depth_), allocated through alloc_
  size_t depth_ = 0;
  size_t open_tags_ = 0;   ///< tag frames among the open ones
  size_t open_wraps_ = 0;  ///< begin_embedded() frames open: a sink is not flushed meanwhile
  size_t stack_capacity_ = 0;
};

// ---- inline fast paths ---------------------------------------------------------

template <size_t N>
inline void writer::put_be(uint8_t* out, uint64_t v) noexcept {
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  // One byte swap and one store (bytes written one by one through a uint8_t*
  // could alias the writer's own pointers, and each would reload them).
  const uint64_t be = __builtin_bswap64(v << (64 - 8 * N));
  std::memcpy(out, &be, N);
#else
  for (size_t i = 0; i < N; ++i) out[i] = uint8_t(v >> (8 * (N - 1 - i)));
#endif
}

inline size_t writer::put_head(uint8_t* out, uint8_t major, uint64_t arg) noexcept {
  const auto ib = uint8_t(major << 5);
  if (arg < 24) {
    out[0] = uint8_t(ib | arg);
    return 1;
  }
  if (arg <= 0xff) {
    out[0] = uint8_t(ib | 24);
    out[1] = uint8_t(arg);
    return 2;
  }
  if (arg <= 0xffff) {
    out[0] = uint8_t(ib | 25);
    put_be<2>(out + 1, arg);
    return 3;
  }
  if (arg <= 0xffffffff) {
    out[0] = uint8_t(ib | 26);
    put_be<4>(out + 1, arg);
    return 5;
  }
  out[0] = uint8_t(ib | 27);
  put_be<8>(out + 1, arg);
  return 9;
}

template <unsigned ExpBits, unsigned MantBits>
inline bool writer::narrow_normal(uint64_t bits, uint64_t* out) noexcept {
  constexpr int bias = (1 << (ExpBits - 1)) - 1;
  constexpr unsigned drop = 52 - MantBits;  // fraction bits the target lacks
  constexpr uint64_t one = uint64_t(1) << MantBits;
  // Exponent and kept fraction bits side by side, sign dropped. Normal in the
  // target means a binary64 exponent in [1023 + 1 - bias, 1023 + bias]: one
  // unsigned compare, as a lower exponent wraps around to a huge value.
  const uint64_t magnitude = (bits << 1) >> (drop + 1);
  const uint64_t above_min = magnitude - (uint64_t(1023 + 1 - bias) << MantBits);
  if (above_min >= uint64_t(2 * bias) * one || (bits & ((uint64_t(1) << drop) - 1)) != 0)
    return false;
  // Rebiased: the target's smallest normal exponent, 1, plus the distance above it.
  *out = (bits >> 63) << (ExpBits + MantBits) | (above_min + one);
  return true;
}

inline bool writer::quick_head(uint8_t major, uint64_t arg) noexcept {
  if (quick_ == 0 || !head_room()) return false;
  --quick_;
  uint8_t* p = pos_;
  pos_ = p + put_head(p, major, arg);
  return true;
}

inline bool writer::quick_open(uint8_t major, uint64_t arg, uint64_t items) noexcept {
  if (quick_ == 0 || !head_room() || depth_ == stack_capacity_) return false;
  --quick_;
  uint8_t* p = pos_;
  pos_ = p + put_head(p, major, arg);
  if (depth_ != 0) stack_[depth_ - 1].left = quick_;  // the parent's count leaves quick_
  stack_[depth_++] = frame{items, major, false, false, 0};
  quick_ = items;
  return true;
}

inline status writer::write_uint(uint64_t v) noexcept {
  return quick_head(0, v) ? status::ok : write_head_slow(0, v);
}

inline status writer::write_int(int64_t v) noexcept {
  // For v < 0 the argument is -1 - v == ~v, which is fine for INT64_MIN too.
  const uint64_t sign = uint64_t(v >> 63);  // all ones for negatives
  const auto major = uint8_t(sign & 1);
  return quick_head(major, uint64_t(v) ^ sign) ? status::ok
                                               : write_head_slow(major, uint64_t(v) ^ sign);
}

inline status writer::write_negative(uint64_t n) noexcept {
  return quick_head(1, n) ? status::ok : write_head_slow(1, n);
}

inline status writer::write_simple(uint8_t v) noexcept {
  // 24..31 are not well-formed: the slow path rejects them.
  if ((v < 24 || v >= 32) && quick_head(7, v)) return status::ok;
  return write_simple_slow(v);
}

inline status writer::write_float(double v, float_width width) noexcept {
  // Inline: a double kept as a double (also the shortest width of a value with
  // any of its low 29 fraction bits set: more precision than a single has),
  // and a value that is exactly a normal half or single at that width
  // (re-encoding data at the width it came in). Rounding, zeros, subnormals,
  // NaNs, the rest of the shortest-width search and bad widths go out of line.
  if (quick_ == 0 || !head_room()) return write_float_slow(v, width);
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  uint8_t* p = pos_;
  uint64_t narrow;
  if (width == float_width::double_ ||
      (width == float_width::shortest && (bits & 0x1fffffff) != 0)) {
    p[0] = 0xfb;
    put_be<8>(p + 1, bits);
    pos_ = p + 9;
  } else if (width == float_width::single && narrow_normal<8, 23>(bits, &narrow)) {
    p[0] = 0xfa;
    put_be<4>(p + 1, narrow);
    pos_ = p + 5;
  } else if (width == float_width::half && narrow_normal<5, 10>(bits, &narrow)) {
    p[0] = 0xf9;
    put_be<2>(p + 1, narrow);
    pos_ = p + 3;
  } else {
    return write_float_slow(v, width);
  }
  --quick_;
  return status::ok;
}

inline status writer::write_float_bits(unsigned bytes, uint64_t bits) noexcept {
  if (quick_ == 0 || !head_room()) return write_float_bits_slow(bytes, bits);
  uint8_t* p = pos_;
  // 0xf9, 0xfa, 0xfb for 2, 4, 8 bytes (bytes is a constant after inlining).
  p[0] = bytes == 2 ? 0xf9 : bytes == 4 ? 0xfa : 0xfb;
  if (bytes == 2)
    put_be<2>(p + 1, bits);
  else if (bytes == 4)
    put_be<4>(p + 1, bits);
  else
    put_be<8>(p + 1, bits);
  pos_ = p + 1 + bytes;
  --quick_;
  return status::ok;
}

inline status writer::write_string(uint8_t major, const void* data, size_t size) noexcept {
  const size_t room = size_t(cap_ - pos_);
  if (quick_ == 0 || data == nullptr || room < k_max_head || size > room - k_max_head)
    return write_string_slow(major, data, size);
  --quick_;
  uint8_t* p = pos_;
  p += put_head(p, major, size);
  std::memcpy(p, data, size);
  pos_ = p + size;
  return status::ok;
}

inline status writer::begin_array(uint64_t count) noexcept {
  return quick_open(k_major_array, count, count) ? status::ok
                                                 : begin_slow(k_major_array, count, count);
}

inline status writer::begin_map(uint64_t pairs) noexcept {
  // Keys and values are counted one by one. 2 * pairs cannot overflow in any
  // reachable state: no caller writes 2^64 items, so saturating keeps both
  // checks (too many, too few) exact.
  const uint64_t items = pairs > k_unlimited / 2 ? k_unlimited : pairs * 2;
  return quick_open(k_major_map, pairs, items) ? status::ok : begin_slow(k_major_map, pairs, items);
}

inline status writer::end() noexcept {
  // A definite array or map that has all its items (quick_ holds its count),
  // with no tag open and no error: pop it and restore its parent's count.
  if (quick_ == 0 && depth_ != 0 && open_tags_ == 0 && error_ == status::ok &&
      !stack_[depth_ - 1].indefinite) {
    --depth_;
    quick_ = depth_ != 0 ? stack_[depth_ - 1].left : k_unlimited;
    return overflow_ ? status::buffer_too_small : status::ok;
  }
  return end_slow();
}

}  // namespace v1
}  // namespace cbor_fast

#endif  // CBOR_FAST_WRITER_HPP
