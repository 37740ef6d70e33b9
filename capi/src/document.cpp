// C API: cbor_decode / cbor_doc_* / cbor_node_* / cbor_encode / cbor_mdoc_* /
// cbor_mnode_* / cbor_seq_* shims over the C++ document layer.
//
// cbor_node and cbor_mnode are never defined: a `const cbor_node*` is a
// reinterpret_cast of the C++ detail::doc_node pointer and is only ever cast
// back, and likewise cbor_mnode for mutable_node. The handles cbor_doc,
// cbor_mdoc and cbor_seq hold a copy of the allocator hooks and the C++ object
// (see handles.hpp for new_handle/delete_handle).
#include <cstddef>
#include <cstdint>
#include <new>

#include "cbor_fast.h"
#include "cbor_fast/document.hpp"
#include "handles.hpp"

#include "document_handles.hpp"  // cbor_doc, cbor_mdoc

struct cbor_seq {
  cbor_fast::allocator alloc;
  cbor_fast::sequence seq;
  cbor_seq(const cbor_fast::allocator& a, const void* data, size_t size,
           const cbor_fast::decode_options& options) noexcept
      : alloc(a), seq(data, size, options, &alloc) {}
};

using cbor_fast::detail::delete_handle;
using cbor_fast::detail::error_ok;
using cbor_fast::detail::fill_error;
using cbor_fast::detail::guard;
using cbor_fast::detail::new_handle;
using cbor_fast::detail::to_allocator;
using cbor_fast::detail::to_c;

