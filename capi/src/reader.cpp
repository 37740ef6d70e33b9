// C API: cbor_reader_* shims over cbor_fast::reader.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>

#include "cbor_fast.h"
#include "handles.hpp"
#include "internal/compiler.hpp"

using cbor_fast::detail::error_ok;
using cbor_fast::detail::fill_error;
using cbor_fast::detail::guard;
using cbor_fast::detail::item_from_c;
using cbor_fast::detail::item_to_c;
using cbor_fast::detail::to_c;

namespace {

constexpr uint32_t k_item_size = sizeof(cbor_fast_item);

/// A cbor_fast_item the caller may pass: struct_size 0 (the 0.1 layout) or
/// from 0.1's size to sizeof + the margin, a multiple of the alignment (the
/// rule of handles.hpp). Only 0.1 exists yet, so every accepted struct holds
/// every field; when one is appended, shorter callers get a field-wise copy.
inline bool item_size_ok(const cbor_fast_item* item) noexcept {
  return cbor_fast::detail::item_size_ok(item->struct_size);
}

/// True for a BYTES or TEXT item. The type is read as an integer: a caller's
/// item may hold any number there, and loading an enum lvalue outside the
/// enumerators' range is undefined in C++.
bool is_string(const cbor_fast_item& item) noexcept {
  const int t = cbor_fast::detail::enum_value(item.type);
  return t == CBOR_FAST_TYPE_BYTES || t == CBOR_FAST_TYPE_TEXT;
}

}  // namespace

