// libcbor_fast: zero-copy pull reader over a borrowed buffer.
#ifndef CBOR_FAST_READER_HPP
#define CBOR_FAST_READER_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>  // for the deleted rvalue overload

#include "cbor_fast/allocator.hpp"
#include "cbor_fast/error.hpp"
#include "cbor_fast/item.hpp"

namespace cbor_fast {
namespace detail {
class key_checker;
struct reader_steps;
struct reader_access;
struct bulk_reader;
struct mapping_access;
/// What a reader frame holds open. Strings last, so one compare tells
/// "inside an indefinite string".
enum frame_kind : uint8_t {
  frame_root = 0,
  frame_array = 1,
  frame_map = 2,
  frame_tag = 3,
  frame_bytes = 4,
  frame_text = 5
};
/// reader::slow_'s bit for the strict checks (duplicate keys, deterministic
/// encoding); the other bits are reader.cpp's.
constexpr uint8_t slow_strict = 2;
/// Start value of an indefinite frame's countdown (and the root's, which
/// never completes): even, so parity counts pairs, and out of reach (every
/// item takes at least one byte of input).
constexpr uint64_t k_open_ended = uint64_t(1) << 63;
}  // namespace detail

// Forced inlining is for optimised builds only. Without optimisation
// (__OPTIMIZE__ undefined: -O0, CMake's Debug) GCC still obeys always_inline
// and flatten, and every next() call site then carries a full copy of the
// steps: under the sanitizers a test file of such calls took minutes to
// compile and gained nothing, since nothing else is optimised either.
#if (defined(__GNUC__) || defined(__clang__)) && defined(__OPTIMIZE__)
#define CBOR_FAST_VISIT_INLINE __attribute__((always_inline))
#else
#define CBOR_FAST_VISIT_INLINE
#endif
// The visit loop inlines everything it calls whose body it sees (the
// visitor and the steps); out-of-line calls stay calls.
#if defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__)
#define CBOR_FAST_VISIT_FLATTEN __attribute__((flatten))
#else
#define CBOR_FAST_VISIT_FLATTEN
#endif

inline namespace v1 {

/// The default limits of every surface for untrusted input: readers,
/// documents, sequences, the C API (CBOR_FAST_DEFAULT_*) and the bindings.
/// No normal document comes near them and each is lifted by setting the
/// limit, up to its type's maximum for no limit beyond the input's own bound.
///
/// Nesting limit of readers and documents.
inline constexpr uint32_t default_max_depth = 512;
/// Most entries in one array (items) or map (pairs), since 0.5: 2^24. The
/// largest container of the benchmark corpus holds 14310 (canada.json's
/// longest ring), 1/1172 of it; a declared count above the bytes left already
/// fails at its head, so what this bounds is a count that is also held by
/// the input: what a consumer sizes by one head (2^24 eight-byte slots are
/// 128 MiB), and a streaming source whose length is not known. Higher than
/// fxamacker/cbor's 131072, which one flat array of 1 MiB of doubles reaches.
inline constexpr uint64_t default_max_container_items = uint64_t(1) << 24;
/// Most data items of one document, and of one top-level item a reader
/// reads (since 0.5 for readers): 2^28 (a document of them holds 6 GiB of
/// nodes). The corpus's largest file has 167187.
inline constexpr uint64_t default_max_items = uint64_t(1) << 28;

/// Runtime limits and checks of a reader. Defaults are safe for hostile input.
/// In every limit 0 means its default, as it does in decode_options, in the
/// C API and in the bindings (since 0.5; before, 0 was taken literally: a
/// max_depth of 0 allowed scalars only and a max_items of 0 no item at all).
struct reader_options {
  /// Maximum nesting depth (containers, tags and indefinite strings). Items at
  /// the top level have depth 0; a container at depth max_depth - 1 is the
  /// deepest allowed, so 1 allows containers of scalars; 0 means 512. Any
  /// value up to UINT32_MAX works: the reader keeps its own stack on the heap
  /// and never recurses.
  uint32_t max_depth = default_max_depth;
  /// Reject text strings (and text chunks) that are not valid UTF-8 (RFC 3629).
  bool validate_utf8 = false;
  /// Longest string content in bytes: a definite string or chunk declaring
  /// more fails with string_too_long at its head (before the input length is
  /// compared), and so does the chunk that takes an indefinite string's
  /// total past it. The reader itself never copies, so the default (0 or
  /// UINT64_MAX) is unlimited.
  uint64_t max_string_length = UINT64_MAX;
  /// Most entries in one array (items) or map (pairs): a definite head
  /// declaring more (before the input length is compared), or an indefinite
  /// container reaching more, fails with container_too_large at the
  /// offending head. Default (also for 0) 2^24 (before 0.5: no limit);
  /// UINT64_MAX: none (but a map of 2^63 pairs or more, which no input can
  /// hold, is truncated, or container_too_large when streaming).
  uint64_t max_container_items = default_max_container_items;
  /// Most data items in all (every head counts once: containers, tags, keys,
  /// values, string chunks; end items and breaks do not): the next item fails
  /// with too_many_items. Counted per top-level item (since 0.5; before, in
  /// all since construction or reset()), so a reader over a sequence or a
  /// long-lived stream never runs out between items. Default (also for 0)
  /// 2^28 (before 0.5: no limit); UINT64_MAX: none.
  uint64_t max_items = default_max_items;
  /// Reject a map key equal to an earlier key of the same map (RFC 8949
  /// section 5.6): duplicate_key at the second key's offset. Keys compare by
  /// value in the generic data model, so 1 and 0x18 0x01, a half and a
  /// double of the same value, or a definite and an indefinite string with the
  /// same content are equal; maps used as keys compare as unordered maps,
  /// floats by value (0.0 and -0.0 are one key, so is every NaN) and a bignum
  /// equals the integer of the same value (since 0.4; RFC 8949 5.6.1, 3.4.3).
  /// A hash table per open map: linear time on large maps, keyed by a
  /// per-process random seed so crafted collisions cannot make it quadratic.
  bool reject_duplicate_keys = false;
  /// Require RFC 8949 core deterministic encoding (section 4.2.1): shortest
  /// heads and floats (non_preferred_encoding), definite lengths only
  /// (indefinite_length) and map keys in strictly increasing bytewise order
  /// of their encodings (unsorted_map_keys; an equal key is duplicate_key);
  /// since 0.4 bignums in preferred form (RFC 8949 3.4.3: a tag 2/3 over 8
  /// bytes or fewer, or with a leading zero, is non_preferred_encoding).
  /// Each at the offset of the offending head or key.
  bool deterministic = false;
  /// The input arrives in parts (since 0.5): a buffer that ends inside an
  /// item is not an error. next() there returns need_more (not sticky), with
  /// needed() the fewest further bytes it needs and nothing of the partial
  /// item consumed; feed() hands over a longer or a later buffer and the call
  /// is made again. At the end of the buffer at the top level next() gives
  /// need_more too (the stream may go on): end_input() says no more comes,
  /// after which a partial item is truncated and the top level gives end.
  /// A definite array or map head is taken without comparing its count with
  /// the bytes at hand (they may not have arrived), so a consumer that sizes
  /// memory by a count should bound it with max_container_items.
  bool streaming = false;
  /// Memory hooks for the reader's container stack; nullptr means malloc/free.
  const allocator* alloc = nullptr;
};

}  // namespace v1

namespace detail {
/// The one place where 0 in a reader limit becomes its default: the reader's
/// constructor and set_options() apply it, so options() reports the limits in
/// force.
constexpr reader_options resolve_defaults(reader_options o) noexcept {
  if (o.max_depth == 0) o.max_depth = default_max_depth;
  if (o.max_string_length == 0) o.max_string_length = UINT64_MAX;
  if (o.max_container_items == 0) o.max_container_items = default_max_container_items;
  if (o.max_items == 0) o.max_items = default_max_items;
  return o;
}
}  // namespace detail

inline namespace v1 {

/// Pull reader: each next() yields the following item of a CBOR sequence
/// (RFC 8742), checking well-formedness as RFC 8949 Appendix F defines it.
///
/// The reader never copies the input: the buffer must stay alive and unchanged
/// as long as the reader and every item or view taken from it are in use.
/// Errors are sticky: after the first failure every call returns it.
///
/// Input in parts (reader_options::streaming): offsets count from the start
/// of the stream whatever buffer holds the bytes now. After need_more, feed()
/// the buffer again with more bytes: the same buffer grown (first_offset 0),
/// or a window that keeps the stream from keep_from() on. Items already
/// returned point into the buffer that held them and stay valid as long as
/// those bytes do. skip(), visit() and read_array() need their whole item:
/// they return need_more (consuming nothing) until it is in the buffer, and
/// what they scanned of it so far is not scanned again after feed().
/// visit_items() and skip_to_end() take whole items as they arrive and stop
/// with need_more at a partial one; read_joined() appends the chunks that
/// have arrived and continues on the next call.
class reader {
 public:
  inline reader(const uint8_t* data, size_t size, const reader_options& options = {}) noexcept;
  reader(const void* data, size_t size, const reader_options& options = {}) noexcept
      : reader(static_cast<const uint8_t*>(data), size, options) {}
  explicit reader(std::string_view input, const reader_options& options = {}) noexcept
      : reader(input.data(), input.size(), options) {}
  /// A temporary string would die before the reader: refuse to compile.
  explicit reader(std::string&& input, const reader_options& options = {}) = delete;
  explicit reader(std::vector<uint8_t>&& input, const reader_options& options = {}) = delete;

  reader(const reader&) = delete;
  reader& operator=(const reader&) = delete;
  reader(reader&& other) noexcept;
  reader& operator=(reader&& other) noexcept;
  inline ~reader();

  /// Changes the limits and checks mid-stream (the allocator stays the one
  /// given at construction; new container limits apply to containers opened
  /// from now on). invalid_argument if max_depth < depth().
  status set_options(const reader_options& options) noexcept;

  /// Restarts on new input (same rules as the constructor), keeping the
  /// options and the stack allocation; clears any error.
  inline void reset(const uint8_t* data, size_t size) noexcept;

  /// Reads the next item into *out. Returns ok, end (the input is exhausted at
  /// the top level: not an error), need_more (streaming), or the sticky
  /// error; *out is written only when ok is returned. Common heads are read
  /// inline (reader-inl.hpp) and the rest out of line into an item of the
  /// reader's own, so a `while (r.next(it) == status::ok)` loop keeps the
  /// item in registers.
  CBOR_FAST_VISIT_INLINE inline status next(item& out) noexcept;

  /// Passes over the next complete item: a scalar, or a container, tag or
  /// indefinite string with everything inside it. Returns ok, end or an error.
  status skip() noexcept;

  /// Reads the next complete item (as skip() passes over it) and calls
  /// `v(const item&)` for each item next() would have yielded, in the same
  /// order with the same fields, end items included. Returns ok, end (nothing
  /// was left at the top level), invalid_state (at the end of the enclosing
  /// container, as skip()), or the sticky error; items before an error have
  /// been delivered. The item is built inline with its type a constant, and
  /// the library forces the visitor inline into each step (the driving loop
  /// is flattened), so a visitor that switches on item::type folds into the
  /// reader's own dispatch. The visitor must be noexcept (a static_assert
  /// checks) and must not use this reader.
  template <class Visitor>
  status visit(Visitor&& v);

  /// Calls `v(const item&)` for each of the next `max_items` items next()
  /// would yield, stopping early at the end of input or an error. *delivered
  /// (not null) receives how many items v saw. Returns ok when max_items were
  /// delivered, else the status next() gave (end or the sticky error).
  template <class Visitor>
  status visit_items(Visitor&& v, size_t max_items, size_t* delivered);

  /// Passes over the rest of the innermost open container (or indefinite
  /// string), including its end item. invalid_state at the top level.
  status skip_to_end() noexcept;

  /// Call right after next() returned an indefinite-length string start:
  /// reads every chunk and the closing break, appending the joined content to
  /// *out (the only operation that copies input). A definite string item just
  /// read is appended too. invalid_state for any other item.
  status read_joined(const item& start, std::string& out) noexcept;

  // ---- bulk arrays of numbers (bulk.hpp has the details; src/reader/bulk.cpp) ----
  /// Reads the next item, an array of integers (or floats, for double) with
  /// any head or float width per element, or an RFC 8746 typed array (tags
  /// 64..87), into out[0, capacity); *count gets the element count. ok, end,
  /// invalid_state (no item here), type_mismatch when the item is no such
  /// array (nothing read), buffer_too_small with *count = the elements needed
  /// (nothing read; an indefinite array: sticky, at the first extra element),
  /// or a sticky type_mismatch / out_of_range at the first bad element's offset.
  status read_array(uint64_t* out, size_t capacity, size_t* count) noexcept;
  status read_array(int64_t* out, size_t capacity, size_t* count) noexcept;
  status read_array(double* out, size_t capacity, size_t* count) noexcept;
  /// The same into a vector (replacing its content; reserved once from the
  /// declared count, which the input bytes bound). out_of_memory if it cannot grow.
  status read_array(std::vector<uint64_t>& out) noexcept;
  status read_array(std::vector<int64_t>& out) noexcept;
  status read_array(std::vector<double>& out) noexcept;

  /// Final check of a sequence: ok when all input was consumed and no
  /// container is open; trailing_bytes (not sticky) with items left unread at
  /// the top level; invalid_state (not sticky) with a container open and
  /// input left, or with only the end items of definite arrays and maps whose
  /// items are all read left unread; truncated with the offset when an open container wants
  /// more bytes (streaming, before end_input(): need_more, not sticky, as
  /// next() gives; a finish() there used to end the stream for good), or
  /// the sticky error.
  status finish() noexcept;

  // ---- input in parts (reader_options::streaming; since 0.5) ----
  /// Continues on `data[0, size)`, which holds the stream's bytes from offset
  /// `first_offset` on: first_offset must be at most keep_from() and the
  /// buffer must reach at least offset() (else invalid_argument, nothing
  /// changes; not sticky). Offsets stay those of the stream. Any reader may
  /// be fed; only a streaming one waits for more instead of failing.
  status feed(const uint8_t* data, size_t size, size_t first_offset) noexcept;
  status feed(const void* data, size_t size, size_t first_offset) noexcept {
    return feed(static_cast<const uint8_t*>(data), size, first_offset);
  }
  /// After need_more: the fewest further bytes (past the buffer's end) the
  /// call needs; it may need more once they are there. 0 otherwise.
  size_t needed() const noexcept { return needed_; }
  /// The first stream offset a later buffer must still hold: offset(), or
  /// with duplicate-key or deterministic checks the start of the earliest map
  /// key still being read (keys already read are copied by the reader).
  size_t keep_from() const noexcept { return keys_ == nullptr ? offset() : keep_from_keys(); }
  /// No more input comes: streaming ends (the options keep the rest), so a
  /// partial item is truncated and the end of input at the top level is end.
  void end_input() noexcept;
  /// ok when the next complete item (what skip() would pass over) is in the
  /// buffer, or when an error inside it comes before the buffer's end (the
  /// call that reads the item then reports it, at its offset); else
  /// need_more, end, invalid_state, out_of_memory (the scan's own stack,
  /// sticky) or the sticky error. Without streaming: the sticky error or ok,
  /// at once. Nothing is consumed. What was scanned is kept, so calling it
  /// after each feed() costs one pass over the item in all.
  status item_ready() noexcept;

  /// Data items read since construction or reset() (every head counts, as
  /// for max_items, which limits those of each top-level item).
  uint64_t items() const noexcept { return items_before_ + options_.max_items - items_left_; }
  /// Offset of the next byte to read.
  size_t offset() const noexcept { return static_cast<size_t>(pos_ - begin_); }
  /// Current nesting depth (open containers, tags and indefinite strings).
  uint32_t depth() const noexcept;
  /// True when the input is exhausted at the top level.
  bool at_end() const noexcept { return pos_ == end_ && depth() == 0; }
  /// True when the next item is the end of the enclosing container or
  /// indefinite string (where skip() and visit() answer invalid_state: no
  /// item to pass over or print there). Consumes nothing; false after an
  /// error.
  bool at_container_end() noexcept;
  /// The sticky error (ok if none) with its offset and depth.
  const error_info& error() const noexcept { return error_; }
  const reader_options& options() const noexcept { return options_; }
  /// The whole input. In streaming mode: stream offsets [0, end of the
  /// buffer), of which only those from the buffer's first offset are readable.
  byte_view input() const noexcept { return {begin_, static_cast<size_t>(end_ - begin_)}; }

 private:
  /// One open container, tag or indefinite string. `left` counts the items
  /// still due; indefinite frames start at 2^63 and count down too, so one
  /// decrement and one zero test serve every kind (and the parity of `left`
  /// tells whether an indefinite map waits for a value).
  struct frame {
    uint64_t left;
    uint8_t kind;  // frame_kind in reader.cpp
    bool indefinite;
    /// A definite array or map: the levels whose end (at left 0) next()
    /// reports inline, in one byte test instead of two. Written with kind and
    /// indefinite (make(), or the inline steps' one 4-byte store of all three).
    bool definite_container;
    uint8_t spare;  ///< 0: the inline steps write the four bytes at once
    static frame make(uint64_t left, uint8_t kind, bool indefinite) noexcept {
      return frame{left, kind, indefinite,
                   !indefinite && (kind == detail::frame_array || kind == detail::frame_map), 0};
    }
  };
  /// The visit loop's state, as references to its locals.
  struct cursor {
    const uint8_t*& p;
    uint64_t& items_left;
    uint64_t& left;  ///< items due in the innermost level
    frame*& top;
    uint32_t& depth;
    uint32_t base;  ///< visit(): the depth the visited item starts at
    /// Before it, a head with its argument in the initial byte (a string of
    /// at most 23 bytes, a container of at most 23 entries) passes the limits
    /// and fits the input untested: 47 bytes are left, and max_string_length
    /// and max_container_items are at least 23.
    const uint8_t* short_end;
  };
  /// Stoppable (visit_items() mode only): v returns bool, true to stop
  /// right after that item, as if max_items had been reached there; then
  /// max_items is not counted (nor *delivered).
  template <bool WholeItem, class Visitor, bool Stoppable = false>
  CBOR_FAST_VISIT_FLATTEN status drive(Visitor& v, size_t max_items, size_t* delivered);
  /// One common head inline on the plain path (no error or strict checks,
  /// room in the innermost level, the item budget and the stack, nine bytes
  /// of input): delivers it to `v` and returns true. Else returns false with
  /// nothing read or changed, for next_general() to handle or report.
  /// NoCalls: also false where a step would call out (half and single floats
  /// that are not normal numbers, text to validate), and at plain_end_
  /// without moving it (the caller's fallback is next_general_moving()).
  template <bool NoCalls, class Visitor>
  CBOR_FAST_VISIT_INLINE bool take_plain(Visitor&& v) noexcept;
  /// next() for everything take_plain() declines (out of line).
  status next_general(item& out) noexcept;
  /// After an item the general path read: plain_end_ moves on where it is
  /// behind and more than 8 bytes are left (a slow stretch ended, the item
  /// budget was renewed). Within the last 8 bytes it could not move.
  void move_plain_end_on() noexcept {
    if (pos_ >= plain_end_ && size_t(end_ - pos_) > 8) note_plain_end();
  }
  /// next_general() moving plain_end_ on, for take_plain<true>'s callers
  /// (which decline at plain_end_ without moving it); the end of input at
  /// the top level without the call.
  inline status next_general_moving(item& out) noexcept;
  /// next() answers end here: all input read at the top level, with no
  /// sticky error, strict checks or streaming (slow_ has no bit).
  bool at_sequence_end() const noexcept {
    return pos_ == end_ && depth_ == 0 && slow_ == 0 && !options_.streaming;
  }
  friend struct detail::reader_access;  ///< the C shims' per-item path (reader-inl.hpp)
  template <class Visitor>
  status visit_one(Visitor& v, size_t* delivered);
  // Always inlined (the macro is reader-inl.hpp's): the visit loop is fast
  // only when each step's item type is a constant where the visitor sees it.
  // NoCalls (visit_plain): steps that would call out (half and single floats
  // that are not normal numbers, text to validate) return false instead.
  // `taken(c, it)` runs in each step once the item is taken, where its type and
  // head size are constants.
  template <bool WholeItem, bool NoCalls, class Taken>
  CBOR_FAST_VISIT_INLINE bool take_head(const cursor& c, item& it, Taken& taken) noexcept;
  template <bool WholeItem, bool NoCalls, class Form, class Taken>
  CBOR_FAST_VISIT_INLINE bool read_head(const cursor& c, item& it, Taken& taken) noexcept;
  status fail(status s, size_t offset) noexcept;
  /// The input ends `missing` bytes short of the item at `offset`: need_more
  /// when streaming (nothing changes but needed()), else a sticky truncated.
  status short_input(size_t offset, size_t missing) noexcept;
  size_t keep_from_keys() const noexcept;  ///< keep_from() with a key checker
  /// feed()'s rare half: the scout walking the item at `at` gets the new bytes.
  void feed_scout(const uint8_t* data, size_t size, size_t first_offset, size_t at) noexcept;
  /// item_ready()'s and fast_skip()'s scan in one pass over the next `count`
  /// definite-length items of the innermost level, changing nothing: their
  /// end, or nullptr (anything else, including a partial item).
  const uint8_t* fast_extent(uint64_t* items, uint64_t count) const noexcept;
  status push(uint8_t kind, bool indefinite, uint64_t left, size_t head_offset) noexcept;
  status next_special(item& out) noexcept;
  status head_special(item& out, const uint8_t* p, size_t off) noexcept;
  status read_item(item& out) noexcept;
  friend struct detail::reader_steps;    ///< read_item()'s per-initial-byte steps (reader.cpp)
  friend struct detail::bulk_reader;     ///< read_array() (bulk.cpp)
  friend struct detail::mapping_access;  ///< from_cbor()'s typed inline steps (mapping-inl.hpp)
  status push_definite(uint8_t kind, uint64_t left, size_t head_offset) noexcept;
  status check_utf8(const item& text) noexcept;
  status next_strict(item& out) noexcept;
  status check_preferred(const item& it) noexcept;
  status end_key(size_t end, bool raw_canonical) noexcept;
  void release_keys() noexcept;
  /// The destructor's rare half: a heap stack or key tables to free.
  void release_storage() noexcept;
  /// reset()'s rare half: key tables to clear, or null data with a size.
  void reset_rare(size_t size) noexcept;
  /// Takes other's frames (copied when they are its inline ones); other
  /// keeps, or gets back, its inline frames.
  void take_stack(reader& other) noexcept;
  bool fast_skip(uint64_t count = 1) noexcept;  // the next `count` items of the innermost level
  void pop_finished_tags() noexcept;
  void pop() noexcept {
    --depth_;
    top_ = depth_ != 0 ? top_ - 1 : &root_;
  }

  const uint8_t* begin_;
  const uint8_t* pos_;
  const uint8_t* end_;
  reader_options options_;
  uint32_t depth_ = 0;
  uint64_t items_left_ = 0;    ///< countdown of options_.max_items for this top-level item
  uint64_t items_before_ = 0;  ///< items of the budgets spent before (for items())
  /// At the top level: the next top-level item gets the whole max_items
  /// budget, `taken` of its heads being read already. Called lazily, on the
  /// slow paths (see reader.cpp: renewing the budget).
  void renew_budget(uint64_t taken) noexcept {
    items_before_ += options_.max_items - items_left_ - taken;
    items_left_ = options_.max_items - taken;
  }
  uint64_t joined_left_ = 0;  ///< bytes the open indefinite string may still add
  /// The open indefinite string (strings do not nest, so there is at most
  /// one): its start item's offset, and whether next() (or any reading but
  /// read_joined()'s own) has taken one of its chunks, after which
  /// read_joined() on it is invalid_state (it would leave that chunk out).
  size_t joined_start_ = 0;
  bool chunk_taken_ = false;
  size_t item_start_ = 0;  ///< offset of the current top-level item
  error_info error_;
  frame root_;           ///< the top level: never completes, never pops
  frame* top_ = &root_;  ///< innermost open frame (root_ at the top level)
  /// Frames held in the reader itself: no allocation until nesting passes
  /// this depth (small documents), and the stack is on the heap beyond.
  static constexpr uint32_t k_inline_frames = 8;
  frame* stack_ = inline_frames_;  ///< open frames [0, depth_); grown on demand, never recursion
  uint32_t capacity_ = k_inline_frames;  ///< frames in stack_
  /// min(capacity_, options_.max_depth) - 1: a definite level opens on the
  /// fast paths (push_definite(), the inline steps) where depth - 1 is below
  /// it, one compare that also refuses depth 0 (the top level, which wraps).
  uint32_t push_limit_ = 0;
  void note_push_limit() noexcept {
    push_limit_ = (capacity_ < options_.max_depth ? capacity_ : options_.max_depth) - 1u;
  }
  bool strict_ = false;  ///< duplicate-key or deterministic checks are on
  /// Why next() cannot take its inline path (slow_* bits in reader.cpp): a
  /// sticky error, strict checks, or an open indefinite string. One test for all.
  uint8_t slow_ = 0;
  detail::key_checker* keys_ = nullptr;  ///< their map bookkeeping, made on first use
  size_t needed_ = 0;                    ///< after need_more: bytes still missing
  /// item_ready()'s scan of a partial item, kept across feed(): a reader of
  /// its own (made on first use), valid while scout_origin_ is offset().
  reader* scout_ = nullptr;
  size_t scout_origin_ = SIZE_MAX;
  void release_scout() noexcept;
  frame inline_frames_[k_inline_frames];  ///< stack_ until it grows
  /// take_plain() reads a head only at pos_ < plain_end_: then slow_ is 0,
  /// nine bytes are left and the item budget is not spent. Set by
  /// note_plain_end(), or to begin_ whenever slow_ gains a bit. It stays
  /// true as items are read: each takes a byte and at most one of the budget.
  const uint8_t* plain_end_ = nullptr;
  /// take_plain()'s cursor::short_end (drive() sets its own), with
  /// plain_end_: a position at least 47 bytes before end_, so it stays true
  /// as items are read until end_ or the limits change (feed(), reset(),
  /// set_options() note the bounds again); pos_ when none. Derived from
  /// plain_end_'s distance: from end_ directly, GCC spilled the hash of
  /// realistic_visit()'s loop (twitter walk_visit +8 % instructions).
  const uint8_t* short_end_ = nullptr;
  void note_plain_end() noexcept {
    const size_t room = size_t(end_ - pos_);
    size_t n = room > 8 ? room - 8 : 0;
    if (items_left_ < n) n = size_t(items_left_);
    plain_end_ = slow_ != 0 ? begin_ : pos_ + n;
    short_end_ = n > 39 && options_.max_string_length >= 23 && options_.max_container_items >= 23
                     ? pos_ + (n - 39)
                     : pos_;
  }
};

}  // namespace v1
}  // namespace cbor_fast

#include "cbor_fast/reader-inl.hpp"

#endif  // CBOR_FAST_READER_HPP