namespace {

using cbor_fast::item_type;
using cbor_fast::mutable_node;
using cbor_fast::node;
using cbor_fast::status;

static_assert(CBOR_FAST_DECODE_EXACT == cbor_fast::decode_exact &&
                  CBOR_FAST_DECODE_COPY_STRINGS == cbor_fast::decode_copy_strings &&
                  CBOR_FAST_DECODE_VALIDATE_UTF8 == cbor_fast::decode_validate_utf8 &&
                  CBOR_FAST_DECODE_REJECT_DUPLICATE_KEYS ==
                      cbor_fast::decode_reject_duplicate_keys &&
                  CBOR_FAST_DECODE_DETERMINISTIC == cbor_fast::decode_deterministic,
              "decode flags must agree");
constexpr uint32_t k_decode_flags =
    CBOR_FAST_DECODE_EXACT | CBOR_FAST_DECODE_COPY_STRINGS | CBOR_FAST_DECODE_VALIDATE_UTF8 |
    CBOR_FAST_DECODE_REJECT_DUPLICATE_KEYS | CBOR_FAST_DECODE_DETERMINISTIC |
    CBOR_FAST_DECODE_SKIP_SELF_DESCRIBED;
static_assert(CBOR_FAST_ENCODE_PREFERRED == cbor_fast::encode_preferred, "encode flags");
constexpr uint32_t k_encode_flags = CBOR_FAST_ENCODE_PREFERRED | CBOR_FAST_ENCODE_CANONICAL |
                                    CBOR_FAST_ENCODE_LENGTH_FIRST | CBOR_FAST_ENCODE_CTAP2;

inline node N(const cbor_node* n) noexcept {
  return node(reinterpret_cast<const cbor_fast::detail::doc_node*>(n));
}
inline const cbor_node* C(node n) noexcept { return reinterpret_cast<const cbor_node*>(n.raw()); }
inline mutable_node* M(cbor_mnode* n) noexcept { return reinterpret_cast<mutable_node*>(n); }
inline const mutable_node* M(const cbor_mnode* n) noexcept {
  return reinterpret_cast<const mutable_node*>(n);
}
inline cbor_mnode* C(mutable_node* n) noexcept { return reinterpret_cast<cbor_mnode*>(n); }

/// The 0.1 layout of cbor_fast_decode_options, what struct_size == 0 stands for.
constexpr size_t k_decode_options_size_0_1 =
    offsetof(cbor_fast_decode_options, alloc) + sizeof(const cbor_fast_allocator*);

/// True when a caller's struct of `size` bytes holds the field at [offset, offset + n).
constexpr bool covers(size_t size, size_t offset, size_t n) noexcept { return offset + n <= size; }

/// The caller's cbor_fast_decode_options, read once for cbor_decode() and
/// cbor_seq_new(): the decode options, the allocator hooks (copied), and
/// whether the struct could be read at all.
struct c_options {
  cbor_fast::decode_options decode;
  cbor_fast::allocator alloc;
  /// max_items as given (0 when not covered): a reader counts in 64 bits,
  /// where decode.max_nodes is clamped to a document's 32-bit limit.
  uint64_t max_items = 0;
  uint64_t max_memory = 0;  ///< max_memory as given (0 when not covered)
};

/// Reads *o into *out (the one translation of the C options: decode.cpp's
/// resolve_limits() and reader_options_for() do the rest for documents,
/// sequences and their readers). 0 in a limit field means its default. A struct_size is
/// accepted when it is 0 (the 0.1 layout), ends exactly after a field (so no
/// limit is half covered and silently dropped: 3 or 20 are refused), or is a
/// newer, longer struct (up to the margin of handles.hpp) whose bytes past
/// this version's fields are all zero; a non-zero byte there is an option
/// this library does not know, and ignoring it could drop a limit the caller
/// asked for. False for a refused struct or NULL allocator hooks.
bool read_options(const cbor_fast_decode_options* o, c_options* out) noexcept {
  const cbor_fast_allocator* alloc = nullptr;
  if (o != nullptr) {
    const size_t size = o->struct_size == 0 ? k_decode_options_size_0_1 : o->struct_size;
    if (!cbor_fast::detail::struct_size_in_bounds(o->struct_size, k_decode_options_size_0_1,
                                                  sizeof(cbor_fast_decode_options)))
      return false;
    // The sizes that end a field: the 0.1 layout, then one per appended field.
    constexpr size_t k_ends[] = {
        k_decode_options_size_0_1,
        offsetof(cbor_fast_decode_options, max_container_items),
        offsetof(cbor_fast_decode_options, max_items),
        offsetof(cbor_fast_decode_options, max_memory),
        sizeof(cbor_fast_decode_options),
    };
    bool on_field_end = size >= sizeof(cbor_fast_decode_options);
    for (const size_t end : k_ends) on_field_end = on_field_end || size == end;
    if (!on_field_end) return false;
    if (size > sizeof(cbor_fast_decode_options)) {
      const auto* tail =
          reinterpret_cast<const unsigned char*>(o) + sizeof(cbor_fast_decode_options);
      for (size_t i = 0; i < size - sizeof(cbor_fast_decode_options); ++i)
        if (tail[i] != 0) return false;
    }
#define CBOR_FAST_HAS(field) \
  covers(size, offsetof(cbor_fast_decode_options, field), sizeof(o->field))
    if (CBOR_FAST_HAS(max_depth)) out->decode.max_depth = o->max_depth;
    if (CBOR_FAST_HAS(alloc)) alloc = o->alloc;
    // 0 means the default on both sides (cbor_fast::resolve of decode.cpp
    // turns it into the limit), the largest value no limit.
    if (CBOR_FAST_HAS(max_string_length)) out->decode.max_string_length = o->max_string_length;
    if (CBOR_FAST_HAS(max_container_items))
      out->decode.max_container_items = o->max_container_items;
    if (CBOR_FAST_HAS(max_items)) {
      out->decode.max_nodes = o->max_items < UINT32_MAX ? uint32_t(o->max_items) : UINT32_MAX;
      out->max_items = o->max_items;
    }
    if (CBOR_FAST_HAS(max_memory)) {
      out->decode.max_memory = o->max_memory < SIZE_MAX ? size_t(o->max_memory) : SIZE_MAX;
      out->max_memory = o->max_memory;
    }
#undef CBOR_FAST_HAS
  }
  return to_allocator(alloc, &out->alloc);
}

}  // namespace

