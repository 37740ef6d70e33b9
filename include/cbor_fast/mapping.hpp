// libcbor_fast: C++ structs to and from CBOR, declared once, no code generator.
//
//   struct point { int32_t x; int32_t y; std::optional<std::string> label; };
//   CBOR_FAST_FIELDS(point, x, y, label)        // {"x": .., "y": .., "label": ..}
//
//   std::vector<uint8_t> bytes = cbor_fast::to_cbor(p);
//   point q;
//   cbor_fast::status s = cbor_fast::from_cbor(bytes.data(), bytes.size(), q);
//
// Three layouts, each a macro used once at namespace scope, in the namespace
// of the type (the functions it defines are found by argument-dependent lookup):
//  - CBOR_FAST_FIELDS(Type, member, ...): a map keyed by the member names;
//  - CBOR_FAST_FIELDS_KEYS(Type, (1, member), (-2, member), ...): a map with
//    integer keys (COSE / CWT style);
//  - CBOR_FAST_FIELDS_ARRAY(Type, member, ...): an array, members in order.
// Up to 64 members; the members must be accessible where the macro is used.
//
// Member types: bool; every integer type (range-checked on decode:
// out_of_range); float, double (an integer item, or a double into a float,
// only when the float holds it exactly: else out_of_range; NaN payloads, signalling
// ones included, are kept bit for bit both ways); enums (as their
// underlying integer);
// std::string, std::string_view and cbor_fast::byte_view (both borrowed from
// the input: the input must outlive them); std::vector<uint8_t> (a byte
// string); std::vector<T> (std::vector<bool> too); std::array<T, N> (exactly N elements);
// std::optional<T> (omitted from maps when empty, null in arrays; missing or
// null decodes as empty); std::map / std::unordered_map with any mapped key
// type (a NaN key into a floating-point key type is out_of_range);
// std::variant (the first alternative that takes the item: by its major
// type, and in major type 7 bool only false/true and a float only a float,
// an integer type only a value in its range; when no alternative holds it,
// the first that takes its major type reports why); mapped structs; and any
// type with a hook (below).
// std::vector<uint64_t>, <int64_t> and <double> decode through
// reader::read_array(), so they also accept RFC 8746 typed arrays.
//
// Decoding rules: unknown map keys are skipped (mapping_options::
// reject_unknown_keys makes them type_mismatch at the key); a missing member
// that is not optional is type_mismatch at the map's (array's) head with the
// member in the path; a key seen twice is duplicate_key at the second; an
// item of the wrong type is type_mismatch at its head; the reader's limits and
// strict checks apply with their own statuses. mapping_error adds the member
// path ("items[3].name", map entries as `counts["k"]` / `counts[7]`).
//
// Zero copies and, for borrowed strings, zero allocations: from_cbor() keeps
// the reader's nesting stack in a 1 KiB buffer on the C++ stack, strings land
// in string_view/byte_view members, and each vector reserves once from its
// declared count (which the reader has bounded by the bytes left: a length
// bomb is refused before anything is allocated), the vectors being filled
// reserving at most 16 bytes of memory per byte of input left, plus 64 KiB,
// between them (elements past that grow the vector as they come). What the
// elements then take is their type's: a vector of 520-byte structs, each
// from a 1-byte empty array, took 1.62 GB for 1 MB of input in a probe.
// Decoding recurses only over
// the type's static structure: input nested deeper than the type is a
// type_mismatch, never a deeper call (a recursive type, e.g. a tree node
// holding a std::vector of itself, recurses per level up to
// reader_options::max_depth). A recursive type's vector or map level also
// needs 64 KiB of the thread's stack left, on Linux, else depth_exceeded at
// its head: a raised max_depth or a small thread stops there instead of
// overflowing the stack; to_cbor() checks the same at each vector or map
// from 16 levels of nesting on (a value has no other depth bound) and returns
// depth_exceeded. A recursion only through hooks or adapters is the hook's.
//
// Speed: each member's head is read by the reader's own inline step for the
// item type the member accepts (one compare of the initial byte instead of
// next()'s dispatch over all of them), and a map's keys are first matched in
// declaration order against each member's key in its shortest encoding, so
// a struct written in order costs no search by name. Everything else (another
// type, a longer head, indefinite lengths, tags, strict checks, limits, the
// last 8 bytes of input) goes through reader::next(): values, statuses,
// offsets and paths are the same whichever path read an item.
//
// Hooks for other types, found by ADL in the type's namespace:
//   cbor_fast::status cbor_fast_encode(cbor_fast::writer& w, const T& v);
//   cbor_fast::status cbor_fast_decode(cbor_fast::reader& r, T& v);
// (encode writes exactly one item and goes on past buffer_too_small, as the
// writer keeps counting; decode reads exactly one item, and a failure's
// offset is the reader's sticky error offset, or the item's start). Or specialise cbor_fast::adapter<T>
// with the same two functions as static members (types in other namespaces).
#ifndef CBOR_FAST_MAPPING_HPP
#define CBOR_FAST_MAPPING_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "cbor_fast/detail/mapping_macros.hpp"
#include "cbor_fast/error.hpp"
#include "cbor_fast/item.hpp"
#include "cbor_fast/reader.hpp"
#include "cbor_fast/writer.hpp"

