// Internal to the C API shims: what the opaque handles of cbor_fast.h hold,
// and the helpers every capi/src/*.cpp file shares. Never installed.
//
// Every handle is allocated through the hooks it was created with (placement
// new into memory from allocator::malloc) and keeps a copy of those hooks, so
// the caller's cbor_fast_allocator struct is only read at creation.
#ifndef CBOR_FAST_CAPI_HANDLES_HPP
#define CBOR_FAST_CAPI_HANDLES_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <utility>

#include "cbor_fast.h"
#include "cbor_fast/allocator.hpp"
#include "cbor_fast/error.hpp"
#include "cbor_fast/reader.hpp"
#include "cbor_fast/writer.hpp"
#include "internal/compiler.hpp"

// cbor_fast::detail, outside v1: the one internal namespace of the project
// (src/internal and document.hpp use it too; a v1::detail beside it would make
// `cbor_fast::detail` ambiguous).
namespace cbor_fast {
namespace detail {

/// The C status for a C++ one (same numbers: static_asserts in common.cpp).
constexpr cbor_fast_status to_c(status s) noexcept { return static_cast<cbor_fast_status>(s); }

/// The hooks behind a C allocator pointer into *out; NULL means the C
/// library's heap. False (and *out untouched) when a hook is NULL: the library
/// would call through address 0, so the caller gets INVALID_ARGUMENT instead.
/// The struct is copied: the caller's may go away after the call.
inline bool to_allocator(const cbor_fast_allocator* a, allocator* out) noexcept {
  if (a == nullptr) {
    *out = default_allocator();
    return true;
  }
  if (a->malloc == nullptr || a->realloc == nullptr || a->free == nullptr) return false;
  *out = allocator{a->malloc, a->realloc, a->free, a->context};
  return true;
}

/// The number a C caller passed for an enum parameter or field. C lets any
/// int through, and loading a C++ enum lvalue outside its enumerators' range
/// is undefined (UBSan: "load of value 16"), so shims compare this instead.
template <class E>
inline int enum_value(const E& e) noexcept {
  static_assert(sizeof(E) == sizeof(int), "C enums are int-sized");
  int v;
  std::memcpy(&v, &e, sizeof v);
  return v;
}

/// True for the four cbor_fast_float_width enumerators.
inline bool float_width_ok(const cbor_fast_float_width& w) noexcept {
  const int v = enum_value(w);
  return v == CBOR_FAST_FLOAT_SHORTEST || v == CBOR_FAST_FLOAT_HALF ||
         v == CBOR_FAST_FLOAT_SINGLE || v == CBOR_FAST_FLOAT_DOUBLE;
}

// ---- struct_size: one rule for every struct passed by pointer ---------------
//
// 0 stands for the 0.1 layout. Otherwise the size must be at least the oldest
// layout and at most sizeof + k_struct_margin (a struct from a newer header
// with up to eight appended 64-bit fields); 0x10000 or 0xffffffff is no
// version's struct and is refused before anything is read or written.

/// Room past sizeof for fields a newer header appends.
constexpr size_t k_struct_margin = 64;

/// True when a caller's struct_size lies within [oldest, current + margin].
constexpr bool struct_size_in_bounds(uint32_t size, size_t oldest, size_t current) noexcept {
  return size == 0 || (size >= oldest && size <= current + k_struct_margin);
}

/// An input struct from a newer, longer header (size above `known`, the bytes
/// this version reads): true when every byte past `known` is 0. A field this
/// version does not know, set, is one it cannot honour.
inline bool input_tail_zero(const void* s, size_t known, uint32_t size) noexcept {
  const auto* bytes = static_cast<const unsigned char*>(s);
  for (size_t i = known; i < size; ++i)
    if (bytes[i] != 0) return false;
  return true;
}

/// cbor_fast_item: 0.1 is the whole struct. The size is also the element
/// stride of cbor_reader_next_batch(), so it must keep every element aligned.
/// It is checked on every cbor_reader_next(), so in one compare: rotating
/// size - sizeof right by 3 keeps a multiple of 8 small and makes any other
/// value (and any size below sizeof, which wraps) huge.
constexpr bool item_size_ok(uint32_t size) noexcept {
  static_assert(sizeof(cbor_fast_item) % 8 == 0 && alignof(cbor_fast_item) <= 8, "item stride");
  const uint32_t d = size - uint32_t(sizeof(cbor_fast_item));
  const uint32_t steps = (d >> 3) | (d << 29);  // rotate right by 3
  return size == 0 || steps <= k_struct_margin / 8;
}

/// cbor_fast_error: 0.1 is the whole struct (an output: a longer struct's tail
/// is left untouched).
constexpr bool error_size_ok(uint32_t size) noexcept {
  return struct_size_in_bounds(size, sizeof(cbor_fast_error), sizeof(cbor_fast_error));
}
/// Same for an optional error pointer (NULL is fine).
inline bool error_ok(const cbor_fast_error* e) noexcept {
  return e == nullptr || error_size_ok(e->struct_size);
}

// ---- the one guard of the C shims -------------------------------------------
//
// Every shim that calls into code which may throw runs its body through
// guard(): std::bad_alloc becomes CBOR_FAST_ERR_OUT_OF_MEMORY, anything else
// CBOR_FAST_ERR_INTERNAL, so no exception crosses the C boundary. The body is
// a lambda returning cbor_fast_status; it inlines, so the guard costs nothing
// on the path that does not throw.

template <class F>
inline cbor_fast_status guard(F&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return CBOR_FAST_ERR_OUT_OF_MEMORY;
  } catch (...) {
    return CBOR_FAST_ERR_INTERNAL;
  }
}

void fill_error(cbor_fast_error* out, status code) noexcept;

/// guard() for calls with an error out-parameter: an exception's status is
/// also written to *error (NULL allowed).
template <class F>
inline cbor_fast_status guard(cbor_fast_error* error, F&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    fill_error(error, status::out_of_memory);
    return CBOR_FAST_ERR_OUT_OF_MEMORY;
  } catch (...) {
    fill_error(error, status::internal_error);
    return CBOR_FAST_ERR_INTERNAL;
  }
}

