// Benchmark inputs and libcbor_fast's reference operations (see common.hpp).
#include "common.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <utility>

#include "capi_loop.hpp"
#include "cbor_fast.h"

namespace cbor_fast_bench {

using cbor_fast::item;
using cbor_fast::item_type;
using cbor_fast::status;

std::string describe(const checksum& c) {
  std::ostringstream os;
  os << "{items " << c.items << ", ints " << c.ints << ", lengths " << c.lengths << ", firsts "
     << c.firsts << ", floats " << c.floats << ", tags " << c.tags << ", trues " << c.trues << "}";
  return os.str();
}

void die(const std::string& message) {
  std::fprintf(stderr, "cbor_fast benchmarks: %s\n", message.c_str());
  std::fflush(stderr);
  std::abort();
}

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return {};
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

namespace {

// Inputs are built by this small encoder rather than by the library's writer,
// so that the encode benchmarks can compare the writer's output against bytes
// it did not produce itself.
class raw_encoder {
 public:
  std::vector<uint8_t> out;

  void head(uint8_t major, uint64_t arg) {
    const uint8_t m = uint8_t(major << 5);
    if (arg < 24) {
      out.push_back(uint8_t(m | arg));
    } else if (arg <= 0xff) {
      out.push_back(uint8_t(m | 24));
      big_endian(arg, 1);
    } else if (arg <= 0xffff) {
      out.push_back(uint8_t(m | 25));
      big_endian(arg, 2);
    } else if (arg <= 0xffffffffu) {
      out.push_back(uint8_t(m | 26));
      big_endian(arg, 4);
    } else {
      out.push_back(uint8_t(m | 27));
      big_endian(arg, 8);
    }
  }
  void string(uint8_t major, const void* data, size_t size) {
    head(major, size);
    const uint8_t* p = static_cast<const uint8_t*>(data);
    out.insert(out.end(), p, p + size);
  }
  void text(const std::string& s) { string(3, s.data(), s.size()); }
  void simple(uint8_t v) { out.push_back(uint8_t(0xe0 | v)); }  // v < 24
  void half(uint16_t bits) {
    out.push_back(0xf9);
    big_endian(bits, 2);
  }
  void single(uint32_t bits) {
    out.push_back(0xfa);
    big_endian(bits, 4);
  }
  void double_(uint64_t bits) {
    out.push_back(0xfb);
    big_endian(bits, 8);
  }

 private:
  void big_endian(uint64_t v, int n) {
    for (int i = n - 1; i >= 0; --i) out.push_back(uint8_t(v >> (8 * i)));
  }
};

// splitmix64: reproducible inputs without <random>'s distribution differences.
class rng {
 public:
  explicit rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
  }
  /// Uniform in [lo, hi] (bias is irrelevant here).
  uint64_t range(uint64_t lo, uint64_t hi) { return lo + next() % (hi - lo + 1); }

