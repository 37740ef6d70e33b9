// Mutable documents, 0.4 additions: integer-key lookup, the getters of the
// immutable nodes, O(1) sibling iteration, and removal from arrays and maps.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

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

TEST(MutableEdit, AForcedFloatWidthHoldsTheValueItWrites) {
  // get_double() gave the value passed while the bits written were rounded:
  // 65536 as a half was written f97c00 (infinity) and read back as 65536.
  mutable_document m;
  struct row {
    const char* name;
    double value;
    float_width width;
    double want;
    uint64_t bits;
  };
  const row rows[] = {
      {"half_65536_overflows", 65536.0, float_width::half, HUGE_VAL, 0x7c00},
      {"half_65504_max", 65504.0, float_width::half, 65504.0, 0x7bff},
      {"half_65519_rounds_down", 65519.0, float_width::half, 65504.0, 0x7bff},
      {"half_65520_rounds_up", 65520.0, float_width::half, HUGE_VAL, 0x7c00},
      {"half_0_1", 0.1, float_width::half, 0.0999755859375, 0x2e66},
      {"half_minus_tiny_to_minus_zero", -1e-10, float_width::half, -0.0, 0x8000},
      {"single_0_1", 0.1, float_width::single, double(0.1f), 0x3dcccccd},
      {"single_1e39_overflows", 1e39, float_width::single, HUGE_VAL, 0x7f800000},
      {"double_0_1_kept", 0.1, float_width::double_, 0.1, 0x3fb999999999999a},
      {"shortest_0_1_kept", 0.1, float_width::shortest, 0.1, 0x3fb999999999999a},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.name);
    mutable_node* n = m.make_float(r.value, r.width);
    ASSERT_NE(n, nullptr);
    double got = 0;
    ASSERT_EQ(n->get_double(got), status::ok);
    EXPECT_EQ(got, r.want);
    EXPECT_EQ(std::signbit(got), std::signbit(r.want));
    uint64_t bits = 0;
    ASSERT_EQ(n->get_float_bits(bits), status::ok);
    EXPECT_EQ(bits, r.bits);
  }
}

// ---- the key index of maps of 16 pairs or more (since 0.5) ---------------------------

/// A map's pairs as the tests expect them: each key a text string, an
/// integer or (kind 2) a byte string the index never enters; each value an
/// unsigned integer.
struct model_key {
  int kind;  ///< 0 text, 1 integer, 2 bytes
  std::string text;
  int64_t number;
  bool operator==(const model_key& o) const {
    return kind == o.kind && (kind == 1 ? number == o.number : text == o.text);
  }
};

mutable_node* make_key(mutable_document& m, const model_key& k) {
  if (k.kind == 0) return m.make_text(k.text);
  if (k.kind == 1) return m.make_int(k.number);
  return m.make_bytes(k.text.data(), k.text.size());
}

/// The first pair's value with key k in the model, or -1.
int64_t model_find(const std::vector<std::pair<model_key, uint64_t>>& pairs, const model_key& k) {
  for (const auto& p : pairs)
    if (p.first == k) return int64_t(p.second);
  return -1;
}

int64_t node_value(const mutable_node* n) {
  uint64_t v = 0;
  if (n == nullptr) return -1;
  EXPECT_EQ(n->get_uint64(v), status::ok);
  return int64_t(v);
}

/// Every pair of the map, in order, equal to the model's.
void expect_pairs(const mutable_node* map, const std::vector<std::pair<model_key, uint64_t>>& want,
                  size_t step) {
  ASSERT_EQ(map->size(), want.size()) << "step " << step;
  for (size_t i = 0; i < want.size(); ++i) {
    const mutable_node* k = map->map_key(i);
    ASSERT_EQ(k->index(), 2 * i) << "step " << step;
    const model_key& w = want[i].first;
    if (w.kind == 1) {
      int64_t got = 0;
      ASSERT_EQ(k->get_int64(got), status::ok) << "step " << step;
      EXPECT_EQ(got, w.number) << "step " << step;
    } else if (w.kind == 0) {
      std::string_view got;
      ASSERT_EQ(k->get_text(got), status::ok) << "step " << step;
      EXPECT_EQ(got, w.text) << "step " << step;
    } else {
      byte_view got;
      ASSERT_EQ(k->get_bytes(got), status::ok) << "step " << step;
      EXPECT_EQ(std::string(reinterpret_cast<const char*>(got.data), got.size), w.text);
    }
    EXPECT_EQ(node_value(map->map_value(i)), int64_t(want[i].second)) << "step " << step;
  }
}