/// Allocates sizeof(T) through `a` and constructs T(a, args...) there (T keeps
/// the hooks in a member `alloc`, which delete_handle() needs). nullptr when
/// the hook fails; if the constructor throws, the memory goes back first.
template <class T, class... Args>
T* new_handle(const allocator& a, Args&&... args) {
  void* p = a.malloc(a.context, sizeof(T));
  if (p == nullptr) return nullptr;
  try {
    return ::new (p) T(a, std::forward<Args>(args)...);
  } catch (...) {
    a.free(a.context, p, sizeof(T));
    throw;
  }
}

/// Destroys a handle made by new_handle(); T has an `alloc` member with its hooks.
template <class T>
void delete_handle(T* h) noexcept {
  const allocator a = h->alloc;  // the hooks live inside *h: copy them out first
  h->~T();
  a.free(a.context, h, sizeof(T));
}

/// Fills *out (NULL allowed) from a C++ error. Each field is written only if
/// it lies within out->struct_size (0 means the 0.1 layout, i.e. all of them);
/// struct_size itself is never written. message is a static, non-NULL string.
void fill_error(cbor_fast_error* out, const error_info& info) noexcept;
/// Same for a failure that has no position (offset, item_offset, depth 0).
void fill_error(cbor_fast_error* out, status code) noexcept;

}  // namespace detail
}  // namespace cbor_fast