 private:
  uint64_t state_;
};

void ascii(rng& r, size_t size, std::string& s) {
  s.clear();
  for (size_t i = 0; i < size; ++i) s.push_back(char('a' + r.next() % 26));
}

// Text with the mix of a real multilingual document: mostly ASCII, some 2-,
// 3- and 4-byte sequences, never a surrogate.
void utf8_text(rng& r, size_t size, std::string& s) {
  s.clear();
  while (s.size() < size) {
    const uint64_t kind = r.next() % 10;
    const size_t room = size - s.size();
    if (kind < 6 || room < 4) {
      s.push_back(char('a' + r.next() % 26));
    } else if (kind < 8) {
      const uint32_t cp = uint32_t(r.range(0x80, 0x7ff));
      s.push_back(char(0xc0 | (cp >> 6)));
      s.push_back(char(0x80 | (cp & 0x3f)));
    } else if (kind < 9) {
      uint32_t cp = uint32_t(r.range(0x800, 0xffff));
      if (cp >= 0xd800 && cp <= 0xdfff) cp -= 0x800;
      s.push_back(char(0xe0 | (cp >> 12)));
      s.push_back(char(0x80 | ((cp >> 6) & 0x3f)));
      s.push_back(char(0x80 | (cp & 0x3f)));
    } else {
      const uint32_t cp = uint32_t(r.range(0x10000, 0x10ffff));
      s.push_back(char(0xf0 | (cp >> 18)));
      s.push_back(char(0x80 | ((cp >> 12) & 0x3f)));
      s.push_back(char(0x80 | ((cp >> 6) & 0x3f)));
      s.push_back(char(0x80 | (cp & 0x3f)));
    }
  }
}

template <typename F>
input array_of(const char* name, uint32_t peers, size_t count, uint64_t seed, F&& each) {
  raw_encoder e;
  rng r(seed);
  e.head(4, count);
  for (size_t i = 0; i < count; ++i) each(e, r, i);
  input in;
  in.name = name;
  in.group = "kind";
  in.bytes = std::move(e.out);
  in.peers = peers;
  return in;
}

// Containers of `lo..hi` children, `count` of them in the outer array.
template <typename F>
input nested(const char* name, uint32_t peers, size_t count, uint64_t lo, uint64_t hi,
             uint64_t seed, F&& body) {
  return array_of(name, peers, count, seed,
                  [&](raw_encoder& e, rng& r, size_t) { body(e, r, r.range(lo, hi)); });
}

void small_ints(raw_encoder& e, rng& r, uint64_t n) {
  e.head(4, n);
  for (uint64_t j = 0; j < n; ++j) e.head(0, r.next() % 24);
}
void text_key_map(raw_encoder& e, rng& r, uint64_t n) {
  e.head(5, n);
  for (uint64_t j = 0; j < n; ++j) {
    e.text("key" + std::to_string(j));  // unique: nlohmann keeps one value per key
    e.head(0, r.next() % 24);
  }
}
void int_key_map(raw_encoder& e, rng& r, uint64_t n) {
  e.head(5, n);
  for (uint64_t j = 0; j < n; ++j) {
    e.head(0, j);
    e.head(0, r.next() % 24);
  }
}

}  // namespace

