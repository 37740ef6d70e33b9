// Helpers of the fuzz targets that use the C API: a document walked into the
// event stream of fuzz_util.hpp, encoding into a byte vector, and an
// allocator that fails after a given number of allocations.
#ifndef CBOR_FAST_FUZZ_CAPI_UTIL_HPP
#define CBOR_FAST_FUZZ_CAPI_UTIL_HPP

#include <cstdlib>
#include <vector>

#include "cbor_fast.h"
#include "fuzz_util.hpp"

namespace cbor_fast_fuzz {

/// Preorder events of a document node (see event): what a reader walk over
/// the same bytes gives, indefinite strings joined. Uses child/next
/// iteration, with an explicit stack (documents may nest 512 levels).
inline std::vector<event> doc_events(const cbor_node* root) {
  std::vector<event> out;
  struct open {
    const cbor_node* next;  ///< next child to visit
    bool needs_end;         ///< arrays and maps close with an end event
  };
  std::vector<open> stack;
  const cbor_node* n = root;
  for (;;) {
    if (n != nullptr) {
      event e;
      const cbor_fast_type t = cbor_node_type(n);
      FUZZ_CHECK(t != CBOR_FAST_TYPE_NONE && t != CBOR_FAST_TYPE_END);
      e.type = cbor_fast::item_type(t);
      e.indefinite = cbor_node_is_indefinite(n) != 0;
      e.offset = cbor_node_offset(n);
      switch (t) {
        case CBOR_FAST_TYPE_UINT:
        case CBOR_FAST_TYPE_NEGATIVE: {
          uint64_t raw = 0;
          int negative = -1;
          FUZZ_CHECK(cbor_node_get_int_raw(n, &raw, &negative) == CBOR_FAST_OK);
          FUZZ_CHECK(negative == (t == CBOR_FAST_TYPE_NEGATIVE ? 1 : 0));
          e.value = raw;
          break;
        }
        case CBOR_FAST_TYPE_BYTES: {
          const uint8_t* p = nullptr;
          size_t len = 0;
          FUZZ_CHECK(cbor_node_get_bytes(n, &p, &len) == CBOR_FAST_OK);
          FUZZ_CHECK(p != nullptr || len == 0);
          if (len != 0) e.bytes.assign(reinterpret_cast<const char*>(p), len);
          e.value = len;
          break;
        }
        case CBOR_FAST_TYPE_TEXT: {
          const char* p = nullptr;
          size_t len = 0;
          FUZZ_CHECK(cbor_node_get_text(n, &p, &len) == CBOR_FAST_OK);
          FUZZ_CHECK(p != nullptr || len == 0);
          if (len != 0) e.bytes.assign(p, len);
          e.value = len;
          break;
        }
        case CBOR_FAST_TYPE_ARRAY:
        case CBOR_FAST_TYPE_MAP: e.value = cbor_node_size(n); break;
        case CBOR_FAST_TYPE_TAG: FUZZ_CHECK(cbor_node_get_tag(n, &e.value) == CBOR_FAST_OK); break;
        case CBOR_FAST_TYPE_SIMPLE:
        case CBOR_FAST_TYPE_BOOL:
        case CBOR_FAST_TYPE_NULL:
        case CBOR_FAST_TYPE_UNDEFINED: {
          uint8_t v = 0;
          FUZZ_CHECK(cbor_node_get_simple(n, &v) == CBOR_FAST_OK);
          e.value = v;
          break;
        }
        case CBOR_FAST_TYPE_FLOAT: {
          double d = 0;
          FUZZ_CHECK(cbor_node_get_double(n, &d) == CBOR_FAST_OK);
          e.value = double_bits(d);
          e.width = cbor_node_float_width(n);
          break;
        }
        default: FUZZ_FAIL("node of an unknown type");
      }
      out.push_back(std::move(e));
      if (t == CBOR_FAST_TYPE_ARRAY || t == CBOR_FAST_TYPE_MAP) {
        stack.push_back({cbor_node_child(n), true});
      } else if (t == CBOR_FAST_TYPE_TAG) {
        FUZZ_CHECK(cbor_node_child(n) == cbor_node_tag_content(n));
        stack.push_back({cbor_node_tag_content(n), false});
      }
    }
    if (stack.empty()) return out;
    open& top = stack.back();
    if (top.next != nullptr) {
      n = top.next;
      top.next = top.needs_end ? cbor_node_next(n) : nullptr;
      continue;
    }
    if (top.needs_end) {
      event e;
      e.type = cbor_fast::item_type::end;
      out.push_back(e);
    }
    stack.pop_back();
    n = nullptr;
  }
}

/// Writer output as a vector; aborts unless the writer finishes cleanly.
inline std::vector<uint8_t> finish_writer(cbor_writer* w) {
  const uint8_t* p = nullptr;
  size_t n = 0;
  FUZZ_CHECK(cbor_writer_finish(w, &p, &n) == CBOR_FAST_OK);
  FUZZ_CHECK(n == cbor_writer_size(w));
  FUZZ_CHECK(p != nullptr || n == 0);
  return n != 0 ? std::vector<uint8_t>(p, p + n) : std::vector<uint8_t>();
}

/// cbor_encode() into a fresh growable writer; aborts on failure.
inline std::vector<uint8_t> encode_doc(const cbor_doc* doc, uint32_t flags) {
  cbor_writer* w = nullptr;
  FUZZ_CHECK(cbor_writer_new(nullptr, &w) == CBOR_FAST_OK);
  FUZZ_CHECK(cbor_encode(doc, flags, w) == CBOR_FAST_OK);
  std::vector<uint8_t> out = finish_writer(w);
  cbor_writer_free(w);
  return out;
}

/// malloc/realloc/free that fail once `left` allocations have been made
/// (realloc counts as one). left < 0: never fail.
struct failing_allocator {
  long left = -1;
  cbor_fast_allocator hooks{&failing_allocator::do_malloc, &failing_allocator::do_realloc,
                            &failing_allocator::do_free, this};

  failing_allocator() = default;
  failing_allocator(const failing_allocator&) = delete;
  failing_allocator& operator=(const failing_allocator&) = delete;

  bool take() {
    if (left == 0) return false;
    if (left > 0) --left;
    return true;
  }
  static void* do_malloc(void* ctx, size_t size) {
    return static_cast<failing_allocator*>(ctx)->take() ? std::malloc(size) : nullptr;
  }
  static void* do_realloc(void* ctx, void* p, size_t, size_t size) {
    return static_cast<failing_allocator*>(ctx)->take() ? std::realloc(p, size) : nullptr;
  }
  static void do_free(void*, void* p, size_t) { std::free(p); }
};

}  // namespace cbor_fast_fuzz

#endif  // CBOR_FAST_FUZZ_CAPI_UTIL_HPP
