// Encoding documents to a writer, iteratively.
//
// Immutable documents are walked in preorder; a stack of subtree ends says
// when to close arrays, maps and indefinite strings (tags close themselves in
// the writer). Mutable documents keep a stack of (container, next child).
#include "cbor_fast/document.hpp"
#include "document/memory.hpp"
#include "internal/float16.hpp"

namespace cbor_fast {
namespace detail {
namespace {

/// Folds one writer result into the running one: a full caller buffer is
/// remembered and writing goes on (the writer keeps counting, so its size()
/// ends up as the size needed); anything else stops the encode.
inline bool keep_going(status s, status& result) noexcept {
  if (s == status::ok) return true;
  if (s == status::buffer_too_small) {
    result = s;
    return true;
  }
  result = s;
  return false;
}

/// The items both document kinds store as type + argument alone.
inline status write_plain(writer& w, item_type type, uint64_t arg) noexcept {
  switch (type) {
    case item_type::unsigned_int: return w.write_uint(arg);
    case item_type::negative_int: return w.write_negative(arg);
    case item_type::simple: return w.write_simple(uint8_t(arg));
    case item_type::boolean: return w.write_bool(arg == 21);
    case item_type::null: return w.write_null();
    case item_type::undefined: return w.write_undefined();
    default: return status::internal_error;
  }
}

status encode_tree(const detail::doc_node* p, writer& w, uint32_t flags,
                   const allocator& alloc) noexcept {
  using detail::doc_node;
  const bool preferred = (flags & encode_preferred) != 0;
  const doc_node* const stop = detail::after(p);
  detail::small_stack<const doc_node*, 64> ends(alloc);  // where open containers stop
  status result = status::ok;
  while (p != stop) {
    status s;
    const doc_node* next = p + 1;
    const bool indefinite = (p->flags & detail::flag_indefinite) != 0 && !preferred;
    bool opened = false;
    switch (item_type(p->type)) {
      case item_type::byte_string:
      case item_type::text_string: {
        const bool text = p->type == uint8_t(item_type::text_string);
        if (indefinite) {
          s = text ? w.begin_text_indefinite() : w.begin_bytes_indefinite();
          opened = true;  // chunk nodes follow; each is written as a definite string
        } else {
          s = text ? w.write_text(
                         std::string_view(reinterpret_cast<const char*>(p->u.data), size_t(p->arg)))
                   : w.write_bytes(p->u.data, size_t(p->arg));
          next = detail::after(p);  // preferred: the chunks are skipped
        }
        break;
      }
      case item_type::array:
        s = indefinite ? w.begin_array_indefinite() : w.begin_array(p->arg);
        opened = true;
        break;
      case item_type::map:
        s = indefinite ? w.begin_map_indefinite() : w.begin_map(p->arg);
        opened = true;
        break;
      case item_type::tag:
        if (preferred && (p->arg == 2 || p->arg == 3) &&
            p[1].type == uint8_t(item_type::byte_string)) {
          // RFC 8949 3.4.3: a bignum without leading zeros, an integer when it fits.
          s = w.write_bignum(p[1].u.data, size_t(p[1].arg), p->arg == 3);
          next = detail::after(p);
          break;
        }
        s = w.write_tag(p->arg);
        break;
      case item_type::floating:
        // The value is the exact widening of the wire bits, so writing it at
        // the same width gives those bits back (NaN payloads included). A
        // double node holds the value's own bits: no call to widen them.
        s = w.write_float(p->b0 == 8 ? detail::bits_to_double(p->arg) : detail::float_node_value(p),
                          preferred ? float_width::shortest : float_width(p->b0));
        break;
      default:  // integers and simple values
        s = write_plain(w, item_type(p->type), p->arg);
        break;
    }
    if (!keep_going(s, result)) return result;
    if (opened && !ends.push(detail::after(p))) return status::out_of_memory;
    p = next;
    while (!ends.empty() && ends.top() == p) {
      ends.pop();
      if (!keep_going(w.end(), result)) return result;
    }
  }
  return result;
}

struct mframe {
  const mutable_node* container;
  size_t next;  ///< index of the next child to write
};

}  // namespace
}  // namespace detail

inline namespace v1 {

status encode(node n, writer& w, uint32_t flags) noexcept {
  if (!n || !detail::valid_encode_flags(flags)) return status::invalid_argument;
  if ((flags & detail::k_canonical_encode_flags) != 0)
    return detail::encode_sorted(n.raw(), w, flags, default_allocator(), nullptr);
  return detail::encode_tree(n.raw(), w, flags, default_allocator());
}

status encode(const document& doc, writer& w, uint32_t flags) noexcept {
  if (doc.empty() || !detail::valid_encode_flags(flags)) return status::invalid_argument;
  if ((flags & detail::k_canonical_encode_flags) != 0)
    return detail::encode_sorted(doc.root().raw(), w, flags, doc.get_allocator(), nullptr);
  return detail::encode_tree(doc.root().raw(), w, flags, doc.get_allocator());
}

}  // namespace v1

namespace detail {
/// Friend of mutable_node: reads its fields for the encoder.
struct mnode_encoder {
  static status run(const mutable_node* m, writer& w, const allocator& alloc) noexcept {
    small_stack<mframe, 64> stack(alloc);
    status result = status::ok;
    for (;;) {
      // Write m; a tag's content follows at once, a container's children via the stack.
      status s;
      const mutable_node* then = nullptr;
      const bool indefinite = (m->flags_ & mutable_node::flag_indefinite) != 0;
      switch (item_type(m->type_)) {
        case item_type::byte_string: s = w.write_bytes(m->u_.data, size_t(m->arg_)); break;
        case item_type::text_string:
          s = w.write_text(
              std::string_view(reinterpret_cast<const char*>(m->u_.data), size_t(m->arg_)));
          break;
        case item_type::array:
          s = indefinite ? w.begin_array_indefinite() : w.begin_array(m->count_);
          if (!stack.push(mframe{m, 0})) return status::out_of_memory;
          break;
        case item_type::map:
          s = indefinite ? w.begin_map_indefinite() : w.begin_map(m->count_ / 2);
          if (!stack.push(mframe{m, 0})) return status::out_of_memory;
          break;
        case item_type::tag:
          if ((m->arg_ == 2 || m->arg_ == 3) &&
              m->u_.content->type_ == uint8_t(item_type::byte_string)) {
            // Preferred serialization of a bignum (RFC 8949 3.4.3).
            s = w.write_bignum(m->u_.content->u_.data, size_t(m->u_.content->arg_), m->arg_ == 3);
            break;
          }
          s = w.write_tag(m->arg_);
          then = m->u_.content;
          break;
        case item_type::floating: s = w.write_float(m->u_.dbl, float_width(m->width_)); break;
        default:  // integers and simple values
          s = detail::write_plain(w, item_type(m->type_), m->arg_);
          break;
      }
      if (!keep_going(s, result)) return result;
      if (then != nullptr) {
        m = then;
        continue;
      }
      // Next child of the innermost open container, closing finished ones.
      for (;;) {
        if (stack.empty()) return result;
        mframe& f = stack.top();
        if (f.next < f.container->count_) {
          m = f.container->u_.children[f.next++];
          break;
        }
        stack.pop();
        if (!keep_going(w.end(), result)) return result;
      }
    }
  }
};
}  // namespace detail

inline namespace v1 {

status encode(const mutable_node* n, writer& w) noexcept {
  if (n == nullptr) return status::invalid_argument;
  return detail::mnode_encoder::run(n, w, detail::mdoc_allocator(n));
}

status encode(const mutable_document& doc, writer& w) noexcept {
  const mutable_node* root = doc.root();
  if (root == nullptr) return status::invalid_argument;
  return detail::mnode_encoder::run(root, w, doc.get_allocator());
}

}  // namespace v1
}  // namespace cbor_fast