std::vector<input> make_kind_inputs() {
  constexpr size_t k_many = 65536;
  constexpr uint64_t k_two32 = uint64_t(1) << 32;
  std::vector<input> v;
  std::string s;

  v.push_back(array_of("undefined", peer_libcbor, k_many, 1,
                       [](raw_encoder& e, rng&, size_t) { e.simple(23); }));
  v.push_back(
      array_of("null", peer_all, k_many, 2, [](raw_encoder& e, rng&, size_t) { e.simple(22); }));
  v.push_back(array_of("bool", peer_all, k_many, 3, [](raw_encoder& e, rng& r, size_t) {
    e.simple(uint8_t(20 + r.next() % 2));
  }));
  // Finite values; no NaN or infinity (their widened bit patterns are not
  // portable between implementations). Halves are normal only: libcbor 0.8's
  // cbor_encode_half() truncates subnormal halves (0x0003 comes out as 0x0002),
  // which the encode check would reject.
  v.push_back(array_of("float16", peer_all, k_many, 4, [](raw_encoder& e, rng& r, size_t) {
    const uint16_t sign = uint16_t((r.next() & 1) << 15);
    const uint16_t exponent = uint16_t(r.range(1, 30) << 10);
    e.half(uint16_t(sign | exponent | (r.next() & 0x3ff)));
  }));
  v.push_back(array_of("float32", peer_all, k_many, 5, [](raw_encoder& e, rng& r, size_t) {
    uint32_t f = uint32_t(r.next());
    if ((f & 0x7f800000u) == 0x7f800000u) f ^= 0x40000000u;
    e.single(f);
  }));
  v.push_back(array_of("float64", peer_all, k_many, 6, [](raw_encoder& e, rng& r, size_t) {
    uint64_t d = r.next();
    if ((d & 0x7ff0000000000000u) == 0x7ff0000000000000u) d ^= 0x4000000000000000u;
    e.double_(d);
  }));
  // Unsigned integers by head size: 1 (0..23), 2, 3, 5 and 9 bytes.
  v.push_back(array_of("uint_h1", peer_all, k_many, 7,
                       [](raw_encoder& e, rng& r, size_t) { e.head(0, r.range(0, 23)); }));
  v.push_back(array_of("uint_h2", peer_all, k_many, 8,
                       [](raw_encoder& e, rng& r, size_t) { e.head(0, r.range(24, 255)); }));
  v.push_back(array_of("uint_h3", peer_all, k_many, 9,
                       [](raw_encoder& e, rng& r, size_t) { e.head(0, r.range(256, 65535)); }));
  v.push_back(array_of("uint_h5", peer_all, k_many, 10, [](raw_encoder& e, rng& r, size_t) {
    e.head(0, r.range(65536, k_two32 - 1));
  }));
  v.push_back(array_of("uint_h9", peer_all, k_many, 11, [](raw_encoder& e, rng& r, size_t) {
    const uint64_t x = r.next();
    e.head(0, x < k_two32 ? x + k_two32 : x);
  }));
  v.push_back(array_of("negint_h1", peer_all, k_many, 12,
                       [](raw_encoder& e, rng& r, size_t) { e.head(1, r.range(0, 23)); }));
  // Down to INT64_MIN only: nlohmann::json stores negative integers as int64_t.
  v.push_back(array_of("negint_h9", peer_all, k_many, 13, [](raw_encoder& e, rng& r, size_t) {
    e.head(1, r.range(k_two32, uint64_t(INT64_MAX)));
  }));
  v.push_back(array_of("bignum", peer_libcbor, 16384, 14, [](raw_encoder& e, rng& r, size_t) {
    uint8_t mag[16];
    for (uint8_t& b : mag) b = uint8_t(r.next());
    mag[0] |= 1;  // 128 bits: never fits a plain integer
    e.head(6, 2 + r.next() % 2);
    e.string(2, mag, sizeof mag);
  }));
  v.push_back(array_of("text_0_23", peer_all, k_many, 15, [&s](raw_encoder& e, rng& r, size_t) {
    ascii(r, size_t(r.range(0, 23)), s);
    e.text(s);
  }));
  v.push_back(array_of("text_24_255", peer_all, 8192, 16, [&s](raw_encoder& e, rng& r, size_t) {
    ascii(r, size_t(r.range(24, 255)), s);
    e.text(s);
  }));
  v.push_back(array_of("text_256_65535", peer_all, 32, 17, [&s](raw_encoder& e, rng& r, size_t) {
    ascii(r, size_t(r.range(256, 65535)), s);
    e.text(s);
  }));
  v.push_back(array_of("text_64k", peer_all, 16, 18, [&s](raw_encoder& e, rng& r, size_t) {
    ascii(r, 65536, s);
    e.text(s);
  }));
  v.push_back(
      array_of("text_utf8_24_255", peer_all, 8192, 19, [&s](raw_encoder& e, rng& r, size_t) {
        utf8_text(r, size_t(r.range(24, 255)), s);
        e.text(s);
      }));
  // Byte strings: 16 B against 1 MiB and 16 MiB shows whether reading a string
  // costs anything per byte (zero-copy: it should not).
  const auto bytes_of = [](size_t size) {
    return [size](raw_encoder& e, rng& r, size_t) {
      e.head(2, size);
      const size_t at = e.out.size();
      e.out.resize(at + size);
      for (size_t i = 0; i < size; i += 8) {
        const uint64_t x = r.next();
        std::memcpy(e.out.data() + at + i, &x, size - i < 8 ? size - i : 8);
      }
    };
  };
  v.push_back(array_of("bytes_16", peer_all, k_many, 20, bytes_of(16)));
  v.push_back(array_of("bytes_1M", peer_all, 4, 21, bytes_of(size_t(1) << 20)));
  v.push_back(array_of("bytes_16M", peer_all, 1, 22, bytes_of(size_t(16) << 20)));
  // Tag 1 (epoch-based date/time) over an integer of seconds.
  v.push_back(array_of("date", peer_libcbor, 16384, 23, [](raw_encoder& e, rng& r, size_t) {
    e.head(6, 1);
    e.head(0, r.range(1600000000, 1800000000));
  }));
  // An unassigned 2-byte tag number over a small integer.
  v.push_back(array_of("tag", peer_libcbor, 16384, 24, [](raw_encoder& e, rng& r, size_t) {
    e.head(6, r.range(256, 65535));
    e.head(0, r.range(0, 23));
  }));
  v.push_back(nested("array_0_23", peer_all, 5000, 0, 23, 25, small_ints));
  v.push_back(nested("array_24_255", peer_all, 450, 24, 255, 26, small_ints));
  v.push_back(nested("array_256_65535", peer_all, 4, 256, 65535, 27, small_ints));
  v.push_back(nested("array_100k", peer_all, 1, 100000, 100000, 28, small_ints));
  v.push_back(nested("map_text_0_23", peer_all, 2500, 0, 23, 29, text_key_map));
  v.push_back(nested("map_text_24_255", peer_all, 225, 24, 255, 30, text_key_map));
  v.push_back(nested("map_text_256_65535", peer_all, 2, 256, 65535, 31, text_key_map));
  v.push_back(nested("map_text_100k", peer_all, 1, 100000, 100000, 32, text_key_map));
  v.push_back(nested("map_int_0_23", peer_libcbor, 2500, 0, 23, 33, int_key_map));
  v.push_back(nested("map_int_24_255", peer_libcbor, 225, 24, 255, 34, int_key_map));
  v.push_back(nested("map_int_256_65535", peer_libcbor, 2, 256, 65535, 35, int_key_map));
  v.push_back(nested("map_int_100k", peer_libcbor, 1, 100000, 100000, 36, int_key_map));
  // Deep nesting: 500 arrays of one, around a small integer.
  {
    input in;
    in.name = "nested_500";
    in.group = "kind";
    in.bytes.assign(500, 0x81);
    in.bytes.push_back(0x01);
    v.push_back(std::move(in));
  }
  return v;
}

