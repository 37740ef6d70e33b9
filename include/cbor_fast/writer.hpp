// libcbor_fast: push writer with preferred serialization (RFC 8949 section 4.1).
#ifndef CBOR_FAST_WRITER_HPP
#define CBOR_FAST_WRITER_HPP

#include <cstddef>
#include <cstdint>
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
/// size() is then the encoded size of the document.
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
  status write_bytes(const void* data, size_t size) noexcept;
  status write_bytes(byte_view v) noexcept { return write_bytes(v.data, v.size); }
  status write_text(std::string_view s) noexcept;
  status write_tag(uint64_t tag) noexcept;
  status write_bool(bool b) noexcept;
  status write_null() noexcept;
  status write_undefined() noexcept;
  /// Simple value 0..255; 24..31 are not well-formed and give invalid_argument.
  status write_simple(uint8_t v) noexcept;
  /// A float: the shortest exact width, or the forced one (rounding to nearest even).
  status write_float(double v, float_width width = float_width::shortest) noexcept;

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

  /// Checks that everything is closed and flushes a sink. Returns ok, the
  /// sticky error, or buffer_too_small for a full caller buffer.
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
  /// One open container or tag; kind is its major type (2/3 indefinite
  /// strings, 4 array, 5 map, 6 tag).
  struct frame {
    /// Definite containers and tags: items still due (maps count keys and
    /// values). Indefinite ones: items seen.
    uint64_t left;
    uint8_t kind;
    bool indefinite;
  };
  status before_item(uint8_t major, bool is_chunk) noexcept;
  void after_item() noexcept;
  void head(uint8_t major, uint64_t arg) noexcept;
  void put(const void* p, size_t n) noexcept;
  void put_slow(const void* p, size_t n) noexcept;
  bool grow(size_t n) noexcept;
  void flush() noexcept;
  void open(uint8_t kind, bool indefinite, uint64_t count) noexcept;
  status write_string(uint8_t major, const void* data, size_t size) noexcept;
  status fail(status s) noexcept;
  status result() const noexcept;
  void release_memory() noexcept;
  void take(writer& other) noexcept;

  mode mode_ = mode::owned;
  status error_ = status::ok;    ///< sticky: structural errors, out_of_memory, sink_failed
  bool overflow_ = false;        ///< caller buffer full: later bytes are only counted
  uint8_t* buf_ = nullptr;       ///< owned buffer, caller buffer or sink staging buffer
  uint8_t* pos_ = nullptr;
  uint8_t* cap_ = nullptr;       ///< end of buf_; pinned to pos_ once a caller buffer overflows
  size_t flushed_ = 0;           ///< bytes already handed to the sink / counted past a full buffer
  const allocator* alloc_;       ///< never nullptr after construction
  sink_fn sink_ = nullptr;
  void* sink_ctx_ = nullptr;
  frame* stack_ = nullptr;       ///< open containers [0, depth_), allocated through alloc_
  size_t depth_ = 0;
  size_t open_tags_ = 0;         ///< tag frames among the open ones
  size_t stack_capacity_ = 0;
};

}  // namespace v1
}  // namespace cbor_fast

#endif  // CBOR_FAST_WRITER_HPP