cbor_fast_status cbor_reader_new(const void* data, size_t size, const cbor_fast_allocator* alloc,
                                 cbor_reader** out) {
  if (out == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  *out = nullptr;
  cbor_fast::allocator a;
  if ((data == nullptr && size != 0) || !cbor_fast::detail::to_allocator(alloc, &a))
    return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return guard([&] {
    cbor_reader* r = cbor_fast::detail::new_handle<cbor_reader>(a, data, size);
    if (r == nullptr) return CBOR_FAST_ERR_OUT_OF_MEMORY;
    *out = r;
    return CBOR_FAST_OK;
  });
}

void cbor_reader_free(cbor_reader* reader) {
  if (reader != nullptr) cbor_fast::detail::delete_handle(reader);
}

cbor_fast_status cbor_reader_reset(cbor_reader* reader, const void* data, size_t size) {
  if (reader == nullptr || (data == nullptr && size != 0)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return guard([&] {
    reader->reader.reset(static_cast<const uint8_t*>(data), size);
    reader->joined.clear();  // keeps its capacity, like the reader keeps its stack
    reader->join_partial = false;
    return CBOR_FAST_OK;
  });
}

namespace cbor_fast {
namespace detail {
cbor_fast_status apply_option(reader_options& o, int option, uint64_t value) noexcept {
  // 0 in a limit is its default: reader::set_options() resolves it (see
  // cbor_fast_option in cbor_fast.h).
  switch (option) {
    case CBOR_FAST_OPT_MAX_DEPTH:
      if (value > UINT32_MAX) return CBOR_FAST_ERR_INVALID_ARGUMENT;
      o.max_depth = static_cast<uint32_t>(value);
      break;
    case CBOR_FAST_OPT_MAX_STRING_LENGTH: o.max_string_length = value; break;
    case CBOR_FAST_OPT_MAX_CONTAINER_ITEMS: o.max_container_items = value; break;
    case CBOR_FAST_OPT_MAX_ITEMS: o.max_items = value; break;
    case CBOR_FAST_OPT_VALIDATE_UTF8:
    case CBOR_FAST_OPT_REJECT_DUPLICATE_KEYS:
    case CBOR_FAST_OPT_DETERMINISTIC:
    case CBOR_FAST_OPT_STREAMING: {
      if (value > 1) return CBOR_FAST_ERR_INVALID_ARGUMENT;
      const bool on = value != 0;
      if (option == CBOR_FAST_OPT_VALIDATE_UTF8) o.validate_utf8 = on;
      if (option == CBOR_FAST_OPT_REJECT_DUPLICATE_KEYS) o.reject_duplicate_keys = on;
      if (option == CBOR_FAST_OPT_DETERMINISTIC) o.deterministic = on;
      if (option == CBOR_FAST_OPT_STREAMING) o.streaming = on;
      break;
    }
    default: return CBOR_FAST_ERR_INVALID_ARGUMENT;
  }
  return CBOR_FAST_OK;
}
}  // namespace detail
}  // namespace cbor_fast

cbor_fast_status cbor_reader_set(cbor_reader* reader, cbor_fast_option option, uint64_t value) {
  if (reader == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  // A C caller may pass any number: read it as an integer, since loading an
  // enum lvalue outside the enumerators' range is undefined in C++.
  const int opt = cbor_fast::detail::enum_value(option);
  return guard([&] {
    cbor_fast::reader_options o = reader->reader.options();
    const cbor_fast_status s = cbor_fast::detail::apply_option(o, opt, value);
    return s != CBOR_FAST_OK ? s : to_c(reader->reader.set_options(o));
  });
}

cbor_fast_status cbor_reader_configure(cbor_reader* reader, uint32_t flags,
                                       const cbor_fast_decode_options* options) {
  if (reader == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return guard([&] {
    cbor_fast::reader_options o;
    const cbor_fast_status s =
        cbor_fast::detail::configured_options(flags, options, reader->reader.options(), &o);
    return s != CBOR_FAST_OK ? s : to_c(reader->reader.set_options(o));
  });
}

namespace {
/// A visitor that fills one C item, always inlined (into each step of the
/// reader's plain path, where the item's type and head size are constants).
struct c_item_out {
  cbor_fast_item* item;
  CBOR_FAST_ALWAYS_INLINE void operator()(const cbor_fast::item& it) const noexcept {
    item_to_c(it, item);
  }
};

/// cbor_reader_next() for every item the plain path declines: next()'s
/// general part, out of line so the common path saves no registers and sets
/// up no frame.
CBOR_FAST_NOINLINE cbor_fast_status next_general(cbor_reader* reader, cbor_fast_item* item) {
  cbor_fast::item it;
  const cbor_fast::status s = cbor_fast::detail::reader_access::next_general(reader->reader, it);
  if (s != cbor_fast::status::ok) return to_c(s);
  item_to_c(it, item);
  return CBOR_FAST_OK;
}
}  // namespace

cbor_fast_status cbor_reader_next(cbor_reader* reader, cbor_fast_item* item) {
  if (reader == nullptr || item == nullptr || !item_size_ok(item))
    return CBOR_FAST_ERR_INVALID_ARGUMENT;
  // The hot path: the reader's inline step for one item, converting straight
  // into the C struct (the visitor inlines, so no C++ item is stored and
  // reloaded), and a tail call for the rest. *item is only written on
  // success, so a failed call leaves the caller's last item intact.
  if (cbor_fast::detail::reader_access::visit_plain(reader->reader, c_item_out{item}))
    return CBOR_FAST_OK;
  // A small document's last call: no call out.
  if (cbor_fast::detail::reader_access::at_sequence_end(reader->reader)) return CBOR_FAST_END;
  return next_general(reader, item);
}

namespace {
/// cbor_reader_next_batch()'s visitor: one element per item, each a whole
/// cbor_fast_item of this library's size (struct_size = sizeof). visit_items()
/// calls it inside each step of its dispatch (detail::delivers_in_step), where
/// the item's type and head size are constants, so each step stores what it
/// knows; called once after the dispatch, the fields of every step met in the
/// same registers and spilled (12-15 % more instructions per corpus byte,
/// about 1.12x the time). The size and stride are constants: with the
/// caller's size in a register (and its stride in another), the batch took
/// 3-5 % more instructions on the corpus (2026-12-07); callers with another
/// struct_size go through a copy (batch_other_size()).
struct batch_out {
  static constexpr bool deliver_in_step = true;
  cbor_fast_item* out;
  CBOR_FAST_ALWAYS_INLINE void operator()(const cbor_fast::item& it) noexcept {
    item_to_c<true>(it, out, k_item_size);
    ++out;
  }
};
// Losing the trait would not break the batch, only slow it down silently.
static_assert(cbor_fast::detail::delivers_in_step<batch_out>::value,
              "cbor_reader_next_batch() fills each element inside the reader's steps");

/// The batch for a caller whose struct_size is 0 (the 0.1 layout) or larger
/// than this library's struct (a later header): up to 64 items at a time into
/// whole elements on the stack, each then copied to the caller's stride with
/// the caller's struct_size (the bytes past this library's struct are left as
/// they were). Returns visit_items()'s status for the last part; *n counts
/// every element written.
cbor_fast::status batch_other_size(cbor_fast::reader& r, unsigned char* out, size_t stride,
                                   uint32_t struct_size, size_t capacity, size_t* n) noexcept {
  constexpr size_t k_part = 64;
  cbor_fast_item part[k_part];
  *n = 0;
  for (;;) {
    const size_t want = capacity - *n < k_part ? capacity - *n : k_part;
    batch_out v{part};
    size_t got = 0;
    const cbor_fast::status s = r.visit_items(v, want, &got);
    for (size_t i = 0; i < got; ++i) {
      part[i].struct_size = struct_size;
      std::memcpy(out + (*n + i) * stride, &part[i], k_item_size);
    }
    *n += got;
    // ok means all `want` came (visit_items() stops early only with another status).
    if (s != cbor_fast::status::ok || *n == capacity) return s;
  }
}
}  // namespace

cbor_fast_status cbor_reader_next_batch(cbor_reader* reader, cbor_fast_item* items, size_t capacity,
                                        size_t* count) {
  if (count != nullptr) *count = 0;
  if (reader == nullptr || items == nullptr || count == nullptr || capacity == 0 ||
      !item_size_ok(items))
    return CBOR_FAST_ERR_INVALID_ARGUMENT;
  // The caller's element size; never smaller than the struct this library
  // fills (item_size_ok), so each element is written within its own bytes.
  // Each element is then a complete item on its own (for cbor_reader_join).
  const uint32_t struct_size = items->struct_size;
  size_t n = 0;
  cbor_fast::status s;
  if (struct_size == k_item_size) {
    batch_out v{items};
    s = reader->reader.visit_items(v, capacity, &n);
  } else {
    const size_t stride = struct_size == 0 ? k_item_size : struct_size;
    s = batch_other_size(reader->reader, reinterpret_cast<unsigned char*>(items), stride,
                         struct_size, capacity, &n);
  }
  *count = n;
  // Items before an end or an error are delivered first; the reader's
  // error is sticky and the end repeats, so the next call reports them.
  if (n != 0) return CBOR_FAST_OK;
  return to_c(s);
}

cbor_fast_status cbor_reader_skip(cbor_reader* reader) {
  if (reader == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return guard([&] { return to_c(reader->reader.skip()); });
}

cbor_fast_status cbor_reader_skip_to_end(cbor_reader* reader) {
  if (reader == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return guard([&] { return to_c(reader->reader.skip_to_end()); });
}

cbor_fast_status cbor_reader_join(cbor_reader* reader, const cbor_fast_item* item,
                                  const uint8_t** data, size_t* size) {
  if (reader == nullptr || item == nullptr || data == nullptr || size == nullptr ||
      !item_size_ok(item))
    return CBOR_FAST_ERR_INVALID_ARGUMENT;
  *data = nullptr;
  *size = 0;
  return guard([&] {
    const cbor_fast::status sticky = reader->reader.error().code;
    if (sticky != cbor_fast::status::ok) return to_c(sticky);
    if (!is_string(*item)) return CBOR_FAST_ERR_INVALID_STATE;
    if ((item->flags & CBOR_FAST_ITEM_INDEFINITE) == 0) {
      // A definite string is already contiguous in the input: no copy.
      *data = item->data;
      *size = item->size;
      return CBOR_FAST_OK;
    }
    // After need_more the chunks so far are kept and this call goes on.
    if (!reader->join_partial || reader->join_offset != item->offset) reader->joined.clear();
    const cbor_fast::status s = reader->reader.read_joined(item_from_c(*item), reader->joined);
    reader->join_partial = s == cbor_fast::status::need_more;
    reader->join_offset = item->offset;
    if (s != cbor_fast::status::ok) return to_c(s);
    *data = reinterpret_cast<const uint8_t*>(reader->joined.data());
    *size = reader->joined.size();
    return CBOR_FAST_OK;
  });
}

cbor_fast_status cbor_reader_finish(cbor_reader* reader) {
  if (reader == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return guard([&] { return to_c(reader->reader.finish()); });
}

cbor_fast_status cbor_reader_feed(cbor_reader* reader, const void* data, size_t size,
                                  size_t first_offset) {
  if (reader == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return guard([&] { return to_c(reader->reader.feed(data, size, first_offset)); });
}

cbor_fast_status cbor_reader_item_ready(cbor_reader* reader) {
  if (reader == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return guard([&] { return to_c(reader->reader.item_ready()); });
}

size_t cbor_reader_needed(const cbor_reader* reader) {
  return reader != nullptr ? reader->reader.needed() : 0;
}

size_t cbor_reader_keep_from(const cbor_reader* reader) {
  return reader != nullptr ? reader->reader.keep_from() : 0;
}

size_t cbor_reader_offset(const cbor_reader* reader) {
  return reader != nullptr ? reader->reader.offset() : 0;
}

uint32_t cbor_reader_depth(const cbor_reader* reader) {
  return reader != nullptr ? reader->reader.depth() : 0;
}

cbor_fast_status cbor_reader_error(const cbor_reader* reader, cbor_fast_error* error) {
  // A struct_size no version has: refused, nothing written.
  if (!error_ok(error)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  if (reader == nullptr) {
    fill_error(error, cbor_fast::status::invalid_argument);
    return CBOR_FAST_ERR_INVALID_ARGUMENT;
  }
  const cbor_fast::error_info& info = reader->reader.error();
  fill_error(error, info);
  return to_c(info.code);
}

namespace {
/// The callbacks of cbor_reader_visit(), copied from the caller's struct
/// (those past its struct_size stay NULL), and the caller's context.
struct c_visitor {
  cbor_fast_visit_callbacks cb;
  void* context;

  /// An item whose own callback is NULL: on_item with the C struct, out of
  /// line (the visitor inlines into every step of the reader's loop). The
  /// item comes in registers (type, flags, head size and width packed in one
  /// word, mostly constants at each step): taking its address would make
  /// every step store it.
  CBOR_FAST_NOINLINE bool fallback(uint32_t packed, uint32_t depth, size_t offset, uint64_t arg,
                                   uint64_t u) const noexcept {
    cbor_fast::item it;
    it.type = static_cast<cbor_fast::item_type>(packed & 0xff);
    it.flags = static_cast<uint8_t>(packed >> 8);
    it.head_size = static_cast<uint8_t>(packed >> 16);
    it.width = static_cast<uint8_t>(packed >> 24);
    it.depth = depth;
    it.offset = offset;
    it.arg = arg;
    std::memcpy(&it.u, &u, sizeof u);
    cbor_fast_item c;
    c.struct_size = k_item_size;
    item_to_c(it, &c);
    return cb.on_item(context, &c) != 0;
  }

  /// True to stop. Inlined into each step, where it.type is a constant, so
  /// only one case remains: a load, a test and the call.
  CBOR_FAST_ALWAYS_INLINE bool operator()(const cbor_fast::item& it) const noexcept {
    using cbor_fast::item_type;
    switch (it.type) {
      case item_type::unsigned_int:
        if (cb.on_uint != nullptr) return cb.on_uint(context, it.arg) != 0;
        break;
      case item_type::negative_int:
        if (cb.on_negative != nullptr) return cb.on_negative(context, it.arg) != 0;
        break;
      case item_type::byte_string:
        if (cb.on_bytes != nullptr)
          return cb.on_bytes(context, it.u.data, size_t(it.arg), it.flags) != 0;
        break;
      case item_type::text_string:
        if (cb.on_text != nullptr)
          return cb.on_text(context, it.u.data, size_t(it.arg), it.flags) != 0;
        break;
      case item_type::array:
        if (cb.on_array != nullptr) return cb.on_array(context, it.arg, it.flags) != 0;
        break;
      case item_type::map:
        if (cb.on_map != nullptr) return cb.on_map(context, it.arg, it.flags) != 0;
        break;
      case item_type::end:
        if (cb.on_end != nullptr) return cb.on_end(context, it.flags) != 0;
        break;
      case item_type::tag:
        if (cb.on_tag != nullptr) return cb.on_tag(context, it.arg) != 0;
        break;
      case item_type::simple:
        if (cb.on_simple != nullptr) return cb.on_simple(context, uint32_t(it.arg)) != 0;
        break;
      case item_type::boolean:
        if (cb.on_bool != nullptr) return cb.on_bool(context, it.arg == 21 ? 1 : 0) != 0;
        break;
      case item_type::null:
        if (cb.on_null != nullptr) return cb.on_null(context) != 0;
        break;
      case item_type::undefined:
        if (cb.on_undefined != nullptr) return cb.on_undefined(context) != 0;
        break;
      case item_type::floating:
        if (cb.on_float != nullptr) return cb.on_float(context, it.u.dbl, it.arg, it.width) != 0;
        break;
      default: break;
    }
    if (cb.on_item == nullptr) return false;
    uint64_t u;
    std::memcpy(&u, &it.u, sizeof u);
    const uint32_t packed = uint32_t(it.type) | uint32_t(it.flags) << 8 |
                            uint32_t(it.head_size) << 16 | uint32_t(it.width) << 24;
    return fallback(packed, it.depth, it.offset, it.arg, u);
  }
};

/// The oldest layout of cbor_fast_visit_callbacks: struct_size alone.
constexpr size_t k_callbacks_oldest = offsetof(cbor_fast_visit_callbacks, on_item);
constexpr size_t k_callback_size = sizeof(cbor_fast_visit_callbacks::on_item);
static_assert(sizeof(cbor_fast_visit_callbacks) == k_callbacks_oldest + 14 * k_callback_size,
              "cbor_fast_visit_callbacks: struct_size, then function pointers only");

/// The bytes of the caller's struct this version reads, or 0 when the rule
/// of cbor_fast.h refuses its struct_size: 0 (this layout), a size that ends
/// right after a callback, or a newer, longer struct (up to the margin of
/// handles.hpp) whose callbacks past this version's are all NULL (a callback
/// this library does not know would be silently skipped).
size_t callbacks_size(const cbor_fast_visit_callbacks* cb) noexcept {
  const uint32_t size = cb->struct_size;
  constexpr size_t current = sizeof(cbor_fast_visit_callbacks);
  if (size == 0) return current;
  if (!cbor_fast::detail::struct_size_in_bounds(size, k_callbacks_oldest, current)) return 0;
  if ((size - k_callbacks_oldest) % k_callback_size != 0) return 0;
  if (size > current) {
    const auto* tail = reinterpret_cast<const unsigned char*>(cb) + current;
    for (size_t i = 0; i < size - current; ++i)
      if (tail[i] != 0) return 0;
    return current;
  }
  return size;
}
}  // namespace

cbor_fast_status cbor_reader_visit(cbor_reader* reader, const cbor_fast_visit_callbacks* callbacks,
                                   void* context) {
  if (reader == nullptr || callbacks == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  const size_t known = callbacks_size(callbacks);
  if (known == 0) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  // The callbacks the caller's layout holds; the rest stay NULL. Copied once,
  // so the loop reads them from its own frame.
  c_visitor v{};
  std::memcpy(&v.cb, callbacks, known);
  v.context = context;
  const cbor_fast::status s = cbor_fast::detail::reader_access::visit_until(reader->reader, v);
  return to_c(s);
}