std::vector<input> make_corpus_inputs(const std::string& dir) {
  std::vector<input> v;
  for (const char* name : {"twitter", "citm_catalog", "canada"}) {
    const std::string path = dir + "/" + name + ".cbor";
    input in;
    in.name = name;
    in.group = "corpus";
    in.bytes = read_file(path);
    if (in.bytes.empty()) {
      std::fprintf(stderr, "cbor_fast benchmarks: %s not found: corpus rows skipped\n",
                   path.c_str());
      continue;
    }
    v.push_back(std::move(in));
  }
  return v;
}

namespace {

// The byte ranges of the elements of the array under key `key` of the top-level map.
std::vector<std::pair<size_t, size_t>> elements_under(const std::vector<uint8_t>& doc,
                                                      std::string_view key) {
  std::vector<std::pair<size_t, size_t>> out;
  cbor_fast::reader r(doc.data(), doc.size());
  item it;
  if (r.next(it) != status::ok || it.type != item_type::map) return out;
  while (r.next(it) == status::ok && it.type != item_type::end) {
    const bool match = it.type == item_type::text_string && it.text() == key;
    if (!match) {
      if (r.skip() != status::ok) return out;  // the value
      continue;
    }
    if (r.next(it) != status::ok || it.type != item_type::array) return out;
    for (uint64_t i = 0; i < it.count(); ++i) {
      const size_t start = r.offset();
      if (r.skip() != status::ok) return {};
      out.emplace_back(start, r.offset());
    }
    break;
  }
  return out;
}

}  // namespace