cbor_fast_status cbor_fast::detail::configured_options(uint32_t flags,
                                                       const cbor_fast_decode_options* options,
                                                       const reader_options& current,
                                                       reader_options* out,
                                                       uint64_t* max_memory) noexcept {
  // Flags that concern documents only, and a memory budget where there is no
  // document (a reader holds no memory per item), would be silently without
  // effect: refused instead. UINT64_MAX is no budget (a limit lifted, as the
  // README says to lift one), which a reader keeps: accepted.
  constexpr uint32_t k_reader_flags = CBOR_FAST_DECODE_VALIDATE_UTF8 |
                                      CBOR_FAST_DECODE_REJECT_DUPLICATE_KEYS |
                                      CBOR_FAST_DECODE_DETERMINISTIC;
  c_options o;
  if ((flags & ~k_reader_flags) != 0 || !read_options(options, &o) ||
      (o.max_memory != 0 && o.max_memory != UINT64_MAX && max_memory == nullptr))
    return CBOR_FAST_ERR_INVALID_ARGUMENT;
  if (max_memory != nullptr) *max_memory = o.max_memory;
  o.decode.flags = flags;
  reader_options ro = cbor_fast::reader_options_for(o.decode, current.alloc);
  // A reader counts items in 64 bits: the limit as given (0 is the default,
  // which reader::set_options() resolves).
  ro.max_items = o.max_items;
  ro.streaming = current.streaming;
  *out = ro;
  return CBOR_FAST_OK;
}