/// Random map_set / map_put / removals on one map, checked after every step
/// against a list searched linearly: the first pair with a key wins, keys of
/// another type never match (the text "1" and the integer 1, a byte string
/// and a text string of the same bytes), and removals keep the order. The
/// keys are few enough that the map crosses 16 pairs both ways many times.
void random_edits(mutable_document& m, uint32_t seed, size_t steps) {
  std::mt19937 rng(seed);
  // Text keys of 0-17 bytes (the hash reads 8 bytes at a time, then a
  // tail), integers at the 1/2/4/8-byte head boundaries and the ends of
  // int64, a byte string that equals a text key.
  std::vector<model_key> keys;
  for (const char* t : {"", "a", "1", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghijklmnop",
                        "abcdefghijklmnopq", "\xc3\xa9", "k1", "k2", "k3", "k4", "k5"})
    keys.push_back({0, t, 0});
  for (int64_t v :
       {int64_t(0), int64_t(1), int64_t(-1), int64_t(23), int64_t(24), int64_t(-24), int64_t(-25),
        int64_t(255), int64_t(256), int64_t(65536), INT64_MAX, INT64_MIN, int64_t(-4294967297)})
    keys.push_back({1, "", v});
  keys.push_back({2, "a", 0});
  keys.push_back({2, "", 0});
  for (int i = 0; i < 40; ++i) keys.push_back({0, "key" + std::to_string(i), 0});

  mutable_node* map = m.make_map();
  ASSERT_EQ(m.set_root(map), status::ok);
  std::vector<std::pair<model_key, uint64_t>> want;
  uint64_t next_value = 0;
  for (size_t step = 0; step < steps; ++step) {
    const model_key& k = keys[rng() % keys.size()];
    const uint64_t value = next_value++;
    switch (rng() % 8) {
      case 0:
      case 1:
      case 2:
        if (k.kind == 0) {
          ASSERT_EQ(map->map_set(k.text, m.make_uint(value)), status::ok);
          bool found = false;
          for (auto& p : want)
            if (p.first == k) {
              p.second = value;
              found = true;
              break;
            }
          if (!found) want.push_back({k, value});
          break;
        }
        [[fallthrough]];
      case 3:
      case 4:  // duplicates allowed: the index must keep the first
        ASSERT_EQ(map->map_put(make_key(m, k), m.make_uint(value)), status::ok);
        want.push_back({k, value});
        break;
      case 5: {
        const status s = k.kind == 0   ? map->map_remove(k.text)
                         : k.kind == 1 ? map->map_remove_int(k.number)
                                       : map->map_remove_at(want.empty() ? 0 : rng() % want.size());
        size_t at = want.size();
        if (k.kind != 2) {
          for (size_t i = 0; i < want.size(); ++i)
            if (want[i].first == k) {
              at = i;
              break;
            }
        } else if (s == status::ok) {
          // map_remove_at took a random pair: find which by what is left.
          at = SIZE_MAX;
        }
        if (at == SIZE_MAX) {
          // Rebuild the model from the map for map_remove_at's random pick:
          // the pairs must be the model's with one removed.
          ASSERT_EQ(map->size() + 1, want.size()) << "step " << step;
          size_t gone = want.size() - 1;
          for (size_t i = 0; i < map->size(); ++i)
            if (node_value(map->map_value(i)) != int64_t(want[i].second)) {
              gone = i;
              break;
            }
          want.erase(want.begin() + long(gone));
        } else if (at == want.size()) {
          EXPECT_EQ(s, status::out_of_range) << "step " << step;
        } else {
          EXPECT_EQ(s, status::ok) << "step " << step;
          want.erase(want.begin() + long(at));
        }
        break;
      }
      default: break;  // lookups only
    }
    // Every key looked up after every step, through find() and find_int().
    for (const model_key& q : keys) {
      if (q.kind == 0) {
        EXPECT_EQ(node_value(map->find(q.text)), model_find(want, q))
            << "step " << step << " '" << q.text << "'";
      } else if (q.kind == 1) {
        EXPECT_EQ(node_value(map->find_int(q.number)), model_find(want, q))
            << "step " << step << " " << q.number;
      }
    }
    expect_pairs(map, want, step);
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(MutableIndex, RandomEditsAgreeWithALinearSearch) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    doc_test::test_allocator a;
    {
      mutable_document m(&a.hooks);
      random_edits(m, seed, 2000);
    }
    // Every block (child vectors one slot longer, the indexes) handed back
    // with the size it was allocated with.
    EXPECT_FALSE(a.size_mismatch) << "seed " << seed;
    EXPECT_EQ(a.live, 0u) << "seed " << seed;
  }
}