/// cbor_reader: the C++ reader plus the buffer cbor_reader_join() fills for
/// indefinite-length strings (its contents stay valid until the next join,
/// reset or free). The join buffer uses operator new: the C API promises the
/// hooks for the handle and the nesting stack only.
namespace cbor_fast {
namespace detail {
/// True where cbor_fast_item is eight little-endian 64-bit words, each field
/// pair of 32-bit fields sharing one (LP64 and LLP64 little-endian targets):
/// item_to_c<true>() (cbor_reader_next_batch()) then writes the element as
/// eight word stores instead of eleven field stores: 13-17 % less time per
/// corpus walk (2026-12-05). cbor_reader_next() keeps the field stores, where
/// the compiler merges the step's constants and which measured as fast (the
/// words were 0-7 % slower there, with fewer instructions).
constexpr bool k_item_words =
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    sizeof(cbor_fast_item) == 64 && sizeof(cbor_fast_type) == 4 &&
    offsetof(cbor_fast_item, type) == 4 && offsetof(cbor_fast_item, flags) == 8 &&
    offsetof(cbor_fast_item, depth) == 12 && offsetof(cbor_fast_item, offset) == 16 &&
    offsetof(cbor_fast_item, head_size) == 24 && offsetof(cbor_fast_item, float_width) == 28 &&
    offsetof(cbor_fast_item, value) == 32 && offsetof(cbor_fast_item, float_value) == 40 &&
    offsetof(cbor_fast_item, data) == 48 && offsetof(cbor_fast_item, size) == 56;
#else
    false;
#endif

/// The C item from a C++ one (every field: the 0.1 layout is the whole struct).
/// With struct_size, the element also gets that struct_size (the batch's
/// elements); without, struct_size is left as the caller set it.
///
/// Each select tests the type only (cmov, not a chain of branches): the reader
/// leaves item::u null (all bits zero) unless the item is a float (u.dbl) or a
/// definite string (u.data), and gives an indefinite string start arg 0, so
/// float_value and data are u's bits or zero, and size is arg or zero.
template <bool WithSize = false>
CBOR_FAST_ALWAYS_INLINE inline void item_to_c(const cbor_fast::item& it, cbor_fast_item* item,
                                              uint32_t struct_size = 0) noexcept {
  const auto type = static_cast<uint8_t>(it.type);
  const bool floating = it.type == cbor_fast::item_type::floating;
  const bool string = uint8_t(type - uint8_t(cbor_fast::item_type::byte_string)) < 2;
  uint64_t u;
  std::memcpy(&u, &it.u, sizeof u);
  const uint64_t float_bits = floating ? u : 0;
  const uint64_t data = floating ? 0 : u;
  const uint64_t size = string ? it.arg : 0;
  if constexpr (WithSize && k_item_words) {
    auto* out = reinterpret_cast<unsigned char*>(item);
    auto put = [out](size_t at, uint64_t w) noexcept { std::memcpy(out + at, &w, sizeof w); };
    put(0, uint64_t(struct_size) | uint64_t(type) << 32);
    put(8, uint64_t(it.flags) | uint64_t(it.depth) << 32);
    put(16, it.offset);
    put(24, uint64_t(it.head_size) | uint64_t(it.width) << 32);
    put(32, it.arg);
    put(40, float_bits);
    put(48, data);
    put(56, size);
  } else {
    if constexpr (WithSize) item->struct_size = struct_size;
    item->type = static_cast<cbor_fast_type>(type);
    item->flags = it.flags;
    item->depth = it.depth;
    item->offset = it.offset;
    item->head_size = it.head_size;
    item->float_width = it.width;
    item->value = it.arg;
    std::memcpy(&item->float_value, &float_bits, sizeof float_bits);
    item->data = reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(data));
    item->size = static_cast<size_t>(size);
  }
}

/// The C++ item a C item came from (for cbor_reader_join, cbor_stream_join).
inline cbor_fast::item item_from_c(const cbor_fast_item& in) noexcept {
  cbor_fast::item out;
  out.type = static_cast<cbor_fast::item_type>(in.type);
  out.flags = static_cast<uint8_t>(in.flags);
  out.head_size = static_cast<uint8_t>(in.head_size);
  out.depth = in.depth;
  out.offset = in.offset;
  out.arg = in.value;
  out.u.data = in.data;
  return out;
}

/// One cbor_fast_option into reader options (cbor_reader_set, cbor_stream_set).
cbor_fast_status apply_option(reader_options& o, int option, uint64_t value) noexcept;
/// cbor_reader_configure() and cbor_stream_configure(): the reader options
/// equal to cbor_decode()'s for these flags and options (document.cpp), with
/// the streaming switch of `current`. CBOR_FAST_ERR_INVALID_ARGUMENT for what
/// the functions' documentation refuses; *out is then untouched. max_memory
/// null: an options->max_memory other than 0 and UINT64_MAX (no budget) is
/// refused (a reader holds no memory per item); else it receives
/// options->max_memory (0 when not covered).
cbor_fast_status configured_options(uint32_t flags, const cbor_fast_decode_options* options,
                                    const reader_options& current, reader_options* out,
                                    uint64_t* max_memory = nullptr) noexcept;
}  // namespace detail
}  // namespace cbor_fast