namespace {

template <class T>
inline cbor_fast_status get_scalar(const cbor_node* n, T* out,
                                   status (node::*getter)(T&) const noexcept) noexcept {
  if (n == nullptr || out == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return to_c((N(n).*getter)(*out));
}

template <class T>
inline cbor_fast_status mget_scalar(const cbor_mnode* n, T* out,
                                    status (mutable_node::*getter)(T&) const noexcept) noexcept {
  if (n == nullptr || out == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return to_c((M(n)->*getter)(*out));
}

}  // namespace

// ========================================================================== //
// Immutable documents                                                        //
// ========================================================================== //

cbor_fast_status cbor_decode(const void* data, size_t size, uint32_t flags,
                             const cbor_fast_decode_options* options, cbor_doc** out,
                             cbor_fast_error* error) {
  // A struct_size no version has: refused, nothing written.
  if (!error_ok(error)) {
    if (out != nullptr) *out = nullptr;
    return CBOR_FAST_ERR_INVALID_ARGUMENT;
  }
  if (out == nullptr) {
    fill_error(error, status::invalid_argument);
    return CBOR_FAST_ERR_INVALID_ARGUMENT;
  }
  *out = nullptr;
  // Checked before allocating, so a bad call never reaches the hooks.
  c_options o;
  if ((data == nullptr && size != 0) || (flags & ~k_decode_flags) != 0 ||
      !read_options(options, &o)) {
    fill_error(error, status::invalid_argument);
    return CBOR_FAST_ERR_INVALID_ARGUMENT;
  }
  return guard(error, [&] {
    cbor_fast::decode_options d = o.decode;
    d.flags = flags;
    cbor_doc* doc = new_handle<cbor_doc>(o.alloc);
    if (doc == nullptr) {
      fill_error(error, status::out_of_memory);
      return CBOR_FAST_ERR_OUT_OF_MEMORY;
    }
    cbor_fast::error_info info;
    const status s = cbor_fast::decode(data, size, doc->doc, d, &info);
    fill_error(error, info);
    if (s != status::ok) {
      delete_handle(doc);
      return to_c(s);
    }
    *out = doc;
    return CBOR_FAST_OK;
  });
}

void cbor_doc_free(cbor_doc* doc) {
  if (doc != nullptr) delete_handle(doc);
}

const cbor_node* cbor_doc_root(const cbor_doc* doc) {
  return doc != nullptr ? C(doc->doc.root()) : nullptr;
}

size_t cbor_doc_encoded_size(const cbor_doc* doc) {
  return doc != nullptr ? doc->doc.encoded_size() : 0;
}

size_t cbor_doc_node_count(const cbor_doc* doc) {
  return doc != nullptr ? doc->doc.node_count() : 0;
}

cbor_fast_status cbor_encode(const cbor_doc* doc, uint32_t flags, cbor_writer* writer) {
  if (doc == nullptr || writer == nullptr || (flags & ~k_encode_flags) != 0)
    return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return guard([&] { return to_c(cbor_fast::encode(doc->doc, writer->writer, flags)); });
}

// ---- node navigation: pure lookups, nothing can throw ---------------------------

cbor_fast_type cbor_node_type(const cbor_node* n) {
  return static_cast<cbor_fast_type>(N(n).type());
}

int cbor_node_is_indefinite(const cbor_node* n) { return N(n).is_indefinite() ? 1 : 0; }

size_t cbor_node_offset(const cbor_node* n) { return N(n).offset(); }

cbor_fast_status cbor_node_get_uint64(const cbor_node* n, uint64_t* out) {
  return get_scalar(n, out, &node::get_uint64);
}

cbor_fast_status cbor_node_get_int64(const cbor_node* n, int64_t* out) {
  return get_scalar(n, out, &node::get_int64);
}

cbor_fast_status cbor_node_get_int_raw(const cbor_node* n, uint64_t* raw, int* negative) {
  if (n == nullptr || raw == nullptr || negative == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  uint64_t r;
  bool neg;
  const status s = N(n).get_int_raw(r, neg);
  if (s == status::ok) {
    *raw = r;
    *negative = neg ? 1 : 0;
  }
  return to_c(s);
}

cbor_fast_status cbor_node_get_bignum(const cbor_node* n, uint64_t* raw, const uint8_t** magnitude,
                                      size_t* size, int* negative) {
  if (n == nullptr || raw == nullptr || magnitude == nullptr || size == nullptr ||
      negative == nullptr)
    return CBOR_FAST_ERR_INVALID_ARGUMENT;
  uint64_t r;
  cbor_fast::byte_view m;
  bool neg;
  const status s = N(n).get_bignum(r, m, neg);
  if (s == status::ok) {
    *raw = r;
    *magnitude = m.data;
    *size = m.size;
    *negative = neg ? 1 : 0;
  }
  return to_c(s);
}

cbor_fast_status cbor_node_get_double(const cbor_node* n, double* out) {
  return get_scalar(n, out, &node::get_double);
}

uint32_t cbor_node_float_width(const cbor_node* n) { return uint32_t(N(n).width()); }

cbor_fast_status cbor_node_get_bool(const cbor_node* n, int* out) {
  if (n == nullptr || out == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  bool b;
  const status s = N(n).get_bool(b);
  if (s == status::ok) *out = b ? 1 : 0;
  return to_c(s);
}

cbor_fast_status cbor_node_get_simple(const cbor_node* n, uint8_t* out) {
  return get_scalar(n, out, &node::get_simple);
}

cbor_fast_status cbor_node_get_bytes(const cbor_node* n, const uint8_t** data, size_t* size) {
  if (n == nullptr || data == nullptr || size == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  cbor_fast::byte_view v;
  const status s = N(n).get_bytes(v);
  if (s == status::ok) {
    *data = v.data;
    *size = v.size;
  }
  return to_c(s);
}

cbor_fast_status cbor_node_get_text(const cbor_node* n, const char** data, size_t* size) {
  if (n == nullptr || data == nullptr || size == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  std::string_view v;
  const status s = N(n).get_text(v);
  if (s == status::ok) {
    *data = v.data();
    *size = v.size();
  }
  return to_c(s);
}

cbor_fast_status cbor_node_get_tag(const cbor_node* n, uint64_t* out) {
  return get_scalar(n, out, &node::get_tag);
}

const cbor_node* cbor_node_tag_content(const cbor_node* n) { return C(N(n).tag_content()); }

size_t cbor_node_size(const cbor_node* n) { return N(n).size(); }

const cbor_node* cbor_node_array_get(const cbor_node* n, size_t index) { return C(N(n).at(index)); }

const cbor_node* cbor_node_map_key(const cbor_node* n, size_t index) {
  return C(N(n).map_key(index));
}

const cbor_node* cbor_node_map_value(const cbor_node* n, size_t index) {
  return C(N(n).map_value(index));
}

const cbor_node* cbor_node_map_find(const cbor_node* n, const char* key, size_t key_size) {
  if (key == nullptr && key_size != 0) return nullptr;
  return C(N(n).find(std::string_view(key != nullptr ? key : "", key_size)));
}

const cbor_node* cbor_node_map_find_int(const cbor_node* n, int64_t key) {
  return C(N(n).find_int(key));
}

const cbor_node* cbor_node_child(const cbor_node* n) { return C(N(n).first_child()); }

const cbor_node* cbor_node_next(const cbor_node* n) { return C(N(n).next_sibling()); }

// ========================================================================== //
// Mutable documents                                                          //
// ========================================================================== //

cbor_fast_status cbor_mdoc_new(const cbor_fast_allocator* alloc, cbor_mdoc** out) {
  if (out == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  *out = nullptr;
  cbor_fast::allocator a;
  if (!to_allocator(alloc, &a)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return guard([&] {
    cbor_mdoc* doc = new_handle<cbor_mdoc>(a);
    if (doc == nullptr) return CBOR_FAST_ERR_OUT_OF_MEMORY;
    *out = doc;
    return CBOR_FAST_OK;
  });
}

void cbor_mdoc_free(cbor_mdoc* doc) {
  if (doc != nullptr) delete_handle(doc);
}

cbor_fast_status cbor_doc_to_mdoc(const cbor_doc* doc, const cbor_fast_allocator* alloc,
                                  cbor_mdoc** out) {
  if (out == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  *out = nullptr;
  cbor_fast::allocator a;
  if (doc == nullptr || !to_allocator(alloc, &a)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return guard([&] {
    cbor_mdoc* m = new_handle<cbor_mdoc>(a);
    if (m == nullptr) return CBOR_FAST_ERR_OUT_OF_MEMORY;
    const status s = cbor_fast::to_mutable(doc->doc, m->doc);
    if (s != status::ok) {
      delete_handle(m);
      return to_c(s);
    }
    *out = m;
    return CBOR_FAST_OK;
  });
}

cbor_mnode* cbor_mdoc_root(const cbor_mdoc* doc) {
  return doc != nullptr ? C(doc->doc.root()) : nullptr;
}

cbor_fast_status cbor_mdoc_set_root(cbor_mdoc* doc, cbor_mnode* n) {
  if (doc == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return to_c(doc->doc.set_root(M(n)));
}

// Constructors: nullptr for a NULL document; the C++ side handles the rest
// (invalid arguments and out of memory give nullptr there too).

cbor_mnode* cbor_mdoc_uint(cbor_mdoc* doc, uint64_t value) {
  return doc != nullptr ? C(doc->doc.make_uint(value)) : nullptr;
}

cbor_mnode* cbor_mdoc_int(cbor_mdoc* doc, int64_t value) {
  return doc != nullptr ? C(doc->doc.make_int(value)) : nullptr;
}

cbor_mnode* cbor_mdoc_negative(cbor_mdoc* doc, uint64_t n) {
  return doc != nullptr ? C(doc->doc.make_negative(n)) : nullptr;
}

cbor_mnode* cbor_mdoc_bignum(cbor_mdoc* doc, const uint8_t* magnitude, size_t size, int negative) {
  return doc != nullptr ? C(doc->doc.make_bignum(magnitude, size, negative != 0)) : nullptr;
}

cbor_mnode* cbor_mdoc_float(cbor_mdoc* doc, double value, cbor_fast_float_width width) {
  if (doc == nullptr) return nullptr;
  // Only the four enumerators are valid; anything else must not reach the cast.
  if (!cbor_fast::detail::float_width_ok(width)) return nullptr;
  return C(doc->doc.make_float(value, static_cast<cbor_fast::float_width>(width)));
}

cbor_mnode* cbor_mdoc_bool(cbor_mdoc* doc, int value) {
  return doc != nullptr ? C(doc->doc.make_bool(value != 0)) : nullptr;
}

cbor_mnode* cbor_mdoc_null(cbor_mdoc* doc) {
  return doc != nullptr ? C(doc->doc.make_null()) : nullptr;
}

cbor_mnode* cbor_mdoc_undefined(cbor_mdoc* doc) {
  return doc != nullptr ? C(doc->doc.make_undefined()) : nullptr;
}

cbor_mnode* cbor_mdoc_simple(cbor_mdoc* doc, uint8_t value) {
  return doc != nullptr ? C(doc->doc.make_simple(value)) : nullptr;
}

cbor_mnode* cbor_mdoc_bytes(cbor_mdoc* doc, const void* data, size_t size) {
  return doc != nullptr ? C(doc->doc.make_bytes(data, size)) : nullptr;
}

cbor_mnode* cbor_mdoc_text(cbor_mdoc* doc, const char* data, size_t size) {
  if (doc == nullptr || (data == nullptr && size != 0)) return nullptr;
  return C(doc->doc.make_text(std::string_view(data != nullptr ? data : "", size)));
}

cbor_mnode* cbor_mdoc_array(cbor_mdoc* doc) {
  return doc != nullptr ? C(doc->doc.make_array()) : nullptr;
}

cbor_mnode* cbor_mdoc_map(cbor_mdoc* doc) {
  return doc != nullptr ? C(doc->doc.make_map()) : nullptr;
}

cbor_mnode* cbor_mdoc_tag(cbor_mdoc* doc, uint64_t tag, cbor_mnode* content) {
  return doc != nullptr ? C(doc->doc.make_tag(tag, M(content))) : nullptr;
}

// ---- building ----------------------------------------------------------------------

cbor_fast_status cbor_mnode_append(cbor_mnode* array, cbor_mnode* item) {
  if (array == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return to_c(M(array)->append(M(item)));
}

cbor_fast_status cbor_mnode_array_set(cbor_mnode* array, size_t index, cbor_mnode* item) {
  if (array == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return to_c(M(array)->array_set(index, M(item)));
}

cbor_fast_status cbor_mnode_map_put(cbor_mnode* map, cbor_mnode* key, cbor_mnode* value) {
  if (map == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return to_c(M(map)->map_put(M(key), M(value)));
}

cbor_fast_status cbor_mnode_map_set(cbor_mnode* map, const char* key, size_t key_size,
                                    cbor_mnode* value) {
  if (map == nullptr || (key == nullptr && key_size != 0)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return to_c(M(map)->map_set(std::string_view(key != nullptr ? key : "", key_size), M(value)));
}

cbor_fast_status cbor_mnode_set_indefinite(cbor_mnode* n, int indefinite) {
  if (n == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return to_c(M(n)->set_indefinite(indefinite != 0));
}

// ---- reading mutable nodes ---------------------------------------------------------

cbor_fast_type cbor_mnode_type(const cbor_mnode* n) {
  return n != nullptr ? static_cast<cbor_fast_type>(M(n)->type()) : CBOR_FAST_TYPE_NONE;
}

cbor_fast_status cbor_mnode_get_uint64(const cbor_mnode* n, uint64_t* out) {
  return mget_scalar(n, out, &mutable_node::get_uint64);
}

cbor_fast_status cbor_mnode_get_int64(const cbor_mnode* n, int64_t* out) {
  return mget_scalar(n, out, &mutable_node::get_int64);
}

cbor_fast_status cbor_mnode_get_double(const cbor_mnode* n, double* out) {
  return mget_scalar(n, out, &mutable_node::get_double);
}

cbor_fast_status cbor_mnode_get_bool(const cbor_mnode* n, int* out) {
  if (n == nullptr || out == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  bool b;
  const status s = M(n)->get_bool(b);
  if (s == status::ok) *out = b ? 1 : 0;
  return to_c(s);
}

cbor_fast_status cbor_mnode_get_bytes(const cbor_mnode* n, const uint8_t** data, size_t* size) {
  if (n == nullptr || data == nullptr || size == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  cbor_fast::byte_view v;
  const status s = M(n)->get_bytes(v);
  if (s == status::ok) {
    *data = v.data;
    *size = v.size;
  }
  return to_c(s);
}

cbor_fast_status cbor_mnode_get_text(const cbor_mnode* n, const char** data, size_t* size) {
  if (n == nullptr || data == nullptr || size == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  std::string_view v;
  const status s = M(n)->get_text(v);
  if (s == status::ok) {
    *data = v.data();
    *size = v.size();
  }
  return to_c(s);
}

cbor_fast_status cbor_mnode_get_tag(const cbor_mnode* n, uint64_t* out) {
  return mget_scalar(n, out, &mutable_node::get_tag);
}

cbor_mnode* cbor_mnode_tag_content(const cbor_mnode* n) {
  return n != nullptr ? C(M(n)->tag_content()) : nullptr;
}

size_t cbor_mnode_size(const cbor_mnode* n) { return n != nullptr ? M(n)->size() : 0; }

cbor_mnode* cbor_mnode_array_get(const cbor_mnode* n, size_t index) {
  return n != nullptr ? C(M(n)->at(index)) : nullptr;
}

cbor_mnode* cbor_mnode_map_key(const cbor_mnode* n, size_t index) {
  return n != nullptr ? C(M(n)->map_key(index)) : nullptr;
}

cbor_mnode* cbor_mnode_map_value(const cbor_mnode* n, size_t index) {
  return n != nullptr ? C(M(n)->map_value(index)) : nullptr;
}

cbor_mnode* cbor_mnode_map_find(const cbor_mnode* n, const char* key, size_t key_size) {
  if (n == nullptr || (key == nullptr && key_size != 0)) return nullptr;
  return C(M(n)->find(std::string_view(key != nullptr ? key : "", key_size)));
}

cbor_fast_status cbor_mdoc_encode(const cbor_mdoc* doc, cbor_writer* writer) {
  if (doc == nullptr || writer == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return guard([&] { return to_c(cbor_fast::encode(doc->doc, writer->writer)); });
}

// ========================================================================== //
// Sequences                                                                  //
// ========================================================================== //

cbor_fast_status cbor_seq_new(const void* data, size_t size,
                              const cbor_fast_decode_options* options, cbor_seq** out) {
  if (out == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  *out = nullptr;
  c_options o;
  if ((data == nullptr && size != 0) || !read_options(options, &o))
    return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return guard([&] {
    cbor_seq* seq = new_handle<cbor_seq>(o.alloc, data, size, o.decode);
    if (seq == nullptr) return CBOR_FAST_ERR_OUT_OF_MEMORY;
    *out = seq;
    return CBOR_FAST_OK;
  });
}

void cbor_seq_free(cbor_seq* seq) {
  if (seq != nullptr) delete_handle(seq);
}

cbor_fast_status cbor_seq_next(cbor_seq* seq, uint32_t flags, size_t* offset, size_t* length) {
  if (seq == nullptr || (flags & ~k_decode_flags) != 0) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return guard([&] {
    size_t off = 0;
    size_t len = 0;
    const status s = seq->seq.next(off, len, flags);
    if (s == status::ok) {
      if (offset != nullptr) *offset = off;
      if (length != nullptr) *length = len;
    }
    return to_c(s);
  });
}

cbor_fast_status cbor_seq_next_doc(cbor_seq* seq, uint32_t flags, cbor_doc** out) {
  if (out == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  *out = nullptr;
  if (seq == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return guard([&] {
    // A sticky error or bad flags come back before anything is allocated.
    if (seq->seq.error().code != status::ok) return to_c(seq->seq.error().code);
    if ((flags & ~k_decode_flags) != 0) return CBOR_FAST_ERR_INVALID_ARGUMENT;
    cbor_doc* doc = new_handle<cbor_doc>(seq->alloc);
    if (doc == nullptr) return CBOR_FAST_ERR_OUT_OF_MEMORY;
    const status s = seq->seq.next_document(doc->doc, flags);
    if (s != status::ok) {
      delete_handle(doc);
      return to_c(s);
    }
    *out = doc;
    return CBOR_FAST_OK;
  });
}

cbor_fast_status cbor_seq_feed(cbor_seq* seq, const void* data, size_t size, size_t first_offset) {
  if (seq == nullptr || (data == nullptr && size != 0)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return to_c(seq->seq.feed(data, size, first_offset));
}

cbor_fast_status cbor_seq_end_input(cbor_seq* seq) {
  if (seq == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  seq->seq.end_input();
  return CBOR_FAST_OK;
}

size_t cbor_seq_needed(const cbor_seq* seq) { return seq == nullptr ? 0 : seq->seq.needed(); }

size_t cbor_seq_keep_from(const cbor_seq* seq) { return seq == nullptr ? 0 : seq->seq.keep_from(); }

cbor_fast_status cbor_seq_error(const cbor_seq* seq, cbor_fast_error* error) {
  // A struct_size no version has: refused, nothing written.
  if (!error_ok(error)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  if (seq == nullptr) {
    fill_error(error, status::invalid_argument);
    return CBOR_FAST_ERR_INVALID_ARGUMENT;
  }
  fill_error(error, seq->seq.error());
  return to_c(seq->seq.error().code);
}