std::vector<input> make_sequence_inputs(const std::string& dir) {
  constexpr size_t k_docs = 1000;
  std::vector<input> v;

  // Small records of the kind a log or message stream carries.
  {
    raw_encoder e;
    rng r(40);
    std::string s;
    for (size_t i = 0; i < k_docs; ++i) {
      const uint64_t tags = r.next() % 4;
      e.head(5, 6);
      e.text("id");
      e.head(0, 100000 + i);
      e.text("name");
      ascii(r, size_t(r.range(4, 16)), s);
      e.text(s);
      e.text("score");
      const double score = double(r.next() % 100000) / 8.0;
      uint64_t bits;
      std::memcpy(&bits, &score, sizeof bits);
      e.double_(bits);
      e.text("active");
      e.simple(uint8_t(20 + r.next() % 2));
      e.text("delta");
      e.head(1, r.next() % 1000);
      e.text("tags");
      e.head(4, tags);
      for (uint64_t t = 0; t < tags; ++t) {
        ascii(r, size_t(r.range(2, 8)), s);
        e.text(s);
      }
    }
    input in;
    in.name = "seq_records";
    in.group = "sequence";
    in.bytes = std::move(e.out);
    v.push_back(std::move(in));
  }

  // 1000 real documents: the entries of citm_catalog's "performances" array, cycled.
  {
    const std::vector<uint8_t> citm = read_file(dir + "/citm_catalog.cbor");
    const auto parts = elements_under(citm, "performances");
    if (parts.empty()) {
      std::fprintf(stderr,
                   "cbor_fast benchmarks: no citm_catalog.cbor performances: "
                   "seq_citm skipped\n");
    } else {
      input in;
      in.name = "seq_citm";
      in.group = "sequence";
      for (size_t i = 0; i < k_docs; ++i) {
        const auto& p = parts[i % parts.size()];
        in.bytes.insert(in.bytes.end(), citm.begin() + std::ptrdiff_t(p.first),
                        citm.begin() + std::ptrdiff_t(p.second));
      }
      v.push_back(std::move(in));
    }
  }
  return v;
}

std::vector<input> make_all_inputs(const std::string& corpus_dir) {
  std::vector<input> all = make_kind_inputs();
  for (auto* part : {make_corpus_inputs, make_sequence_inputs}) {
    std::vector<input> more = part(corpus_dir);
    for (input& in : more) all.push_back(std::move(in));
  }
  for (input& in : all) {
    status st;
    in.sum = walk(in.bytes.data(), in.bytes.size(), false, &st);
    if (st != status::ok)
      die("input " + in.name +
          " is not well-formed for libcbor_fast: " + cbor_fast::status_name(st));
    in.docs = split_sequence(in.bytes.data(), in.bytes.size());
  }
  return all;
}

// ---- libcbor_fast reference operations -----------------------------------------

namespace {
/// What walk() does with one item (both the pull and the visitor loop use it).
inline void fold(checksum& c, const item& it) noexcept {
  switch (it.type) {
    case item_type::unsigned_int: c.on_uint(it.value()); break;
    case item_type::negative_int: c.on_negative(it.value()); break;
    case item_type::byte_string:
    case item_type::text_string:
      if (it.is_indefinite()) {
        c.on_container(0);
      } else {
        const cbor_fast::byte_view b = it.bytes();
        c.on_string(b.data, b.size);
      }
      break;
    case item_type::array:
    case item_type::map: c.on_container(it.is_indefinite() ? 0 : it.count()); break;
    case item_type::tag: c.on_tag(it.tag_number()); break;
    case item_type::boolean: c.on_bool(it.boolean_value()); break;
    case item_type::floating: c.on_float(it.float_value()); break;
    case item_type::null:
    case item_type::undefined:
    case item_type::simple: c.on_simple(); break;
    case item_type::end:
    case item_type::none: break;
  }
}
}  // namespace