TEST(MutableIndex, EveryAllocationRefusedInTurn) {
  // A refused index leaves the search linear (and the results the same); a
  // refused child vector is out_of_memory as before.
  for (size_t fail = 0; fail < 60; ++fail) {
    doc_test::test_allocator a;
    a.fail_at = fail;
    {
      mutable_document m(&a.hooks);
      mutable_node* map = m.make_map();
      if (map == nullptr) continue;
      // Set i for i < done went through; the refusal, if any, came after.
      int done = 0;
      status last = status::ok;
      for (int i = 0; i < 40; ++i) {
        mutable_node* v = m.make_uint(uint64_t(i));
        if (v == nullptr) break;
        last = map->map_set("key" + std::to_string(i % 30), v);
        if (last != status::ok) break;
        ++done;
      }
      if (last != status::ok) {
        EXPECT_EQ(last, status::out_of_memory) << "fail at " << fail;
      }
      for (int k = 0; k < 30; ++k) {
        const int want = k + 30 < done ? k + 30 : k < done ? k : -1;
        EXPECT_EQ(node_value(map->find("key" + std::to_string(k))), want) << "fail at " << fail;
      }
      if (done > 3) {
        EXPECT_EQ(map->map_remove("key3"), status::ok) << "fail at " << fail;
        EXPECT_EQ(map->find("key3"), nullptr) << "fail at " << fail;
      }
      if (done == 40) {
        EXPECT_EQ(node_value(map->find("key29")), 29) << "fail at " << fail;
      }
    }
    EXPECT_FALSE(a.size_mismatch) << "fail at " << fail;
    EXPECT_EQ(a.live, 0u) << "fail at " << fail;
  }
}

TEST(MutableIndex, ManyKeysThroughMapSet) {
  // 100,000 keys set, then each set again and removed in turn: the linear
  // search took n^2/2 key compares for this (160,000 keys: 50 s).
  mutable_document m;
  mutable_node* map = m.make_map();
  ASSERT_EQ(m.set_root(map), status::ok);
  constexpr int n = 100000;
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(map->map_set("k" + std::to_string(i), m.make_uint(uint64_t(i))), status::ok);
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(map->map_set("k" + std::to_string(i), m.make_uint(uint64_t(i) + n)), status::ok);
  ASSERT_EQ(map->size(), size_t(n));
  for (int i = 0; i < n; i += 997) {
    EXPECT_EQ(node_value(map->find("k" + std::to_string(i))), int64_t(i) + n);
    EXPECT_EQ(map->map_key(size_t(i))->index(), 2 * size_t(i));
  }
  EXPECT_EQ(map->find("k100000"), nullptr);
  // Half of them removed from the end, by key and by index: each removal
  // takes its key out of the index (a rebuild per removal made this
  // quadratic) and moves no pair.
  for (int i = n - 1; i >= n / 2; --i) {
    if (i % 2 == 0) {
      ASSERT_EQ(map->map_remove("k" + std::to_string(i)), status::ok) << i;
    } else {
      ASSERT_EQ(map->map_remove_at(size_t(i)), status::ok) << i;
    }
  }
  ASSERT_EQ(map->size(), size_t(n / 2));
  for (int i = 0; i < n; i += 499)
    EXPECT_EQ(node_value(map->find("k" + std::to_string(i))), i < n / 2 ? int64_t(i) + n : -1) << i;
  // Integer keys: find_int() through the same index.
  mutable_node* ints = m.make_map();
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(ints->map_put(m.make_int(-i), m.make_uint(uint64_t(i))), status::ok);
  ASSERT_EQ(ints->map_remove_int(-5), status::ok);  // builds the index
  for (int64_t i = 0; i < n; i += 991) EXPECT_EQ(node_value(ints->find_int(-i)), i == 5 ? -1 : i);
  EXPECT_EQ(ints->find_int(1), nullptr);
}

}  // namespace
}  // namespace cbor_fast
