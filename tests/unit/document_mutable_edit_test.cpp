// Mutable documents, 0.4 additions: integer-key lookup, the getters of the
// immutable nodes, O(1) sibling iteration, and removal from arrays and maps.
#include <gtest/gtest.h>

#include <string>

#include "cbor_fast/document.hpp"
#include "unit/document_test_util.hpp"

namespace cbor_fast {
namespace {

using doc_test::hex;
using doc_test::to_hex;

std::string enc(const mutable_document& m) {
  writer w;
  EXPECT_EQ(encode(m, w), status::ok);
  return to_hex(w.data(), w.size());
}

/// {1: "a", -1: "b", "k": "c", 0x1801-style 24: "d", -25: "e"} built in code.
mutable_node* build(mutable_document& m) {
  mutable_node* map = m.make_map();
  map->map_put(m.make_uint(1), m.make_text("a"));
  map->map_put(m.make_int(-1), m.make_text("b"));
  map->map_put(m.make_text("k"), m.make_text("c"));
  map->map_put(m.make_uint(24), m.make_text("d"));
  map->map_put(m.make_int(-25), m.make_text("e"));
  m.set_root(map);
  return map;
}

TEST(MutableEdit, FindInt) {
  mutable_document m;
  mutable_node* map = build(m);
  std::string_view t;
  struct row {
    int64_t key;
    const char* want;
  };
  for (const row r : {row{1, "a"}, row{-1, "b"}, row{24, "d"}, row{-25, "e"}}) {
    SCOPED_TRACE(r.key);
    mutable_node* v = map->find_int(r.key);
    ASSERT_NE(v, nullptr);
    ASSERT_EQ(v->get_text(t), status::ok);
    EXPECT_EQ(t, r.want);
  }
  EXPECT_EQ(map->find_int(0), nullptr);
  EXPECT_EQ(map->find_int(23), nullptr);
  EXPECT_EQ(map->find_int(INT64_MIN), nullptr);
  EXPECT_EQ(map->find_int(-2), nullptr);
  EXPECT_EQ(map->at(0), nullptr);  // not an array
  mutable_node* arr = m.make_array();
  EXPECT_EQ(arr->find_int(1), nullptr);
  // Boundary keys: INT64_MAX / INT64_MIN.
  mutable_node* big = m.make_map();
  big->map_put(m.make_int(INT64_MAX), m.make_uint(1));
  big->map_put(m.make_int(INT64_MIN), m.make_uint(2));
  uint64_t u = 0;
  ASSERT_NE(big->find_int(INT64_MAX), nullptr);
  ASSERT_EQ(big->find_int(INT64_MAX)->get_uint64(u), status::ok);
  EXPECT_EQ(u, 1u);
  ASSERT_EQ(big->find_int(INT64_MIN)->get_uint64(u), status::ok);
  EXPECT_EQ(u, 2u);
}

TEST(MutableEdit, RemoveFromMaps) {
  mutable_document m;
  mutable_node* map = build(m);
  mutable_node* b = map->find_int(-1);
  ASSERT_EQ(map->map_remove_int(-1), status::ok);
  EXPECT_EQ(map->size(), 4u);
  EXPECT_FALSE(b->is_placed());
  EXPECT_EQ(b->parent(), nullptr);
  EXPECT_EQ(map->map_remove_int(-1), status::out_of_range);
  ASSERT_EQ(map->map_remove("k"), status::ok);
  EXPECT_EQ(map->map_remove("k"), status::out_of_range);
  EXPECT_EQ(map->map_remove(""), status::out_of_range);
  EXPECT_EQ(enc(m),
            "a3"
            "01"
            "6161"
            "1818"
            "6164"
            "3818"
            "6165");
  ASSERT_EQ(map->map_remove_at(1), status::ok);  // 24: "d"
  EXPECT_EQ(map->map_remove_at(2), status::out_of_range);
  EXPECT_EQ(enc(m),
            "a2"
            "01"
            "6161"
            "3818"
            "6165");
  // A removed node may be placed again.
  ASSERT_EQ(map->map_put(m.make_int(-1), b), status::ok);
  EXPECT_EQ(enc(m),
            "a3"
            "01"
            "6161"
            "3818"
            "6165"
            "20"
            "6162");
  ASSERT_EQ(map->map_remove_at(0), status::ok);
  ASSERT_EQ(map->map_remove_at(0), status::ok);
  ASSERT_EQ(map->map_remove_at(0), status::ok);
  EXPECT_EQ(map->map_remove_at(0), status::out_of_range);
  EXPECT_EQ(enc(m), "a0");
  // Wrong types.
  mutable_node* arr = m.make_array();
  EXPECT_EQ(arr->map_remove("k"), status::type_mismatch);
  EXPECT_EQ(arr->map_remove_int(1), status::type_mismatch);
  EXPECT_EQ(arr->map_remove_at(0), status::type_mismatch);
  EXPECT_EQ(map->remove_at(0), status::type_mismatch);
}

TEST(MutableEdit, RemoveFromArraysWhileIterating) {
  mutable_document m;
  mutable_node* arr = m.make_array();
  for (uint64_t i = 0; i < 10; ++i) arr->append(m.make_uint(i));
  m.set_root(arr);
  EXPECT_EQ(arr->remove_at(10), status::out_of_range);
  // By index: remove the odd values without advancing after a removal.
  for (size_t i = 0; i < arr->size();) {
    uint64_t v = 0;
    arr->at(i)->get_uint64(v);
    if (v % 2 == 1)
      ASSERT_EQ(arr->remove_at(i), status::ok);
    else
      ++i;
  }
  EXPECT_EQ(enc(m),
            "85"
            "00"
            "02"
            "04"
            "06"
            "08");
  // By sibling: take next before removing; remove multiples of 4.
  for (mutable_node* c = arr->first_child(); c != nullptr;) {
    mutable_node* next = c->next_sibling();
    uint64_t v = 0;
    c->get_uint64(v);
    if (v % 4 == 0) {
      ASSERT_EQ(c->parent(), arr);
      ASSERT_EQ(arr->remove_at(c->index()), status::ok);
      EXPECT_EQ(c->next_sibling(), nullptr);  // detached
      EXPECT_EQ(c->parent(), nullptr);
    }
    c = next;
  }
  EXPECT_EQ(enc(m),
            "82"
            "02"
            "06");
  EXPECT_EQ(arr->at(1)->index(), 1u);
  ASSERT_EQ(arr->remove_at(1), status::ok);
  ASSERT_EQ(arr->remove_at(0), status::ok);
  EXPECT_EQ(arr->remove_at(0), status::out_of_range);
  EXPECT_EQ(enc(m), "80");
}

TEST(MutableEdit, SiblingsAndParents) {
  const auto in = hex("a2 01 82 02 c1 03 61 6b f6");
  document d;
  ASSERT_EQ(decode(in.data(), in.size(), d), status::ok);
  mutable_document m;
  ASSERT_EQ(to_mutable(d, m), status::ok);
  mutable_node* map = m.root();
  EXPECT_EQ(map->parent(), nullptr);
  EXPECT_EQ(map->next_sibling(), nullptr);
  // Walk every node depth-first with first_child / next_sibling / parent.
  std::string order;
  mutable_node* n = map;
  for (;;) {
    order += std::to_string(int(n->type())) + ",";
    if (mutable_node* c = n->first_child()) {
      n = c;
      continue;
    }
    while (n != nullptr && n->next_sibling() == nullptr) n = n->parent();
    if (n == nullptr) break;
    n = n->next_sibling();
  }
  // map, 1, array, 2, tag, 3, "k", null
  EXPECT_EQ(order, "6,1,5,1,7,1,4,10,");
  mutable_node* tag = map->map_value(0)->at(1);
  EXPECT_EQ(tag->first_child()->parent(), tag);
  EXPECT_EQ(tag->first_child()->next_sibling(), nullptr);
  // Replacing keeps indices right.
  mutable_node* arr = map->map_value(0);
  ASSERT_EQ(arr->array_set(0, m.make_uint(9)), status::ok);
  EXPECT_EQ(arr->first_child()->next_sibling(), tag);
  ASSERT_EQ(map->map_set("k", m.make_bool(true)), status::ok);
  EXPECT_EQ(map->map_key(1)->next_sibling(), map->map_value(1));
}

TEST(MutableEdit, GettersOfImmutableNodes) {
  mutable_document m;
  const uint8_t mag[] = {1, 0, 0, 0, 0, 0, 0, 0, 0};
  mutable_node* big = m.make_bignum(mag, sizeof mag, true);
  uint64_t raw = 7;
  byte_view v;
  bool neg = false;
  ASSERT_EQ(big->get_bignum(raw, v, neg), status::ok);
  EXPECT_EQ(raw, 0u);
  EXPECT_EQ(v.size, 9u);
  EXPECT_TRUE(neg);
  mutable_node* small = m.make_negative(UINT64_MAX);
  ASSERT_EQ(small->get_bignum(raw, v, neg), status::ok);
  EXPECT_EQ(raw, UINT64_MAX);
  EXPECT_EQ(v.data, nullptr);
  EXPECT_TRUE(neg);
  EXPECT_EQ(m.make_text("x")->get_bignum(raw, v, neg), status::type_mismatch);
  EXPECT_EQ(m.make_tag(4, m.make_bytes("a", 1))->get_bignum(raw, v, neg), status::type_mismatch);
  uint64_t bits = 0;
  ASSERT_EQ(m.make_float(1.0)->get_float_bits(bits), status::ok);
  EXPECT_EQ(bits, 0x3c00u);
  ASSERT_EQ(m.make_float(1.0, float_width::single)->get_float_bits(bits), status::ok);
  EXPECT_EQ(bits, 0x3f800000u);
  ASSERT_EQ(m.make_float(1.0, float_width::double_)->get_float_bits(bits), status::ok);
  EXPECT_EQ(bits, 0x3ff0000000000000u);
  ASSERT_EQ(m.make_float(100000.0)->get_float_bits(bits), status::ok);
  EXPECT_EQ(bits, 0x47c35000u);
  EXPECT_EQ(m.make_uint(1)->get_float_bits(bits), status::type_mismatch);
}

}  // namespace
}  // namespace cbor_fast
