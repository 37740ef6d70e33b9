// Mutable documents (building, placement rules, deep copy), sequences, and
// allocation failure at every allocation of the document layer.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cbor_fast/document.hpp"
#include "document/decode.hpp"
#include "unit/document_test_util.hpp"

namespace cbor_fast {
namespace {

using namespace doc_test;

status decode_hex(const char* h, document& d) {
  static thread_local bytes storage;
  storage = hex(h);
  return decode(storage.data(), storage.size(), d);
}

// ---- mutable documents -------------------------------------------------------------

TEST(MutableDocument, BuildAndEncodeExactBytes) {
  mutable_document m;
  mutable_node* root = m.make_map();
  ASSERT_NE(root, nullptr);
  ASSERT_EQ(m.set_root(root), status::ok);
  ASSERT_EQ(root->map_set("a", m.make_uint(1)), status::ok);
  mutable_node* list = m.make_array();
  ASSERT_EQ(list->append(m.make_bool(true)), status::ok);
  ASSERT_EQ(list->append(m.make_null()), status::ok);
  ASSERT_EQ(list->append(m.make_float(1.5)), status::ok);
  ASSERT_EQ(list->append(m.make_float(1.5, float_width::double_)), status::ok);
  ASSERT_EQ(list->append(m.make_undefined()), status::ok);
  ASSERT_EQ(list->append(m.make_simple(255)), status::ok);
  ASSERT_EQ(root->map_set("b", list), status::ok);
  const uint8_t raw[] = {0x00, 0xff};
  ASSERT_EQ(root->map_put(m.make_text("c"), m.make_bytes(raw, 2)), status::ok);
  ASSERT_EQ(root->map_put(m.make_int(-7), m.make_tag(1, m.make_uint(1363896240))), status::ok);
  ASSERT_EQ(root->map_put(m.make_negative(UINT64_MAX), m.make_int(INT64_MIN)), status::ok);
  EXPECT_EQ(encode_hex(m), norm("a5 6161 01 6162 86 f5 f6 f93e00 fb3ff8000000000000 f7 f8ff"
                                " 6163 4200ff 26 c1 1a514b67b0"
                                " 3bffffffffffffffff 3b7fffffffffffffff"));
  // Replacing a value keeps the key order; the old value is detached.
  mutable_node* old = root->find("a");
  ASSERT_EQ(root->map_set("a", m.make_text("x")), status::ok);
  EXPECT_FALSE(old->is_placed());
  EXPECT_EQ(root->size(), 5u);
  ASSERT_EQ(list->set_indefinite(true), status::ok);
  EXPECT_EQ(encode_hex(m), norm("a5 6161 6178 6162 9f f5 f6 f93e00 fb3ff8000000000000 f7 f8ff ff"
                                " 6163 4200ff 26 c1 1a514b67b0"
                                " 3bffffffffffffffff 3b7fffffffffffffff"));
  // Reading back.
  uint64_t u = 0;
  int64_t i = 0;
  double v = 0;
  bool b = false;
  std::string_view t;
  byte_view bv;
  uint8_t s = 0;
  ASSERT_EQ(root->find("a")->get_text(t), status::ok);
  EXPECT_EQ(t, "x");
  ASSERT_EQ(list->at(0)->get_bool(b), status::ok);
  EXPECT_TRUE(b);
  ASSERT_EQ(list->at(2)->get_double(v), status::ok);
  EXPECT_EQ(v, 1.5);
  EXPECT_EQ(list->at(2)->width(), float_width::shortest);
  EXPECT_EQ(list->at(3)->width(), float_width::double_);
  ASSERT_EQ(list->at(5)->get_simple(s), status::ok);
  EXPECT_EQ(s, 255);
  EXPECT_EQ(list->at(1)->type(), item_type::null);
  EXPECT_EQ(list->at(6), nullptr);
  ASSERT_EQ(root->map_value(2)->get_bytes(bv), status::ok);
  EXPECT_EQ(to_hex(bv.data, bv.size), "00ff");
  ASSERT_EQ(root->map_key(3)->get_int64(i), status::ok);
  EXPECT_EQ(i, -7);
  ASSERT_EQ(root->map_value(3)->get_tag(u), status::ok);
  EXPECT_EQ(u, 1u);
  ASSERT_EQ(root->map_value(3)->tag_content()->get_uint64(u), status::ok);
  EXPECT_EQ(u, 1363896240u);
  ASSERT_EQ(root->map_value(4)->get_int64(i), status::ok);
  EXPECT_EQ(i, INT64_MIN);
  EXPECT_EQ(root->map_key(4)->get_int64(i), status::out_of_range);
  bool neg = false;
  ASSERT_EQ(root->map_key(4)->get_int_raw(u, neg), status::ok);
  EXPECT_EQ(u, UINT64_MAX);
  EXPECT_TRUE(neg);
  EXPECT_EQ(root->map_key(5), nullptr);
  EXPECT_EQ(root->find("zz"), nullptr);
  EXPECT_EQ(list->find("a"), nullptr);
  EXPECT_EQ(root->at(0), nullptr);
  EXPECT_EQ(root->get_uint64(u), status::type_mismatch);
  EXPECT_EQ(list->at(0)->get_simple(s), status::ok);
  EXPECT_EQ(s, 21);
  EXPECT_EQ(list->at(0)->size(), 0u);
}

TEST(MutableDocument, ConstructorArguments) {
  mutable_document m;
  EXPECT_EQ(m.root(), nullptr);
  writer w;
  EXPECT_EQ(encode(m, w), status::invalid_argument);
  EXPECT_EQ(encode(static_cast<const mutable_node*>(nullptr), w), status::invalid_argument);
  for (uint8_t v = 24; v < 32; ++v) EXPECT_EQ(m.make_simple(v), nullptr);
  EXPECT_EQ(m.make_simple(20)->type(), item_type::boolean);
  EXPECT_EQ(m.make_simple(22)->type(), item_type::null);
  EXPECT_EQ(m.make_simple(23)->type(), item_type::undefined);
  EXPECT_EQ(m.make_simple(19)->type(), item_type::simple);
  EXPECT_EQ(m.make_float(1.0, float_width(3)), nullptr);
  EXPECT_EQ(m.make_bytes(nullptr, 1), nullptr);
  EXPECT_NE(m.make_bytes(nullptr, 0), nullptr);
  EXPECT_EQ(m.make_tag(2, nullptr), nullptr);
  // Bignums: plain integers when they fit, else tag 2/3 over the trimmed magnitude.
  const uint8_t small[] = {0x00, 0x00, 0x01, 0x00};
  mutable_node* n = m.make_bignum(small, sizeof small, false);
  ASSERT_NE(n, nullptr);
  uint64_t u = 0;
  ASSERT_EQ(n->get_uint64(u), status::ok);
  EXPECT_EQ(u, 256u);
  n = m.make_bignum(small, sizeof small, true);
  ASSERT_EQ(n->type(), item_type::negative_int);
  const uint8_t big[] = {0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0};
  n = m.make_bignum(big, sizeof big, true);
  ASSERT_EQ(n->type(), item_type::tag);
  ASSERT_EQ(n->get_tag(u), status::ok);
  EXPECT_EQ(u, 3u);
  byte_view mag;
  ASSERT_EQ(n->tag_content()->get_bytes(mag), status::ok);
  EXPECT_EQ(to_hex(mag.data, mag.size), "010000000000000000");
  ASSERT_EQ(m.set_root(n), status::ok);
  EXPECT_EQ(encode_hex(m), "c349010000000000000000");
  EXPECT_EQ(m.make_bignum(nullptr, 1, false), nullptr);
  ASSERT_NE(m.make_bignum(nullptr, 0, false), nullptr);
}

TEST(MutableDocument, PlacementRulesAndErrors) {
  mutable_document m;
  mutable_document other;
  mutable_node* a = m.make_array();
  mutable_node* map = m.make_map();
  mutable_node* one = m.make_uint(1);
  mutable_node* foreign = other.make_uint(2);
  EXPECT_EQ(a->append(nullptr), status::invalid_argument);
  EXPECT_EQ(a->append(foreign), status::invalid_argument);
  EXPECT_EQ(map->append(one), status::type_mismatch);
  EXPECT_EQ(a->map_put(one, m.make_uint(3)), status::type_mismatch);
  EXPECT_EQ(a->map_set("k", one), status::type_mismatch);
  EXPECT_EQ(one->set_indefinite(true), status::type_mismatch);
  EXPECT_EQ(a->append(a), status::invalid_argument);  // itself
  ASSERT_EQ(a->append(one), status::ok);
  EXPECT_TRUE(one->is_placed());
  EXPECT_EQ(a->append(one), status::invalid_argument);  // placed once only
  EXPECT_EQ(m.set_root(one), status::invalid_argument);
  EXPECT_EQ(m.set_root(foreign), status::invalid_argument);
  EXPECT_EQ(m.set_root(nullptr), status::invalid_argument);
  // Cycles: a container may not go inside its own content.
  mutable_node* inner = m.make_array();
  ASSERT_EQ(a->append(inner), status::ok);
  mutable_node* holder = m.make_array();
  ASSERT_EQ(holder->append(m.make_uint(0)), status::ok);
  EXPECT_EQ(inner->append(a), status::invalid_argument);  // a holds inner
  mutable_node* tag = m.make_tag(5, m.make_array());
  ASSERT_NE(tag, nullptr);
  EXPECT_EQ(tag->tag_content()->append(tag), status::invalid_argument);
  EXPECT_EQ(map->map_put(one, one), status::invalid_argument);
  mutable_node* k = m.make_text("k");
  EXPECT_EQ(map->map_put(k, k), status::invalid_argument);
  EXPECT_EQ(map->map_put(k, map), status::invalid_argument);
  // array_set: range, detaching the old item, reusing it.
  EXPECT_EQ(a->array_set(2, m.make_uint(9)), status::out_of_range);
  mutable_node* nine = m.make_uint(9);
  ASSERT_EQ(a->array_set(0, nine), status::ok);
  EXPECT_FALSE(one->is_placed());
  ASSERT_EQ(holder->append(one), status::ok);
  EXPECT_EQ(a->array_set(0, nine), status::invalid_argument);  // already there
  // Root: setting the same root again is fine; a new root detaches the old.
  ASSERT_EQ(m.set_root(a), status::ok);
  ASSERT_EQ(m.set_root(a), status::ok);
  EXPECT_EQ(holder->append(a), status::invalid_argument);
  ASSERT_EQ(m.set_root(holder), status::ok);
  EXPECT_FALSE(a->is_placed());
  EXPECT_EQ(m.root(), holder);
  EXPECT_EQ(encode_hex(m), "820001");
  // Moving the document keeps nodes and the ownership checks.
  mutable_document moved(std::move(m));
  EXPECT_EQ(moved.root(), holder);
  ASSERT_EQ(holder->append(moved.make_uint(2)), status::ok);
  EXPECT_EQ(holder->append(other.make_uint(3)), status::invalid_argument);
  EXPECT_EQ(encode_hex(moved), "83000102");
  moved.clear();
  EXPECT_EQ(moved.root(), nullptr);
}

TEST(MutableDocument, ManyAppendsAndIndexing) {
  mutable_document m;
  mutable_node* a = m.make_array();
  for (uint64_t i = 0; i < 10000; ++i) ASSERT_EQ(a->append(m.make_uint(i)), status::ok);
  ASSERT_EQ(m.set_root(a), status::ok);
  uint64_t u = 0;
  ASSERT_EQ(a->at(9999)->get_uint64(u), status::ok);
  EXPECT_EQ(u, 9999u);
  writer w;
  ASSERT_EQ(encode(m, w), status::ok);
  document d;
  ASSERT_EQ(decode(w.data(), w.size(), d), status::ok);
  EXPECT_EQ(d.root().size(), 10000u);
  ASSERT_EQ(d.root().at(5000).get_uint64(u), status::ok);
  EXPECT_EQ(u, 5000u);
}

TEST(MutableDocument, DeepCopyEditEncode) {
  bytes in = hex(
      "a3 6161 01 6162 9f 02 03 ff 6163 7f 6178 6179 ff");  // {"a":1,"b":[_ 2,3],"c":(_ "x","y")}
  document d;
  ASSERT_EQ(decode(in.data(), in.size(), d), status::ok);
  mutable_document m;
  ASSERT_EQ(to_mutable(d, m), status::ok);
  // The copy owns its strings: neither the source nor its input is needed.
  d.release();
  std::memset(in.data(), 0xee, in.size());
  in.clear();
  in.shrink_to_fit();
  mutable_node* root = m.root();
  ASSERT_NE(root, nullptr);
  mutable_node* b = root->find("b");
  ASSERT_NE(b, nullptr);
  EXPECT_TRUE(b->is_indefinite());
  ASSERT_EQ(b->append(m.make_uint(4)), status::ok);
  ASSERT_EQ(root->map_set("a", m.make_text("one")), status::ok);
  ASSERT_EQ(root->map_set("d", m.make_float(0.5)), status::ok);
  std::string_view t;
  ASSERT_EQ(root->find("c")->get_text(t), status::ok);
  EXPECT_EQ(t, "xy");
  EXPECT_EQ(encode_hex(m), norm("a4 6161 636f6e65 6162 9f 02 03 04 ff 6163 627879 6164 f93800"));
  // Copying a subtree into another document.
  document d2;
  ASSERT_EQ(decode_hex("82 c1 01 a1 01 02", d2), status::ok);
  mutable_node* copy = nullptr;
  ASSERT_EQ(m.copy(d2.root().at(1), copy), status::ok);
  ASSERT_EQ(root->map_set("e", copy), status::ok);
  EXPECT_EQ(encode_hex(m),
            norm("a5 6161 636f6e65 6162 9f 02 03 04 ff 6163 627879 6164 f93800 6165 a10102"));
  EXPECT_EQ(m.copy(node(), copy), status::invalid_argument);
  mutable_document empty;
  EXPECT_EQ(to_mutable(document(), empty), status::invalid_argument);
}

// ---- sequences ---------------------------------------------------------------------------

TEST(Sequence, ThreeItemsThenEnd) {
  const bytes in = hex("01 820203 a1 6161 f5");
  sequence s(in.data(), in.size());
  size_t off = 99;
  size_t len = 99;
  ASSERT_EQ(s.next(off, len), status::ok);
  EXPECT_EQ(off, 0u);
  EXPECT_EQ(len, 1u);
  ASSERT_EQ(s.next(off, len), status::ok);
  EXPECT_EQ(off, 1u);
  EXPECT_EQ(len, 3u);
  ASSERT_EQ(s.next(off, len), status::ok);
  EXPECT_EQ(off, 4u);
  EXPECT_EQ(len, 4u);
  EXPECT_EQ(s.next(off, len), status::end);
  EXPECT_EQ(s.next(off, len), status::end);
  EXPECT_EQ(off, 4u);  // untouched at the end
  EXPECT_EQ(s.error().code, status::ok);

  sequence docs(in.data(), in.size());
  document d;
  uint64_t u = 0;
  ASSERT_EQ(docs.next_document(d), status::ok);
  ASSERT_EQ(d.root().get_uint64(u), status::ok);
  EXPECT_EQ(u, 1u);
  ASSERT_EQ(docs.next_document(d, decode_copy_strings | decode_exact), status::ok);
  EXPECT_EQ(d.root().size(), 2u);
  EXPECT_EQ(d.root().offset(), 1u);
  EXPECT_EQ(d.root().at(1).offset(), 3u);
  EXPECT_EQ(d.encoded_size(), 4u);
  ASSERT_EQ(docs.next_document(d), status::ok);
  bool b = false;
  ASSERT_EQ(d.root().find("a").get_bool(b), status::ok);
  EXPECT_TRUE(b);
  EXPECT_EQ(docs.next_document(d), status::end);
  EXPECT_TRUE(d.empty());
  EXPECT_EQ(docs.next_document(d), status::end);
  EXPECT_EQ(docs.next_document(d, 64), status::invalid_argument);
}

TEST(Sequence, MalformedSecondItemIsSticky) {
  const bytes in = hex("01 83 01 ff 02 03");
  for (bool as_document : {false, true}) {
    SCOPED_TRACE(as_document);
    sequence s(in.data(), in.size());
    size_t off = 0;
    size_t len = 0;
    document d;
    ASSERT_EQ(as_document ? s.next_document(d) : s.next(off, len), status::ok);
    const status bad = as_document ? s.next_document(d) : s.next(off, len);
    EXPECT_EQ(bad, status::unexpected_break);
    EXPECT_EQ(s.error().code, status::unexpected_break);
    EXPECT_EQ(s.error().offset, 3u);
    EXPECT_EQ(s.error().item_offset, 1u);
    EXPECT_EQ(s.error().depth, 1u);
    EXPECT_EQ(s.next(off, len), status::unexpected_break);
    EXPECT_EQ(s.next_document(d), status::unexpected_break);
  }
  // UTF-8 is checked only when asked, per call.
  const bytes text = hex("62 c328 61 61");
  sequence s(text.data(), text.size());
  size_t off = 0;
  size_t len = 0;
  EXPECT_EQ(s.next(off, len), status::ok);
  EXPECT_EQ(s.next(off, len, decode_validate_utf8), status::ok);  // "a" is fine
  sequence strict(text.data(), text.size());
  EXPECT_EQ(strict.next(off, len, decode_validate_utf8), status::invalid_utf8);
  EXPECT_EQ(strict.error().offset, 1u);
  EXPECT_EQ(strict.error().item_offset, 0u);
  // Limits apply to every item.
  decode_options o;
  o.max_depth = 1;
  o.max_nodes = 2;
  const bytes nested = hex("81 01 81 81 01");
  sequence limited(nested.data(), nested.size(), o);
  document d;
  ASSERT_EQ(limited.next_document(d), status::ok);
  EXPECT_EQ(limited.next_document(d), status::depth_exceeded);
  EXPECT_EQ(limited.error().offset, 3u);
  EXPECT_EQ(limited.error().item_offset, 2u);
  const bytes many = hex("82 01 02");
  sequence counted(many.data(), many.size(), o);
  EXPECT_EQ(counted.next_document(d), status::too_many_items);
  EXPECT_EQ(counted.error().offset, 2u);
  EXPECT_EQ(counted.next(off, len), status::too_many_items);
  // A null buffer with a size is refused for good.
  sequence null_input(nullptr, 3);
  EXPECT_EQ(null_input.next(off, len), status::invalid_argument);
  sequence empty(nullptr, 0);
  EXPECT_EQ(empty.next(off, len), status::end);
}

// ---- allocation failure -----------------------------------------------------------------

/// Every operation of the layer that allocates, on hooks that fail at one
/// call. Returns the first failure (which must be out_of_memory) or ok.
status allocating_scenario(const allocator* a) {
#define STEP(expr)                                       \
  do {                                                   \
    const status step_status_ = (expr);                  \
    if (step_status_ != status::ok) return step_status_; \
  } while (0)
#define MAKE(var, expr)       \
  mutable_node* var = (expr); \
  if (var == nullptr) return status::out_of_memory

  // Fused path: deep enough for the heap stack (past 64 levels), enough nodes
  // to grow the node array, strings to fill several arena chunks.
  // [[...70 levels...[ [0, 1, ..., "aaa...", ...300 items], h'5a5a...' (5000) ]...]]
  bytes in(70, 0x81);
  in.push_back(0x82);
  in.insert(in.end(), {0x99, 0x01, 0x2c});  // array of 300
  for (int i = 0; i < 300; ++i) {
    if (i % 10 == 0) {
      in.insert(in.end(), {0x78, 100});  // text of 100 bytes
      in.insert(in.end(), 100, uint8_t('a' + i % 26));
    } else {
      in.push_back(uint8_t(i % 24));
    }
  }
  in.insert(in.end(), {0x59, 0x13, 0x88});  // bytes of 5000: an arena chunk of its own
  in.insert(in.end(), 5000, 0x5a);
  decode_options copy;
  copy.flags = decode_copy_strings;
  document fused(a);
  error_info e;
  STEP(
      detail::decode_buffer(in.data(), in.size(), fused, copy, &e, detail::decode_path::fast_only));

  // Reader path: indefinite strings (joined into the arena) and nesting past
  // the reader's first stack.
  bytes ind;
  for (int i = 0; i < 40; ++i) ind.push_back(0x9f);
  for (int i = 0; i < 20; ++i) {
    ind.push_back(0x7f);
    ind.push_back(0x63);
    ind.insert(ind.end(), {'a', 'b', 'c'});
    ind.push_back(0x61);
    ind.push_back('d');
    ind.push_back(0xff);
  }
  ind.insert(ind.end(), 40, 0xff);
  document joined(a);
  STEP(decode(ind.data(), ind.size(), joined, copy, &e));

  writer w1(a);
  STEP(encode(fused, w1));
  writer w2(a);
  STEP(encode(joined, w2, encode_preferred));
  writer w2b(a);
  STEP(encode(joined, w2b));

  mutable_document m(a);
  STEP(to_mutable(fused, m));
  MAKE(extra, m.make_array());
  for (int i = 0; i < 100; ++i) {
    MAKE(item, m.make_text("item"));
    STEP(extra->append(item));
  }
  MAKE(k, m.make_text("key"));
  MAKE(v, m.make_map());
  MAKE(t, m.make_uint(3));
  STEP(v->map_set("three", t));
  MAKE(tag, m.make_tag(7, v));
  MAKE(mapping, m.make_map());
  STEP(mapping->map_put(k, tag));
  STEP(extra->append(mapping));
  const uint8_t mag[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  MAKE(big, m.make_bignum(mag, sizeof mag, false));
  STEP(extra->append(big));
  STEP(m.root()->append(extra));
  writer w3(a);
  STEP(encode(m, w3));

  mutable_document m2(a);
  STEP(to_mutable(joined, m2));

  const bytes seq = hex("01 7f 6161 6162 ff 83 01 02 03");
  sequence s(seq.data(), seq.size(), {}, a);
  document sd(a);
  size_t off = 0;
  size_t len = 0;
  STEP(s.next_document(sd, decode_copy_strings));
  STEP(s.next_document(sd, decode_copy_strings));
  STEP(s.next(off, len));
  return status::ok;
#undef STEP
#undef MAKE
}

TEST(DocumentMemory, EveryAllocationFailureIsOutOfMemoryAndLeaksNothing) {
  size_t failures = 0;
  for (size_t n = 0;; ++n) {
    SCOPED_TRACE(n);
    test_allocator t;
    t.fail_at = n;
    const status s = allocating_scenario(&t.hooks);
    EXPECT_EQ(t.live, 0u);
    EXPECT_TRUE(t.blocks.empty());
    EXPECT_FALSE(t.size_mismatch);
    if (s == status::ok) {
      EXPECT_LT(t.calls, n + 1) << "the last run must not have reached the failing call";
      break;
    }
    ASSERT_EQ(s, status::out_of_memory);
    ++failures;
    ASSERT_LT(n, 100000u);
  }
  EXPECT_GT(failures, 30u);  // many distinct allocation points were failed
}

}  // namespace
}  // namespace cbor_fast
