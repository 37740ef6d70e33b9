// C API: the 0.4 mutable-node getters, iteration and removal (cbor_mnode_*).
// Pure lookups and in-place edits: nothing here allocates or throws.
#include <cstdint>
#include <string_view>

#include "cbor_fast.h"
#include "cbor_fast/document.hpp"
#include "document_handles.hpp"
#include "handles.hpp"

using cbor_fast::byte_view;
using cbor_fast::mutable_node;
using cbor_fast::status;
using cbor_fast::detail::to_c;

namespace {
inline mutable_node* M(cbor_mnode* n) noexcept { return reinterpret_cast<mutable_node*>(n); }
inline const mutable_node* M(const cbor_mnode* n) noexcept {
  return reinterpret_cast<const mutable_node*>(n);
}
inline cbor_mnode* C(mutable_node* n) noexcept { return reinterpret_cast<cbor_mnode*>(n); }
}  // namespace

int cbor_mnode_is_indefinite(const cbor_mnode* n) {
  return n != nullptr && M(n)->is_indefinite() ? 1 : 0;
}

cbor_fast_status cbor_mnode_get_int_raw(const cbor_mnode* n, uint64_t* raw, int* negative) {
  if (n == nullptr || raw == nullptr || negative == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  uint64_t r = 0;
  bool neg = false;
  const status s = M(n)->get_int_raw(r, neg);
  if (s == status::ok) {
    *raw = r;
    *negative = neg ? 1 : 0;
  }
  return to_c(s);
}

cbor_fast_status cbor_mnode_get_bignum(const cbor_mnode* n, uint64_t* raw,
                                       const uint8_t** magnitude, size_t* size, int* negative) {
  if (n == nullptr || raw == nullptr || magnitude == nullptr || size == nullptr ||
      negative == nullptr)
    return CBOR_FAST_ERR_INVALID_ARGUMENT;
  uint64_t r = 0;
  byte_view mag;
  bool neg = false;
  const status s = M(n)->get_bignum(r, mag, neg);
  if (s == status::ok) {
    *raw = r;
    *magnitude = mag.data;
    *size = mag.size;
    *negative = neg ? 1 : 0;
  }
  return to_c(s);
}

uint32_t cbor_mnode_float_width(const cbor_mnode* n) {
  return n != nullptr ? uint32_t(M(n)->width()) : 0;
}

cbor_fast_status cbor_mnode_get_simple(const cbor_mnode* n, uint8_t* out) {
  if (n == nullptr || out == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return to_c(M(n)->get_simple(*out));
}

cbor_mnode* cbor_mnode_map_find_int(const cbor_mnode* n, int64_t key) {
  return n != nullptr ? C(M(n)->find_int(key)) : nullptr;
}

cbor_mnode* cbor_mnode_child(const cbor_mnode* n) {
  return n != nullptr ? C(M(n)->first_child()) : nullptr;
}

cbor_mnode* cbor_mnode_next(const cbor_mnode* n) {
  return n != nullptr ? C(M(n)->next_sibling()) : nullptr;
}

cbor_mnode* cbor_mnode_parent(const cbor_mnode* n) {
  return n != nullptr ? C(M(n)->parent()) : nullptr;
}

cbor_fast_status cbor_mnode_array_remove(cbor_mnode* array, size_t index) {
  if (array == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return to_c(M(array)->remove_at(index));
}

cbor_fast_status cbor_mnode_map_remove_at(cbor_mnode* map, size_t index) {
  if (map == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return to_c(M(map)->map_remove_at(index));
}

cbor_fast_status cbor_mnode_map_remove(cbor_mnode* map, const char* key, size_t key_size) {
  if (map == nullptr || (key == nullptr && key_size != 0)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return to_c(M(map)->map_remove(std::string_view(key != nullptr ? key : "", key_size)));
}

cbor_fast_status cbor_mnode_map_remove_int(cbor_mnode* map, int64_t key) {
  if (map == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return to_c(M(map)->map_remove_int(key));
}

size_t cbor_mnode_index(const cbor_mnode* n) { return n != nullptr ? M(n)->index() : 0; }