namespace cbor_fast {
inline namespace v1 {

/// How from_cbor() decodes.
struct mapping_options {
  /// Limits and strict checks for the (data, size) overloads; the reader
  /// overloads use the reader's own options. reader.alloc is where the
  /// nesting stack goes once it outgrows from_cbor()'s 1 KiB buffer (64 levels).
  reader_options reader = {};
  /// A map key that names no member, or an array element past the last
  /// member: type_mismatch at its offset instead of being skipped.
  bool reject_unknown_keys = false;
  /// (data, size) overloads: allow bytes after the item (else trailing_bytes
  /// at the first of them).
  bool allow_trailing_bytes = false;
};

/// An error_info plus the path of the member that failed, as written in C++
/// ("items[3].name"; map entries `counts["k"]`, `counts[7]`; empty for the
/// item itself).
struct mapping_error : error_info {
  std::string path;
};

/// For types outside your namespace: specialise with
///   static status encode(writer&, const T&);
///   static status decode(reader&, T&);
template <class T, class Enable = void>
struct adapter;

/// Writes `value` to w. Returns ok or the writer's error (buffer_too_small
/// for a full caller buffer, after counting the whole item).
template <class T>
status to_cbor(const T& value, writer& w);
/// The encoding of `value` (preferred serialization), in one allocation
/// (items over 512 bytes are encoded twice: once to count, once to fill);
/// empty only if encoding failed: a hook's error, or a value nested deeper
/// than the writer's depth limit (depth_exceeded); a valid encoding is never
/// empty, and to_cbor(value, w) gives the status. Throws std::bad_alloc.
template <class T>
std::vector<uint8_t> to_cbor(const T& value);

/// Decodes exactly one item of data[0, size) into `out`. Returns ok; end
/// (size 0: no item); type_mismatch, out_of_range, duplicate_key (see the
/// rules above); trailing_bytes; the reader's errors (not well-formed,
/// limits, strict checks); out_of_memory. On failure *err (optional) says
/// where and `out` holds what was decoded before the failure.
template <class T>
status from_cbor(const uint8_t* data, size_t size, T& out, error_info* err = nullptr);
template <class T>
status from_cbor(const uint8_t* data, size_t size, T& out, const mapping_options& options,
                 error_info* err = nullptr);
/// The same, with the member path.
template <class T>
status from_cbor(const uint8_t* data, size_t size, T& out, mapping_error& err,
                 const mapping_options& options = {});
/// Decodes the next item of `r` into `out` (end when the reader has none left).
/// A failure makes no reader error sticky unless the reader itself failed.
/// A streaming reader gives need_more until the whole item is in (see
/// reader::item_ready()).
template <class T>
status from_cbor(reader& r, T& out, error_info* err = nullptr, const mapping_options& options = {});
template <class T>
status from_cbor(reader& r, T& out, mapping_error& err, const mapping_options& options = {});

}  // namespace v1
}  // namespace cbor_fast

/// A map keyed by member names: CBOR_FAST_FIELDS(Type, a, b, c).
#define CBOR_FAST_FIELDS(Type, ...)                                                  \
  inline constexpr auto cbor_fast_fields(const Type*) noexcept {                     \
    return ::cbor_fast::detail::make_fields<::cbor_fast::detail::layout_names>(      \
        CBOR_FAST_DETAIL_FOR_EACH(CBOR_FAST_DETAIL_NAMED_FIELD, Type, __VA_ARGS__)); \
  }
/// A map with integer keys: CBOR_FAST_FIELDS_KEYS(Type, (1, a), (-2, b)).
#define CBOR_FAST_FIELDS_KEYS(Type, ...)                                             \
  inline constexpr auto cbor_fast_fields(const Type*) noexcept {                     \
    return ::cbor_fast::detail::make_fields<::cbor_fast::detail::layout_keys>(       \
        CBOR_FAST_DETAIL_FOR_EACH(CBOR_FAST_DETAIL_KEYED_FIELD, Type, __VA_ARGS__)); \
  }
/// An array, members in order: CBOR_FAST_FIELDS_ARRAY(Type, a, b, c).
#define CBOR_FAST_FIELDS_ARRAY(Type, ...)                                            \
  inline constexpr auto cbor_fast_fields(const Type*) noexcept {                     \
    return ::cbor_fast::detail::make_fields<::cbor_fast::detail::layout_array>(      \
        CBOR_FAST_DETAIL_FOR_EACH(CBOR_FAST_DETAIL_NAMED_FIELD, Type, __VA_ARGS__)); \
  }

#define CBOR_FAST_DETAIL_NAMED_FIELD(Type, m) \
  ::cbor_fast::detail::make_field(#m, sizeof(#m) - 1, 0, &Type::m)
#define CBOR_FAST_DETAIL_KEYED_FIELD(Type, pair) \
  CBOR_FAST_DETAIL_KEYED_FIELD_(Type, CBOR_FAST_DETAIL_EXPAND pair)
#define CBOR_FAST_DETAIL_KEYED_FIELD_(Type, ...) CBOR_FAST_DETAIL_KEYED_FIELD__(Type, __VA_ARGS__)
#define CBOR_FAST_DETAIL_KEYED_FIELD__(Type, key, m) \
  ::cbor_fast::detail::make_field(#m, sizeof(#m) - 1, key, &Type::m)

#include "cbor_fast/mapping-inl.hpp"

#endif  // CBOR_FAST_MAPPING_HPP