checksum walk(const uint8_t* data, size_t size, bool validate_utf8, status* st) noexcept {
  cbor_fast::reader_options options;
  options.validate_utf8 = validate_utf8;
  cbor_fast::reader r(data, size, options);
  checksum c;
  item it;
  status s;
  while ((s = r.next(it)) == status::ok) fold(c, it);
  *st = s == status::end ? status::ok : s;
  return c;
}

checksum walk_visit(const uint8_t* data, size_t size, bool validate_utf8, status* st) noexcept {
  cbor_fast::reader_options options;
  options.validate_utf8 = validate_utf8;
  cbor_fast::reader r(data, size, options);
  // A local sum (returned by copy, not as the return slot) can stay in registers.
  checksum c;
  status s;
  while ((s = r.visit([&c](const item& it) noexcept { fold(c, it); })) == status::ok) {}
  *st = s == status::end ? status::ok : s;
  return checksum(c);
}

namespace {
/// What walk_capi() does with one C item.
inline void fold_c(checksum& c, const cbor_fast_item& it) noexcept {
  switch (it.type) {
    case CBOR_FAST_TYPE_UINT: c.on_uint(it.value); break;
    case CBOR_FAST_TYPE_NEGATIVE: c.on_negative(it.value); break;
    case CBOR_FAST_TYPE_BYTES:
    case CBOR_FAST_TYPE_TEXT:
      if ((it.flags & CBOR_FAST_ITEM_INDEFINITE) != 0)
        c.on_container(0);
      else
        c.on_string(it.data, it.size);
      break;
    case CBOR_FAST_TYPE_ARRAY:
    case CBOR_FAST_TYPE_MAP:
      c.on_container((it.flags & CBOR_FAST_ITEM_INDEFINITE) != 0 ? 0 : it.value);
      break;
    case CBOR_FAST_TYPE_TAG: c.on_tag(it.value); break;
    case CBOR_FAST_TYPE_BOOL: c.on_bool(it.value == 21); break;
    case CBOR_FAST_TYPE_FLOAT: c.on_float(it.float_value); break;
    case CBOR_FAST_TYPE_NULL:
    case CBOR_FAST_TYPE_UNDEFINED:
    case CBOR_FAST_TYPE_SIMPLE: c.on_simple(); break;
    default: break;
  }
}
}  // namespace

checksum walk_capi(const uint8_t* data, size_t size, bool batch, bool* ok) noexcept {
  checksum c;
  // The loop a C caller writes for each call: the same shape as walk()'s.
  *ok = for_each_c_item(data, size, batch,
                        [&c](const cbor_fast_item& it) noexcept { fold_c(c, it); });
  return c;
}

status validate(const uint8_t* data, size_t size, bool validate_utf8) noexcept {
  cbor_fast::reader_options options;
  options.validate_utf8 = validate_utf8;
  cbor_fast::reader r(data, size, options);
  status s;
  while ((s = r.skip()) == status::ok) {}
  return s == status::end ? status::ok : s;
}

std::vector<size_t> split_sequence(const uint8_t* data, size_t size) {
  cbor_fast::reader r(data, size);
  std::vector<size_t> starts;
  for (;;) {
    const size_t at = r.offset();
    const status s = r.skip();
    if (s == status::end) break;
    if (s != status::ok) die(std::string("split_sequence: ") + cbor_fast::status_name(s));
    starts.push_back(at);
  }
  starts.push_back(size);
  return starts;
}

tape record(const uint8_t* data, size_t size) {
  cbor_fast::reader r(data, size);
  tape t;
  item it;
  status s;
  while ((s = r.next(it)) == status::ok) t.push_back(it);
  if (s != status::end) die(std::string("record: ") + cbor_fast::status_name(s));
  return t;
}

