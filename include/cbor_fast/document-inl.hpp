// libcbor_fast: inline bodies of the document node views (see document.hpp).
#ifndef CBOR_FAST_DOCUMENT_INL_HPP
#define CBOR_FAST_DOCUMENT_INL_HPP

#include <cstdint>
#include <cstring>
#include <string_view>

#include "cbor_fast/document.hpp"

namespace cbor_fast {
namespace detail {

/// One node of an immutable document, in preorder: a container, tag or
/// indefinite string is followed by everything under it, so the next sibling
/// is `this + subtree` and nothing needs parent or child pointers.
///
/// Field use by kind (the offset of the head must fit too, hence the packing):
///  - integers, simple values, floats, arrays, maps, tags: u.offset is the offset;
///  - floats: arg holds the wire bits and b0 the width (the double is rebuilt
///    exactly on demand);
///  - definite strings: arg is the length, u.data the content, and the offset
///    is split over span (bits 0-31), b0 (32-39) and b1 (40-47);
///  - indefinite strings: arg and u.data give the joined content (in the
///    arena, where the 8 bytes before it hold the offset); the chunks follow
///    as hidden nodes (flag_chunk) whose views slice the joined content;
///  - flag_tree (arrays, maps, tags, indefinite strings): span is the number
///    of nodes in the subtree, this one included.
struct doc_node {
  uint8_t type;   ///< item_type
  uint8_t flags;  ///< node_flag bits
  uint8_t b0;
  uint8_t b1;
  uint32_t span;
  uint64_t arg;  ///< value / n / count / pairs / tag / simple / float bits / length
  union {
    const uint8_t* data;
    uint64_t offset;
  } u;
};
static_assert(sizeof(doc_node) == 24, "document nodes are meant to be 24 bytes");

enum node_flag : uint8_t {
  flag_indefinite = 1,  ///< indefinite-length string, array or map
  flag_last = 2,        ///< last child of its container (or the root)
  flag_flat = 4,        ///< array/map whose children are all single nodes: O(1) indexing
  flag_tree = 8,        ///< span is a subtree size
  flag_chunk = 16,      ///< chunk of an indefinite string (not a data item)
};

inline uint32_t subtree_size(const doc_node* n) noexcept {
  return (n->flags & flag_tree) != 0 ? n->span : 1u;
}
inline const doc_node* after(const doc_node* n) noexcept { return n + subtree_size(n); }
inline bool is_string_type(uint8_t t) noexcept {
  return t == uint8_t(item_type::byte_string) || t == uint8_t(item_type::text_string);
}
inline uint64_t node_offset(const doc_node* n) noexcept {
  if (is_string_type(n->type)) {
    if ((n->flags & flag_indefinite) == 0)
      return uint64_t(n->span) | uint64_t(n->b0) << 32 | uint64_t(n->b1) << 40;
    uint64_t off;
    std::memcpy(&off, n->u.data - sizeof off, sizeof off);
    return off;
  }
  return n->u.offset;
}
/// The value of a float node, exactly as on the wire.
double float_node_value(const doc_node* n) noexcept;

}  // namespace detail

inline namespace v1 {

inline node document::root() const noexcept { return node(used_ != 0 ? nodes_ + root_ : nullptr); }

inline item_type node::type() const noexcept {
  return p_ != nullptr ? item_type(p_->type) : item_type::none;
}
inline bool node::is_indefinite() const noexcept {
  return p_ != nullptr && (p_->flags & detail::flag_indefinite) != 0;
}
inline size_t node::offset() const noexcept {
  return p_ != nullptr ? size_t(detail::node_offset(p_)) : 0;
}

inline status node::get_uint64(uint64_t& out) const noexcept {
  if (p_ == nullptr) return status::invalid_argument;
  if (p_->type != uint8_t(item_type::unsigned_int)) return status::type_mismatch;
  out = p_->arg;
  return status::ok;
}

inline status node::get_int64(int64_t& out) const noexcept {
  if (p_ == nullptr) return status::invalid_argument;
  if (p_->type == uint8_t(item_type::unsigned_int)) {
    if (p_->arg > uint64_t(INT64_MAX)) return status::out_of_range;
    out = int64_t(p_->arg);
    return status::ok;
  }
  if (p_->type == uint8_t(item_type::negative_int)) {
    if (p_->arg > uint64_t(INT64_MAX)) return status::out_of_range;
    out = -1 - int64_t(p_->arg);
    return status::ok;
  }
  return status::type_mismatch;
}

inline status node::get_int_raw(uint64_t& raw, bool& negative) const noexcept {
  if (p_ == nullptr) return status::invalid_argument;
  if (p_->type != uint8_t(item_type::unsigned_int) && p_->type != uint8_t(item_type::negative_int))
    return status::type_mismatch;
  raw = p_->arg;
  negative = p_->type == uint8_t(item_type::negative_int);
  return status::ok;
}

inline status node::get_double(double& out) const noexcept {
  if (p_ == nullptr) return status::invalid_argument;
  if (p_->type != uint8_t(item_type::floating)) return status::type_mismatch;
  out = detail::float_node_value(p_);
  return status::ok;
}

inline float_width node::width() const noexcept {
  return p_ != nullptr && p_->type == uint8_t(item_type::floating) ? float_width(p_->b0)
                                                                   : float_width::shortest;
}

inline status node::get_float_bits(uint64_t& out) const noexcept {
  if (p_ == nullptr) return status::invalid_argument;
  if (p_->type != uint8_t(item_type::floating)) return status::type_mismatch;
  out = p_->arg;
  return status::ok;
}

inline status node::get_bool(bool& out) const noexcept {
  if (p_ == nullptr) return status::invalid_argument;
  if (p_->type != uint8_t(item_type::boolean)) return status::type_mismatch;
  out = p_->arg == 21;
  return status::ok;
}

inline status node::get_simple(uint8_t& out) const noexcept {
  if (p_ == nullptr) return status::invalid_argument;
  switch (item_type(p_->type)) {
    case item_type::simple:
    case item_type::boolean:
    case item_type::null:
    case item_type::undefined: out = uint8_t(p_->arg); return status::ok;
    default: return status::type_mismatch;
  }
}

inline status node::get_bytes(byte_view& out) const noexcept {
  if (p_ == nullptr) return status::invalid_argument;
  if (p_->type != uint8_t(item_type::byte_string)) return status::type_mismatch;
  out = byte_view{p_->u.data, size_t(p_->arg)};
  return status::ok;
}

inline status node::get_text(std::string_view& out) const noexcept {
  if (p_ == nullptr) return status::invalid_argument;
  if (p_->type != uint8_t(item_type::text_string)) return status::type_mismatch;
  out = std::string_view(reinterpret_cast<const char*>(p_->u.data), size_t(p_->arg));
  return status::ok;
}

inline status node::get_tag(uint64_t& out) const noexcept {
  if (p_ == nullptr) return status::invalid_argument;
  if (p_->type != uint8_t(item_type::tag)) return status::type_mismatch;
  out = p_->arg;
  return status::ok;
}

inline node node::tag_content() const noexcept {
  return node(p_ != nullptr && p_->type == uint8_t(item_type::tag) ? p_ + 1 : nullptr);
}

inline size_t node::size() const noexcept {
  if (p_ == nullptr) return 0;
  return p_->type == uint8_t(item_type::array) || p_->type == uint8_t(item_type::map)
             ? size_t(p_->arg)
             : 0;
}

inline node node::at(size_t index) const noexcept {
  if (p_ == nullptr || p_->type != uint8_t(item_type::array) || index >= p_->arg) return node();
  if ((p_->flags & detail::flag_flat) != 0) return node(p_ + 1 + index);
  const detail::doc_node* c = p_ + 1;
  for (; index != 0; --index) c = detail::after(c);
  return node(c);
}

inline node node::map_key(size_t index) const noexcept {
  if (p_ == nullptr || p_->type != uint8_t(item_type::map) || index >= p_->arg) return node();
  if ((p_->flags & detail::flag_flat) != 0) return node(p_ + 1 + 2 * index);
  const detail::doc_node* c = p_ + 1;
  for (; index != 0; --index) c = detail::after(detail::after(c));
  return node(c);
}

inline node node::map_value(size_t index) const noexcept {
  const node key = map_key(index);
  return key ? node(detail::after(key.p_)) : node();
}

inline node node::find(std::string_view key) const noexcept {
  if (p_ == nullptr || p_->type != uint8_t(item_type::map)) return node();
  const detail::doc_node* c = p_ + 1;
  for (uint64_t i = 0; i < p_->arg; ++i) {
    const detail::doc_node* value = detail::after(c);
    if (c->type == uint8_t(item_type::text_string) && c->arg == key.size() &&
        (key.empty() || std::memcmp(c->u.data, key.data(), key.size()) == 0))
      return node(value);
    c = detail::after(value);
  }
  return node();
}

inline node node::find_int(int64_t key) const noexcept {
  if (p_ == nullptr || p_->type != uint8_t(item_type::map)) return node();
  // Compare as the wire does: major type and argument.
  const uint8_t want_type = uint8_t(key < 0 ? item_type::negative_int : item_type::unsigned_int);
  const uint64_t want_arg = key < 0 ? ~uint64_t(key) : uint64_t(key);
  const detail::doc_node* c = p_ + 1;
  for (uint64_t i = 0; i < p_->arg; ++i) {
    const detail::doc_node* value = detail::after(c);
    if (c->type == want_type && c->arg == want_arg) return node(value);
    c = detail::after(value);
  }
  return node();
}

inline node node::first_child() const noexcept {
  if (p_ == nullptr) return node();
  switch (item_type(p_->type)) {
    case item_type::array:
    case item_type::map: return node(p_->arg != 0 ? p_ + 1 : nullptr);
    case item_type::tag: return node(p_ + 1);
    default: return node();
  }
}

inline node node::next_sibling() const noexcept {
  if (p_ == nullptr || (p_->flags & detail::flag_last) != 0) return node();
  return node(detail::after(p_));
}

}  // namespace v1
}  // namespace cbor_fast

#endif  // CBOR_FAST_DOCUMENT_INL_HPP