struct cbor_reader {
  cbor_fast::allocator alloc;  ///< hooks for this handle and the reader's stack
  cbor_fast::reader reader;
  std::string joined;
  /// The last cbor_reader_join() returned CBOR_FAST_NEED_MORE: the next one
  /// appends to `joined` (streaming input) if it is for the same string
  /// (the one at join_offset; another string starts afresh).
  bool join_partial = false;
  size_t join_offset = 0;

  cbor_reader(const cbor_fast::allocator& a, const void* data, size_t size) noexcept
      : alloc(a), reader(data, size, options(&alloc)) {}

 private:
  static cbor_fast::reader_options options(const cbor_fast::allocator* a) noexcept {
    cbor_fast::reader_options o;
    o.alloc = a;
    return o;
  }
};

/// cbor_writer: the C++ writer plus how it was made, so cbor_writer_reset()
/// can rebuild it on the same destination.
struct cbor_writer {
  enum class kind : uint8_t { owned, buffer, sink };

  cbor_fast::allocator alloc;  ///< hooks for this handle, the buffers and the stack
  kind mode;
  uint8_t* buffer = nullptr;  ///< kind::buffer: the caller's storage
  size_t capacity = 0;        ///< kind::buffer: its size; kind::sink: the chunk size
  cbor_fast_sink_fn sink = nullptr;
  void* sink_context = nullptr;
  cbor_fast::writer writer;

  /// Growable buffer owned by the writer.
  explicit cbor_writer(const cbor_fast::allocator& a) noexcept
      : alloc(a), mode(kind::owned), writer(&alloc) {}
  /// The caller's buffer[0, cap).
  cbor_writer(const cbor_fast::allocator& a, void* buf, size_t cap) noexcept
      : alloc(a),
        mode(kind::buffer),
        buffer(static_cast<uint8_t*>(buf)),
        capacity(cap),
        writer(buffer, cap, &alloc) {}
  /// A sink fed in chunks of chunk bytes.
  cbor_writer(const cbor_fast::allocator& a, cbor_fast_sink_fn fn, void* ctx, size_t chunk) noexcept
      : alloc(a),
        mode(kind::sink),
        capacity(chunk),
        sink(fn),
        sink_context(ctx),
        writer(fn, ctx, chunk, &alloc) {}

  /// A fresh writer on the same destination (the sink kind allocates its
  /// staging buffer again: out_of_memory shows in writer.error()).
  void rebuild() noexcept {
    switch (mode) {
      case kind::owned: writer = cbor_fast::writer(&alloc); break;
      case kind::buffer: writer = cbor_fast::writer(buffer, capacity, &alloc); break;
      case kind::sink: writer = cbor_fast::writer(sink, sink_context, capacity, &alloc); break;
    }
  }
};

#endif  // CBOR_FAST_CAPI_HANDLES_HPP