status replay(const tape& t, cbor_fast::writer& w) noexcept {
  for (const item& it : t) {
    status s = status::ok;
    switch (it.type) {
      case item_type::unsigned_int: s = w.write_uint(it.value()); break;
      case item_type::negative_int: s = w.write_negative(it.value()); break;
      case item_type::byte_string:
        s = it.is_indefinite() ? w.begin_bytes_indefinite() : w.write_bytes(it.bytes());
        break;
      case item_type::text_string:
        s = it.is_indefinite() ? w.begin_text_indefinite() : w.write_text(it.text());
        break;
      case item_type::array:
        s = it.is_indefinite() ? w.begin_array_indefinite() : w.begin_array(it.count());
        break;
      case item_type::map:
        s = it.is_indefinite() ? w.begin_map_indefinite() : w.begin_map(it.count());
        break;
      case item_type::tag: s = w.write_tag(it.tag_number()); break;
      case item_type::boolean: s = w.write_bool(it.boolean_value()); break;
      case item_type::null: s = w.write_null(); break;
      case item_type::undefined: s = w.write_undefined(); break;
      case item_type::simple: s = w.write_simple(it.simple_value()); break;
      case item_type::floating:
        // The typed calls, as for data held as half bits, float or double
        // (libcbor's cbor_encode_half/single/double get the same values).
        s = it.width == 2   ? w.write_float16(uint16_t(it.float_bits()))
            : it.width == 4 ? w.write_float32(float(it.float_value()))
                            : w.write_float64(it.float_value());
        break;
      case item_type::end: s = w.end(); break;
      case item_type::none: break;
    }
    if (s != status::ok) return s;
  }
  return w.finish();
}

#ifdef CBOR_FAST_BENCH_DOCUMENT
namespace {
void fold_node(const cbor_node* n, checksum& c) {
  switch (cbor_node_type(n)) {
    case CBOR_FAST_TYPE_UINT:
    case CBOR_FAST_TYPE_NEGATIVE: {
      uint64_t raw = 0;
      int negative = 0;
      cbor_node_get_int_raw(n, &raw, &negative);
      if (negative) {
        c.on_negative(raw);
      } else {
        c.on_uint(raw);
      }
      break;
    }
    case CBOR_FAST_TYPE_BYTES: {
      const uint8_t* p = nullptr;
      size_t size = 0;
      cbor_node_get_bytes(n, &p, &size);
      c.on_string(p, size);
      break;
    }
    case CBOR_FAST_TYPE_TEXT: {
      const char* p = nullptr;
      size_t size = 0;
      cbor_node_get_text(n, &p, &size);
      c.on_string(p, size);
      break;
    }
    case CBOR_FAST_TYPE_ARRAY:
    case CBOR_FAST_TYPE_MAP:
      c.on_container(cbor_node_is_indefinite(n) ? 0 : cbor_node_size(n));
      for (const cbor_node* k = cbor_node_child(n); k != nullptr; k = cbor_node_next(k))
        fold_node(k, c);
      break;
    case CBOR_FAST_TYPE_TAG: {
      uint64_t tag = 0;
      cbor_node_get_tag(n, &tag);
      c.on_tag(tag);
      fold_node(cbor_node_tag_content(n), c);
      break;
    }
    case CBOR_FAST_TYPE_BOOL: {
      int b = 0;
      cbor_node_get_bool(n, &b);
      c.on_bool(b != 0);
      break;
    }
    case CBOR_FAST_TYPE_FLOAT: {
      double d = 0;
      cbor_node_get_double(n, &d);
      c.on_float(d);
      break;
    }
    case CBOR_FAST_TYPE_NULL:
    case CBOR_FAST_TYPE_UNDEFINED:
    case CBOR_FAST_TYPE_SIMPLE: c.on_simple(); break;
    case CBOR_FAST_TYPE_NONE:
    case CBOR_FAST_TYPE_END: break;
  }
}
}  // namespace

checksum document_checksum(const void* doc) {
  checksum c;
  fold_node(cbor_doc_root(static_cast<const cbor_doc*>(doc)), c);
  return c;
}
#endif

}  // namespace cbor_fast_bench
