// Helpers shared by the document tests: hex, encoding to hex, files and a
// checking allocator that can fail at a chosen call.
#ifndef CBOR_FAST_TESTS_UNIT_DOCUMENT_TEST_UTIL_HPP
#define CBOR_FAST_TESTS_UNIT_DOCUMENT_TEST_UTIL_HPP

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "cbor_fast/document.hpp"

namespace cbor_fast {
namespace doc_test {

using bytes = std::vector<uint8_t>;

inline bytes hex(const char* h) {
  bytes out;
  int high = -1;
  for (; *h != 0; ++h) {
    const char c = *h;
    int v;
    if (c >= '0' && c <= '9')
      v = c - '0';
    else if (c >= 'a' && c <= 'f')
      v = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      v = c - 'A' + 10;
    else
      continue;
    if (high < 0) {
      high = v;
    } else {
      out.push_back(uint8_t(high * 16 + v));
      high = -1;
    }
  }
  EXPECT_LT(high, 0) << "odd number of hex digits";
  return out;
}

inline std::string to_hex(const uint8_t* data, size_t size) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < size; ++i) {
    out.push_back(digits[data[i] >> 4]);
    out.push_back(digits[data[i] & 15]);
  }
  return out;
}
inline std::string to_hex(const bytes& b) { return to_hex(b.data(), b.size()); }
inline std::string norm(const char* h) { return to_hex(hex(h)); }

/// Encodes a document (or node) into an owned writer and returns the hex.
inline std::string encode_hex(const document& d, uint32_t flags = encode_none) {
  writer w;
  const status s = encode(d, w, flags);
  EXPECT_EQ(s, status::ok);
  EXPECT_EQ(w.finish(), status::ok);
  return to_hex(w.data(), w.size());
}
inline std::string encode_hex(const mutable_document& d) {
  writer w;
  const status s = encode(d, w);
  EXPECT_EQ(s, status::ok);
  EXPECT_EQ(w.finish(), status::ok);
  return to_hex(w.data(), w.size());
}

/// Allocation hooks over malloc that check every size handed back, count
/// live bytes and can fail the n-th call (malloc or realloc, from 0).
struct test_allocator {
  size_t fail_at = SIZE_MAX;
  size_t calls = 0;
  size_t live = 0;
  std::map<void*, size_t> blocks;
  bool size_mismatch = false;
  allocator hooks{&do_malloc, &do_realloc, &do_free, this};

  static void* do_malloc(void* ctx, size_t n) {
    auto* t = static_cast<test_allocator*>(ctx);
    if (t->calls++ == t->fail_at) return nullptr;
    void* p = std::malloc(n == 0 ? 1 : n);
    if (p != nullptr) {
      t->blocks[p] = n;
      t->live += n;
    }
    return p;
  }
  static void* do_realloc(void* ctx, void* old, size_t old_size, size_t n) {
    auto* t = static_cast<test_allocator*>(ctx);
    if (t->calls++ == t->fail_at) return nullptr;
    auto it = t->blocks.find(old);
    if (it == t->blocks.end() || it->second != old_size) t->size_mismatch = true;
    void* p = std::realloc(old, n == 0 ? 1 : n);
    if (p == nullptr) return nullptr;
    if (it != t->blocks.end()) {
      t->live -= it->second;
      t->blocks.erase(it);
    }
    t->blocks[p] = n;
    t->live += n;
    return p;
  }
  static void do_free(void* ctx, void* p, size_t n) {
    auto* t = static_cast<test_allocator*>(ctx);
    if (p == nullptr) return;
    auto it = t->blocks.find(p);
    if (it == t->blocks.end() || it->second != n) {
      t->size_mismatch = true;
    } else {
      t->live -= n;
      t->blocks.erase(it);
    }
    std::free(p);
  }
};

}  // namespace doc_test
}  // namespace cbor_fast

#endif  // CBOR_FAST_TESTS_UNIT_DOCUMENT_TEST_UTIL_HPP
